test_that("risk-coverage plot: curve, dashed references, zoomed axes", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  f <- c(0, 0, 1, 0, 1, 1)
  p <- ggplot2::autoplot(rc_curve_vec(s, f))
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  d <- b$data[[1]]
  expect_setequal(unique(d$linetype), c("solid", "dashed", "dotted"))
  curve <- d[d$linetype == "solid", ]
  expect_equal(curve$y, c(0, 1 / 3, 1 / 4, 2 / 5, 1 / 2))
  random <- d[d$linetype == "dotted", ]
  expect_equal(random$y, c(1 / 2, 1 / 2))
  expect_identical(p$labels$x, "Coverage (share of predictions accepted)")
  expect_match(p$labels$y, "Selective risk")
  expect_equal(ggplot2::layer_scales(p)$x$limits, c(0, 1))
  # zoomed to the largest risk drawn (see the test of full_range below)
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 1 / 2))
  g <- ggplot2::autoplot(rc_curve_vec(s, f), type = "generalized")
  d <- ggplot2::ggplot_build(g)$data[[1]]
  curve <- d[d$linetype == "solid", ]
  expect_equal(curve$x, c(0, 1 / 6, 1 / 2, 2 / 3, 5 / 6, 1))
  expect_equal(curve$y, c(0, 0, 1 / 6, 1 / 6, 1 / 3, 1 / 2))
  expect_match(g$labels$y, "Generalized risk")
})

test_that("grouped curves get one colour per group", {
  skip_if_not_installed("dplyr")
  toy <- traub_toy_example()
  curves <- rc_curve(dplyr::group_by(toy, csf), score, failure)
  p <- ggplot2::autoplot(curves)
  d <- ggplot2::ggplot_build(p)$data[[1]]
  expect_equal(length(unique(d$colour)), 3)
  expect_identical(p$labels$colour, "csf")
  expect_equal(sum(d$linetype == "solid"), 60)
})

test_that("grouped curves keep the order of the groups, not the alphabet", {
  skip_if_not_installed("dplyr")
  toy <- traub_toy_example()
  toy$csf <- factor(toy$csf, levels = c("CSF-3", "CSF-1", "CSF-2"))
  curves <- rc_curve(dplyr::group_by(toy, csf), score, failure)
  built <- ggplot2::ggplot_build(ggplot2::autoplot(curves))
  expect_identical(
    built$plot$scales$get_scales("colour")$get_limits(),
    c("CSF-3", "CSF-1", "CSF-2")
  )
})

test_that("contribution plot", {
  p <- ggplot2::autoplot(contribution_curve(50))
  d <- ggplot2::ggplot_build(p)$data[[1]]
  expect_equal(nrow(d), 150)
  expect_equal(length(unique(d$colour)), 3)
  expect_match(p$labels$x, "1 = most confident")
  expect_snapshot(error = TRUE, {
    ggplot2::autoplot(rc_curve_vec(1:3, c(0, 1, 0)), type = "roc")
  })
})

test_that("risk axis zooms to the curves; full_range shows [0, 1]", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3, 0.2, 0.1)
  f <- c(0, 0, 1, 0, 0, 0, 1, 0)
  curve <- rc_curve_vec(s, f)
  # largest value drawn: the random line at the mean loss, 1/4 (the score
  # curve peaks at 1/3 at coverage 3/8)
  p <- ggplot2::autoplot(curve)
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 1 / 3))
  p <- ggplot2::autoplot(curve, full_range = TRUE)
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 1))
  # no point is dropped by the zoom
  d <- ggplot2::ggplot_build(ggplot2::autoplot(curve))$data[[1]]
  expect_false(anyNA(d$y))
  # a loss above 1 widens the full range
  big <- rc_curve_vec(s, f * 3)
  p <- ggplot2::autoplot(big, full_range = TRUE)
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 1))
  p <- ggplot2::autoplot(rc_curve_vec(s, f * 4), full_range = TRUE)
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 4 / 3))
})

