#' Clinical calibration summaries for yardstick and tune
#'
#' [ici()], [e50()], [e90()], [emax()] and [calibration_intercept()] as
#' yardstick class-probability metrics, beside [ece_prob()], from a factor
#' `truth` and the class-probability columns of a tidymodels model:
#' * **Two classes: the calibration of the event probability**, as
#'   clinical prediction modelling means it (Austin and Steyerberg; Van
#'   Calster et al.): the prediction is the probability of the event level
#'   (`event_level = "first"`, yardstick's default, or `"second"`) and the
#'   outcome whether `truth` is that level. A model that predicts the
#'   event with probability 0.3 should see it in 30% of such cases.
#' * **More classes: top-label calibration**, as [ece_prob()]: the
#'   confidence of a row is its largest probability and it is correct when
#'   that class (the first of tied maxima) is `truth`.
#'
#' The two differ for a binary model: top-label calibration folds the
#' probabilities at 0.5 (a prediction of 0.3 for the event is a
#' confidence of 0.7 in the other class), so it cannot see a model whose
#' event probabilities are too low on one side and too high on the other
#' in the same way. [ece_prob()] stays top-label for every number of
#' classes, as the machine-learning literature defines the ECE.
#'
#' ICI, E50, E90 and Emax have direction
#' `"minimize"` and range `[0, 1]`; the calibration intercept (calibration
#' in the large, 0 when calibrated) has direction `"zero"`. The
#' calibration slope has no yardstick direction (its target is 1) and is
#' left to [calibration_slope()]. yardstick's averaging estimators are
#' ignored with a warning of class `aurc_warning_ignored`; the
#' `.estimator` is `"loess"`, `"lowess"` (`smoother = "lowess"`, the
#' smooth of `rms::val.prob()`) or `"logistic"`.
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
    list(span = 0.75, smoother = "loess")
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
        i = "It measures the calibration of the event probability (two
             classes) or of the largest probability (top-label, more
             classes)."
      ),
      class = "aurc_warning_ignored", call = call
    )
  }
  intercept <- .metric == "calibration_intercept"
  smoother <- "logistic"
  if (intercept) {
    check_eps(.env$eps, call)
  } else {
    check_span(.env$span, call)
    smoother <- check_smoother(.env$smoother, !identical(.env$span, 0.75),
      call
    )
  }
  check_bool(.env$na_rm, arg = "na_rm", call = call)
  event_level <- check_choice(.env$event_level, c("first", "second"),
    arg = "event_level", call = call
  )
  input <- prob_metric_input(cols$truth, cols$estimate, event_level, "msp",
    call,
    names = cols$names, case_weights = cols$case_weights
  )
  lev <- levels(cols$truth)
  binary <- length(lev) == 2
  if (binary) {
    # the event's probability and whether the event happened
    e <- if (event_level == "first") 1L else 2L
    input$score <- ifelse(input$ok, input$probs[, e], NA_real_)
    input$loss <- ifelse(input$ok, as.double(cols$truth != lev[e]),
      NA_real_
    )
  }
  one <- function(rows) {
    pick <- function(x) if (is.null(rows) || is.null(x)) x else x[rows]
    conf <- pick(input$score)
    correct <- 1 - pick(input$loss)
    w <- pick(cols$case_weights)
    if (intercept) {
      return(recalibration_value(conf, correct, w, "intercept", .env$eps,
        .env$na_rm, call,
        convention = !binary
      ))
    }
    d <- ici_distances(conf, correct, w, .env$span, .env$na_rm, call,
      convention = !binary, smoother = smoother
    )
    ici_summaries(d, .metric, call)[[.metric]]
  }
  if (.vec) return(one(NULL))
  rows <- if (is.null(cols$rows)) list(NULL) else cols$rows
  values <- vapply(rows, one, numeric(1))
  metric_tibble(cols$keys, paste0(.metric, "_prob"),
    smoother,
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
