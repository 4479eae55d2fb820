# Intervals and paired comparisons of the balanced metrics (aurc_ba(),
# augrc_ba()) through selective_ci(truth =) and compare_scores(truth =):
# the bootstrap engine's kernels (tested against their literal definition
# in tests/cpp, test_balanced_metrics) and the influence functions of
# R/ci-influence-balanced.R.

ba_data <- function(n) {
  truth <- sample(c("a", "b", "c"), n, TRUE, prob = c(0.6, 0.3, 0.1))
  s <- stats::runif(n)
  p <- ifelse(truth == "a", 0.1, ifelse(truth == "b", 0.3, 0.5)) * (1.6 - s)
  list(s = s, f = stats::rbinom(n, 1, pmin(p, 1)), truth = truth)
}

test_that("replicates are the balanced metrics of the replicate rows", {
  set.seed(301)
  n <- 70
  d <- ba_data(n)
  d$s <- round(d$s, 1) # ties
  times <- 40
  idx <- matrix(sample.int(n, n * times, replace = TRUE), times)
  ci <- selective_ci_vec(d$s, d$f, truth = d$truth,
    metrics = c("aurc_ba", "augrc_ba", "aurc"), method = "bootstrap",
    indices = idx, conf_level = 0.9
  )
  expect_equal(ci$.estimator, c("balanced", "balanced", "alpha"))
  expect_equal(ci$.estimate, c(
    aurc_ba_vec(d$s, d$f, d$truth), augrc_ba_vec(d$s, d$f, d$truth),
    aurc_vec(d$s, d$f)
  ), tolerance = 1e-12)
  lit <- t(apply(idx, 1, function(i) {
    c(aurc_ba_vec(d$s[i], d$f[i], d$truth[i]),
      augrc_ba_vec(d$s[i], d$f[i], d$truth[i]))
  }))
  reps <- attr(ci, "replicates")
  expect_equal(unname(reps[, 1:2]), unname(lit), tolerance = 1e-12)
  expect_equal(ci$.lower[1:2], unname(apply(lit, 2, stats::quantile, 0.05)),
    tolerance = 1e-12
  )
  expect_equal(ci$.std_error[1:2], unname(apply(lit, 2, stats::sd)),
    tolerance = 1e-12
  )
})

test_that("weighted replicates are the metrics with the drawn counts", {
  set.seed(302)
  n <- 50
  d <- ba_data(n)
  w <- sample(0:3, n, replace = TRUE) # zero weights: rows and classes gone
  times <- 25
  set.seed(3021)
  seed <- aurc:::ci_bootstrap_seed()
  set.seed(3021)
  ci <- selective_ci_vec(d$s, d$f, truth = d$truth,
    metrics = c("aurc_ba", "augrc_ba"), method = "bootstrap", times = times,
    case_weights = w
  )
  counts <- aurc:::ci_bootstrap_counts(d$s, w, NULL, NULL, times, seed)
  lit <- t(apply(counts, 1, function(k) {
    c(aurc_ba_vec(d$s, d$f, d$truth, case_weights = k),
      augrc_ba_vec(d$s, d$f, d$truth, case_weights = k))
  }))
  expect_equal(unname(attr(ci, "replicates")), unname(lit), tolerance = 1e-12)
  expect_equal(ci$.estimate, c(
    aurc_ba_vec(d$s, d$f, d$truth, case_weights = w),
    augrc_ba_vec(d$s, d$f, d$truth, case_weights = w)
  ), tolerance = 1e-12)
})

