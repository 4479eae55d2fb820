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
#' `1 - quality`. `"success_aupr"` ([success_aupr_vec()]). The calibration
#' errors `"ece"` and `"mce"` ([ece_vec()], adaptive bins) read the score
#' as the confidence (in `[0, 1]`) and the 0/1 loss as the failure
#' indicator (`correct = 1 - loss`); they are computed in memory only.
#' `"failure_auroc"`, `"failure_aupr"`, `"success_aupr"`, `"eaugrc"`,
#' `"fpr_at_tpr"`, `"achievable_aurc"`, `"ece"`, `"mce"` and `"eaurc"` with
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
  if (is_remote_data(data) && length(spec$calibration)) {
    abort_aurc(
      c(
        "{.fn selective_metrics} computes {.val {spec$metrics[spec$calibration]}}
         in memory only.",
        i = "On a database table use {.fn ece} or {.fn mce} themselves."
      ),
      class = "aurc_error_type", call = call
    )
  }
  if (is_remote_data(data)) {
    columns <- list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    )
    return(metric_set_remote(data, columns, spec, na_rm, call))
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
  values <- metric_set_values(spec, values$score, values$loss,
    values$case_weights, groups$rows, na_rm, call
  )
  metric_tibble(groups$keys, spec$names, spec$labels, values)
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
# `.estimator` from the registry (R/metric-registry.R). `metrics`: names,
# or a list of names and metric_with() objects (each with its own
# options). Returns the registry name (`metrics`), result name (`names`)
# and label of every metric, the form's options, and `sets`: the metrics
# that share one set of options (one evaluation each), by position.
metric_set_spec <- function(metrics, estimator, method, optimum, coverage,
                            risk, call, max_rejection = 1,
                            coverage_range = NULL, rule = "tie_closed",
                            tpr = 0.95) {
  form_values <- list(
    estimator = estimator, method = method, optimum = optimum,
    coverage = coverage, risk = risk, max_rejection = max_rejection,
    coverage_range = coverage_range, rule = rule, tpr = tpr
  )
  if (is.list(metrics) && length(metrics) > 0 &&
    !(is.character(metrics) || is.factor(metrics))) {
    return(metric_set_bound_spec(metrics, form_values, call))
  }
  if (!is.character(metrics) || length(metrics) == 0 || anyNA(metrics)) {
    abort_aurc(
      paste(
        "{.arg metrics} must be a character vector of metric names (or a",
        "list of names and {.fn metric_with} objects), not",
        "{.obj_type_friendly {metrics}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  bad <- setdiff(metrics, c(all_metrics, set_calibration_metrics))
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg metrics} must name metrics of {.fn selective_metrics}.",
        x = "Unknown: {.val {bad}}.",
        i = "{.code metric_info()} lists them
             ({.code family == \"selective\"})."
      ),
      class = "aurc_error_value", call = call
    )
  }
  metrics <- unique(metrics)
  registry <- metrics %in% all_metrics
  options <- check_metric_options(metrics[registry], form_values,
    call = call, always = c("estimator", "method", "optimum")
  )
  labels <- vapply(metrics, function(m) {
    if (m %in% all_metrics) metric_estimator_label(m, options) else "adaptive"
  }, character(1))
  list(
    metrics = metrics, names = metrics, options = options,
    labels = unname(labels),
    sets = if (any(registry)) {
      list(list(idx = which(registry), options = options))
    } else {
      list()
    },
    calibration = which(!registry)
  )
}

# The calibration errors selective_metrics() computes beside the registry's
# metrics: the score is read as the confidence (in [0, 1]) and the loss as
# the 0/1 failure indicator (correct = 1 - loss), with the adaptive bins of
# ece() and mce() by default.

# metric_set_spec() of a list of names and metric_with() objects: the
# plain names take the form's options, the bound ones their own.
metric_set_bound_spec <- function(metrics, form_values, call) {
  plain <- unlist(Filter(rlang::is_string, metrics))
  options <- check_metric_options(intersect(plain, all_metrics), form_values,
    call = call, always = c("estimator", "method", "optimum")
  )
  bound <- bind_metrics(metrics, options, call = call)
  names_all <- vapply(bound, function(b) b$name, character(1))
  if (anyDuplicated(names_all)) {
    abort_aurc(
      c(
        "{.arg metrics} must not repeat a metric.",
        x = "Repeated: {.val {unique(names_all[duplicated(names_all)])}}.",
        i = "Give each a name: {.code metric_with(..., .name = \"low\")}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  # a metric_with() of default name reports the registry name, its
  # options in `.estimator` (as a plain name does)
  shown <- vapply(seq_along(bound), function(k) {
    m <- metrics[[k]]
    named <- !is.null(names(metrics)) && nzchar(names(metrics)[k])
    if (is_metric_with(m) && !named && !isTRUE(m$name_given)) {
      m$metric
    } else {
      bound[[k]]$name
    }
  }, character(1))
  key <- vapply(bound, function(b) {
    paste(deparse(b$options[c("estimator", "method", "optimum", "coverage",
      "risk", "max_rejection", "coverage_range", "rule", "tpr",
      "ties")]), collapse = "")
  }, character(1))
  keys <- unique(key)
  sets <- lapply(keys, function(k) {
    idx <- which(key == k)
    list(idx = idx, options = bound[[idx[1]]]$options)
  })
  list(
    metrics = vapply(bound, function(b) b$metric, character(1)),
    names = shown, options = options,
    labels = vapply(bound, function(b) {
      metric_estimator_label(b$metric, b$options)
    }, character(1)),
    sets = sets
  )
}

# The groups x metrics values of a spec: one evaluation per set of
# options (one sort per set).
metric_set_values <- function(spec, score, loss, case_weights, rows, na_rm,
                              call) {
  values <- NULL
  n_groups <- if (is.null(rows)) 1L else length(rows)
  if (length(spec$calibration)) {
    values <- matrix(NA_real_, n_groups, length(spec$metrics))
    values[, spec$calibration] <- set_calibration_values(spec, score, loss,
      case_weights, rows, na_rm, call
    )
  }
  for (set in spec$sets) {
    res <- metrics_by_group(score, loss, case_weights, rows,
      spec$metrics[set$idx], set$options, na_rm,
      call = call
    )
    v <- res$values
    if (!is.matrix(v)) v <- matrix(v, ncol = length(set$idx))
    if (is.null(values)) {
      values <- matrix(NA_real_, nrow(v), length(spec$metrics))
    }
    values[, set$idx] <- v
  }
  values
}

# The calibration errors of a metric set, groups x metrics: ece() and mce()
# of each group with the score as the confidence and 1 - loss as the
# correctness (the loss must be 0/1; the error names `loss`), every group
# binned in one C++ call (calibration_groups(), as ece() on a grouped data
# frame).
set_calibration_values <- function(spec, score, loss, case_weights, rows,
                                   na_rm, call) {
  check_failure(loss, length(loss), "loss", call = call)
  settings <- calibration_settings("adaptive", TRUE, 10, 0.9, 40, 0.05,
    NULL,
    call = call
  )
  res <- calibration_groups(score, 1 - as.double(loss),
    plain_weights(case_weights), rows, settings, na_rm, call
  )
  do.call(cbind, res[spec$metrics[spec$calibration]])
}

# The same on a lazy table: one query per set of options.
metric_set_remote <- function(data, columns, spec, na_rm, call) {
  if (length(spec$sets) == 1) {
    return(selective_metrics_remote(data, columns, spec, na_rm, call))
  }
  parts <- lapply(spec$sets, function(set) {
    sub <- list(
      metrics = spec$metrics[set$idx], options = set$options,
      labels = spec$labels[set$idx]
    )
    out <- selective_metrics_remote(data, columns, sub, na_rm, call)
    out$.metric <- rep_len(spec$names[set$idx], nrow(out))
    out$.position <- rep_len(set$idx, nrow(out))
    out$.row <- seq_len(nrow(out))
    out
  })
  out <- dplyr::bind_rows(parts)
  keys <- setdiff(names(out),
    c(".metric", ".estimator", ".estimate", ".position", ".row"))
  # group-major, metrics in the order asked
  group_id <- if (length(keys)) {
    k <- do.call(paste, c(unname(as.list(out[keys])), sep = "\r"))
    match(k, unique(do.call(paste, c(unname(as.list(parts[[1]][keys])),
      sep = "\r"))))
  } else {
    rep(1L, nrow(out))
  }
  out <- out[order(group_id, out$.position), , drop = FALSE]
  out$.position <- NULL
  out$.row <- NULL
  out
}

metric_set_compute <- function(spec, score, loss, na_rm, case_weights, call) {
  values <- metric_set_values(spec, score, loss, case_weights, NULL, na_rm,
    call
  )
  metric_tibble(NULL, spec$names, spec$labels, values)
}
