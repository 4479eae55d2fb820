# Calibration tests (Spiegelhalter, KS, Kuiper) and the clinical summaries
# (calibration intercept and slope, ICI, E50, E90, Emax).

caltest_data <- function(n, seed, grid = NULL, miscal = 1) {
  withr::with_seed(seed, {
    p <- stats::runif(n, 0.05, 0.95)
    if (!is.null(grid)) p <- round(p * grid) / grid
    y <- stats::rbinom(n, 1, p^miscal)
    w <- stats::rpois(n, 1.5)
  })
  list(p = p, y = y, w = w)
}

# the literal definitions: C(t) at every distinct confidence t, as a sum
# over all samples with confidence <= t (no running sum)
literal_cumdiff <- function(p, y, w = rep(1, length(p))) {
  ts <- sort(unique(p))
  c(0, vapply(ts, function(t) sum(w * (y - p) * (p <= t)), 0) / sum(w))
}
literal_tests <- function(p, y, w = rep(1, length(p))) {
  cs <- literal_cumdiff(p, y, w)
  sigma <- sqrt(sum(w * p * (1 - p))) / sum(w)
  z <- sum(w * (y - p) * (1 - 2 * p)) /
    sqrt(sum(w * (1 - 2 * p)^2 * p * (1 - p)))
  c(spiegelhalter = z, ks = max(abs(cs)) / sigma,
    kuiper = (max(cs) - min(cs)) / sigma)
}
# the series of the distribution functions (Tygert's), at every x, many
# terms
literal_ks_cdf <- function(x) {
  k <- 0:200
  kp <- k + 0.5
  (2 / pi) * sum((-1)^k / kp * exp(-kp^2 * pi^2 / (2 * x^2)))
}
literal_kuiper_cdf <- function(x) {
  kp <- 0:200 + 0.5
  sum((8 / x^2 + 2 / (kp^2 * pi^2)) * exp(-2 * kp^2 * pi^2 / x^2))
}

strict_glm <- function(formula, data, weights = NULL) {
  data$.w <- if (is.null(weights)) rep(1, nrow(data)) else weights
  suppressWarnings(stats::glm(formula,
    family = stats::binomial(), data = data, weights = .w,
    control = stats::glm.control(epsilon = 1e-15, maxit = 200)
  ))
}

test_that("hand-computed: Z, the cumulative differences, KS and Kuiper", {
  p <- c(0.8, 0.2, 0.5, 0.8)
  y <- c(0, 0, 1, 1)
  # (y - p)(1 - 2p): -0.8 * -0.6, -0.2 * 0.6, 0.5 * 0, 0.2 * -0.6
  num <- 0.48 - 0.12 + 0 - 0.12
  # (1 - 2p)^2 p (1 - p): 0.36 * 0.16 three times, 0 at p = 0.5
  z <- num / sqrt(3 * 0.36 * 0.16)
  # sorted: 0.2 (y 0), 0.5 (y 1), then the tie group 0.8 (y 0 and 1):
  # C = 0, -0.2/4, (-0.2 + 0.5)/4, (0.3 + 0.2 - 0.8)/4; the partial sum
  # inside the tie group, (0.3 + 0.2)/4 = 0.125, is never used
  cs <- c(0, -0.05, 0.075, -0.075)
  sigma <- sqrt(0.16 + 0.16 + 0.25 + 0.16) / 4
  res <- calibration_test_vec(p, y)
  expect_s3_class(res, "tbl_df")
  expect_named(res, c("method", "statistic", "p_value", "n"))
  expect_equal(res$method, c("spiegelhalter", "ks", "kuiper"))
  expect_equal(res$statistic, c(z, 0.075 / sigma, 0.15 / sigma),
    tolerance = 1e-12
  )
  expect_equal(res$n, c(4, 4, 4))
  expect_equal(res$p_value[1], 2 * pnorm(-abs(z)), tolerance = 1e-12)
  expect_equal(res$p_value[2], 1 - literal_ks_cdf(0.075 / sigma),
    tolerance = 1e-12
  )
  expect_equal(res$p_value[3], 1 - literal_kuiper_cdf(0.15 / sigma),
    tolerance = 1e-12
  )
  # the result does not depend on the order within the tie group
  expect_equal(calibration_test_vec(p[c(4, 2, 3, 1)], y[c(4, 2, 3, 1)]), res)
  # weights count samples: weight 2 on the first = the row twice
  expect_equal(
    calibration_test_vec(p, y, case_weights = c(2, 1, 1, 1)),
    calibration_test_vec(c(p, p[1]), c(y, y[1]))
  )
})

