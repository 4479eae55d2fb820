# Data first (issue 33): the functions that took vectors first
# (corp_reliability(), smooth_calibration(), certify_threshold()) take a
# data frame and unquoted columns, as every other function of the package
# does. A call in the old order, vectors first, still works and says once
# per session that the order has changed.
#
# data_first_call() is called first thing in such a function. With a data
# frame it evaluates the columns and calls the vector form `impl` with the
# other arguments as the user wrote them (so an option's `missing()` inside
# `impl` still tells whether it was given); with vectors first it calls
# `impl` with the user's call unchanged (its formals are the old ones).
#
# `group`: the name of a column argument that groups the data (as
# certify_threshold(group =)). Such a function also takes a grouped data
# frame: `impl` gets, under that argument, one data frame of every
# grouping column (dplyr's, then the `group` column under its name), or
# NULL when there is neither.

data_first_call <- function(impl, columns, frame = parent.frame(),
                            call = sys.call(-1),
                            definition = sys.function(-1),
                            caller = parent.frame(2), group = NULL) {
  fn <- as.character(call[[1]])
  fn <- fn[length(fn)]
  vectors_first <- !eval(quote(missing(data)), frame) &&
    !is.data.frame(frame$data)
  # `impl` is called under the exported name, so that its messages name
  # the function the user called
  run <- function(cl, values = list()) {
    env <- new.env(parent = caller)
    assign(fn, impl, envir = env)
    # the columns' values under their argument names, so that a message
    # shows `confidence = confidence`, not the values
    for (arg in names(values)) assign(arg, values[[arg]], envir = env)
    cl[[1]] <- as.name(fn)
    eval(cl, env)
  }
  if (eval(quote(missing(data)), frame) || vectors_first) {
    if (vectors_first) inform_vectors_first(fn, columns)
    return(run(call))
  }
  data <- frame$data
  if (inherits(data, "grouped_df") && is.null(group)) {
    abort_aurc(
      c(
        "{.fn {fn}} takes one data set, not a grouped data frame.",
        i = "Filter to one group first, or call it per group."
      ),
      class = "aurc_error_type", call = frame
    )
  }
  matched <- match.call(definition, call, expand.dots = TRUE)
  args <- as.list(matched)[-1]
  values <- list()
  for (arg in columns) {
    if (!arg %in% names(args)) {
      # optional columns; `correct` may be given as `loss`
      if (arg %in% c("case_weights", "loss", group)) next
      if (arg == "correct" && "loss" %in% names(args)) next
      abort_aurc("{.arg {arg}} is missing: name a column of {.arg data}.",
        class = c("aurc_error_missing", "aurc_error_value"), call = frame
      )
    }
    quo <- rlang::new_quosure(args[[arg]], caller)
    values[arg] <- list(eval_column(data, quo, arg, call = frame))
  }
  if (!is.null(group)) {
    values[group] <- list(data_group_columns(data, args[[group]],
      values[[group]]
    ))
  }
  rest <- args[setdiff(names(args), c("data", columns))]
  refs <- stats::setNames(lapply(names(values), as.name), names(values))
  run(as.call(c(list(as.name(fn)), refs, rest)), values)
}

# The grouping columns of a grouped data frame and the `group` column
# (`expr` as written, `value` its value), as one data frame; NULL when there
# is neither. A `group` column that is also a grouping column is kept once.
data_group_columns <- function(data, expr, value) {
  keys <- list()
  if (inherits(data, "grouped_df")) {
    vars <- setdiff(names(attr(data, "groups", exact = TRUE)), ".rows")
    keys <- lapply(stats::setNames(vars, vars), function(v) data[[v]])
  }
  if (!is.null(value)) {
    name <- if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
      rlang::as_string(expr)
    } else {
      rlang::as_label(expr)
    }
    if (!name %in% names(keys)) keys[[name]] <- value
  }
  if (length(keys) == 0) return(NULL)
  # no checks here: the columns are checked by the function
  structure(keys, class = "data.frame", row.names = .set_row_names(nrow(data)))
}

vectors_first_told <- new.env(parent = emptyenv())

inform_vectors_first <- function(fn, columns) {
  if (isTRUE(vectors_first_told[[fn]])) return(invisible())
  vectors_first_told[[fn]] <- TRUE
  cols <- setdiff(columns, c("case_weights", "group"))
  inform_aurc(
    c(
      "{.fn {fn}} takes a data frame first now, as every function of aurc:
       {.code {fn}(data, {paste(cols, collapse = ', ')}, ...)}.",
      i = "Vectors first still work (this is said once per session)."
    ),
    class = "aurc_message_deprecated"
  )
}
