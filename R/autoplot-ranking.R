#' Plot a bootstrap ranking
#'
#' Three views of an [bootstrap_ranking()] result, one panel per metric (and
#' group):
#' * `"significance"`: the significance map of Traub et al. (2024, Fig. 3).
#'   Both axes list the methods in ranking order (best first: left on the x
#'   axis, top on the y axis). The cell at (x = method i, y = method j) is
#'   filled when i is significantly better than j (adjusted p-value <=
#'   `alpha` in the one-sided signed-rank test), and crossed otherwise. A
#'   ranking whose every step is stable fills every cell below the diagonal
#'   and none above it. (Traub et al. draw the transpose: their filled cell
#'   at (x, y) means y beats x.)
#' * `"blob"`: how often each method took each rank over the replicates
#'   (point area = proportion of replicates), methods in ranking order, rank
#'   1 at the top; a cross marks the mean rank.
#' * `"bump"`: the rankings under two metrics side by side, each method's
#'   ranks joined by a line; methods whose rank changes are highlighted (the
#'   red arrows of Traub et al., Fig. 3).
#'
#' @param object An `aurc_ranking`.
#' @param type `"significance"` (default), `"blob"` or `"bump"`.
#' @param metrics Metrics to show (default all; for `"bump"` the first two).
#' @param ... Not used; must be empty.
#' @param p_adjust,alpha For `"significance"` only: the correction for
#'   multiple testing (`"holm"`, any method of [stats::p.adjust()], or
#'   `"none"`) and the significance level of the map. `NULL` (default)
#'   keeps those of the ranking; otherwise the map is drawn from
#'   [adjust_p_values()]`(object, p_adjust = , alpha = )`. `p_adjust =
#'   "none"` gives the maps without correction of Traub et al. (2024,
#'   Fig. 7). Given with another `type`, they are ignored with a warning of
#'   class `aurc_warning_ignored`.
#' @return A ggplot object.
#' @examples
#' set.seed(3)
#' values <- cbind(a = rnorm(100, 0.10, 0.01), b = rnorm(100, 0.105, 0.01),
#'                 c = rnorm(100, 0.12, 0.01))
#' rk <- rank_replicates(values, metric = "aurc")
#' autoplot(rk)
#' autoplot(rk, p_adjust = "none") # each test on its own at alpha = 0.05
#' autoplot(rk, type = "blob")
#' @importFrom rlang .data
#' @export
autoplot.aurc_ranking <- function(object, type = c("significance", "blob",
                                                   "bump"),
                                  metrics = NULL, ..., p_adjust = NULL,
                                  alpha = NULL) {
  check_dots(...)
  type <- check_choice(first_choice(type),
    c("significance", "blob", "bump"),
    arg = "type"
  )
  given <- c(p_adjust = !is.null(p_adjust), alpha = !is.null(alpha))
  if (any(given) && type != "significance") {
    warn_aurc(
      c(
        "{.arg {names(given)[given]}} only change{?s/} the significance
         map; ignored for {.code type = \"{type}\"}.",
        i = "Use {.code type = \"significance\"}, or
             {.fn adjust_p_values} for the tests themselves."
      ),
      class = "aurc_warning_ignored"
    )
  } else if (any(given)) {
    object <- readjust_ranking(object,
      p_adjust = if (given[["p_adjust"]]) p_adjust else
        object$settings$p_adjust,
      alpha = if (given[["alpha"]]) alpha else object$settings$alpha,
      call = rlang::current_env()
    )
  }
  all_metrics <- object$settings$metrics
  if (is.null(metrics)) {
    metrics <- if (type == "bump") utils::head(all_metrics, 2) else
      all_metrics
  }
  if (!is.character(metrics) || !all(metrics %in% all_metrics)) {
    abort_aurc(
      c(
        "{.arg metrics} must name metrics of the ranking.",
        i = "They are {.val {all_metrics}}."
      ),
      class = "aurc_error_value"
    )
  }
  switch(type,
    significance = plot_significance(object, metrics),
    blob = plot_blob(object, metrics),
    bump = plot_bump(object, metrics)
  )
}

# A panel per metric (and group): its label, and method labels made unique
# per panel so each panel keeps its own ranking order. The options of a
# metric_with() name go on a line of their own ("partial_aurc\n[coverage=
# 0-0.5]"), or a strip of a third of the width cuts them off.
ranking_panel <- function(tab, settings) {
  metric <- sub("[", "\n[", tab$metric, fixed = TRUE)
  if (isTRUE(settings$grouped)) {
    paste0(tab$group, ": ", metric)
  } else {
    metric
  }
}

panel_sep <- "\u001f"

within_panel <- function(method, panel) paste0(method, panel_sep, panel)

strip_panel <- function(x) sub(paste0(panel_sep, ".*$"), "", x)

# The limits of a discrete axis of a free facet: the values the panel
# shows, in the order of `keys` (ranking order). Given as a function so
# each panel orders its own values explicitly: the order of factor levels
# did not survive the scale's training with scales 1.4.0 beside ggplot2
# 3.4.1 (two layers' values were merged and sorted alphabetically).
in_order <- function(keys) {
  force(keys)
  function(values) keys[keys %in% values]
}

# Methods in ranking order within each panel, as the levels of a factor.
panel_levels <- function(object, metrics) {
  rk <- object$ranking[object$ranking$metric %in% metrics, ]
  rk$panel <- ranking_panel(rk, object$settings)
  rk$panel <- factor(rk$panel, levels = unique(rk$panel))
  rk <- rk[order(rk$panel, rk$rank), ]
  rk$key <- within_panel(rk$method, rk$panel)
  rk
}

plot_significance <- function(object, metrics) {
  rk <- panel_levels(object, metrics)
  tests <- object$tests[object$tests$metric %in% metrics, ]
  panel <- factor(ranking_panel(tests, object$settings),
    levels = levels(rk$panel)
  )
  d <- data.frame(
    panel = panel,
    x = factor(within_panel(tests$method, panel), levels = rk$key),
    y = factor(within_panel(tests$versus, panel), levels = rev(rk$key)),
    significant = factor(
      ifelse(tests$significant %in% TRUE, "significant", "not significant"),
      levels = c("significant", "not significant")
    )
  )
  s <- object$settings
  correction <- if (s$p_adjust == "none") "no correction" else
    paste(adjust_label(s$p_adjust), "correction")
  ggplot2::ggplot(d, ggplot2::aes(x = .data$x, y = .data$y)) +
    ggplot2::geom_tile(ggplot2::aes(fill = .data$significant),
      colour = "white", linewidth = 0.6
    ) +
    ggplot2::geom_point(
      data = d[d$significant == "not significant", ],
      shape = 4, size = 2, colour = "grey45"
    ) +
    ggplot2::scale_fill_manual(
      values = c(significant = "#1f4e79", "not significant" = "grey92"),
      drop = FALSE, name = NULL
    ) +
    ggplot2::scale_x_discrete(
      labels = strip_panel, limits = in_order(rk$key)
    ) +
    ggplot2::scale_y_discrete(
      labels = strip_panel, limits = in_order(rev(rk$key))
    ) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free") +
    ggplot2::coord_cartesian(expand = FALSE) +
    ggplot2::labs(
      x = "Method", y = "Compared with",
      title = "Which method is significantly better than which",
      # short lines: a long subtitle is clipped at common figure widths
      subtitle = paste0(
        "Filled: the method on the x axis is better than the one on the ",
        "y axis\n(one-sided Wilcoxon signed-rank test over ", s$times,
        " replicates,\n", correction, ", alpha = ", format(s$alpha), ")"
      )
    ) +
    theme_aurc() +
    ggplot2::theme(
      axis.text.x = ggplot2::element_text(angle = 45, hjust = 1),
      panel.grid = ggplot2::element_blank()
    )
}

plot_blob <- function(object, metrics) {
  rk <- panel_levels(object, metrics)
  freq <- object$rank_frequencies
  freq <- freq[freq$metric %in% metrics & freq$n > 0, ]
  panel <- factor(ranking_panel(freq, object$settings),
    levels = levels(rk$panel)
  )
  d <- data.frame(
    panel = panel,
    x = factor(within_panel(freq$method, panel), levels = rk$key),
    rank = freq$rank, proportion = freq$proportion
  )
  means <- data.frame(
    panel = rk$panel, x = factor(rk$key, levels = rk$key),
    rank = rk$mean_rank
  )
  n_methods <- max(object$ranking$rank)
  ggplot2::ggplot(d, ggplot2::aes(x = .data$x, y = .data$rank)) +
    ggplot2::geom_point(ggplot2::aes(size = .data$proportion),
      colour = "#1f4e79", alpha = 0.8
    ) +
    ggplot2::geom_point(
      data = means, shape = 4, size = 2.5, colour = "#c0392b", stroke = 1
    ) +
    ggplot2::scale_size_area(
      max_size = 9, limits = c(0, 1), name = "Share of replicates"
    ) +
    ggplot2::scale_x_discrete(labels = strip_panel, limits = in_order(rk$key)) +
    ggplot2::scale_y_reverse(breaks = seq_len(n_methods)) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_x") +
    ggplot2::labs(
      x = "Method (ranking order)", y = "Rank (1 = best)",
      title = "Ranks over bootstrap replicates",
      subtitle = paste(
        "Point area: share of replicates with that rank;",
        "cross: mean rank"
      )
    ) +
    theme_aurc() +
    ggplot2::theme(
      axis.text.x = ggplot2::element_text(angle = 45, hjust = 1),
      panel.grid.major.x = ggplot2::element_blank()
    )
}

plot_bump <- function(object, metrics) {
  if (length(metrics) != 2) {
    abort_aurc(
      c(
        "A bump chart compares two metrics.",
        x = "{.arg metrics} has {length(metrics)}: {.val {metrics}}.",
        i = "Rank with two metrics or give two in {.arg metrics}."
      ),
      class = "aurc_error_value"
    )
  }
  rk <- object$ranking[object$ranking$metric %in% metrics, ]
  grouped <- isTRUE(object$settings$grouped)
  key <- function(d) row_key(d, c("group", "method"))
  first <- rk[rk$metric == metrics[1], ]
  second <- rk[rk$metric == metrics[2], ]
  d <- rbind(first, second)
  rank_1 <- first$rank[match(key(d), key(first))]
  rank_2 <- second$rank[match(key(d), key(second))]
  d$change <- factor(
    ifelse(rank_1 == rank_2, "same rank", "rank changed"),
    levels = c("rank changed", "same rank")
  )
  d$x <- match(d$metric, metrics)
  d$id <- key(d)
  d$label_hjust <- ifelse(d$x == 1, 1, 0)
  d$label_x <- ifelse(d$x == 1, 0.95, 2.05)
  n_methods <- max(rk$rank)
  p <- ggplot2::ggplot(d, ggplot2::aes(
    x = .data$x, y = .data$rank, group = .data$id, colour = .data$change
  )) +
    ggplot2::geom_line(linewidth = 0.9) +
    ggplot2::geom_point(size = 2.5) +
    ggplot2::geom_text(
      ggplot2::aes(
        x = .data$label_x, label = .data$method, hjust = .data$label_hjust
      ),
      size = 3.2, show.legend = FALSE
    ) +
    ggplot2::scale_colour_manual(
      values = c("rank changed" = "#c0392b", "same rank" = "grey55"),
      drop = FALSE, name = NULL
    ) +
    ggplot2::scale_x_continuous(
      breaks = 1:2, labels = metrics, limits = c(0.3, 2.7)
    ) +
    ggplot2::scale_y_reverse(breaks = seq_len(n_methods)) +
    ggplot2::labs(
      # a long axis title is clipped in short figures: the detail goes to
      # the subtitle
      x = NULL, y = "Rank (1 = best)",
      title = paste("Ranking under", metrics[1], "and", metrics[2]),
      subtitle = paste(
        "Rank: order by mean rank over the replicates,",
        "then median rank"
      )
    ) +
    theme_aurc() +
    ggplot2::theme(
      panel.grid.major.x = ggplot2::element_blank()
    )
  if (grouped) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$group))
  }
  p
}

adjust_label <- function(method) {
  labels <- c(
    holm = "Holm", hochberg = "Hochberg", hommel = "Hommel",
    bonferroni = "Bonferroni", BH = "Benjamini-Hochberg",
    BY = "Benjamini-Yekutieli", fdr = "Benjamini-Hochberg", none = "no"
  )
  unname(labels[method])
}
