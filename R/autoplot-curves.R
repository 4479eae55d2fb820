#' Plot a risk-coverage curve
#'
#' Draws the selective or generalized risk against coverage. Curves of a
#' grouped [rc_curve()] (several models or scores) get one colour per group;
#' the legend gives each curve's area: the AURC ([aurc_vec()], estimator
#' `"alpha"`) under the selective curve, the AUGRC ([augrc_vec()]) under the
#' generalized one. Two references can be drawn: the oracle, dashed (the
#' same predictions ordered by loss, the best any score can do), and a
#' random score, dotted (the mean loss for the selective risk,
#' `coverage x mean loss` for the generalized risk).
#'
#' The risk axis starts at 0 and ends at the largest value drawn, so curves
#' of real models, whose risk rarely comes near 1, fill the panel;
#' `full_range = TRUE` shows the whole range `[0, 1]` (or more, for a loss
#' above 1). To zoom further, add
#' `ggplot2::coord_cartesian(ylim = c(0, 0.1))`: it keeps every point.
#' Do not use `+ ylim()` or `scale_y_continuous(limits = )`: they drop the
#' points outside the limits and so change the curves.
#'
#' @section Risk scale:
#' At low coverage the selective risk is the mean loss of a few of the most
#' confident predictions: one confident failure among the first 20 puts the
#' curve at 0.05, one among the first two at 0.5. The axis then reaches
#' that early peak and the rest of the curves of good models, with risks of
#' a few percent, sit in the bottom few percent of the panel.
#' `risk_scale = "sqrt"` or `"log"` stretches the low risks instead of
#' cutting the peak off: every point stays in the panel, the early peak
#' included (it is real: confident failures), and the axis is labelled in
#' risk units (0, 0.01, 0.1, ...), named in its title. A zoom that ignores
#' the first part of the coverage when choosing the axis limit would push
#' the peak out of the panel and hide exactly the failures that most
#' confident predictions make; a transformed axis shows them and the
#' differences between good models at once.
#' * `"sqrt"`: the square root; risks below a tenth of the axis get about a
#'   third of the panel. Distances stay easy to read; use it when the
#'   curves span one order of magnitude.
#' * `"log"`: a pseudo-logarithm, `asinh(risk / (2 sigma))`, logarithmic
#'   above `sigma` and linear below it, so a risk of 0 (common at low
#'   coverage and on the oracle) is drawn at the bottom instead of at minus
#'   infinity. `sigma` is a thousandth of the axis's upper end, so the axis
#'   spans three orders of magnitude. Use it when the curves to compare
#'   differ by a factor of ten or more.
#'
#' The areas in the legend are those of the curves in risk units, whatever
#' the scale.
#'
#' @param object An `aurc_rc_curve` from [rc_curve()] or [rc_curve_vec()].
#' @param type `"selective"` (default) or `"generalized"` risk.
#' @param references Which references to draw: `TRUE` (default) both,
#'   `FALSE` none, or any of `"oracle"` and `"random"`. With many groups,
#'   `FALSE` keeps the plot readable (six models and both references draw
#'   18 lines).
#' @param full_range If `TRUE`, the risk axis shows `[0, 1]` (or up to the
#'   largest risk, if that is above 1) instead of zooming to the curves.
#' @param risk_scale The scale of the risk axis: `"linear"` (default),
#'   `"sqrt"` or `"log"` (a pseudo-logarithm that draws 0; see Risk scale).
#'   Use `"sqrt"` or `"log"` when a few confident failures at low coverage
#'   push the curves of good models to the bottom of the panel.
#' @param ... Not used; must be empty.
#' @return A ggplot object (not printed).
#' @examples
#' set.seed(1)
#' score <- runif(300)
#' failure <- rbinom(300, 1, 0.6 - 0.5 * score)
#' curve <- rc_curve_vec(score, failure)
#' ggplot2::autoplot(curve)
#' ggplot2::autoplot(curve, type = "generalized", references = "random")
#' ggplot2::autoplot(curve, full_range = TRUE)
#' # a confident failure at the top: the square-root axis shows the rest
#' score[which(failure == 1)[1]] <- 2
#' ggplot2::autoplot(rc_curve_vec(score, failure), risk_scale = "sqrt")
#' ggplot2::autoplot(rc_curve_vec(score, failure), risk_scale = "log",
#'   type = "generalized")
#' @importFrom rlang .data
#' @export
autoplot.aurc_rc_curve <- function(object, type = "selective",
                                   references = TRUE, full_range = FALSE,
                                   ..., risk_scale = "linear") {
  check_dots(...)
  type <- check_choice(type, c("selective", "generalized"))
  references <- check_references(references)
  check_bool(full_range)
  risk_scale <- check_choice(risk_scale, c("linear", "sqrt", "log"))
  rc_curve_plot(object, type, references, full_range, risk_scale)
}

