#' Plot a risk-coverage curve with its simultaneous band
#'
#' Draws the curve of [rc_band()]'s data as [autoplot.aurc_rc_curve()]
#' does, with the band as a shaded ribbon under it (one per group, in the
#' group's colour). The band covers the grid of coverages it was computed
#' on (from 0.1 by default); the curve is drawn over every coverage. The
#' caption gives the level, the method and the number of replicates.
#'
#' @inheritParams autoplot.aurc_rc_curve
#' @param object An `aurc_rc_band` from [rc_band()] or [rc_band_vec()].
#' @return A ggplot object (not printed).
#' @examples
#' set.seed(1)
#' score <- runif(500)
#' failure <- rbinom(500, 1, 0.4 * (1 - score))
#' band <- rc_band_vec(score, failure, times = 200)
#' ggplot2::autoplot(band)
#' ggplot2::autoplot(band, type = "generalized", references = FALSE)
#' @export
autoplot.aurc_rc_band <- function(object, type = "selective",
                                  references = TRUE, full_range = FALSE,
                                  ..., risk_scale = "linear") {
  check_dots(...)
  type <- check_choice(type, c("selective", "generalized"))
  references <- check_references(references)
  check_bool(full_range)
  risk_scale <- check_choice(risk_scale, c("linear", "sqrt", "log"))
  band <- tibble::as_tibble(object)
  band <- band[band$type == type, , drop = FALSE]
  caption <- sprintf(
    paste(
      "Band: %s%% simultaneous over coverage %s to %s",
      "(bootstrap max-t, %s replicates)"
    ),
    format(100 * attr(object, "conf_level")),
    format(min(band$coverage)), format(max(band$coverage)),
    format(attr(object, "times"), big.mark = ",")
  )
  rc_curve_plot(attr(object, "curve"), type, references, full_range,
    risk_scale,
    band = band, caption = caption
  )
}
