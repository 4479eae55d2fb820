# Harrell's unreliability index U and its likelihood-ratio test, with the
# discrimination index D and the quality index Q = D - U, as rms's
# val.prob() reports them (issue 36), for a confidence in [0, 1] and a 0/1
# correctness. The logistic recalibration of R/calibration-clinical.R; no
# sort.

#' Harrell's unreliability index U and its test
#'
#' The likelihood-ratio test of the logistic recalibration `logit P(y = 1)
#' = a + b x`, `x = log(p / (1 - p))`, against the confidences as stated
#' (`a = 0`, `b = 1`), and the indexes built on deviances that
#' `rms::val.prob()` reports (Harrell 2015), whose results it equals.
#'
#' @section Definitions:
#' With confidences `p_i`, outcomes `y_i` (`correct`, 1 = the prediction
#' was right), case weights `w_i` (1 without weights), `n = sum_i w_i`, and
#' the deviance (-2 log-likelihood) `L(eta) = -2 sum_i w_i (y_i eta_i -
#' log(1 + exp(eta_i)))`:
#' * `L01 = L(x)`, the deviance of the confidences as stated;
#' * `Lcal = min_{a, b} L(a + b x)`, that of the logistic recalibration
#'   (the fit of [calibration_slope()]);
#' * `L0 = min_a L(a)`, that of a constant prediction (the proportion of
#'   right predictions).
#'
#' The **unreliability test** statistic is `chisq = L01 - Lcal`,
#' chi-square with 2 degrees of freedom under calibration (the
#' recalibration has two parameters more), p-value `P(chi^2_2 >= chisq)`.
#' The **unreliability index** is `U = (chisq - 2) / n`, the excess of the
#' deviance over its expectation under calibration, per case: near 0 (it
#' can be slightly negative) under calibration. The **discrimination index**
#' is `D = (L0 - L01 - 1) / n` and the **quality index** `Q = D - U`.
#'
#' As `val.prob()`, when every confidence is the same the slope cannot be
#' fitted: `Lcal` is then the fit of the intercept alone, with 1 degree of
#' freedom (`U = (chisq - 1) / n`), and `D = -1 / n`.
#'
#' Confidences of exactly 0 or 1 are moved to `eps` and `1 - eps`, as in
#' [calibration_slope()] (`val.prob()` leaves them out of the fit and keeps
#' them in `L01`, where a wrong one is infinite). The result is `NA` with a
#' warning of class `aurc_warning_undefined` when the recalibration has no
#' maximum: every outcome the same, or the outcomes separated by the
#' confidence. Case weights are frequencies (sample `i` counts `w_i`
#' times), so integer weights give `val.prob()` of the rows repeated; the
#' test and `U` count cases: weights totalling less than one case give `NA`
#' with a warning of class `aurc_warning_weights_scale`.
#'
#' The test has 2 degrees of freedom because it asks about the intercept
#' and the slope at once; it rejects for miscalibration in the large as
#' well as for confidences too extreme or too modest, and, like every test,
#' also for miscalibration too small to matter when `n` is large.
#'
#' @inheritParams calibration_slope_vec
#' @return A tibble with one row (per group of `data`, grouping columns
#'   first): `method` (`"unreliability"`), `statistic` (`chisq`), `df` (2,
#'   or 1 when every confidence is the same), `p_value`, `u` (U), `d` (D),
#'   `q` (Q), `n` (the number of samples, or the sum of the weights).
#' @references
#' Harrell, F. E. (2015). Regression Modeling Strategies, 2nd edition.
#' Springer.
#'
#' Harrell, F. E. rms: Regression Modeling Strategies. R package (version
#' 6.5-0 checked), function `val.prob()`.
#'
#' Cox, D. R. (1958). Two further applications of a model for binary
#' regression. Biometrika 45(3/4), 562-565.
#' @seealso [calibration_slope()] for the recalibration itself,
#'   [hosmer_lemeshow_test()], [calibration_test()].
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 0.99)
#' unreliability_index_vec(confidence, rbinom(1000, 1, confidence))
#' # overconfident: the true logit is 0.6 times the stated one
#' correct <- rbinom(1000, 1, plogis(0.6 * qlogis(confidence)))
#' unreliability_index(data.frame(confidence, correct), confidence, correct)
#' @export
unreliability_index <- function(data, confidence, correct, ..., eps = 1e-8,
                                loss = NULL, na_rm = FALSE,
                                case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  calibration_df_rows(
    data,
    list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    function(confidence, correct, case_weights) {
      unreliability_compute(confidence, correct, case_weights, eps, na_rm,
        call
      )
    },
    empty = unreliability_row(unreliability_na, NA_real_)[0, ],
    call = call
  )
}

#' @rdname unreliability_index
#' @export
unreliability_index_vec <- function(confidence, correct, ..., eps = 1e-8,
                                    loss = NULL, na_rm = FALSE,
                                    case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  unreliability_compute(confidence, correct, case_weights, eps, na_rm, call)
}

unreliability_na <- list(
  statistic = NA_real_, df = NA_real_, p_value = NA_real_, u = NA_real_,
  d = NA_real_, q = NA_real_
)

unreliability_row <- function(s, n) {
  tibble::tibble(
    method = "unreliability", statistic = s$statistic, df = s$df,
    p_value = s$p_value, u = s$u, d = s$d, q = s$q, n = n
  )
}

unreliability_compute <- function(confidence, correct, case_weights, eps,
                                  na_rm, call) {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call
  )
  if (identical(input, "missing")) {
    return(unreliability_row(unreliability_na, NA_real_))
  }
  if (is.null(input)) {
    warn_no_data(call = call)
    return(unreliability_row(unreliability_na, NA_real_))
  }
  n <- as.double(input$total)
  unreliability_row(unreliability_stats(input, eps, call), n)
}

# chisq, df, p-value, U, D, Q of validated input.
unreliability_stats <- function(input, eps, call) {
  w <- input$case_weights
  if (length(w)) {
    counts <- scale_group_weights(w, count = TRUE)
    if (counts$too_few) {
      warn_weights_scale("Harrell's U, D and Q",
        "They are deviances per case.", "{.fn calibration_slope}",
        call = call
      )
      return(unreliability_na)
    }
  }
  p <- input$confidence
  y <- input$correct
  x <- stats::qlogis(pmin(pmax(p, eps), 1 - eps))
  wt <- if (length(w)) w else rep(1, length(p))
  n <- sum(wt)
  deviance <- function(eta) {
    -2 * sum(wt * (y * eta - pmax(eta, 0) - log1p(exp(-abs(eta)))))
  }
  constant <- all(x == x[1])
  coef <- recalibration_fit(input, if (constant) "intercept" else "slope",
    eps, call,
    full = TRUE
  )
  if (anyNA(coef)) return(unreliability_na)
  ybar <- sum(wt * y) / n
  l01 <- deviance(x)
  l0 <- deviance(rep(stats::qlogis(ybar), length(x)))
  if (constant) {
    # val.prob(): the intercept alone, 1 df, D = -1 / n
    lcal <- deviance(rep(stats::qlogis(ybar), length(x)))
    df <- 1
    d <- -1 / n
  } else {
    lcal <- deviance(coef[1] + coef[2] * x)
    df <- 2
    d <- (l0 - l01 - 1) / n
  }
  chisq <- l01 - lcal
  u <- (chisq - df) / n
  list(
    statistic = chisq, df = df,
    p_value = stats::pchisq(chisq, df, lower.tail = FALSE), u = u, d = d,
    q = d - u
  )
}
