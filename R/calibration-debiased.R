# The debiased l2 calibration error of Kumar, Liang & Ma (2019) (through
# `ece_vec(debias = TRUE)`), the bins of their library (`binning =
# "kumar2019"`), and the classwise ECE of a probability matrix.

ece_metric_name <- function(debias, call) {
  check_bool(debias, call = call)
  if (debias) "debiased_l2_ce" else "ece"
}

# Kumar et al.'s debiased estimate of the l2 calibration error from a table
# of calibration_bins(): per bin with n_b >= 2,
# (conf_b - acc_b)^2 - acc_b (1 - acc_b) / (n_b - 1) (the plug-in square
# minus the estimated variance of acc_b); bins with fewer than 2 samples
# count 0. The weighted sum (weights n_b / n) is floored at 0 before the
# square root.
debiased_l2_ce <- function(tab) {
  n <- tab$n
  use <- n >= 2
  err <- numeric(length(n))
  acc <- tab$accuracy[use]
  err[use] <- (tab$mean_confidence[use] - acc)^2 -
    acc * (1 - acc) / (n[use] - 1)
  sqrt(max(sum(n / sum(n) * err), 0))
}

# The bin edges of Kumar et al.'s `get_calibration_error()`: when fewer than
# n / 4 distinct confidences occur, one bin per distinct value (edges at the
# midpoints); otherwise their equal-count split of the sorted confidences
# into n_bins parts, an edge at the midpoint of the last value of a part and
# the first of the next. The current library splits as numpy.array_split
# (part sizes differ by at most one, the larger first); before 2022-08-27 it
# cut parts of ceiling(n / n_bins) (`legacy = TRUE`). Bins are closed on the
# right, as their `searchsorted`. With case weights, n is the total weight
# and "the k-th sorted sample" the first whose cumulative weight reaches k
# (integer weights = repeated rows). Returns edges for the fixed-edge
# kernel: 0, the distinct edges, 1.
kumar_breaks <- function(input, n_bins, legacy = FALSE) {
  x <- input$confidence
  w <- input$case_weights
  o <- order(x)
  s <- x[o]
  cw <- if (length(w)) cumsum(w[o]) else seq_along(s)
  total <- cw[length(cw)]
  distinct <- unique(s)
  if (length(distinct) < total / 4) {
    m <- length(distinct)
    edges <- (distinct[-m] + distinct[-1]) / 2
  } else {
    ends <- kumar_part_ends(total, n_bins, legacy)
    at <- function(p) s[findInterval(p, cw, left.open = TRUE) + 1]
    edges <- (at(ends) + at(ends + 1)) / 2
  }
  sort(unique(c(0, edges, 1)))
}

# The cumulative sizes at which the parts of the split end (the last, at
# n, left out). array_split: n_bins parts (at most n), the first
# n mod n_bins of size floor(n / n_bins) + 1.
kumar_part_ends <- function(total, n_bins, legacy) {
  if (legacy) {
    size <- ceiling(total / n_bins)
    ends <- seq(size, total, by = size)
    return(ends[ends < total])
  }
  k <- min(n_bins, floor(total))
  if (k <= 1) return(numeric())
  q <- floor(total / k)
  r <- round(total - q * k)
  sizes <- c(rep(q + 1, r), rep(q, k - r))
  ends <- cumsum(sizes)
  ends[ends < total]
}

