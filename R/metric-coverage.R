#' Risk at a coverage, coverage at a risk
#'
#' Working points of a selective classifier on its risk-coverage curve
#' ([rc_curve()]), where tied scores are accepted or rejected together.
#'
#' * `risk_at_coverage()`: the selective risk (mean loss of the accepted
#'   predictions) at the largest threshold whose coverage is at least
#'   `coverage`: the smallest set of most confident predictions, closed
#'   under ties, that covers at least that share. Ties can make the achieved
#'   coverage larger than asked; the data-frame form reports it in
#'   `.coverage`.
#' * `coverage_at_risk()`: the largest coverage among the thresholds whose
#'   selective risk is at most `risk`; 0 when no threshold qualifies.
#'
#' @inheritParams aurc
#' @param coverage The coverage wanted, a number in `[0, 1]`.
#' @param risk The largest selective risk allowed, a number `>= 0`.
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator` (the target, e.g. `"coverage=0.8"`) and
#'   `.estimate`; `risk_at_coverage()` adds `.coverage`, the coverage
#'   achieved.
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' # 50 % coverage: the tie at 0.8 makes the smallest such set 3 of 6
#' risk_at_coverage_vec(score, failure, coverage = 0.5)
#' risk_at_coverage(data.frame(score, failure), score, failure, coverage = 0.4)
#' coverage_at_risk_vec(score, failure, risk = 0.25)
#' @export
risk_at_coverage <- function(data, score, loss, ..., coverage, na_rm = FALSE,
                             case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  coverage <- check_number(coverage, 0, 1, call = call)
  achieved <- numeric()
  out <- metric_df(
    data,
    columns = list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(score, loss, case_weights) {
      v <- compute_metrics(score, loss, "risk_at_coverage", na_rm,
        case_weights, call,
        coverage = coverage
      )
      achieved <<- c(achieved, attr(v, "coverage"))
      v[[1]]
    },
    metric = "risk_at_coverage", estimator = paste0("coverage=", coverage),
    call = call
  )
  # the database and score-table forms fill .coverage themselves
  if (!".coverage" %in% names(out)) out$.coverage <- achieved
  out
}

#' @rdname risk_at_coverage
#' @export
risk_at_coverage_vec <- function(score, loss, ..., coverage, na_rm = FALSE,
                                 case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  coverage <- check_number(coverage, 0, 1, call = call)
  compute_metrics(score, loss, "risk_at_coverage", na_rm, case_weights, call,
    coverage = coverage
  )[[1]]
}

#' @rdname risk_at_coverage
#' @export
coverage_at_risk <- function(data, score, loss, ..., risk, na_rm = FALSE,
                             case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  risk <- check_number(risk, 0, call = call)
  metric_df(
    data,
    columns = list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(score, loss, case_weights) {
      compute_metrics(score, loss, "coverage_at_risk", na_rm, case_weights,
        call,
        risk = risk
      )[[1]]
    },
    metric = "coverage_at_risk", estimator = paste0("risk=", risk),
    call = call
  )
}

#' @rdname risk_at_coverage
#' @export
coverage_at_risk_vec <- function(score, loss, ..., risk, na_rm = FALSE,
                                 case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  risk <- check_number(risk, 0, call = call)
  compute_metrics(score, loss, "coverage_at_risk", na_rm, case_weights, call,
    risk = risk
  )[[1]]
}
