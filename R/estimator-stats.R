# Bias and mean squared error of the AURC weight estimators (Zhou et al.
# 2025, Secs. 3.5-3.6 and App. A; DEFINITIONS Sec. 6). The sums run in C++
# (src/core/estimator_stats.h).

stats_estimators <- c("alpha", "alpha_prime", "sele", "2sele")

#' Bias and mean squared error of the AURC weight estimators
#'
#' The AURC is the risk weighted by `alpha = -log(1 - beta)`, where `beta` is
#' a sample's population rank percentile (the share of the population with a
#' lower or equal confidence score). The estimators of [aurc_vec()] replace
#' `alpha` by a weight of the sample's rank `r` among the `n` samples at hand.
#' These functions give the exact finite-sample bias and mean squared error
#' (MSE) of those weights (Zhou et al. 2025, Sec. 3.6 and App. A).
#'
#' @section Definitions:
#' Weights of rank `r` among `n` (no ties), with `H_m = sum_{k=1}^m 1/k`:
#' `"alpha"` `H_n - H_{n-r}`; `"alpha_prime"` `-log(1 - r/(n+1))`;
#' `"sele"` `r/n`; `"2sele"` `2 r/n`.
#'
#' * `weight_bias(beta, n)`: a sample with percentile `beta` has rank
#'   `1 + Bin(n - 1, beta)` (the other `n - 1` samples fall below it
#'   with probability `beta` each), and the bias is
#'   `E[w(r)] + log(1 - beta)`, that is
#'   `sum_{k=0}^{n-1} choose(n-1, k) beta^k (1-beta)^(n-1-k) w(k+1)` plus
#'   `log(1 - beta)` (Props 3.3, 3.4 and A.2). The binomial terms are
#'   summed in log space from the mode outwards (terms below `e^-60` of the
#'   largest are dropped) and normalised by their own sum, so `n` up to
#'   `1e6` and beyond is stable. For `"alpha"` the sum has the closed form
#'   `1/n - sum_{k >= n} beta^k / k`, because
#'   `E[H_m - H_{m-K}] = sum_{k=1}^m beta^k / k` for `K ~ Bin(m, beta)` (not
#'   stated in the paper; used in the tests). So the bias is about `1/n`
#'   unless `beta` is close to 1, and negative once it is close enough.
#' * `weight_mse(rank, n)`: given the rank, `beta` is the `r`-th order
#'   statistic of `n` uniforms, `beta ~ Beta(r, n + 1 - r)`, with
#'   `E[-log(1 - beta)] = H_n - H_{n-r}` and
#'   `Var[-log(1 - beta)] = psi'(n+1-r) - psi'(n+1) = sum_{k=n+1-r}^n 1/k^2`.
#'   So `MSE = E[(w(r) + log(1 - beta))^2] = (w(r) - (H_n - H_{n-r}))^2 +
#'   psi'(n+1-r) - psi'(n+1)`: for `"alpha"` just
#'   `psi'(n+1-r) - psi'(n+1)` (Prop. 3.5); for `"alpha_prime"` that plus
#'   `Q^2`, `Q = log(1 - r/(n+1)) + H_n - H_{n-r}` (Prop. A.3); for `"sele"`
#'   `(r/n - (H_n - H_{n-r}))^2 + psi'(n+1-r) - psi'(n+1)`.
#' * `weight_mse_bound(beta, n)`: the order of the MSE of `"alpha"` and
#'   `"alpha_prime"`, `beta / (n (1 - beta) + 1)` (Eq. 24, shown as a
#'   surface in Fig. 2 of the paper; see [plot_weight_mse_bound()]).
#'
#' Differences of harmonic numbers, digamma and trigamma functions are
#' computed without cancellation (direct sums for short runs, the asymptotic
#' series written as differences otherwise), to about 1e-13 relative.
#'
#' @param beta Population rank percentile(s), numbers in `[0, 1)` (in
#'   `[0, 1]` for `weight_mse_bound()`).
#' @param n Sample size(s): whole numbers from 1 to `2^53` (the largest whole
#'   number a double holds exactly). The binomial sums of `weight_bias()`
#'   take every h-th term once their standard deviation exceeds 4096 (h =
#'   sd / 64), so any `n` costs at most a few thousand terms; the error of
#'   the strided sum is far below rounding.
#' @param rank Rank(s) `r` of the sample in ascending order of confidence:
#'   whole numbers from 1 to `n` (`n` = most confident).
#' @param estimator One of `"alpha"` (default), `"alpha_prime"`, `"sele"`,
#'   `"2sele"`.
#'
#' @return A numeric vector. `beta` (or `rank`) and `n` are recycled to a
#'   common length: each must have length 1 or the length of the other.
#'
#' @references Zhou, Van Landeghem, Popordanoska, Blaschko (2025). A Novel
#'   Characterization of the Population Area Under the Risk Coverage Curve
#'   (AURC) and Rates of Finite Sample Estimators. ICML 2025.
#' @seealso [mean_weight_mse()] for the average MSE over ranks,
#'   [plot_weight_bias()], [aurc_batch_study()].
#' @examples
#' # positive bias for small beta, negative for large beta
#' weight_bias(c(0.1, 0.5, 0.9), n = 100)
#' weight_bias(c(0.1, 0.5, 0.9), n = 100, estimator = "sele")
#' # stable for large n
#' weight_bias(0.5, n = 1e6)
#'
#' # MSE given the rank: alpha below alpha_prime
#' weight_mse(1:5 * 20, n = 100)
#' weight_mse(1:5 * 20, n = 100, estimator = "alpha_prime")
#' weight_mse_bound(c(0.2, 0.5, 0.8), n = 100)
#' @name weight_stats
NULL

