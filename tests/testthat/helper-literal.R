# The literal O(n^2) definitions of inst/DEFINITIONS.md, written as directly as possible
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
  # the double sum over i and j; the sum over j is one vector operation (a
  # scalar inner loop takes seconds on the repeated rows of the weight tests
  # once R's JIT leaves it uncompiled)
  for (i in seq_along(s)) {
    total <- total + w[i] * l[i] * sum(w * (s[i] >= s))
  }
  total / n^2
}

# Selective risk curve at every distinct threshold, descending (DEFINITIONS Sec. 3)
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

# ---- metrics of Traub et al., curves (issue 3) ----

# Trapezoid over (0, 0) and (coverage, generalized risk) of literal_rc()
literal_augrc_trapezoid <- function(s, l, w = rep(1, length(s))) {
  rc <- literal_rc(s, l, w)
  x <- c(0, rc$coverage)
  y <- c(0, rc$generalized_risk)
  sum(diff(x) * (head(y, -1) + tail(y, -1)) / 2)
}

# (1/n^2) sum_i (mid_i - 1/2) loss_i, unweighted
literal_augrc_mid <- function(s, l) {
  rk <- literal_ranks(s)
  sum(((rk$a + rk$r) / 2 - 1 / 2) * l) / rk$n^2
}

# P(s_correct > s_failure) + 1/2 P(tie) over all weighted pairs
literal_failure_auroc <- function(s, f, w = rep(1, length(s))) {
  num <- 0
  den <- 0
  for (i in which(f == 0)) {
    for (j in which(f == 1)) {
      pw <- w[i] * w[j]
      num <- num + pw * ((s[i] > s[j]) + 0.5 * (s[i] == s[j]))
      den <- den + pw
    }
  }
  num / den
}

# Average precision, failures positive, flagged set {s <= t} at every
# distinct threshold t from the lowest up
literal_failure_aupr <- function(s, f, w = rep(1, length(s))) {
  thr <- sort(unique(s[w > 0]))
  total <- sum(w * f)
  prev_rec <- 0
  ap <- 0
  for (t in thr) {
    flagged <- s <= t
    tp <- sum(w * f * flagged)
    rec <- tp / total
    prec <- tp / sum(w * flagged)
    ap <- ap + (rec - prev_rec) * prec
    prev_rec <- rec
  }
  ap
}

# The oracle order as data: blocks of equal loss (total weight c) become
# floor(c) unit samples and one with the remainder, lowest loss most
# confident, every sample a distinct score.
literal_oracle_data <- function(l, w = rep(1, length(l))) {
  vals <- sort(unique(l[w > 0]))
  ll <- numeric()
  ww <- numeric()
  for (v in vals) {
    cnt <- sum(w[l == v])
    k <- floor(cnt)
    ll <- c(ll, rep(v, k))
    ww <- c(ww, rep(1, k))
    if (cnt - k > 0) {
      ll <- c(ll, v)
      ww <- c(ww, cnt - k)
    }
  }
  list(score = rev(seq_along(ll)), loss = ll, w = ww)
}

literal_aurc_oracle <- function(l, w = rep(1, length(l)), estimator) {
  o <- literal_oracle_data(l, w)
  literal_aurc(o$score, o$loss, o$w, estimator = estimator)
}

literal_naurc <- function(s, l, w = rep(1, length(s)), estimator) {
  a <- literal_aurc(s, l, w, estimator = estimator)
  o <- literal_aurc_oracle(l, w, estimator)
  (a - o) / (sum(w * l) / sum(w) - o)
}

literal_risk_at_coverage <- function(s, l, w = rep(1, length(s)), cov) {
  rc <- literal_rc(s, l, w)
  k <- which(rc$coverage >= cov)[1]
  c(risk = rc$selective_risk[k], coverage = rc$coverage[k])
}

literal_coverage_at_risk <- function(s, l, w = rep(1, length(s)), risk) {
  rc <- literal_rc(s, l, w)
  max(c(0, rc$coverage[rc$selective_risk <= risk]))
}

# Plain-R softmax (not stable: only for moderate logits)
plain_softmax <- function(z) exp(z) / rowSums(exp(z))

