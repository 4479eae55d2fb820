# Intervals for the calibration errors (DEFINITIONS Secs. 11 and 13): which
# metrics selective_ci() takes as calibration errors, their labels and
# options, and the refusal of method = "analytic" for those without an
# influence function. The bootstrap itself is the engine of
# R/ci-bootstrap.R: a replicate is a vector of case counts over the cases
# sorted once by confidence, and each error is computed from it in C++
# (src/core/calibration_replicate.h) with no new sort:
#   ece, mce, debiased_l2_ce   per-bin sums over n_bins equal-width bins, or
#                              over the adaptive or equal-mass bins of the
#                              full data, held fixed (ci_bin_edges())
#   corp_*                     the tie groups' summed counts, then PAV and
#                              the score decomposition (one linear pass)
#   smooth_ece                 the counts as case weights of the kernel
#                              deposit; the bandwidth is searched again in
#                              every replicate unless `sigma` is fixed.

# The calibration errors (ci_calibration_metrics, from the catalog of
# R/metric-catalog.R): the score is the confidence (in [0, 1]) and the
# loss the 0/1 failure indicator (correct = 1 - loss). Those without an
# influence function (ci_bootstrap_only) have bootstrap intervals only.

# The binnings of the binned calibration errors in selective_ci() and
# compare_scores(): adaptive and equal-mass bins are found on the data (as
# ece() finds them) and then held fixed for the influence function and
# every bootstrap replicate, as the equal-width bins are.
ci_binnings <- c("adaptive", "equal_width", "equal_mass")
# (ci_binned_metrics: the catalog's entries with `binned = TRUE`)

# The calibration metrics of the spec with their labels and options.
ci_calibration_spec <- function(spec, cal, n_bins, calibration, call) {
  n_bins <- check_number(n_bins, 1, 1e6, whole = TRUE, call = call)
  defaults <- list(
    sigma = NULL, smooth_method = "fine", corp_score = "brier",
    binning = "adaptive", n_bins_given = FALSE, span = 0.75, eps = 1e-8,
    smoother = "loess", span_given = FALSE
  )
  calibration <- utils::modifyList(defaults, as.list(calibration))
  binning <- check_choice(calibration$binning, ci_binnings,
    arg = "binning", call = call
  )
  if (binning == "adaptive" && isTRUE(calibration$n_bins_given) &&
    any(cal %in% ci_binned_metrics)) {
    warn_aurc(
      c(
        "{.arg n_bins} is ignored with {.code binning = \"adaptive\"}.",
        i = paste(
          "Adaptive bins take their number from the data; for a fixed",
          "number of bins use {.code binning = \"equal_width\"} or",
          "{.val equal_mass}."
        )
      ),
      class = "aurc_warning_ignored", call = call
    )
  }
  smooth <- smooth_options(calibration$sigma, calibration$smooth_method,
    call,
    method_arg = "smooth_method"
  )
  corp_score <- check_choice(calibration$corp_score, c("brier", "log"),
    arg = "corp_score", call = call
  )
  span <- check_span(calibration$span, call)
  smoother <- check_smoother(calibration$smoother,
    isTRUE(calibration$span_given) && any(cal %in% ici_metrics), call
  )
  eps <- check_eps(calibration$eps, call)
  bins <- if (binning == "adaptive") {
    "adaptive"
  } else {
    paste0(binning, "/n_bins=", n_bins)
  }
  smooth_label <- paste0(
    smooth$method, "/sigma=",
    if (is.null(smooth$sigma)) "fixed_point" else format(smooth$sigma)
  )
  labels <- vapply(cal, function(m) {
    switch(m,
      ece = , mce = , debiased_l2_ce = bins,
      smooth_ece = smooth_label,
      ici = , e50 = , e90 = , emax = if (smoother == "lowess") {
        "lowess"
      } else if (span == 0.75) {
        "loess"
      } else {
        paste0("loess/span=", format(span))
      },
      brier_score = , scaled_brier_score = , log_loss = "binary",
      calibration_slope = , calibration_intercept = if (eps == 1e-8) {
        "logistic"
      } else {
        paste0("logistic/eps=", format(eps))
      },
      corp_score
    )
  }, character(1))
  spec$metrics <- c(spec$metrics, cal)
  spec$labels <- c(spec$labels, unname(labels))
  spec$binary <- TRUE
  spec$sigma <- smooth$sigma
  spec$smooth_method <- smooth$method
  spec$corp_score <- corp_score
  spec$binning <- binning
  spec$span <- span
  spec$smoother <- smoother
  spec$eps <- eps
  spec
}

# The upper edges of the data-driven bins of one score (NULL for
# equal-width bins or without a binned metric): the bins of ece() with the
# same binning and its default options (conf_level = 0.9, min_remaining =
# 40, min_range = 0.05 for adaptive bins), on the cases as given.
ci_bin_edges <- function(spec, score, loss, case_weights, call) {
  if (is.null(spec$binning) || spec$binning == "equal_width" ||
    !any(spec$metrics %in% ci_binned_metrics)) {
    return(NULL)
  }
  settings <- list(
    binning = spec$binning, n_bins = spec$n_bins, conf_level = 0.9,
    z = round(stats::qnorm(0.95), 3), min_remaining = 40, min_range = 0.05,
    breaks = NULL
  )
  input <- list(
    confidence = as.double(score), correct = 1 - as.double(loss),
    case_weights = if (is.null(case_weights)) double() else
      as.double(case_weights)
  )
  res <- calibration_kernel(input, settings, call)
  res$max_confidence[res$n > 0]
}