test_that("the bootstrap intervals of the balanced metrics cover", {
  set.seed(303)
  big <- ba_data(2e6)
  truth <- c(
    aurc_ba_vec(big$s, big$f, big$truth),
    augrc_ba_vec(big$s, big$f, big$truth)
  )
  reps <- test_grid(150, 600)
  hits <- c(0, 0)
  for (k in seq_len(reps)) {
    d <- ba_data(400)
    ci <- selective_ci_vec(d$s, d$f, truth = d$truth,
      metrics = c("aurc_ba", "augrc_ba"), method = "bootstrap", times = 400
    )
    hits <- hits + (ci$.lower <= truth & truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_true(all(hits / reps >= band[1] - 0.03))
  expect_true(all(hits / reps <= band[2]))
})

test_that("paired comparisons of the balanced metrics", {
  set.seed(304)
  n <- 120
  d <- ba_data(n)
  df <- data.frame(a = d$s, b = d$s + stats::rnorm(n, sd = 0.3), f = d$f,
    f2 = stats::rbinom(n, 1, 0.3), truth = d$truth)
  times <- 60
  idx <- matrix(sample.int(n, n * times, replace = TRUE), times)
  for (m in c("aurc_ba", "augrc_ba")) {
    fun <- if (m == "aurc_ba") aurc_ba_vec else augrc_ba_vec
    cmp <- compare_scores(df, c(a, b), f, truth = truth, metric = m,
      method = "bootstrap", indices = idx
    )
    expect_equal(cmp$tests$difference,
      fun(df$a, df$f, df$truth) - fun(df$b, df$f, df$truth),
      tolerance = 1e-12
    )
    # (a resample may look like P(class) used as a score: not checked here)
    diffs <- suppressWarnings(apply(idx, 1, function(i) {
      fun(df$a[i], df$f[i], df$truth[i]) - fun(df$b[i], df$f[i], df$truth[i])
    }))
    expect_equal(cmp$tests$std_error, stats::sd(diffs), tolerance = 1e-12)
    # two models, each with its own failures
    cmp2 <- compare_scores(df, c(a, b), c(f, f2), truth = truth, metric = m,
      method = "bootstrap", indices = idx
    )
    expect_equal(cmp2$tests$difference,
      fun(df$a, df$f, df$truth) - fun(df$b, df$f2, df$truth),
      tolerance = 1e-12
    )
  }
  # BCa (jackknife acceleration) and strata run and stay ordered
  ci <- selective_ci(df, a, f, truth = truth, metrics = "aurc_ba",
    method = "bootstrap", type = "bca", times = 200, strata = truth
  )
  expect_true(ci$.lower <= ci$.estimate && ci$.estimate <= ci$.upper)
})

test_that("influence values are the derivatives of the balanced metrics", {
  set.seed(306)
  n <- 40
  truth <- sample(c("a", "b", "c"), n, TRUE, prob = c(0.5, 0.3, 0.2))
  s <- round(stats::runif(n), 1) # ties
  f <- stats::rbinom(n, 1, 0.35)
  for (w in list(rep(1, n), stats::runif(n, 0.5, 2))) {
    N <- sum(w)
    for (m in c("aurc_ba", "augrc_ba")) {
      fun <- if (m == "aurc_ba") aurc_ba_vec else augrc_ba_vec
      f_w <- function(ww) fun(s, f, truth, case_weights = ww)
      res <- aurc:::balanced_influence(m, s, f, truth, w)
      expect_equal(res$estimate, f_w(w), tolerance = 1e-12)
      # scale-free: the weighted influence values sum to 0
      expect_equal(sum(w * res$influence), 0, tolerance = 1e-12)
      # the weight of sample i grows by e N, the others shrink by e
      e <- 1e-7
      num <- vapply(seq_len(n), function(i) {
        w2 <- w * (1 - e)
        w2[i] <- w2[i] + e * N
        (f_w(w2) - f_w(w)) / e
      }, numeric(1))
      expect_equal(res$influence, num, tolerance = 1e-5, info = m)
    }
  }
  # a zero weight: the row (and a class only it has) is not there
  w0 <- c(0, rep(1, n - 1))
  tr0 <- truth
  tr0[1] <- "z"
  res <- aurc:::balanced_influence("aurc_ba", s, f, tr0, w0)
  expect_equal(res$estimate, aurc_ba_vec(s[-1], f[-1], truth[-1]),
    tolerance = 1e-12)
  expect_equal(res$influence[1], 0)
})

test_that("analytic intervals and tests of the balanced metrics", {
  set.seed(307)
  big <- ba_data(2e6)
  truth <- c(
    aurc_ba_vec(big$s, big$f, big$truth),
    augrc_ba_vec(big$s, big$f, big$truth)
  )
  reps <- test_grid(200, 1000)
  hits <- c(0, 0)
  for (k in seq_len(reps)) {
    d <- ba_data(2000)
    ci <- selective_ci_vec(d$s, d$f, truth = d$truth,
      metrics = c("aurc_ba", "augrc_ba"))
    hits <- hits + (ci$.lower <= truth & truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_true(all(hits / reps >= band[1] - 0.03))
  expect_true(all(hits / reps <= band[2]))
  # the analytic standard errors agree with a bootstrap's
  an <- selective_ci_vec(d$s, d$f, truth = d$truth,
    metrics = c("aurc_ba", "augrc_ba"))
  bs <- selective_ci_vec(d$s, d$f, truth = d$truth,
    metrics = c("aurc_ba", "augrc_ba"), method = "bootstrap", times = 2000)
  expect_equal(an$.std_error, bs$.std_error, tolerance = 0.1)
  expect_equal(an$.estimate, bs$.estimate, tolerance = 1e-12)
  # paired, analytic: the difference of the estimates, an SE near the
  # bootstrap's
  df <- data.frame(a = d$s, b = d$s + stats::rnorm(2000, sd = 0.3), f = d$f,
    truth = d$truth)
  an_cmp <- compare_scores(df, c(a, b), f, truth = truth, metric = "aurc_ba")
  bs_cmp <- compare_scores(df, c(a, b), f, truth = truth, metric = "aurc_ba",
    method = "bootstrap", times = 2000)
  expect_equal(an_cmp$tests$difference, bs_cmp$tests$difference,
    tolerance = 1e-12)
  expect_equal(an_cmp$tests$std_error, bs_cmp$tests$std_error,
    tolerance = 0.15)
})

test_that("truth: missing, ignored, NA and bad input", {
  set.seed(305)
  d <- ba_data(60)
  expect_error(
    selective_ci_vec(d$s, d$f, metrics = "aurc_ba", method = "bootstrap"),
    class = "aurc_error_missing"
  )
  # analytic without truth: the same classed error
  expect_error(selective_ci_vec(d$s, d$f, metrics = "augrc_ba"),
    class = "aurc_error_missing"
  )
  expect_warning(
    selective_ci_vec(d$s, d$f, truth = d$truth, metrics = "aurc"),
    class = "aurc_warning_ignored"
  )
  expect_error(
    selective_ci_vec(d$s, d$f, truth = d$truth[-1], metrics = "aurc_ba",
      method = "bootstrap", times = 20),
    class = "aurc_error_length"
  )
  expect_error(
    selective_ci_vec(d$s, d$f, truth = list(1), metrics = "aurc_ba",
      method = "bootstrap", times = 20),
    class = "aurc_error_type"
  )
  expect_error(
    selective_ci_vec(d$s, d$f + 0.5, truth = d$truth, metrics = "aurc_ba",
      method = "bootstrap", times = 20),
    class = "aurc_error_value" # failures must be 0/1
  )
  tr <- d$truth
  tr[3] <- NA
  na <- selective_ci_vec(d$s, d$f, truth = tr, metrics = "aurc_ba",
    method = "bootstrap", times = 20)
  expect_true(is.na(na$.estimate))
  kept <- selective_ci_vec(d$s, d$f, truth = tr, metrics = "aurc_ba",
    method = "bootstrap", times = 20, na_rm = TRUE)
  expect_equal(kept$.estimate, aurc_ba_vec(d$s[-3], d$f[-3], d$truth[-3]),
    tolerance = 1e-12)
  expect_error(
    compare_scores(data.frame(a = d$s, b = -d$s, f = d$f), c(a, b), f,
      metric = "augrc_ba", method = "bootstrap", times = 20),
    class = "aurc_error_missing"
  )
})