test_that("the literal definitions on random data with ties and weights", {
  for (grid in list(NULL, 20)) {
    d <- caltest_data(300, 11, grid = grid, miscal = 1.3)
    got <- calibration_test_vec(d$p, d$y)
    expect_equal(got$statistic, unname(literal_tests(d$p, d$y)),
      tolerance = 1e-12
    )
    gw <- calibration_test_vec(d$p, d$y, case_weights = d$w)
    keep <- d$w > 0
    expect_equal(gw$statistic,
      unname(literal_tests(d$p[keep], d$y[keep], d$w[keep])),
      tolerance = 1e-12
    )
    expect_equal(gw$n, rep(sum(d$w), 3))
    # integer weights = rows repeated; row order does not matter
    expect_equal(gw, calibration_test_vec(rep(d$p, d$w), rep(d$y, d$w)),
      tolerance = 1e-12
    )
    perm <- withr::with_seed(3, sample(length(d$p)))
    expect_equal(gw, calibration_test_vec(d$p[perm], d$y[perm],
      case_weights = d$w[perm]
    ), tolerance = 1e-12)
    # fractional weights: the literal weighted definition
    fw <- d$w + 0.25
    expect_equal(
      calibration_test_vec(d$p, d$y, case_weights = fw)$statistic,
      unname(literal_tests(d$p, d$y, fw)),
      tolerance = 1e-12
    )
  }
})

test_that("p-values: the two series agree, Feller's means, Brownian motion", {
  # the tail series (x >= 1) against the distribution-function series
  for (x in c(1, 1.3, 2, 3.5)) {
    expect_equal(brownian_sup_abs_upper(x), 1 - literal_ks_cdf(x),
      tolerance = 1e-12
    )
    expect_equal(brownian_range_upper(x), 1 - literal_kuiper_cdf(x),
      tolerance = 1e-12
    )
  }
  for (x in c(0.3, 0.7, 0.99)) {
    k <- 0:400
    expect_equal(brownian_sup_abs_upper(x),
      4 * sum((-1)^k * pnorm((2 * k + 1) * x, lower.tail = FALSE)),
      tolerance = 1e-10
    )
  }
  expect_equal(brownian_sup_abs_upper(c(0, 40)), c(1, 0))
  expect_equal(brownian_range_upper(c(0, 40)), c(1, 0))
  # the means of sup |B| and of the range are sqrt(pi / 2) and
  # 2 sqrt(2 / pi) (Feller 1951): the integrals of the upper tails
  expect_equal(
    stats::integrate(brownian_sup_abs_upper, 0, 12, rel.tol = 1e-10)$value,
    sqrt(pi / 2),
    tolerance = 1e-8
  )
  expect_equal(
    stats::integrate(brownian_range_upper, 0, 12, rel.tol = 1e-10)$value,
    2 * sqrt(2 / pi),
    tolerance = 1e-8
  )
  # Monte Carlo: random walks of 4000 steps (the discrete maximum is below
  # the continuous one by about 0.58 / sqrt(4000) = 0.009)
  withr::with_seed(5, {
    m <- 4000
    reps <- 2000
    sup_abs <- numeric(reps)
    range <- numeric(reps)
    for (r in seq_len(reps)) {
      b <- c(0, cumsum(stats::rnorm(m))) / sqrt(m)
      sup_abs[r] <- max(abs(b))
      range[r] <- max(b) - min(b)
    }
  })
  for (x in c(1, 1.5, 2.2)) {
    se <- sqrt(0.25 / reps)
    expect_lt(abs(mean(sup_abs >= x) - brownian_sup_abs_upper(x)),
      4 * se + 0.01)
  }
  for (x in c(1.5, 2, 2.8)) {
    expect_lt(abs(mean(range >= x) - brownian_range_upper(x)),
      4 * sqrt(0.25 / reps) + 0.01)
  }
})

