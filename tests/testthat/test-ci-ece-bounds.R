# The ECE's interval within [0, Inf), its lower bound at 0 where the data
# are consistent with perfect calibration, and the basic bootstrap
# interval (R/ci-calibration.R, R/ci-bootstrap-intervals.R).

test_that("the null quantile of a sum of half-normal terms", {
  q <- aurc:::half_normal_sum_quantile
  # one term: the half-normal quantile, by hand
  expect_equal(q(0.3, 0.95), 0.3 * qnorm(0.975), tolerance = 1e-3)
  expect_equal(q(double(), 0.95), 0)
  # several: against a Monte-Carlo sample of 1e6
  set.seed(1)
  s <- c(0.02, 0.05, 0.01, 0.08)
  z <- abs(matrix(rnorm(4e6), ncol = 4)) %*% s
  expect_equal(q(s, 0.95), unname(quantile(z, 0.95)), tolerance = 3e-3)
  # many terms: the normal approximation
  s <- seq(0.01, 0.1, length.out = 80)
  z <- abs(matrix(rnorm(8e6), ncol = 80)) %*% s
  expect_equal(q(s, 0.95), unname(quantile(z, 0.95)), tolerance = 5e-3)
})

test_that("the lower bound is 0 exactly when the ECE is within the null", {
  set.seed(2)
  n <- 213
  f <- 0.5 + 0.5 * rbeta(n, 2, 1)
  y <- rbinom(n, 1, f)
  res <- selective_ci_vec(f, correct = y, metrics = "ece",
    binning = "equal_width"
  )
  # the null by simulation: outcomes drawn from the confidences
  null <- replicate(4000, ece_vec(f, rbinom(n, 1, f), binning = "equal_width"))
  q <- unname(quantile(null, 0.95))
  spec <- list(edges = NULL, n_bins = 10)
  q_pkg <- aurc:::ci_ece_null_quantile(f, NULL, spec, 0.95)
  # (the normal approximation of each bin's sum: within a few percent)
  expect_lt(abs(q_pkg / q - 1), 0.1)
  expect_equal(res$.lower == 0, res$.estimate <= q_pkg)
  # a clearly miscalibrated model keeps its bound above 0
  y2 <- rbinom(n, 1, f - 0.25)
  res2 <- selective_ci_vec(f, correct = y2, metrics = "ece",
    binning = "equal_width"
  )
  expect_gt(res2$.lower, 0)
  expect_equal(res2$.lower,
    res2$.estimate - qnorm(0.975) * res2$.std_error
  )
})

test_that("no ECE bound is below 0, whatever the method", {
  set.seed(3)
  n <- 150
  f <- 0.5 + 0.5 * rbeta(n, 2, 1)
  y <- rbinom(n, 1, f)
  for (type in c("percentile", "basic", "normal", "bca")) {
    # (BCa is NA, with a classed warning, where every replicate lies above
    # the estimate)
    r <- suppressWarnings(selective_ci_vec(f, correct = y,
      metrics = c("ece", "mce", "debiased_l2_ce", "corp_mcb", "ici"),
      method = "bootstrap", type = type, times = 200
    ))
    ok <- !is.na(r$.lower)
    expect_true(type == "bca" || all(ok), info = type)
    expect_true(all(r$.lower[ok] >= 0 & r$.upper[ok] >= r$.lower[ok]),
      info = type
    )
  }
})

test_that("the basic interval reflects the percentile one (as boot.ci)", {
  skip_if_not_installed("boot")
  set.seed(4)
  n <- 300
  s <- rnorm(n)
  f <- rbinom(n, 1, plogis(-1 - s))
  idx <- t(replicate(499, sample.int(n, n, replace = TRUE)))
  r <- selective_ci_vec(s, f, metrics = c("aurc", "failure_auroc"),
    method = "bootstrap", type = "basic", indices = idx, conf_level = 0.9
  )
  reps <- attr(r, "replicates")
  for (k in 1:2) {
    q <- quantile(reps[, k], c(0.95, 0.05), type = 7, names = FALSE)
    expect_equal(c(r$.lower[k], r$.upper[k]), 2 * r$.estimate[k] - q,
      tolerance = 1e-12
    )
    # boot.ci's basic interval takes interpolated order statistics
    # instead of type-7 quantiles: the same to within a few per cent of
    # the width at 499 replicates
    bt <- list(t0 = r$.estimate[k], t = reps[, k, drop = FALSE], R = 499)
    ref <- boot::boot.ci(bt, conf = 0.9, type = "basic")$basic
    width <- r$.upper[k] - r$.lower[k]
    expect_lt(max(abs(c(r$.lower[k], r$.upper[k]) - ref[4:5])),
      0.05 * width
    )
  }
  # its paired p-value inverts the interval: below 0.1 exactly when the
  # 90% interval of the difference excludes 0
  df <- data.frame(a = s, b = s + rnorm(n, sd = 0.5), f = f)
  cmp <- compare_scores(df, c(a, b), f, method = "bootstrap", type = "basic",
    indices = idx, conf_level = 0.9
  )
  t <- cmp$tests
  expect_equal(t$p_value < 0.1, t$lower > 0 | t$upper < 0)
})

test_that("at a true ECE of 0 the interval holds 0 at about conf_level", {
  reps <- if (identical(Sys.getenv("AURC_SLOW_TESTS"), "true")) 1000 else
    300
  set.seed(5)
  held <- vapply(seq_len(reps), function(r) {
    f <- 0.5 + 0.5 * rbeta(213, 2, 1)
    y <- rbinom(213, 1, f)
    selective_ci_vec(f, correct = y, metrics = "ece",
      binning = "equal_width"
    )$.lower == 0
  }, logical(1))
  band <- 3.5 * sqrt(0.95 * 0.05 / reps)
  expect_lt(abs(mean(held) - 0.95), band)
})
