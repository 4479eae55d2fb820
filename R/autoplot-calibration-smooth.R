#' Smooth and CORP reliability diagrams
#'
#' `autoplot()` of a [smooth_calibration()] result draws the kernel-smoothed
#' calibration curve (red) with its pointwise bootstrap band, the dashed
#' diagonal of perfect calibration (the curve and band are drawn where the
#' density of the confidences is at least 1% of its peak; elsewhere they
#' would be extrapolations), and below it the kernel density of the
#' confidences at the same bandwidth. The lower panel is drawn at a fixed
#' height, and its axis is labelled in true values (density per unit of
#' confidence).
#'
#' `autoplot()` of a [corp_reliability()] result draws the CORP reliability
#' diagram: the PAV-recalibrated probability (a non-decreasing step
#' function, red) over the confidence, the consistency band under the
#' hypothesis of calibration (grey, if resamples were drawn), the dashed
#' diagonal, and below it the share of samples in each of 100 equal-width
#' confidence bins (drawn at a fixed height; the axis is labelled in true
#' shares). The subtitle gives the score decomposition.
#'
#' @param object An `aurc_smooth_calibration` or `aurc_corp` object.
#' @param ... Not used; must be empty.
#' @return A ggplot (not printed).
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.4, 1)
#' correct <- rbinom(1000, 1, confidence^2)
#' autoplot(smooth_calibration(confidence, correct, times = 50))
#' autoplot(corp_reliability(round(confidence, 2), correct, times = 50))
#' @name autoplot-calibration-smooth
NULL

#' @rdname autoplot-calibration-smooth
#' @export
autoplot.aurc_smooth_calibration <- function(object, ...) {
  check_dots(...)
  top <- "Accuracy"
  bottom <- "Density"
  peak_true <- max(object$density, na.rm = TRUE)
  panels <- c(top, bottom)
  tab <- as.data.frame(unclass(object))
  tab$panel <- factor(top, levels = panels)
  # where (almost) no confidences lie the curve is an extrapolation: drop
  # it where the density is below 1% of its peak
  peak <- max(tab$density, na.rm = TRUE)
  keep <- !is.na(tab$density) & tab$density >= 0.01 * peak
  dens <- data.frame(
    confidence = tab$confidence,
    density = lower_panel_height * tab$density / peak,
    panel = factor(bottom, levels = panels)
  )
  has_band <- attr(object, "times") > 0
  subtitle <- sprintf(
    "smooth ECE = %s (bandwidth %s, %s)%s",
    format(attr(object, "smooth_ece"), digits = 3),
    format(attr(object, "sigma"), digits = 3), attr(object, "method"),
    if (has_band) {
      sprintf(
        "\n%s%% bootstrap band", format(100 * attr(object, "conf_level"))
      )
    } else {
      ""
    }
  )
  scale_floor <- data.frame(
    x = 0, y = c(0, 1, 0, lower_panel_height),
    panel = factor(c(top, top, bottom, bottom), levels = panels)
  )
  diagonal <- data.frame(panel = factor(top, levels = panels))
  confidence <- accuracy <- lower <- upper <- density <- x <- y <-
    panel <- NULL
  p <- ggplot2::ggplot() +
    ggplot2::geom_blank(ggplot2::aes(x = x, y = y), data = scale_floor)
  if (has_band) {
    p <- p + ggplot2::geom_ribbon(
      ggplot2::aes(x = confidence, ymin = lower, ymax = upper),
      data = tab[keep & !is.na(tab$lower), ], fill = "#D55E00", alpha = 0.25
    )
  }
  p +
    ggplot2::geom_abline(
      ggplot2::aes(intercept = 0, slope = 1),
      data = diagonal, linetype = "dashed", colour = "grey20"
    ) +
    ggplot2::geom_line(
      ggplot2::aes(x = confidence, y = accuracy),
      data = tab[keep & !is.na(tab$accuracy), ], colour = "#D55E00",
      linewidth = 0.8
    ) +
    ggplot2::geom_area(
      ggplot2::aes(x = confidence, y = density),
      data = dens, fill = "grey45"
    ) +
    calibration_facets() +
    ggplot2::scale_x_continuous(
      limits = c(0, 1), expand = ggplot2::expansion(mult = 0.01)
    ) +
    lower_panel_axis(peak_true) +
    ggplot2::labs(
      x = "Confidence", y = NULL, title = "Smooth reliability diagram",
      subtitle = subtitle
    ) +
    calibration_theme()
}