# The plot of autoplot.aurc_rc_curve() (arguments checked), with the band
# of autoplot.aurc_rc_band() drawn under the curves when `band` is given (a
# data frame with the grouping columns, `coverage`, `.lower`, `.upper`).
rc_curve_plot <- function(object, type, references, full_range, risk_scale,
                          band = NULL, caption = NULL) {
  selective <- type == "selective"
  y_col <- if (selective) "selective_risk" else "generalized_risk"
  gv <- attr(object, "group_vars")
  group_of <- function(d) {
    if (length(gv) == 0) return(rep("all", nrow(d)))
    do.call(paste, c(lapply(gv, function(v) as.character(d[[v]])), sep = " / "))
  }
  kinds <- kinds_all()[c(TRUE, c("oracle", "random") %in% references)]
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
  origin <- function(d, kind) {
    if (selective) return(NULL)
    layer_data(d[!duplicated(group_of(d)), , drop = FALSE], 0, 0, kind)
  }
  d <- rbind(
    origin(curve, kinds[1]),
    layer_data(curve, curve$coverage, curve[[y_col]], kinds[1])
  )
  if ("oracle" %in% references) {
    d <- rbind(
      d, origin(oracle, kinds[2]),
      layer_data(oracle, oracle$coverage, oracle[[y_col]], kinds[2])
    )
  }
  if ("random" %in% references) {
    kind <- kinds[length(kinds)]
    d <- rbind(
      d,
      layer_data(random, 0, if (selective) random$mean_loss else 0, kind),
      layer_data(random, 1, random$mean_loss, kind)
    )
  }
  # groups keep the order of the curve (the grouped data frame's order)
  groups <- unique(group_of(curve))
  # a reference that is the same for every group (scores of one model, one
  # loss) is drawn once, in a neutral grey, not in the colour of whichever
  # group was drawn last
  shared <- character()
  if (length(gv) > 0 && length(groups) > 1) {
    for (k in setdiff(levels(d$line), kinds[1])) {
      rows <- d$line == k
      parts <- split(d[rows, c("coverage", "risk")], d$group[rows])
      same <- length(parts) == length(groups) && all(vapply(parts,
        function(x) isTRUE(all.equal(x, parts[[1]], check.attributes = FALSE)),
        logical(1)
      ))
      if (same) {
        keep <- !rows | d$group == groups[1]
        d <- d[keep, , drop = FALSE]
        d$group[d$line == k] <- NA_character_
        shared <- c(shared, k)
      }
    }
  }
  d$path <- paste(d$group, as.integer(d$line))
  d$group <- factor(d$group, levels = groups)
  area <- if (selective) random$aurc else random$augrc
  area <- area[match(groups, group_of(random))]
  area_label <- paste(if (selective) "AURC" else "AUGRC", format_area(area))
  grouped <- length(gv) > 0
  colour <- if (grouped) rlang::sym("group") else rlang::sym("line")
  y_top <- max(c(d$risk, band$.upper), na.rm = TRUE)
  y_limits <- c(0, if (full_range) max(1, y_top) else y_top)
  if (y_limits[2] <= 0) y_limits[2] <- 1
  p <- ggplot2::ggplot(
    d,
    ggplot2::aes(
      x = .data$coverage, y = .data$risk, group = .data$path,
      linetype = .data$line, colour = !!colour
    )
  )
  if (!is.null(band)) {
    p <- p + band_layers(band, group_of(band), groups, grouped)
  }
  p <- p +
    ggplot2::geom_line() +
    ggplot2::scale_x_continuous(limits = c(0, 1)) +
    # limits that hold every point (zoom with coord_cartesian, see above)
    risk_axis(y_limits, risk_scale) +
    ggplot2::labs(
      x = "Coverage (share of predictions accepted)",
      y = paste0(
        if (selective) "Selective risk" else "Generalized risk",
        switch(risk_scale,
          linear = "",
          sqrt = " (sqrt scale)",
          log = " (log scale)"
        )
      ),
      title = if (selective) {
        "Risk-coverage curve (area: AURC)"
      } else {
        "Generalized risk-coverage curve (area: AUGRC)"
      },
      subtitle = if (selective) {
        "Selective risk: mean loss of the accepted predictions"
      } else {
        "Generalized risk: loss of the accepted predictions / all predictions"
      },
      colour = if (grouped) paste(gv, collapse = " / ") else NULL,
      caption = caption
    ) +
    theme_aurc()
  if (grouped) {
    p <- p +
      group_colour_scale(groups, area_label, na_value = "grey45") +
      ggplot2::scale_linetype_manual(
        values = c("solid", "dashed", "dotted")[match(kinds, kinds_all())],
        name = NULL, drop = FALSE,
        guide = if (length(kinds) > 1) {
          ggplot2::guide_legend(order = 2)
        } else {
          "none"
        }
      )
  } else {
    labels <- kinds
    labels[1] <- paste0("Score (", area_label, ")")
    values <- c("black", "#1b9e77", "grey50")[match(kinds, kinds_all())]
    p <- p +
      ggplot2::scale_colour_manual(
        values = values, labels = labels, drop = FALSE, name = NULL
      ) +
      ggplot2::scale_linetype_manual(
        values = c("solid", "dashed", "dotted")[match(kinds, kinds_all())],
        labels = labels, drop = FALSE, name = NULL
      )
  }
  p
}

