#' Rank-calibration error of an uncertainty measure
#'
#' How far the ranking of outputs by confidence is from the ranking by
#' expected quality (Huang, Liu, et al. 2024): an uncertainty measure is
#' rank-calibrated when a lower uncertainty always means a higher expected
#' quality, whatever the scale of either. The score is a **confidence**
#' (higher = more confident); give an uncertainty as its negative.
#'
#' @section Definition:
#' The plug-in estimator with equal-mass bins of the authors' code
#' (`plugin_RCE_est()` with `use_kernel = False` in `metrics/calibration.py`
#' of github.com/shuoli90/Rank-Calibration, and
#' `regressed_correctness_vs_uncertainty_cdf()` there), for `p = 1` the
#' `l1` rank-calibration error and for `p = 2` its square form:
#' 1. sort the `n` outputs by uncertainty, ascending (here by `score`,
#'    descending), ties in input order (a stable sort: the authors'
#'    `np.argsort()` is NumPy's default sort, which agrees with a stable
#'    one up to 16 elements); the output at position `i = 1, ..., n` has
#'    the uncertainty level `u_i = (i - 1) / (n - 1)`;
#' 2. cut the positions into `B = n_bins` bins at
#'    `e_b = round(b n / B)`, `b = 0, ..., B` (rounding half to even, as
#'    Python's `round()`); bin `b` holds positions `e_{b-1} + 1, ..., e_b`
#'    (`h_b` of them; empty bins are skipped);
#' 3. the regressed quality `a_b` of bin `b` is its mean quality, summed
#'    as `np.mean()` sums (NumPy's pairwise summation), so that two bins
#'    tie exactly when they tie in the authors' code (with a quality in
#'    tenths, two bins of mean 0.8 may differ in the last bit);
#' 4. the quality level of bin `b` is
#'    `D_b = (G_b - (h_b + 1) / 2) / (n - 1)`, with `G_b` the number of
#'    outputs whose bin's regressed quality is at least `a_b`: the
#'    authors' `(#{j: a_j >= a_i} - 1) / (n - 1)`, averaged over the bin and
#'    lowered by `(h_b - 1) / (2 (n - 1))` to undo the ties the binning
#'    made;
#' 5. `RCE = (1 / n) sum_i |D_{b(i)} - u_i|^p`.
#'
#' A perfectly rank-calibrated score (quality falling with uncertainty,
#' bin by bin) has `D_b` equal to the mean of `u_i` over its bin, so its RCE
#' is the spread of `u` within bins, about `1 / (4 B)` for `p = 1`; a score
#' that ranks backwards has RCE near 1/2. It needs `n >= 2`; `NA` with a
#' warning of class `aurc_warning_undefined` otherwise. Case weights are
#' not taken: the estimator counts positions.
#'
#' Like LM-Polygraph's PRR (`prr(ties = "lm_polygraph")`), the estimator
#' reads tied scores in the order of the rows: with a score of few values
#' (a verbalised confidence) the bins cut through tie groups, and the value
#' changes when the rows are reordered.
#'
#' `rank_calibration_error_ci()` gives a bootstrap interval (percentile or
#' normal) over `times` resamples of the outputs; each resample is sorted
#' with its ties in the order of the original rows, as the estimator is.
#'
#' @param data A data frame (a grouped data frame gives one row per
#'   group). A lazy database table gives an error of class
#'   `aurc_error_type`: collect the columns first ([dplyr::collect()]).
#' @param score A confidence (higher = more confident) per output: the
#'   negative of an uncertainty such as the entropy or perplexity. For the
#'   data-frame forms an unquoted column (or an expression of columns).
#' @param quality The quality of each output, a number (the authors'
#'   correctness in `[0, 1]`; any scale works, only the order matters).
#'   For the data-frame forms an unquoted column.
#' @param n_bins The number of equal-mass bins `B` (the authors' default
#'   20).
#' @param p The order: 1 (the default) or 2.
#' @param ... Not used; must be empty.
#' @param na_rm Drop outputs with a missing score or quality (else the value
#'   is `NA`).
#' @param conf_level,times,type The confidence level, the number of
#'   bootstrap resamples and the interval: `"percentile"` or `"normal"`.
#'   In `rank_calibration_error()`, `conf_level = NULL` (the default)
#'   gives estimates only; a level gives each group's row of
#'   `rank_calibration_error_ci()` (`times` and `type` without it are
#'   ignored with a warning of class `aurc_warning_ignored`).
#' @return `rank_calibration_error_vec()`: a single number.
#'   `rank_calibration_error_ci()`: a tibble with `.metric`, `.estimator`
#'   (`"n_bins=20/p=1"`), `.estimate`, `.lower`, `.upper`, `.std_error`,
#'   `.conf_level`, `.method`. `rank_calibration_error()`: a tibble with
#'   the grouping columns, `.metric`, `.estimator` and `.estimate`, one
#'   row per group (the value of `rank_calibration_error_vec()` on the
#'   group's rows, in their order); with `conf_level`, the grouping
#'   columns and each group's row of `rank_calibration_error_ci()`, the
#'   groups resampled one after the other.
#' @references Huang, Liu, Wang, Liang, Mou, Wu (2024). Uncertainty in
#'   language models: assessment through rank-calibration. EMNLP 2024.
#' @seealso [uncertainty_correlation_vec()], [prr()].
#' @examples
#' set.seed(1)
#' n <- 300
#' entropy <- rexp(n)
#' rouge <- pmin(1, pmax(0, 0.9 - 0.3 * entropy + rnorm(n, sd = 0.2)))
#' rank_calibration_error_vec(-entropy, rouge)
#' rank_calibration_error_vec(entropy, rouge) # backwards
#' rank_calibration_error_ci(-entropy, rouge, times = 200)
#' d <- data.frame(model = rep(c("a", "b"), each = 150), entropy, rouge)
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   by_model <- dplyr::group_by(d, model)
#'   print(rank_calibration_error(by_model, -entropy, rouge))
#'   rank_calibration_error(by_model, -entropy, rouge, conf_level = 0.9,
#'     times = 200)
#' }
#' @export
rank_calibration_error_vec <- function(score, quality, ..., n_bins = 20,
                                       p = 1, na_rm = FALSE) {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  x <- llm_rank_input(score, quality, na_rm, call)
  n_bins <- check_number(n_bins, 1, 1e6, whole = TRUE, call = call)
  p <- check_rce_order(p, call)
  rce_point(x, n_bins, p, call)
}

