# Plots of the AURC estimators' statistics (Zhou et al. 2025, Figs. 1-5,
# S8): the batch study, the bias curves and the MSE bound surface.

#' @importFrom rlang .data
NULL

estimator_labels <- c(
  alpha = "alpha (empirical AURC)",
  alpha_prime = "alpha' (-log(1 - r/(n+1)))",
  sele = "SELE (r/n)",
  "2sele" = "2 x SELE (2r/n)",
  trapezoid = "trapezoid rule"
)

# one colour per estimator in every plot (Okabe-Ito)
estimator_colours <- c(
  alpha = "#0072B2", alpha_prime = "#009E73", sele = "#E69F00",
  "2sele" = "#CC79A7", trapezoid = "#56B4E9"
)

# `shown`: the labels in the plot, which set the legend's columns. `fill`:
# also the fill scale (only for plots that map fill: ggplot2 4 warns of a
# manual scale with no data).
estimator_scales <- function(shown = estimator_labels, fill = TRUE) {
  values <- stats::setNames(estimator_colours, estimator_labels)
  guide <- ggplot2::guide_legend(
    ncol = legend_columns(shown), byrow = TRUE, title.position = "top"
  )
  c(
    list(ggplot2::scale_colour_manual(values = values, guide = guide)),
    if (fill) list(ggplot2::scale_fill_manual(values = values, guide = guide))
  )
}

estimator_factor <- function(x) {
  lev <- intersect(names(estimator_labels), unique(x))
  factor(estimator_labels[x], levels = estimator_labels[lev])
}

#' Plot a finite-sample study of the AURC estimators
#'
#' Draws the views of Zhou et al. (2025), Sec. 4: `type = "estimate"` the
#' mean of each estimator over the batches with a band of plus or minus one
#' standard deviation, against the batch size, with the full-set AURC as a
#' dashed line (their Fig. 3); `"bias"` the mean minus the full-set AURC
#' (dashed zero line); `"mse"` and `"mae"` the mean squared or absolute error
#' against the full-set AURC on log-log axes (their Figs. 4-5).
#'
#' @param object An `aurc_batch_study` from [aurc_batch_study()].
#' @param type One of `"estimate"`, `"bias"`, `"mse"`, `"mae"`.
#' @param ... Not used; must be empty.
#' @return A ggplot (not printed).
#' @examples
#' set.seed(1)
#' score <- rnorm(10000)
#' failure <- rbinom(10000, 1, plogis(-1 - 1.5 * score))
#' study <- aurc_batch_study(score, failure, batch_sizes = 2^(3:8))
#' ggplot2::autoplot(study)
#' ggplot2::autoplot(study, type = "mse")
#' @export
autoplot.aurc_batch_study <- function(object, type = "estimate", ...) {
  check_dots(...)
  type <- check_choice(type, c("estimate", "bias", "mse", "mae"))
  d <- object$summary
  d$estimator <- estimator_factor(d$estimator)
  x_scale <- ggplot2::scale_x_continuous(
    trans = "log2", breaks = object$batch_sizes
  )
  x_lab <- "Batch size (samples per batch, log scale)"
  title <- sprintf(
    "AURC estimators on batches of a test set of %s samples",
    format(object$n, big.mark = ",")
  )
  ribbon <- type %in% c("estimate", "bias")
  colour <- list(
    estimator_scales(levels(d$estimator), fill = ribbon),
    if (ribbon) {
      ggplot2::labs(colour = "Estimator", fill = "Estimator")
    } else {
      ggplot2::labs(colour = "Estimator")
    }
  )
  if (type %in% c("estimate", "bias")) {
    shift <- if (type == "bias") object$population else 0
    d$y <- d$mean - shift
    d$lower <- d$y - d$sd
    d$upper <- d$y + d$sd
    ref <- object$population - shift
    y_lab <- if (type == "estimate") {
      "AURC estimate (mean +/- sd)"
    } else {
      "Bias (mean +/- sd)"
    }
    ref_label <- if (type == "estimate") {
      "dashed: AURC of the full test set (alpha)"
    } else {
      "Bias: mean estimate - AURC of the full test set (alpha); dashed: no bias"
    }
    p <- ggplot2::ggplot(
      d, ggplot2::aes(.data$batch_size, .data$y, colour = .data$estimator)
    ) +
      ggplot2::geom_ribbon(
        ggplot2::aes(
          ymin = .data$lower, ymax = .data$upper, fill = .data$estimator
        ),
        alpha = 0.12, colour = NA, na.rm = TRUE
      ) +
      ggplot2::geom_hline(yintercept = ref, linetype = "dashed") +
      ggplot2::geom_line() +
      ggplot2::geom_point() +
      x_scale + colour +
      ggplot2::labs(
        x = x_lab, y = y_lab, caption = ref_label, title = title
      ) +
      theme_aurc()
    return(p)
  }
  what <- if (type == "mse") "Mean squared error" else "Mean absolute error"
  d$y <- d[[type]]
  ggplot2::ggplot(
    d, ggplot2::aes(.data$batch_size, .data$y, colour = .data$estimator)
  ) +
    ggplot2::geom_line() +
    ggplot2::geom_point() +
    x_scale +
    ggplot2::scale_y_log10() +
    colour +
    ggplot2::labs(
      x = x_lab,
      y = paste(what, "(log scale)"),
      title = title,
      caption = "Error against the AURC of the full test set (alpha)"
    ) +
    theme_aurc()
}

