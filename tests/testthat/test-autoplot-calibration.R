test_that("reliability diagram: bars span the bins, gap, diagonal, histogram", {
  set.seed(1)
  x <- c(stats::runif(300, 0.5, 1), stats::runif(700, 0.97, 1))
  y <- stats::rbinom(1000, 1, x^3)
  bins <- calibration_bins_vec(x, y)
  p <- ggplot2::autoplot(bins)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  # layers: blank (scale floor), accuracy bars, gap blocks, diagonal,
  # interval, points, histogram
  expect_length(b$data, 7)
  bars <- b$data[[2]]
  expect_equal(nrow(bars), nrow(bins))
  expect_equal(bars$xmin, bins$lower)
  expect_equal(bars$xmax, bins$upper)
  expect_equal(bars$ymax, bins$accuracy)
  gap <- b$data[[3]]
  expect_equal(gap$ymin, pmin(bins$accuracy, bins$mean_confidence))
  expect_equal(gap$ymax, pmax(bins$accuracy, bins$mean_confidence))
  diag <- b$data[[4]]
  expect_equal(c(diag$intercept, diag$slope), c(0, 1))
  expect_equal(diag$linetype, "dashed")
  expect_equal(as.integer(diag$PANEL), 1L)
  ci <- b$data[[5]]
  expect_equal(ci$x, bins$mean_confidence)
  expect_equal(ci$ymin, bins$accuracy_lower)
  hist <- b$data[[7]]
  expect_equal(nrow(hist), 100)
  # drawn at a fixed height: the shares times the scale sum to 1
  peak <- max(attr(bins, "histogram")$share)
  expect_equal(sum(hist$ymax) * peak / aurc:::lower_panel_height, 1)
  expect_equal(max(hist$ymax), aurc:::lower_panel_height)
  expect_true(all(as.integer(hist$PANEL) == 2L))
  expect_equal(b$layout$panel_scales_x[[1]]$limits, c(0, 1))
  expect_equal(p$labels$x, "Confidence")
})

test_that("equal-width bins: empty bins are not drawn; slivers get a width", {
  x <- c(0.95, 0.95, 0.95, 0.55, 0.58)
  y <- c(1, 0, 1, 1, 0)
  bins <- calibration_bins_vec(x, y, binning = "equal_width")
  b <- ggplot2::ggplot_build(ggplot2::autoplot(bins))
  expect_equal(nrow(b$data[[2]]), 2)
  expect_equal(b$data[[2]]$xmin, c(0.5, 0.9))
  one <- calibration_bins_vec(rep(0.7, 5), c(1, 1, 0, 1, 0))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(one))
  expect_equal(b$data[[2]]$xmax - b$data[[2]]$xmin, 0.004)
  expect_snapshot(error = TRUE, ggplot2::autoplot(one, 1))
})

test_that("slivers at confidence 0 and 1 stay inside the x range", {
  # a narrow bin near confidence 1 (or 0) used to get a sliver reaching past
  # the x limits, so ggplot dropped its bars: the bars of the samples piled
  # up at 1, the most common tie in real data
  x <- c(rep(0.999, 20), rep(1, 20))
  y <- rep(c(1, 0), 20)
  bins <- calibration_bins_vec(x, y, binning = "equal_mass", n_bins = 2)
  # edges: 0.999, midpoint 0.9995, 1: both bins narrower than 0.004
  expect_equal(c(bins$lower, bins$upper[2]), c(0.999, 0.9995, 1))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(bins))
  for (layer in b$data[2:3]) {
    expect_equal(nrow(layer), 2)
    expect_false(anyNA(layer$xmin) || anyNA(layer$xmax))
    # width 0.004 kept, moved left to end at 1
    expect_equal(layer$xmin, c(0.996, 0.996))
    expect_equal(layer$xmax, c(1, 1))
  }
  zero <- calibration_bins_vec(rep(0, 10), rep(c(0, 1), 5))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(zero))
  expect_equal(c(b$data[[2]]$xmin, b$data[[2]]$xmax), c(0, 0.004))
})

