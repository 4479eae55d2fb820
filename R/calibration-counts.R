# Calibration errors as functions of bootstrap counts, for the bootstrap
# engine of DEFINITIONS Sec. 11: a replicate is a vector of case counts over the
# rows (case i enters counts[i] times), multiplied into the case weights, so
# integer counts give exactly the statistic of the rows repeated.
#
# calibration_counts_statistic() validates the data once and returns
# function(counts) -> number (counts NULL: the estimate on the data).
# * "smooth_ece": needs no sort at all (a deposit on a grid per bandwidth
#   evaluation); the bandwidth is searched again in every replicate unless
#   `sigma` is fixed, so the interval covers the bandwidth choice too.
# * "corp_mcb" (and "corp_dsc", "corp_unc", "corp_mean_score"): the tie
#   groups come from the one sort done here; a replicate is group sums, PAV
#   and the decomposition, all linear, no new sort.
# * "ece", "mce", "debiased_l2_ce": the binning of calibration_bins() on the
#   reweighted data (it sorts again; binning is data-driven for the adaptive,
#   equal-mass and kumar2019 bins, so the bins are re-formed per replicate,
#   as the estimator would form them).
calibration_counts_statistic <- function(metric, confidence, correct,
                                         case_weights = NULL, ...,
                                         sigma = NULL, method = "fine",
                                         score = "brier",
                                         settings = NULL,
                                         call = rlang::caller_env()) {
  input <- smooth_input(confidence, correct, case_weights, TRUE, call)
  if (is.null(input) || identical(input, "missing")) {
    return(function(counts) NA_real_)
  }
  base_w <- input$case_weights
  reweight <- function(counts) {
    if (is.null(counts)) return(input)
    w <- if (length(base_w)) base_w * counts else as.double(counts)
    keep <- w > 0
    list(
      confidence = input$confidence[keep], correct = input$correct[keep],
      case_weights = w[keep]
    )
  }
  switch(metric,
    smooth_ece = {
      opts <- smooth_options(sigma, method, call)
      function(counts) as.numeric(smooth_ece_counts(input, counts, opts))
    },
    corp_mcb = ,
    corp_dsc = ,
    corp_unc = ,
    corp_mean_score = {
      prepared <- corp_prepare(input)
      part <- sub("^corp_", "", metric)
      function(counts) corp_counts(prepared, counts, score)[[part]]
    },
    ece = ,
    mce = ,
    debiased_l2_ce = {
      if (is.null(settings)) {
        settings <- calibration_settings(
          "adaptive", TRUE, 10, 0.9, 40, 0.05, NULL, call
        )
      }
      function(counts) {
        data <- reweight(counts)
        tab <- calibration_table(data, settings, call)
        if (metric == "debiased_l2_ce") return(debiased_l2_ce(tab))
        attr(tab, metric)
      }
    },
    abort_aurc("Unknown calibration metric {.val {metric}}.",
      class = "aurc_error_value", call = call
    )
  )
}
