#' Certified working points: selection with guaranteed risk
#'
#' `certify_threshold()` finds the lowest score threshold (the largest
#' coverage) whose selective risk is certified to be at most `target_risk`
#' with probability at least `1 - delta`, by the SGR algorithm of Geifman
#' and El-Yaniv (2017) (`method = "sgr"`, the default) or by Learn then
#' Test (Angelopoulos et al. 2025; `method = "ltt"`), which also allows a
#' loss in \[0, 1\] and a second, simultaneous limit on the abstention
#' rate. `risk_upper_bound()` gives the exact binomial upper bound on the
#' selective risk at a chosen coverage.
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
#' @section Learn then Test (`method = "ltt"`):
#' Angelopoulos, Bates, Candes, Jordan and Lei (2025) turn risk control into
#' multiple testing. Each candidate threshold `t_j` (the distinct scores,
#' tie-closed, or the grid `thresholds` fixed in advance) carries the null
#' `H_j: R(t_j) > target_risk`, where `R(t) = E[loss | score >= t]` is the
#' population selective risk, and a p-value `p_j` valid for it. A procedure
#' controlling the family-wise error rate (FWER) at `delta` rejects a set
#' of nulls; with probability at least `1 - delta` every rejected
#' threshold has `R(t_j) <= target_risk` (the main theorem of LTT), so
#' the one with the largest coverage is returned.
#'
#' *p-values.* With `m_j` samples accepted at `t_j`, loss sum `k_j` and
#' `Rhat_j = k_j / m_j`; conditionally on `m_j` the accepted losses are an
#' i.i.d. sample of the accepted region, so a p-value valid given `m_j` is
#' valid.
#' * `p_value = "binomial"` (0/1 losses only; exact): `p_j =
#'   P(Bin(m_j, target_risk) <= k_j) = pbinom(k_j, m_j, target_risk)`.
#' * `p_value = "hoeffding_bentkus"` (any loss in \[0, 1\]; the
#'   Hoeffding-Bentkus p-value of LTT, after Bates et al. 2021):
#'   `p_j = min(exp(-m_j h1(min(Rhat_j, a), a)),
#'   e * P(Bin(m_j, a) <= ceiling(m_j Rhat_j)))`
#'   with `a = target_risk` and `h1(x, a) = x log(x / a) + (1 - x) log((1 -
#'   x) / (1 - a))` (`0 log 0 = 0`). For 0/1 losses it is larger than the
#'   binomial p-value (it bounds it).
#'
#' A candidate accepting nothing (a grid value above every score) has
#' p-value 1.
#'
#' *FWER procedures* over the `D` candidates:
#' * `fwer = "fixed_sequence"`: from the highest threshold (smallest
#'   coverage) down, reject while `p_j <= delta` and stop at the first
#'   `p_j > delta`; valid for any risk curve since the order is fixed in
#'   advance. Between two consecutive scores the p-value does not change,
#'   so over the distinct scores this is exactly fixed-sequence testing
#'   over every real threshold. But the first candidates accept very few
#'   samples (one for the highest distinct score), whose p-values cannot be
#'   small: with the distinct scores it usually certifies nothing. Give it
#'   a coarse grid `thresholds` fixed in advance (e.g. `seq(0.95, 0, by =
#'   -0.01)` for probabilities) whose first value accepts enough samples.
#' * `fwer = "bonferroni"`: reject `p_j <= delta / D`.
#' * `fwer = "holm"`: with `p_(1) <= ... <= p_(D)`, reject `p_(1), ...,
#'   p_(r)` where `r` is the largest with `p_(i) <= delta / (D - i + 1)` for
#'   every `i <= r`.
#'
#' Bonferroni and Holm are guaranteed for a family fixed in advance, i.e.
#' with `thresholds`; with the distinct scores (the default) the family is
#' chosen by the data, and the guarantee is approximate (the simulations
#' in the tests stay well below `delta`: `delta / D` is small).
#'
#' *Abstention rate* (`max_abstention`): the abstention rate `A(t) =
#' P(score < t)` is the risk of the 0/1 loss `1{score < t}` on all `n`
#' samples, so its p-value is the exact binomial one, `pbinom(n - m_j, n,
#' max_abstention)` (whatever `p_value` is). The joint null `H_j: R(t_j) >
#' target_risk or A(t_j) > max_abstention` has the p-value `max(p_j^risk,
#' p_j^abstention)` (the LTT rule for several risks), used by Bonferroni and
#' Holm. Fixed-sequence testing cannot use it (from the highest threshold
#' down, the abstention null holds first, so it would stop at once):
#' instead each risk is tested in its own direction at `delta / 2` (a
#' union bound over the two risks): the selective risk by fixed sequence
#' from the highest threshold down, the abstention rate from the lowest
#' threshold up, which, its p-value increasing with the threshold, rejects
#' exactly where `p_j^abstention <= delta / 2`; the thresholds rejected by
#' both are certified.
#'
#' *Continuous losses.* The argument keeps its name `failure` for
#' compatibility: with `method = "ltt"` and `p_value =
#' "hoeffding_bentkus"` it may hold any loss in \[0, 1\] (a 0/1 failure is
#' the special case); `R(t)` is then the expected loss of accepted samples.
#' Otherwise it must be 0/1 (an error of class `aurc_error_value`).
#'
#' @param data A data frame holding the calibration set (one data set: a
#'   grouped data frame is an error). The vector-first call of earlier
#'   versions, `certify_threshold(score, failure, target_risk)`, still
#'   works and says once per session that the order has changed.
#' @param score Confidence score (higher = accepted first): an unquoted
#'   column of `data`.
#' @param failure 0/1 (or logical) failure indicator; with `method =
#'   "ltt"` and `p_value = "hoeffding_bentkus"`, any loss in \[0, 1\].
#' @param target_risk The selective risk to certify, in (0, 1).
#' @param delta The allowed probability that the certificate is wrong, in
#'   (0, 1).
#' @param coverage Coverage(s) at which to bound the risk, in (0, 1]: the
#'   smallest tie-closed set of most confident predictions covering at
#'   least that share (as [risk_at_coverage_vec()]).
#' @param ... Not used; must be empty.
#' @param method `"sgr"` (default; Geifman and El-Yaniv 2017) or `"ltt"`
#'   (Learn then Test). The arguments below, up to `thresholds`, only apply
#'   to `"ltt"`; given with `"sgr"` they are ignored with a warning of class
#'   `aurc_warning_ignored`.
#' @param p_value The p-value of each candidate: `"binomial"` (exact, 0/1
#'   losses) or `"hoeffding_bentkus"` (losses in \[0, 1\]).
#' @param fwer The family-wise error rate procedure: `"fixed_sequence"`,
#'   `"holm"` or `"bonferroni"`.
#' @param max_abstention `NULL` (the default: not controlled) or the
#'   largest abstention rate (share of samples rejected) to certify at the
#'   same time, in (0, 1).
#' @param thresholds `NULL` (the default: the distinct scores) or a grid of
#'   candidate thresholds fixed before seeing the data.
#' @param na_rm If `TRUE`, incomplete pairs are dropped; if `FALSE` (the
#'   default) a missing value is an error here, since a certificate on
#'   partial data would be silently wrong.
#' @return `certify_threshold()`: a one-row tibble with `threshold`,
#'   `coverage`, `n_accepted`, `failures`, `risk` (empirical selective
#'   risk), `bound` (its certified upper bound), `target_risk`, `delta`; the
#'   binary search is attached as attribute `"steps"` (one row per step).
#'   With `method = "ltt"`, `bound` is replaced by `p_value` (the p-value of
#'   the returned threshold) and `max_abstention` (`NA` when not
#'   controlled) is added; the attribute `"candidates"` has one row per
#'   candidate, by decreasing threshold, with `threshold`, `coverage`,
#'   `n_accepted`, `failures` (loss sum), `risk`, `p_risk`, `p_abstention`
#'   (`NA` when not controlled), `p_value` (the joint p-value) and
#'   `rejected` (certified).
#'   `risk_upper_bound()`: a tibble with one row per `coverage`:
#'   `coverage` (asked), `achieved_coverage`, `threshold`, `n_accepted`,
#'   `failures`, `risk`, `bound`, `delta`.
#' @references Geifman, El-Yaniv (2017). Selective classification for deep
#'   neural networks. NeurIPS 2017.
#'
#'   Angelopoulos, Bates, Candes, Jordan, Lei (2025). Learn then test:
#'   Calibrating predictive algorithms to achieve risk control. Annals of
#'   Applied Statistics (2025). arXiv:2110.01052.
#'
#'   Bates, Angelopoulos, Lei, Malik, Jordan (2021). Distribution-free,
#'   risk-controlling prediction sets. Journal of the ACM 68(6) (the
#'   Hoeffding-Bentkus bound).
#' @examples
#' set.seed(4)
#' score <- runif(5000)
#' failure <- rbinom(5000, 1, 0.4 * (1 - score)^2)
#' cal <- data.frame(score, failure)
#' cert <- certify_threshold(cal, score, failure, target_risk = 0.05,
#'   delta = 0.01)
#' cert
#' attr(cert, "steps")
#' # Learn then Test: Holm over the distinct scores, or fixed-sequence
#' # testing over a grid fixed in advance
#' certify_threshold(cal, score, failure, 0.05, delta = 0.01,
#'   method = "ltt", fwer = "holm")
#' ltt <- certify_threshold(cal, score, failure, 0.05, delta = 0.01,
#'   method = "ltt", thresholds = seq(0.95, 0, by = -0.01))
#' ltt
#' head(attr(ltt, "candidates"))
#' # a loss in [0, 1], and at most 50% abstention at the same time
#' cal$loss <- pmin(1, rexp(5000) * 0.2 * (1 - score))
#' certify_threshold(cal, score, loss, 0.05, delta = 0.01, method = "ltt",
#'   p_value = "hoeffding_bentkus", max_abstention = 0.5,
#'   thresholds = seq(0.95, 0, by = -0.01))
#' risk_upper_bound(score, failure, coverage = c(0.5, 0.8), delta = 0.01)
#' @export
certify_threshold <- function(data, score, failure, target_risk,
                              delta = 0.001, ..., method = c("sgr", "ltt"),
                              p_value = c("binomial", "hoeffding_bentkus"),
                              fwer = c("fixed_sequence", "holm", "bonferroni"),
                              max_abstention = NULL, thresholds = NULL,
                              na_rm = FALSE) {
  data_first_call(certify_threshold_vectors, c("score", "failure"))
}

