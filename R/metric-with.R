#' A metric with its options bound
#'
#' `metric_with()` binds options to a metric of the registry, so that one
#' call can compare the same metric with different options, for example
#' two coverage ranges of the partial AURC, and so that forms whose
#' `metrics` argument takes names only (such as [bootstrap_ranking()]) can
#' take metrics that need an option. [selective_metrics()],
#' [bootstrap_ranking()], [selective_ci()], [selective_ci_vec()] take it in
#' `metrics =` (a list of names and `metric_with()` objects),
#' [compare_scores()] as `metric =`. In the intervals each set of options is
#' its own call, so with `method = "bootstrap"` each draws its own
#' replicates.
#'
#' @param metric The name of a metric of [selective_metrics()] (see
#'   [metric_info()], `family == "selective"`).
#' @param ... Its options by name, as its `_vec` function takes them (for
#'   example `coverage_range` of [partial_aurc_vec()], `estimator` of
#'   [aurc_vec()]). Options it does not take are an error; options not
#'   given take their defaults.
#' @param .name The name of the result (the `.metric` of a ranking, the
#'   column of [selective_metrics()]); by default the metric's name
#'   followed by its options, e.g. `"partial_aurc[coverage=0-0.5]"`. A
#'   name given in a named list of metrics takes precedence.
#' @return An object of class `aurc_metric`: the metric's name, its
#'   validated options and the result's name.
#' @seealso [bootstrap_ranking()], [selective_metrics()], [metric_info()]
#' @export
#' @examples
#' low <- metric_with("partial_aurc", coverage_range = c(0, 0.5))
#' low
#' df <- data.frame(
#'   score = c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4),
#'   loss = c(0, 0, 1, 0, 1, 1)
#' )
#' selective_metrics(df, score, loss,
#'   metrics = list("aurc", low,
#'     metric_with("partial_aurc", coverage_range = c(0.5, 1))
#'   )
#' )
metric_with <- function(metric, ..., .name = NULL) {
  call <- rlang::current_env()
  if (!rlang::is_string(metric) || !metric %in% metric_names()) {
    abort_aurc(
      c(
        "{.arg metric} must name a metric of {.fn selective_metrics}.",
        x = if (rlang::is_string(metric)) {
          "Unknown metric: {.val {metric}}."
        } else {
          "It is {.obj_type_friendly {metric}}."
        },
        i = "{.code metric_info()} lists the metrics and their options."
      ),
      class = if (rlang::is_string(metric)) "aurc_error_value" else
        "aurc_error_type"
    )
  }
  values <- list(...)
  info <- metric_entry(metric)
  unnamed <- is.null(names(values)) || any(!nzchar(names(values)))
  if (length(values) && unnamed) {
    abort_aurc(
      "The options in {.arg ...} must be named.",
      class = "aurc_error_value"
    )
  }
  extra <- setdiff(names(values), info$options)
  if (length(extra)) {
    abort_aurc(
      c(
        "{.val {metric}} does not take {.arg {extra}}.",
        i = if (length(info$options)) {
          "Its options: {.arg {info$options}}."
        } else {
          "It takes no options."
        }
      ),
      class = "aurc_error_value"
    )
  }
  for (opt in setdiff(info$options, names(values))) {
    if (is.null(metric_option_info(opt)$default)) {
      abort_aurc(
        c(
          "{.val {metric}} needs {.arg {opt}}.",
          i = "Give it by name, e.g.
               {.code metric_with(\"{metric}\", {opt} = ...)}."
        ),
        class = c("aurc_error_missing", "aurc_error_value")
      )
    }
  }
  opts <- check_metric_options(metric, values, call)
  if (!is.null(.name) && (!rlang::is_string(.name) || !nzchar(.name))) {
    abort_aurc(
      "{.arg .name} must be a single non-empty string.",
      class = "aurc_error_type"
    )
  }
  mine <- opts[info$options]
  name_given <- !is.null(.name)
  if (is.null(.name)) {
    .name <- if (length(values)) {
      paste0(metric, "[", metric_estimator_label(metric, opts), "]")
    } else {
      metric
    }
  }
  structure(
    list(metric = metric, options = mine, name = .name,
      name_given = name_given),
    class = "aurc_metric"
  )
}

#' @export
print.aurc_metric <- function(x, ...) {
  opts <- vapply(x$options, function(v) {
    paste(format(v), collapse = ", ")
  }, character(1))
  cat("<aurc_metric> ", x$name, "\n", sep = "")
  cat("  metric: ", x$metric, "\n", sep = "")
  for (k in seq_along(opts)) {
    cat("  ", names(opts)[k], ": ", opts[k], "\n", sep = "")
  }
  invisible(x)
}

is_metric_with <- function(x) inherits(x, "aurc_metric")

# The metrics of a `metrics` argument that may mix names and metric_with()
# objects, as a list of bound metrics: each a list(metric, options, name)
# with every option of the registry (the form's own options `opts` for a
# plain name, the bound ones over them for a metric_with()). Names of a
# named list replace the bound metrics' names. `known`: the names a plain
# string may take.
bind_metrics <- function(metrics, opts, known = metric_names(),
                         arg = "metrics", call = rlang::caller_env()) {
  if (is_metric_with(metrics)) metrics <- list(metrics)
  if (is.character(metrics)) metrics <- as.list(metrics)
  nms <- names(metrics) %||% rep("", length(metrics))
  out <- vector("list", length(metrics))
  for (k in seq_along(metrics)) {
    m <- metrics[[k]]
    if (is_metric_with(m)) {
      o <- opts
      o[names(m$options)] <- m$options
      out[[k]] <- list(metric = m$metric, options = o, name = m$name)
    } else if (rlang::is_string(m) && m %in% known) {
      out[[k]] <- list(metric = m, options = opts, name = m)
    } else {
      abort_aurc(
        c(
          "Each element of {.arg {arg}} must be a metric name or a
           {.fn metric_with} object.",
          x = if (rlang::is_string(m)) {
            "Unknown metric: {.val {m}}."
          } else {
            "Element {k} is {.obj_type_friendly {m}}."
          }
        ),
        class = "aurc_error_value", call = call
      )
    }
    if (nzchar(nms[k])) out[[k]]$name <- nms[k]
  }
  out
}

# metric_with() in selective_ci(), selective_ci_vec() and compare_scores():
# one call per set of options, the user's call with `metrics` (or
# `metric`) and the bound options replaced, results in the order asked.
# `frame`: the exported function's frame; `call`, `definition`, `caller`:
# its call, its definition and its caller (as data_first_call() takes them).
# Returns NULL when no metric_with() object is given (the function goes on).
ci_with_bound_metrics <- function(metrics, arg = "metrics",
                                  frame = parent.frame(),
                                  call = sys.call(-1),
                                  definition = sys.function(-1),
                                  caller = parent.frame(2)) {
  if (!is_metric_with(metrics) &&
    !(is.list(metrics) && any(vapply(metrics, is_metric_with, logical(1))))) {
    return(NULL)
  }
  if (is_metric_with(metrics)) metrics <- list(metrics)
  matched <- as.list(match.call(definition, call, expand.dots = TRUE))
  fn <- matched[[1]]
  nms <- names(metrics) %||% rep("", length(metrics))
  if (arg == "metric" && length(metrics) != 1) {
    abort_aurc("{.arg metric} must be one metric.",
      class = "aurc_error_value", call = frame
    )
  }
  # the options of the registry under the names of these functions
  arg_of <- c(method = "augrc_method")
  parts <- lapply(seq_along(metrics), function(k) {
    m <- metrics[[k]]
    args <- matched[-1]
    if (is_metric_with(m)) {
      args[[arg]] <- m$metric
      for (opt in names(m$options)) {
        name <- if (opt %in% names(arg_of)) arg_of[[opt]] else opt
        args[name] <- list(m$options[[opt]])
      }
    } else {
      args[[arg]] <- m
    }
    out <- eval(as.call(c(list(fn), args)), caller)
    if (arg == "metrics" && is_metric_with(m) &&
      (nzchar(nms[k]) || isTRUE(m$name_given))) {
      out$.metric <- if (nzchar(nms[k])) nms[k] else m$name
    }
    out
  })
  if (arg == "metric") return(parts[[1]])
  out <- dplyr::bind_rows(parts)
  keys <- setdiff(names(out), ci_table_columns)
  if (length(keys)) {
    # group-major, the metrics in the order asked
    position <- rep(seq_along(parts), vapply(parts, nrow, integer(1)))
    key <- do.call(paste, c(unname(as.list(out[keys])), sep = "\r"))
    out <- out[order(match(key, unique(key)), position), , drop = FALSE]
  }
  attr(out, "replicates") <- NULL
  out
}

ci_table_columns <- c(
  ".metric", ".estimator", ".estimate", ".lower", ".upper", ".std_error",
  ".conf_level", ".method", ".coverage"
)
