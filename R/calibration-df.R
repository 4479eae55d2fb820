# Data-frame, grouped and probability-matrix forms of calibration: every
# group of a grouped data frame is binned in one C++ call
# (calibration_grouped_impl()) and one tibble is built at the end; a
# probability matrix with class labels becomes top-label confidence and
# correctness (DEFINITIONS Sec. 8).

#' Calibration bins of a data frame, per group
#'
#' The bins of [calibration_bins()] for the columns of a data frame, one set
#' per group of a grouped data frame (e.g. one per model), in one tidy
#' tibble: the grouping columns, then the columns of [calibration_bins()].
#' Since aurc 0.1.0 [calibration_bins()] itself takes a data frame, grouped
#' or not; `calibration_bins_df()` always returns the plain tibble (also for
#' one group).
#' All groups are binned in one pass in C++, so thousands of groups cost
#' little more than the same rows ungrouped. For reliability diagrams, one
#' per group, use [calibration_bins()] on the grouped data frame and
#' [autoplot()][ggplot2::autoplot()]: it returns the same table with the
#' histograms and settings the plot needs.
#'
#' @inheritParams calibration_bins
#' @param data A data frame, grouped or not.
#' @param confidence,correct Unquoted column names of `data` (or
#'   expressions of its columns): the confidence in `[0, 1]` and the 0/1
#'   correctness.
#' @param case_weights Optional non-negative frequency weights, an unquoted
#'   column name.
#' @return A tibble with the grouping columns, then `bin`, `lower`,
#'   `upper`, `min_confidence`, `max_confidence`, `n`, `mean_confidence`,
#'   `accuracy`, `gap`, `accuracy_lower`, `accuracy_upper` as in
#'   [calibration_bins()], one row per bin of every group. Missing values
#'   with `na_rm = FALSE`, or a group left without samples, are an error.
#' @seealso [ece()] and [mce()] for one number per group.
#' @examples
#' set.seed(1)
#' df <- data.frame(
#'   model = rep(c("a", "b"), each = 250),
#'   confidence = runif(500, 0.5, 1)
#' )
#' df$correct <- rbinom(500, 1, df$confidence^2)
#' calibration_bins_df(df, confidence, correct, binning = "equal_width")
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   calibration_bins_df(dplyr::group_by(df, model), confidence, correct)
#' }
#' @export
calibration_bins_df <- function(data, confidence, correct, ...,
                                binning = "adaptive", n_bins = 10,
                                conf_level = 0.9, min_remaining = 40,
                                min_range = 0.05, breaks = NULL,

                                loss = NULL, na_rm = FALSE,
                                case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  cols <- calibration_columns(data, rlang::enquo(confidence),
    rlang::enquo(correct), rlang::enquo(case_weights), call
  )
  calibration_bins_groups(cols, settings, na_rm, call)
}

# The bins of every group of the columns of calibration_columns(), in one
# tibble with the grouping columns first. `classed`: an
# `aurc_calibration_bins` (what calibration_bins() returns for a grouped
# data frame, so that autoplot() draws it) with the settings, the keys of
# the groups, their `n`, `ece`, `mce` and their histograms; otherwise the
# plain tibble of calibration_bins_df().
calibration_bins_groups <- function(cols, settings, na_rm, call,
                                    classed = FALSE) {
  res <- calibration_groups(cols$confidence, cols$correct, cols$case_weights,
    cols$groups$rows, settings, na_rm, call,
    strict = TRUE, histogram = classed
  )
  tab <- calibration_group_table(res, settings)
  keys <- cols$groups$keys
  if (!is.null(keys)) {
    tab <- tibble::as_tibble(c(keys[res$bin_group, ], tab))
  }
  if (!classed) return(tab)
  hist <- res$histogram
  hist <- tibble::as_tibble(c(keys[hist$group, ], hist[-1]))
  n <- vapply(split(tab$n, factor(res$bin_group, seq_len(nrow(keys)))), sum,
    numeric(1),
    USE.NAMES = FALSE
  )
  new_calibration_bins(tab,
    settings = settings, n = n, ece = res$ece, mce = res$mce,
    histogram = hist, groups = keys
  )
}

calibration_columns <- function(data, confidence, correct, case_weights,
                                call) {
  check_data_frame(data, call = call)
  list(
    confidence = eval_column(data, confidence, "confidence", call = call),
    correct = eval_column(data, correct, "correct", call = call),
    case_weights = eval_column(data, case_weights, "case_weights",
      call = call
    ),
    groups = data_groups(data)
  )
}

