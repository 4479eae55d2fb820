#' Plot a failure ROC or precision-recall curve
#'
#' Draws the curves of [failure_roc_curve()] and [failure_pr_curve()]: the
#' confidence score as a detector of failures, a low score flagging a
#' prediction. Curves of a grouped data frame (several models or scores) get
#' one colour per group; the legend gives each curve's area, the failure
#' AUROC ([failure_auroc_vec()]) or the failure AUPR ([failure_aupr_vec()]).
#' The reference, dashed, is a random score: the diagonal of the ROC plot
#' (grey), and for the PR plot the horizontal line at the failure rate (the
#' precision of flagging at random; one line per group, in its colour).
#'
#' The PR curve is drawn as the step function whose area is the failure
#' AUPR (average precision): the precision of a threshold holds from the
#' previous threshold's recall up to its own. The ROC curve joins its
#' points by straight lines, whose area is the failure AUROC.
#'
#' Both curves ignore how many failures there are: a model that makes more
#' errors, all at its lowest scores, gets a better ROC and PR curve. Plot
#' [rc_curve()] next to them to see the risk the user takes (Ding et al.
#' 2020, Fig. 1; see [inject_failures()]).
#'
#' @param object An `aurc_failure_roc_curve` from [failure_roc_curve()] or
#'   [failure_roc_curve_vec()], or an `aurc_failure_pr_curve` from
#'   [failure_pr_curve()] or [failure_pr_curve_vec()].
#' @param references `TRUE` (default) to draw the random-score reference,
#'   `FALSE` not to.
#' @param ... Not used; must be empty.
#' @return A ggplot object (not printed).
#' @examples
#' set.seed(1)
#' score <- runif(300)
#' failure <- rbinom(300, 1, 0.6 - 0.5 * score)
#' ggplot2::autoplot(failure_roc_curve_vec(score, failure))
#' ggplot2::autoplot(failure_pr_curve_vec(score, failure))
#' @export
autoplot.aurc_failure_roc_curve <- function(object, references = TRUE, ...) {
  check_dots(...)
  check_bool(references)
  failure_curve_plot(object, "roc", references)
}

#' @rdname autoplot.aurc_failure_roc_curve
#' @export
autoplot.aurc_failure_pr_curve <- function(object, references = TRUE, ...) {
  check_dots(...)
  check_bool(references)
  failure_curve_plot(object, "pr", references)
}

failure_curve_plot <- function(object, type, references) {
  roc <- type == "roc"
  gv <- attr(object, "group_vars")
  summary <- attr(object, "summary")
  group_of <- function(d) {
    if (length(gv) == 0) return(rep("all", nrow(d)))
    do.call(paste, c(lapply(gv, function(v) as.character(d[[v]])), sep = " / "))
  }
  kinds <- c("Score", if (roc) "Random score (chance)" else
    "Random score (precision = failure rate)")
  if (!references) kinds <- kinds[1]
  layer_data <- function(d, x, y, kind) {
    tibble::tibble(
      x = x, y = y, group = group_of(d),
      line = factor(kind, levels = kinds)
    )
  }
  curve <- tibble::as_tibble(object)
  groups <- unique(group_of(curve))
  if (roc) {
    d <- layer_data(
      curve, curve$false_positive_rate, curve$true_positive_rate, kinds[1]
    )
  } else {
    # the step of the first threshold starts at recall 0
    starts <- curve[!duplicated(group_of(curve)), , drop = FALSE]
    d <- rbind(
      layer_data(starts, 0, starts$precision, kinds[1]),
      layer_data(curve, curve$recall, curve$precision, kinds[1])
    )
    d <- d[order(match(d$group, groups)), , drop = FALSE]
  }
  ref <- NULL
  if (references) {
    # the chance diagonal is the same for every group: drawn once, grey
    ref_of <- if (roc) summary[1, , drop = FALSE] else summary
    y0 <- if (roc) 0 else ref_of$failure_rate
    ref <- rbind(
      layer_data(ref_of, 0, y0, kinds[2]),
      layer_data(ref_of, 1, if (roc) 1 else ref_of$failure_rate, kinds[2])
    )
  }
  d$path <- paste(d$group, as.integer(d$line))
  d$group <- factor(d$group, levels = groups)
  if (!is.null(ref)) {
    ref$path <- paste(ref$group, as.integer(ref$line))
    ref$group <- factor(ref$group, levels = groups)
  }
  area <- if (roc) summary$auroc else summary$aupr
  area <- area[match(groups, group_of(summary))]
  area_label <- paste(
    if (roc) "failure AUROC" else "failure AUPR", format_area(area)
  )
  grouped <- length(gv) > 0
  colour <- if (grouped) rlang::sym("group") else rlang::sym("line")
  aes <- ggplot2::aes(
    x = .data$x, y = .data$y, group = .data$path,
    linetype = .data$line, colour = !!colour
  )
  p <- ggplot2::ggplot(d, aes)
  if (!is.null(ref)) {
    p <- p + if (roc && length(gv) > 0) {
      ggplot2::geom_path(data = ref, colour = "grey50")
    } else {
      ggplot2::geom_path(data = ref)
    }
  }
  p <- p +
    if (roc) ggplot2::geom_path() else ggplot2::geom_step(direction = "vh")
  p <- p +
    ggplot2::scale_x_continuous(limits = c(0, 1)) +
    ggplot2::scale_y_continuous(limits = c(0, 1)) +
    failure_curve_labels(roc, if (grouped) paste(gv, collapse = " / ")) +
    theme_aurc()
  linetypes <- c("solid", "dashed")[seq_along(kinds)]
  if (grouped) {
    p <- p +
      group_colour_scale(groups, area_label) +
      ggplot2::scale_linetype_manual(
        values = linetypes, name = NULL, drop = FALSE,
        guide = if (length(kinds) > 1) {
          ggplot2::guide_legend(order = 2)
        } else {
          "none"
        }
      )
  } else {
    labels <- kinds
    labels[1] <- paste0("Score (", area_label, ")")
    values <- c("black", "grey50")[seq_along(kinds)]
    p <- p +
      ggplot2::scale_colour_manual(
        values = values, labels = labels, drop = FALSE, name = NULL
      ) +
      ggplot2::scale_linetype_manual(
        values = linetypes, labels = labels, drop = FALSE, name = NULL
      )
  }
  p
}

# Axis labels, title and subtitle of a failure ROC (roc = TRUE) or PR curve;
# `colour`: the legend title of grouped curves (NULL: none).
failure_curve_labels <- function(roc, colour) {
  if (roc) {
    ggplot2::labs(
      x = "Correct predictions flagged (false positive rate)",
      y = "Failures flagged (TPR)",
      title = "Failure ROC curve (area: failure AUROC)",
      subtitle = "Failures are the positive class; a low score flags them",
      colour = colour
    )
  } else {
    ggplot2::labs(
      x = "Failures flagged (recall)",
      y = "Precision (failure share)",
      title = "Failure precision-recall curve (area: failure AUPR)",
      subtitle =
        "Precision: share of failures among the flagged; a low score flags",
      colour = colour
    )
  }
}
