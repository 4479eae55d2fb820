# The data-frame forms of the LLM rank metrics (issue 36):
# rank_calibration_error(), uncertainty_correlation(), quality_auroc() and
# quality_aupr(). Each takes the columns of `data` by tidy evaluation, one
# row per group of a grouped data frame, and gives the value of the vector
# form on each group; `conf_level` (rank_calibration_error(),
# uncertainty_correlation()) gives each group's row of the `_ci()`
# function instead. Documented with their vector forms.

#' @rdname rank_calibration_error_vec
#' @export
rank_calibration_error <- function(data, score, quality, ..., n_bins = 20,
                                   p = 1, na_rm = FALSE, conf_level = NULL,
                                   times = 1000, type = "percentile") {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  n_bins <- check_number(n_bins, 1, 1e6, whole = TRUE, call = call)
  p <- check_rce_order(p, call)
  check_bool(na_rm, call = call)
  interval <- llm_form_interval(conf_level, missing(times) &&
    missing(type), "{.arg times} and {.arg type} are", call)
  if (interval) {
    times <- check_number(times, 2, 1e6, whole = TRUE, call = call)
    type <- check_choice(type, c("percentile", "normal"), call = call)
  }
  llm_form_rows(data, rlang::enquo(score), rlang::enquo(quality),
    "rank_calibration_error", call, function(v) {
      x <- llm_rank_input(v$score, v$quality, na_rm, call)
      if (interval) {
        return(rce_interval(x, n_bins, p, conf_level, times, type, call))
      }
      llm_point_row("rank_calibration_error",
        paste0("n_bins=", n_bins, "/p=", p), rce_point(x, n_bins, p, call)
      )
    }
  )
}

#' @rdname uncertainty_correlation_vec
#' @export
uncertainty_correlation <- function(data, score, quality, ...,
                                    method = "spearman", na_rm = FALSE,
                                    conf_level = NULL,
                                    se = "influence") {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  method <- check_choice(method, c("spearman", "kendall"), call = call)
  check_bool(na_rm, call = call)
  interval <- llm_form_interval(conf_level, missing(se), "{.arg se} is",
    call)
  if (interval) se <- check_correlation_se(se, call)
  estimator <- if (method == "kendall") "tau_b" else "mid_rank"
  llm_form_rows(data, rlang::enquo(score), rlang::enquo(quality),
    method, call, function(v) {
      x <- llm_rank_input(v$score, v$quality, na_rm, call)
      if (interval) return(correlation_interval(x, method, conf_level, se,
        call))
      r <- if (is.null(x)) NA_real_ else rank_correlation(x, method, call)
      llm_point_row(method, estimator, r)
    }
  )
}

#' @rdname quality_auroc_vec
#' @export
quality_auroc <- function(data, score, quality, threshold, ...,
                          na_rm = FALSE, case_weights = NULL) {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  threshold <- check_number(threshold, arg = "threshold", call = call)
  check_bool(na_rm, call = call)
  llm_form_rows(data, rlang::enquo(score), rlang::enquo(quality),
    "quality_auroc", call, function(v) {
      failure <- quality_failure(v$quality, threshold, call)
      llm_point_row("quality_auroc", "binary", failure_auroc_vec(v$score,
        failure, na_rm = na_rm, case_weights = v$case_weights))
    }, rlang::enquo(case_weights)
  )
}

#' @rdname quality_auroc_vec
#' @export
quality_aupr <- function(data, score, quality, threshold, ...,
                         positive = "correct", na_rm = FALSE,
                         case_weights = NULL) {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  threshold <- check_number(threshold, arg = "threshold", call = call)
  positive <- check_choice(positive, c("correct", "incorrect"), call = call)
  check_bool(na_rm, call = call)
  fn <- if (positive == "correct") success_aupr_vec else failure_aupr_vec
  llm_form_rows(data, rlang::enquo(score), rlang::enquo(quality),
    "quality_aupr", call, function(v) {
      failure <- quality_failure(v$quality, threshold, call)
      llm_point_row("quality_aupr", positive, fn(v$score, failure,
        na_rm = na_rm, case_weights = v$case_weights))
    }, rlang::enquo(case_weights)
  )
}

# Whether a data-frame form gives intervals: `conf_level` NULL (no) or a
# level in (0, 1). The interval's own options given without it are ignored
# with a classed warning (`defaults`: whether they were left alone;
# `options`: their names and the verb, "{.arg se} is").
llm_form_interval <- function(conf_level, defaults, options, call) {
  if (is.null(conf_level)) {
    if (!defaults) {
      warn_aurc(
        c(
          paste(options, "ignored without {.arg conf_level}."),
          i = "Give {.arg conf_level} (e.g. 0.95) for intervals."
        ),
        class = "aurc_warning_ignored", call = call
      )
    }
    return(FALSE)
  }
  check_number(conf_level, 0, 1, open = TRUE, call = call)
  TRUE
}

# The rows of a data-frame form: the columns of `data` (in memory only: a
# database table gives a classed error), then `fun` of each group's
# columns (a list of score, quality and case_weights), one tibble row per
# group after the grouping columns.
llm_form_rows <- function(data, score, quality, metric, call, fun,
                          case_weights = rlang::quo(NULL)) {
  values <- memory_columns(data,
    list(score = score, quality = quality, case_weights = case_weights),
    "{.val {metric}} is", call
  )
  groups <- data_groups(data)
  rows <- lapply(groups$rows, function(r) {
    fun(lapply(values, function(x) if (is.null(x)) NULL else x[r]))
  })
  if (length(rows) == 0) {
    # no groups: the columns of a row, without rows
    empty <- lapply(values, function(x) if (is.null(x)) NULL else x[0])
    rows <- list(suppressWarnings(fun(empty))[0, ])
  }
  out <- do.call(rbind, rows)
  if (is.null(groups$keys)) return(out)
  tibble::as_tibble(c(groups$keys, out))
}

llm_point_row <- function(metric, estimator, estimate) {
  tibble::tibble(
    .metric = metric, .estimator = estimator, .estimate = estimate
  )
}