# rejection rates at 5% over `reps` data sets of size n
caltest_rejections <- function(reps, n, seed, miscal = 1, grid = NULL) {
  withr::with_seed(seed, {
    rej <- matrix(NA, reps, 3)
    for (r in seq_len(reps)) {
      p <- stats::rbeta(n, 4, 1.5)
      if (!is.null(grid)) p <- round(p * grid) / grid
      y <- stats::rbinom(n, 1, p^miscal)
      rej[r, ] <- calibration_test_stats(p, y, double(), c(
        "spiegelhalter", "ks", "kuiper"
      ))$p_value <= 0.05
    }
  })
  stats::setNames(colMeans(rej), c("spiegelhalter", "ks", "kuiper"))
}

test_that("level under calibration and power under miscalibration (quick)", {
  level <- caltest_rejections(500, 400, 21)
  # Monte-Carlo SE of a 5% rate over 500 sets: 0.0097
  expect_true(all(abs(level - 0.05) < 0.03), label = toString(level))
  tied <- caltest_rejections(500, 400, 22, grid = 10)
  expect_true(all(tied < 0.08), label = toString(tied))
  power <- caltest_rejections(300, 400, 23, miscal = 1.6)
  expect_true(all(power > 0.5), label = toString(power))
})

test_that("level under calibration and power (slow)", {
  skip_if_not_slow()
  # SE of a 5% rate over 4000 sets: 0.0034
  for (n in c(200, 2000)) {
    level <- caltest_rejections(4000, n, 31 + n)
    expect_true(all(abs(level - 0.05) < 0.012), label = toString(level))
  }
  power <- caltest_rejections(2000, 1000, 33, miscal = 1.3)
  expect_true(all(power > 0.5), label = toString(power))
})

test_that("data-frame form: groups, NA rule, method choice", {
  d <- caltest_data(200, 41)
  df <- data.frame(p = d$p, y = d$y, g = rep(c("a", "b"), 100))
  res <- calibration_test(df, p, y, method = c("kuiper", "ks"))
  expect_equal(res, calibration_test_vec(d$p, d$y, method = c("kuiper", "ks")))
  skip_if_not_installed("dplyr")
  gres <- calibration_test(dplyr::group_by(df, g), p, y)
  expect_named(gres, c("g", "method", "statistic", "p_value", "n"))
  expect_equal(gres$g, rep(c("a", "b"), each = 3))
  expect_equal(gres[gres$g == "b", -1],
    calibration_test_vec(d$p[df$g == "b"], d$y[df$g == "b"])
  )
  expect_equal(nrow(calibration_test(dplyr::group_by(df, g)[0, ], p, y)), 0)
  # missing values: NA unless dropped
  p2 <- c(NA, d$p)
  y2 <- c(1, d$y)
  expect_true(all(is.na(calibration_test_vec(p2, y2)$statistic)))
  expect_equal(calibration_test_vec(p2, y2, na_rm = TRUE),
    calibration_test_vec(d$p, d$y))
})

