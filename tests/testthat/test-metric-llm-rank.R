# Rank-calibration error, rank correlations and the thresholded AUROC/AUPR
# (R/metric-llm-rank.R, R/metric-llm-correlation.R)

# The authors' code: github.com/shuoli90/Rank-Calibration at f46ae48,
# metrics/calibration.py: plugin_RCE_est() lines 109-137 (the inverse cdf of
# the regressed correctness, line 122; bin edges, line 126; de-tying,
# line 130; the l1 sum, line 135) and
# regressed_correctness_vs_uncertainty_cdf() lines 339-362 (np.argsort of
# the uncertainty, line 351; uncertainty levels np.arange(0, n) / (n - 1),
# line 353; bin means, line 360).
test_that("hand case: RCE of six outputs in three bins", {
  # by the algorithm of plugin_RCE_est(): sorted by uncertainty, the
  # correctness is
  # 1, 0.5 | 1, 0 | 1, 0; bin means 0.75, 0.5, 0.5; outputs with a bin
  # mean at least the bin's: 2, 6, 6; levels (G - 1) / 5 = 1/5, 1, 1,
  # de-tied by (2 - 1) / (2 * 5): 1/10, 9/10, 9/10; uncertainty levels
  # 0, 1/5, ..., 1
  u <- c(0.1, 0.5, 0.3, 0.9, 0.7, 0.2)
  a <- c(1, 0, 1, 0, 1, 0.5)
  d <- c(1, 1, 9, 9, 9, 9) / 10
  cdf <- (0:5) / 5
  expect_equal(rank_calibration_error_vec(-u, a, n_bins = 3),
    sum(abs(d - cdf)) / 6
  )
  expect_equal(rank_calibration_error_vec(-u, a, n_bins = 3), 0.2)
  expect_equal(rank_calibration_error_vec(-u, a, n_bins = 3, p = 2),
    (0.01 + 0.01 + 0.25 + 0.09 + 0.01 + 0.01) / 6
  )
})

test_that("hand case: bin edges round half to even, as Python's round()", {
  # n = 5, B = 2: edges round(0, 2.5, 5) = 0, 2, 5 (bins of 2 and 3)
  # correctness by uncertainty: 1, 0 | 1, 1, 0; means 1/2, 2/3;
  # G = 5, 3; levels 1, 1/2; de-tied 1 - 1/8 = 7/8, 1/2 - 2/8 = 1/4
  u <- 1:5
  a <- c(1, 0, 1, 1, 0)
  expect_equal(rank_calibration_error_vec(-u, a, n_bins = 2),
    (7 / 8 + 5 / 8 + 1 / 4 + 1 / 2 + 3 / 4) / 5
  )
  expect_equal(rank_calibration_error_vec(-u, a, n_bins = 2), 0.6)
})

# The estimator written literally from the authors' algorithm: argsort of
# the uncertainty (stable), bins at round(linspace(0, n, B + 1)), bin
# means, (#{j: abar_i <= abar_j} - 1) / (n - 1), its bin mean lowered by
# (h - 1) / (2 (n - 1)), and the mean |.|^p distance to (i - 1) / (n - 1).
literal_rce <- function(uncertainty, a, B, p = 1) {
  n <- length(a)
  a <- a[order(uncertainty)]
  edges <- round(seq(0, n, length.out = B + 1))
  abar <- numeric(n)
  for (b in seq_len(B)) {
    if (edges[b + 1] > edges[b]) {
      idx <- (edges[b] + 1):edges[b + 1]
      abar[idx] <- sum(a[idx]) / length(idx) # np.mean: sum / n
    }
  }
  inv <- vapply(seq_len(n), function(i) (sum(abar[i] <= abar) - 1) / (n - 1),
    numeric(1)
  )
  det <- numeric(n)
  for (b in seq_len(B)) {
    if (edges[b + 1] > edges[b]) {
      idx <- (edges[b] + 1):edges[b + 1]
      det[idx] <- mean(inv[idx]) - (length(idx) - 1) / (2 * (n - 1))
    }
  }
  sum(abs(det - (seq_len(n) - 1) / (n - 1))^p) / n
}

test_that("RCE equals the literal algorithm on random data with ties", {
  set.seed(5)
  for (n in c(7, 30, 203)) {
    unc <- round(stats::rexp(n), 1) # ties
    # a quality in whole tenths, scaled to integers: sums are exact, so
    # equal bin means are equal doubles in both implementations (only the
    # order of the quality matters)
    acc <- round(10 * pmin(1, pmax(0, 0.9 - 0.3 * unc +
      stats::rnorm(n, sd = 0.3))))
    for (B in c(1, 3, 20, 50)) {
      for (p in 1:2) {
        expect_equal(rank_calibration_error_vec(-unc, acc, n_bins = B, p = p),
          literal_rce(unc, acc, B, p),
          tolerance = 1e-12, info = paste(n, B, p)
        )
      }
    }
  }
  # binary correctness (many equal bin means)
  unc <- stats::runif(50)
  acc <- stats::rbinom(50, 1, 0.5)
  expect_equal(rank_calibration_error_vec(-unc, acc, n_bins = 10),
    literal_rce(unc, acc, 10)
  )
})

