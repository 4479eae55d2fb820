#' Certified working points: selection with guaranteed risk
#'
#' `certify_threshold()` finds the lowest score threshold (the largest
#' coverage) whose selective risk is certified to be at most `target_risk`
#' with probability at least `1 - delta`, by the SGR algorithm of Geifman
#' and El-Yaniv (2017). `risk_upper_bound()` gives the exact binomial upper
#' bound on the selective risk at a chosen coverage.
#'
#' @section The bound:
#' If `m` predictions are accepted and `k` of them fail, the exact
#' (Clopper-Pearson) one-sided upper bound of the selective risk at level
#' `1 - delta` is the binomial tail inversion
#' `B*(k, m, delta) = sup {b : P(Bin(m, b) <= k) >= delta} =
#' qbeta(1 - delta, k + 1, m - k)` (1 when `k = m`). The accepted set is
#' treated as a sample from the population's accepted region, i.e. the
#' labelled set must be an i.i.d. sample from the deployment distribution
#' and not the data the score was tuned on.
#'
#' @section SGR (Geifman and El-Yaniv 2017, Algorithm 1):
#' The distinct scores `t_1 < ... < t_D` are the candidate thresholds
#' (tie-closed: a threshold accepts every sample with `score >= t`). With
#' `z_min = 1`, `z_max = D` and `k = ceiling(log2(D))` steps, each step tries
#' `z = ceiling((z_min + z_max) / 2)`, computes the bound at `t_z` with
#' `delta / k`, and moves `z_max <- z` when the bound is below
#' `target_risk` (try more coverage) and `z_min <- z` otherwise. The split
#' of `delta` over the `k` steps (a union bound) makes all `k` bounds hold
#' together with probability `1 - delta`, so the returned threshold, the
#' tried one with the largest coverage whose bound is at most `target_risk`,
#' has risk at most `target_risk` with at least that probability. The paper
#' returns the last threshold tried; we return the best certified one among
#' those tried (the same guarantee). When no tried threshold is certified
#' the result has `threshold = NA` and coverage 0, with a warning of class
#' `aurc_warning_not_certified`.
#'
#' @param score Confidence score (higher = accepted first).
#' @param failure 0/1 (or logical) failure indicator.
#' @param target_risk The selective risk to certify, in (0, 1).
#' @param delta The allowed probability that the certificate is wrong, in
#'   (0, 1).
#' @param coverage Coverage(s) at which to bound the risk, in (0, 1]: the
#'   smallest tie-closed set of most confident predictions covering at
#'   least that share (as [risk_at_coverage_vec()]).
#' @param ... Not used; must be empty.
#' @param na_rm If `TRUE`, incomplete pairs are dropped; if `FALSE` (the
#'   default) a missing value is an error here, since a certificate on
#'   partial data would be silently wrong.
#' @return `certify_threshold()`: a one-row tibble with `threshold`,
#'   `coverage`, `n_accepted`, `failures`, `risk` (empirical selective
#'   risk), `bound` (its certified upper bound), `target_risk`, `delta`; the
#'   binary search is attached as attribute `"steps"` (one row per step).
#'   `risk_upper_bound()`: a tibble with one row per `coverage`:
#'   `coverage` (asked), `achieved_coverage`, `threshold`, `n_accepted`,
#'   `failures`, `risk`, `bound`, `delta`.
#' @references Geifman, El-Yaniv (2017). Selective classification for deep
#'   neural networks. NeurIPS 2017.
#' @examples
#' set.seed(4)
#' score <- runif(5000)
#' failure <- rbinom(5000, 1, 0.4 * (1 - score)^2)
#' cert <- certify_threshold(score, failure, target_risk = 0.05, delta = 0.01)
#' cert
#' attr(cert, "steps")
#' risk_upper_bound(score, failure, coverage = c(0.5, 0.8), delta = 0.01)
#' @export
certify_threshold <- function(score, failure, target_risk, delta = 0.001,
                              ..., na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  target_risk <- check_number(target_risk, 0, 1, open = TRUE, call = call)
  delta <- check_number(delta, 0, 1, open = TRUE, call = call)
  curve <- certify_curve(score, failure, na_rm, call)
  n_thr <- length(curve$threshold)
  # ascending order of thresholds: z = 1 is the lowest (full coverage)
  asc <- rev(seq_len(n_thr))
  k <- max(1L, as.integer(ceiling(log2(n_thr))))
  z_min <- 1L
  z_max <- n_thr
  steps <- vector("list", k)
  for (i in seq_len(k)) {
    z <- as.integer(ceiling((z_min + z_max) / 2))
    j <- asc[z]
    m <- curve$n_accepted[j]
    x <- curve$loss_accepted[j]
    b <- binomial_upper_bound(x, m, delta / k)
    steps[[i]] <- c(
      step = i, threshold = curve$threshold[j], coverage = m / curve$n,
      n_accepted = m, failures = x, risk = x / m, bound = b
    )
    if (b <= target_risk) z_max <- z else z_min <- z
  }
  steps <- tibble::as_tibble(as.data.frame(do.call(rbind, steps)))
  steps$certified <- steps$bound <= target_risk
  ok <- steps[steps$certified, , drop = FALSE]
  if (nrow(ok) == 0) {
    warn_aurc(
      c(
        "No threshold tried is certified at risk {target_risk} with
         delta = {delta}; returning {.val {NA}}.",
        i = "Allow a larger {.arg target_risk} or {.arg delta}, or use more
             data."
      ),
      class = "aurc_warning_not_certified"
    )
    best <- list(
      threshold = NA_real_, coverage = 0, n_accepted = 0, failures = 0,
      risk = NA_real_, bound = NA_real_
    )
  } else {
    best <- ok[which.max(ok$coverage), ]
  }
  out <- tibble::tibble(
    threshold = best$threshold, coverage = best$coverage,
    n_accepted = best$n_accepted, failures = best$failures,
    risk = best$risk, bound = best$bound, target_risk = target_risk,
    delta = delta
  )
  attr(out, "steps") <- steps
  out
}