#' Classwise expected calibration error of a probability matrix
#'
#' The calibration of every class probability, not only of the top label:
#' for class `k` the confidence is `probs[, k]` and the outcome
#' `labels == k`; `ECE_k` is the binned ECE of [ece_vec()] on these, and the
#' classwise ECE is their mean, `(1/K) sum_k ECE_k` (Kull et al. 2019). With
#' `debias = TRUE` each class gets the debiased l2 calibration error of
#' Kumar et al. (2019) and the result is `sqrt((1/K) sum_k CE_k^2)`, their
#' "marginal" calibration error.
#'
#' @inheritParams ece
#' @inheritParams top_label
#' @param binning,n_bins Bins per class (see [calibration_bins()]); the
#'   default is 15 equal-width bins, as Kull et al. For the bins of Kumar et
#'   al.'s library use `binning = "kumar2019"`.
#' @param na_rm If `FALSE` (the default) a row with a missing probability or
#'   label makes the result `NA`; if `TRUE` such rows are dropped.
#' @param case_weights Optional non-negative frequency weights, one per row.
#' @return `classwise_ece_vec()`: a number with attribute `per_class` (the
#'   per-class errors), or `NA`. `classwise_ece()`: a tibble with the
#'   grouping columns, `.metric` (`"classwise_ece"`, or
#'   `"classwise_debiased_l2_ce"` with `debias = TRUE`), `.estimator` (the
#'   binning) and `.estimate`, one row per group.
#' @references
#' Kull, Perello-Nieto, Kangsepp, Silva Filho, Song, Flach (2019). Beyond
#' temperature scaling: Obtaining well-calibrated multi-class probabilities
#' with Dirichlet calibration. NeurIPS 2019.
#'
#' Kumar, Liang, Ma (2019). Verified Uncertainty Calibration. NeurIPS 2019.
#' @seealso [ece_vec()], [top_label()].
#' @examples
#' set.seed(1)
#' probs <- matrix(runif(300 * 3), ncol = 3)
#' probs <- probs / rowSums(probs)
#' labels <- apply(probs, 1, function(p) sample(3, 1, prob = p))
#' classwise_ece_vec(probs, labels)
#' classwise_ece_vec(probs, labels, debias = TRUE, binning = "kumar2019")
#'
#' df <- data.frame(truth = factor(labels, 1:3, c("a", "b", "c")),
#'   .pred_a = probs[, 1], .pred_b = probs[, 2], .pred_c = probs[, 3],
#'   model = rep(c("m1", "m2"), 150))
#' classwise_ece(df, truth, .pred_a, .pred_b, .pred_c)
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   classwise_ece(dplyr::group_by(df, model), truth,
#'     dplyr::starts_with(".pred_"))
#' }
#' @export
classwise_ece_vec <- function(probs, labels, ..., binning = "equal_width",
                              n_bins = 15, conf_level = 0.9,
                              min_remaining = 40, min_range = 0.05,
                              breaks = NULL, debias = FALSE, na_rm = FALSE,
                              case_weights = NULL, labels_from = 1) {
  check_dots(...)
  call <- rlang::current_env()
  probs <- as_output_matrix(probs)
  labels_from <- check_labels_from(labels_from, call = call)
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  metric <- ece_metric_name(debias, call)
  check_bool(na_rm, call = call)
  classwise_compute(probs, labels, settings, metric, na_rm, case_weights,
    call,
    labels_from = labels_from
  )
}

#' @rdname classwise_ece_vec
#' @param data A data frame (grouped data frames give one row per group).
#' @param truth The column of true classes: a factor whose levels are in
#'   the order of the probability columns, or class numbers `1..K`.
#' @param ... For `classwise_ece()`: the `K` class-probability columns, in
#'   the order of the classes (tidyselect, e.g. `starts_with(".pred_")`).
#'   Unused otherwise.
#' @export
classwise_ece <- function(data, truth, ..., binning = "equal_width",
                          n_bins = 15, conf_level = 0.9, min_remaining = 40,
                          min_range = 0.05, breaks = NULL, debias = FALSE,
                          na_rm = FALSE, case_weights = NULL) {
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  metric <- ece_metric_name(debias, call)
  check_bool(na_rm, call = call)
  if (is_remote_data(data)) {
    abort_aurc(
      c(
        "{.val classwise_ece} is computed in memory only.",
        i = "Collect the columns first (e.g. with {.fn dplyr::collect})."
      ),
      class = "aurc_error_type", call = call
    )
  }
  check_data_frame(data, call = call)
  truth_col <- select_columns(data, list(rlang::enquo(truth)), "truth", call)
  prob_cols <- select_columns(data, rlang::enquos(...), "...", call)
  if (length(prob_cols) < 2) {
    abort_aurc(
      c(
        "{.arg ...} must select one probability column per class (at least 2).",
        x = "It selects {length(prob_cols)}."
      ),
      class = "aurc_error_column", call = call
    )
  }
  probs <- as.matrix(as.data.frame(data)[prob_cols])
  colnames(probs) <- NULL
  labels <- data[[truth_col]]
  cw <- eval_column(data, rlang::enquo(case_weights), "case_weights",
    call = call
  )
  if (is.object(cw)) cw <- as.double(unclass(cw))
  groups <- data_groups(data)
  estimate <- vapply(groups$rows, function(rows) {
    as.numeric(classwise_compute(probs[rows, , drop = FALSE], labels[rows],
      settings, metric, na_rm, if (is.null(cw)) NULL else cw[rows], call
    ))
  }, numeric(1))
  out <- tibble::tibble(
    .metric = paste0("classwise_", metric), .estimator = settings$binning,
    .estimate = estimate
  )
  if (!is.null(groups$keys)) out <- tibble::as_tibble(c(groups$keys, out))
  out
}

# The classwise error of validated options: per class the binned error of
# probs[, k] against labels == k, then their mean (ECE) or root mean square
# (debiased l2).
classwise_compute <- function(probs, labels, settings, metric, na_rm,
                              case_weights, call, labels_from = 1) {
  debias <- metric == "debiased_l2_ce"
  check_prob_matrix(probs, call = call)
  idx <- check_class_labels(labels, nrow(probs), ncol(probs),
    col_names = colnames(probs), call = call, labels_from = labels_from
  )
  ok <- stats::complete.cases(probs) & !is.na(idx)
  if (!all(ok)) {
    if (!na_rm) return(NA_real_)
    probs <- probs[ok, , drop = FALSE]
    idx <- idx[ok]
    if (!is.null(case_weights)) {
      check_numeric_vector(case_weights, "case_weights", call = call)
      check_same_length(case_weights, length(ok), "case_weights",
        arg_n = "probs", call = call
      )
      case_weights <- case_weights[ok]
    }
  }
  # every class has the same weights: their scale is told once
  told <- FALSE
  per_class <- withCallingHandlers(
    vapply(seq_len(ncol(probs)), function(k) {
      calibration_metric(pmin(probs[, k], 1), as.integer(idx == k),
        case_weights, settings, FALSE, metric, call
      )
    }, numeric(1)),
    aurc_warning_weights_scale = function(w) {
      if (told) invokeRestart("muffleWarning")
      told <<- TRUE
    }
  )
  value <- if (debias) sqrt(mean(per_class^2)) else mean(per_class)
  structure(value, per_class = per_class)
}
