smooth_data <- function(n, seed, grid = NULL) {
  withr::with_seed(seed, {
    f <- stats::runif(n)
    if (!is.null(grid)) f <- round(f * grid) / grid
    # samples at 0 and 1 whose residuals are not 0
    f[1:4] <- c(0, 0, 1, 1)
    y <- stats::rbinom(n, 1, pmin(1, pmax(0, f + 0.3 * sin(6 * f))))
    y[1:4] <- c(1, 0, 0, 1)
    w <- stats::rpois(n, 1.5)
  })
  list(f = f, y = y, w = w)
}

test_that("hand-computed: residuals of one sign give their mean at any sigma", {
  # fine method: g(t) = (1/n) sum r_i K(t, f_i) >= 0 and K integrates to 1,
  # so smECE_sigma = mean(r) = (0.8 + 0.6) / 2 = 0.7 for every sigma
  for (s in c(0.02, 0.1, 0.5)) {
    expect_equal(
      as.numeric(smooth_ece_vec(c(0.2, 0.4), c(1, 1), sigma = s)), 0.7,
      tolerance = 1e-12
    )
  }
  # at the ends of [0, 1] a sample is its own mirror image: its kernel is
  # 2 phi(t - 1), still of mass 1, so the mean of the residuals is kept
  expect_equal(
    as.numeric(smooth_ece_vec(c(1, 0.5), c(0, 0), sigma = 0.05)), 0.75,
    tolerance = 1e-12
  )
  expect_equal(
    as.numeric(smooth_ece_vec(c(0, 0, 0.3), c(1, 1, 1), sigma = 0.2)),
    (1 + 1 + 0.7) / 3,
    tolerance = 1e-12
  )
  # the fixed point of the constant 0.7 is 0.7; bisection returns the
  # smallest multiple of 2^-10 above it: ceiling(716.8) / 1024
  res <- smooth_ece_vec(c(0.2, 0.4), c(1, 1))
  expect_equal(attr(res, "sigma"), 717 / 1024)
  expect_equal(as.numeric(res), 0.7, tolerance = 1e-12)
})

test_that("hand-computed: cancelling residuals, floor bandwidth", {
  # residuals +0.5 and -0.5 at the same confidence: g = 0 everywhere. The
  # bisection moves down while sigma >= 0.001; 2^-10 < 0.001 is the first
  # midpoint below the floor, so the upper end stays at 2^-9.
  for (m in c("fine", "relplot")) {
    res <- smooth_ece_vec(c(0.5, 0.5), c(0, 1), method = m)
    expect_equal(as.numeric(res), 0)
    expect_equal(attr(res, "sigma"), 2^-9)
  }
})

test_that("relplot method equals the literal transcription of relplot", {
  d <- smooth_data(150, 1)
  dt <- smooth_data(150, 2, grid = 20)
  for (s in c(0.013, 0.05, 0.3)) {
    expect_equal(
      as.numeric(smooth_ece_vec(d$f, d$y, sigma = s, method = "relplot")),
      literal_smooth_ece_relplot(d$f, d$y, sigma = s),
      tolerance = 1e-12
    )
  }
  # ties and weights
  expect_equal(
    as.numeric(smooth_ece_vec(dt$f, dt$y,
      sigma = 0.04, method = "relplot",
      case_weights = dt$w
    )),
    literal_smooth_ece_relplot(dt$f, dt$y, dt$w, sigma = 0.04),
    tolerance = 1e-12
  )
})

test_that("fine method is within its bound of the exact kernel sums", {
  d <- smooth_data(120, 3)
  dt <- smooth_data(120, 4, grid = 25)
  for (s in c(0.02, 0.08, 0.4)) {
    got <- as.numeric(smooth_ece_vec(d$f, d$y, sigma = s,
      case_weights = d$w
    ))
    want <- literal_smooth_ece_fine(d$f, d$y, d$w, sigma = s)
    # bound: 0.121 (delta / sigma)^2 with delta <= sigma / 400
    expect_lt(abs(got - want), 7.6e-7)
    got_t <- as.numeric(smooth_ece_vec(dt$f, dt$y, sigma = s))
    expect_lt(abs(got_t - literal_smooth_ece_fine(dt$f, dt$y, sigma = s)),
      7.6e-7)
  }
})

test_that("the bandwidth is relplot's bisection fixed point", {
  d <- smooth_data(200, 5)
  for (m in c("fine", "relplot")) {
    res <- smooth_ece_vec(d$f, d$y, method = m)
    f <- function(s) as.numeric(smooth_ece_vec(d$f, d$y, sigma = s, method = m))
    sigma <- literal_smooth_sigma(f)
    expect_equal(attr(res, "sigma"), sigma)
    expect_equal(as.numeric(res), f(sigma))
    # at the upper end smECE <= sigma, at sigma - 2^-10 it is above
    expect_lte(as.numeric(res), sigma)
    expect_gt(f(sigma - 2^-10), sigma - 2^-10)
  }
})

