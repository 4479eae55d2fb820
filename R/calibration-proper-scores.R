#' Brier score, scaled Brier score and log loss
#'
#' The strictly proper scores of a probability, which reward calibration
#' and discrimination together (issue 36), for a confidence `p` in
#' `[0, 1]` and a 0/1 correctness `y` (1 = right), with case weights `w`
#' (weighted means; the values do not change when every weight is
#' multiplied by one number):
#' * `brier_score()`: `sum w (p - y)^2 / sum w` (Brier 1950), 0 for a
#'   perfect forecast, lower is better;
#' * `scaled_brier_score()`: `1 - Brier / (ybar (1 - ybar))`, `ybar` the
#'   weighted mean of `y` (Steyerberg et al. 2010): the Brier score
#'   relative to the one of always forecasting `ybar`; 1 is perfect, 0 no
#'   better than the base rate, higher is better. It is `NA`, with a
#'   warning of class `aurc_warning_undefined`, when every `y` is the same;
#' * `log_loss()`: `-sum w (y log p + (1 - y) log(1 - p)) / sum w`, the
#'   negative log-likelihood (cross-entropy) of the outcomes, with `p`
#'   clipped to `[1e-15, 1 - 1e-15]` so that a confident mistake costs
#'   about 34.5 rather than infinity (scikit-learn's clipping before
#'   version 1.5).
#'
#' For a binary model give the probability of the event as `confidence`
#' and the event indicator as `correct`; for the top-label scores of a
#' classifier, its largest probability and whether that class was right.
#' Intervals and paired comparisons: [selective_ci()] and
#' [compare_scores()] with `metrics = "brier_score"`,
#' `"scaled_brier_score"` or `"log_loss"`, analytic (their influence
#' functions, exact for these means and the delta method for the scaled
#' score) or by the bootstrap.
#'
#' @inheritParams calibration_test
#' @return The `_vec` forms: a number. The data-frame forms: a tibble with
#'   the grouping columns, `.metric`, `.estimator` (`"binary"`) and
#'   `.estimate`.
#' @references
#' Brier, G. W. (1950). Verification of forecasts expressed in terms of
#' probability. Monthly Weather Review 78(1), 1-3.
#'
#' Steyerberg, E. W., Vickers, A. J., Cook, N. R., et al. (2010). Assessing
#' the performance of prediction models: a framework for traditional and
#' novel measures. Epidemiology 21(1), 128-138.
#' @seealso [calibration_slope()], [ici()], [ece()].
#' @examples
#' set.seed(1)
#' p <- runif(500, 0.5, 1)
#' y <- rbinom(500, 1, p^2)
#' brier_score_vec(p, y)
#' scaled_brier_score_vec(p, y)
#' log_loss_vec(p, y)
#' log_loss(data.frame(p, y), p, y)
#' @name proper_scores
NULL

new_proper_score_vec <- function(metric) {
  function(confidence, correct, ..., loss = NULL, na_rm = FALSE,
           case_weights = NULL) {
    correct_from_loss()
    check_dots(...)
    call <- rlang::current_env()
    proper_score_value(confidence, correct, case_weights, metric, na_rm,
      call
    )
  }
}

new_proper_score_df <- function(metric) {
  function(data, confidence, correct, ..., loss = NULL, na_rm = FALSE,
           case_weights = NULL) {
    correct_from_loss()
    check_dots(...)
    call <- rlang::current_env()
    metric_df(
      data,
      columns = list(
        confidence = rlang::enquo(confidence),
        correct = rlang::enquo(correct),
        case_weights = rlang::enquo(case_weights)
      ),
      fn = function(confidence, correct, case_weights) {
        proper_score_value(confidence, correct, case_weights, metric, na_rm,
          call
        )
      },
      metric = metric, estimator = "binary", call = call
    )
  }
}

#' @rdname proper_scores
#' @export
brier_score <- new_proper_score_df("brier_score")

#' @rdname proper_scores
#' @export
brier_score_vec <- new_proper_score_vec("brier_score")

#' @rdname proper_scores
#' @export
scaled_brier_score <- new_proper_score_df("scaled_brier_score")

#' @rdname proper_scores
#' @export
scaled_brier_score_vec <- new_proper_score_vec("scaled_brier_score")

#' @rdname proper_scores
#' @export
log_loss <- new_proper_score_df("log_loss")

#' @rdname proper_scores
#' @export
log_loss_vec <- new_proper_score_vec("log_loss")

# The clipping of log_loss().
log_loss_eps <- 1e-15

proper_score_value <- function(confidence, correct, case_weights, metric,
                               na_rm, call) {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call
  )
  if (identical(input, "missing")) return(NA_real_)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NA_real_)
  }
  proper_scores(input$confidence, input$correct, input$case_weights,
    metric, call
  )[[metric]]
}

# Every proper score of `wanted` on validated input (weights double() for
# none): a named list.
proper_scores <- function(p, y, w, wanted, call) {
  w <- rescale_weights(w)
  if (!length(w)) w <- rep(1, length(p))
  total <- sum(w)
  out <- list()
  if (any(c("brier_score", "scaled_brier_score") %in% wanted)) {
    out$brier_score <- sum(w * (p - y)^2) / total
  }
  if ("scaled_brier_score" %in% wanted) {
    ybar <- sum(w * y) / total
    base <- ybar * (1 - ybar)
    out$scaled_brier_score <- if (base > 0) {
      1 - out$brier_score / base
    } else {
      warn_aurc(
        c(
          "The scaled Brier score is undefined here; returning {.val {NA}}.",
          i = "Every outcome is the same, so the base rate's Brier score
               is 0."
        ),
        class = "aurc_warning_undefined", call = call
      )
      NA_real_
    }
  }
  if ("log_loss" %in% wanted) {
    q <- pmin(pmax(p, log_loss_eps), 1 - log_loss_eps)
    out$log_loss <- -sum(w * (y * log(q) + (1 - y) * log1p(-q))) / total
  }
  out
}

# Influence functions for the intervals (the metric_influence_plan() of
# their catalog entries): the Brier score and the log loss are weighted
# means, IF_i = s_i - mean; the scaled score S = 1 - B / V with V = ybar
# (1 - ybar) by the delta method, IF = -IF_B / V + B IF_V / V^2 with
# IF_V = (1 - 2 ybar) (y - ybar).
proper_score_influence_of <- function(metric) {
  function(score, loss, case_weights, o) {
    p <- as.double(score)
    y <- 1 - as.double(loss)
    w <- if (length(case_weights)) as.double(case_weights) else
      rep(1, length(p))
    total <- sum(w)
    est <- proper_scores(p, y, w, metric, o$call %||% rlang::caller_env())
    value <- est[[metric]]
    if (is.na(value)) return(NULL)
    inf <- switch(metric,
      brier_score = (p - y)^2 - value,
      log_loss = {
        q <- pmin(pmax(p, log_loss_eps), 1 - log_loss_eps)
        -(y * log(q) + (1 - y) * log1p(-q)) - value
      },
      scaled_brier_score = {
        b <- sum(w * (p - y)^2) / total
        ybar <- sum(w * y) / total
        v <- ybar * (1 - ybar)
        -((p - y)^2 - b) / v + b * (1 - 2 * ybar) * (y - ybar) / v^2
      }
    )
    list(
      estimate = value, influence = inf,
      std_error = sqrt(sum(w * inf^2) * total / (total - 1)) / total
    )
  }
}
