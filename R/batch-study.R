# The finite-sample study of Zhou et al. (2025), Sec. 4 (DEFINITIONS Sec. 6):
# the
# estimators on random disjoint batches of a test set against the full-set
# AURC. The kernel (src/core/batch_study.h) sorts the full set once.

#' Finite-sample study of the AURC estimators
#'
#' Reproduces the experiment of Zhou et al. (2025), Sec. 4, on any test set:
#' the test set is split at random into disjoint batches of `b` samples, for
#' each `b` in `batch_sizes`, every estimator of [aurc_vec()] is computed on
#' every batch, and the estimates are compared with the `"alpha"` AURC of the
#' full test set, which the paper takes as the population AURC.
#'
#' @section Procedure:
#' For each repetition `1..times` and, within it, each batch size `b` (in
#' increasing order), one random permutation of the `n` samples is drawn with
#' `sample.int(n)` (so [set.seed()] reproduces the study) and cut into
#' `floor(n / b)` consecutive batches of `b` samples; the last `n mod b`
#' samples of the permutation are left out of that split. Within a batch
#' every estimator is exactly what [aurc_vec()] gives on the batch's samples
#' (ties are one threshold). The full set is sorted once; each split is then
#' one linear pass per estimator (a batch's ranks follow from the global
#' order), so `1e5` samples with 8 batch sizes take a fraction of a second.
#'
#' Summary per batch size and estimator, over the `m` batch estimates `x`
#' (all repetitions pooled), with `p` the full-set `"alpha"` AURC:
#' `mean = mean(x)`, `sd = sd(x)` (denominator `m - 1`; `NA` when `m = 1`),
#' `bias = mean(x) - p`, `mse = mean((x - p)^2)`, `mae = mean(abs(x - p))`.
#'
#' @param score Confidence score of each test sample (higher = more
#'   confident).
#' @param loss Per-sample loss, finite and non-negative (e.g. 0/1 error or
#'   cross-entropy).
#' @param ... Not used; must be empty.
#' @param batch_sizes Batch sizes: distinct whole numbers from 1 to the
#'   number of samples. Default `2^(3:10)` (8 to 1024, as in the paper).
#' @param estimators Estimators to compute on each batch, any of `"alpha"`,
#'   `"alpha_prime"`, `"sele"`, `"2sele"`, `"trapezoid"`. Default the four of
#'   the paper.
#' @param times Number of random splits per batch size (a whole number, at
#'   least 1). The paper uses one.
#' @param na_rm If `TRUE`, samples with a missing score or loss are dropped
#'   first; if `FALSE` (the default) missing values are an error.
#'
#' @section Progress:
#' In an interactive session a progress bar appears when the work takes
#' more than two seconds; `options(aurc.progress = FALSE)` turns it off
#' (see [aurc-package]).
#' @return An object of class `aurc_batch_study`, a list with
#'   * `estimates`: a tibble with one row per batch and estimator:
#'     `batch_size`, `rep` (the repetition), `batch` (the batch within the
#'     split), `estimator`, `estimate`;
#'   * `summary`: a tibble with one row per batch size and estimator:
#'     `batch_size`, `estimator`, `mean`, `sd`, `bias`, `mse`, `mae`;
#'   * `population`: the full-set `"alpha"` AURC;
#'   * `n`, `batch_sizes`, `estimators`, `times`: the settings.
#'
#'   [autoplot()][autoplot.aurc_batch_study] draws the paper's views.
#' @inherit weight_stats references
#' @seealso [weight_bias()] and [weight_mse()] for the statistics of the
#'   weights themselves.
#' @examples
#' set.seed(1)
#' n <- 20000
#' score <- rnorm(n)
#' failure <- rbinom(n, 1, plogis(-1 - 1.5 * score))
#' study <- aurc_batch_study(score, failure, batch_sizes = 2^(3:9))
#' study
#' study$summary[study$summary$estimator == "alpha", ]
#' @export
aurc_batch_study <- function(score, loss, ..., batch_sizes = 2^(3:10),
                             estimators = c(
                               "alpha", "alpha_prime", "sele", "2sele"
                             ),
                             times = 1, na_rm = FALSE) {
  check_dots(...)
  check_numeric_vector(score)
  check_loss(loss, length(score))
  check_bool(na_rm)
  check_estimator_set(estimators, aurc_estimators)
  times <- check_whole_numbers(times)
  if (length(times) != 1) {
    abort_aurc(
      "{.arg times} must be a single whole number, not length {length(times)}.",
      class = "aurc_error_length"
    )
  }
  score <- as.double(score)
  loss <- as.double(loss)
  if (anyNA(score) || anyNA(loss)) {
    if (!na_rm) {
      abort_aurc(
        c(
          "{.arg score} and {.arg loss} must not contain missing values.",
          i = "Use {.code na_rm = TRUE} to drop incomplete pairs."
        ),
        class = "aurc_error_missing"
      )
    }
    keep <- !(is.na(score) | is.na(loss))
    score <- score[keep]
    loss <- loss[keep]
  }
  n <- length(score)
  batch_sizes <- check_batch_sizes(batch_sizes, n)
  check_cells(
    times * sum(floor(n / batch_sizes)) * length(estimators), "times",
    "the table of estimates (times x batches x estimators)"
  )

  bar <- progress_bar(times, "Batch study")
  values <- batch_study_impl(score, loss, batch_sizes, estimators,
                             as.integer(times), progress_callback(bar))
  population <- aurc_impl(score, loss, double(), "alpha")
  estimates <- batch_estimates_tibble(values, n, batch_sizes, estimators,
                                      times)
  new_aurc_batch_study(
    estimates = estimates,
    summary = summarise_batch_study(estimates, population, batch_sizes,
                                    estimators),
    population = population, n = n, batch_sizes = batch_sizes,
    estimators = estimators, times = times
  )
}

