#' Several selective-classification metrics at once
#'
#' Computes a chosen set of metrics from one sort of the scores (and, for
#' the exact optimum of [eaurc()] and [naurc()], one of the losses): the tie
#' groups are built once in C++ and every metric is a linear pass over them,
#' so the whole set costs little more than its slowest member.
#'
#' Metrics (with the options that apply to them):
#' `"aurc"` ([aurc_vec()], `estimator`), `"augrc"` ([augrc_vec()],
#' `method`), `"failure_auroc"`, `"failure_aupr"` ([failure_auroc_vec()]),
#' `"eaurc"` ([eaurc_vec()], `estimator`, `optimum`), `"eaugrc"`
#' ([eaugrc_vec()]), `"naurc"` ([naurc_vec()], `estimator`),
#' `"risk_at_coverage"` (`coverage`), `"coverage_at_risk"` (`risk`),
#' `"partial_aurc"`, `"partial_augrc"` ([partial_aurc_vec()],
#' `coverage_range`), `"fpr_at_tpr"` (`tpr`), `"achievable_aurc"`
#' ([fpr_at_tpr_vec()]), `"auarc"` ([auarc_vec()], `estimator`) and `"prr"`
#' ([prr_vec()], `max_rejection`); the last two read the loss as
#' `1 - quality`.
#' `"failure_auroc"`, `"failure_aupr"`, `"eaugrc"`, `"fpr_at_tpr"`,
#' `"achievable_aurc"` and `"eaurc"` with
#' `optimum = "asymptotic"` need a 0/1 loss.
#'
#' @inheritParams aurc
#' @param metrics The metrics to compute, a character vector (see Details).
#'   The default holds those defined for any loss.
#' @param estimator AURC estimator of `"aurc"`, `"eaurc"` and `"naurc"`.
#' @param method AUGRC method, `"trapezoid"` or `"step"`.
#' @param optimum Optimum of `"eaurc"`, `"exact"` or `"asymptotic"`.
#' @param coverage Target coverage of `"risk_at_coverage"` (needed only
#'   then).
#' @param risk Target risk of `"coverage_at_risk"` (needed only then).
#' @param max_rejection The largest share rejected, for `"prr"`.
#' @param coverage_range The range of coverage `c(c1, c2)` of
#'   `"partial_aurc"` and `"partial_augrc"` (needed only then).
#' @param rule The rule of `"risk_at_coverage"`, `"tie_closed"` or
#'   `"lowest_risk"` ([risk_at_coverage()]).
#' @param tpr The true positive rate of `"fpr_at_tpr"`.
#' @return A tibble with one row per metric (and group of a grouped data
#'   frame): the grouping columns, then `.metric`, `.estimator`, `.estimate`,
#'   with the same values as the single metrics.
#' @examples
#' set.seed(1)
#' df <- data.frame(score = runif(200), model = rep(c("a", "b"), 100))
#' df$failure <- rbinom(200, 1, 0.5 - 0.4 * df$score)
#' selective_metrics(df, score, failure)
#' selective_metrics(df, score, failure,
#'   metrics = c("augrc", "failure_auroc", "risk_at_coverage"),
#'   coverage = 0.8
#' )
#' selective_metrics_vec(df$score, df$failure, metrics = c("aurc", "naurc"))
#' @export
selective_metrics <- function(data, score, loss, metrics = default_metrics,
                              ..., estimator = "alpha", method = "trapezoid",
                              optimum = "exact", coverage = NULL, risk = NULL,
                              max_rejection = 1, coverage_range = NULL,
                              rule = "tie_closed", tpr = 0.95,
                              na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- metric_set_spec(
    metrics, estimator, method, optimum, coverage, risk, call,
    max_rejection = max_rejection, coverage_range = coverage_range,
    rule = rule, tpr = tpr
  )
  if (is_remote_data(data)) {
    return(selective_metrics_remote(data, list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ), spec, na_rm, call))
  }
  check_data_frame(data, call = call)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ),
    c("score", "loss", "case_weights")
  )
  groups <- data_groups(data)
  res <- metrics_by_group(
    values$score, values$loss, values$case_weights, groups$rows,
    spec$metrics, spec$options, na_rm,
    call = call
  )
  metric_tibble(groups$keys, spec$metrics, spec$labels, res$values)
}

#' @rdname selective_metrics
#' @export
selective_metrics_vec <- function(score, loss, metrics = default_metrics,
                                  ..., estimator = "alpha",
                                  method = "trapezoid", optimum = "exact",
                                  coverage = NULL, risk = NULL,
                                  max_rejection = 1, coverage_range = NULL,
                                  rule = "tie_closed", tpr = 0.95,
                                  na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- metric_set_spec(
    metrics, estimator, method, optimum, coverage, risk, call,
    max_rejection = max_rejection, coverage_range = coverage_range,
    rule = rule, tpr = tpr
  )
  metric_set_compute(spec, score, loss, na_rm, case_weights, call)
}

default_metrics <- c("aurc", "augrc", "eaurc", "naurc")

# Every metric of the registry (R/metric-registry.R, collated before this
# file).
all_metrics <- metric_names()

# Validates the options once (estimator, method and optimum always, a
# target only when a metric needs it) and works out each metric's
# `.estimator` from the registry (R/metric-registry.R).
metric_set_spec <- function(metrics, estimator, method, optimum, coverage,
                            risk, call, max_rejection = 1,
                            coverage_range = NULL, rule = "tie_closed",
                            tpr = 0.95) {
  check_names_in(metrics, all_metrics, call = call)
  metrics <- unique(metrics)
  options <- check_metric_options(
    metrics,
    list(
      estimator = estimator, method = method, optimum = optimum,
      coverage = coverage, risk = risk, max_rejection = max_rejection,
      coverage_range = coverage_range, rule = rule, tpr = tpr
    ),
    call = call, always = c("estimator", "method", "optimum")
  )
  labels <- vapply(metrics, metric_estimator_label, character(1), options)
  list(metrics = metrics, options = options, labels = unname(labels))
}

metric_set_compute <- function(spec, score, loss, na_rm, case_weights, call) {
  res <- metrics_by_group(
    score, loss, case_weights, NULL, spec$metrics, spec$options, na_rm,
    call = call
  )
  metric_tibble(NULL, spec$metrics, spec$labels, res$values)
}
