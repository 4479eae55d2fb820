# Influence function of the risk at coverage with fd-shifts' rule
# (risk_at_coverage(rule = "lowest_risk"): the lowest selective risk among
# the working points of coverage at least c), for the analytic intervals of
# selective_ci() and the tests of compare_scores().
#
# theta = min_{u >= c} R(u). By the envelope theorem the minimiser's own
# movement does not change theta to first order, so the influence function
# is that of the risk at the minimising coverage u* held fixed: the
# tie-closed risk at coverage u* (src/core/influence_kernels.h), where u*
# is the coverage the rule achieved on the data. When the risk rises with
# coverage (the usual case) u* = c and this is the tie-closed rule's own
# influence function.

lowest_risk_influence <- function(score, loss, case_weights, options) {
  w <- if (is.null(case_weights)) double() else as.double(case_weights)
  fit <- metrics_impl(as.double(score), as.double(loss), w,
    metric_kernels("risk_at_coverage", options), "alpha", "trapezoid",
    "exact", as.double(options$coverage), 0.5, sort_threads()
  )
  achieved <- fit$achieved_coverage
  n <- length(score)
  if (is.na(achieved)) {
    return(list(estimate = NA_real_, influence = rep(NA_real_, n),
      std_error = NA_real_))
  }
  at <- utils::modifyList(options, list(
    coverage = achieved, rule = "tie_closed"
  ))
  res <- metric_influence_many(score, loss, case_weights, "risk_at_coverage",
    at
  )
  list(
    estimate = fit$values[[1]], influence = res$influence[, 1],
    std_error = unname(res$std_error[1])
  )
}
