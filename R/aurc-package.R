#' aurc: evaluate selective classifiers
#'
#' A selective classifier abstains when its confidence score is too low.
#' `aurc` measures how good the trade-off between risk and coverage is
#' ([aurc_vec()] and its estimators), which confidence score is best, and
#' whether confidences are calibrated. Every definition is exact and written
#' out in the help page of its function.
#'
#' @section Conventions:
#' * `score`: any real number, higher means more confident; samples are
#'   accepted from the highest score down. The direction is never flipped.
#' * `loss`: a finite, non-negative loss per sample (0/1 error,
#'   cross-entropy, Brier score, ...).
#' * Ties: samples with equal scores are accepted or rejected together; no
#'   result depends on the order of the rows.
#' * `case_weights`: non-negative frequency weights. Integer weights give
#'   exactly the result of the data with rows repeated.
#' * Missing values: with `na_rm = FALSE` a metric is `NA`; with
#'   `na_rm = TRUE` incomplete pairs are dropped.
#'
#' @section Options:
#' * `aurc.progress`: long work ([bootstrap_ranking()],
#'   [aurc_batch_study()]) shows a progress bar (from \pkg{cli}) in
#'   interactive sessions once it has run for two seconds. Set
#'   `options(aurc.progress = FALSE)` to turn the bars off. Scripts,
#'   `R CMD check` and tests never show them.
#'
#' @keywords internal
#' @docType package
#' @name aurc-package
#' @useDynLib aurc, .registration = TRUE
#' @importFrom Rcpp sourceCpp
NULL

#' @importFrom ggplot2 autoplot
#' @export
ggplot2::autoplot