test_that("RCE: direction, NA rule, checks", {
  set.seed(9)
  n <- 400
  unc <- stats::rexp(n)
  acc <- 0.9 - 0.3 * unc + stats::rnorm(n, sd = 0.1)
  good <- rank_calibration_error_vec(-unc, acc)
  bad <- rank_calibration_error_vec(unc, acc)
  expect_lt(good, 0.1)
  expect_gt(bad, 0.4)
  expect_equal(rank_calibration_error_vec(c(-unc, NA), c(acc, 1)), NA_real_)
  expect_equal(rank_calibration_error_vec(c(-unc, NA), c(acc, 1),
    na_rm = TRUE), good)
  expect_warning(res <- rank_calibration_error_vec(1, 1),
    class = "aurc_warning_undefined"
  )
  expect_true(is.na(res))
  expect_error(rank_calibration_error_vec("a", 1), class = "aurc_error_type")
  expect_error(rank_calibration_error_vec(1:3, 1:2),
    class = "aurc_error_length"
  )
  expect_error(rank_calibration_error_vec(1:3, 1:3, n_bins = 0),
    class = "aurc_error_value"
  )
  expect_error(rank_calibration_error_vec(1:3, 1:3, p = 3),
    class = "aurc_error_value"
  )
  expect_error(rank_calibration_error_vec(c(1, Inf), 1:2),
    class = "aurc_error_value"
  )
})

test_that("RCE bootstrap interval covers the estimator's mean", {
  skip_on_cran()
  # the plug-in estimator is biased at small n (0.14 at n = 300 against
  # 0.04 at n = 2e4 here): the interval describes its sampling spread, so
  # it is checked against the mean of the estimator at that n
  set.seed(21)
  gen <- function(n) {
    unc <- stats::rexp(n)
    list(unc = unc, acc = 0.7 - 0.1 * unc + stats::rnorm(n, sd = 0.3))
  }
  est <- replicate(200, {
    d <- gen(300)
    rank_calibration_error_vec(-d$unc, d$acc, n_bins = 10)
  })
  truth <- mean(est)
  res <- vapply(1:40, function(k) {
    d <- gen(300)
    ci <- rank_calibration_error_ci(-d$unc, d$acc, n_bins = 10, times = 150)
    c(ci$.lower <= truth && truth <= ci$.upper, ci$.std_error)
  }, numeric(2))
  expect_gt(mean(res[1, ]), 0.8)
  # the bootstrap standard error is the estimator's spread
  expect_equal(mean(res[2, ]), stats::sd(est), tolerance = 0.25)
  big <- gen(200)
  ci <- rank_calibration_error_ci(-big$unc, big$acc, times = 50)
  expect_named(ci, c(".metric", ".estimator", ".estimate", ".lower",
    ".upper", ".std_error", ".conf_level", ".method"))
  expect_equal(ci$.estimator, "n_bins=20/p=1")
  expect_equal(ci$.estimate, rank_calibration_error_vec(-big$unc, big$acc))
  set.seed(1)
  a <- rank_calibration_error_ci(-big$unc, big$acc, times = 50)
  set.seed(1)
  expect_identical(rank_calibration_error_ci(-big$unc, big$acc, times = 50), a)
  expect_error(rank_calibration_error_ci(1:5, 1:5, type = "bca"),
    class = "aurc_error_value")
})

