corp_data <- function(n, seed, grid = 20) {
  withr::with_seed(seed, {
    x <- round(stats::runif(n) * grid) / grid
    y <- stats::rbinom(n, 1, x^1.5)
    w <- stats::rpois(n, 1.5)
  })
  list(x = x, y = y, w = w)
}

test_that("hand-computed: PAV pools violators and ties", {
  # confidences .2 .4 .4 .6 .8, outcomes 1 0 1 0 1. Tie group .4 has mean
  # 1/2; .2 (mean 1) > .4 (1/2): pool to 2/3; then .6 (0) < 2/3: pool all
  # four to 2/4 = 1/2; .8 (1) stays. Fit: .5 .5 .5 .5 1.
  x <- c(0.2, 0.4, 0.4, 0.6, 0.8)
  y <- c(1, 0, 1, 0, 1)
  fit <- corp_reliability(x, y, times = 0)
  expect_equal(fit$points$cep, c(0.5, 0.5, 0.5, 1))
  expect_equal(fit$bins$n, c(4, 1))
  expect_equal(fit$bins$min_confidence, c(0.2, 0.8))
  expect_equal(fit$bins$max_confidence, c(0.6, 0.8))
  # Brier: mean score = (.64 + .16 + .36 + .36 + .04) / 5 = 1.56 / 5;
  # the fit scores 4 times .25 and once 0, so Sc is 1 / 5; UNC is .6 times .4
  d <- fit$decomposition
  expect_equal(d$mean_score, 1.56 / 5)
  expect_equal(d$mcb, 1.56 / 5 - 1 / 5)
  expect_equal(d$dsc, 0.24 - 0.2)
  expect_equal(d$unc, 0.24)
  expect_equal(d$mean_score, d$mcb - d$dsc + d$unc)
  # log: Sc = 4 log 2 / 5
  dl <- corp_reliability(x, y, times = 0, score = "log")$decomposition
  ms <- -(log(0.2) + log(0.6) + log(0.4) + log(0.4) + log(0.8)) / 5
  expect_equal(dl$mean_score, ms)
  expect_equal(dl$mcb, ms - 4 * log(2) / 5)
  expect_equal(dl$unc, -(0.6 * log(0.6) + 0.4 * log(0.4)))
})

test_that("PAV equals the brute-force isotonic regression", {
  for (seed in 1:15) {
    d <- corp_data(9, seed, grid = 5)
    w <- d$w + 0.5
    fit <- corp_reliability(d$x, d$y, times = 0, case_weights = w)
    cep <- fit$points$cep[match(d$x, fit$points$confidence)]
    expect_equal(cep, literal_isotonic(d$x, d$y, w), tolerance = 1e-12)
  }
})

test_that("equals reliabilitydiag with ties: fit, decomposition, bands", {
  skip_if_not_installed("reliabilitydiag")
  lg <- function(y, x) -ifelse(y == 1, log(x), log(1 - x))
  for (seed in 1:3) {
    d <- corp_data(300, seed, grid = 25)
    set.seed(100 + seed)
    r <- reliabilitydiag::reliabilitydiag(d$x,
      y = d$y,
      region.method = "resampling", n.boot = 40
    )
    set.seed(100 + seed)
    ours <- corp_reliability(d$x, d$y, times = 40)
    ref <- r[[1]]
    expect_equal(ours$bins$cep, ref$bins$CEP_pav, tolerance = 1e-10)
    expect_equal(ours$bins$n, ref$bins$n)
    expect_equal(ours$bins$min_confidence, ref$bins$x_min)
    expect_equal(ours$bins$max_confidence, ref$bins$x_max)
    expect_equal(ours$points$confidence, ref$regions$x)
    expect_equal(ours$points$band_lower, ref$regions$lower, tolerance = 1e-10)
    expect_equal(ours$points$band_upper, ref$regions$upper, tolerance = 1e-10)
    s <- suppressWarnings(summary(r))
    expect_equal(ours$decomposition$mean_score, s$mean_score, tolerance = 1e-10)
    expect_equal(ours$decomposition$mcb, s$miscalibration, tolerance = 1e-10)
    expect_equal(ours$decomposition$dsc, s$discrimination, tolerance = 1e-10)
    expect_equal(ours$decomposition$unc, s$uncertainty, tolerance = 1e-10)
    sl <- suppressWarnings(summary(r, score = lg))
    ol <- corp_reliability(d$x, d$y, times = 0, score = "log")$decomposition
    expect_equal(ol$mcb, sl$miscalibration, tolerance = 1e-10)
    expect_equal(ol$dsc, sl$discrimination, tolerance = 1e-10)
    # band around the estimate
    set.seed(7)
    r2 <- reliabilitydiag::reliabilitydiag(d$x,
      y = d$y,
      region.method = "resampling", n.boot = 40, region.position = "estimate"
    )
    set.seed(7)
    o2 <- corp_reliability(d$x, d$y, times = 40, band_position = "estimate")
    expect_equal(o2$points$band_lower, r2[[1]]$regions$lower,
      tolerance = 1e-10
    )
    expect_equal(o2$points$band_upper, r2[[1]]$regions$upper,
      tolerance = 1e-10
    )
  }
})

