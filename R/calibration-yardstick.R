#' Calibration errors for yardstick and tune
#'
#' Top-label [ece()] and [mce()] as yardstick class-probability metrics:
#' from a factor `truth` and the class-probability columns of a tidymodels
#' model, the confidence of a row is its largest probability and it is
#' correct when that class (the first of tied maxima) is `truth` (Sec. 8
#' of `system.file("DEFINITIONS.md", package = "aurc")`). They can sit in
#' [yardstick::metric_set()] next to `roc_auc` and
#' the selective metrics of [aurc_prob()]; both have direction
#' `"minimize"`. They exist whether or not yardstick is installed.
#'
#' yardstick's `estimator` argument picks the binning of
#' [calibration_bins()]: `"adaptive"` (default, Ding et al. 2020),
#' `"equal_width"`, `"equal_mass"` or `"ding2020"`; it is the `.estimator`
#' of the result. yardstick's averaging estimators (`"macro"`, ...) are
#' ignored with a warning of class `aurc_warning_ignored`, as is an option
#' the chosen binning does not use (`n_bins` with adaptive bins). Fix the
#' binning in a metric set with `yardstick::metric_tweak()`, e.g.
#' `metric_tweak("ece_15", ece_prob, estimator = "equal_width", n_bins = 15)`.
#'
#' @inheritParams selective_prob_metrics
#' @inheritParams calibration_bins
#' @param estimator The binning (see Details); `NULL` for `"adaptive"`.
#' @return The data-frame form: a tibble with the grouping columns, then
#'   `.metric` (`"ece_prob"`, `"mce_prob"`), `.estimator` (the binning) and
#'   `.estimate`. The `_vec` forms: a single number.
#' @seealso [ece()], [calibration_bins_df()], [top_label()].
#' @examples
#' set.seed(1)
#' p1 <- runif(400)
#' truth <- factor(ifelse(runif(400) < p1^2, "yes", "no"), c("yes", "no"))
#' df <- data.frame(truth = truth, .pred_yes = p1, .pred_no = 1 - p1)
#' ece_prob(df, truth, .pred_yes, .pred_no)
#' mce_prob(df, truth, .pred_yes, estimator = "equal_width")
#' ece_prob_vec(df$truth, df$.pred_yes)
#' @name calibration_prob_metrics
NULL

new_calibration_prob_form <- function(metric, vec = FALSE) {
  first <- if (vec) c("truth", "estimate") else c("data", "truth")
  args <- rep(list(rlang::missing_arg()), 3)
  names(args) <- c(first, "...")
  args <- c(args, list(
    estimator = NULL, na_rm = TRUE, event_level = "first",
    case_weights = NULL, n_bins = 10, conf_level = 0.9, min_remaining = 40,
    min_range = 0.05
  ))
  body <- rlang::call2("calibration_prob_eval", metric, vec, quote(...))
  fn <- rlang::new_function(args, body, env = topenv())
  if (vec) return(fn)
  structure(fn,
    direction = "minimize", range = c(0, 1),
    class = c("prob_metric", "metric", "function")
  )
}

calibration_prob_eval <- function(.metric, .vec, ...,
                                  .env = rlang::caller_env()) {
  call <- .env
  cols <- prob_metric_columns(.vec, .env, ..., call = call)
  estimator <- .env$estimator
  binning <- "adaptive"
  if (!is.null(estimator)) {
    if (rlang::is_string(estimator) && estimator %in% yardstick_estimators) {
      warn_aurc(
        c(
          paste(
            "{.fn {(.metric)}_prob} ignores {.code estimator = {.val",
            "{estimator}}}, a yardstick averaging estimator."
          ),
          i = paste(
            "Top-label calibration uses the largest probability of every",
            "row; {.arg estimator} chooses the binning:",
            "{.or {.val {calibration_binnings}}}."
          )
        ),
        class = "aurc_warning_ignored", call = call
      )
    } else {
      binning <- check_choice(estimator, calibration_binnings,
        arg = "estimator", call = call
      )
    }
  }
  settings <- calibration_settings(
    binning, FALSE, .env$n_bins, .env$conf_level, .env$min_remaining,
    .env$min_range, NULL, call
  )
  event_level <- check_choice(.env$event_level, c("first", "second"),
    arg = "event_level", call = call
  )
  input <- prob_metric_input(cols$truth, cols$estimate, event_level, "msp",
    call,
    names = cols$names, case_weights = cols$case_weights
  )
  res <- calibration_groups(input$score, 1 - input$loss, cols$case_weights,
    cols$rows, settings, .env$na_rm, call,
    convention = FALSE
  )
  if (.vec) return(res[[.metric]][[1]])
  metric_tibble(cols$keys, paste0(.metric, "_prob"), settings$binning,
    matrix(res[[.metric]], ncol = 1)
  )
}

#' @rdname calibration_prob_metrics
#' @export
ece_prob <- new_calibration_prob_form("ece")

#' @rdname calibration_prob_metrics
#' @export
ece_prob_vec <- new_calibration_prob_form("ece", vec = TRUE)

#' @rdname calibration_prob_metrics
#' @export
mce_prob <- new_calibration_prob_form("mce")

#' @rdname calibration_prob_metrics
#' @export
mce_prob_vec <- new_calibration_prob_form("mce", vec = TRUE)
