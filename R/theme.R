#' The theme of aurc's plots
#'
#' Every `autoplot()` method and `plot_*()` function of aurc draws with this
#' one theme, so plots placed side by side match: [ggplot2::theme_bw()]
#' without minor grid lines, the legend below the panel (it then never
#' squeezes the panel of a narrow figure), and titles, subtitles and
#' captions aligned with the left edge of the whole plot. The labels of
#' aurc's plots are written so that nothing is clipped at 6 x 4, 6 x 6 and
#' 7 x 4.5 inches with the default `base_size`.
#'
#' Use it for your own plots to match, or replace it with any other theme:
#' `autoplot(x) + ggplot2::theme_minimal()`.
#'
#' @param base_size Base font size in points.
#' @param base_family Base font family.
#' @return A ggplot2 theme.
#' @examples
#' ggplot2::ggplot(data.frame(x = 1:3, y = 1:3), ggplot2::aes(x, y)) +
#'   ggplot2::geom_line() +
#'   theme_aurc()
#' @export
theme_aurc <- function(base_size = 11, base_family = "") {
  base_size <- check_number(base_size, 1, 100)
  if (!rlang::is_string(base_family)) {
    abort_aurc(
      paste(
        "{.arg base_family} must be a string, not",
        "{.obj_type_friendly {base_family}}."
      ),
      class = "aurc_error_type"
    )
  }
  ggplot2::theme_bw(base_size = base_size, base_family = base_family) +
    ggplot2::theme(
      panel.grid.minor = ggplot2::element_blank(),
      legend.position = "bottom",
      legend.box = "vertical",
      legend.margin = ggplot2::margin(0, 0, 0, 0),
      legend.spacing.y = ggplot2::unit(2, "pt"),
      strip.background = ggplot2::element_rect(fill = "grey92", colour = NA),
      # room between facets, so the last label of one x axis and the first
      # of the next do not run together
      panel.spacing = ggplot2::unit(12, "pt"),
      # a little room on the right for the last label of an x axis that
      # ends at the panel's edge
      plot.margin = ggplot2::margin(5.5, 12, 5.5, 5.5),
      plot.title.position = "plot",
      plot.caption.position = "plot",
      plot.caption = ggplot2::element_text(
        hjust = 0, colour = "grey30", size = ggplot2::rel(0.8)
      ),
      plot.subtitle = ggplot2::element_text(colour = "grey25")
    )
}

# Colours for groups (models, scores): the Okabe-Ito palette, which stays
# distinguishable for colour-blind readers, for up to eight groups; evenly
# spaced hues beyond.
aurc_palette <- function(n) {
  okabe_ito <- c(
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
    "#000000", "#F0E442"
  )
  if (n <= length(okabe_ito)) return(okabe_ito[seq_len(n)])
  hues <- seq(15, 375, length.out = n + 1)[seq_len(n)]
  grDevices::hcl(h = hues, c = 100, l = 55)
}

# Columns of a legend below a 6-inch-wide plot: about 84 characters of
# legend text fit in a row, with the keys; at most 3 columns. (90 let
# three labels of 24 characters, "ResNet-50 (AURC 0.00740)", run past the
# right edge at 6 inches.)
legend_columns <- function(labels) {
  width <- max(nchar(labels)) + 6
  as.integer(max(1, min(length(labels), 3, floor(84 / width))))
}

# The colour scale of grouped curves: one colour per group, each labelled
# with its area (`area_label`), in legend columns that fit.
group_colour_scale <- function(groups, area_label, na_value = "grey50") {
  labels <- paste0(groups, " (", area_label, ")")
  ggplot2::scale_colour_manual(
    values = aurc_palette(length(groups)),
    labels = labels, breaks = groups, na.value = na_value,
    guide = ggplot2::guide_legend(
      order = 1, ncol = legend_columns(labels), byrow = TRUE,
      title.position = "top"
    )
  )
}
