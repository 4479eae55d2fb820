test_that("risk-coverage plot: curve, dashed references, [0, 1] axes", {
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
  expect_equal(ggplot2::layer_scales(p)$y$limits, c(0, 1))
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
