#' Plot a bootstrap ranking
#'
#' Three views of an [bootstrap_ranking()] result, one panel per metric (and
#' group):
#' * `"significance"`: the significance map of Traub et al. (2024, Fig. 3),
#'   with the size of each effect. Both axes list the methods in ranking
#'   order (best first: left on the x axis, top on the y axis). The cell at
#'   (x = method i, y = method j) is coloured by the share of the bootstrap
#'   replicates in which i beats j (a better value of the metric; a tie
#'   counts half): dark blue when i nearly always wins, white at 50%,
#'   orange when i mostly loses. It is crossed when i is not significantly
#'   better than j (adjusted p-value above `alpha` in the one-sided
#'   signed-rank test). A ranking whose every step is stable has blue,
#'   uncrossed cells below the diagonal and crossed ones above it; an
#'   uncrossed pale cell is a pair that i wins only a little more often
#'   than it loses, significant because the replicates are many (see
#'   Interpreting the p-values in [bootstrap_ranking()]). The share (the
#'   statistic of the paired sign test, a common-language effect size) is
#'   free of the metric's units, so one colour scale serves every panel,
#'   whatever the metric (an AURC of 0.05 and an AUROC of 0.9), where the
#'   median paired difference would need a scale per metric. It is
#'   computed from the replicate values the ranking keeps
#'   (`object$replicates`); a ranking without them is coloured by which
#'   method is better on the full data.
#'   With `effect = FALSE` the map is that of Traub et al.: the cell is
#'   filled when i is significantly better than j and crossed otherwise.
#'   (Traub et al. draw the transpose: their filled cell at (x, y) means y
#'   beats x.)
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
#' @param effect For `"significance"` only: colour each cell by the share of
#'   replicates in which the method on the x axis beats the one on the y
#'   axis (`TRUE`, the default), or fill only the significant cells in one
#'   colour (`FALSE`, the map of Traub et al.). Use `FALSE` to reproduce
#'   their figures or print in black and white. Given with another `type`,
#'   it is ignored with a warning of class `aurc_warning_ignored`.
#' @return A ggplot object.
#' @examples
#' set.seed(3)
#' values <- cbind(a = rnorm(100, 0.10, 0.01), b = rnorm(100, 0.105, 0.01),
#'                 c = rnorm(100, 0.12, 0.01))
#' rk <- rank_replicates(values, metric = "aurc")
#' autoplot(rk)
#' autoplot(rk, p_adjust = "none") # each test on its own at alpha = 0.05
#' autoplot(rk, effect = FALSE) # significance only, as Traub et al.
#' autoplot(rk, type = "blob")
#' @importFrom rlang .data
#' @export
autoplot.aurc_ranking <- function(object, type = c("significance", "blob",
                                                   "bump"),
                                  metrics = NULL, ..., p_adjust = NULL,
                                  alpha = NULL, effect = TRUE) {
  check_dots(...)
  type <- check_choice(first_choice(type),
    c("significance", "blob", "bump"),
    arg = "type"
  )
  check_bool(effect)
  given <- c(
    p_adjust = !is.null(p_adjust), alpha = !is.null(alpha),
    effect = !missing(effect)
  )
  if (any(given) && type != "significance") {
    warn_aurc(
      c(
        "{.arg {names(given)[given]}} only change{?s/} the significance
         map; ignored for {.code type = \"{type}\"}.",
        i = if (any(given[c("p_adjust", "alpha")])) {
          "Use {.code type = \"significance\"}, or
           {.fn adjust_p_values} for the tests themselves."
        } else {
          "Use {.code type = \"significance\"}."
        }
      ),
      class = "aurc_warning_ignored"
    )
  } else if (any(given[c("p_adjust", "alpha")])) {
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
    significance = plot_significance(object, metrics, effect),
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

plot_significance <- function(object, metrics, effect = TRUE) {
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
  crossed <- d[d$significant == "not significant", ]
  if (effect) {
    wins <- ranking_wins(object, tests)
    d$wins <- wins$share
  }
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$x, y = .data$y))
  if (effect) {
    p <- p +
      ggplot2::geom_tile(ggplot2::aes(fill = .data$wins),
        colour = "white", linewidth = 0.6
      ) +
      # the cross with a white halo, visible on dark blue and dark orange
      ggplot2::geom_point(
        data = crossed, shape = 4, size = 2.4, stroke = 1.6,
        colour = "white"
      ) +
      ggplot2::geom_point(
        ggplot2::aes(shape = "not significantly better"),
        data = crossed, size = 2.2, stroke = 0.6, colour = "grey15"
      ) +
      ggplot2::scale_fill_gradient2(
        low = "#b35806", mid = "grey97", high = "#1f4e79", midpoint = 0.5,
        limits = c(0, 1),
        breaks = if (wins$replicates) seq(0, 1, by = 0.25) else c(0, 0.5, 1),
        labels = if (wins$replicates) {
          c("0%", "25%", "50%", "75%", "100%")
        } else {
          c("worse", "tie", "better")
        },
        na.value = "grey80",
        name = if (wins$replicates) "x beats y in" else "x on the full data",
        guide = ggplot2::guide_colourbar(
          title.position = "top", barwidth = ggplot2::unit(10, "lines"),
          barheight = ggplot2::unit(0.6, "lines"), order = 1
        )
      ) +
      ggplot2::scale_shape_manual(
        values = c("not significantly better" = 4), name = NULL,
        guide = ggplot2::guide_legend(order = 2)
      )
    # short lines: a long subtitle is clipped at common figure widths
    subtitle <- paste0(
      if (wins$replicates) {
        paste0(
          "Colour: share of the ", s$times, " replicates in which x (method) ",
          "beats y"
        )
      } else {
        "Colour: which is better on the full data (no replicates kept)"
      },
      "\nCross: x not significantly better (one-sided Wilcoxon signed-rank",
      "\ntest, ", correction, ", alpha = ", format(s$alpha), ")"
    )
  } else {
    p <- p +
      ggplot2::geom_tile(ggplot2::aes(fill = .data$significant),
        colour = "white", linewidth = 0.6
      ) +
      ggplot2::geom_point(
        data = crossed, shape = 4, size = 2, colour = "grey45"
      ) +
      ggplot2::scale_fill_manual(
        values = c(significant = "#1f4e79", "not significant" = "grey92"),
        drop = FALSE, name = NULL
      )
    # short lines: a long subtitle is clipped at common figure widths
    subtitle <- paste0(
      "Filled: the method on the x axis is better than the one on the ",
      "y axis\n(one-sided Wilcoxon signed-rank test over ", s$times,
      " replicates,\n", correction, ", alpha = ", format(s$alpha), ")"
    )
  }
  p +
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
      title = if (effect) {
        "Which method beats which, and how often"
      } else {
        "Which method is significantly better than which"
      },
      subtitle = subtitle
    ) +
    theme_aurc() +
    ggplot2::theme(
      axis.text.x = ggplot2::element_text(angle = 45, hjust = 1),
      panel.grid = ggplot2::element_blank(),
      legend.box = "horizontal"
    )
}

