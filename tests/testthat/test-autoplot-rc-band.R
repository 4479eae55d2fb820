test_that("autoplot draws the band under the curve, both curve types", {
  set.seed(1)
  s <- stats::runif(300)
  l <- stats::rbinom(300, 1, 0.4 * (1 - s))
  b <- suppressWarnings(
    rc_band_vec(s, l, coverage = seq(0.1, 1, by = 0.01), times = 50)
  )
  for (type in c("selective", "generalized")) {
    p <- ggplot2::autoplot(b, type = type)
    expect_s3_class(p, "ggplot")
    built <- ggplot2::ggplot_build(p)
    expect_s3_class(p$layers[[1]]$geom, "GeomRibbon")
    expect_s3_class(p$layers[[2]]$geom, "GeomLine")
    rib <- built$data[[1]]
    part <- b[b$type == type, ]
    expect_equal(rib$x, part$coverage)
    expect_equal(rib$ymin, part$.lower)
    expect_equal(rib$ymax, part$.upper)
    # the axis holds the whole band
    y_range <- built$layout$panel_params[[1]]$y.range
    expect_gte(max(y_range), max(part$.upper))
    expect_match(p$labels$caption, "95% simultaneous over coverage 0.1 to 1")
    # the curve is rc_curve()'s
    line <- built$data[[2]]
    cv <- rc_curve_vec(s, l)
    y <- if (type == "selective") cv$selective_risk else cv$generalized_risk
    expect_true(all(y %in% line$y))
  }
  expect_error(ggplot2::autoplot(b, type = "x"), class = "aurc_error")
  expect_error(ggplot2::autoplot(b, 1), class = "aurc_error")
})

test_that("grouped bands get one ribbon per group, in its colour", {
  skip_if_not_installed("dplyr")
  set.seed(2)
  df <- data.frame(
    model = rep(c("a", "b"), each = 300), score = stats::runif(600),
    loss = stats::rbinom(600, 1, rep(c(0.2, 0.35), each = 300))
  )
  g <- rc_band(dplyr::group_by(df, model), score, loss, times = 50)
  # 300 cases per group: the default grid from 0.34
  p <- ggplot2::autoplot(g, type = "generalized", references = FALSE,
    risk_scale = "sqrt"
  )
  rib <- ggplot2::ggplot_build(p)$data[[1]]
  expect_equal(length(unique(rib$group)), 2)
  expect_equal(length(unique(rib$fill)), 2)
  expect_equal(nrow(rib), 2 * 67)
})