#' @rdname certify_threshold
#' @export
risk_upper_bound <- function(score, failure, coverage, delta = 0.001, ...,
                             na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  check_numeric_vector(coverage, "coverage", call = call)
  bad <- which(is.na(coverage) | coverage <= 0 | coverage > 1)
  if (length(coverage) == 0 || length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg coverage} must contain numbers in (0, 1].",
        x = if (length(bad)) "Element {bad[1]} is {.val {coverage[bad[1]]}}."
        else "It is empty."
      ),
      class = "aurc_error_value", call = call
    )
  }
  delta <- check_number(delta, 0, 1, open = TRUE, call = call)
  curve <- certify_curve(score, failure, na_rm, call)
  cov <- curve$n_accepted / curve$n
  # smallest tie-closed set covering at least `coverage` (descending
  # thresholds: the first index whose coverage reaches it); the tolerance
  # absorbs rounding in n_accepted / n
  j <- vapply(coverage, function(c) {
    which(cov >= c - 1e-12 * c)[1]
  }, integer(1))
  m <- curve$n_accepted[j]
  x <- curve$loss_accepted[j]
  tibble::tibble(
    coverage = as.double(coverage), achieved_coverage = m / curve$n,
    threshold = curve$threshold[j], n_accepted = m, failures = x,
    risk = x / m,
    bound = vapply(seq_along(j), function(i) {
      binomial_upper_bound(x[i], m[i], delta)
    }, numeric(1)),
    delta = delta
  )
}

# Exact one-sided upper bound of a binomial proportion (Clopper-Pearson):
# sup {b : P(Bin(m, b) <= x) >= delta}.
binomial_upper_bound <- function(x, m, delta) {
  if (!(m > 0)) return(NA_real_)
  if (x >= m) return(1)
  stats::qbeta(1 - delta, x + 1, m - x)
}

# The risk-coverage curve of 0/1 failures after the NA rule (one sort).
certify_curve <- function(score, failure, na_rm, call) {
  check_numeric_vector(score, "score", call = call)
  check_failure(failure, length(score), "failure", call = call)
  check_bool(na_rm, call = call)
  incomplete <- is.na(score) | is.na(failure)
  if (any(incomplete)) {
    if (!na_rm) {
      abort_aurc(
        c(
          "{.arg score} and {.arg failure} must not contain missing values.",
          i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
        ),
        class = "aurc_error_missing", call = call
      )
    }
    score <- score[!incomplete]
    failure <- failure[!incomplete]
  }
  if (length(score) == 0) {
    abort_aurc(
      "No samples left to certify a threshold on.",
      class = "aurc_error_no_data", call = call
    )
  }
  rc_curve_impl(as.double(score), as.double(failure), double())
}