# The toy example of Traub et al., Fig. 2 b-d (constructed; see
# test-metric-set.R): failure positions in descending confidence.
traub_toy_example <- function() {
  failures <- list(
    "CSF-1" = c(2, 17, 18, 19), "CSF-2" = c(11, 14, 15, 16),
    "CSF-3" = c(10, 12, 14, 15, 17)
  )
  do.call(rbind, lapply(names(failures), function(csf) {
    data.frame(
      csf = csf, score = (20:1) / 20,
      failure = as.numeric(1:20 %in% failures[[csf]])
    )
  }))
}

# ---- bootstrap ranking (issue 5) --------------------------------------------
# Literal definitions used by test-ranking.R (DEFINITIONS Secs. 1, 4, 7).

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

# ---- Calibration (issue 6): literal definitions of DEFINITIONS Sec. 8 -------------
# Written from inst/DEFINITIONS.md and the paper's description, sample by sample (or tie
# group by tie group), independent of src/core/binning.h.

# Per-bin table from a bin index per sample (bins 1..k, ascending).
literal_bin_table <- function(conf, correct, bin, k, w = rep(1, length(conf))) {
  out <- lapply(seq_len(k), function(b) {
    i <- bin == b
    n <- sum(w[i])
    data.frame(
      n = n,
      mean_confidence = if (n > 0) sum(w[i] * conf[i]) / n else NA_real_,
      accuracy = if (n > 0) sum(w[i] * correct[i]) / n else NA_real_,
      min_confidence = if (n > 0) min(conf[i]) else NA_real_,
      max_confidence = if (n > 0) max(conf[i]) else NA_real_
    )
  })
  do.call(rbind, out)
}

literal_ece <- function(tab) {
  ok <- tab$n > 0
  sum(tab$n[ok] * abs(tab$accuracy[ok] - tab$mean_confidence[ok])) /
    sum(tab$n[ok])
}

literal_mce <- function(tab) {
  ok <- tab$n > 0
  max(abs(tab$accuracy[ok] - tab$mean_confidence[ok]))
}

# Bin of each sample for edges e: (e[b], e[b+1]], the first closed on the left
literal_breaks_bin <- function(conf, edges) {
  vapply(conf, function(x) {
    b <- which(x <= edges[-1])[1]
    if (is.na(b)) length(edges) - 1 else b
  }, numeric(1))
}

# Adaptive binning from the highest confidence down. `units` is a list of
# sample-index vectors in descending confidence (single samples for the
# authors' code, tie groups otherwise). Returns the bin weights (descending)
# after the first pass, the last bin's target, and the unit count per bin.
literal_adaptive_pass <- function(conf, w, units, z, min_remaining,
                                  min_range) {
  total <- sum(w)
  lowest <- min(conf)
  bins <- list()
  cur <- integer()
  before <- 0
  target <- Inf
  for (u in units) {
    if (length(cur) > 0 && sum(w[cur]) > target &&
      total - before > min_remaining &&
      min(conf[cur]) - lowest > min_range) {
      bins[[length(bins) + 1]] <- cur
      cur <- integer()
    }
    cur <- c(cur, u)
    eps <- max(conf[cur]) - min(conf[cur])
    target <- if (eps == 0) Inf else 0.25 * (z / eps)^2
    before <- before + sum(w[u])
  }
  bins[[length(bins) + 1]] <- cur
  list(bins = bins, target = target)
}

# The authors' public code as described in DEFINITIONS Sec. 8 (no weights):
# samples in descending confidence, ties in input order; top-up takes
# trunc(needed * n_last / n) from every other bin. Returns the bin of every
# sample (1 = lowest confidence), or a string naming the failure.
literal_ding2020_bins <- function(conf, z = 1.645, min_remaining = 40,
                                  min_range = 0.05) {
  n <- length(conf)
  desc <- order(-conf) # order() is stable: ties keep the input order
  pass <- literal_adaptive_pass(conf, rep(1, n), as.list(desc), z,
    min_remaining, min_range)
  counts <- lengths(pass$bins)
  nb <- length(counts)
  if (nb > 1 && pass$target - counts[nb] > 0) {
    needed <- pass$target - counts[nb]
    if (!is.finite(needed)) return("infinite target")
    extract <- trunc(needed * counts[nb] / n)
    counts[-nb] <- counts[-nb] - extract
    counts[nb] <- counts[nb] + extract * (nb - 1)
    if (any(counts <= 0)) return("non-positive bin")
  }
  bin_desc <- rep(seq_len(nb), counts)
  bin <- integer(n)
  bin[desc] <- nb + 1 - bin_desc
  bin
}

