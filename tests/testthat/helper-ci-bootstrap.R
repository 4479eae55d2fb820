# Helpers for test-ci-bootstrap.R: the engine called with defaults, and the
# package's _vec metrics on data rebuilt from a replicate's counts.

run_ci_bootstrap <- function(scores, loss, metrics, case_weights = NULL,
                             options = list(), times = 50, strata = NULL,
                             cluster = NULL, indices = NULL, threads = 1,
                             type = "percentile", conf_level = 0.95,
                             influence = NULL) {
  aurc:::ci_bootstrap(
    scores, loss, case_weights, metrics, options, times, strata, cluster,
    indices, threads, type, conf_level, influence
  )
}

# The package's _vec value of `metric` (with `options`) on score/loss with
# case weights w (NULL: none).
vec_metric <- function(metric, score, loss, w, options) {
  o <- utils::modifyList(
    list(estimator = "alpha", method = "trapezoid", optimum = "exact",
         n_bins = 10),
    options
  )
  switch(metric,
    aurc = aurc_vec(score, loss, estimator = o$estimator, case_weights = w),
    augrc = augrc_vec(score, loss, method = o$method, case_weights = w),
    failure_auroc = failure_auroc_vec(score, loss, case_weights = w),
    failure_aupr = failure_aupr_vec(score, loss, case_weights = w),
    eaurc = eaurc_vec(score, loss,
      estimator = o$estimator, optimum = o$optimum, case_weights = w
    ),
    eaugrc = eaugrc_vec(score, loss, case_weights = w),
    naurc = naurc_vec(score, loss, estimator = o$estimator, case_weights = w),
    risk_at_coverage = risk_at_coverage_vec(score, loss,
      coverage = o$coverage, case_weights = w
    ),
    coverage_at_risk = coverage_at_risk_vec(score, loss,
      risk = o$risk, case_weights = w
    ),
    ece = ece_vec(score, 1 - loss,
      binning = "equal_width", n_bins = o$n_bins, case_weights = w
    ),
    mce = mce_vec(score, 1 - loss,
      binning = "equal_width", n_bins = o$n_bins, case_weights = w
    ),
    debiased_l2_ce = ece_vec(score, 1 - loss,
      binning = "equal_width", n_bins = o$n_bins, debias = TRUE,
      case_weights = w
    ),
    smooth_ece = as.numeric(smooth_ece_vec(score, 1 - loss,
      sigma = o$sigma,
      method = if (is.null(o$smooth_method)) "fine" else o$smooth_method,
      case_weights = w
    )),
    corp_mean_score = ,
    corp_mcb = ,
    corp_dsc = ,
    corp_unc = {
      dec <- corp_decomposition(
        data.frame(f = score, y = 1 - loss, w = if (is.null(w)) 1 else w),
        f, y,
        score = if (is.null(o$corp_score)) "brier" else o$corp_score,
        case_weights = if (is.null(w)) NULL else w
      )
      dec[[sub("^corp_", "", metric)]]
    }
  )
}

# Replicate b's data: every row repeated by its count.
rebuild_rows <- function(counts, b) rep(seq_along(counts[b, ]), counts[b, ])