# The vector form of certify_threshold() (R/data-first.R).
certify_threshold_vectors <- function(score, failure, target_risk,
                                      delta = 0.001, ...,
                                      method = c("sgr", "ltt"),
                                      p_value = c("binomial",
                                                  "hoeffding_bentkus"),
                                      fwer = c("fixed_sequence", "holm",
                                               "bonferroni"),
                                      max_abstention = NULL,
                                      thresholds = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  # which Learn-then-Test options were given (before they are matched)
  given <- c(
    p_value = !missing(p_value), fwer = !missing(fwer),
    max_abstention = !is.null(max_abstention),
    thresholds = !is.null(thresholds)
  )
  method <- check_choice(first_choice(method), c("sgr", "ltt"),
    arg = "method", call = call
  )
  p_value <- check_choice(first_choice(p_value),
    c("binomial", "hoeffding_bentkus"),
    arg = "p_value", call = call
  )
  fwer <- check_choice(first_choice(fwer),
    c("fixed_sequence", "holm", "bonferroni"),
    arg = "fwer", call = call
  )
  target_risk <- check_number(target_risk, 0, 1, open = TRUE, call = call)
  delta <- check_number(delta, 0, 1, open = TRUE, call = call)
  if (!is.null(max_abstention)) {
    max_abstention <- check_number(max_abstention, 0, 1, open = TRUE,
      call = call
    )
  }
  thresholds <- check_thresholds(thresholds, call)
  if (method == "ltt") {
    return(certify_ltt(score, failure, target_risk, delta, p_value, fwer,
      max_abstention, thresholds, na_rm, call
    ))
  }
  if (any(given)) {
    warn_aurc(
      c(
        "{.arg {names(given)[given]}} only appl{?ies/y} to
         {.code method = \"ltt\"}; ignored for {.code method = \"sgr\"}.",
        i = "Use {.code method = \"ltt\"} for Learn-then-Test."
      ),
      class = "aurc_warning_ignored"
    )
  }
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
    warn_not_certified(target_risk, delta, "No threshold tried")
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

# The risk-coverage curve of 0/1 failures (or, with `bounded = TRUE`, of
# losses in [0, 1]) after the NA rule (one sort).
certify_curve <- function(score, failure, na_rm, call, bounded = FALSE) {
  check_numeric_vector(score, "score", call = call)
  if (bounded) {
    check_unit_loss(failure, length(score), "failure", call = call)
  } else {
    check_failure(failure, length(score), "failure", call = call)
  }
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