# The ribbon of a band under the lines of rc_curve_plot(): one per group,
# in the group's colour (grey for one curve). `group`: the group of each
# row of `band`; `groups`: all groups, in the plot's order.
band_layers <- function(band, group, groups, grouped) {
  ribbon <- tibble::tibble(
    coverage = band$coverage, lower = band$.lower, upper = band$.upper,
    group = factor(group, levels = groups)
  )
  if (!grouped) {
    return(list(ggplot2::geom_ribbon(
      ggplot2::aes(x = .data$coverage, ymin = .data$lower, ymax = .data$upper),
      data = ribbon, fill = "grey55", alpha = 0.35, inherit.aes = FALSE
    )))
  }
  list(
    ggplot2::geom_ribbon(
      ggplot2::aes(
        x = .data$coverage, ymin = .data$lower, ymax = .data$upper,
        group = .data$group, fill = .data$group
      ),
      data = ribbon, alpha = 0.2, inherit.aes = FALSE
    ),
    ggplot2::scale_fill_manual(
      values = aurc_palette(length(groups)), breaks = groups, guide = "none"
    )
  )
}

# The risk axis: linear, or transformed so that low risks get room (see
# the section Risk scale). The transforms are odd functions (defined below
# 0), so the expansion of the axis below 0 has an inverse.
risk_axis <- function(limits, risk_scale) {
  if (risk_scale == "linear") {
    return(ggplot2::scale_y_continuous(limits = limits))
  }
  trans <- risk_transform(risk_scale, sigma = limits[2] / 1000)
  args <- list(
    limits = limits, breaks = risk_breaks(trans), labels = risk_labels,
    minor_breaks = NULL
  )
  # `trans` is `transform` since ggplot2 3.5.0
  arg <- if ("transform" %in% names(formals(ggplot2::scale_y_continuous))) {
    "transform"
  } else {
    "trans"
  }
  args[[arg]] <- trans
  do.call(ggplot2::scale_y_continuous, args)
}