test_that("references can be switched off, one at a time", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  f <- c(0, 0, 1, 0, 1, 1)
  curve <- rc_curve_vec(s, f)
  lines <- function(p) unique(ggplot2::ggplot_build(p)$data[[1]]$linetype)
  expect_identical(lines(ggplot2::autoplot(curve, references = FALSE)), "solid")
  expect_setequal(
    lines(ggplot2::autoplot(curve, references = "oracle")),
    c("solid", "dashed")
  )
  expect_setequal(
    lines(ggplot2::autoplot(curve, references = "random")),
    c("solid", "dotted")
  )
  g <- ggplot2::autoplot(curve, type = "generalized", references = "random")
  d <- ggplot2::ggplot_build(g)$data[[1]]
  expect_equal(d$y[d$linetype == "dotted"], c(0, 1 / 2))
  expect_snapshot(error = TRUE, {
    ggplot2::autoplot(curve, references = "best")
    ggplot2::autoplot(curve, full_range = NA)
  })
})

test_that("the legend gives each curve's AURC or AUGRC", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  f <- c(0, 0, 1, 0, 1, 1)
  curve <- rc_curve_vec(s, f)
  labels <- function(p) {
    ggplot2::ggplot_build(p)$plot$scales$get_scales("colour")$get_labels()
  }
  expect_identical(
    labels(ggplot2::autoplot(curve))[1],
    paste0("Score (AURC ", format_area(aurc_vec(s, f)), ")")
  )
  expect_identical(
    labels(ggplot2::autoplot(curve, type = "generalized"))[1],
    paste0("Score (AUGRC ", format_area(augrc_vec(s, f)), ")")
  )
  expect_identical(format_area(0.123456), "0.123")
  expect_identical(format_area(0.00001234), "0.0000123")
  expect_identical(format_area(0.5), "0.500")
  skip_if_not_installed("dplyr")
  toy <- traub_toy_example()
  curves <- rc_curve(dplyr::group_by(toy, csf), score, failure)
  by_csf <- split(toy, toy$csf)
  expected <- vapply(names(by_csf), function(k) {
    paste0(k, " (AURC ", format_area(
      aurc_vec(by_csf[[k]]$score, by_csf[[k]]$failure)
    ), ")")
  }, character(1), USE.NAMES = FALSE)
  p <- ggplot2::autoplot(curves, references = FALSE)
  expect_identical(labels(p), expected)
  d <- ggplot2::ggplot_build(p)$data[[1]]
  expect_identical(unique(d$linetype), "solid")
})

test_that("every plot of the package uses theme_aurc()", {
  th <- theme_aurc()
  same_theme <- function(p) {
    expect_identical(p$theme$plot.title.position, th$plot.title.position)
    expect_identical(p$theme$legend.position, "bottom")
    expect_s3_class(p$theme$panel.grid.minor, "element_blank")
  }
  set.seed(1)
  score <- stats::runif(200)
  failure <- stats::rbinom(200, 1, 0.5 - 0.4 * score)
  same_theme(ggplot2::autoplot(rc_curve_vec(score, failure)))
  same_theme(ggplot2::autoplot(contribution_curve(20)))
  same_theme(ggplot2::autoplot(calibration_bins_vec(score, failure)))
  study <- aurc_batch_study(score, failure, batch_sizes = c(10, 20), times = 2)
  same_theme(ggplot2::autoplot(study))
  same_theme(ggplot2::autoplot(study, type = "mse"))
  same_theme(plot_weight_bias(n = 10))
  same_theme(plot_weight_mse_bound(n = 1:5))
  values <- cbind(a = stats::rnorm(30), b = stats::rnorm(30, 0.5))
  rk <- rank_replicates(values, metric = "aurc")
  same_theme(ggplot2::autoplot(rk))
  same_theme(ggplot2::autoplot(rk, type = "blob"))
})

test_that("references shared by every group are drawn once, in grey", {
  set.seed(3)
  n <- 200
  f <- stats::rbinom(n, 1, 0.3)
  long <- data.frame(
    name = rep(c("a", "b"), each = n),
    s = c(stats::runif(n), stats::runif(n)), f = c(f, f)
  )
  p <- ggplot2::autoplot(rc_curve(dplyr::group_by(long, name), s, f))
  built <- ggplot2::ggplot_build(p)
  b <- built$data[[1]]
  # the oracle and random lines: one path each, in the neutral colour
  refs <- b[b$linetype != "solid", ]
  expect_true(all(refs$colour == "grey45"))
  expect_equal(length(unique(refs$group)), 2)
  # the scores keep their colours, and the legend lists only the groups
  expect_equal(length(unique(b$colour[b$linetype == "solid"])), 2)
  sc <- built$plot$scales$get_scales("colour")
  expect_equal(as.vector(sc$get_breaks()), c("a", "b"))
  # different losses per group: each group's references in its colour
  long$f[long$name == "b"] <- stats::rbinom(n, 1, 0.5)
  b2 <- ggplot2::ggplot_build(
    ggplot2::autoplot(rc_curve(dplyr::group_by(long, name), s, f))
  )$data[[1]]
  expect_false(any(b2$colour == "grey45"))
})

