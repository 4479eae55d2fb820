#' A metric with its options bound
#'
#' `metric_with()` binds options to a metric of the registry, so that one
#' call can compare the same metric with different options, for example
#' two coverage ranges of the partial AURC, and so that forms whose
#' `metrics` argument takes names only (such as [bootstrap_ranking()]) can
#' take metrics that need an option.
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
