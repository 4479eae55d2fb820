# Bootstrap ranking (SPEC Sec. 7): the metrics a ranking compares and the
# ranking options.

# ---- metrics ----------------------------------------------------------------

# A list of specs: name, higher_better, binary, kernel (TRUE: computed in
# C++), fn (R function(score, loss) otherwise). Every named metric is in the
# C++ registry (metric_registry() in src/core/bootstrap.h), which is the one
# table of directions and binary flags.
ranking_metric_specs <- function(metrics, call = rlang::caller_env()) {
  kernel <- ranking_kernel_metrics_impl()
  known <- kernel$name
  if (is.character(metrics)) metrics <- as.list(metrics)
  if (!is.list(metrics) || length(metrics) == 0) {
    abort_aurc(
      c(
        "{.arg metrics} must be a character vector or a list of metric names
         and functions.",
        x = "It is {.obj_type_friendly {metrics}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  nms <- names(metrics)
  if (is.null(nms)) nms <- rep("", length(metrics))
  specs <- vector("list", length(metrics))
  for (k in seq_along(metrics)) {
    m <- metrics[[k]]
    if (rlang::is_string(m)) {
      if (m %in% kernel$name) {
        row <- kernel[kernel$name == m, ]
        specs[[k]] <- list(
          name = m, higher_better = row$higher_better, binary = row$binary,
          kernel = TRUE, kernel_id = m, fn = NULL
        )
      } else {
        abort_aurc(
          c(
            "{.arg metrics} must name metrics of aurc.",
            x = "Unknown metric: {.val {m}}.",
            i = "Known metrics: {.val {known}}.",
            i = "Give a metric of your own as a named function in a list."
          ),
          class = "aurc_error_value", call = call
        )
      }
    } else {
      specs[[k]] <- custom_metric_spec(m, nms[k], call = call)
    }
    if (nzchar(nms[k])) specs[[k]]$name <- nms[k]
  }
  names_all <- vapply(specs, function(s) s$name, character(1))
  if (anyDuplicated(names_all)) {
    abort_aurc(
      c(
        "{.arg metrics} must not repeat a metric.",
        x = "Repeated: {.val {unique(names_all[duplicated(names_all)])}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  specs
}

custom_metric_spec <- function(m, name, call) {
  direction <- "lower"
  if (is.list(m) && !is.function(m)) {
    if (!is.null(m$direction)) direction <- m$direction
    m <- m$fn
  }
  if (!is.function(m) || !nzchar(name)) {
    abort_aurc(
      c(
        "Each element of {.arg metrics} must be a metric name or a named
         function {.code f(score, loss)}.",
        i = "A function of your own needs a name:
             {.code metrics = list(mine = f)}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  direction <- check_choice(direction, c("lower", "higher"),
    arg = "direction", call = call
  )
  list(
    name = name, higher_better = direction == "higher", binary = FALSE,
    kernel = FALSE, fn = m
  )
}

# ---- options ----------------------------------------------------------------

ranking_options <- function(ties, correct, p_adjust, alpha, call) {
  ties <- check_choice(ties, c("min", "average", "max"), call = call)
  check_bool(correct, call = call)
  p_adjust <- check_choice(p_adjust, stats::p.adjust.methods, call = call)
  if (!is.numeric(alpha) || length(alpha) != 1 || is.na(alpha) ||
    alpha <= 0 || alpha >= 1) {
    abort_aurc(
      "{.arg alpha} must be a single number between 0 and 1.",
      class = "aurc_error_value", call = call
    )
  }
  list(ties = ties, correct = correct, p_adjust = p_adjust, alpha = alpha)
}

ranking_settings <- function(specs, opts) {
  c(
    list(
      metrics = vapply(specs, function(s) s$name, character(1)),
      higher_better = vapply(specs, function(s) s$higher_better, logical(1))
    ),
    opts
  )
}

ranking_label <- function(quo) {
  if (rlang::quo_is_null(quo)) return(NULL)
  expr <- rlang::quo_get_expr(quo)
  if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
    rlang::as_string(expr)
  } else {
    rlang::as_label(expr)
  }
}
