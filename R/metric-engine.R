# The engine shared by every metric of Traub et al.: validate and apply the
# NA rule, then evaluate the requested metrics on one sort of the scores in
# C++ (src/rcpp_metrics.cpp). Each public metric is a thin wrapper.

# `metrics`: names understood by metrics_impl(). Returns the values (NA
# where undefined, with a classed warning) in the order of `metrics`, with
# the coverage achieved by risk_at_coverage as attribute "coverage".
compute_metrics <- function(score, loss, metrics, na_rm, case_weights, call,
                            binary = FALSE, loss_arg = "loss",
                            estimator = "alpha", method = "trapezoid",
                            optimum = "exact", coverage = 0.5, risk = 0.5) {
  input <- prepare_metric_input(
    score, loss, case_weights, na_rm,
    loss_arg = loss_arg, binary = binary, call = call,
    rescale = weights_scale_free(metrics, optimum, estimator)
  )
  if (is.null(input)) {
    out <- rep(NA_real_, length(metrics))
    attr(out, "coverage") <- NA_real_
    return(out)
  }
  res <- metrics_impl(
    input$score, input$loss, input$case_weights, metrics,
    estimator, method, optimum, coverage, risk, sort_threads(call)
  )
  out <- res$values
  for (j in which(is.nan(out))) {
    if (metrics[j] == "augrc_identity") {
      warn_one_class(metrics[j], call = call)
    } else {
      warn_metric_undefined(metrics[j], call = call, no_data = FALSE)
    }
    out[j] <- NA_real_
  }
  attr(out, "coverage") <- res$achieved_coverage
  out
}
