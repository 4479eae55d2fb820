#' Influence functions of the metrics (how analytic intervals are made)
#'
#' The analytic intervals of [selective_ci()] and the analytic tests of
#' [compare_scores()] use each metric's empirical influence function. This
#' page writes out the derivation for every metric. All are computed in C++
#' (`src/core/influence.h`) after the one sort of the scores (and, for the
#' optimum of E-AURC and NAURC, one of the losses), in O(n log n).
#'
#' @section The general recipe:
#' Every metric is a functional `T(P)` of the (case-weighted) empirical
#' distribution `P_n` of the pairs (score, loss). The empirical influence
#' value of sample `i` is the derivative in the direction of a point mass at
#' that sample,
#' `IF_i = d/de T((1 - e) P_n + e delta_i)` at `e = 0`,
#' which equals `N dT/dw_i - sum_j w_j dT/dw_j` for case weights `w`
#' (`N = sum w`). Sample `i` enters the metric only through its tie group's
#' count `c_g` and loss sum `s_g`, so `N dT/dw_i = a_g + b_g loss_i` with
#' `a_g = N dT/dc_g` and `b_g = N dT/ds_g`: one coefficient pair per tie
#' group, found by prefix and suffix sums. Tied samples with equal losses
#' get equal influence values, and integer case weights give exactly the
#' values (and standard errors) of the data with rows repeated.
#'
#' The standard error is `SE = sqrt(sum_i w_i IF_i^2 N / (N - 1)) / N`,
#' which is `sd(IF) / sqrt(n)` without weights, and the interval is
#' `estimate +- qnorm((1 + conf_level) / 2) SE`. With `strata`, the sum is
#' taken within strata around each stratum's mean; with `cluster`, the
#' influence values are first summed within clusters (a cluster-robust
#' "sandwich" variance), each with its own `G / (G - 1)` correction.
#'
#' For a smooth functional (all but the working points) `IF_i / N` is the
#' derivative of the metric when sample `i`'s weight grows by a little
#' (with the total weight held fixed); the tests check exactly this by
#' numerical differentiation, ties and weights included.
#'
#' @section AURC estimators:
#' Population functional (Zhou et al. 2025, Sec. 3):
#' `theta = E[loss w(F(s))]` with `w(u) = -log(1 - u)` and `F` the
#' distribution function of the score. Its von Mises derivative is
#' `IF(z0) = loss0 w(F(s0)) + E[loss w'(F(s)) (1(s0 <= s) - F(s))] - theta`.
#' The package differentiates the estimator itself as a functional of
#' `P_n`, so the formula holds exactly at the data, ties included:
#'
#' * `"alpha"` is `T = (1/N) sum_g c_g rho_g`, `rho_g = L_g / U_g` the
#'   selective risk at threshold `g` (`U_g`, `L_g` the count and loss at or
#'   above it). Then `b_g = sum_{h <= g} c_h / U_h` (the alpha weight of the
#'   group, the empirical `w(F(s))`) and
#'   `a_g = rho_g - sum_{h <= g} c_h L_h / U_h^2 - T`: the second term is the
#'   empirical `E[loss w'(F) (1(s0 <= s) - F)]`. For continuous scores this
#'   is the formula above evaluated at `P_n`.
#' * `"alpha_prime"`: `T = (1/N) sum_g s_g w_g`, `w_g = -log(1 - B_g / (N +
#'   1))`, `B_g` the count at or below `g`; `b_g = w_g`,
#'   `a_g = sum_{h >= g} s_h / (N + 1 - B_h) + k - T` with the constant
#'   `k = -sum_h s_h B_h / ((N + 1)(N + 1 - B_h))` from the `N` in the weight
#'   (removed again by centring).
#' * `"sele"` and `"2sele"` (and AUGRC `"step"`) are degree-2 V-statistics,
#'   `(1/N^2) sum_i sum_j loss_i 1(s_j <= s_i)`; the influence function is the
#'   first-order Hoeffding projection
#'   `IF_i = loss_i F(s_i) + E[loss 1(s >= s_i)] - 2 theta` (doubled for
#'   `"2sele"`).
#' * `"trapezoid"`: with the non-empty groups numbered from the most
#'   confident down, `N T = sum_k rho_k beta_k`,
#'   `beta_k = c_k (1 if k = 1, else 1/2) + c_{k+1} / 2`; differentiating
#'   through `rho_k` and `beta_k` gives
#'   `b_j = sum_{k >= j} beta_k / U_k` and
#'   `a_j = rho_j (1 or 1/2) + rho_{j-1} / 2 - sum_{k >= j} beta_k rho_k /
#'   U_k - T`. This was our choice: the trapezoid value is treated as the
#'   functional of `P_n` it is; asymptotically it has the influence function
#'   of `"alpha"`.
#'
#' @section AUGRC:
#' The trapezoid AUGRC is the V-statistic
#' `(1/N^2) sum_i sum_j loss_i [1(s_j < s_i) + 1/2 1(s_j = s_i)]`. Its
#' Hoeffding projection is
#' `IF_i = loss_i (F^-(s_i) + F(s_i)) / 2 + E[loss (1(s > s_i) + 1/2 1(s =
#' s_i))] - 2 AUGRC`, `F^-(s) = P(S < s)`.
#'
#' @section Calibration slope and intercept:
#' Maximum likelihood estimates of the logistic recalibration
#' ([calibration_slope()]), so M-estimators. With `x` the logit of the
#' clipped confidence, `y` the correctness, `mu` the fitted probability and
#' `h = mu (1 - mu)`: for the slope of `logit P(y) = a + b x`,
#' `IF_i = N [(sum_j w_j h_j X_j X_j')^-1 X_i (y_i - mu_i)]_2` with
#' `X_i = (1, x_i)`; for the intercept with the slope fixed at 1,
#' `IF_i = N (y_i - mu_i) / sum_j w_j h_j`. The standard error of the
#' general recipe is then the robust sandwich standard error of the
#' coefficient (HC0 times `sqrt(N / (N - 1))`), which does not assume the
#' recalibration model.
#'
#' @section Failure AUROC:
#' `AUROC_f = A / (O F)` with `O`, `F` the numbers of correct and failed
#' predictions. Differentiating gives DeLong's placement values:
#' `IF_i = (V10_i - AUROC_f) / P(correct)` for a correct prediction, with
#' `V10_i` the share of failures it out-scores (ties 1/2), and
#' `(V01_i - AUROC_f) / P(failure)` for a failure. The standard error sums
#' within the two classes with their `n_k - 1` denominators, which is
#' DeLong's variance `S10 / m + S01 / n` exactly (it equals
#' `pROC::var(roc, method = "delong")`). Paired differences of two scores
#' use `IF_a - IF_b` the same way, which is `pROC::roc.test(method =
#' "delong", paired = TRUE)`.
#'
#' @section Failure AUPR:
#' `AP = A / F`, `A = sum_g f_g FB_g / B_g` over groups in ascending score
#' (`f_g` failures in group `g`, `FB_g` and `B_g` the failures and samples
#' at or below it). Then
#' `N dAP/df_g = N [(FB_g / B_g + sum_{h >= g} f_h / B_h) - AP] / F` and
#' `N dAP/dc_g = -N sum_{h >= g} f_h FB_h / B_h^2 / F`;
#' a correct prediction has influence `a_g`, a failure `a_g + b_g`. AP is a
#' smooth function of the group masses, so this is its exact influence
#' function at `P_n`.
#'
#' @section E-AURC, E-AUGRC, NAURC (delta method):
#' `E-AURC = AURC - AURC*`. The optimum AURC* of the oracle order is itself a
#' functional of the loss distribution: in the population the oracle
#' accepts the lowest losses first, so
#' `AURC* = int_0^1 Q(t) J(t) dt` with `Q` the quantile function of the loss
#' and `J(t) = -log t` (the AURC estimators; `1 - t` for `"sele"`,
#' `2 (1 - t)` for `"2sele"`). This is an L-functional; with the distinct
#' loss values `lambda_1 < ... < lambda_K` and their cumulative shares `F_k`,
#' `IF(loss = lambda_k) = sum_{j >= k, j < K} D_j - sum_{j < K} D_j F_j`,
#' `D_j = (lambda_j - lambda_{j+1}) J(F_j)`. For 0/1 losses this reduces to
#' `-log(1 - err) (loss - err)`, the influence of the asymptotic optimum
#' `err + (1 - err) log(1 - err)` (used for `optimum = "asymptotic"`). The
#' estimate is still the exact finite-sample E-AURC; it differs from the
#' population optimum by O(log(n) / n).
#' `IF(E-AURC) = IF(AURC) - IF(AURC*)`.
#' `E-AUGRC = AUGRC - err^2 / 2`: `IF = IF(AUGRC) - err (loss - err)`.
#' `NAURC = (AURC - AURC*) / (mu - AURC*)`, `mu` the mean loss:
#' `IF = (IF(AURC) - IF(AURC*)) / D - NAURC (IF(mu) - IF(AURC*)) / D`,
#' `D = mu - AURC*`, `IF(mu) = loss - mu`.
#'
#' @section Risk at coverage and coverage at risk (quantile functionals):
#' Risk at coverage `c` is `theta = m(q) / c` with `m(q) = E[loss 1(s >=
#' q)]` and `q` the `1 - c` quantile of the score. The threshold moves with
#' the data: `IF(q) = (1(s >= q) - c) / f(q)` and `dm/dq = -r(q) f(q)`,
#' `r(q) = E[loss | s = q]`, so the density `f` cancels:
#' `IF = [1(s >= q) (loss - r(q)) - (m - r(q) c)] / c`.
#' Coverage at risk `r` is `c = P(s >= q)` with `q` solving
#' `E[1(s >= q) (loss - r)] = 0`; implicit differentiation gives
#' `IF = 1(s >= q) (1 + (loss - r) / (r - r(q))) - c`.
#' The local loss rate `r(q)` is estimated by the mean loss of a window of
#' about `sqrt(n)` samples (whole tie groups) centred on the threshold
#' (our choice). When the threshold's tie group holds at least `sqrt(n)`
#' samples the threshold of risk at coverage cannot move under small
#' perturbations, and the fixed-threshold influence is used
#' (`r(q) = theta`).
#'
#' Coverage at risk has its own analytic interval, by test inversion (as
#' Woodruff's interval of a quantile), because the influence function above
#' needs the local loss rate at a crossing that ties and flat risk curves
#' make unstable (its variance was far from the bootstrap's there). The
#' estimate is the largest coverage `U_t / N` whose excess
#' `D_t = (1/N) sum_{s_i >= t} w_i (loss_i - r)` is at most 0. At the true
#' threshold `q` the excess has mean 0 and its influence function is
#' `h - mean(h)`, `h = 1(s >= q) (loss - r)`, with standard error `se(D)`
#' (with `strata` and `cluster` as for every metric). The thresholds whose
#' excess lies within `+- z se(D)` are those the level-`conf_level` test
#' does not reject, so the interval runs from the largest coverage with
#' `D_t <= -z se(D)` to the largest with `D_t <= z se(D)`: the estimator's
#' own rule with 0 replaced by `-+ z se(D)`. It needs no density and no
#' local rate, stays inside `[0, 1]`, and where the threshold is a large
#' tie group it reaches the neighbouring group boundaries. `se(D)` is taken
#' at the estimated threshold (at the highest score when no coverage
#' qualifies). This bounds the threshold; the coverage at a fixed threshold
#' has noise of its own, with influence `1(s >= q) - c`, uncorrelated with
#' `h` at the true threshold (`E[h] = 0`). So each side of the interval is
#' widened in quadrature: `lower = c - sqrt((c - c_lo)^2 + (z se_1)^2)`,
#' `upper = c + sqrt((c_hi - c)^2 + (z se_1)^2)` (`se_1` the standard error
#' of the accepted share), cut to `[0, 1]`. The influence function above is
#' the same two parts, `1(s >= q) - c + h / (r - r(q))`; the interval
#' avoids dividing by the local slope `r(q) - r`. The `.std_error` reported
#' for coverage at risk is the interval's width divided by `2 z`. Paired
#' differences in [compare_scores()] still use the influence function (no
#' paired interval where it is `NA`).
#'
#' @section Partial areas, PRR and the balanced metrics:
#' These are computed in R from one `order()` of the scores, by the recipe
#' above (each is checked against numerical derivatives in the tests):
#' * `partial_aurc()`, `partial_augrc()`: each tie group's closed-form
#'   integral over the window `[c1, c2]` differentiated in its count, loss
#'   sum and the count and loss before it (`R/ci-influence-partial.R`).
#' * `prr()` with `max_rejection` (r) below 1: `PRR = (m - A) / (m - A*)`
#'   by the quotient rule, with `IF_m = loss - m`, `IF_A` from the tie groups of
#'   the step curve over the window `[1 - r, 1]`, and `IF_A*` that of the
#'   oracle term as an L-functional of the loss distribution,
#'   `int Q(t) J(t) dt` with `J(t) = -log(max(t, 1 - r)) / r`
#'   (`R/ci-influence-prr.R`). At `max_rejection = 1` it is the influence of
#'   `1 - NAURC` (tested).
#' * `fpr_at_tpr()`: with `P` correct predictions and `F` failures, the
#'   threshold `t` is the `1 - tpr` quantile of the correct predictions'
#'   scores and `FPR = P(s >= t | failure)`, so a failure has
#'   `(1(s >= t) - FPR) N / F` and a correct prediction
#'   `-rho (1(s >= t) - TPR) N / P`, `rho` the slope of the ROC curve at
#'   `t` from a window of about `sqrt(N)` cases (zero when a tied threshold
#'   group holds `sqrt(N)` or more: it does not move;
#'   `R/ci-influence-fpr.R`).
#' * `risk_at_coverage(rule = "lowest_risk")`: the influence function of
#'   the tie-closed risk at the coverage the rule achieved (envelope
#'   theorem; `R/ci-influence-lowest-risk.R`).
#' * `aurc_ba()`, `augrc_ba()` (with `truth =`): scale-free, so
#'   `IF_i = N dT/dw_i`, through the tie groups and each class's running
#'   accepted count and failures (`R/ci-influence-balanced.R`).
#'
#' @section ECE:
#' `ECE = sum_b |G_b| / N`, `G_b = sum_{i in b} w_i (correct_i -
#' confidence_i)` over `n_bins` equal-width bins fixed in advance, with
#' `confidence = score` (in `[0, 1]`) and `correct = 1 - loss` (the loss a 0/1
#' failure). Where no bin's gap is exactly 0,
#' `IF_i = sign(G_b(i)) (correct_i - confidence_i) - ECE`. A bin whose gap is
#' 0 (or near it) makes the ECE non-differentiable and the normal interval
#' unreliable: a well-calibrated model has ECE near 0 and a bias of order
#' `1 / sqrt(n)`, which no symmetric interval repairs.
#'
#' @section AUSE:
#' Ilg et al.'s AUSE of the uncertainty `u = -score` and the error `e` is
#' exactly the E-AURC of `(score, e)` (`"alpha"` estimator, exact optimum;
#' see [ause()]): its influence values are the E-AURC's. The AUSE of
#' torch-uncertainty has the influence values of a ratio of V-statistics
#' written in [ause_ci()].
#'
#' @section Rank correlations:
#' Spearman's rho and Kendall's tau-b (with ties) have the influence
#' values written in [uncertainty_correlation_vec()] (section Intervals):
#' the correlations as functions of V-statistics over pairs and triples
#' of outputs, exact with ties. The AUROC of a thresholded quality is the
#' failure AUROC of `quality < threshold` (DeLong).
#'
#' @name influence_functions
#' @seealso [selective_ci()], [compare_scores()]
#' @references
#' DeLong, DeLong, Clarke-Pearson (1988). Comparing the areas under two or
#' more correlated receiver operating characteristic curves: a
#' nonparametric approach. Biometrics 44, 837-845.
#'
#' Hampel (1974). The influence curve and its role in robust estimation.
#' JASA 69, 383-393.
#'
#' Zhou, Van Landeghem, Popordanoska, Blaschko (2025). A Novel
#' Characterization of the Population Area Under the Risk Coverage Curve
#' (AURC) and Rates of Finite Sample Estimators. ICML 2025.
NULL

