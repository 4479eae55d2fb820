# The data-frame form shared by every metric: find the columns (unquoted
# names, strings, or expressions evaluated in `data`), split by the groups of
# a grouped data frame, call the `_vec` function per group, and return a
# tibble with the grouping columns first, then `.metric`, `.estimator`,
# `.estimate`.

check_data_frame <- function(data, call = rlang::caller_env()) {
  if (!is.data.frame(data)) {
    abort_aurc(
      "{.arg data} must be a data frame, not {.obj_type_friendly {data}}.",
      class = "aurc_error_type", call = call
    )
  }
  invisible(data)
}

# Evaluates one column argument. NULL stays NULL.
eval_column <- function(data, quo, arg, call = rlang::caller_env()) {
  if (rlang::quo_is_null(quo)) return(NULL)
  # hardhat's case weights are read as numbers, their kind kept
  # (R/weights.R)
  if (identical(arg, "case_weights")) {
    return(plain_weights(eval_column_value(data, quo, arg, call)))
  }
  eval_column_value(data, quo, arg, call)
}

eval_column_value <- function(data, quo, arg, call) {
  expr <- rlang::quo_get_expr(quo)
  if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
    name <- rlang::as_string(expr)
    if (name %in% names(data)) return(data[[name]])
  }
  value <- tryCatch(
    rlang::eval_tidy(quo, data),
    error = function(e) {
      abort_aurc(
        c(
          "Can't find {.arg {arg}} in {.arg data}.",
          i = paste(
            "Give a column name of {.arg data}",
            "or an expression of its columns."
          )
        ),
        parent = e, class = "aurc_error_column", call = call
      )
    }
  )
  if (rlang::is_string(value) && value %in% names(data)) {
    return(data[[value]])
  }
  if (length(value) != nrow(data)) {
    abort_aurc(
      c(
        "{.arg {arg}} must be a column of {.arg data}.",
        x = paste(
          "It has length {length(value)};",
          "{.arg data} has {nrow(data)} row{?s}."
        )
      ),
      class = "aurc_error_column", call = call
    )
  }
  value
}

# Row indices of each group: one group of all rows unless `data` is a
# grouped data frame (dplyr's `groups` attribute).
data_groups <- function(data) {
  groups <- attr(data, "groups", exact = TRUE)
  if (inherits(data, "grouped_df") && is.data.frame(groups)) {
    keys <- tibble::as_tibble(groups[setdiff(names(groups), ".rows")])
    list(keys = keys, rows = lapply(groups[[".rows"]], as.integer))
  } else {
    list(keys = NULL, rows = list(seq_len(nrow(data))))
  }
}

# The columns of a form computed in memory only: a classed error for a
# database or score table (`what` names the computation; cli markup in it
# is read in `envir`), then each quosure of the named list `columns`
# evaluated in `data`.
memory_columns <- function(data, columns, what, call,
                           envir = parent.frame()) {
  if (is_remote_data(data)) {
    abort_aurc(
      c(
        paste(what, "computed in memory only."),
        i = paste(
          "{.arg data} is a database table or a score table; collect the",
          "columns first (e.g. with {.fn dplyr::collect})."
        )
      ),
      class = "aurc_error_type", call = call, .envir = envir
    )
  }
  check_data_frame(data, call = call)
  Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    columns, names(columns)
  )
}

# `columns`: named list of quosures; `fn(...)` gets the evaluated columns
# (subset to a group) under the same names and returns one number.
metric_df <- function(data, columns, fn, metric, estimator,
                      call = rlang::caller_env()) {
  values <- memory_columns(data, columns, "{.val {metric}} is", call)
  groups <- data_groups(data)
  estimate <- vapply(groups$rows, function(rows) {
    args <- lapply(values, function(v) if (is.null(v)) NULL else v[rows])
    do.call(fn, args)
  }, numeric(1))
  out <- tibble::tibble(
    .metric = metric, .estimator = estimator, .estimate = estimate
  )
  if (!is.null(groups$keys)) out <- tibble::as_tibble(c(groups$keys, out))
  out
}