test_that("invariants: row order, integer weights = repeated rows, counts", {
  d <- corp_data(400, 11)
  perm <- withr::with_seed(3, sample(400))
  a <- corp_reliability(d$x, d$y, times = 0, case_weights = d$w)
  b <- corp_reliability(rep(d$x, d$w), rep(d$y, d$w), times = 0)
  c <- corp_reliability(d$x[perm], d$y[perm],
    times = 0,
    case_weights = d$w[perm]
  )
  expect_equal(a$decomposition, b$decomposition, tolerance = 1e-12)
  expect_equal(a$decomposition, c$decomposition, tolerance = 1e-12)
  expect_equal(a$bins, b$bins, tolerance = 1e-12)
  # the bootstrap hook: counts over rows, no new sort
  input <- smooth_input(d$x, d$y, NULL, FALSE, rlang::current_env())
  prep <- corp_prepare(input)
  got <- corp_counts(prep, d$w)
  want <- unlist(b$decomposition[c("mean_score", "mcb", "dsc", "unc")])
  expect_equal(got, want, tolerance = 1e-12)
  expect_equal(corp_counts(prep, d$w, "log")[["mcb"]],
    corp_mcb_vec(rep(d$x, d$w), rep(d$y, d$w), score = "log"),
    tolerance = 1e-12
  )
})

test_that("metric forms: vector, data frame, grouped decomposition", {
  skip_if_not_installed("dplyr")
  d <- corp_data(200, 12)
  df <- data.frame(x = d$x, y = d$y, g = rep(c("a", "b"), 100))
  expect_equal(
    corp_mcb_vec(d$x, d$y),
    corp_reliability(d$x, d$y, times = 0)$decomposition$mcb
  )
  out <- corp_mcb(dplyr::group_by(df, g), x, y)
  expect_named(out, c("g", ".metric", ".estimator", ".estimate"))
  in_a <- df$g == "a"
  expect_equal(out$.estimate[1], corp_mcb_vec(d$x[in_a], d$y[in_a]))
  dec <- corp_decomposition(dplyr::group_by(df, g), x, y, score = "log")
  expect_named(dec, c("g", "score", "mean_score", "mcb", "dsc", "unc"))
  expect_equal(dec$mean_score, dec$mcb - dec$dsc + dec$unc)
  expect_identical(corp_mcb_vec(c(0.5, NA), c(1, 0)), NA_real_)
  expect_warning(corp_mcb_vec(c(0.5, 0.2), c(1, 0), case_weights = c(0, 0)),
    class = "aurc_warning_no_data"
  )
})

test_that("bad input: classed errors naming the argument", {
  expect_snapshot(error = TRUE, corp_reliability(c(0.5, 1.5), c(1, 0)))
  expect_snapshot(error = TRUE, corp_mcb_vec(c(0.5, 0.2), c(1, 3)))
  expect_snapshot(error = TRUE, corp_mcb_vec(c(0.5, 0.2), c(1, 0), score = "x"))
  expect_snapshot(error = TRUE, corp_reliability(c(0.5, 0.2), c(1, 0),
    case_weights = c(1, 2)
  ))
  expect_error(corp_reliability(c(0.5, 0.2), c(1, 0), band_level = 1),
    class = "aurc_error_value"
  )
})