# Issue 26: the lower panels of the smooth and CORP diagrams are labelled
# in true values, and the smooth curve stays in [0, 1] and in the data.
test_that("smooth and CORP lower panels are labelled in true values", {
  set.seed(21)
  conf <- stats::runif(2000, 0.3, 1)
  corr <- stats::rbinom(2000, 1, conf^1.5)
  sm <- smooth_calibration(conf, corr, times = 0)
  # in [0, 1], NA outside the range of the confidences, density kept
  expect_true(all(sm$accuracy >= 0 & sm$accuracy <= 1, na.rm = TRUE))
  out <- sm$confidence < min(conf) | sm$confidence > max(conf)
  expect_true(all(is.na(sm$accuracy[out])))
  expect_false(anyNA(sm$accuracy[!out]))
  expect_false(anyNA(sm$density))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(sm))
  lower <- b$layout$panel_params[[2]]$y
  # the labels are the density: the largest label is at most the peak, and
  # the break positions map back to the labels through the drawn height
  labs <- as.numeric(lower$get_labels())
  peak <- max(sm$density)
  expect_true(max(labs) <= peak && max(labs) >= peak / 3)
  expect_equal(lower$get_breaks()[!is.na(lower$get_breaks())] * peak /
    aurc:::lower_panel_height, labs, tolerance = 1e-6)
  # the drawn area reaches the drawn height at the peak
  in_lower <- vapply(b$data, function(x) {
    "ymax" %in% names(x) && nrow(x) > 0 && all(x$PANEL == 2)
  }, logical(1))
  area <- b$data[[which(in_lower)[1]]]
  expect_equal(max(area$y), aurc:::lower_panel_height, tolerance = 1e-9)
  cp <- corp_reliability(round(conf, 2), corr, times = 0)
  bc <- ggplot2::ggplot_build(ggplot2::autoplot(cp))
  lab <- bc$layout$panel_params[[2]]$y$get_labels()
  expect_true(all(grepl("%$", lab)))
  cell <- aurc:::equal_width_bin_impl(cp$points$confidence, 100)
  share <- tapply(cp$points$n, factor(cell, 1:100), sum, default = 0) /
    sum(cp$points$n)
  top <- as.numeric(sub("%", "", lab[length(lab)])) / 100
  expect_true(top <= max(share) + 1e-9 && top >= max(share) / 3)
})

test_that("reliability diagram options: histogram, min_count, title", {
  set.seed(22)
  conf <- c(stats::runif(500, 0.5, 1), 0.05, 0.06)
  corr <- c(stats::rbinom(500, 1, conf[1:500]), 1, 1)
  bins <- calibration_bins_vec(conf, corr, binning = "equal_width",
    n_bins = 10
  )
  p <- ggplot2::autoplot(bins)
  b <- ggplot2::ggplot_build(p)
  expect_equal(p$labels$title, "Reliability diagram")
  expect_match(p$labels$subtitle, "^Equal-width bins: 10 bins, ECE = ")
  # the 2-sample bin is faded and named in the caption
  expect_match(p$labels$caption, "Faded: 1 bin of fewer than 10 samples")
  expect_match(p$labels$caption, "error bars: Wilson score")
  bars <- b$data[[2]]
  expect_equal(sort(unique(bars$alpha)), c(0.3, 1))
  expect_equal(sum(bars$alpha == 0.3), 1)
  # the share axis: true shares in %, at most the largest share
  lab <- b$layout$panel_params[[2]]$y$get_labels()
  top <- as.numeric(sub("%", "", lab[length(lab)])) / 100
  expect_true(top <= max(attr(bins, "histogram")$share) + 1e-9)
  # only the gaps that occur are in the legend
  fill <- b$plot$scales$get_scales("fill")
  present <- unique(ifelse(bins$gap[bins$n > 0] < 0, "Overconfident",
    "Underconfident"
  ))
  expect_setequal(as.vector(fill$get_breaks()), c("Accuracy", present))
  # no histogram: one panel; no fading; a title
  p2 <- ggplot2::autoplot(bins, histogram = FALSE, min_count = 0,
    title = "Model A"
  )
  b2 <- ggplot2::ggplot_build(p2)
  expect_equal(nrow(b2$layout$layout), 1)
  expect_equal(p2$labels$title, "Model A")
  expect_false(grepl("Faded", p2$labels$caption))
  expect_true(all(b2$data[[2]]$alpha == 1))
  expect_error(ggplot2::autoplot(bins, histogram = NA),
    class = "aurc_error"
  )
  expect_error(ggplot2::autoplot(bins, min_count = -1), class = "aurc_error")
  expect_error(ggplot2::autoplot(bins, title = 1), class = "aurc_error_type")
})

# Issue 34: grouped bins give one reliability diagram per group.
grouped_bins <- function(binning = "adaptive") {
  set.seed(34)
  n <- 900
  df <- data.frame(
    model = rep(c("sharp", "overconfident", "shy"), each = n / 3),
    conf = stats::runif(n, 0.4, 1)
  )
  power <- c(sharp = 1, overconfident = 3, shy = 0.6)[df$model]
  df$ok <- stats::rbinom(n, 1, pmin(1, df$conf^power))
  calibration_bins(dplyr::group_by(df, model), conf, ok, binning = binning)
}