# Options of metric_influence(), metric_influence_many() and ci_bootstrap():
# a named list with estimator, method (AUGRC), optimum, coverage, risk,
# n_bins. Missing entries take the package defaults.
influence_options <- function(options = list()) {
  defaults <- list(
    estimator = "alpha", method = "trapezoid", optimum = "exact",
    coverage = 0.5, risk = 0.5, n_bins = 10L, max_rejection = 1,
    rule = "tie_closed", tpr = 0.95, values = TRUE
  )
  out <- utils::modifyList(defaults, as.list(options))
  if (is.null(out$coverage)) out$coverage <- 0.5
  if (is.null(out$risk)) out$risk <- 0.5
  out
}

# The estimates, influence values and standard errors of several metrics
# from one sort. Inputs must be clean (no NA; validated). Returns
# list(estimate = named numeric, influence = n x metrics matrix,
# std_error = named numeric). `options$values = FALSE`: the influence
# values may be left out (NULL) when only the standard errors are needed.
metric_influence_many <- function(score, loss, case_weights, metrics,
                                  options = list()) {
  o <- influence_options(options)
  plans <- lapply(metrics, metric_influence_plan, o)
  kind <- vapply(plans, function(p) p$kind, character(1))
  if (all(kind == "kernel")) {
    # the common case: the metrics' own kernels with one estimator, in one
    # call whose result is the answer (no copy)
    same <- vapply(plans, function(p) {
      !p$flip && identical(p$estimator, o$estimator)
    }, logical(1))
    kernels <- vapply(plans, function(p) p$kernel, character(1))
    if (all(same) && identical(kernels, metrics) && !anyDuplicated(metrics)) {
      return(influence_impl(
        as.double(score), as.double(loss),
        if (is.null(case_weights)) double() else as.double(case_weights),
        metrics, o$estimator, o$method, o$optimum, as.double(o$coverage),
        as.double(o$risk), as.integer(o$n_bins),
        if (is.null(o$edges)) double() else as.double(o$edges),
        sort_threads(),
        # without weights, the standard errors alone when the influence
        # values are not wanted (src/rcpp_influence.cpp); `influence` is
        # then NULL
        isTRUE(o$values)
      ))
    }
  }
  # beyond the common case the influence values are combined (and the R
  # influence functions read those of the kernels)
  o$values <- TRUE
  n <- length(score)
  est <- se <- stats::setNames(rep(NA_real_, length(metrics)), metrics)
  inf <- matrix(NA_real_, n, length(metrics), dimnames = list(NULL, metrics))
  # the C++ kernels: one call (one sort) per estimator
  kern <- which(kind == "kernel")
  estimators <- vapply(plans[kern], function(p) p$estimator, character(1))
  for (e in unique(estimators)) {
    at <- kern[estimators == e]
    names_k <- vapply(plans[at], function(p) p$kernel, character(1))
    res <- influence_impl(
      as.double(score), as.double(loss),
      if (is.null(case_weights)) double() else as.double(case_weights),
      unique(names_k), e, o$method, o$optimum, as.double(o$coverage),
      as.double(o$risk), as.integer(o$n_bins),
      if (is.null(o$edges)) double() else as.double(o$edges), sort_threads()
    )
    for (j in seq_along(at)) {
      k <- match(names_k[j], names(res$estimate))
      flip <- plans[[at[j]]]$flip
      est[at[j]] <- if (flip) 1 - res$estimate[k] else res$estimate[k]
      inf[, at[j]] <- if (flip) -res$influence[, k] else res$influence[, k]
      se[at[j]] <- res$std_error[k]
    }
  }
  # the influence functions written in R
  for (j in which(kind == "r")) {
    res <- plans[[j]]$fn(score, loss, case_weights, o)
    if (is.null(res)) next # not defined with these inputs: NA
    est[j] <- res$estimate
    inf[, j] <- res$influence
    se[j] <- res$std_error
  }
  list(estimate = est, influence = inf, std_error = se)
}

