#' Partial AURC and AUGRC: the area over a range of coverage
#'
#' The area under the selective risk curve (`partial_aurc()`) or the
#' generalized risk curve (`partial_augrc()`) over the coverages
#' `[c1, c2]` only, for a deployment that will never accept fewer than
#' `c1` or more than `c2` of the predictions.
#'
#' @section Definitions:
#' The curves are those of [rc_curve()] joined as fd-shifts joins them
#' (Traub et al. 2024, `evaluate_auc()` with non-linear interpolation): a
#' tie group of the score is accepted gradually at its mean loss, so along
#' the segment of a group with count `c` and loss sum `s`, accepted after
#' `A` samples with loss `L` (coverage `u / n`, `u` from `A` to `A + c`),
#' * selective risk `R(u) = (L + (s / c)(u - A)) / u`,
#' * generalized risk `G(u) = (L + (s / c)(u - A)) / n`.
#'
#' This is the expected curve when ties are broken at random (the accepted
#' count is fixed; each tied sample is accepted with the same
#' probability), and it is exact between distinct scores. Then
#' `partial_aurc = integral_{c1}^{c2} R(c) dc` and
#' `partial_augrc = integral_{c1}^{c2} G(c) dc`, each in closed form per
#' group (a linear and a logarithmic term for `R`, a quadratic for `G`),
#' in one pass over the sorted scores. Below the first group the selective
#' risk is flat (its value at the first group), as in fd-shifts.
#'
#' The areas are not divided by the width `c2 - c1` (fd-shifts' convention);
#' divide by it for the mean selective risk over the range. Over `[0, 1]`,
#' `partial_augrc()` is the trapezoid AUGRC ([augrc()]) exactly, and
#' `partial_aurc()` is fd-shifts' AURC with non-linear interpolation,
#' which differs from the `"alpha"` estimator of [aurc()] by the
#' interpolation within each step (less than `1/n`).
#'
#' Intervals ([selective_ci()]) and paired comparisons ([compare_scores()])
#' take `metrics = "partial_aurc"` with `coverage_range`, analytic and
#' bootstrap. The analytic ones differentiate the closed form of each
#' group's integral (the recipe of [influence_functions]; the derivation is
#' in `R/ci-influence-partial.R`).
#'
#' @inheritParams aurc
#' @param coverage_range The range of coverage `c(c1, c2)`,
#'   `0 <= c1 < c2 <= 1`.
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator` (the range, e.g. `"coverage=0.5-1"`) and
#'   `.estimate`.
#' @references Traub, Bungert, Lüth, Baumgartner, Maier-Hein, Maier-Hein,
#'   Jaeger (2024). Overcoming common flaws in the evaluation of selective
#'   classification systems. NeurIPS 2024 (and its code, fd-shifts).
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' partial_aurc_vec(score, failure, coverage_range = c(0.5, 1))
#' # over [0, 1], partial AUGRC is the AUGRC
#' partial_augrc_vec(score, failure, coverage_range = c(0, 1))
#' augrc_vec(score, failure)
#' @export
partial_aurc <- function(data, score, loss, ..., coverage_range,
                         correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("partial_aurc", ...)
}

#' @rdname partial_aurc
#' @export
partial_aurc_vec <- function(score, loss, ..., coverage_range,
                             correct = NULL, na_rm = FALSE,
                             case_weights = NULL) {
  metric_vec_form("partial_aurc", ...)
}

#' @rdname partial_aurc
#' @export
partial_augrc <- function(data, score, loss, ..., coverage_range,
                          correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("partial_augrc", ...)
}

#' @rdname partial_aurc
#' @export
partial_augrc_vec <- function(score, loss, ..., coverage_range,

                              correct = NULL,
                              na_rm = FALSE, case_weights = NULL) {
  metric_vec_form("partial_augrc", ...)
}

check_coverage_range <- function(x, call) {
  if (rlang::is_missing(x) || is.null(x)) {
    abort_aurc(
      "{.arg coverage_range} is missing; give {.code c(c1, c2)} in [0, 1].",
      class = "aurc_error_type", call = call
    )
  }
  if (!is.numeric(x) || length(x) != 2 || is.object(x)) {
    abort_aurc(
      c(
        "{.arg coverage_range} must be two numbers {.code c(c1, c2)}.",
        x = "It is {.obj_type_friendly {x}} of length {length(x)}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  if (anyNA(x) || !(x[1] >= 0 && x[2] <= 1 && x[1] < x[2])) {
    abort_aurc(
      c(
        "{.arg coverage_range} must satisfy {.code 0 <= c1 < c2 <= 1}.",
        x = "It is {.code c({x[1]}, {x[2]})}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.double(x)
}