test_that("undefined tests and bad input", {
  expect_warning(
    res <- calibration_test_vec(c(0, 1, 1), c(0, 1, 0)),
    class = "aurc_warning_undefined"
  )
  expect_true(all(is.na(res$statistic)))
  expect_warning(
    res <- calibration_test_vec(c(0.5, 0.5, 1), c(0, 1, 1),
      method = "spiegelhalter"
    ),
    class = "aurc_warning_undefined"
  )
  expect_warning(
    calibration_test_vec(c(0.5, 0.7), c(1, 0), case_weights = c(0, 0)),
    class = "aurc_warning_no_data"
  )
  expect_snapshot(error = TRUE, {
    calibration_test_vec(c(0.5, 0.7), c(1, 0), method = "chisq")
    calibration_test_vec(c(0.5, 1.7), c(1, 0))
    calibration_test_vec(c(0.5, 0.7), c(1, 2))
    calibration_test_vec(c(0.5, 0.7), c(1, 0), case_weights = c(1, -1))
    calibration_test_vec(c(0.5, 0.7), c(1, 0), 3)
    calibration_test(list(), p, y)
  })
  expect_error(calibration_test_vec(0.5, 1, method = character()),
    class = "aurc_error_value"
  )
})

test_that("hand-computed: intercept and slope of logistic recalibration", {
  # p = 0.5 everywhere (logit 0), 3 of 4 right: the intercept is logit(3/4)
  expect_equal(calibration_intercept_vec(rep(0.5, 4), c(1, 1, 1, 0)), log(3),
    tolerance = 1e-12
  )
  # two confidences, logits 0 and 1, with accuracies 1/4 and 1/2: the
  # saturated fit has a = logit(1/4) = -log 3 and a + b = logit(1/2) = 0
  p <- rep(c(0.5, plogis(1)), each = 4)
  y <- c(1, 0, 0, 0, 1, 1, 0, 0)
  expect_equal(calibration_slope_vec(p, y), log(3), tolerance = 1e-12)
  # intercept with slope 1: sum (y - plogis(a + x)) = 0, i.e.
  # 4 plogis(a) + 4 plogis(a + 1) = 3
  a <- calibration_intercept_vec(p, y)
  expect_equal(4 * plogis(a) + 4 * plogis(a + 1), 3, tolerance = 1e-12)
})

test_that("intercept and slope equal glm, weights = repeated rows", {
  for (grid in list(NULL, 25)) {
    d <- caltest_data(400, 51, grid = grid, miscal = 1.4)
    frame <- data.frame(y = d$y, x = qlogis(d$p))
    expect_equal(calibration_slope_vec(d$p, d$y),
      unname(coef(strict_glm(y ~ x, frame))[2]),
      tolerance = 1e-8
    )
    expect_equal(calibration_intercept_vec(d$p, d$y),
      unname(coef(strict_glm(y ~ 1 + offset(x), frame))[1]),
      tolerance = 1e-8
    )
    fw <- d$w + 0.3
    expect_equal(calibration_slope_vec(d$p, d$y, case_weights = fw),
      unname(coef(strict_glm(y ~ x, frame, fw))[2]),
      tolerance = 1e-8
    )
    expect_equal(calibration_intercept_vec(d$p, d$y, case_weights = fw),
      unname(coef(strict_glm(y ~ 1 + offset(x), frame, fw))[1]),
      tolerance = 1e-8
    )
    expect_equal(calibration_slope_vec(d$p, d$y, case_weights = d$w),
      calibration_slope_vec(rep(d$p, d$w), rep(d$y, d$w)),
      tolerance = 1e-10
    )
    expect_equal(calibration_intercept_vec(d$p, d$y, case_weights = d$w),
      calibration_intercept_vec(rep(d$p, d$w), rep(d$y, d$w)),
      tolerance = 1e-10
    )
  }
  # confidences of 0 and 1 are clipped to eps and 1 - eps
  d <- caltest_data(200, 52)
  d$p[1:3] <- c(0, 1, 1)
  d$y[1:3] <- c(1, 0, 1)
  x <- qlogis(pmin(pmax(d$p, 1e-6), 1 - 1e-6))
  expect_equal(calibration_slope_vec(d$p, d$y, eps = 1e-6),
    unname(coef(strict_glm(y ~ x, data.frame(y = d$y, x = x)))[2]),
    tolerance = 1e-8
  )
  # data-frame forms
  df <- data.frame(p = d$p, y = d$y)
  res <- calibration_slope(df, p, y)
  expect_equal(res$.metric, "calibration_slope")
  expect_equal(res$.estimator, "logistic")
  expect_equal(res$.estimate, calibration_slope_vec(d$p, d$y))
  expect_equal(calibration_intercept(df, p, y)$.estimate,
    calibration_intercept_vec(d$p, d$y))
})