# How the influence values of metric `name` with the options `o` are
# found, from the `influence` of its registry or catalog entry (FALSE,
# TRUE, or a function of the options giving one of these):
#   list(kind = "none")                          no influence function
#   list(kind = "kernel", kernel, estimator, flip)  the C++ kernel
#       `kernel` of src/core/influence.h with that AURC estimator; `flip`:
#       the metric is 1 - the kernel's (AUARC = 1 - AURC, PRR = 1 - NAURC)
#   list(kind = "r", fn)  fn(score, loss, case_weights, o) returns the
#       estimate, the influence values and the standard error (NULL: NA)
metric_influence_plan <- function(name, o) {
  inf <- metric_entry(name)$influence
  if (is.function(inf)) inf <- inf(o)
  if (isFALSE(inf)) return(list(kind = "none"))
  if (isTRUE(inf)) return(influence_kernel(name, o$estimator))
  if (is.function(inf)) return(list(kind = "r", fn = inf))
  inf
}

influence_kernel <- function(kernel, estimator, flip = FALSE) {
  list(kind = "kernel", kernel = kernel, estimator = estimator, flip = flip)
}

# The influence functions of R/ci-influence-*.R as plans' functions.
partial_influence_of <- function(metric) {
  function(score, loss, case_weights, o) {
    partial_influence(metric, as.double(score), as.double(loss),
      case_weights, o$coverage_range
    )
  }
}

