# Intervals for the calibration errors (SPEC Secs. 11 and 13): which
# metrics selective_ci() takes as calibration errors, their labels and
# options, and the refusal of method = "analytic" for those without an
# influence function. The bootstrap itself is the engine of
# R/ci-bootstrap.R: a replicate is a vector of case counts over the cases
# sorted once by confidence, and each error is computed from it in C++
# (src/core/calibration_replicate.h) with no new sort:
#   ece, mce, debiased_l2_ce   per-bin sums over n_bins equal-width bins
#   corp_*                     the tie groups' summed counts, then PAV and
#                              the score decomposition (one linear pass)
#   smooth_ece                 the counts as case weights of the kernel
#                              deposit; the bandwidth is searched again in
#                              every replicate unless `sigma` is fixed.

# The calibration errors: the score is the confidence (in [0, 1]) and the
# loss the 0/1 failure indicator (correct = 1 - loss).
ci_calibration_metrics <- c(
  "ece", "mce", "debiased_l2_ce", "smooth_ece", "corp_mean_score",
  "corp_mcb", "corp_dsc", "corp_unc"
)

# Metrics without an influence function: bootstrap only.
ci_bootstrap_only <- c(
  "mce", "debiased_l2_ce", "smooth_ece", "corp_mean_score", "corp_mcb",
  "corp_dsc", "corp_unc"
)

# The calibration metrics of the spec with their labels and options.
ci_calibration_spec <- function(spec, cal, n_bins, calibration, call) {
  n_bins <- check_number(n_bins, 1, 1e6, whole = TRUE, call = call)
  defaults <- list(sigma = NULL, smooth_method = "fine", corp_score = "brier")
  calibration <- utils::modifyList(defaults, as.list(calibration))
  smooth <- smooth_options(calibration$sigma, calibration$smooth_method,
    call
  )
  corp_score <- check_choice(calibration$corp_score, c("brier", "log"),
    arg = "corp_score", call = call
  )
  bins <- paste0("equal_width/n_bins=", n_bins)
  smooth_label <- paste0(
    smooth$method, "/sigma=",
    if (is.null(smooth$sigma)) "fixed_point" else format(smooth$sigma)
  )
  labels <- vapply(cal, function(m) {
    switch(m,
      ece = , mce = , debiased_l2_ce = bins,
      smooth_ece = smooth_label,
      corp_score
    )
  }, character(1))
  spec$metrics <- c(spec$metrics, cal)
  spec$labels <- c(spec$labels, unname(labels))
  spec$binary <- TRUE
  spec$sigma <- smooth$sigma
  spec$smooth_method <- smooth$method
  spec$corp_score <- corp_score
  spec
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
      i = "Use {.code method = \"bootstrap\"} for the calibration errors."
    ),
    class = c("aurc_error_method", "aurc_error_value"), call = call
  )
}

# The options of the smooth ECE and the CORP parts for the kernel (sigma
# NaN: the fixed point, found as smooth_ece_vec() finds it).
ci_calibration_options <- function(opt) {
  list(
    sigma = if (is.null(opt$sigma)) NaN else as.double(opt$sigma),
    smooth_method = opt$smooth_method, corp_score = opt$corp_score,
    eps = smooth_sigma_floor, steps = smooth_bisection_steps
  )
}
