#' False positive rate at a true positive rate, and the achievable AURC
#'
#' Two metrics of failure detection as fd-shifts (Traub et al. 2024)
#' reports them, for a 0/1 failure.
#'
#' * `fpr_at_tpr()`: with the correct predictions as the positive class and
#'   the score as the ranking (accepted = predicted correct), the smallest
#'   false positive rate (the share of failures accepted) among the
#'   thresholds whose true positive rate (the share of correct predictions
#'   accepted) is at least `tpr`; ties in the score form one threshold.
#'   `tpr = 0.95` is the usual "FPR at 95% TPR". fd-shifts compares with
#'   0.9495 to absorb rounding; here a relative tolerance of `1e-12` does
#'   that, so pass `tpr = 0.9495` to reproduce fd-shifts exactly.
#' * `achievable_aurc()`: the AURC over fd-shifts' dominant working points,
#'   the vertices of the upper convex hull of the ROC points (false
#'   positive rate, true positive rate) of the distinct thresholds. A
#'   threshold that a random mixture of two others beats is dropped, and
#'   the risk-coverage curve between consecutive dominant points is joined
#'   as in [partial_aurc()] (the accepted count and failures grow linearly).
#'   It is never above the AURC of the same interpolation over all points
#'   (`partial_aurc(coverage_range = c(0, 1))`). All correct or all failed:
#'   the error rate.
#'
#' Both have bootstrap intervals ([selective_ci()] with
#' `method = "bootstrap"`). `fpr_at_tpr()` also has analytic ones: its
#' influence function treats the threshold as the `1 - tpr` quantile of
#' the correct predictions' scores, with the slope of the ROC curve there
#' estimated from about `sqrt(n)` cases around it (as for the risk at
#' coverage; `?influence_functions`). Simulated with normal scores, it
#' covered the population value in 92.5-95.2% of 600 samples of n = 500
#' and 2000 at `tpr` 0.8 and 0.95. `achievable_aurc()`, a convex hull of
#' the empirical ROC points, has bootstrap intervals only. NA with a
#' classed warning when either class is empty (`fpr_at_tpr()`).
#'
#' @inheritParams failure_auroc
#' @param tpr The true positive rate to reach, in (0, 1).
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator`, `.estimate`.
#' @references Traub, Bungert, Lüth, Baumgartner, Maier-Hein, Maier-Hein,
#'   Jaeger (2024). Overcoming common flaws in the evaluation of selective
#'   classification systems. NeurIPS 2024 (and its code, fd-shifts).
#' @examples
#' set.seed(1)
#' score <- runif(500)
#' failure <- rbinom(500, 1, 0.5 * (1 - score))
#' fpr_at_tpr_vec(score, failure)
#' achievable_aurc_vec(score, failure)
#' partial_aurc_vec(score, failure, coverage_range = c(0, 1))
#' @export
fpr_at_tpr <- function(data, score, failure, ..., tpr = 0.95,
                       correct = NULL, na_rm = FALSE,
                       case_weights = NULL) {
  metric_df_form("fpr_at_tpr", ...)
}

#' @rdname fpr_at_tpr
#' @export
fpr_at_tpr_vec <- function(score, failure, ..., tpr = 0.95,
                           correct = NULL, na_rm = FALSE,
                           case_weights = NULL) {
  metric_vec_form("fpr_at_tpr", ...)
}

#' @rdname fpr_at_tpr
#' @export
achievable_aurc <- function(data, score, failure, ...,
                            correct = NULL, na_rm = FALSE,
                            case_weights = NULL) {
  metric_df_form("achievable_aurc", ...)
}

#' @rdname fpr_at_tpr
#' @export
achievable_aurc_vec <- function(score, failure, ...,
                                correct = NULL, na_rm = FALSE,
                                case_weights = NULL) {
  metric_vec_form("achievable_aurc", ...)
}
