stat_estimators <- c("alpha", "alpha_prime", "sele", "2sele")

test_that("hand-computed values", {
  # beta = 0: the sample is ranked first, r = 1, so bias = w(1)
  expect_equal(weight_bias(0, 10), 1 / 10)
  expect_equal(weight_bias(0, 10, "alpha_prime"), -log(1 - 1 / 11))
  expect_equal(weight_bias(0, 10, "2sele"), 2 / 10)
  # n = 1: r = 1 always; alpha weight H_1 - H_0 = 1
  expect_equal(weight_bias(0.3, 1), 1 + log(0.7))
  expect_equal(weight_bias(0.3, 1, "alpha_prime"), log(2) + log(0.7))
  # n = 2: r = 1 w.p. 1 - beta (weight 1/2), r = 2 w.p. beta (weight 3/2)
  expect_equal(weight_bias(0.25, 2), 0.75 * 0.5 + 0.25 * 1.5 + log(0.75))
  # MSE of alpha, r = 3 of n = 10: psi'(8) - psi'(11) = 1/8^2 + 1/9^2 + 1/10^2
  expect_equal(weight_mse(3, 10), 1 / 64 + 1 / 81 + 1 / 100, tolerance = 1e-14)
  # alpha_prime adds Q^2, Q = log(1 - 3/11) + 1/8 + 1/9 + 1/10
  q <- log(8 / 11) + 1 / 8 + 1 / 9 + 1 / 10
  expect_equal(weight_mse(3, 10, "alpha_prime"),
    1 / 64 + 1 / 81 + 1 / 100 + q^2,
    tolerance = 1e-13
  )
  # sele: (3/10 - (1/8 + 1/9 + 1/10))^2 + the same variance
  expect_equal(weight_mse(3, 10, "sele"),
    (3 / 10 - (1 / 8 + 1 / 9 + 1 / 10))^2 + 1 / 64 + 1 / 81 + 1 / 100,
    tolerance = 1e-13
  )
  # Eq. 24: 0.5 / (10 * 0.5 + 1) = 1/12
  expect_equal(weight_mse_bound(0.5, 10), 1 / 12)
  expect_equal(weight_mse_bound(c(0, 1), 10), c(0, 1))
  # mean MSE of alpha: H_3 / 3 (1/9 enters 3 ranks, 1/4 two, 1 one)
  expect_equal(mean_weight_mse(3)$mean_mse, (1 + 1 / 2 + 1 / 3) / 3)
})

test_that("bias equals the binomial sum with dbinom to 1e-9", {
  for (est in stat_estimators) {
    for (n in c(1, 2, 5, 30, 200, 3000)) {
      for (beta in c(0, 1e-7, 0.05, 0.5, 0.9, 0.999)) {
        expect_equal(weight_bias(beta, n, est),
          literal_weight_bias(beta, n, est),
          tolerance = 1e-9, info = paste(est, n, beta)
        )
      }
    }
  }
})

test_that("alpha bias has the closed form 1/n - sum_{k >= n} beta^k / k", {
  # E[H_m - H_{m-K}] = sum_{k=1}^m beta^k / k for K ~ Bin(m, beta), m = n - 1
  # (by induction on m), and H_n - H_{n-1} = 1/n: derived for these tests,
  # independent of the code
  for (n in c(1, 2, 10, 80)) {
    for (beta in c(0.1, 0.5, 0.95)) {
      k <- seq_len(n - 1)
      expect_equal(weight_bias(beta, n),
        1 / n + log1p(-beta) + sum(beta^k / k),
        tolerance = 1e-12
      )
    }
  }
})

test_that("MSE equals the integral over the Beta density to 1e-9", {
  for (est in stat_estimators) {
    for (n in c(1, 2, 7, 60, 400)) {
      for (r in unique(pmin(c(1, 2, ceiling(n / 3), n - 1, n), n))) {
        if (r < 1) next
        expect_equal(weight_mse(r, n, est), literal_weight_mse(r, n, est),
          tolerance = 1e-9, info = paste(est, n, r)
        )
      }
    }
  }
})

test_that("stable for n up to 1e6", {
  n <- 1e6
  # the variance term is sum_{k = n + 1 - r}^{n} 1 / k^2, summed exactly here
  for (r in c(1, 2, 100, 5e5, n)) {
    k <- (n + 1 - r):n
    expect_equal(weight_mse(r, n), sum(rev(1 / k^2)), tolerance = 1e-12)
  }
  expect_equal(weight_mse(1, n), 1 / n^2, tolerance = 1e-13)
  # the binomial sum at n = 1e6, weights by exact cumulative sums
  beta <- 0.01
  w <- cumsum(1 / (n:1))
  p <- stats::dbinom(0:(n - 1), n - 1, beta)
  expect_equal(weight_bias(beta, n), sum(p * w) / sum(p) + log1p(-beta),
    tolerance = 1e-9
  )
  b <- weight_bias(c(0.1, 0.5, 0.9), n, "alpha_prime")
  expect_true(all(is.finite(b)))
  expect_true(is.finite(mean_weight_mse(n, "alpha_prime")$mean_mse))
})

test_that("bias agrees with a Monte Carlo simulation of ranks", {
  set.seed(42)
  reps <- 20000
  n <- 12
  for (est in stat_estimators) {
    for (beta in c(0.2, 0.7)) {
      # rank of a sample at percentile beta among n - 1 other uniforms
      u <- matrix(stats::runif(reps * (n - 1)), reps)
      r <- 1 + rowSums(u <= beta)
      x <- literal_weight(r, n, est) + log(1 - beta)
      se <- stats::sd(x) / sqrt(reps)
      expect_lt(abs(mean(x) - weight_bias(beta, n, est)), 4 * se)
    }
  }
})

