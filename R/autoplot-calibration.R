#' Reliability diagram of calibration bins
#'
#' The top panel draws one bar per non-empty bin, spanning the bin's edges
#' (so adaptive and equal-mass bins have their own widths), up to the bin's
#' accuracy; a coloured block from the accuracy to the mean confidence shows
#' the gap (red when the model is overconfident, blue when underconfident);
#' a point with an error bar marks the accuracy and its interval (the
#' bins' `interval`, Wilson 95% by default, named in the caption) at the
#' bin's mean confidence; the dashed diagonal is perfect calibration. Bins
#' with fewer than `min_count` samples are drawn faded and named in the
#' caption: their accuracy is too noisy to read (a bin of 2 samples can set
#' the MCE to 0.8). The bottom panel shows the share of samples in 100
#' equal-width confidence bins, so a wide bin that hides a dense region of
#' poorly calibrated samples (the "undetectable error" of Ding et al.,
#' Fig. 2) can be seen; it is drawn at a fixed height and its axis is
#' labelled in true shares.
#'
#' @param object An `aurc_calibration_bins` from [calibration_bins()].
#' @param histogram Draw the bottom panel (`TRUE`, the default) or not.
#' @param min_count Bins with fewer samples (weighted) than this are faded
#'   (default 10; 0 fades none).
#' @param title The plot's title (default `"Reliability diagram"`); the
#'   subtitle names the binning, the number of bins, the ECE and the MCE.
#' @param ... Not used; must be empty.
#' @return A ggplot (not printed).
#' @examples
#' set.seed(1)
#' confidence <- c(runif(300, 0.5, 1), runif(700, 0.97, 1))
#' correct <- rbinom(1000, 1, confidence^3)
#' bins <- calibration_bins_vec(confidence, correct)
#' autoplot(bins)
#' autoplot(calibration_bins_vec(confidence, correct, binning = "equal_width"),
#'   min_count = 20, histogram = FALSE, title = "Model A")
#' @export
autoplot.aurc_calibration_bins <- function(object, ..., histogram = TRUE,
                                           min_count = 10,
                                           title = "Reliability diagram") {
  check_dots(...)
  check_bool(histogram)
  check_number(min_count, lower = 0)
  if (!rlang::is_string(title)) {
    abort_aurc("{.arg title} must be a single string.",
      class = "aurc_error_type"
    )
  }
  top <- "Accuracy per bin"
  # two short lines: the strip is the bottom panel's axis title, and that
  # panel is short in a 4-inch-high figure
  bottom <- "Share of\nsamples"
  panels <- c(top, if (histogram) bottom)
  tab <- as.data.frame(object)[object$n > 0, , drop = FALSE]
  # a bin holding one distinct confidence gets a visible sliver, moved
  # inside [0, 1] so that the x limits do not drop it (bins at confidence 1
  # are common)
  half <- pmax((tab$upper - tab$lower) / 2, 0.002)
  center <- (tab$upper + tab$lower) / 2
  tab$xmin <- pmin(pmax(center - half, 0), 1 - 2 * half)
  tab$xmax <- tab$xmin + 2 * half
  tab$panel <- factor(top, levels = panels)
  tab$direction <- factor(
    ifelse(tab$gap < 0, "Overconfident", "Underconfident"),
    levels = c("Overconfident", "Underconfident")
  )
  small <- tab$n < min_count
  tab$alpha <- ifelse(small, 0.3, 1)
  hist <- as.data.frame(attr(object, "histogram"))
  peak <- max(hist$share, 0)
  hist$share <- if (peak > 0) lower_panel_height * hist$share / peak else 0
  hist$panel <- factor(bottom, levels = panels)
  scale_floor <- data.frame(
    x = 0, y = c(0, 1, if (histogram) c(0, lower_panel_height)),
    panel = factor(c(top, top, if (histogram) c(bottom, bottom)),
      levels = panels
    )
  )
  diagonal <- data.frame(panel = factor(top, levels = panels))
  binning <- switch(attr(object, "binning"),
    adaptive = "Adaptive bins",
    ding2020 = "Adaptive bins (as the code of Ding et al.)",
    equal_width = "Equal-width bins",
    equal_mass = "Equal-mass bins",
    custom = "Custom bins",
    kumar2019 = "Bins as the code of Kumar et al.",
    kumar2019_legacy = "Bins as the code of Kumar et al. (before 2022-08-27)"
  )
  subtitle <- sprintf(
    "%s: %d bins, ECE = %s, MCE = %s", binning, nrow(object),
    format(attr(object, "ece"), digits = 3),
    format(attr(object, "mce"), digits = 3)
  )
  caption <- paste(c(
    paste0(
      "Points: accuracy per bin; error bars: ",
      attr(object, "interval") %||% "its interval"
    ),
    if (any(small)) {
      sprintf("Faded: %d bin%s of fewer than %s samples", sum(small),
        if (sum(small) == 1) "" else "s", format(min_count))
    },
    if (histogram) "Bottom: share of samples per 0.01 of confidence"
  ), collapse = "\n")
  present <- levels(tab$direction)[levels(tab$direction) %in% tab$direction]
  x <- y <- xmin <- xmax <- accuracy <- mean_confidence <- direction <-
    accuracy_lower <- accuracy_upper <- lower <- upper <- share <-
    panel <- alpha <- NULL
  p <- ggplot2::ggplot() +
    ggplot2::geom_blank(ggplot2::aes(x = x, y = y), data = scale_floor) +
    ggplot2::geom_rect(
      ggplot2::aes(
        xmin = xmin, xmax = xmax, ymin = 0, ymax = accuracy,
        fill = "Accuracy", alpha = alpha
      ),
      data = tab, colour = "grey35", linewidth = 0.2
    ) +
    ggplot2::geom_rect(
      ggplot2::aes(
        xmin = xmin, xmax = xmax, ymin = pmin(accuracy, mean_confidence),
        ymax = pmax(accuracy, mean_confidence), fill = direction,
        alpha = 0.55 * alpha
      ),
      data = tab
    ) +
    ggplot2::geom_abline(
      ggplot2::aes(intercept = 0, slope = 1),
      data = diagonal, linetype = "dashed", colour = "grey20"
    ) +
    ggplot2::geom_errorbar(
      ggplot2::aes(
        x = mean_confidence, ymin = accuracy_lower, ymax = accuracy_upper,
        alpha = alpha
      ),
      data = tab, width = 0, colour = "black", linewidth = 0.4
    ) +
    ggplot2::geom_point(
      ggplot2::aes(x = mean_confidence, y = accuracy, alpha = alpha),
      data = tab, size = 0.9
    ) +
    ggplot2::scale_alpha_identity()
  if (histogram) {
    p <- p + ggplot2::geom_rect(
      ggplot2::aes(xmin = lower, xmax = upper, ymin = 0, ymax = share),
      data = hist, fill = "grey45"
    )
  }
  p +
    ggplot2::facet_grid(
      rows = ggplot2::vars(panel), scales = "free_y", space = "free_y",
      switch = "y"
    ) +
    ggplot2::scale_fill_manual(
      values = c(
        Accuracy = "grey80", Overconfident = "#D55E00",
        Underconfident = "#0072B2"
      ),
      # only the gaps that occur (an unused key has no swatch)
      breaks = c("Accuracy", present),
      labels = c(
        Accuracy = "Accuracy", Overconfident = "Gap: overconfident",
        Underconfident = "Gap: underconfident"
      )[c("Accuracy", present)],
      name = NULL
    ) +
    ggplot2::scale_x_continuous(
      limits = c(0, 1), expand = ggplot2::expansion(mult = 0.01)
    ) +
    lower_panel_axis(if (peak > 0) peak else 1, percent = TRUE) +
    ggplot2::labs(
      x = "Confidence", y = NULL, title = title, subtitle = subtitle,
      caption = caption
    ) +
    theme_aurc() +
    ggplot2::theme(
      strip.placement = "outside",
      strip.background = ggplot2::element_blank(),
      plot.caption = ggplot2::element_text(hjust = 0, colour = "grey30")
    )
}