# Issue 34: a transformed risk axis gives the low risks of good models room
# without dropping the early peak of a confident failure.
test_that("risk_scale = 'sqrt' and 'log' keep every point, labelled in risk", {
  # the y scale's transformation (`transformation` since ggplot2 3.5.0)
  tr <- function(ys) if (is.null(ys$transformation)) ys$trans else
    ys$transformation
  set.seed(34)
  n <- 500
  failure <- stats::rbinom(n, 1, 0.04)
  score <- -failure + stats::rnorm(n, sd = 0.4)
  score[which(failure == 1)[1]] <- 10
  curve <- rc_curve_vec(score, failure)
  linear <- ggplot2::autoplot(curve)
  y_linear <- ggplot2::ggplot_build(linear)$data[[1]]$y
  for (sc in c("sqrt", "log")) {
    for (type in c("selective", "generalized")) {
      p <- ggplot2::autoplot(curve, risk_scale = sc, type = type)
      b <- ggplot2::ggplot_build(p)
      y <- b$data[[1]]$y
      ys <- b$plot$scales$get_scales("y")
      # every point drawn, at its risk on the transformed axis
      expect_false(anyNA(y))
      risk <- tr(ys)$inverse(y)
      if (type == "selective") expect_equal(risk, y_linear)
      expect_equal(y, tr(ys)$transform(risk))
      # the peak of the confident failure stays in the panel: the axis
      # still ends at the largest risk drawn
      expect_equal(ys$get_limits(), tr(ys)$transform(c(0, max(risk))))
      # 0 is a break at the bottom, labelled in risk units
      breaks <- ys$get_breaks()
      labels <- ys$get_labels(breaks)
      expect_equal(labels[1], "0")
      expect_equal(as.numeric(labels[!is.na(breaks)]),
        tr(ys)$inverse(breaks[!is.na(breaks)])
      )
      expect_match(p$labels$y,
        if (sc == "sqrt") "\\(sqrt scale\\)$" else "\\(log scale\\)$"
      )
    }
  }
  # the axis is stretched at low risks: a risk of 0.02 sits higher than
  # on the linear axis (a share of the axis)
  share <- function(p, r) {
    ys <- ggplot2::ggplot_build(p)$plot$scales$get_scales("y")
    lim <- ys$get_limits()
    (tr(ys)$transform(r) - lim[1]) / diff(lim)
  }
  top <- max(y_linear)
  expect_equal(share(linear, 0.02), 0.02 / top)
  expect_gt(share(ggplot2::autoplot(curve, risk_scale = "sqrt"), 0.02), 0.1)
  expect_gt(share(ggplot2::autoplot(curve, risk_scale = "log"), 0.02), 0.4)
  # full_range keeps [0, 1]
  p <- ggplot2::autoplot(curve, risk_scale = "log", full_range = TRUE)
  ys <- ggplot2::ggplot_build(p)$plot$scales$get_scales("y")
  expect_equal(tr(ys)$inverse(ys$get_limits()), c(0, 1))
  expect_snapshot(error = TRUE, {
    ggplot2::autoplot(curve, risk_scale = "log10")
    ggplot2::autoplot(curve, risk_scale = c("sqrt", "log"))
  })
})

test_that("breaks of a transformed risk axis: 0 and 1-2-5 values, spaced", {
  sq <- risk_breaks(risk_transform("sqrt", sigma = 1e-3))
  expect_equal(sq(c(0, 1)), c(0, 0.02, 0.1, 0.2, 0.5, 1))
  lg <- risk_breaks(risk_transform("log", sigma = 1e-3))
  expect_equal(lg(c(0, 1)), c(0, 0.002, 0.01, 0.1, 1))
  # the expansion below 0 has an inverse: a slightly negative limit
  expect_equal(sq(c(-0.01, 1))[1], 0)
  # a curve at 0 only
  expect_equal(sq(c(0, 0)), 0)
  expect_identical(risk_labels(c(0, 0.002, 0.01, 1, NA)),
    c("0", "0.002", "0.01", "1", NA)
  )
})