test_that("intercept and slope: undefined cases and bad input", {
  expect_warning(
    expect_equal(calibration_slope_vec(c(0.2, 0.6, 0.9), c(0, 1, 1)), NA_real_),
    class = "aurc_warning_undefined"
  )
  expect_warning(
    expect_equal(calibration_slope_vec(rep(0.7, 4), c(0, 1, 1, 0)), NA_real_),
    class = "aurc_warning_undefined"
  )
  expect_warning(
    expect_equal(calibration_intercept_vec(c(0.2, 0.6), c(1, 1)), NA_real_),
    class = "aurc_warning_undefined"
  )
  # overlapping classes: the slope exists
  expect_false(is.na(calibration_slope_vec(c(0.2, 0.6, 0.9), c(0, 1, 0))))
  expect_equal(calibration_slope_vec(c(NA, 0.2), c(1, 1)), NA_real_)
  expect_snapshot(error = TRUE, {
    calibration_slope_vec(c(0.2, 0.6), c(0, 1), eps = 0)
    calibration_intercept_vec(c(0.2, 0.6), c(0, 1), eps = 0.5)
    calibration_slope_vec(c(0.2, 1.6), c(0, 1))
  })
})

test_that("ICI, E50, E90, Emax equal the authors' loess computation", {
  for (grid in list(NULL, 50)) {
    d <- caltest_data(500, 61, grid = grid, miscal = 1.5)
    p <- d$p
    y <- d$y
    # Austin & Steyerberg's code, literally
    smooth <- predict(loess(y ~ p), newdata = p)
    dist <- abs(smooth - p)
    expect_equal(ici_vec(p, y), mean(dist), tolerance = 1e-12)
    expect_equal(e50_vec(p, y), median(dist), tolerance = 1e-12)
    expect_equal(e90_vec(p, y), unname(quantile(dist, 0.9)),
      tolerance = 1e-12
    )
    expect_equal(emax_vec(p, y), max(dist), tolerance = 1e-12)
    # a span of 0.5
    smooth <- predict(loess(y ~ p, span = 0.5), newdata = p)
    expect_equal(ici_vec(p, y, span = 0.5), mean(abs(smooth - p)),
      tolerance = 1e-12
    )
    # weights: loess prior weights, weighted mean and quantiles
    w <- d$w + 0.5
    smooth <- predict(loess(y ~ p, weights = w), newdata = p)
    dist <- abs(smooth - p)
    expect_equal(ici_vec(p, y, case_weights = w), sum(w * dist) / sum(w),
      tolerance = 1e-12
    )
  }
})

test_that("loess with the paper's settings is local quadratic least squares", {
  # the definition of the smooth at a point, computed directly (loess's
  # surface = "direct"): the q = floor(0.75 n) nearest samples, tricube
  # weights of the distance over the q-th distance, a weighted quadratic
  d <- caltest_data(150, 62, miscal = 1.5)
  p <- d$p
  y <- d$y
  q <- floor(0.75 * length(p))
  direct <- vapply(p, function(x0) {
    dist <- abs(p - x0)
    h <- sort(dist)[q]
    u <- pmin(dist / h, 1)
    k <- (1 - u^3)^3
    unname(stats::coef(stats::lm(y ~ I(p - x0) + I((p - x0)^2),
      weights = k
    ))[1])
  }, numeric(1))
  fit <- loess(y ~ p, control = loess.control(surface = "direct"))
  expect_equal(unname(fitted(fit)), direct, tolerance = 1e-8)
  # the interpolated surface (the default, and the authors') is close
  expect_lt(abs(ici_vec(p, y) - mean(abs(direct - p))), 2e-3)
})