check_batch_sizes <- function(batch_sizes, n, call = rlang::caller_env()) {
  batch_sizes <- check_whole_numbers(batch_sizes, call = call)
  if (length(batch_sizes) == 0 || anyDuplicated(batch_sizes)) {
    abort_aurc(
      "{.arg batch_sizes} must be a non-empty set of distinct sizes.",
      class = "aurc_error_value", call = call
    )
  }
  bad <- which(batch_sizes > n)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg batch_sizes} must not exceed the number of samples ({n}).",
        x = "Batch size {.val {batch_sizes[bad[1]]}} is larger."
      ),
      class = "aurc_error_value", call = call
    )
  }
  sort(batch_sizes)
}

# The kernel returns, per split (repetitions outer, batch sizes inner), the
# batches x estimators values batch-major.
batch_estimates_tibble <- function(values, n, batch_sizes, estimators,
                                   times) {
  sizes <- rep(batch_sizes, times)
  reps <- rep(seq_len(times), each = length(batch_sizes))
  n_batches <- n %/% sizes
  len <- n_batches * length(estimators)
  tibble::tibble(
    batch_size = as.integer(rep(sizes, len)),
    rep = rep(reps, len),
    batch = unlist(lapply(n_batches, function(k) {
      rep(seq_len(k), each = length(estimators))
    })),
    estimator = rep(estimators, sum(n_batches)),
    estimate = values
  )
}

summarise_batch_study <- function(estimates, population, batch_sizes,
                                  estimators) {
  key <- factor(
    paste(estimates$batch_size, estimates$estimator),
    levels = paste(rep(batch_sizes, each = length(estimators)), estimators)
  )
  groups <- split(estimates$estimate, key)
  stat <- function(f) unname(vapply(groups, f, numeric(1)))
  means <- stat(base::mean)
  sds <- stat(function(x) if (length(x) > 1) stats::sd(x) else NA_real_)
  mse <- stat(function(x) base::mean((x - population)^2))
  mae <- stat(function(x) base::mean(abs(x - population)))
  tibble::tibble(
    batch_size = as.integer(rep(batch_sizes, each = length(estimators))),
    estimator = rep(estimators, length(batch_sizes)),
    mean = means, sd = sds, bias = means - population, mse = mse, mae = mae
  )
}

new_aurc_batch_study <- function(estimates, summary, population, n,
                                 batch_sizes, estimators, times) {
  structure(
    list(
      estimates = estimates, summary = summary, population = population,
      n = n, batch_sizes = batch_sizes, estimators = estimators,
      times = times
    ),
    class = "aurc_batch_study"
  )
}

#' @export
print.aurc_batch_study <- function(x, ...) {
  cat("<aurc_batch_study> finite-sample study of AURC estimators\n")
  cat(sprintf(
    "%d samples; full-set AURC (alpha) = %s\n", x$n,
    format(x$population, digits = 6)
  ))
  cat(sprintf(
    "batch sizes %s; %d random split%s per batch size\n",
    paste(x$batch_sizes, collapse = ", "), as.integer(x$times),
    if (x$times == 1) "" else "s"
  ))
  print(x$summary, ...)
  invisible(x)
}
