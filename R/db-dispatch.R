# Where the data-frame forms hand over to the database and score-table
# forms (DEFINITIONS Sec. 12). The in-memory path is untouched: the registry's
# data-frame form (metric_df_form()), `selective_metrics()`, `rc_curve()`
# and the calibration data-frame forms call these first when `data` is a
# dbplyr lazy table (`tbl_sql`) or an `aurc_score_table`.

is_remote_data <- function(data) {
  is_db_table(data) || inherits(data, "aurc_score_table")
}

selective_metrics_remote <- function(data, columns, spec, na_rm, call) {
  check_bool(na_rm, call = call)
  options <- c(spec$options, list(na_rm = na_rm))
  values <- metric_db(data, spec$metrics, columns, options, call = call)
  db_long(values, spec$metrics, spec$labels, db_value_groups(values))
}

db_value_groups <- function(values) {
  attr(values, "group_vars", exact = TRUE) %||% character()
}

`%||%` <- function(x, y) if (is.null(x)) y else x

# The registry's data-frame form of one metric on a lazy table or a score
# table; `opts` are the validated options of metric_df_form().
metric_form_remote <- function(data, name, columns, opts, na_rm, call) {
  check_bool(na_rm, call = call)
  values <- metric_db(data, name, columns, c(opts, list(na_rm = na_rm)),
    call = call
  )
  out <- db_long(values, name, metric_estimator_label(name, opts),
    db_value_groups(values)
  )
  if (metric_entry(name)$coverage) out$.coverage <- values$.coverage
  out
}

# ECE or MCE of a lazy table or a score table.
calibration_metric_remote <- function(data, columns, settings, na_rm, metric,
                                      call) {
  check_bool(na_rm, call = call)
  values <- calibration_db(data, columns, settings, na_rm, metric, call)
  db_long(values, metric, settings$binning, db_value_groups(values))
}
