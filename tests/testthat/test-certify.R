test_that("risk_upper_bound() is the exact binomial bound, tie-closed", {
  score <- c(0.9, 0.8, 0.8, 0.7, 0.5, 0.4, 0.3, 0.2)
  failure <- c(0, 0, 1, 0, 0, 1, 1, 1)
  out <- risk_upper_bound(score, failure, coverage = c(0.25, 0.5, 1),
    delta = 0.05
  )
  # coverage 0.25 needs 2 of 8, the tie at 0.8 makes it 3
  expect_equal(out$n_accepted, c(3, 4, 8))
  expect_equal(out$failures, c(1, 1, 4))
  expect_equal(out$achieved_coverage, c(3, 4, 8) / 8)
  expect_equal(out$threshold, c(0.8, 0.7, 0.2))
  # the bound b solves P(Bin(m, b) <= k) = delta
  for (i in 1:3) {
    expect_equal(pbinom(out$failures[i], out$n_accepted[i], out$bound[i]),
      0.05,
      tolerance = 1e-8
    )
  }
  # and is the one-sided Clopper-Pearson limit of stats::binom.test()
  for (i in 1:3) {
    ref <- stats::binom.test(out$failures[i], out$n_accepted[i],
      alternative = "less", conf.level = 0.95
    )$conf.int[2]
    expect_equal(out$bound[i], ref, tolerance = 1e-10)
  }
  expect_equal(risk_upper_bound(1:3, c(1, 1, 1), 1)$bound, 1)
})

test_that("certify_threshold() runs SGR's binary search with delta / k", {
  set.seed(41)
  score <- runif(200)
  failure <- rbinom(200, 1, 0.5 * (1 - score))
  res <- certify_threshold(score, failure, target_risk = 0.2, delta = 0.05)
  steps <- attr(res, "steps")
  k <- ceiling(log2(200))
  expect_equal(nrow(steps), k)
  # hand-run of Algorithm 1 of Geifman and El-Yaniv (2017)
  t <- sort(unique(score))
  zmin <- 1
  zmax <- length(t)
  for (i in seq_len(k)) {
    z <- ceiling((zmin + zmax) / 2)
    acc <- score >= t[z]
    m <- sum(acc)
    x <- sum(failure[acc])
    b <- if (x == m) 1 else qbeta(1 - 0.05 / k, x + 1, m - x)
    expect_equal(steps$threshold[i], t[z])
    expect_equal(steps$bound[i], b, tolerance = 1e-12)
    if (b <= 0.2) zmax <- z else zmin <- z
  }
  ok <- steps[steps$bound <= 0.2, ]
  expect_equal(res$coverage, max(ok$coverage))
  expect_lte(res$bound, 0.2)
  expect_equal(res$risk, mean(failure[score >= res$threshold]))
})

test_that("no certified threshold: NA with a classed warning", {
  expect_warning(
    res <- certify_threshold(1:50, rep(c(0, 1), 25), target_risk = 0.01),
    class = "aurc_warning_not_certified"
  )
  expect_true(is.na(res$threshold))
  expect_equal(res$coverage, 0)
})

test_that("SGR: the realized risk exceeds the target at most ~delta often", {
  skip_on_cran()
  # s ~ U(0, 1), P(failure | s) = 0.4 (1 - s)^2, so the population selective
  # risk at threshold t is 0.4 (1 - t)^2 / 3.
  set.seed(42)
  delta <- 0.1
  exceed <- replicate(500, {
    s <- runif(1000)
    f <- rbinom(1000, 1, 0.4 * (1 - s)^2)
    res <- suppressWarnings(certify_threshold(s, f, 0.05, delta = delta))
    !is.na(res$threshold) && 0.4 * (1 - res$threshold)^2 / 3 > 0.05
  })
  # at most delta, with 3 binomial standard deviations of slack
  expect_lte(mean(exceed), delta + 3 * sqrt(delta * (1 - delta) / 500))
  # the same with a single bound at a fixed coverage: exact level
  cover <- replicate(500, {
    s <- runif(1000)
    f <- rbinom(1000, 1, 0.4 * (1 - s)^2)
    b <- risk_upper_bound(s, f, coverage = 0.6, delta = delta)
    0.4 * (1 - b$threshold)^2 / 3 > b$bound
  })
  expect_lte(mean(cover), delta + 3 * sqrt(delta * (1 - delta) / 500))
})

test_that("bad input", {
  expect_snapshot(error = TRUE, certify_threshold(1:3, c(0, 1, 2), 0.1))
  expect_snapshot(error = TRUE, certify_threshold(1:3, c(0, 1, 0), 1.5))
  expect_error(certify_threshold(1:3, c(0, 1, 0), 0.1, delta = 0),
    class = "aurc_error_value"
  )
  expect_snapshot(error = TRUE, certify_threshold(c(1, NA, 3), c(0, 1, 0), 0.1))
  expect_equal(
    certify_threshold(c(1, NA, 3, 4), c(0, 1, 0, 0), 0.9, 0.5, na_rm = TRUE),
    certify_threshold(c(1, 3, 4), c(0, 0, 0), 0.9, 0.5)
  )
  expect_error(risk_upper_bound(1:3, c(0, 1, 0), coverage = 0),
    class = "aurc_error_value"
  )
  expect_error(risk_upper_bound(1:3, 0:1, coverage = 0.5),
    class = "aurc_error_length"
  )
})