#' @rdname weight_stats
#' @export
weight_bias <- function(beta, n, estimator = "alpha") {
  beta <- check_percentile(beta)
  n <- check_whole_numbers(n)
  estimator <- check_choice(estimator, stats_estimators)
  args <- recycle_common(list(beta = beta, n = n))
  weight_bias_impl(args$beta, args$n, estimator)
}

#' @rdname weight_stats
#' @export
weight_mse <- function(rank, n, estimator = "alpha") {
  rank <- check_whole_numbers(rank)
  n <- check_whole_numbers(n)
  estimator <- check_choice(estimator, stats_estimators)
  args <- recycle_common(list(rank = rank, n = n))
  check_rank_le_n(args$rank, args$n)
  weight_mse_impl(args$rank, args$n, estimator)
}

#' @rdname weight_stats
#' @export
weight_mse_bound <- function(beta, n) {
  beta <- check_percentile(beta, upper_closed = TRUE)
  n <- check_whole_numbers(n)
  args <- recycle_common(list(beta = beta, n = n))
  args$beta / (args$n * (1 - args$beta) + 1)
}

check_rank_le_n <- function(rank, n, call = rlang::caller_env()) {
  bad <- which(rank > n)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg rank} must be between 1 and {.arg n}.",
        x = "Element {bad[1]} has rank {rank[bad[1]]} but n = {n[bad[1]]}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(rank)
}

#' Average mean squared error of the AURC weights over ranks
#'
#' The convergence rate of the plug-in AURC estimators rests on the MSE of
#' the weights averaged over the `n` ranks (Zhou et al. 2025, Prop. A.4 and
#' Prop. 3.6): `(1/n) sum_{r=1}^n MSE(r)`, with `MSE(r)` from
#' [weight_mse()]. The paper bounds it by integrating the order bound of
#' Eq. 24 over `beta`:
#' `rate = integral_0^1 beta / (n (1 - beta) + 1) dbeta
#' = (n + 1) log(n + 1) / n^2 - 1/n = O(log(n) / n)`.
#'
#' For `"alpha"` the average is exactly `H_n / n` (the term `1/k^2` of
#' `psi'(n+1-r) - psi'(n+1)` enters the MSE of `k` ranks), so
#' `n (mean_mse - rate)` tends to `1 + gamma` (Euler's constant) and the
#' ratio `mean_mse / rate` tends to 1. For `"alpha_prime"` the average is
#' slightly larger (it adds `Q^2`); for `"sele"` and `"2sele"` it does not
#' vanish: their weights are biased for every `n`. Other estimators are
#' averaged in C++ over all `n` ranks (`O(n)`; `n = 1e6` takes well under a
#' second), so for them `n` is at most `1e8` (a classed `aurc_error_size`
#' above).
#'
#' @param n Sample size(s): whole numbers, at least 1.
#' @param estimator One or more of `"alpha"` (default), `"alpha_prime"`,
#'   `"sele"`, `"2sele"`.
#' @return A tibble with one row per combination of `estimator` and `n`
#'   (`n` varying fastest): `n`, `estimator`, `mean_mse` (the exact
#'   average) and `rate` (the rate of Prop. A.4, the same for every
#'   estimator).
#' @inherit weight_stats references
#' @seealso [weight_mse()]
#' @examples
#' mean_weight_mse(10^(1:6))
#' mean_weight_mse(c(10, 100), estimator = c("alpha", "alpha_prime", "sele"))
#' @export
mean_weight_mse <- function(n, estimator = "alpha") {
  n <- check_whole_numbers(n)
  check_estimator_set(estimator, stats_estimators)
  if (any(estimator != "alpha")) {
    # the average is a loop over all n ranks: bounded so it cannot hang
    check_whole_numbers(n, max = 1e8)
  }
  mse <- unlist(lapply(estimator, function(e) mean_weight_mse_impl(n, e)))
  rate <- (n + 1) * log1p(n) / n^2 - 1 / n
  k <- length(estimator)
  tibble::tibble(
    n = rep(n, k),
    estimator = rep(estimator, each = length(rate)),
    mean_mse = mse,
    rate = rep(rate, k)
  )
}
