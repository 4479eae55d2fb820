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
#' * `aurc.threads`: the number of threads of the one sort behind every
#'   metric, curve and calibration error (default 1; capped silently at the
#'   cores available and `OMP_THREAD_LIMIT`). Only inputs of 2^16 values
#'   or more are sorted on more than one thread, and the result never
#'   depends on it. It also caps every `threads` argument (of
#'   [bootstrap_ranking()], [selective_ci()], ...), whose default stays 1.
#' * `aurc.max_cells`: the most cells one result or work table may have
#'   (default 2^28, 2 GB of doubles); a request above it is a classed error
#'   (`aurc_error_size`) before anything is allocated.
#' * `aurc.workspace`: the most bytes of large work buffers (the sort's, of
#'   4 MiB and more each) kept between calls, 512 MiB (`2^29`) by default.
#'   Fresh memory made the time of one call vary by a factor of two at
#'   n = 1e7; a kept buffer is handed to the next call already backed, so
#'   repeated calls take the same time. About 32 bytes per sample are
#'   kept (320 MB after a call at n = 1e7), outside R's heap: they show
#'   in the process's memory, not in [gc()]. `options(aurc.workspace = 0)`
#'   frees them at the next call and keeps none; `Inf` sets no limit.
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

.onLoad <- function(libname, pkgname) {
  # tidy() methods for generics (and broom) without depending on them
  register_tidy_methods()
}