# The tie-respecting adaptive binning of DEFINITIONS Sec. 8, with weights: tie
# groups are units; the top-up takes floor(needed * n_b / W) from every
# other bin b; each moved boundary goes to the nearest tie-group edge (the
# nearer one to the old boundary when equally near) and coinciding
# boundaries merge bins.
literal_adaptive_bins <- function(conf, w = rep(1, length(conf)), z = 1.645,
                                  min_remaining = 40, min_range = 0.05) {
  vals <- sort(unique(conf), decreasing = TRUE)
  units <- lapply(vals, function(v) which(conf == v))
  pass <- literal_adaptive_pass(conf, w, units, z, min_remaining, min_range)
  total <- sum(w)
  num <- vapply(pass$bins, function(i) sum(w[i]), numeric(1))
  nb <- length(num)
  # unit edges as cumulative weight from the top
  unit_cum <- cumsum(vapply(units, function(i) sum(w[i]), numeric(1)))
  # boundaries as the number of units above them
  bnd <- cumsum(vapply(pass$bins, function(i) {
    sum(vapply(units, function(u) all(u %in% i), logical(1)))
  }, numeric(1)))[-nb]
  needed <- pass$target - num[nb]
  if (nb > 1 && needed > 0 && is.finite(needed)) {
    p <- cummax(cumsum(num[-nb] - floor(needed * num[-nb] / total)))
    edges <- c(0, unit_cum)
    bnd <- vapply(p, function(pp) {
      if (pp <= 0) return(0)
      if (pp >= total) return(length(units))
      g <- which(edges >= pp)[1]
      if (edges[g] == pp) return(g - 1)
      if (edges[g] - pp <= pp - edges[g - 1]) g - 1 else g - 2
    }, numeric(1))
    bnd <- unique(bnd[bnd > 0 & bnd < length(units)])
  }
  unit_bin_desc <- findInterval(seq_along(units) - 1, bnd) + 1
  nbf <- length(bnd) + 1
  bin <- integer(length(conf))
  for (k in seq_along(units)) bin[units[[k]]] <- nbf + 1 - unit_bin_desc[k]
  bin
}

# Equal-mass bins: boundary b at the tie-group edge nearest to b * W / k
# (the lower edge when equally near), coinciding boundaries dropped.
literal_equal_mass_bins <- function(conf, k, w = rep(1, length(conf))) {
  vals <- sort(unique(conf))
  cum <- c(0, cumsum(vapply(vals, function(v) sum(w[conf == v]), numeric(1))))
  total <- sum(w)
  bnd <- vapply(seq_len(k - 1), function(b) {
    t <- b * total / k
    g <- which(cum >= t)[1]
    if (t - cum[g - 1] <= cum[g] - t) g - 2 else g - 1
  }, numeric(1))
  bnd <- unique(bnd[bnd > 0 & bnd < length(vals)])
  findInterval(match(conf, vals) - 1, bnd) + 1
}