balanced_influence_of <- function(metric) {
  function(score, loss, case_weights, o) {
    if (is.null(o$truth)) return(NULL) # no classes: NA
    balanced_influence(metric, as.double(score), as.double(loss), o$truth,
      case_weights
    )
  }
}

# The metrics of `metrics` without an influence function with the options
# `options` (metric_influence_plan() of "none": the achievable AURC, the
# success AUPR, the calibration errors that are a maximum, a kernel
# smoother, an isotonic fit or a loess smooth).
without_influence <- function(metrics, options) {
  o <- influence_options(options)
  metrics[vapply(metrics, function(m) {
    metric_influence_plan(m, o)$kind == "none"
  }, logical(1))]
}

# method = "analytic" for a metric without an influence function: a
# classed error that says what to use instead.
ci_check_analytic_partial <- function(spec, call) {
  bad <- without_influence(spec$metrics, spec)
  if (length(bad) == 0) return(invisible())
  abort_aurc(
    c(
      paste(
        "{.arg method} = {.val analytic} is not available for {.val {bad}}",
        "with these options: no influence function yet."
      ),
      i = "Use {.code method = \"bootstrap\"}."
    ),
    class = c("aurc_error_method", "aurc_error_value"), call = call
  )
}

# Internal entry used by the bootstrap (BCa acceleration) and by
# compare_scores(): the estimate and the per-sample influence values (input
# order) of one metric. `score`, `loss`, `case_weights` (NULL or numeric)
# must be validated and free of NA. `options`: see influence_options().
metric_influence <- function(score, loss, case_weights, metric,
                             options = list()) {
  res <- metric_influence_many(score, loss, case_weights, metric, options)
  list(
    estimate = unname(res$estimate[1]),
    influence = res$influence[, 1]
  )
}

