# Influence functions of the LLM metrics (R/metric-llm-correlation.R) for
# their analytic intervals and paired comparisons in selective_ci() and
# compare_scores(). The score is a confidence, the quality (`o$quality`,
# as given; else 1 - loss) higher is better. Without case weights (the
# forms refuse them) but for the thresholded AUROC.
#
# Spearman's rho and Kendall's tau-b (with ties) have the influence values
# of spearman_rho_influence() and kendall_tau_b_influence()
# (R/ci-influence-llm-correlation.R, the "influence" standard error of
# uncertainty_correlation_ci(): the correlations as functions of
# V-statistics, exact for ties).
#
# The AUROC of a thresholded quality is the failure AUROC of the failure
# indicator quality < threshold: the failure AUROC's kernel (DeLong).
llm_influence_of <- function(metric) {
  function(score, loss, case_weights, o) {
    score <- as.double(score)
    q <- o$quality %||% (1 - as.double(loss))
    if (metric == "quality_auroc") {
      return(quality_auroc_influence(score, q, case_weights, o))
    }
    est <- rank_correlation(list(score = score, quality = q), metric,
      o$call
    )
    if (is.na(est)) return(NULL) # (rank_correlation() said why)
    inf <- if (metric == "spearman") {
      spearman_rho_influence(score, q)$influence
    } else {
      kendall_tau_b_influence(score, q)$influence
    }
    list(
      estimate = est, influence = inf,
      std_error = influence_std_error(inf, case_weights)
    )
  }
}

# The failure AUROC of quality < threshold, its estimate that of
# quality_auroc_vec().
quality_auroc_influence <- function(score, q, case_weights, o) {
  failure <- as.double(q < o$threshold)
  est <- withCallingHandlers(
    quality_auroc_vec(score, q, o$threshold, case_weights = case_weights),
    aurc_warning_one_class = function(cnd) invokeRestart("muffleWarning")
  )
  if (is.na(est)) return(NULL) # (ci_undefined() warns)
  res <- metric_influence_many(score, failure, case_weights,
    "failure_auroc", o
  )
  list(
    estimate = est, influence = res$influence[, 1],
    std_error = unname(res$std_error[1])
  )
}