#' Plot the bias of the AURC weight estimators
#'
#' The bias of each weight estimator as a function of the population rank
#' percentile `beta`, one panel per sample size `n` (Zhou et al. 2025,
#' Fig. 1 and Fig. S8), computed with [weight_bias()]. The dashed line is
#' zero bias.
#'
#' @param n Sample sizes, one panel each (whole numbers, at least 1).
#' @param estimators Estimators to draw, any of `"alpha"`, `"alpha_prime"`,
#'   `"sele"`, `"2sele"`.
#' @param beta Grid of percentiles in `[0, 1)`. The bias falls to `-Inf` as
#'   `beta` approaches 1 (the population weight `-log(1 - beta)` is
#'   unbounded), so the default grid stops at 0.99.
#' @return A ggplot (not printed).
#' @examples
#' plot_weight_bias(n = c(10, 100, 1000))
#' @export
plot_weight_bias <- function(n = c(10, 50, 100, 1000),
                             estimators = c("alpha", "alpha_prime", "sele"),
                             beta = seq(0, 0.99, by = 0.005)) {
  # (a size given twice is one panel)
  n <- unique(check_nonempty(check_whole_numbers(n), "n"))
  check_estimator_set(estimators, stats_estimators)
  beta <- check_nonempty(check_percentile(beta), "beta")
  grid <- expand.grid(
    beta = beta, n = n, estimator = estimators, stringsAsFactors = FALSE
  )
  grid$bias <- unlist(lapply(estimators, function(e) {
    sub <- grid$estimator == e
    weight_bias_impl(grid$beta[sub], grid$n[sub], e)
  }))
  grid$panel <- factor(
    paste("n =", format(grid$n, big.mark = ",", trim = TRUE)),
    levels = paste("n =", format(n, big.mark = ",", trim = TRUE))
  )
  grid$estimator <- estimator_factor(grid$estimator)
  ggplot2::ggplot(
    grid, ggplot2::aes(.data$beta, .data$bias, colour = .data$estimator)
  ) +
    ggplot2::geom_hline(yintercept = 0, linetype = "dashed") +
    ggplot2::geom_line() +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel)) +
    estimator_scales(levels(grid$estimator))[[1]] +
    ggplot2::scale_x_continuous(limits = c(0, 1)) +
    ggplot2::labs(
      x = "Population rank percentile of the sample (beta)",
      y = "Bias of the weight",
      colour = "Weight estimator",
      title = "Bias of the AURC weight estimators",
      subtitle = "Bias = E[weight] + log(1 - beta); dashed: no bias"
    ) +
    theme_aurc()
}

