# Bootstrap ranking (DEFINITIONS Sec. 7): the metrics a ranking compares and the
# ranking options.

# ---- metrics ----------------------------------------------------------------

# A list of specs: name, higher_better, binary, kernel (TRUE: computed in
# C++), cpp (the kernel name and options the C++ engine reads) or fn (an R
# function(score, loss) otherwise). A named metric is any metric of the
# registry (R/metric-registry.R), with its default options or with the
# options bound by metric_with(); the registry alone gives its direction
# and whether it needs 0/1 losses.
ranking_metric_specs <- function(metrics, call = rlang::caller_env()) {
  if (is.character(metrics) || is_metric_with(metrics)) {
    metrics <- if (is.character(metrics)) as.list(metrics) else list(metrics)
  }
  if (!is.list(metrics) || length(metrics) == 0) {
    abort_aurc(
      c(
        "{.arg metrics} must be a character vector or a list of metric names,
         {.fn metric_with} objects and functions.",
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
    if (rlang::is_string(m) && m %in% names(ranking_aliases)) {
      alias <- ranking_aliases[[m]]
      m <- do.call(metric_with, c(list(alias$metric), alias$options,
        list(.name = m)
      ))
    }
    if (rlang::is_string(m) && m %in% metric_names()) {
      ranking_check_required(m, call)
      m <- metric_with(m)
    }
    if (is_metric_with(m)) {
      ranking_check_row_order(m, call)
      specs[[k]] <- ranking_kernel_spec(m)
    } else if (rlang::is_string(m)) {
      abort_aurc(
        c(
          "{.arg metrics} must name metrics of aurc.",
          x = "Unknown metric: {.val {m}}.",
          i = "{.code metric_info()} lists them
               ({.code family == \"selective\"});
               {.val {names(ranking_aliases)}} are the other estimators and
               rules of AURC and AUGRC.",
          i = "Give a metric of your own as a named function in a list."
        ),
        class = "aurc_error_value", call = call
      )
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
        x = "Repeated: {.val {unique(names_all[duplicated(names_all)])}}.",
        i = "Name them apart: {.code metrics = list(low = metric_with(...),
             high = metric_with(...))}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  specs
}

# PRR with LM-Polygraph's tie rule reads the order of the rows within a tie,
# which a bootstrap replicate (case counts over the sorted scores) does not
# keep: refused rather than NA in every replicate.
ranking_check_row_order <- function(m, call) {
  if (identical(m$metric, "prr") &&
    identical(m$options$ties, "lm_polygraph")) {
    abort_aurc(
      c(
        "{.code ties = \"lm_polygraph\"} has no bootstrap ranking.",
        x = "It reads the order of tied rows, which a resample does not keep.",
        i = "Use {.code ties = \"random\"} (its expectation over the orders)
             or the default {.val group}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible()
}

# The names the ranking has long taken for other estimators and rules.
ranking_aliases <- list(
  aurc_alpha_prime = list(metric = "aurc",
    options = list(estimator = "alpha_prime")),
  aurc_sele = list(metric = "aurc", options = list(estimator = "sele")),
  aurc_2sele = list(metric = "aurc", options = list(estimator = "2sele")),
  aurc_trapezoid = list(metric = "aurc",
    options = list(estimator = "trapezoid")),
  augrc_step = list(metric = "augrc", options = list(method = "step"))
)

# A metric named without the option it cannot do without.
ranking_check_required <- function(m, call) {
  info <- metric_entry(m)
  need <- Filter(function(o) is.null(metric_option_info(o)$default),
    info$options)
  if (!length(need)) return(invisible())
  abort_aurc(
    c(
      "{.val {m}} needs {.arg {need}}, which {.fn bootstrap_ranking} does
       not take.",
      i = "Bind it: {.code metrics = list(metric_with(\"{m}\", {need[1]} =
           ...))}."
    ),
    class = c("aurc_error_missing", "aurc_error_value"), call = call
  )
}

# The spec of a bound metric: its direction and 0/1 need from the registry,
# and what the C++ engine reads (ranking_metrics_impl()).
ranking_kernel_spec <- function(m) {
  o <- m$options
  full <- checked_option_defaults()
  full[names(o)] <- o
  list(
    name = m$name,
    higher_better = metric_entry(m$metric)$direction == "maximize",
    binary = metric_needs_failure(m$metric, full),
    kernel = TRUE, kernel_id = m$metric, fn = NULL,
    cpp = list(
      kernel = metric_kernels(m$metric, full),
      estimator = full$estimator, method = full$method,
      optimum = full$optimum,
      coverage = full$coverage %||% 0.5, risk = full$risk %||% 0.5
    )
  )
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