test_that("grouped bins: one column of panels per group, headed by its ECE", {
  skip_if_not_installed("dplyr")
  g <- grouped_bins()
  keys <- attr(g, "groups")
  p <- ggplot2::autoplot(g)
  b <- ggplot2::ggplot_build(p)
  lay <- b$layout$layout
  # two rows (diagram, histogram) by three groups, in the groups' order
  expect_equal(nrow(lay), 6)
  expect_equal(sort(unique(lay$ROW)), 1:2)
  expect_equal(sort(unique(lay$COL)), 1:3)
  expect_equal(levels(lay$group), keys$model)
  expect_equal(as.character(lay$group[lay$ROW == 1]), keys$model)
  # the headers name the group, its ECE and MCE
  heads <- p$facet$params$labeller(lay[lay$ROW == 1, "group", drop = FALSE])
  expect_match(heads$group[1], "^overconfident\nECE 0\\.[0-9]+, MCE 0\\.")
  expect_match(heads$group[2],
    paste0("ECE ", aurc:::format_area(attr(g, "ece")[2]), ", MCE ")
  )
  # bars: every non-empty bin of each group in that group's column
  bars <- b$data[[2]]
  for (k in seq_len(nrow(keys))) {
    panel <- lay$PANEL[lay$ROW == 1 & lay$group == keys$model[k]]
    bins_k <- g[g$model == keys$model[k] & g$n > 0, ]
    expect_equal(bars$ymax[bars$PANEL == panel], bins_k$accuracy)
    expect_equal(bars$xmin[bars$PANEL == panel], bins_k$lower)
  }
  # the diagonal in every diagram, none in the histograms
  expect_setequal(as.integer(b$data[[4]]$PANEL), lay$PANEL[lay$ROW == 1])
  # each group's histogram below its diagram, on one shared axis: the
  # largest share of all groups is drawn at the panel's height
  hist <- b$data[[7]]
  expect_equal(nrow(hist), 300)
  expect_setequal(as.integer(hist$PANEL), lay$PANEL[lay$ROW == 2])
  shares <- attr(g, "histogram")$share
  expect_equal(max(hist$ymax), 0.4)
  expect_equal(hist$ymax, 0.4 * shares / max(shares))
  lab <- b$layout$panel_params[[4]]$y$get_labels()
  top <- as.numeric(sub("%", "", lab[length(lab)])) / 100
  expect_true(top <= max(shares) + 1e-9 && top >= max(shares) / 3)
  # narrow columns: x labels at 0, 0.5 and 1
  expect_equal(b$layout$panel_params[[1]]$x$get_labels(), c("0", "0.5", "1"))
  expect_match(p$labels$subtitle, "^Adaptive bins: .* per model")
  # without the histogram: one row
  b2 <- ggplot2::ggplot_build(ggplot2::autoplot(g, histogram = FALSE))
  expect_equal(nrow(b2$layout$layout), 3)
})

test_that("grouped bins overlaid: one panel, a colour and a histogram each", {
  skip_if_not_installed("dplyr")
  g <- grouped_bins("equal_width")
  keys <- attr(g, "groups")
  p <- ggplot2::autoplot(g, groups = "overlay", min_count = 5)
  b <- ggplot2::ggplot_build(p)
  expect_equal(nrow(b$layout$layout), 2)
  # layers: blank, diagonal, lines, intervals, points, histogram outlines
  expect_length(b$data, 6)
  expect_identical(
    vapply(p$layers, function(l) class(l$geom)[1], character(1)),
    c("GeomBlank", "GeomAbline", "GeomLine", "GeomErrorbar", "GeomPoint",
      "GeomLine")
  )
  points <- b$data[[5]]
  filled <- g[g$n > 0, ]
  expect_equal(points$x, filled$mean_confidence)
  expect_equal(points$y, filled$accuracy)
  # one colour per group, the legend naming each group's ECE
  colour <- b$plot$scales$get_scales("colour")
  expect_equal(colour$get_breaks(), keys$model, ignore_attr = TRUE)
  expect_equal(
    unname(colour$get_labels()),
    paste0(keys$model, " (ECE ", aurc:::format_area(attr(g, "ece")), ")")
  )
  expect_equal(length(unique(points$colour)), 3)
  expect_equal(p$labels$colour, "model")
  # each histogram as a step outline in its group's colour: two points per
  # cell of 0.01, at the group's share
  steps <- b$data[[6]]
  expect_true(all(steps$PANEL == 2))
  expect_equal(nrow(steps), 600)
  shares <- attr(g, "histogram")$share
  expect_equal(steps$y[c(TRUE, FALSE)], 0.4 * shares / max(shares))
  expect_match(p$labels$caption, "per group")
  # no histogram: one panel and no outline layer
  p2 <- ggplot2::autoplot(g, groups = "overlay", histogram = FALSE)
  expect_length(p2$layers, 5)
  expect_equal(nrow(ggplot2::ggplot_build(p2)$layout$layout), 1)
})

test_that("`groups` is checked, and ignored with a warning without groups", {
  bins <- calibration_bins_vec(c(0.6, 0.7, 0.8, 0.9), c(1, 0, 1, 1))
  expect_snapshot(error = TRUE, ggplot2::autoplot(bins, groups = "stack"))
  expect_error(ggplot2::autoplot(bins, groups = 1), class = "aurc_error_value")
  expect_snapshot(p <- ggplot2::autoplot(bins, groups = "overlay"))
  expect_warning(ggplot2::autoplot(bins, groups = "facet"),
    class = "aurc_warning_ignored"
  )
  expect_equal(nrow(ggplot2::ggplot_build(p)$layout$layout), 2)
})