#' Plot the order bound of the MSE of the AURC weights
#'
#' The bound `beta / (n (1 - beta) + 1)` of Eq. 24 of Zhou et al. (2025)
#' (their Fig. 2) as a surface over the sample size `n` and the population
#' rank percentile `beta`, drawn as a heat map on a log colour scale with
#' contour lines; see [weight_mse_bound()]. The grid may be uneven (each
#' cell reaches halfway to its neighbours), so a log-spaced `n` with
#' `log_n = TRUE` shows the surface over several decades. A single `beta`
#' is drawn as a strip of height 0.01 with the y axis around it only; then
#' there are no contour lines.
#'
#' @param n Grid of sample sizes (whole numbers, at least 1).
#' @param beta Grid of percentiles in `[0, 1]`; zero is left out (the bound
#'   is 0 there, off the log colour scale), and at least one value must
#'   remain.
#' @param log_n If `TRUE`, the sample-size axis is on a log scale.
#' @return A ggplot (not printed).
#' @examples
#' plot_weight_mse_bound()
#' plot_weight_mse_bound(n = round(10^seq(0, 4, by = 0.05)), log_n = TRUE)
#' @export
plot_weight_mse_bound <- function(n = 1:100,
                                  beta = seq(0.01, 0.99, by = 0.01),
                                  log_n = FALSE) {
  n <- check_whole_numbers(n)
  check_bool(log_n)
  n <- check_nonempty(n, "n")
  beta <- check_percentile(beta, upper_closed = TRUE)
  beta <- beta[beta > 0]
  if (length(beta) == 0) {
    abort_aurc(
      c(
        "{.arg beta} must have at least one value above 0.",
        i = "The bound is 0 at {.code beta = 0}, off the log colour scale."
      ),
      class = "aurc_error_value"
    )
  }
  n <- sort(unique(n))
  beta <- sort(unique(beta))
  grid <- expand.grid(n = n, beta = beta)
  grid$bound <- grid$beta / (grid$n * (1 - grid$beta) + 1)
  # each cell reaches halfway to its neighbours, so the cells stay
  # contiguous on an uneven grid and under any monotone axis transform
  # (a single value gets a cell of width 2 * `single`)
  edges <- function(v, lo, hi, single) {
    mid <- (v[-1] + v[-length(v)]) / 2
    half <- if (length(v) > 1) 0.5 * min(diff(v)) else single
    list(
      lower = pmax(c(v[1] - half, mid), lo),
      upper = pmin(c(mid, v[length(v)] + half), hi)
    )
  }
  en <- edges(n, 0.5, Inf, 0.5)
  # one beta is a strip of height 0.01 that fills the panel (the y axis
  # then spans the strip, not [0, 1], so no other beta seems covered)
  eb <- edges(beta, 0, 1, 0.005)
  grid$n_lower <- en$lower[match(grid$n, n)]
  grid$n_upper <- en$upper[match(grid$n, n)]
  grid$beta_lower <- eb$lower[match(grid$beta, beta)]
  grid$beta_upper <- eb$upper[match(grid$beta, beta)]
  # contour lines need a grid in both directions
  contours <- length(n) > 1 && length(beta) > 1
  ggplot2::ggplot(grid, ggplot2::aes(.data$n, .data$beta)) +
    ggplot2::geom_rect(ggplot2::aes(
      xmin = .data$n_lower, xmax = .data$n_upper,
      ymin = .data$beta_lower, ymax = .data$beta_upper, fill = .data$bound
    )) +
    (if (contours) {
      ggplot2::geom_contour(
        ggplot2::aes(z = .data$bound),
        breaks = 10^seq(-4, 0), colour = "white", linewidth = 0.3
      )
    }) +
    ggplot2::scale_fill_viridis_c(
      trans = "log10",
      guide = ggplot2::guide_colourbar(
        title.position = "top", barwidth = ggplot2::unit(16, "lines")
      )
    ) +
    ggplot2::scale_y_continuous(
      limits = if (length(beta) > 1) c(0, 1), expand = c(0, 0),
      breaks = if (length(beta) == 1) beta else ggplot2::waiver()
    ) +
    ggplot2::scale_x_continuous(
      expand = c(0, 0), trans = if (log_n) "log10" else "identity"
    ) +
    ggplot2::labs(
      x = if (log_n) "Sample size (n, log scale)" else "Sample size (n)",
      y = "Population rank percentile (beta)",
      fill = "MSE bound beta / (n (1 - beta) + 1), log scale",
      caption = if (contours) {
        "white lines: bound = 0.1, 0.01, 0.001, 0.0001"
      }
    ) +
    theme_aurc() +
    # room for the last x label, which sits on the panel's right edge
    ggplot2::theme(plot.margin = ggplot2::margin(5.5, 14, 5.5, 5.5))
}
