#' Excess and normalized AURC
#'
#' Both compare the AURC of a score with `AURC*`, the AURC of the best
#' possible ordering of the same predictions.
#'
#' * `eaurc()`: `E-AURC = AURC - AURC*` (Geifman et al. 2019).
#' * `naurc()`: `NAURC = (AURC - AURC*) / (mean(loss) - AURC*)` (Cattelan
#'   and Silva 2024): 0 for the oracle, about 1 for a random score
#'   (`mean(loss)` is the expected `"alpha"` AURC of a random score).
#'
#' The AURC is computed with any estimator of [aurc_vec()] (`estimator =`).
#'
#' @section The optimum:
#' * `optimum = "exact"` (default): `AURC*` is the same estimator applied to
#'   the oracle order, the samples sorted by loss with the highest loss least
#'   confident, in a strict order (every sample its own threshold; ties in
#'   loss are broken arbitrarily, which does not change the value). With
#'   case weights a sample of weight `w` counts as `w` samples: a block of
#'   equal loss and total weight `c` becomes `floor(c)` unit samples and one
#'   sample with the fractional rest, so integer weights give the result of
#'   repeated rows. The oracle order minimises every estimator over all
#'   orderings, so E-AURC is never negative for `"alpha"`, `"alpha_prime"`,
#'   `"sele"` and `"2sele"`, ties in the score included. The trapezoid rule is
#'   the exception: it interpolates linearly across a tie group and can fall
#'   below the strict oracle (see the examples).
#' * `optimum = "asymptotic"` (binary failures only, `eaurc()`): the
#'   closed form `err + (1 - err) log(1 - err)` of Geifman et al. with
#'   `err = mean(failure)`, the AURC of a perfect score as `n` grows. This is
#'   what the public code of Traub et al. uses. It is not a finite-sample
#'   minimum, so it can give a negative E-AURC (see the examples).
#'
#' @section Case weights at every scale:
#' The exact optimum counts cases, so E-AURC with it, NAURC (and PRR,
#' [prr()]) change when all weights are multiplied by one number, as
#' repeating every row changes them; they converge as the count grows
#' (the difference falls as `1 / total weight`: `1e-6` relative at a
#' million cases, `1e-9` at a billion). Weights that total less than one
#' case give `NA` with a warning of class `aurc_warning_weights_scale` (there
#' is no whole copy to order); totals above `2^53`, where doubles no longer
#' count whole copies, are brought into `[2^52, 2^53)` by a power of 2, so
#' the value is that of `2^52` to `2^53` cases. `optimum = "asymptotic"` and
#' [aurc()] with the `"alpha"` estimator do not depend on the weights'
#' scale at all.
#'
#' @inheritParams aurc
#' @param optimum `"exact"` (default) or `"asymptotic"` (see The optimum).
#'   With `"asymptotic"` the loss must be 0/1.
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator` and `.estimate`; `.estimator` is the AURC
#'   estimator and the optimum joined by `/` for `eaurc()` (e.g.
#'   `"alpha/exact"`), the estimator for `naurc()`. NAURC is `NA` (with a
#'   warning of class `aurc_warning_undefined`) when every loss is the same.
#' @references
#' Geifman, Uziel, El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for
#' Deep Neural Classifiers. ICLR.
#'
#' Cattelan, Silva (2024). How to Fix a Broken Confidence Estimator:
#' Evaluating Post-hoc Methods for Selective Classification with Deep Neural
#' Networks. UAI.
#' @examples
#' score <- c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)
#' failure <- c(0, 1, 0, 0, 1, 0, 1, 1, 0, 1)
#' eaurc_vec(score, failure)
#' naurc_vec(score, failure)
#'
#' # the oracle order itself has E-AURC 0 with the exact optimum, but not
#' # with the asymptotic one (here it is negative)
#' perfect <- 1 - failure
#' eaurc_vec(perfect + score / 10, failure)
#' eaurc_vec(perfect + score / 10, failure,
#'   estimator = "trapezoid", optimum = "asymptotic"
#' )
#'
#' # the trapezoid rule across a tie group can beat the strict oracle
#' eaurc_vec(c(2, 1, 1), c(0, 1, 1), estimator = "trapezoid")
#' @export
eaurc <- function(data, score, loss, ..., estimator = "alpha",
                  optimum = "exact",
                  correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("eaurc", ...)
}

#' @rdname eaurc
#' @export
eaurc_vec <- function(score, loss, ..., estimator = "alpha",
                      optimum = "exact",
                      correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_vec_form("eaurc", ...)
}

eaurc_optima <- c("exact", "asymptotic")

#' @rdname eaurc
#' @export
naurc <- function(data, score, loss, ..., estimator = "alpha",
                  correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("naurc", ...)
}

#' @rdname eaurc
#' @export
naurc_vec <- function(score, loss, ..., estimator = "alpha",
                      correct = NULL, na_rm = FALSE,
                      case_weights = NULL) {
  metric_vec_form("naurc", ...)
}
