# Where the data-frame forms hand over to the database and score-table
# forms (SPEC Sec. 12). The in-memory path is untouched: `metric_df()`,
# `selective_metrics()` and `rc_curve()` call these first when `data` is a
# dbplyr lazy table (`tbl_sql`) or an `aurc_score_table`.

is_remote_data <- function(data) {
  is_db_table(data) || inherits(data, "aurc_score_table")
}

# The options of a data-frame form, read from the environment of the
# function the user called (`call`): the validated `estimator`, `method`,
# `optimum`, `coverage`, `risk`, `na_rm`, and the calibration `settings`.
db_options_from <- function(env) {
  get <- function(nm) {
    if (!is.environment(env)) return(NULL)
    rlang::env_get(env, nm, default = NULL)
  }
  list(
    estimator = get("estimator"), method = get("method"),
    optimum = get("optimum"), coverage = get("coverage"), risk = get("risk"),
    na_rm = get("na_rm"), settings = get("settings")
  )
}

metric_df_remote <- function(data, columns, metric, estimator, call) {
  options <- db_options_from(call)
  check_bool(db_options(options)$na_rm, "na_rm", call = call)
  if (metric %in% c("ece", "mce")) {
    values <- calibration_db(data, columns, options$settings,
      db_options(options)$na_rm, metric, call
    )
  } else {
    values <- metric_db(data, metric, columns, options, call = call)
  }
  out <- db_long(values, metric, estimator, db_value_groups(values))
  if (metric == "risk_at_coverage") out$.coverage <- values$.coverage
  out
}

selective_metrics_remote <- function(data, columns, spec, na_rm, call) {
  check_bool(na_rm, call = call)
  options <- list(
    estimator = spec$estimator, method = spec$method,
    optimum = spec$optimum, coverage = spec$coverage, risk = spec$risk,
    na_rm = na_rm
  )
  values <- metric_db(data, spec$metrics, columns, options, call = call)
  db_long(values, spec$metrics, spec$labels, db_value_groups(values))
}

db_value_groups <- function(values) {
  attr(values, "group_vars", exact = TRUE) %||% character()
}

`%||%` <- function(x, y) if (is.null(x)) y else x