# Wilson score interval for a proportion p from n (weighted) trials
literal_wilson <- function(p, n, level = 0.95) {
  z <- stats::qnorm(1 - (1 - level) / 2)
  center <- (p + z^2 / (2 * n)) / (1 + z^2 / n)
  half <- z / (1 + z^2 / n) * sqrt(p * (1 - p) / n + z^2 / (4 * n^2))
  cbind(lower = center - half, upper = center + half)
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

# ---- Smooth ECE and CORP (issue 13) ----

# relplot's smooth ECE at bandwidth sigma, step by step as its library does
# it, with every sum written out: deposit by linear binning on M nodes,
# convolution over the whole +-1/2 window with one reflection, linear
# interpolation at G points, sum |R| / sum (D + 1e-4).
literal_smooth_ece_relplot <- function(f, y, w = rep(1, length(f)), sigma) {
  r <- (y - f) * w
  m <- floor(max(2000, round(20 / sigma)) / 2) + 1
  deposit <- function(v) {
    out <- numeric(m)
    for (i in seq_along(f)) {
      t <- f[i] * (m - 1)
      b <- min(floor(t), m - 2)
      a <- t - b
      out[b + 1] <- out[b + 1] + (1 - a) * v[i]
      out[b + 2] <- out[b + 2] + a * v[i]
    }
    out
  }
  h <- (m - 1) / 2
  kernel <- function(d) {
    exp(-(d / (m - 1))^2 / (2 * sigma^2)) / (sqrt(2 * pi) * sigma)
  }
  convolve <- function(v) {
    out <- numeric(m)
    for (p in 0:(m - 1)) {
      q <- (p - h):(p + h)
      src <- ifelse(q < 0, -q, ifelse(q > m - 1, 2 * (m - 1) - q, q))
      out[p + 1] <- sum(v[src + 1] * kernel(q - p))
    }
    out
  }
  g <- max(200, round(10 / sigma))
  tt <- seq(0, 1, length.out = g)
  interpolate <- function(s) {
    k <- pmin(floor(tt * (m - 1)), m - 2)
    a <- tt * (m - 1) - k
    s[k + 1] * (1 - a) + s[k + 2] * a
  }
  res <- interpolate(convolve(deposit(r)))
  den <- interpolate(convolve(deposit(w)))
  sum(abs(res)) / sum(den + 1e-4)
}

# The definition: int_0^1 |(1/W) sum_i w_i (y_i - f_i) K(t, f_i)| dt with
# the reflected Gaussian kernel (images f + 2k, -f + 2k), as a double loop
# over the evaluation points and the samples, trapezoid rule on the fine
# method's points.
literal_smooth_ece_fine <- function(f, y, w = rep(1, length(f)), sigma) {
  g <- max(200, ceiling(10 / sigma))
  tt <- (0:g) / g
  kernel <- function(t, x) {
    s <- 0
    for (k in -3:3) {
      s <- s + stats::dnorm(t - x - 2 * k, sd = sigma) +
        stats::dnorm(t + x - 2 * k, sd = sigma)
    }
    s
  }
  vals <- numeric(g + 1)
  for (j in seq_along(tt)) {
    s <- 0
    for (i in seq_along(f)) s <- s + w[i] * (y[i] - f[i]) * kernel(tt[j], f[i])
    vals[j] <- abs(s / sum(w))
  }
  (sum(vals) - (vals[1] + vals[g + 1]) / 2) / g
}

# relplot's bandwidth search around any smECE_sigma function.
literal_smooth_sigma <- function(smece) {
  small <- function(s) s < 0.001 || s < smece(s)
  if (small(1)) return(1)
  lo <- 0
  hi <- 1
  for (i in 1:10) {
    mid <- (lo + hi) / 2
    if (small(mid)) lo <- mid else hi <- mid
  }
  hi
}

# Isotonic regression by brute force: every partition of the distinct
# confidences into consecutive blocks whose (weighted) outcome means do not
# decrease is a monotone fit; the one with the least weighted squared error
# is the isotonic regression. Returns the fitted value of every sample.
literal_isotonic <- function(x, y, w = rep(1, length(x))) {
  ux <- sort(unique(x))
  m <- length(ux)
  gw <- vapply(ux, function(v) sum(w[x == v]), numeric(1))
  gs <- vapply(ux, function(v) sum(w[x == v] * y[x == v]), numeric(1))
  best <- NULL
  best_sse <- Inf
  for (code in 0:(2^(m - 1) - 1)) {
    cuts <- if (m > 1) which(bitwAnd(code, 2^(0:(m - 2))) > 0) else integer()
    block <- cumsum(c(1, seq_len(m - 1) %in% cuts))
    means <- as.vector(tapply(gs, block, sum) / tapply(gw, block, sum))
    if (any(diff(means) < 0)) next
    fit <- means[block]
    sse <- sum(w * (y - fit[match(x, ux)])^2)
    if (sse < best_sse - 1e-12) {
      best_sse <- sse
      best <- fit
    }
  }
  unname(best[match(x, ux)])
}

# Kumar et al.'s get_calibration_error(p, y) for binary 0/1 outcomes
# (p = 2, debias = TRUE), written from their description: discrete data
# (fewer than n / 4 distinct values) get one bin per value, otherwise 15
# parts of ceiling(n / 15) sorted samples with edges at the midpoints;
# a sample goes to the first bin whose upper edge is >= it.
literal_kumar_ce <- function(p, y, n_bins = 15, legacy = FALSE) {
  n <- length(p)
  s <- sort(p)
  u <- sort(unique(p))
  if (length(u) < n / 4) {
    edges <- c(if (length(u) > 1) (u[-length(u)] + u[-1]) / 2, 1)
  } else {
    starts <- literal_split_starts(n, n_bins, legacy)
    edges <- numeric()
    for (j in seq_along(starts)[-1]) {
      edges <- c(edges, (s[starts[j] - 1] + s[starts[j]]) / 2)
    }
    edges <- sort(unique(c(edges, 1)))
  }
  bin <- vapply(p, function(v) which(edges >= v)[1], integer(1))
  total <- 0
  for (b in seq_along(edges)) {
    inb <- bin == b
    nb <- sum(inb)
    if (nb < 2) next
    acc <- mean(y[inb])
    total <- total + nb / n *
      ((mean(p[inb]) - acc)^2 - acc * (1 - acc) / (nb - 1))
  }
  sqrt(max(total, 0))
}

# The first position of every part of Kumar et al.'s split of n sorted
# values: numpy.array_split into min(n_bins, n) parts (the current
# library; the first n mod k parts one longer), or parts of
# ceiling(n / n_bins) (the library before 2022-08-27).
literal_split_starts <- function(n, n_bins, legacy = FALSE) {
  if (legacy) return(seq(1, n, by = ceiling(n / n_bins)))
  k <- min(n_bins, n)
  starts <- integer(k)
  pos <- 1
  for (j in seq_len(k)) {
    starts[j] <- pos
    pos <- pos + n %/% k + (if (j <= n %% k) 1 else 0)
  }
  starts
}

# ---- influence functions (issue 10) ----

# Influence values by numerical differentiation: sample i's weight grows by
# h while the total weight is held fixed, so d metric = IF_i / N * h.
# `f(w)` evaluates the metric with case weights w. Central differences.
numeric_influence <- function(f, w, i, h = 1e-5) {
  total <- sum(w)
  up <- w
  up[i] <- up[i] + h
  up <- up * total / (total + h)
  down <- w
  down[i] <- down[i] - h
  down <- down * total / (total - h)
  (f(up) - f(down)) / (2 * h) * total
}

# Trapezoid AUGRC as a V-statistic with kernel
# k(i, j) = loss_i [1(s_j < s_i) + 1/2 1(s_j = s_i)]; its first-order
# Hoeffding projection, written as a double loop.
literal_if_augrc <- function(s, l) {
  n <- length(s)
  k <- matrix(0, n, n)
  for (i in seq_len(n)) {
    for (j in seq_len(n)) {
      k[i, j] <- l[i] * ((s[j] < s[i]) + 0.5 * (s[j] == s[i]))
    }
  }
  theta <- sum(k) / n^2
  vapply(seq_len(n), function(i) {
    (sum(k[i, ]) + sum(k[, i])) / n - 2 * theta
  }, numeric(1))
}

# SELE, (1/n^2) sum_i sum_j loss_i 1(s_j <= s_i): Hoeffding projection.
literal_if_sele <- function(s, l) {
  n <- length(s)
  k <- outer(seq_len(n), seq_len(n), function(i, j) l[i] * (s[j] <= s[i]))
  theta <- sum(k) / n^2
  (rowSums(k) + colSums(k)) / n - 2 * theta
}

# DeLong's placement values as influence values of the failure AUROC:
# (V10 - A) / P(correct) for correct predictions, (V01 - A) / P(failure) for
# failures.
literal_if_delong <- function(s, failure) {
  ok <- which(failure == 0)
  bad <- which(failure == 1)
  psi <- function(x, y) (x > y) + 0.5 * (x == y)
  auc <- mean(outer(s[ok], s[bad], psi))
  n <- length(s)
  out <- numeric(n)
  for (i in ok) out[i] <- (mean(psi(s[i], s[bad])) - auc) * n / length(ok)
  for (j in bad) out[j] <- (mean(psi(s[ok], s[j])) - auc) * n / length(bad)
  out
}

# The population optimum AURC* of a loss distribution with weights w:
# sum_k lambda_k (K(F_k) - K(F_{k-1})), K(t) = t - t log t (the integral of
# -log), over the distinct losses lambda_k ascending.
literal_population_optimum <- function(l, w = rep(1, length(l))) {
  lam <- sort(unique(l))
  mass <- vapply(lam, function(v) sum(w[l == v]), numeric(1)) / sum(w)
  cum <- cumsum(mass)
  k_int <- function(t) ifelse(t > 0, t - t * log(t), 0)
  sum(lam * (k_int(cum) - k_int(c(0, utils::head(cum, -1)))))
}
