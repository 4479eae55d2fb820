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

# --- estimator statistics (issue 4) -----------------------------------------
# Zhou et al. Props 3.3-3.5, A.2, A.3 evaluated directly: binomial sums with
# dbinom and integrals over the Beta density with integrate().

# weight of rank r among n; alpha as the literal harmonic difference
literal_weight <- function(r, n, estimator) {
  switch(estimator,
    alpha = vapply(r, function(ri) {
      if (ri == 0) 0 else sum(1 / rev((n - ri + 1):n))
    }, numeric(1)),
    alpha_prime = -log(1 - r / (n + 1)),
    sele = r / n,
    "2sele" = 2 * r / n
  )
}

# E[w(r)] + log(1 - beta), r = 1 + Bin(n - 1, beta)
literal_weight_bias <- function(beta, n, estimator) {
  r <- seq_len(n)
  sum(stats::dbinom(r - 1, n - 1, beta) * literal_weight(r, n, estimator)) +
    log(1 - beta)
}

# E[(w(r) + log(1 - beta))^2], beta ~ Beta(r, n + 1 - r). Integrated over
# t = -log(1 - beta) (smooth, no endpoint singularity): the density of t is
# (1 - e^-t)^(r-1) e^(-t (n + 1 - r)) / B(r, n + 1 - r).
literal_weight_mse <- function(r, n, estimator) {
  w <- literal_weight(r, n, estimator)
  f <- function(t) {
    (w - t)^2 * exp((r - 1) * log(-expm1(-t)) - (n + 1 - r) * t -
      lbeta(r, n + 1 - r))
  }
  m <- sum(1 / ((n - r + 1):n)) # E[t], a break point at the peak
  stats::integrate(f, 0, m, rel.tol = 1e-13, subdivisions = 1000L)$value +
    stats::integrate(f, m, Inf, rel.tol = 1e-13, subdivisions = 1000L)$value
}