# The estimate of rank_calibration_error_vec() on checked input `x` of
# llm_rank_input() (NULL: a missing value without na_rm).
rce_point <- function(x, n_bins, p, call) {
  if (is.null(x)) return(NA_real_)
  out <- rce_value(x$score, x$quality, n_bins, p)
  if (is.na(out)) warn_rce_small(call)
  out
}

#' @rdname rank_calibration_error_vec
#' @export
rank_calibration_error_ci <- function(score, quality, ..., n_bins = 20,
                                      p = 1, na_rm = FALSE,
                                      conf_level = 0.95, times = 1000,
                                      type = "percentile") {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  x <- llm_rank_input(score, quality, na_rm, call)
  n_bins <- check_number(n_bins, 1, 1e6, whole = TRUE, call = call)
  p <- check_rce_order(p, call)
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  times <- check_number(times, 2, 1e6, whole = TRUE, call = call)
  type <- check_choice(type, c("percentile", "normal"), call = call)
  rce_interval(x, n_bins, p, conf_level, times, type, call)
}

# The row of rank_calibration_error_ci() on checked input `x` of
# llm_rank_input() (NULL: a missing value without na_rm).
rce_interval <- function(x, n_bins, p, conf_level, times, type, call) {
  label <- paste0("n_bins=", n_bins, "/p=", p)
  if (is.null(x) || length(x$score) < 2) {
    if (!is.null(x)) warn_rce_small(call)
    return(llm_ci_row("rank_calibration_error", label, NA_real_, NA_real_,
      NA_real_, NA_real_, conf_level, paste0("bootstrap/", type)
    ))
  }
  n <- length(x$score)
  # one sort: a replicate is the count of each row in the draw, laid over
  # the rows sorted once (ties stay in input order, as the drawn rows of
  # the estimator would: the draw equals that of the resampled rows)
  o <- order(-x$score, method = "radix")
  qs <- x$quality[o]
  est <- rce_sorted(qs, n_bins, p)
  reps <- vapply(seq_len(times), function(b) {
    counts <- tabulate(sample.int(n, n, replace = TRUE), n)
    rce_sorted(rep.int(qs, counts[o]), n_bins, p)
  }, numeric(1))
  se <- stats::sd(reps)
  alpha <- 1 - conf_level
  bounds <- if (type == "percentile") {
    unname(stats::quantile(reps, c(alpha / 2, 1 - alpha / 2), type = 6))
  } else {
    est + c(-1, 1) * stats::qnorm(1 - alpha / 2) * se
  }
  llm_ci_row("rank_calibration_error", label, est, max(0, bounds[1]),
    bounds[2], se, conf_level, paste0("bootstrap/", type)
  )
}

