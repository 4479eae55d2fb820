#' Plot a selective curve or a sparsification curve
#'
#' Draws the metric of the rows kept against coverage
#' ([selective_curve()]), or the error of the rows kept against the
#' fraction removed ([sparsification_curve()]), as steps: each value holds
#' over the coverage its tie group adds, so the area under the steps is the
#' area reported ([selective_curve_area()], the AUSE). The oracle ordering
#' is dashed. Curves of a grouped data frame get one colour per group, with
#' their area (or AUSE) in the legend.
#'
#' @param object An `aurc_selective_curve` or `aurc_sparsification_curve`.
#' @param oracle If `TRUE` (default), draw the oracle curve (when there is
#'   one).
#' @param ... Not used; must be empty.
#' @return A ggplot object (not printed).
#' @examples
#' set.seed(2)
#' sigma <- runif(300, 0.2, 2)
#' error <- abs(rnorm(300, sd = sigma))
#' ggplot2::autoplot(sparsification_curve_vec(sigma, error))
#' truth <- rbinom(300, 1, 0.4)
#' estimate <- ifelse(runif(300) < 0.9 - sigma / 4, truth, 1 - truth)
#' ggplot2::autoplot(selective_curve_vec(-sigma, truth, estimate,
#'   metric = "mcc", oracle_loss = truth != estimate, min_coverage = 0.05
#' ))
#' @name autoplot.aurc_selective_curve
#' @export
autoplot.aurc_selective_curve <- function(object, oracle = TRUE, ...) {
  check_dots(...)
  check_bool(oracle)
  metric <- attr(object, "metric")
  label <- switch(metric,
    accuracy = "Accuracy", balanced_accuracy = "Balanced accuracy",
    f1 = "F1", mcc = "MCC", auroc = "AUROC", brier = "Brier score",
    rmse = "RMSE", mae = "MAE", user = "Metric"
  )
  # acronyms keep their capitals in the title
  in_title <- if (metric %in% c("mcc", "auroc", "rmse", "mae", "f1")) {
    label
  } else {
    tolower(label)
  }
  areas <- attr(object, "areas")
  area_label <- paste("area", trimws(format_area(areas$area)))
  if (oracle && any(!is.na(areas$oracle_area))) {
    area_label <- paste0(area_label, ", excess ",
      trimws(format_area(areas$excess))
    )
  }
  step_curve_plot(
    object, attr(object, "oracle"), x = "coverage", y = "value",
    group_vars = attr(object, "group_vars"), oracle = oracle,
    area_label = area_label,
    labs = ggplot2::labs(
      x = "Coverage (share of predictions accepted)",
      y = label,
      title = paste("Selective", in_title, "curve"),
      subtitle = paste0(
        "On the accepted predictions",
        if (identical(attr(object, "direction"), "minimize")) {
          " (lower is better)"
        } else if (identical(attr(object, "direction"), "maximize")) {
          " (higher is better)"
        }
      )
    ),
    shape = "step_left",
    from_zero = !identical(attr(object, "direction"), "maximize")
  )
}

#' @rdname autoplot.aurc_selective_curve
#' @export
autoplot.aurc_sparsification_curve <- function(object, oracle = TRUE, ...) {
  check_dots(...)
  check_bool(oracle)
  definition <- attr(object, "definition")
  areas <- attr(object, "areas")
  step_curve_plot(
    object, attr(object, "oracle"), x = "fraction_removed", y = "error",
    group_vars = attr(object, "group_vars"), oracle = oracle,
    area_label = paste("AUSE", trimws(format_area(areas$ause))),
    labs = ggplot2::labs(
      x = "Fraction removed (most uncertain first)",
      y = if (definition == "ilg") {
        "Mean error of the rows kept"
      } else {
        "Share of the total error kept"
      },
      title = "Sparsification curve",
      subtitle = paste0(
        "AUSE: area between the curve and its oracle (",
        if (definition == "ilg") "Ilg et al. 2018" else "torch-uncertainty",
        ")"
      )
    ),
    shape = if (definition == "ilg") "step_right" else "line",
    from_zero = TRUE
  )
}

