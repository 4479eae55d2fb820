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
#' @section Groups:
#' The bins of a grouped data frame (`calibration_bins(dplyr::group_by(df,
#' model), ...)`) give one reliability diagram per group. With `groups =
#' "facet"` (the default) each group gets a column of its own, headed by
#' its name, ECE and MCE, with its histogram below it; all histograms share
#' one axis, so the columns compare. Facets read well up to four or five
#' groups at a width of 6 inches. With `groups = "overlay"` the groups share
#' one panel, a colour each: every group's accuracy per bin is a point at
#' the bin's mean confidence, joined by a line, with its interval; bars and
#' gap blocks are left out (the bars of several groups would hide one
#' another), and the histogram becomes one outline per group in its
#' colour, which shows where each model puts its confidence. The overlay
#' suits a direct comparison of a few models whose curves cross; the
#' facets show each model's bins and gaps in full.
#'
#' @param object An `aurc_calibration_bins` from [calibration_bins()] (of a
#'   data frame, grouped or not) or [calibration_bins_vec()].
#' @param histogram Draw the bottom panel (`TRUE`, the default) or not.
#' @param min_count Bins with fewer samples (weighted) than this are faded
#'   (default 10; 0 fades none).
#' @param title The plot's title (default `"Reliability diagram"`); the
#'   subtitle names the binning, the number of bins, the ECE and the MCE.
#' @param groups For the bins of a grouped data frame: `"facet"` (default)
#'   draws one diagram per group side by side, `"overlay"` draws the groups
#'   in one panel with a colour each (see Groups). Use the overlay to
#'   compare a few models in one picture and the facets to read each
#'   model's bins. Given for bins without groups, it is ignored with a
#'   warning of class `aurc_warning_ignored`.
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
#' # one diagram per model
#' df <- data.frame(
#'   model = rep(c("sharp", "overconfident"), each = 1000),
#'   confidence = rep(confidence, 2)
#' )
#' df$correct <- rbinom(2000, 1, ifelse(df$model == "sharp",
#'   df$confidence, df$confidence^3))
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   grouped <- calibration_bins(dplyr::group_by(df, model), confidence,
#'     correct, binning = "equal_width")
#'   autoplot(grouped)
#'   autoplot(grouped, groups = "overlay")
#' }
#' @export
autoplot.aurc_calibration_bins <- function(object, ..., histogram = TRUE,
                                           min_count = 10,
                                           title = "Reliability diagram",
                                           groups = c("facet", "overlay")) {
  check_dots(...)
  check_bool(histogram)
  check_number(min_count, lower = 0)
  if (!rlang::is_string(title)) {
    abort_aurc("{.arg title} must be a single string.",
      class = "aurc_error_type"
    )
  }
  groups_given <- !missing(groups)
  groups <- check_choice(first_choice(groups), c("facet", "overlay"),
    arg = "groups"
  )
  grouped <- !is.null(attr(object, "groups"))
  if (!grouped && groups_given) {
    warn_aurc(
      c(
        "{.arg groups} is ignored: these bins have no groups.",
        i = "It applies to {.fn calibration_bins} of a grouped data frame."
      ),
      class = "aurc_warning_ignored"
    )
  }
  # the headers of the columns of groups, or the legend of the groups,
  # take room from the panels: a taller histogram keeps its axis title
  # readable at 4 inches high
  height <- if (grouped) 0.4 else lower_panel_height
  d <- reliability_data(object, min_count, height)
  if (grouped && groups == "overlay") {
    return(reliability_overlay(d, histogram, min_count, title))
  }
  reliability_bars(d, histogram, min_count, title)
}

# What both layouts draw, from the bins: the non-empty bins with their
# drawn edges, gap direction, fading and group; the histogram with its
# group, scaled to `height` at the largest share of any group (`peak`);
# per group its label, ECE and MCE.
reliability_data <- function(object, min_count, height) {
  keys <- attr(object, "groups")
  label_of <- function(d) {
    if (is.null(keys)) return(rep("all", nrow(d)))
    do.call(paste, c(lapply(names(keys), function(v) {
      as.character(d[[v]])
    }), sep = " / "))
  }
  info <- data.frame(
    group = if (is.null(keys)) "all" else label_of(keys),
    n_bins = tabulate(
      if (is.null(keys)) rep(1L, nrow(object)) else group_index(object),
      max(1L, NROW(keys))
    ),
    ece = attr(object, "ece"), mce = attr(object, "mce"),
    stringsAsFactors = FALSE
  )
  tab <- as.data.frame(object)[object$n > 0, , drop = FALSE]
  tab$group <- factor(label_of(tab), levels = info$group)
  # a bin holding one distinct confidence gets a visible sliver, moved
  # inside [0, 1] so that the x limits do not drop it (bins at confidence 1
  # are common)
  half <- pmax((tab$upper - tab$lower) / 2, 0.002)
  center <- (tab$upper + tab$lower) / 2
  tab$xmin <- pmin(pmax(center - half, 0), 1 - 2 * half)
  tab$xmax <- tab$xmin + 2 * half
  tab$direction <- factor(
    ifelse(tab$gap < 0, "Overconfident", "Underconfident"),
    levels = c("Overconfident", "Underconfident")
  )
  tab$alpha <- ifelse(tab$n < min_count, 0.3, 1)
  hist <- as.data.frame(attr(object, "histogram"))
  hist$group <- factor(label_of(hist), levels = info$group)
  peak <- max(hist$share, 0, na.rm = TRUE)
  hist$share <- if (peak > 0) height * hist$share / peak else 0
  list(
    tab = tab, hist = hist, peak = peak, height = height, info = info,
    grouped = !is.null(keys),
    group_name = paste(attr(object, "group_vars"), collapse = " / "),
    binning = reliability_binning(object), interval = attr(object, "interval")
  )
}

reliability_binning <- function(object) {
  switch(attr(object, "binning"),
    adaptive = "Adaptive bins",
    ding2020 = "Adaptive bins (as the code of Ding et al.)",
    equal_width = "Equal-width bins",
    equal_mass = "Equal-mass bins",
    custom = "Custom bins",
    kumar2019 = "Bins as the code of Kumar et al.",
    kumar2019_legacy = "Bins as the code of Kumar et al. (before 2022-08-27)"
  )
}

# "5 bins" or, per group, "5 to 7 bins per model".
reliability_bin_count <- function(d) {
  k <- range(d$info$n_bins)
  count <- if (k[1] == k[2]) format(k[1]) else paste(k[1], "to", k[2])
  paste0(count, " bins", if (d$grouped) paste(" per", d$group_name))
}

# The caption: what the points and error bars are, which bins are faded,
# what the bottom panel shows.
reliability_caption <- function(d, histogram, min_count, overlay = FALSE) {
  small <- sum(d$tab$alpha < 1)
  caption_lines(c(
    paste0(
      "Points: accuracy per bin",
      if (overlay) " at its mean confidence",
      "; error bars: ", d$interval %||% "its interval"
    ),
    if (small > 0) {
      sprintf("Faded: %d bin%s of fewer than %s samples", small,
        if (small == 1) "" else "s", format(min_count))
    },
    if (histogram) {
      paste0(
        "Bottom: share of samples per 0.01 of confidence",
        if (overlay) ", per group"
      )
    }
  ))
}

# Sentences of a caption joined into lines of at most `width` characters
# (about the width of a 6-inch plot at the caption's size), so a caption
# takes no more lines than it needs: each line taken from the panels of a
# 4-inch-high figure is room for the short histogram panel.
caption_lines <- function(parts, width = 100) {
  lines <- parts[1]
  for (part in parts[-1]) {
    last <- length(lines)
    joined <- paste0(lines[last], ". ", part)
    if (nchar(joined) <= width) lines[last] <- joined else
      lines <- c(lines, part)
  }
  paste(lines, collapse = "\n")
}

# The panels (rows) of a diagram: the diagram and, below it, the histogram.
reliability_panels <- function(histogram) {
  # two short lines: the strip is the bottom panel's axis title, and that
  # panel is short in a 4-inch-high figure
  c("Accuracy per bin", if (histogram) "Share of\nsamples")
}

# The invisible points that fix each panel's y range (0 to 1 above, 0 to
# the drawn height of the histogram below), and the data of the diagonal.
reliability_frame <- function(histogram, height) {
  panels <- reliability_panels(histogram)
  list(
    floor = data.frame(
      x = 0, y = c(0, 1, if (histogram) c(0, height)),
      panel = factor(rep(panels, each = 2), levels = panels)
    ),
    diagonal = data.frame(panel = factor(panels[1], levels = panels))
  )
}

# One diagram with bars and gap blocks per group: a single panel for bins
# without groups, one column per group otherwise.
reliability_bars <- function(d, histogram, min_count, title) {
  panels <- reliability_panels(histogram)
  tab <- d$tab
  tab$panel <- factor(panels[1], levels = panels)
  hist <- d$hist
  hist$panel <- factor(panels[2], levels = panels)
  frame <- reliability_frame(histogram, d$height)
  subtitle <- if (d$grouped) {
    sprintf(
      "%s: %s; ECE and MCE above each panel", d$binning,
      reliability_bin_count(d)
    )
  } else {
    sprintf(
      "%s: %d bins, ECE = %s, MCE = %s", d$binning, d$info$n_bins,
      format(d$info$ece, digits = 3), format(d$info$mce, digits = 3)
    )
  }
  present <- levels(tab$direction)[levels(tab$direction) %in% tab$direction]
  x <- y <- xmin <- xmax <- accuracy <- mean_confidence <- direction <-
    accuracy_lower <- accuracy_upper <- lower <- upper <- share <-
    panel <- alpha <- group <- NULL
  p <- ggplot2::ggplot() +
    ggplot2::geom_blank(ggplot2::aes(x = x, y = y), data = frame$floor) +
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
      data = frame$diagonal, linetype = "dashed", colour = "grey20"
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
  facets <- if (d$grouped) {
    # each column headed by its group, ECE and MCE; ECE and MCE on lines
    # of their own in the narrow columns of four groups or more
    heads <- stats::setNames(
      sprintf(
        if (nrow(d$info) >= 4) "%s\nECE %s\nMCE %s" else "%s\nECE %s, MCE %s",
        d$info$group, format_area(d$info$ece), format_area(d$info$mce)
      ),
      d$info$group
    )
    ggplot2::facet_grid(
      rows = ggplot2::vars(panel), cols = ggplot2::vars(group),
      scales = "free_y", space = "free_y", switch = "y",
      labeller = ggplot2::labeller(group = heads)
    )
  } else {
    calibration_facets()
  }
  p +
    facets +
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
    reliability_x_scale(nrow(d$info)) +
    lower_panel_axis(if (d$peak > 0) d$peak else 1,
      percent = TRUE, height = d$height
    ) +
    ggplot2::labs(
      x = "Confidence", y = NULL, title = title, subtitle = subtitle,
      caption = reliability_caption(d, histogram, min_count)
    ) +
    calibration_theme() +
    # room between columns for the "1" of one axis and the "0" of the next
    ggplot2::theme(panel.spacing.x = ggplot2::unit(
      if (nrow(d$info) >= 3) 18 else 12, "pt"
    ))
}

# The groups in one panel, a colour each: accuracy per bin joined by a
# line, with its interval; below, each group's histogram as an outline.
reliability_overlay <- function(d, histogram, min_count, title) {
  panels <- reliability_panels(histogram)
  tab <- d$tab
  tab$panel <- factor(panels[1], levels = panels)
  # each histogram as a step outline: its bins' tops, joined
  hist <- d$hist
  steps <- data.frame(
    confidence = as.vector(rbind(hist$lower, hist$upper)),
    share = rep(hist$share, each = 2),
    group = rep(hist$group, each = 2),
    panel = factor(panels[2], levels = panels)
  )
  frame <- reliability_frame(histogram, d$height)
  groups <- d$info$group
  x <- y <- accuracy <- mean_confidence <- accuracy_lower <-
    accuracy_upper <- share <- panel <- alpha <- group <- confidence <- NULL
  p <- ggplot2::ggplot() +
    ggplot2::geom_blank(ggplot2::aes(x = x, y = y), data = frame$floor) +
    ggplot2::geom_abline(
      ggplot2::aes(intercept = 0, slope = 1),
      data = frame$diagonal, linetype = "dashed", colour = "grey20"
    ) +
    ggplot2::geom_line(
      ggplot2::aes(x = mean_confidence, y = accuracy, colour = group),
      data = tab, linewidth = 0.6
    ) +
    ggplot2::geom_errorbar(
      ggplot2::aes(
        x = mean_confidence, ymin = accuracy_lower, ymax = accuracy_upper,
        colour = group, alpha = 0.6 * alpha
      ),
      data = tab, width = 0, linewidth = 0.4
    ) +
    ggplot2::geom_point(
      ggplot2::aes(
        x = mean_confidence, y = accuracy, colour = group, alpha = alpha
      ),
      data = tab, size = 1.4
    ) +
    ggplot2::scale_alpha_identity()
  if (histogram) {
    p <- p + ggplot2::geom_line(
      ggplot2::aes(x = confidence, y = share, colour = group),
      data = steps, linewidth = 0.4
    )
  }
  ece <- paste("ECE", format_area(d$info$ece))
  p +
    calibration_facets() +
    group_colour_scale(groups, ece) +
    ggplot2::guides(colour = ggplot2::guide_legend(
      ncol = legend_columns(paste0(groups, " (", ece, ")")), byrow = TRUE,
      title.position = "top", override.aes = list(alpha = 1)
    )) +
    reliability_x_scale(1) +
    lower_panel_axis(if (d$peak > 0) d$peak else 1,
      percent = TRUE, height = d$height
    ) +
    ggplot2::labs(
      x = "Confidence", y = NULL, colour = d$group_name, title = title,
      subtitle = sprintf(
        "%s: %s; the ECE of each in the legend", d$binning,
        reliability_bin_count(d)
      ),
      caption = reliability_caption(d, histogram, min_count, overlay = TRUE)
    ) +
    calibration_theme()
}

# The confidence axis: [0, 1]. Side by side, the last label of one column
# and the first of the next nearly touch: short labels ("1", not "1.00"),
# and in narrow columns (three groups or more) only 0, 0.5 and 1.
reliability_x_scale <- function(n_columns) {
  if (n_columns < 2) {
    return(ggplot2::scale_x_continuous(
      limits = c(0, 1), expand = ggplot2::expansion(mult = 0.01)
    ))
  }
  breaks <- if (n_columns >= 3) c(0, 0.5, 1) else seq(0, 1, by = 0.25)
  ggplot2::scale_x_continuous(
    limits = c(0, 1), expand = ggplot2::expansion(mult = 0.01),
    breaks = breaks, labels = format(breaks, drop0trailing = TRUE, trim = TRUE)
  )
}
