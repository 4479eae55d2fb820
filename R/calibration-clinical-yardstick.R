#' Clinical calibration summaries for yardstick and tune
#'
#' [ici()], [e50()], [e90()], [emax()] and [calibration_intercept()] as
#' yardstick class-probability metrics, beside [ece_prob()]: from a factor
#' `truth` and the class-probability columns of a tidymodels model, the
#' confidence of a row is its largest probability and it is correct when
#' that class (the first of tied maxima) is `truth` (top-label
#' calibration, as [ece_prob()]). ICI, E50, E90 and Emax have direction
#' `"minimize"` and range `[0, 1]`; the calibration intercept (calibration
#' in the large, 0 when calibrated) has direction `"zero"`. The
#' calibration slope has no yardstick direction (its target is 1) and is
#' left to [calibration_slope()]. yardstick's averaging estimators are
#' ignored with a warning of class `aurc_warning_ignored`; the
#' `.estimator` is `"loess"` or `"logistic"`.
#'
#' @inheritParams selective_prob_metrics
#' @inheritParams ici
#' @inheritParams calibration_intercept
#' @param estimator Ignored (yardstick's averaging estimator); `NULL`.
#' @return The data-frame form: a tibble with the grouping columns, then
#'   `.metric` (e.g. `"ici_prob"`), `.estimator`, `.estimate`. The `_vec`
#'   forms: a single number.
#' @seealso [ici()], [calibration_intercept()], [ece_prob()].
#' @examples
#' set.seed(1)
#' p1 <- runif(400)
#' truth <- factor(ifelse(runif(400) < p1^2, "yes", "no"), c("yes", "no"))
#' df <- data.frame(truth = truth, .pred_yes = p1, .pred_no = 1 - p1)
#' ici_prob(df, truth, .pred_yes, .pred_no)
#' calibration_intercept_prob_vec(df$truth, df$.pred_yes)
#' @name clinical_prob_metrics
NULL

new_clinical_prob_form <- function(metric, vec = FALSE) {
  first <- if (vec) c("truth", "estimate") else c("data", "truth")
  args <- rep(list(rlang::missing_arg()), 3)
  names(args) <- c(first, "...")
  args <- c(args, list(
    estimator = NULL, na_rm = TRUE, event_level = "first",
    case_weights = NULL
  ), if (metric == "calibration_intercept") {
    list(eps = 1e-8)
  } else {
    list(span = 0.75)
  })
  body <- rlang::call2("clinical_prob_eval", metric, vec, quote(...))
  fn <- rlang::new_function(args, body, env = topenv())
  if (vec) return(fn)
  intercept <- metric == "calibration_intercept"
  structure(fn,
    direction = if (intercept) "zero" else "minimize",
    range = if (intercept) c(-Inf, Inf) else c(0, 1),
    class = c("prob_metric", "metric", "function")
  )
}

clinical_prob_eval <- function(.metric, .vec, ...,
                               .env = rlang::caller_env()) {
  call <- .env
  cols <- prob_metric_columns(.vec, .env, ..., call = call)
  if (!is.null(.env$estimator)) {
    warn_aurc(
      c(
        "{.fn {(.metric)}_prob} ignores {.arg estimator}.",
        i = "Top-label calibration uses the largest probability of every
             row."
      ),
      class = "aurc_warning_ignored", call = call
    )
  }
  intercept <- .metric == "calibration_intercept"
  if (intercept) check_eps(.env$eps, call) else check_span(.env$span, call)
  check_bool(.env$na_rm, arg = "na_rm", call = call)
  event_level <- check_choice(.env$event_level, c("first", "second"),
    arg = "event_level", call = call
  )
  input <- prob_metric_input(cols$truth, cols$estimate, event_level, "msp",
    call,
    names = cols$names, case_weights = cols$case_weights
  )
  one <- function(rows) {
    pick <- function(x) if (is.null(rows) || is.null(x)) x else x[rows]
    conf <- pick(input$score)
    correct <- 1 - pick(input$loss)
    w <- pick(cols$case_weights)
    if (intercept) {
      return(recalibration_value(conf, correct, w, "intercept", .env$eps,
        .env$na_rm, call
      ))
    }
    d <- ici_distances(conf, correct, w, .env$span, .env$na_rm, call)
    ici_summaries(d, .metric, call)[[.metric]]
  }
  if (.vec) return(one(NULL))
  rows <- if (is.null(cols$rows)) list(NULL) else cols$rows
  values <- vapply(rows, one, numeric(1))
  metric_tibble(cols$keys, paste0(.metric, "_prob"),
    if (intercept) "logistic" else "loess",
    matrix(values, ncol = 1)
  )
}

#' @rdname clinical_prob_metrics
#' @export
ici_prob <- new_clinical_prob_form("ici")

#' @rdname clinical_prob_metrics
#' @export
ici_prob_vec <- new_clinical_prob_form("ici", vec = TRUE)

#' @rdname clinical_prob_metrics
#' @export
e50_prob <- new_clinical_prob_form("e50")

#' @rdname clinical_prob_metrics
#' @export
e50_prob_vec <- new_clinical_prob_form("e50", vec = TRUE)

#' @rdname clinical_prob_metrics
#' @export
e90_prob <- new_clinical_prob_form("e90")

#' @rdname clinical_prob_metrics
#' @export
e90_prob_vec <- new_clinical_prob_form("e90", vec = TRUE)

#' @rdname clinical_prob_metrics
#' @export
emax_prob <- new_clinical_prob_form("emax")

#' @rdname clinical_prob_metrics
#' @export
emax_prob_vec <- new_clinical_prob_form("emax", vec = TRUE)

#' @rdname clinical_prob_metrics
#' @export
calibration_intercept_prob <- new_clinical_prob_form("calibration_intercept")

#' @rdname clinical_prob_metrics
#' @export
calibration_intercept_prob_vec <- new_clinical_prob_form(
  "calibration_intercept",
  vec = TRUE
)
