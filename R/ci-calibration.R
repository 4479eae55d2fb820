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
    binning = "adaptive", n_bins_given = FALSE, span = 0.75, eps = 1e-8
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
      ici = , e50 = , e90 = , emax = if (span == 0.75) "loess" else
        paste0("loess/span=", format(span)),
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
