# Influence values and standard errors of the rank correlations (issue 36):
# kendall_tau_b_influence(), spearman_rho_influence() and the intervals
# of uncertainty_correlation_ci(se = "influence").

# The correlations with a weight per output (weights summing to 1), as
# V-statistics over all n^2 pairs: at equal weights the sample values.
weighted_tau_b <- function(x, y, w) {
  sx <- sign(outer(x, x, "-"))
  sy <- sign(outer(y, y, "-"))
  ww <- outer(w, w)
  sum(ww * sx * sy) / sqrt(sum(ww * sx^2) * sum(ww * sy^2))
}
weighted_rho <- function(x, y, w) {
  u <- drop(sign(outer(x, x, "-")) %*% w) / 2
  v <- drop(sign(outer(y, y, "-")) %*% w) / 2
  sum(w * u * v) / sqrt(sum(w * u^2) * sum(w * v^2))
}
# The influence value of output i: the derivative of the statistic when
# the weight moves towards output i, (d / de) T((1 - e) / n + e 1_i).
numeric_influence <- function(stat, x, y, h = 1e-6) {
  n <- length(x)
  w0 <- rep(1 / n, n)
  vapply(seq_len(n), function(i) {
    e <- numeric(n)
    e[i] <- 1
    (stat(x, y, (1 - h) * w0 + h * e) - stat(x, y, (1 + h) * w0 - h * e)) /
      (2 * h)
  }, numeric(1))
}

test_that("the row sums of tau-b equal the literal pairs", {
  set.seed(1)
  for (k in 1:20) {
    n <- sample(2:40, 1)
    x <- round(stats::runif(n), sample(0:2, 1))
    y <- round(stats::runif(n) + x, sample(0:1, 1))
    o <- order(x)
    g <- cumsum(c(TRUE, diff(x[o]) != 0))
    ry <- match(y, sort(unique(y)))
    got <- numeric(n)
    got[o] <- kendall_row_sums_impl(as.integer(g), ry[o],
      length(unique(y)), double())
    pairs <- sign(outer(x, x, "-")) * sign(outer(y, y, "-"))
    expect_equal(got, rowSums(pairs))
    # with weights (a bootstrap replicate's counts): sum_j w_j s_ij
    w <- as.double(sample(0:3, n, replace = TRUE))
    got_w <- numeric(n)
    got_w[o] <- kendall_row_sums_impl(as.integer(g), ry[o],
      length(unique(y)), w[o])
    expect_equal(got_w, as.vector(pairs %*% w))
  }
})

test_that("influence values are the derivatives of the literal formulas", {
  set.seed(2)
  for (k in 1:6) {
    n <- c(5, 12, 30, 30, 41, 60)[k]
    x <- round(stats::runif(n), if (k %% 2) 1 else 3)
    y <- round(x + stats::rnorm(n, sd = 0.3), if (k < 4) 1 else 0)
    kd <- kendall_tau_b_influence(x, y)
    expect_equal(kd$estimate, literal_kendall_tau_b(x, y))
    expect_equal(kd$estimate, stats::cor(x, y, method = "kendall"))
    expect_equal(kd$influence, numeric_influence(weighted_tau_b, x, y),
      tolerance = 1e-6)
    expect_equal(sum(kd$influence), 0, tolerance = 1e-9)
    sp <- spearman_rho_influence(x, y)
    expect_equal(sp$estimate, stats::cor(x, y, method = "spearman"))
    expect_equal(sp$influence, numeric_influence(weighted_rho, x, y),
      tolerance = 1e-6)
  }
})

test_that("the standard error is close to the jackknife's", {
  set.seed(3)
  n <- 80
  x <- sample(0:4, n, TRUE)
  y <- as.numeric(stats::runif(n) < 0.2 + 0.15 * x)
  jack <- function(m) {
    v <- vapply(seq_len(n), function(i) {
      stats::cor(x[-i], y[-i], method = m)
    }, numeric(1))
    sqrt((n - 1) / n * sum((v - mean(v))^2))
  }
  se_k <- correlation_influence_se(kendall_tau_b_influence(x, y)$influence)
  se_s <- correlation_influence_se(spearman_rho_influence(x, y)$influence)
  expect_equal(se_k, jack("kendall"), tolerance = 0.05)
  expect_equal(se_s, jack("spearman"), tolerance = 0.05)
  # the interval: Fisher z with SE_z = SE_r / (1 - r^2)
  r <- stats::cor(x, y, method = "kendall")
  ci <- uncertainty_correlation_ci(x, y, method = "kendall",
    conf_level = 0.9)
  expect_identical(ci$.method, "analytic/influence")
  expect_equal(ci$.std_error, se_k / (1 - r^2))
  expect_equal(ci$.upper, tanh(atanh(r) + stats::qnorm(0.95) * se_k /
    (1 - r^2)))
  ci <- uncertainty_correlation_ci(x, y, se = "influence")
  r <- stats::cor(x, y, method = "spearman")
  expect_equal(ci$.lower, tanh(atanh(r) - stats::qnorm(0.975) * se_s /
    (1 - r^2)))
  # the default: influence values for both
  expect_identical(uncertainty_correlation_ci(x, y)$.method,
    "analytic/influence")
  expect_identical(uncertainty_correlation_ci(x, y,
    se = "bonett_wright")$.method, "analytic/bonett_wright")
  # a perfect agreement: influence values 0, the interval is the point
  ci <- uncertainty_correlation_ci(c(1, 1, 2, 3, 4), c(0, 0, 1, 2, 3),
    method = "kendall")
  expect_equal(c(ci$.estimate, ci$.lower, ci$.upper), c(1, 1, 1))
  expect_error(uncertainty_correlation_ci(x, y, se = "fisher"),
    class = "aurc_error_value")
})

test_that("tie-aware intervals cover under heavy ties", {
  skip_on_cran()
  set.seed(9)
  gen <- function(n) {
    s <- sample(0:4, n, TRUE)
    list(s = s, q = as.numeric(stats::runif(n) < 0.3 + 0.1 * s))
  }
  big <- gen(1e5)
  true <- uncertainty_correlation_vec(big$s, big$q, method = "kendall")
  cover <- vapply(1:300, function(k) {
    d <- gen(120)
    vapply(c("influence", "bonett_wright"), function(se) {
      ci <- uncertainty_correlation_ci(d$s, d$q, method = "kendall",
        se = se)
      ci$.lower <= true && true <= ci$.upper
    }, logical(1))
  }, logical(2))
  # the influence interval near 0.95; Fieller's far below (about 0.86)
  expect_gt(mean(cover["influence", ]), 0.92)
  expect_lt(mean(cover["influence", ]), 0.98)
  expect_lt(mean(cover["bonett_wright", ]), mean(cover["influence", ]))
})

test_that("n = 1e5 runs in O(n log n)", {
  skip_on_cran()
  set.seed(4)
  x <- round(stats::rnorm(1e5), 1)
  y <- round(x + stats::rnorm(1e5), 1)
  time <- system.time(ci <- uncertainty_correlation_ci(x, y,
    method = "kendall"))[["elapsed"]]
  expect_lt(time, 3)
  # the estimate against the literal count on a part
  expect_equal(uncertainty_correlation_vec(x[1:3000], y[1:3000],
    method = "kendall"), stats::cor(x[1:3000], y[1:3000],
    method = "kendall"))
})