#' @rdname autoplot-calibration-smooth
#' @export
autoplot.aurc_corp <- function(object, ...) {
  check_dots(...)
  top <- "Recalibrated"
  # two short lines: the strip is the lower panel's axis title, and that
  # panel is short in a 4-inch-high figure
  bottom <- "Share of\nsamples"
  panels <- c(top, bottom)
  pts <- as.data.frame(object$points)
  # the step function of the fit: each block is flat from its lowest to its
  # highest confidence, with vertical jumps in between
  bins <- as.data.frame(object$bins)
  steps <- data.frame(
    confidence = as.vector(rbind(bins$min_confidence, bins$max_confidence)),
    cep = rep(bins$cep, each = 2),
    panel = factor(top, levels = panels)
  )
  pts$panel <- factor(top, levels = panels)
  k <- calibration_hist_bins
  cell <- equal_width_bin_impl(pts$confidence, k)
  share <- vapply(seq_len(k), function(j) sum(pts$n[cell == j]), numeric(1)) /
    sum(pts$n)
  hist <- data.frame(
    lower = (seq_len(k) - 1) / k, upper = seq_len(k) / k,
    share = lower_panel_height * share / max(share),
    panel = factor(bottom, levels = panels)
  )
  d <- object$decomposition
  subtitle <- sprintf(
    "%s score %s = MCB %s - DSC %s + UNC %s",
    if (d$score == "brier") "Brier" else "Log",
    format(d$mean_score, digits = 3), format(d$mcb, digits = 3),
    format(d$dsc, digits = 3), format(d$unc, digits = 3)
  )
  scale_floor <- data.frame(
    x = 0, y = c(0, 1, 0, lower_panel_height),
    panel = factor(c(top, top, bottom, bottom), levels = panels)
  )
  diagonal <- data.frame(panel = factor(top, levels = panels))
  confidence <- cep <- band_lower <- band_upper <- lower <- upper <-
    x <- y <- panel <- NULL
  p <- ggplot2::ggplot() +
    ggplot2::geom_blank(ggplot2::aes(x = x, y = y), data = scale_floor)
  asymptotic <- identical(object$band_method, "asymptotic")
  if (object$times > 0 || asymptotic) {
    p <- p + ggplot2::geom_ribbon(
      ggplot2::aes(x = confidence, ymin = band_lower, ymax = band_upper),
      data = pts[!is.na(pts$band_lower) & !is.na(pts$band_upper), ],
      fill = "grey60", alpha = 0.45
    )
    subtitle <- paste0(
      subtitle, sprintf(
        "\n%s%% consistency band around the %s (%s)",
        format(100 * object$band_level), object$band_position,
        if (asymptotic) {
          "discrete asymptotic"
        } else {
          paste(as.integer(object$times), "resamples")
        }
      )
    )
  }
  p +
    ggplot2::geom_abline(
      ggplot2::aes(intercept = 0, slope = 1),
      data = diagonal, linetype = "dashed", colour = "grey20"
    ) +
    ggplot2::geom_path(
      ggplot2::aes(x = confidence, y = cep),
      data = steps, colour = "#D55E00", linewidth = 0.8
    ) +
    ggplot2::geom_point(
      ggplot2::aes(x = confidence, y = cep),
      data = pts, colour = "#D55E00", size = 0.6
    ) +
    ggplot2::geom_rect(
      ggplot2::aes(xmin = lower, xmax = upper, ymin = 0, ymax = share),
      data = hist, fill = "grey45"
    ) +
    calibration_facets() +
    ggplot2::scale_x_continuous(
      limits = c(0, 1), expand = ggplot2::expansion(mult = 0.01)
    ) +
    lower_panel_axis(max(share), percent = TRUE) +
    ggplot2::labs(
      x = "Confidence", y = NULL, title = "CORP reliability diagram",
      subtitle = subtitle
    ) +
    calibration_theme()
}

# The lower panel (density or share of samples) is drawn scaled to this
# height, so the upper panel (0 to 1) keeps most of the figure.
lower_panel_height <- 0.3

# The y scale shared by both panels: the upper panel's breaks as usual, the
# lower panel's labelled in true values (`peak` is the true value drawn at
# `height`, lower_panel_height unless a layout needs a taller lower panel;
# `percent`: labels in %). The panels are told apart by their limits (the
# upper one reaches 1).
lower_panel_axis <- function(peak, percent = FALSE,
                             height = lower_panel_height) {
  is_lower <- function(x) max(x, na.rm = TRUE) < 0.5
  ggplot2::scale_y_continuous(
    expand = ggplot2::expansion(mult = 0.02),
    breaks = function(limits) {
      if (!is_lower(limits)) return(seq(0, 1, by = 0.25))
      v <- pretty(c(0, peak), n = 3)
      v[v <= peak * 1.0001] * height / peak
    },
    labels = function(b) {
      if (!length(b) || !is_lower(b[!is.na(b)])) return(format(b, trim = TRUE))
      v <- signif(b * peak / height, 6)
      if (percent) paste0(format(100 * v, trim = TRUE, drop0trailing = TRUE),
        "%") else format(v, trim = TRUE, drop0trailing = TRUE)
    }
  )
}

calibration_facets <- function() {
  panel <- NULL
  ggplot2::facet_grid(
    rows = ggplot2::vars(panel), scales = "free_y", space = "free_y",
    switch = "y"
  )
}

# theme_aurc() with the panel labels outside and unboxed, as the binned
# reliability diagram (autoplot-calibration.R).
calibration_theme <- function() {
  theme_aurc() +
    ggplot2::theme(
      strip.placement = "outside",
      strip.background = ggplot2::element_blank()
    )
}
