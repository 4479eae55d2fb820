# The literal O(n^2) definitions of SPEC.md, written as directly as possible
# and independent of the package code. Every sample i counts w[i] times.

harmonic <- function(m) if (m <= 0) 0 else sum(1 / seq_len(m))

literal_ranks <- function(s, w = rep(1, length(s))) {
  list(
    r = vapply(s, function(si) sum(w[s <= si]), numeric(1)),
    a = vapply(s, function(si) sum(w[s < si]), numeric(1)) + 1,
    up = vapply(s, function(si) sum(w[s >= si]), numeric(1)),
    n = sum(w)
  )
}

# Eq. 10 of Zhou et al.: mean over thresholds s_j of the selective risk
literal_aurc_alpha <- function(s, l, w = rep(1, length(s))) {
  n <- sum(w)
  terms <- vapply(seq_along(s), function(j) {
    if (w[j] == 0) return(0)
    accepted <- s >= s[j]
    w[j] * sum(w * l * accepted) / sum(w * accepted)
  }, numeric(1))
  sum(terms) / n
}

literal_alpha_weights <- function(s, w = rep(1, length(s))) {
  up <- literal_ranks(s, w)$up
  vapply(s, function(si) {
    j <- s <= si & w > 0
    sum(w[j] / up[j])
  }, numeric(1))
}

literal_aurc_alpha_prime <- function(s, l, w = rep(1, length(s))) {
  rk <- literal_ranks(s, w)
  sum(w * -log(1 - rk$r / (rk$n + 1)) * l) / rk$n
}

# (1/n^2) sum_i sum_j loss_i 1[s_i >= s_j]
literal_aurc_sele <- function(s, l, w = rep(1, length(s))) {
  n <- sum(w)
  total <- 0
  for (i in seq_along(s)) {
    for (j in seq_along(s)) {
      total <- total + w[i] * w[j] * l[i] * (s[i] >= s[j])
    }
  }
  total / n^2
}

# Selective risk curve at every distinct threshold, descending (SPEC Sec. 3)
literal_rc <- function(s, l, w = rep(1, length(s))) {
  n <- sum(w)
  thr <- sort(unique(s[w > 0]), decreasing = TRUE)
  acc <- vapply(thr, function(t) sum(w[s >= t]), numeric(1))
  loss <- vapply(thr, function(t) sum(w[s >= t] * l[s >= t]), numeric(1))
  data.frame(
    threshold = thr, n_accepted = acc, coverage = acc / n,
    selective_risk = loss / acc, generalized_risk = loss / n
  )
}

# Trapezoid over (coverage, selective risk), flat from the first point to 0
literal_aurc_trapezoid <- function(s, l, w = rep(1, length(s))) {
  rc <- literal_rc(s, l, w)
  cov <- c(0, rc$coverage)
  risk <- c(rc$selective_risk[1], rc$selective_risk)
  sum(diff(cov) * (head(risk, -1) + tail(risk, -1)) / 2)
}

literal_aurc <- function(s, l, w = rep(1, length(s)), estimator) {
  switch(estimator,
    alpha = literal_aurc_alpha(s, l, w),
    alpha_prime = literal_aurc_alpha_prime(s, l, w),
    sele = literal_aurc_sele(s, l, w),
    "2sele" = 2 * literal_aurc_sele(s, l, w),
    trapezoid = literal_aurc_trapezoid(s, l, w)
  )
}

# Random data with many ties: scores rounded to a coarse grid.
random_tied_data <- function(n, grid = 0.25, binary = FALSE) {
  s <- round(stats::rnorm(n) / grid) * grid
  l <- if (binary) stats::rbinom(n, 1, 0.3) else stats::rexp(n)
  list(score = s, loss = l)
}

expect_rel_equal <- function(object, expected, tol = 1e-12) {
  expect_equal(object, expected, tolerance = tol)
}

# ---- bootstrap ranking (issue 5) --------------------------------------------
# Literal definitions used by test-ranking.R (SPEC Secs. 1, 4, 7).

# Trapezoid AUGRC, (1/n^2) sum_i (mid_i - 1/2) loss_i with mid the mid rank
literal_ranking_augrc <- function(s, l) {
  n <- length(s)
  mid <- vapply(s, function(si) (sum(s < si) + 1 + sum(s <= si)) / 2, 0)
  sum((mid - 1 / 2) * l) / n^2
}

# Step AUGRC, (1/n^2) sum_i r_i loss_i with r the max rank
literal_ranking_augrc_step <- function(s, l) {
  r <- vapply(s, function(si) sum(s <= si), 0)
  sum(r * l) / length(s)^2
}

# P(s_correct > s_failure) + P(s_correct = s_failure) / 2 over all pairs
literal_ranking_failure_auroc <- function(s, f) {
  ok <- s[f == 0]
  bad <- s[f == 1]
  if (!length(ok) || !length(bad)) return(NA_real_)
  mean(outer(ok, bad, ">") + outer(ok, bad, "==") / 2)
}

# Kendall's tau-b from its definition over all pairs
literal_kendall_tau_b <- function(x, y) {
  n <- length(x)
  conc <- 0
  tx <- 0
  ty <- 0
  for (i in seq_len(n - 1)) {
    for (j in (i + 1):n) {
      a <- sign(x[i] - x[j])
      b <- sign(y[i] - y[j])
      conc <- conc + a * b
      tx <- tx + (a != 0)
      ty <- ty + (b != 0)
    }
  }
  conc / sqrt(tx * ty)
}