# method = "analytic" needs an influence function for every metric.
ci_check_analytic <- function(metrics, call) {
  bad <- intersect(metrics, ci_bootstrap_only)
  if (length(bad) == 0) return(invisible())
  abort_aurc(
    c(
      paste(
        "{.arg method} = {.val analytic} is not available for {.val {bad}}:",
        "no influence function."
      ),
      i = "Use {.code method = \"bootstrap\"}."
    ),
    class = c("aurc_error_method", "aurc_error_value"), call = call
  )
}

# The options of the smooth ECE and the CORP parts for the kernel (sigma
# NaN: the fixed point, found as smooth_ece_vec() finds it).
ci_calibration_options <- function(opt) {
  out <- list(
    sigma = if (is.null(opt$sigma)) NaN else as.double(opt$sigma),
    smooth_method = opt$smooth_method, corp_score = opt$corp_score,
    eps = smooth_sigma_floor, steps = smooth_bisection_steps
  )
  # one vector of edges for every score, or a list with one per score
  if (!is.null(opt$edges)) {
    out$edges <- if (is.list(opt$edges)) {
      lapply(opt$edges, as.double)
    } else {
      as.double(opt$edges)
    }
  }
  out
}

# ---- the ECE's lower bound at perfect calibration ------------------------
#
# The ECE is never below 0 and is biased upwards: a perfectly calibrated
# model has an ECE around sqrt(bins / n), and no interval centred on the
# estimate or on the bootstrap's replicates holds 0 (measured by
# studies/ci-ece-small-n.R: 0-77% of them at a true ECE of 0). So the
# ECE's interval (every method) has its lower bound at 0 whenever the data
# are consistent with perfect calibration: when the ECE does not exceed the
# conf_level quantile of its distribution under calibration, with the bins
# held as they are. Under calibration each bin's sum S_b = sum w (y - p)
# has mean 0 and variance V_b = sum w p (1 - p) (weights count rows), and
# the ECE is sum_b |S_b| / W: a sum of half-normal terms of scales
# sqrt(V_b) / W, whose quantile is found by convolving their densities on a
# grid (a normal approximation beyond 50 bins). No random numbers are
# drawn. At a true ECE of 0 the interval then holds 0 with probability
# about conf_level.

ci_ece_null_quantile <- function(score, case_weights, spec, conf_level,
                                 importance = FALSE) {
  w <- if (is.null(case_weights)) rep(1, length(score)) else case_weights
  edges <- spec$edges
  bin <- if (is.null(edges)) {
    k <- spec$n_bins
    findInterval(score, seq_len(k - 1) / k, left.open = TRUE) + 1L
  } else {
    pmin(findInterval(score, edges, left.open = TRUE) + 1L, length(edges))
  }
  # weights at any scale: times 2^e, exact; the scales below are then
  # 2^(e / 2) too small for counts (V grows as w, W as w), right for
  # importance weights (both as w^2)
  e <- scale_free_exponent(max(w))
  w <- times_pow2(w, e)
  total <- sum(w)
  # importance weights: the sandwich's sum w^2 p (1 - p) over the cases
  v <- as.vector(rowsum((if (importance) w^2 else w) * score * (1 - score),
    bin
  ))
  s <- sqrt(v[v > 0]) / total
  if (!importance) s <- s * 2^(e / 2)
  half_normal_sum_quantile(s, conf_level)
}

# The p-quantile of sum_b |Z_b| s_b, Z_b independent standard normal.
half_normal_sum_quantile <- function(s, p) {
  if (!length(s)) return(0)
  if (length(s) > 50) {
    m <- sum(s) * sqrt(2 / pi)
    sd <- sqrt(sum(s^2) * (1 - 2 / pi))
    return(m + stats::qnorm(p) * sd)
  }
  g <- 4096L
  upper <- 7 * sum(s)
  h <- upper / g
  x <- (seq_len(g) - 1) * h
  f <- rep(1 + 0i, g)
  for (sb in s) {
    # the mass of |Z| sb in each cell [x - h/2, x + h/2) (from 0 at x = 0)
    hi <- 2 * stats::pnorm(pmin(x + h / 2, upper) / sb) - 1
    lo <- 2 * stats::pnorm(pmax(x - h / 2, 0) / sb) - 1
    f <- f * stats::fft(hi - lo)
  }
  dens <- pmax(Re(stats::fft(f, inverse = TRUE)) / g, 0)
  cum <- cumsum(dens) / sum(dens)
  x[which(cum >= p)[1]]
}

# The quantile for ci_ece_lower_at_calibration(), NULL without the ECE;
# `input` of ci_input() with the weights as given.
ci_ece_null_bound <- function(spec, input) {
  if (!"ece" %in% spec$metrics) return(NULL)
  ci_ece_null_quantile(input$score, input$case_weights, spec,
    spec$conf_level,
    importance = isTRUE(input$importance)
  )
}

# Sets the ECE's lower bound to 0 where the data are consistent with
# perfect calibration (see above): `out` the table of ci_table(), `q` of
# ci_ece_null_bound().
ci_ece_lower_at_calibration <- function(out, spec, q) {
  j <- which(spec$metrics == "ece" & !is.na(out$.estimate))
  if (!length(j) || is.null(q)) return(out)
  if (out$.estimate[j] <= q) out$.lower[j] <- 0
  out
}
