#' Plot a risk-coverage curve
#'
#' Draws the selective or generalized risk against coverage, with two
#' references: the oracle, dashed (the same predictions ordered by loss, the
#' best any score can do), and a random score, dotted (the mean loss for the
#' selective risk, `coverage x mean loss` for the generalized risk). Curves
#' of a grouped [rc_curve()] (several models or scores) get one colour per
#' group. The area under the selective curve is the AURC, under the
#' generalized curve the AUGRC.
#'
#' @param object An `aurc_rc_curve` from [rc_curve()] or [rc_curve_vec()].
#' @param type `"selective"` (default) or `"generalized"` risk.
#' @param ... Not used; must be empty.
#' @return A ggplot object (not printed).
#' @examples
#' set.seed(1)
#' score <- runif(300)
#' failure <- rbinom(300, 1, 0.6 - 0.5 * score)
#' curve <- rc_curve_vec(score, failure)
#' ggplot2::autoplot(curve)
#' ggplot2::autoplot(curve, type = "generalized")
#' @importFrom rlang .data
#' @export
autoplot.aurc_rc_curve <- function(object, type = "selective", ...) {
  check_dots(...)
  type <- check_choice(type, c("selective", "generalized"))
  y_col <- if (type == "selective") "selective_risk" else "generalized_risk"
  gv <- attr(object, "group_vars")
  group_of <- function(d) {
    if (length(gv) == 0) return(rep("all", nrow(d)))
    do.call(paste, c(lapply(gv, function(v) as.character(d[[v]])), sep = " / "))
  }
  kinds <- c("Score", "Oracle (best possible order)", "Random score")
  layer_data <- function(d, x, y, kind) {
    tibble::tibble(
      coverage = x, risk = y, group = group_of(d),
      line = factor(kind, levels = kinds)
    )
  }
  curve <- tibble::as_tibble(object)
  oracle <- attr(object, "oracle")
  random <- attr(object, "random")
  # the generalized curve starts at (0, 0), where the AUGRC starts
  start <- if (type == "generalized") {
    first <- curve[!duplicated(group_of(curve)), , drop = FALSE]
    layer_data(first, 0, 0, kinds[1])
  }
  o_start <- if (type == "generalized") {
    first <- oracle[!duplicated(group_of(oracle)), , drop = FALSE]
    layer_data(first, 0, 0, kinds[2])
  }
  rnd <- if (type == "selective") {
    rbind(
      layer_data(random, 0, random$mean_loss, kinds[3]),
      layer_data(random, 1, random$mean_loss, kinds[3])
    )
  } else {
    rbind(
      layer_data(random, 0, 0, kinds[3]),
      layer_data(random, 1, random$mean_loss, kinds[3])
    )
  }
  d <- rbind(
    start, layer_data(curve, curve$coverage, curve[[y_col]], kinds[1]),
    o_start, layer_data(oracle, oracle$coverage, oracle[[y_col]], kinds[2]),
    rnd
  )
  d$path <- paste(d$group, as.integer(d$line))
  # groups keep the order of the curve (the grouped data frame's order)
  d$group <- factor(d$group, levels = unique(group_of(curve)))
  grouped <- length(gv) > 0
  colour <- if (grouped) rlang::sym("group") else rlang::sym("line")
  y_max <- max(1, d$risk, na.rm = TRUE)
  p <- ggplot2::ggplot(
    d,
    ggplot2::aes(
      x = .data$coverage, y = .data$risk, group = .data$path,
      linetype = .data$line, colour = !!colour
    )
  ) +
    ggplot2::geom_line() +
    ggplot2::scale_linetype_manual(
      values = c("solid", "dashed", "dotted"), drop = FALSE, name = NULL
    ) +
    ggplot2::scale_x_continuous(limits = c(0, 1)) +
    ggplot2::scale_y_continuous(limits = c(0, y_max)) +
    ggplot2::labs(
      x = "Coverage (share of predictions accepted)",
      y = if (type == "selective") {
        "Selective risk (mean loss of the accepted predictions)"
      } else {
        "Generalized risk (loss of the accepted / all predictions)"
      },
      title = if (type == "selective") {
        "Risk-coverage curve (area: AURC)"
      } else {
        "Generalized risk-coverage curve (area: AUGRC)"
      },
      colour = if (grouped) paste(gv, collapse = " / ") else NULL
    ) +
    ggplot2::theme_bw()
  if (!grouped) {
    p <- p + ggplot2::scale_colour_manual(
      values = c("black", "#1b9e77", "grey50"), drop = FALSE, name = NULL
    )
  }
  p
}

#' Plot failure contributions by position
#'
#' Draws the contribution of one failure to AURC and AUGRC against its
#' position in the ranking, as in Fig. 2a of Traub et al. (2024).
#'
#' @param object An `aurc_contribution_curve` from [contribution_curve()].
#' @param ... Not used; must be empty.
#' @return A ggplot object (not printed).
#' @examples
#' ggplot2::autoplot(contribution_curve(100))
#' @export
autoplot.aurc_contribution_curve <- function(object, ...) {
  check_dots(...)
  labels <- c(
    aurc = "AURC (alpha estimator)", augrc = "AUGRC (trapezoid rule)",
    augrc_step = "AUGRC (step rule)"
  )
  d <- tibble::tibble(
    position = rep(object$position, 3),
    contribution = c(object$aurc, object$augrc, object$augrc_step),
    metric = factor(rep(unname(labels), each = nrow(object)),
      levels = unname(labels)
    )
  )
  ggplot2::ggplot(
    d,
    ggplot2::aes(
      x = .data$position, y = .data$contribution, colour = .data$metric,
      linetype = .data$metric
    )
  ) +
    ggplot2::geom_line() +
    # the two AUGRC rules differ by 1 / (2 n^2): the step rule is dashed so
    # that both stay visible
    ggplot2::scale_linetype_manual(
      values = c("solid", "solid", "dashed"), name = NULL
    ) +
    ggplot2::expand_limits(y = 0) +
    ggplot2::labs(
      x = "Position of the failure in the ranking (1 = most confident)",
      y = "Contribution of one failure to the metric",
      colour = NULL, linetype = NULL,
      title = sprintf(
        "Weight of one failure among %d predictions", nrow(object)
      )
    ) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "bottom")
}