test_that("CORP diagram: built data", {
  d <- corp_data(300, 13)
  fit <- withr::with_seed(1, corp_reliability(d$x, d$y, times = 20))
  p <- autoplot(fit)
  expect_s3_class(p, "ggplot")
  built <- ggplot2::ggplot_build(p)
  # the step path passes through every block's two ends
  path <- built$data[[4]]
  expect_equal(nrow(path), 2 * nrow(fit$bins))
  expect_equal(path$y, rep(fit$bins$cep, each = 2))
  expect_snapshot(print(fit))
})

test_that("simulation: the band holds a calibrated fit about 90% of the time", {
  skip_on_cran()
  # calibrated data on 11 confidence values; at each value, how often does
  # the PAV fit lie inside the 90% band? Pointwise level ~0.9 (resampling
  # is an approximation at n = 300; the bounds allow for it and for the
  # 300 simulated data sets: se ~ 0.017).
  withr::local_seed(21)
  grid <- seq(0, 1, by = 0.1)
  inside <- replicate(300, {
    x <- sample(grid, 300, replace = TRUE)
    y <- stats::rbinom(300, 1, x)
    fit <- corp_reliability(x, y, times = 100)
    p <- fit$points
    at <- match(grid[c(4, 6, 8)], p$confidence)
    p$cep[at] >= p$band_lower[at] & p$cep[at] <= p$band_upper[at]
  })
  level <- rowMeans(inside)
  expect_true(all(level > 0.83 & level < 0.97))
})

test_that("the asymptotic band equals reliabilitydiag's discrete asymptotics", {
  skip_if_not_installed("reliabilitydiag")
  for (seed in 1:3) {
    d <- corp_data(400, 20 + seed, grid = 10) # ties; 0 and 1 occur
    for (pos in c("diagonal", "estimate")) {
      for (level in c(0.9, 0.5)) {
        r <- suppressMessages(reliabilitydiag::reliabilitydiag(d$x,
          y = d$y, region.method = "discrete_asymptotics",
          region.position = pos, region.level = level
        ))[[1]]$regions
        ours <- corp_reliability(d$x, d$y,
          band_method = "asymptotic",
          band_position = pos, band_level = level
        )$points
        expect_equal(ours$confidence, r$x)
        expect_equal(ours$band_lower, r$lower, tolerance = 1e-10)
        expect_equal(ours$band_upper, r$upper, tolerance = 1e-10)
      }
    }
  }
})

test_that("the asymptotic band by hand; case weights are repeated rows", {
  # confidences .5 (4 times, 2 correct) and .9 (one, correct): diagonal
  # band at .5: .5 -/+ qnorm(.95) sqrt(.25 / 4); at .9: .9 -/+ qnorm(.95)
  # sqrt(.09), clipped at 1
  x <- c(0.5, 0.5, 0.5, 0.5, 0.9)
  y <- c(1, 0, 1, 0, 1)
  fit <- corp_reliability(x, y, band_method = "asymptotic")
  z <- stats::qnorm(0.95)
  expect_equal(fit$points$band_lower, c(0.5 - z * 0.25, 0.9 - z * 0.3))
  expect_equal(fit$points$band_upper, c(0.5 + z * 0.25, 1))
  d <- corp_data(200, 4, grid = 8)
  a <- corp_reliability(d$x, d$y,
    band_method = "asymptotic", case_weights = d$w,
    band_position = "estimate"
  )
  b <- corp_reliability(rep(d$x, d$w), rep(d$y, d$w),
    band_method = "asymptotic", band_position = "estimate"
  )
  expect_equal(a$points, b$points, tolerance = 1e-12)
  expect_snapshot({
    print(b)
    invisible(corp_reliability(x, y, band_method = "asymptotic", times = 10))
  })
  expect_warning(
    corp_reliability(x, y, band_method = "asymptotic", times = 10),
    class = "aurc_warning_ignored"
  )
  p <- autoplot(a)
  built <- ggplot2::ggplot_build(p)
  ribbon <- built$data[[2]]
  expect_equal(nrow(ribbon), sum(!is.na(a$points$band_lower)))
  expect_match(p$labels$subtitle, "discrete asymptotic")
})
