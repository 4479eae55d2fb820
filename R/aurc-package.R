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
#'   exactly the result of the data with rows repeated. Every form also
#'   takes [hardhat::frequency_weights()] (counts, the same) and
#'   [hardhat::importance_weights()] (the same estimates; intervals, tests
#'   and power from the weighted sandwich and a bootstrap of cases, see
#'   [selective_ci()], section "Case weights").
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
#'   In a process forked from the one that loaded the package
#'   ([parallel::mclapply()], [parallel::mcparallel()], `future`'s
#'   `multicore` plan, `doParallel` or `tune` on forks) every call runs on
#'   one thread: OpenMP's worker threads do not survive `fork()`, and a
#'   forked child that waited for them would hang. The results are the
#'   same; a `threads` argument above 1 is told once per child (a message of
#'   class `aurc_message_threads`). The parent keeps its threads.
#' * `aurc.max_cells`: the most cells one result or work table may have
#'   (default 2^28, 2 GB of doubles); a request above it is a classed error
#'   (`aurc_error_size`) before anything is allocated.
#' * `aurc.workspace`: the most bytes of large work buffers (the sort's, of
#'   4 MiB and more each) kept between calls, 512 MiB (`2^29`) by default.
#'   Fresh memory made the time of one call vary by a factor of two at
#'   n = 1e7; a kept buffer is handed to the next call already backed, so
#'   repeated calls take the same time. About 32 bytes per sample are
#'   kept (320 MB after a call at n = 1e7), outside R's heap: they show
#'   in the process's memory, not in [gc()]'s table. They go back to the
#'   system at the first garbage collection (R's own or [gc()]) that comes
#'   three seconds or more after the last call that used them, and at once
#'   with [release_workspace()]. `options(aurc.workspace = 0)` keeps none
#'   (the next call frees what is kept); `Inf` sets no limit.
#' * `aurc.db_windows`: how the metrics of a lazy database table are
#'   computed. `"auto"` (the default): with window functions (running sums
#'   in the engine, one row per group comes back) on every backend but
#'   those known to lack them in some versions, ClickHouse before 21.9 and
#'   MySQL before 8.0 / MariaDB before 10.2, which are asked for their
#'   version once per connection. `FALSE`: the portable path on any
#'   engine: the engine computes only `GROUP BY` aggregates, the per-score
#'   and per-loss tables (one row per distinct score comes back), and the
#'   metrics are finished in R from them, exactly. `TRUE`: always the
#'   window path. See `vignette("databases")`, section "On a cluster".
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
  # kept work buffers go back to the system when R collects garbage after
  # three seconds of rest (R/workspace.R)
  start_workspace_release()
}

.onUnload <- function(libpath) {
  stop_workspace_release()
}
