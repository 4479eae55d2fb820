small_study <- function() {
  withr::with_seed(1, {
    score <- stats::rnorm(2000)
    failure <- stats::rbinom(2000, 1, stats::plogis(-1 - 1.5 * score))
    aurc_batch_study(score, failure, batch_sizes = c(8, 32, 128), times = 2)
  })
}

layer_of <- function(p, geom) {
  which(vapply(p$layers, function(l) inherits(l$geom, geom), logical(1)))
}

test_that("estimate view: mean +- sd, population dashed", {
  study <- small_study()
  p <- autoplot(study)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  s <- study$summary
  line <- b$data[[layer_of(p, "GeomLine")]]
  # x is on a log2 scale; one line per estimator, ordered by x
  expect_equal(sort(2^unique(line$x)), c(8, 32, 128))
  expect_equal(nrow(line), nrow(s))
  expect_equal(sort(line$y), sort(s$mean))
  ribbon <- b$data[[layer_of(p, "GeomRibbon")]]
  expect_equal(sort(ribbon$ymax - ribbon$ymin), sort(2 * s$sd))
  ref <- b$data[[layer_of(p, "GeomHline")]]
  expect_equal(ref$yintercept[1], study$population)
  expect_equal(ref$linetype[1], "dashed")
  expect_match(p$labels$y, "mean \\+/- sd")
})

test_that("bias, mse and mae views", {
  study <- small_study()
  s <- study$summary
  p <- autoplot(study, type = "bias")
  b <- ggplot2::ggplot_build(p)
  expect_equal(sort(b$data[[layer_of(p, "GeomLine")]]$y), sort(s$bias))
  expect_equal(b$data[[layer_of(p, "GeomHline")]]$yintercept[1], 0)
  for (type in c("mse", "mae")) {
    p <- autoplot(study, type = type)
    b <- ggplot2::ggplot_build(p)
    # log10 y axis
    expect_equal(sort(b$data[[layer_of(p, "GeomLine")]]$y),
                 sort(log10(s[[type]])))
    expect_match(p$labels$y, "log scale")
  }
  expect_snapshot(error = TRUE, {
    autoplot(study, type = "sd")
    autoplot(study, "mse", 1)
  })
})

test_that("bias curves are weight_bias() per panel", {
  p <- plot_weight_bias(n = c(10, 100), beta = c(0, 0.5, 0.9))
  b <- ggplot2::ggplot_build(p)
  line <- b$data[[layer_of(p, "GeomLine")]]
  expect_equal(length(unique(line$PANEL)), 2)
  expect_equal(nrow(line), 2 * 3 * 3)
  expected <- c(
    weight_bias(c(0, 0.5, 0.9), 10), weight_bias(c(0, 0.5, 0.9), 100),
    weight_bias(c(0, 0.5, 0.9), 10, "sele")
  )
  # every expected value is drawn
  gap <- apply(abs(outer(expected, line$y, "-")), 1, min)
  expect_true(all(gap < 1e-14))
  zero <- b$data[[layer_of(p, "GeomHline")]]
  expect_equal(unique(zero$yintercept), 0)
  expect_equal(unique(zero$linetype), "dashed")
  expect_snapshot(error = TRUE, plot_weight_bias(n = 0))
})

test_that("the bound surface is Eq. 24 on a log colour scale", {
  p <- plot_weight_mse_bound(n = c(1, 10, 100), beta = c(0, 0.5, 0.9))
  b <- ggplot2::ggplot_build(p)
  tile <- b$data[[layer_of(p, "GeomRect")]]
  expect_equal(nrow(tile), 3 * 2) # beta = 0 is left out
  # cells are contiguous, half the smallest step beyond the ends (clamped):
  # n edges 1 - 4.5 -> 0.5, 5.5, 55, 100 + 4.5; beta 0.3, 0.7, 0.9 + 0.2 -> 1
  expect_equal(sort(unique(c(tile$xmin, tile$xmax))), c(0.5, 5.5, 55, 104.5))
  expect_equal(sort(unique(c(tile$ymin, tile$ymax))), c(0.3, 0.7, 1))
  d <- p$data
  expect_equal(d$bound, d$beta / (d$n * (1 - d$beta) + 1))
  expect_equal(sort(unique(d$beta)), c(0.5, 0.9))
  # log axis: the cell edges are transformed, still contiguous
  q <- plot_weight_mse_bound(n = c(1, 10, 100), beta = 0.5, log_n = TRUE)
  # one beta: no contour lines (they need a 2-D grid), and no warnings
  expect_no_warning(ggplot2::ggplot_build(q))
  geoms <- vapply(q$layers, function(l) class(l$geom)[1], "")
  expect_false("GeomContour" %in% geoms)
  expect_null(q$labels$caption)
  expect_true("GeomContour" %in% vapply(p$layers, function(l) {
    class(l$geom)[1]
  }, ""))
  tile <- ggplot2::ggplot_build(q)$data[[layer_of(q, "GeomRect")]]
  expect_equal(sort(unique(c(tile$xmin, tile$xmax))),
               log10(c(0.5, 5.5, 55, 104.5)))
  # one beta is a strip of height 0.01, and the y axis spans only it (not
  # [0, 1], where it would seem to cover other percentiles)
  expect_equal(c(tile$ymin[1], tile$ymax[1]), c(0.495, 0.505))
  yrange <- ggplot2::ggplot_build(q)$layout$panel_params[[1]]$y.range
  expect_equal(yrange, c(0.495, 0.505))
  expect_snapshot(error = TRUE, {
    plot_weight_mse_bound(beta = 2)
    plot_weight_mse_bound(log_n = "yes")
  })
})

test_that("plot_weight_bias() draws a sample size given twice once", {
  p <- plot_weight_bias(n = c(10, 10, 100), estimators = "alpha")
  expect_equal(levels(p$data$panel), c("n = 10", "n = 100"))
  expect_equal(nrow(p$data), 2 * length(seq(0, 0.99, by = 0.005)))
})