test_that("rank correlations equal stats::cor.test", {
  set.seed(4)
  n <- 60
  conf <- round(stats::runif(n), 1)
  rouge <- round(pmin(1, pmax(0, 0.2 + 0.6 * conf +
    stats::rnorm(n, sd = 0.25))), 1)
  for (m in c("spearman", "kendall")) {
    ref <- suppressWarnings(stats::cor.test(conf, rouge, method = m))
    expect_equal(uncertainty_correlation_vec(conf, rouge, method = m),
      unname(ref$estimate)
    )
  }
  # hand case: three concordant pairs of three
  expect_equal(uncertainty_correlation_vec(1:3, c(0, 0.5, 1),
    method = "kendall"), 1)
  expect_equal(uncertainty_correlation_vec(1:3, c(1, 0.5, 0)), -1)
  # Fisher z interval with Bonett-Wright's standard errors
  ci <- uncertainty_correlation_ci(conf, rouge, se = "bonett_wright")
  r <- stats::cor(conf, rouge, method = "spearman")
  se <- sqrt((1 + r^2 / 2) / (n - 3))
  expect_equal(ci$.lower, tanh(atanh(r) - stats::qnorm(0.975) * se))
  expect_equal(ci$.upper, tanh(atanh(r) + stats::qnorm(0.975) * se))
  ci <- uncertainty_correlation_ci(conf, rouge, method = "kendall",
    conf_level = 0.9, se = "bonett_wright")
  tau <- stats::cor(conf, rouge, method = "kendall")
  expect_equal(ci$.upper,
    tanh(atanh(tau) + stats::qnorm(0.95) * sqrt(0.437 / (n - 4))))
  expect_warning(v <- uncertainty_correlation_vec(1:5, rep(1, 5)),
    class = "aurc_warning_undefined")
  expect_true(is.na(v))
  expect_error(uncertainty_correlation_vec(1:5, 1:5, method = "pearson"),
    class = "aurc_error_value")
  expect_true(is.na(uncertainty_correlation_ci(1:4, c(1, 3, 2, 4),
    method = "kendall")$.lower))
})

test_that("rank correlation intervals cover at about the nominal level", {
  skip_on_cran()
  set.seed(8)
  rho <- 0.5
  n <- 40
  # population Spearman and Kendall of a bivariate normal
  true <- c(spearman = 6 / pi * asin(rho / 2), kendall = 2 / pi * asin(rho))
  cover <- sapply(1:400, function(k) {
    x <- stats::rnorm(n)
    y <- rho * x + sqrt(1 - rho^2) * stats::rnorm(n)
    vapply(names(true), function(m) {
      ci <- uncertainty_correlation_ci(x, y, method = m)
      ci$.lower <= true[[m]] && true[[m]] <= ci$.upper
    }, logical(1))
  })
  expect_gt(mean(cover["spearman", ]), 0.91)
  expect_lt(mean(cover["spearman", ]), 0.99)
  expect_gt(mean(cover["kendall", ]), 0.91)
  expect_lt(mean(cover["kendall", ]), 0.99)
})

test_that("thresholded quality: AUROC and AUPR", {
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  rouge <- c(0.7, 0.5, 0.1, 0.6, 0.2, 0.3)
  # correct at rouge >= 0.5: rows 1, 2, 4; pairs (correct, incorrect):
  # 0.9 beats all 3, 0.8 beats 0.4, 0.3 and ties 0.8, 0.6 beats 2
  expect_equal(quality_auroc_vec(score, rouge, threshold = 0.5),
    (3 + 2.5 + 2) / 9)
  failure <- as.numeric(rouge < 0.5)
  expect_equal(quality_auroc_vec(score, rouge, 0.5),
    failure_auroc_vec(score, failure))
  expect_equal(quality_aupr_vec(score, rouge, 0.5),
    success_aupr_vec(score, failure))
  expect_equal(quality_aupr_vec(score, rouge, 0.5, positive = "incorrect"),
    failure_aupr_vec(score, failure))
  w <- c(1, 2, 1, 3, 1, 2)
  expect_equal(quality_auroc_vec(score, rouge, 0.5, case_weights = w),
    failure_auroc_vec(score, failure, case_weights = w))
  expect_warning(quality_auroc_vec(score, rouge, threshold = 0.95),
    class = "aurc_warning_one_class")
  expect_error(quality_auroc_vec(score, rouge), class = "aurc_error_type")
  expect_error(quality_aupr_vec(score, rouge, 0.5, positive = "x"),
    class = "aurc_error_value")
  skip_if_not_installed("pROC")
  set.seed(1)
  conf <- round(stats::runif(200), 1)
  q <- pmin(1, pmax(0, 0.2 + 0.6 * conf + stats::rnorm(200, sd = 0.25)))
  ref <- pROC::auc(pROC::roc(as.numeric(q >= 0.5), conf, levels = c(0, 1),
    direction = "<", quiet = TRUE))
  expect_equal(quality_auroc_vec(conf, q, 0.5), as.numeric(ref))
})

test_that("bin means are summed as NumPy sums (pairwise)", {
  # below 8 values a plain loop: 1e16 + 1 rounds to 1e16, - 1e16 gives 0,
  # + 1 gives 1
  x <- c(1e16, 1, -1e16, 1)
  expect_equal(aurc:::numpy_pairwise_sum(x), 1)
  # from 8 values eight running sums: (1e16 + 1) + (-1e16 + 1) is
  # 1e16 + (-1e16) = 0 (each pair rounds at spacing 2), then the ninth
  expect_equal(aurc:::numpy_pairwise_sum(c(x, rep(0, 5))), 0)
  # beyond 128 two halves; whole numbers sum exactly either way
  expect_equal(aurc:::numpy_pairwise_sum(as.double(1:1000)), 500500)
})