test_that("MSE agrees with a Monte Carlo simulation of uniform order stats", {
  set.seed(7)
  reps <- 20000
  n <- 15
  u <- matrix(stats::runif(reps * n), reps)
  sorted <- t(apply(u, 1, sort))
  for (est in stat_estimators) {
    for (r in c(1, 8, 15)) {
      x <- (literal_weight(r, n, est) + log(1 - sorted[, r]))^2
      se <- stats::sd(x) / sqrt(reps)
      expect_lt(abs(mean(x) - weight_mse(r, n, est)), 4 * se)
    }
  }
})

test_that("the paper's qualitative claims hold", {
  for (est in c("alpha", "alpha_prime", "sele")) {
    for (n in c(10, 100, 1000)) {
      # positive for small beta, negative for large beta (Fig. 1)
      expect_gt(weight_bias(0.01, n, est), 0)
      expect_lt(weight_bias(0.99999, n, est), 0)
    }
  }
  # the MSE of alpha is below that of alpha_prime, both below SELE's
  for (n in c(5, 50, 500)) {
    r <- seq_len(n)
    expect_true(all(weight_mse(r, n) < weight_mse(r, n, "alpha_prime")))
    expect_true(all(weight_mse(r, n) <= weight_mse(r, n, "sele")))
  }
  # SELE has the largest bias in absolute value once beta is not small
  beta <- seq(0.3, 0.95, by = 0.05)
  expect_true(all(
    abs(weight_bias(beta, 100, "sele")) > abs(weight_bias(beta, 100))
  ))
  # the bias of alpha vanishes as n grows
  expect_lt(abs(weight_bias(0.5, 1e4)), abs(weight_bias(0.5, 100)))
})

test_that("the mean MSE is the average over ranks and tracks the rate", {
  for (est in stat_estimators) {
    for (n in c(1, 4, 50, 333)) {
      expect_equal(mean_weight_mse(n, est)$mean_mse,
        mean(weight_mse(seq_len(n), n, est)),
        tolerance = 1e-12
      )
    }
  }
  n <- 10^(1:6)
  m <- mean_weight_mse(n, c("alpha", "alpha_prime"))
  # alpha: exactly H_n / n
  h <- vapply(n, function(k) sum(rev(1 / seq_len(k))), numeric(1))
  expect_equal(m$mean_mse[m$estimator == "alpha"], h / n, tolerance = 1e-12)
  expect_equal(m$rate, rep((n + 1) * log(n + 1) / n^2 - 1 / n, 2))
  # Prop. A.4: mean / rate tends to 1, n (mean - rate) to 1 + Euler's gamma
  for (est in c("alpha", "alpha_prime")) {
    sub <- m[m$estimator == est, ]
    ratio <- sub$mean_mse / sub$rate
    expect_true(all(diff(ratio) < 0))
    expect_lt(ratio[6], 1.2)
    expect_true(all(ratio > 1))
  }
  alpha <- m[m$estimator == "alpha", ]
  gap <- alpha$n * (alpha$mean_mse - alpha$rate)
  expect_equal(gap[6], 1 - digamma(1), tolerance = 1e-4)
  # SELE does not converge
  expect_gt(mean_weight_mse(1e5, "sele")$mean_mse, 0.5)
})

test_that("vectorised with recycling", {
  beta <- c(0.1, 0.5, 0.9)
  n <- c(10, 20, 30)
  expect_equal(
    weight_bias(beta, n),
    vapply(1:3, function(i) weight_bias(beta[i], n[i]), numeric(1))
  )
  expect_equal(weight_bias(beta, 10), c(
    weight_bias(0.1, 10), weight_bias(0.5, 10), weight_bias(0.9, 10)
  ))
  expect_equal(weight_mse(1:3, 3), weight_mse(1:3, c(3, 3, 3)))
  expect_equal(weight_mse_bound(0.5, n), 0.5 / (n * 0.5 + 1))
  expect_identical(weight_bias(numeric(), 10), numeric())
  expect_identical(weight_mse(numeric(), 10), numeric())
  m <- mean_weight_mse(c(5, 10), c("sele", "alpha"))
  expect_named(m, c("n", "estimator", "mean_mse", "rate"))
  expect_equal(m$n, c(5, 10, 5, 10))
  expect_equal(m$estimator, c("sele", "sele", "alpha", "alpha"))
})

test_that("bad input gives classed errors", {
  expect_error(weight_bias(1, 10), class = "aurc_error_value")
  expect_error(weight_mse(11, 10), class = "aurc_error_value")
  expect_error(weight_bias(0.5, 1:2, "x"), class = "aurc_error")
  expect_snapshot(error = TRUE, {
    weight_bias(1, 10)
    weight_bias(-0.1, 10)
    weight_bias(NA, 10)
    weight_bias("a", 10)
    weight_bias(0.5, 0)
    weight_bias(0.5, 2.5)
    weight_bias(0.5, 10, estimator = "trapezoid")
    weight_bias(c(0.1, 0.2), c(10, 20, 30))
    weight_mse(11, 10)
    weight_mse(0, 10)
    weight_mse(1:2, 1:3)
    weight_mse_bound(1.5, 10)
    mean_weight_mse(0)
    mean_weight_mse(10, c("alpha", "alpha"))
    mean_weight_mse(10, "trapezoid")
    mean_weight_mse(10, 1)
  })
})