# Standard error from influence values with optional strata and clusters
# (see the help page above). `stratum_default`: strata used when the user
# gave none (the two classes for DeLong's variance).
#
# `scale`: the case weights were divided by this (a power of 2, for range;
# see rescale_weights()). A case's weight counts cases, so the true sums of
# weights are `scale` times those given: without clusters the variance
# sum_h ss_h n_h / (n_h - 1) / total^2 becomes that of the given weights
# divided by `scale`, with n_h / (n_h - 1) and the check n_h > 1 on the
# true counts; with clusters (each cluster one unit) nothing changes.
# (The weighted mean of influence values is 0 up to rounding, so this
# agrees with the C++ influence_se(), which does not subtract it.)
influence_std_error <- function(influence, case_weights = NULL,
                                strata = NULL, cluster = NULL, scale = 1,
                                importance = FALSE) {
  w <- if (is.null(case_weights) || length(case_weights) == 0) {
    rep(1, length(influence))
  } else {
    case_weights
  }
  total <- sum(w)
  if (is.null(cluster) && importance) {
    # importance weights: every case its own unit carrying w_i IF_i, the
    # weighted sandwich sum(w^2 IF^2) / (sum w)^2 (R/weights.R)
    unit_total <- w * influence
    unit_freq <- as.double(w > 0)
    unit_stratum <- if (is.null(strata)) rep(1L, length(w)) else strata
  } else if (is.null(cluster)) {
    unit_total <- influence
    unit_freq <- w
    unit_stratum <- if (is.null(strata)) rep(1L, length(w)) else strata
  } else {
    key <- if (is.null(strata)) cluster else paste(strata, cluster, sep = "\r")
    f <- factor(key, levels = unique(key))
    unit_total <- as.vector(rowsum(w * influence, f, reorder = FALSE))
    unit_freq <- rep(1, nlevels(f))
    unit_stratum <- if (is.null(strata)) {
      rep(1L, nlevels(f))
    } else {
      strata[!duplicated(f)]
    }
    keep <- as.vector(rowsum(w, f, reorder = FALSE)) > 0
    unit_total <- unit_total[keep]
    unit_freq <- unit_freq[keep]
    unit_stratum <- unit_stratum[keep]
  }
  keep <- unit_freq > 0
  # integer codes of the strata in order of appearance (factor() of a
  # double vector formats every value: 0.26 s at n = 1e5, 95% of a paired
  # failure-AUROC comparison)
  st <- unit_stratum[keep]
  h <- match(st, unique(st))
  x <- unit_total[keep]
  fr <- unit_freq[keep]
  n_h <- as.vector(rowsum(fr, h, reorder = FALSE))
  mean_h <- as.vector(rowsum(fr * x, h, reorder = FALSE)) / n_h
  ss_h <- as.vector(rowsum(fr * (x - mean_h[h])^2, h, reorder = FALSE))
  if (!is.null(cluster) || scale == 1 || importance) {
    if (any(n_h <= 1)) return(NA_real_)
    return(sqrt(sum(ss_h * n_h / (n_h - 1))) / total)
  }
  true_n <- n_h * scale
  if (any(true_n <= 1)) return(NA_real_)
  sqrt(sum(ss_h / (1 - 1 / true_n))) / total / sqrt(scale)
}