test_that("weighted quantiles: hand-computed, and = repeated rows", {
  # d 0.1, 0.2, 0.4 with weights 1, 2, 1 = 0.1, 0.2, 0.2, 0.4:
  # median h = 3 * 0.5 + 1 = 2.5 -> 0.2; 0.9: h = 3.7 -> 0.2 + 0.7 * 0.2
  expect_equal(weighted_quantile7(c(0.4, 0.1, 0.2), c(1, 1, 2), 0.5), 0.2)
  expect_equal(weighted_quantile7(c(0.4, 0.1, 0.2), c(1, 1, 2), 0.9), 0.34,
    tolerance = 1e-12
  )
  x <- withr::with_seed(3, round(runif(40), 1))
  w <- withr::with_seed(4, rpois(40, 2) + 1)
  for (q in c(0, 0.1, 0.5, 0.9, 1)) {
    expect_equal(weighted_quantile7(x, w, q),
      unname(quantile(rep(x, w), q)),
      tolerance = 1e-12
    )
  }
})

test_that("calibration_summary() and the data-frame forms of ICI", {
  d <- caltest_data(300, 71, miscal = 1.4)
  df <- data.frame(p = d$p, y = d$y, g = rep(c("a", "b"), 150))
  res <- calibration_summary(df, p, y)
  expect_equal(res$.metric, c(
    "calibration_intercept", "calibration_slope", "ici", "e50", "e90", "emax"
  ))
  expect_equal(res$.estimate, c(
    calibration_intercept_vec(d$p, d$y), calibration_slope_vec(d$p, d$y),
    ici_vec(d$p, d$y), e50_vec(d$p, d$y), e90_vec(d$p, d$y),
    emax_vec(d$p, d$y)
  ))
  expect_equal(ici(df, p, y)$.estimate, ici_vec(d$p, d$y))
  expect_equal(emax(df, p, y)$.metric, "emax")
  skip_if_not_installed("dplyr")
  g <- dplyr::group_by(df, g)
  gres <- calibration_summary(g, p, y)
  expect_equal(nrow(gres), 12)
  a <- df$g == "a"
  expect_equal(gres$.estimate[gres$g == "a"], c(
    calibration_intercept_vec(d$p[a], d$y[a]),
    calibration_slope_vec(d$p[a], d$y[a]),
    ici_vec(d$p[a], d$y[a]), e50_vec(d$p[a], d$y[a]),
    e90_vec(d$p[a], d$y[a]), emax_vec(d$p[a], d$y[a])
  ))
  expect_equal(e90(g, p, y)$.estimate[2], e90_vec(d$p[!a], d$y[!a]))
})

test_that("ICI: undefined cases and bad input", {
  expect_warning(
    expect_equal(ici_vec(c(0.5, 0.6), c(1, 0)), NA_real_),
    class = "aurc_warning_undefined"
  )
  expect_equal(ici_vec(c(NA, 0.5), c(1, 0)), NA_real_)
  expect_snapshot(error = TRUE, {
    ici_vec(c(0.5, 0.6), c(1, 0), span = 0)
    e90_vec(c(0.5, 0.6), c(1, 0), span = 1.5)
    calibration_summary(data.frame(p = 0.5, y = 1), p, y, eps = -1)
  })
})

test_that("weights at extreme scales: the statistics scale as sqrt(weights)", {
  d <- caltest_data(100, 81)
  w <- d$w + 1
  base <- calibration_test_vec(d$p, d$y, case_weights = w)
  for (k in c(-600, 600)) {
    got <- calibration_test_vec(d$p, d$y, case_weights = w * 2^k)
    expect_equal(got$statistic, base$statistic * 2^(k / 2), tolerance = 1e-12)
  }
  expect_equal(calibration_slope_vec(d$p, d$y, case_weights = w * 2^-600),
    calibration_slope_vec(d$p, d$y, case_weights = w), tolerance = 1e-12)
})