# "sqrt": sign(x) sqrt(|x|); "log": the pseudo-logarithm asinh(x / (2
# sigma)) / log(10), about log10(x / sigma) above sigma and linear below.
# (scales::trans_new() is named new_transform() since scales 1.3.0, which
# keeps the old name.)
risk_transform <- function(risk_scale, sigma) {
  if (risk_scale == "sqrt") {
    return(scales::trans_new("signed_sqrt",
      function(x) sign(x) * sqrt(abs(x)),
      function(x) sign(x) * x^2,
      domain = c(-Inf, Inf)
    ))
  }
  scales::trans_new(paste0("pseudo_log_", format(sigma)),
    function(x) asinh(x / (2 * sigma)) / log(10),
    function(x) 2 * sigma * sinh(x * log(10)),
    domain = c(-Inf, Inf)
  )
}

# Breaks of a transformed risk axis, in risk units: 0 and the values 1, 5
# and 2 times a power of 10, in that order of preference, each kept when it
# is at least a ninth of the axis away from those kept before (on the
# transformed axis, where the reader sees the distance).
risk_breaks <- function(trans) {
  force(trans)
  function(limits) {
    limits <- range(limits[is.finite(limits)])
    if (!(limits[2] > 0)) return(0)
    powers <- 10^seq(floor(log10(limits[2])) - 6, ceiling(log10(limits[2])))
    candidates <- c(0, powers, 5 * powers, 2 * powers)
    candidates <- candidates[candidates >= limits[1] &
      candidates <= limits[2] * (1 + 1e-9)]
    at <- trans$transform(candidates)
    span <- diff(trans$transform(limits))
    kept <- integer()
    for (i in seq_along(candidates)) {
      if (all(abs(at[i] - at[kept]) >= span / 9)) kept <- c(kept, i)
    }
    sort(candidates[kept])
  }
}

# Labels in risk units, with no more decimals than needed (0, 0.005, 0.1).
risk_labels <- function(x) {
  out <- format(x, trim = TRUE, drop0trailing = TRUE, scientific = FALSE)
  out[is.na(x)] <- NA_character_
  out
}

# The three kinds of line of a risk-coverage plot, in legend order.
kinds_all <- function() {
  c("Score", "Oracle (best possible order)", "Random score")
}

# An area for a legend: 3 significant digits, never scientific notation.
format_area <- function(x) {
  formatC(signif(x, 3), digits = 3, format = "fg", flag = "#")
}

check_references <- function(references, call = rlang::caller_env()) {
  all <- c("oracle", "random")
  if (isTRUE(references)) return(all)
  if (isFALSE(references)) return(character())
  if (!is.character(references) || anyNA(references) ||
    !all(references %in% all)) {
    abort_aurc(
      c(
        "{.arg references} must be {.code TRUE}, {.code FALSE} or any of
         {.val {all}}.",
        x = "It is {.obj_type_friendly {references}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  unique(references)
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
    ggplot2::scale_colour_manual(values = aurc_palette(3), name = NULL) +
    ggplot2::expand_limits(y = 0) +
    ggplot2::labs(
      x = "Position of the failure in the ranking (1 = most confident)",
      y = "Contribution of one failure",
      colour = NULL, linetype = NULL,
      title = sprintf(
        "Weight of one failure among %d predictions", nrow(object)
      )
    ) +
    theme_aurc()
}