# ECE or MCE per group of a data frame: one row per group.
calibration_metric_groups <- function(data, confidence, correct,
                                      case_weights, settings, na_rm, metric,
                                      call) {
  cols <- calibration_columns(data, confidence, correct, case_weights, call)
  if (metric == "debiased_l2_ce" || settings$binning %in% kumar_binnings) {
    # data-driven bins or a per-bin correction: one group at a time
    values <- vapply(cols$groups$rows, function(rows) {
      calibration_metric(cols$confidence[rows], cols$correct[rows],
        cols$case_weights[rows], settings, na_rm, metric, call
      )
    }, numeric(1))
    values <- matrix(values, ncol = 1)
    return(metric_tibble(cols$groups$keys, metric, settings$binning, values))
  }
  res <- calibration_groups(cols$confidence, cols$correct, cols$case_weights,
    cols$groups$rows, settings, na_rm, call
  )
  values <- matrix(res[[metric]], ncol = 1)
  metric_tibble(cols$groups$keys, metric, settings$binning, values)
}

# Validates the columns once, applies the NA rule per group and bins every
# group in one C++ call. `strict`: missing values (na_rm = FALSE) and empty
# groups are errors (bins) rather than NA with a warning (metrics). Returns
# the per-bin sums of all groups (`bins`, with `bin_group`) and `ece`, `mce`
# per group.
calibration_groups <- function(confidence, correct, case_weights, rows,
                               settings, na_rm, call, strict = FALSE,
                               convention = TRUE, histogram = FALSE) {
  if (is.matrix(confidence)) {
    tl <- calibration_from_probs(confidence, correct, call)
    confidence <- tl$confidence
    correct <- tl$correct
    convention <- FALSE
  }
  scan <- calibration_check_columns(confidence, correct, case_weights, na_rm,
    settings, call,
    convention = convention
  )
  if (strict && !na_rm && scan[3] > 0) {
    abort_aurc(
      c(
        "{.arg confidence} and {.arg correct} must not have missing values.",
        i = "Use {.code na_rm = TRUE} to drop them."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  g <- group_columns(
    list(
      confidence = confidence, correct = correct, case_weights = case_weights
    ),
    rows, na_rm,
    drop_zero_weight = TRUE
  )
  sizes <- g$sizes
  n_groups <- length(sizes)
  na_group <- g$na_group
  empty <- sizes == 0 & !na_group
  if (any(empty)) {
    if (strict) {
      abort_aurc(
        c(
          "No samples left to bin.",
          i = "Check for missing values or all-zero {.arg case_weights}."
        ),
        class = "aurc_error_no_data", call = call
      )
    }
    for (k in which(empty)) warn_no_data(call = call)
  }
  # weights at any scale, per group (R/weights-scale.R); adaptive bins
  # count cases
  sc <- scale_group_weights(g$cols$case_weights, sizes,
    count = calibration_counts_cases(settings)
  )
  g$cols$case_weights <- sc$w
  few <- sc$too_few & !na_group & !empty
  if (any(few)) {
    if (strict) abort_calibration_scale(settings, call)
    warn_calibration_scale(settings, call = call)
  }
  filled <- which(sizes > 0)
  if (settings$binning %in% kumar_binnings) {
    abort_aurc(
      c(
        "{.code binning = {.val {settings$binning}}} has no grouped bin table.",
        i = "Use {.fn calibration_bins} on each group, or another binning."
      ),
      class = "aurc_error_value", call = call
    )
  }
  kernel <- if (settings$binning %in% c("equal_width", "custom")) {
    "breaks"
  } else {
    settings$binning
  }
  res <- calibration_grouped_impl(
    g$cols$confidence, g$cols$correct, g$cols$case_weights,
    c(0, cumsum(as.double(sizes[filled]))),
    kernel, if (is.null(settings$breaks)) double() else settings$breaks,
    settings$n_bins, settings$z, settings$min_remaining, settings$min_range,
    sort_threads(call)
  )
  if (any(res$status != 0)) {
    abort_ding2020(res$status[res$status != 0][1], call)
  }
  ece <- rep(NA_real_, n_groups)
  mce <- rep(NA_real_, n_groups)
  ece[filled] <- res$ece
  mce[filled] <- res$mce
  ece[few] <- NA_real_
  mce[few] <- NA_real_
  list(
    bins = res, bin_group = rep.int(filled, res$size), ece = ece, mce = mce,
    exponent = sc$exponent,
    histogram = if (histogram) {
      calibration_group_histogram(g$cols$confidence, g$cols$case_weights,
        g$gid, n_groups, sc$exponent
      )
    }
  )
}

# The histogram of calibration_table() for every group: the weight of the
# samples in 100 equal-width confidence bins (edges j / 100, as the C++
# kernel), per group, from the weights scaled by 2^exponent (the `n`
# column counts the cases the weights given stand for; the shares are free
# of the scale). A tibble with `group` (the group's number), `lower`,
# `upper`, `n`, `share`.
calibration_group_histogram <- function(confidence, case_weights, gid,
                                        n_groups, exponent) {
  k <- calibration_hist_bins
  cell <- (gid - 1L) * k + equal_width_bin_impl(confidence, k)
  counts <- numeric(n_groups * k)
  if (length(case_weights)) {
    sums <- rowsum(as.double(case_weights), cell)
    counts[as.integer(rownames(sums))] <- sums[, 1]
  } else {
    counts <- as.double(tabulate(cell, n_groups * k))
  }
  counts <- matrix(counts, k, n_groups)
  total <- rep(colSums(counts), each = k)
  tibble::tibble(
    group = rep(seq_len(n_groups), each = k),
    lower = rep(seq(0, k - 1) / k, n_groups),
    upper = rep(seq(1, k) / k, n_groups),
    n = times_pow2(as.vector(counts), rep(-exponent, each = k)),
    share = ifelse(total > 0, as.vector(counts) / total, NA_real_)
  )
}

# The per-bin table of calibration_bins() for every group at once.
calibration_group_table <- function(res, settings) {
  b <- res$bins
  g <- res$bin_group
  n <- b$n
  nonempty <- n > 0
  # the counts of the weights as given (calibration_table())
  n_given <- times_pow2(n, -res$exponent[g])
  lo <- ifelse(nonempty, b$min_confidence, NA_real_)
  hi <- ifelse(nonempty, b$max_confidence, NA_real_)
  mean_conf <- ifelse(nonempty, b$sum_confidence / n, NA_real_)
  accuracy <- ifelse(nonempty, b$sum_correct / n, NA_real_)
  first <- !duplicated(g)
  last <- !duplicated(g, fromLast = TRUE)
  bin <- sequence(b$size)
  if (is.null(settings$breaks)) {
    mid <- (c(NA, hi[-length(hi)]) + lo) / 2
    lower <- ifelse(first, lo, mid)
    upper <- ifelse(last, hi, c(mid[-1], NA))
  } else {
    k <- length(settings$breaks) - 1
    lower <- settings$breaks[-(k + 1)][bin]
    upper <- settings$breaks[-1][bin]
  }
  interval <- wilson_interval(accuracy, n_given)
  tibble::tibble(
    bin = bin, lower = lower, upper = upper,
    min_confidence = lo, max_confidence = hi, n = n_given,
    mean_confidence = mean_conf, accuracy = accuracy,
    gap = accuracy - mean_conf,
    accuracy_lower = interval[, 1], accuracy_upper = interval[, 2]
  )
}

# Top-label confidence and correctness from a probability matrix and class
# labels (DEFINITIONS Sec. 8): `confidence = max p`, `correct = argmax ==
# label`,
# the first maximum on ties. Rows with a missing value give NA.
calibration_from_probs <- function(probs, labels, call) {
  check_prob_matrix(probs, arg = "confidence", call = call)
  idx <- check_class_labels(labels, nrow(probs), ncol(probs),
    col_names = colnames(probs), arg = "correct", call = call
  )
  n <- nrow(probs)
  confidence <- rep(NA_real_, n)
  correct <- rep(NA_real_, n)
  ok <- stats::complete.cases(probs) & !is.na(idx)
  if (any(ok)) {
    p <- probs[ok, , drop = FALSE]
    top <- max.col(p, ties.method = "first")
    confidence[ok] <- pmin(p[cbind(seq_len(nrow(p)), top)], 1)
    correct[ok] <- as.double(top == idx[ok])
  }
  list(confidence = confidence, correct = correct)
}
