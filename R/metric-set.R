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
#' `"risk_at_coverage"` (`coverage`), `"coverage_at_risk"` (`risk`).
#' `"failure_auroc"`, `"failure_aupr"`, `"eaugrc"` and `"eaurc"` with
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
                              na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- metric_set_spec(
    metrics, estimator, method, optimum, coverage, risk, call
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
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    out <- metric_set_compute(spec, v$score, v$loss, na_rm, v$case_weights,
      call
    )
    if (!is.null(groups$keys)) {
      key <- groups$keys[rep(g, nrow(out)), , drop = FALSE]
      out <- tibble::as_tibble(c(key, out))
    }
    out
  })
  do.call(rbind, parts)
}

#' @rdname selective_metrics
#' @export
selective_metrics_vec <- function(score, loss, metrics = default_metrics,
                                  ..., estimator = "alpha",
                                  method = "trapezoid", optimum = "exact",
                                  coverage = NULL, risk = NULL,
                                  na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- metric_set_spec(
    metrics, estimator, method, optimum, coverage, risk, call
  )
  metric_set_compute(spec, score, loss, na_rm, case_weights, call)
}

default_metrics <- c("aurc", "augrc", "eaurc", "naurc")

all_metrics <- c(
  "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc", "eaugrc",
  "naurc", "risk_at_coverage", "coverage_at_risk"
)

# Validates the options once and works out each metric's `.estimator`.
metric_set_spec <- function(metrics, estimator, method, optimum, coverage,
                            risk, call) {
  if (!is.character(metrics) || length(metrics) == 0 || anyNA(metrics)) {
    abort_aurc(
      paste(
        "{.arg metrics} must be a character vector of metric names, not",
        "{.obj_type_friendly {metrics}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  bad <- setdiff(metrics, all_metrics)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg metrics} must be among {.or {.val {all_metrics}}}.",
        x = "Unknown: {.val {bad}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  metrics <- unique(metrics)
  estimator <- check_choice(estimator, aurc_estimators, call = call)
  method <- check_choice(method, augrc_methods, call = call)
  optimum <- check_choice(optimum, eaurc_optima, call = call)
  if ("risk_at_coverage" %in% metrics) {
    coverage <- check_number(coverage, 0, 1, call = call)
  }
  if ("coverage_at_risk" %in% metrics) {
    risk <- check_number(risk, 0, call = call)
  }
  labels <- c(
    aurc = estimator, augrc = method, failure_auroc = "binary",
    failure_aupr = "binary", eaurc = paste0(estimator, "/", optimum),
    eaugrc = "trapezoid", naurc = estimator,
    risk_at_coverage = paste0("coverage=", coverage),
    coverage_at_risk = paste0("risk=", risk)
  )
  binary <- any(metrics %in% binary_metrics) ||
    ("eaurc" %in% metrics && optimum == "asymptotic")
  list(
    metrics = metrics, estimator = estimator, method = method,
    optimum = optimum, coverage = if (is.null(coverage)) 0.5 else coverage,
    risk = if (is.null(risk)) 0.5 else risk,
    labels = unname(labels[metrics]), binary = binary
  )
}

metric_set_compute <- function(spec, score, loss, na_rm, case_weights, call) {
  v <- compute_metrics(score, loss, spec$metrics, na_rm, case_weights, call,
    binary = spec$binary, estimator = spec$estimator, method = spec$method,
    optimum = spec$optimum, coverage = spec$coverage, risk = spec$risk
  )
  tibble::tibble(
    .metric = spec$metrics, .estimator = spec$labels,
    .estimate = as.numeric(v)
  )
}