# The estimator of the help page on complete data (the authors' code:
# Rank-Calibration at f46ae48, metrics/calibration.py, plugin_RCE_est()
# lines 109-137 and regressed_correctness_vs_uncertainty_cdf() lines
# 339-362, use_kernel = False): one sort, then linear passes (the count
# G_b of outputs whose bin mean is at least a_b from the bins sorted by
# their means).
rce_value <- function(score, quality, n_bins, p) {
  if (length(score) < 2) return(NA_real_)
  # stable: ties in input order
  rce_sorted(quality[order(-score, method = "radix")], n_bins, p)
}

# The same on the qualities q already in descending order of the score.
rce_sorted <- function(q, n_bins, p) {
  n <- length(q)
  edges <- round(seq.int(0, n_bins) * (n / n_bins))
  h <- diff(edges)
  keep <- h > 0
  h <- h[keep]
  bin <- rep.int(seq_along(h), h)
  # bin means as np.mean() computes them (NumPy's pairwise sum, then / h),
  # so that bins compare equal exactly when they do in the authors' code
  ends <- cumsum(h)
  a <- vapply(seq_along(h), function(b) {
    numpy_pairwise_sum(q[(ends[b] - h[b] + 1):ends[b]])
  }, numeric(1)) / h
  # G_b: outputs in bins whose mean is >= a_b (equal means count together)
  o <- order(-a)
  cum <- cumsum(h[o])
  last <- !duplicated(a[o], fromLast = TRUE) # the last bin of equal means
  run <- cumsum(c(1, last[-length(last)]))
  g_sorted <- cum[last][run]
  g <- numeric(length(h))
  g[o] <- g_sorted
  d <- (g - (h + 1) / 2) / (n - 1)
  u <- (seq_len(n) - 1) / (n - 1)
  sum(abs(d[bin] - u)^p) / n
}

# NumPy's pairwise summation of a contiguous double vector (pairwise_sum()
# of numpy/core/src/umath/loops_utils.h.src, which np.add.reduce() and
# np.mean() use): below 8 values a plain loop from -0; up to 128, eight
# running sums over blocks of 8 combined as ((r1 + r2) + (r3 + r4)) +
# ((r5 + r6) + (r7 + r8)), then the rest one by one; beyond 128, the sums
# of two halves (the first a multiple of 8). Equal to np.add.reduce() on
# 3000 random vectors of 1 to 400 values (NumPy 1.24).
numpy_pairwise_sum <- function(x) {
  n <- length(x)
  if (n < 8) {
    s <- -0
    for (v in x) s <- s + v
    return(s)
  }
  if (n <= 128) {
    r <- x[1:8]
    m <- n - n %% 8
    if (m > 8) for (i in seq.int(9, m, by = 8)) r <- r + x[i:(i + 7)]
    s <- ((r[1] + r[2]) + (r[3] + r[4])) + ((r[5] + r[6]) + (r[7] + r[8]))
    if (m < n) for (v in x[(m + 1):n]) s <- s + v
    return(s)
  }
  half <- n %/% 2
  half <- half - half %% 8
  numpy_pairwise_sum(x[1:half]) + numpy_pairwise_sum(x[(half + 1):n])
}

check_rce_order <- function(p, call) {
  if (!(identical(p, 1) || identical(p, 2) || identical(p, 1L) ||
    identical(p, 2L))) {
    abort_aurc(
      c(
        "{.arg p} must be 1 or 2.",
        x = "It is {.obj_type_friendly {p}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.double(p)
}

warn_rce_small <- function(call) {
  warn_aurc(
    "The rank-calibration error needs at least two outputs; it is NA.",
    class = c("aurc_warning_undefined"), call = call
  )
}

# Validates score and quality of the rank-based LLM metrics and applies the
# NA rule; NULL when a value is missing and `na_rm` is FALSE.
llm_rank_input <- function(score, quality, na_rm, call) {
  check_numeric_vector(score, "score", call = call)
  check_numeric_vector(quality, "quality", allow_logical = TRUE,
    call = call
  )
  check_same_length(quality, length(score), "quality", call = call)
  check_bool(na_rm, call = call)
  score <- as.double(score)
  quality <- as.double(quality)
  bad <- which(is.infinite(score) | is.infinite(quality))
  if (length(bad)) {
    abort_aurc(
      c(
        "{.arg score} and {.arg quality} must be finite.",
        x = "Row {bad[1]} is not."
      ),
      class = "aurc_error_value", call = call
    )
  }
  miss <- is.na(score) | is.na(quality)
  if (any(miss)) {
    if (!na_rm) return(NULL)
    score <- score[!miss]
    quality <- quality[!miss]
  }
  list(score = score, quality = quality)
}

llm_ci_row <- function(metric, label, est, lower, upper, se, conf_level,
                       method) {
  tibble::tibble(
    .metric = metric, .estimator = label, .estimate = est,
    .lower = lower, .upper = upper, .std_error = se,
    .conf_level = conf_level, .method = method
  )
}