test_that("invariants: row order, integer weights = repeated rows, counts", {
  d <- smooth_data(300, 6, grid = 50)
  rep_f <- rep(d$f, d$w)
  rep_y <- rep(d$y, d$w)
  perm <- withr::with_seed(7, sample(length(d$f)))
  for (m in c("fine", "relplot")) {
    a <- smooth_ece_vec(d$f, d$y, method = m, case_weights = d$w)
    expect_equal(a, smooth_ece_vec(rep_f, rep_y, method = m),
      tolerance = 1e-12
    )
    expect_equal(a, smooth_ece_vec(d$f[perm], d$y[perm],
      method = m,
      case_weights = d$w[perm]
    ), tolerance = 1e-12)
    # the bootstrap hook: counts over rows = weights
    input <- smooth_input(d$f, d$y, NULL, FALSE, rlang::current_env())
    expect_equal(
      smooth_ece_counts(input, d$w, list(
        sigma = NULL,
        method = m
      )),
      a,
      tolerance = 1e-12
    )
  }
})

test_that("missing values, no data, and the data-frame form", {
  skip_if_not_installed("dplyr")
  expect_identical(smooth_ece_vec(c(0.5, NA), c(1, 0)), NA_real_)
  expect_equal(
    smooth_ece_vec(c(0.5, NA, 0.7), c(1, 0, 1), na_rm = TRUE),
    smooth_ece_vec(c(0.5, 0.7), c(1, 1))
  )
  expect_warning(
    res <- smooth_ece_vec(c(0.5, 0.7), c(1, 0), case_weights = c(0, 0)),
    class = "aurc_warning_no_data"
  )
  expect_identical(res, NA_real_)
  d <- smooth_data(200, 8)
  df <- data.frame(f = d$f, y = d$y, g = rep(c("a", "b"), 100))
  out <- smooth_ece(dplyr::group_by(df, g), f, y, method = "relplot")
  expect_named(out, c("g", ".metric", ".estimator", ".estimate"))
  expect_equal(out$.metric, c("smooth_ece", "smooth_ece"))
  expect_equal(out$.estimator, c("relplot", "relplot"))
  expect_equal(
    out$.estimate[2],
    as.numeric(smooth_ece_vec(d$f[df$g == "b"], d$y[df$g == "b"],
      method = "relplot"
    ))
  )
})

test_that("bad input: classed errors naming the argument", {
  expect_snapshot(error = TRUE, smooth_ece_vec(c(0.5, 1.2), c(1, 0)))
  expect_snapshot(error = TRUE, smooth_ece_vec(c(0.5, 0.2), c(1, 2)))
  expect_snapshot(error = TRUE, smooth_ece_vec(c(0.5, 0.2), c(1, 0), sigma = 0))
  expect_snapshot(
    error = TRUE,
    smooth_ece_vec(c(0.5, 0.2), c(1, 0), method = "x")
  )
  expect_error(smooth_ece_vec(c(0.5, 0.2), c(1, 0), sigma = -1),
    class = "aurc_error_value"
  )
  expect_error(smooth_ece_vec(c(0.5, -0.2), c(1, 0)),
    class = "aurc_error_value"
  )
  expect_error(smooth_calibration(c(0.5, NA), c(1, 0)),
    class = "aurc_error_missing"
  )
})

test_that("smooth reliability diagram: curve, band and plot", {
  d <- smooth_data(400, 9)
  sm <- withr::with_seed(1, smooth_calibration(d$f, d$y,
    times = 30,
    method = "relplot"
  ))
  expect_s3_class(sm, "aurc_smooth_calibration")
  expect_equal(nrow(sm), 200)
  expect_equal(attr(sm, "smooth_ece"),
    as.numeric(smooth_ece_vec(d$f, d$y, method = "relplot")))
  # the curve is t + R / (D + 1e-4) at the relplot bandwidth: at a point t,
  # from the kernel sums written out
  sigma <- attr(sm, "sigma")
  k <- 101
  t <- sm$confidence[k]
  kern <- stats::dnorm(t - d$f, sd = sigma) +
    stats::dnorm(t + d$f, sd = sigma) +
    stats::dnorm(2 - d$f - t, sd = sigma)
  mu <- t + sum(kern * (d$y - d$f)) / sum(kern)
  expect_equal(sm$accuracy[k], mu, tolerance = 1e-2)
  expect_true(all(sm$lower <= sm$upper))
  expect_true(mean(sm$lower <= sm$accuracy & sm$accuracy <= sm$upper) > 0.9)
  p <- autoplot(sm)
  expect_s3_class(p, "ggplot")
  built <- ggplot2::ggplot_build(p)
  expect_gte(length(built$data), 3)
  smf <- smooth_calibration(d$f, d$y, times = 0)
  expect_true(all(is.na(smf$lower)))
  expect_s3_class(autoplot(smf), "ggplot")
  expect_snapshot(print(sm[1:3, ]))
})