# Curves through the points of `curve` and `oracle` (columns x, y, and
# the grouping columns). `shape`: "step_left" (x is coverage: each value
# holds from the previous coverage up to its own), "step_right" (x is the
# fraction removed: each value holds from its fraction up to the next) or
# "line" (linear between the points). `from_zero`: the y axis starts at 0
# (errors, losses); else it spans the values drawn (a metric to maximise,
# whose curves of good models sit near 1).
step_curve_plot <- function(curve, oracle_curve, x, y, group_vars, oracle,
                            area_label, labs, shape, from_zero) {
  group_of <- function(d) {
    if (length(group_vars) == 0) return(rep("all", nrow(d)))
    do.call(paste, c(lapply(group_vars, function(v) {
      as.character(d[[v]])
    }), sep = " / "))
  }
  kinds <- c("Score", "Oracle (ordered by loss)")
  steps <- function(d, kind) {
    if (nrow(d) == 0) return(NULL)
    g <- group_of(d)
    out <- lapply(split(seq_len(nrow(d)), factor(g, unique(g))), function(r) {
      xs <- d[[x]][r]
      ys <- d[[y]][r]
      keep <- thin_points(length(xs))
      xs <- xs[keep]
      ys <- ys[keep]
      # the first value holds from coverage 0 (step_left) or the last up
      # to a fraction removed of 1 (step_right)
      if (shape == "step_left") {
        xs <- c(0, xs)
        ys <- c(ys[1], ys)
      } else if (shape == "step_right") {
        xs <- c(xs, 1)
        ys <- c(ys, ys[length(ys)])
      }
      tibble::tibble(x = xs, y = ys, group = g[r][1])
    })
    out <- do.call(rbind, out)
    out$line <- factor(kind, levels = kinds)
    out
  }
  d <- rbind(
    steps(curve, kinds[1]),
    if (oracle) steps(oracle_curve, kinds[2])
  )
  groups <- unique(group_of(curve))
  grouped <- length(group_vars) > 0
  # an oracle that is the same for every group (scores of one model) is
  # drawn once, in grey, not in the colour of the group drawn last
  rows <- d$line == kinds[2]
  if (grouped && length(groups) > 1 && any(rows)) {
    parts <- split(d[rows, c("x", "y")], d$group[rows])
    same <- length(parts) == length(groups) && all(vapply(parts,
      function(p) isTRUE(all.equal(p, parts[[1]], check.attributes = FALSE)),
      logical(1)
    ))
    if (same) {
      d <- d[!rows | d$group == groups[1], , drop = FALSE]
      d$group[d$line == kinds[2]] <- NA_character_
    }
  }
  d$path <- paste(d$group, as.integer(d$line))
  d$group <- factor(d$group, levels = groups)
  colour <- if (grouped) rlang::sym("group") else rlang::sym("line")
  drawn <- c(d$y[is.finite(d$y)], if (from_zero) 0)
  if (!length(drawn)) drawn <- c(0, 1)
  y_top <- max(drawn)
  y_bottom <- min(drawn)
  if (y_top <= y_bottom) y_top <- y_bottom + 1
  geom <- if (shape == "line") {
    ggplot2::geom_line(na.rm = TRUE)
  } else {
    ggplot2::geom_step(
      direction = if (shape == "step_left") "vh" else "hv", na.rm = TRUE
    )
  }
  p <- ggplot2::ggplot(d, ggplot2::aes(
    x = .data$x, y = .data$y, group = .data$path,
    linetype = .data$line, colour = !!colour
  )) +
    geom +
    ggplot2::scale_x_continuous(limits = c(0, 1)) +
    ggplot2::scale_y_continuous(limits = c(y_bottom, y_top)) +
    labs +
    theme_aurc()
  kinds <- levels(droplevels(d$line))
  if (grouped) {
    p + group_colour_scale(groups, area_label, na_value = "grey45") +
      ggplot2::scale_linetype_manual(
        values = c("solid", "dashed")[seq_along(kinds)], name = NULL,
        guide = if (length(kinds) > 1) {
          ggplot2::guide_legend(order = 2)
        } else {
          "none"
        }
      ) +
      ggplot2::labs(colour = paste(group_vars, collapse = " / "))
  } else {
    labels <- kinds
    labels[1] <- paste0("Score (", area_label, ")")
    p + ggplot2::scale_colour_manual(
      values = c("black", "#1b9e77")[seq_along(kinds)], labels = labels,
      name = NULL
    ) +
      ggplot2::scale_linetype_manual(
        values = c("solid", "dashed")[seq_along(kinds)], labels = labels,
        name = NULL
      )
  }
}

# At most `max_points` evenly spread indices of 1..n (the ends kept), so a
# strict oracle of a million rows draws quickly.
thin_points <- function(n, max_points = 2000) {
  if (n <= max_points) return(seq_len(n))
  unique(round(seq(1, n, length.out = max_points)))
}