# The share of replicates in which `method` beats `versus`, for each row
# of `tests`: a better value of the metric (lower, or higher where higher
# is better) counts 1, a tie 1/2; replicates where either value is missing
# are left out. Without replicate values (a ranking whose `replicates`
# were dropped) the full-data values stand in as one replicate, so the
# share is 1, 0 or 1/2. Returns the shares and whether replicates were
# used.
ranking_wins <- function(object, tests) {
  reps <- object$replicates
  replicates <- !is.null(reps) && nrow(reps) > 0
  if (!replicates) {
    full <- object$ranking
    reps <- data.frame(
      replicate = 1L, method = full$method, metric = full$metric,
      value = full$full_value, stringsAsFactors = FALSE
    )
    if ("group" %in% names(full)) reps$group <- full$group
  }
  higher <- stats::setNames(
    object$settings$higher_better, object$settings$metrics
  )
  family <- row_key(reps, c("group", "metric"))
  test_family <- row_key(tests, c("group", "metric"))
  share <- rep(NA_real_, nrow(tests))
  for (f in unique(test_family)) {
    rows <- which(test_family == f)
    sub <- reps[family == f, , drop = FALSE]
    methods <- unique(sub$method)
    ids <- unique(sub$replicate)
    values <- matrix(NA_real_, length(ids), length(methods))
    values[cbind(match(sub$replicate, ids), match(sub$method, methods))] <-
      sub$value
    if (isTRUE(higher[[tests$metric[rows[1]]]])) values <- -values
    i <- match(tests$method[rows], methods)
    j <- match(tests$versus[rows], methods)
    share[rows] <- vapply(seq_along(rows), function(k) {
      diff <- values[, i[k]] - values[, j[k]]
      diff <- diff[!is.na(diff)]
      if (!length(diff)) return(NA_real_)
      (sum(diff < 0) + sum(diff == 0) / 2) / length(diff)
    }, numeric(1))
  }
  list(share = share, replicates = replicates)
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
