#' Power and sample size for comparing two confidence scores
#'
#' How many cases does a study need to show that one confidence score (or
#' one model) has a better AURC, AUGRC or failure AUROC than another? From a
#' pilot sample, `selective_power()` estimates the variance of the paired
#' difference with the influence functions of [compare_scores()] and, by the
#' normal approximation of its Wald test, gives the sample size for a target
#' power, the power at a sample size, or the smallest difference detectable
#' at a sample size and power -- as [pROC::power.roc.test()] does for the
#' AUC alone.
#'
#' @section Definitions:
#' The pilot's `n_0` cases give the difference `d_0 = T(a) - T(b)` of the
#' metric of the two scores and its standard error `SE_0` exactly as
#' [compare_scores()] (`method = "analytic"`) computes them: from the
#' influence values `IF_a - IF_b` of the difference on the same cases
#' ([influence_functions]), so the correlation of the two scores (or
#' models) is taken into account. The **per-case standard deviation** is
#' `sd = sqrt(n_0) * SE_0`; without strata or clusters,
#' `sd^2 = sum_i w_i (IF_a,i - IF_b,i)^2 / (n_0 - 1)` with `n_0 = sum_i w_i`.
#' At `n` cases the difference's standard error is `sd / sqrt(n)`, and the
#' Wald test of [compare_scores()] at level `alpha = sig_level` rejects with
#' probability (the normal approximation)
#'
#' * two-sided: `power(n) = Phi(|d| sqrt(n) / sd - z[1 - alpha/2]) +
#'   Phi(-|d| sqrt(n) / sd - z[1 - alpha/2])`;
#' * one-sided (the test in the direction of `d`):
#'   `power(n) = Phi(|d| sqrt(n) / sd - z[1 - alpha])`,
#'
#' where `Phi` is the standard normal distribution function, `z[p]` its
#' `p`-quantile and `d` the true difference (`difference`; see "The
#' difference to plan for"). Write `delta(power)` for the value of
#' `|d| sqrt(n) / sd` at which the power is reached (one-sided:
#' `z[1 - alpha] + z[power]`; two-sided: the root of the equation above,
#' found numerically: slightly below `z[1 - alpha/2] + z[power]`, by about
#' 1e-4 or less for `power >= 0.5` at `alpha = 0.05`). Then the sample size is
#' `n = ceiling((delta(power) * sd / |d|)^2)` (at least 2), and the
#' smallest detectable difference at `n` cases is
#' `|d| = delta(power) * sd / sqrt(n)`.
#'
#' @section What to solve for:
#' As in [pROC::power.roc.test()], the quantity left `NULL` is solved for:
#'
#' * `n = NULL`, `power` given: the sample size;
#' * `power = NULL`, `n` given: the power;
#' * `difference = NULL`, `n` and `power` given: the detectable difference.
#'
#' Giving all three, or neither `n` nor `power`, is an error.
#'
#' @section The difference to plan for:
#' Best: **the smallest difference that matters** to the study, given as a
#' number. Without one (`difference = NULL` or `"conservative"`, when `n`
#' or `power` is solved for), the plan uses the pilot's difference shrunk
#' towards 0 by `qnorm(0.8)` of its standard errors, `d_c = sign(d_0)
#' (|d_0| - 0.84 SE_0)`: the true difference is at least this large with
#' probability of about 80% given the pilot. If the pilot's difference is
#' not clear of 0 by that margin (`|d_0| <= 0.84 SE_0`), there is nothing
#' to plan for and the result is `NA` with a warning of class
#' `aurc_warning_power_degenerate`.
#'
#' `difference = "pilot"` plans with the pilot's observed difference
#' itself. That is **optimistic, the winner's curse**: a study is planned
#' on a pilot because its difference looked large, and the needed
#' sample size grows with `1 / d^2`, so a difference that came out too
#' large shrinks the plan more than one that came out too small enlarges
#' it. In a simulation (two binormal scores, a true AURC difference of
#' -0.0237 that 665 cases detect with 80% power; pilots of 300 cases, of
#' which about half show a significant difference, the ones a study would
#' be planned on; `test-selective-power.R`, "the default plans
#' conservatively"), planning 80% power with the pilot's difference gave
#' studies of 364 cases on average whose real power was 0.53; with the
#' conservative difference 863 cases, real power 0.81. At a fixed 1000
#' cases (true power 0.93) the pilot's difference stated 0.99, the
#' conservative one 0.85. The column `difference_source`
#' says which difference was used.
#'
#' @section Sample size and design:
#' `n` counts cases (the sum of frequency `case_weights` if given; with
#' importance weights the cases observed), the same unit as the pilot's
#' `n_pilot`. The variance per case is taken from the pilot, so
#' the planned study is assumed to have the pilot's design: for the failure
#' AUROC of two scores with the same failures the variance is DeLong's,
#' which conditions on the numbers of failures and successes, so the
#' failure rate is assumed to stay that of the pilot (as
#' [pROC::power.roc.test()] keeps `kappa = ncontrols / ncases`); with
#' `strata` the strata keep their shares; with `cluster` the variance is
#' the cluster-robust one, and the clusters are assumed to keep the pilot's
#' sizes (the design effect stays).
#'
#' @section Case weights:
#' Plain numbers and [hardhat::frequency_weights()] count cases;
#' with [hardhat::importance_weights()] the standard errors are the
#' weighted sandwich over the cases observed and the bootstrap resamples
#' cases (see [selective_ci()], section "Case weights"); the estimates are
#' the same.
#'
#' @section pROC's convention (`convention = "proc"`):
#' For the failure AUROC, `convention = "proc"` reproduces
#' [pROC::power.roc.test()] for two paired ROC curves,
#' `power.roc.test(roc_a, roc_b, ...)` with `roc_a <- pROC::roc(failure,
#' a, direction = ">")` (pROC's default levels: the successes are its
#' *controls*, the failures its *cases*; higher confidence for successes)
#' and its default `method = "delong"`. pROC uses the
#' formula of Obuchowski and McClish (1997) for the number of cases
#' (here: failures) `n_f`:
#'
#' `sqrt(n_f) |d| = z sqrt(V_0) + z[power] sqrt(V_A)`,
#'
#' with DeLong's variances `var_a`, `var_b` of the two AUROCs and their
#' covariance `cov_ab` on the pilot, each multiplied by the pilot's number
#' of failures `n_f0`: `V_A = n_f0 (var_a + var_b - 2 cov_ab)` the
#' variance of the difference and `V_0 = 2 n_f0 (var_a - cov_ab)` its
#' variance under the null hypothesis (both curves taken to have the
#' variance of the **first**); `z = z[1 - alpha/2]` (two-sided) or
#' `z[1 - alpha]` (one-sided), and the power counts **one tail** only. The
#' controls follow at the pilot's ratio `kappa = n_c0 / n_f0` (pROC's
#' `kappa`). So, with `n` all cases (`n_f = n n_f0 / n_0`):
#'
#' * sample size: `n_f = (z sqrt(V_0) + z[power] sqrt(V_A))^2 / d^2`
#'   (pROC's `ncases`), `n_c = kappa n_f` (`ncontrols`), and `n =
#'   ceiling(n_f + n_c)`;
#' * power: `Phi((sqrt(n_f) |d| - z sqrt(V_0)) / sqrt(V_A))`;
#' * detectable difference: `(z sqrt(V_0) + z[power] sqrt(V_A)) /
#'   sqrt(n_f)`.
#'
#' The result then has two more columns, `n_cases` and `n_controls`
#' (pROC's `ncases` and `ncontrols`, not rounded). pROC always plans with
#' the pilot's difference of the two AUROCs, so `difference = "pilot"`
#' reproduces its numbers (`n = n_pilot` its power, which it computes at
#' the pilot's size only); the other choices of `difference` work in the
#' same formula. pROC has no strata, clusters or case weights and needs
#' paired curves of one response: those and any other `metric` are
#' errors of class `aurc_error_method`. A pilot with `var_a <= cov_ab`
#' (where pROC's `V_0` is not positive and its answer `NaN`) gives `NA`
#' with a warning of class `aurc_warning_power_degenerate`.
#'
#' The default `convention = "aurc"` differs in three ways: `n` and the
#' per-case variance count all cases, `sd^2 = V_A n_0 / n_f0` on the same
#' pilot (the same thing when the failure rate stays that of the pilot);
#' both terms use the variance under the alternative, `V_A`, because the
#' Wald test of [compare_scores()] divides by the estimated standard error
#' (which estimates the alternative's); and the two-sided power counts
#' both tails. With `V_0 = V_A` the two sample sizes agree up to the
#' rounding and the second tail (a power of about 1e-6 at 80% power and
#' `alpha = 0.05`). pROC's power analysis of **one** ROC curve (its AUC
#' against 0.5, with Obuchowski's binormal variance and the null variance
#' `0.0792 (1 + 1 / kappa)`) has no counterpart here: `selective_power()`
#' compares two scores.
#'
#' @inheritParams compare_scores
#' @param scores Exactly two score columns: unquoted names combined with
#'   `c()` (e.g. `c(msp, margin)`), a range (`msp:margin`), or a character
#'   vector of column names. The difference is the first minus the second.
#' @param loss The per-sample loss (0/1 failure for the failure AUROC): one
#'   unquoted column shared by both scores, or one column per score
#'   (`c(loss_a, loss_b)`) to compare two **models**, each with its own
#'   confidence and its own loss on the same cases.
#' @param correct Instead of `loss`: the unquoted column of whether each
#'   prediction was right; the loss is `1 - correct`.
#' @param quality Instead of `loss`: the unquoted column of a quality in
#'   `[0, 1]` (higher is better, as [prr()] takes it); the loss is
#'   `1 - quality`.
#' @param metric `"aurc"` (the default), `"augrc"`, `"failure_auroc"`, or
#'   for a quality in `[0, 1]` (given as `quality =`, or as `loss = 1 -
#'   quality`), `"prr"` or `"auarc"` ([prr()]).
#' @param n The number of cases of the planned study (at least 2), or
#'   `NULL` to solve for it.
#' @param power The target power, strictly between `sig_level` and 1, or
#'   `NULL` to solve for it.
#' @param difference The true difference in the metric (first score minus
#'   second) to detect, a number other than 0; or `"conservative"` (the
#'   pilot's difference shrunk towards 0 by 0.84 standard errors) or
#'   `"pilot"` (the pilot's observed difference, optimistic); see "The
#'   difference to plan for". `NULL`: solve for it when `n` and `power` are
#'   both given, else `"conservative"`.
#' @param sig_level The significance level of the test, strictly between 0
#'   and 1.
#' @param alternative `"two.sided"` (the default; the test of
#'   [compare_scores()]) or `"one.sided"` (the test in the direction of the
#'   difference).
#' @param convention `"aurc"` (the default; see "Definitions") or, for
#'   `metric = "failure_auroc"`, `"proc"`: the convention of
#'   [pROC::power.roc.test()] (see "pROC's convention").
#' @param strata,cluster Optional columns of the pilot's design, as in
#'   [compare_scores()]: the standard error is the stratified or
#'   cluster-robust one.
#' @param estimator The AURC estimator (see [selective_ci()]).
#' @param max_rejection For `metric = "prr"`: the largest share rejected,
#'   in `(0, 1]` (see [prr()]).
#' @param na_rm If `TRUE`, pilot rows with a missing value in either score
#'   or a loss are dropped; if `FALSE` (the default) a missing value makes
#'   the result `NA`.
#' @return A tibble, one row per group of `data`: the grouping columns,
#'   `metric`, `score_a`, `score_b`, `difference` (the difference used, or
#'   the detectable difference, as a positive number, when solved for),
#'   `difference_source` (`"given"`, `"conservative"`, `"pilot"` or
#'   `"solved"`),
#'   `sd` (the per-case standard deviation of the difference), `n`,
#'   `power` (the target power when `n` is solved for; the power at the
#'   rounded-up `n` is at least this), `sig_level`, `alternative`,
#'   `n_pilot` (the pilot's number of cases) and `pilot_difference` (the
#'   pilot's observed difference); with `convention = "proc"` also
#'   `n_cases` and `n_controls` (see "pROC's convention"). A pilot whose
#'   difference (when used) or variance is 0 gives `NA` with a warning of
#'   class
#'   `aurc_warning_power_degenerate`.
#' @references
#' Obuchowski, N. A. and McClish, D. K. (1997). Sample size determination
#' for diagnostic accuracy studies involving binormal ROC curve indices.
#' *Statistics in Medicine*, 16(13), 1529-1542.
#'
#' Robin, X., Turck, N., Hainard, A., Tiberti, N., Lisacek, F., Sanchez,
#' J.-C. and Mueller, M. (2011). pROC: an open-source package for R and S+
#' to analyze and compare ROC curves. *BMC Bioinformatics*, 12, 77
#' (`power.roc.test()`).
#'
#' DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing
#' the areas under two or more correlated receiver operating characteristic
#' curves: a nonparametric approach. *Biometrics*, 44, 837-845.
#' @seealso [compare_scores()] for the test itself, [influence_functions]
#'   for the influence values, [selective_ci()].
#' @examples
#' set.seed(3)
#' n <- 1000
#' latent <- rnorm(n)
#' pilot <- data.frame(
#'   failure = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
#'   good = latent + rnorm(n, sd = 0.5),
#'   poor = latent + rnorm(n, sd = 1)
#' )
#' # cases needed for 80% power to detect the pilot's difference in AURC
#' selective_power(pilot, c(good, poor), failure, power = 0.8)
#' # power at 2000 cases to detect a difference of 0.03 in failure AUROC
#' selective_power(pilot, c(good, poor), failure,
#'   metric = "failure_auroc", n = 2000, difference = 0.03
#' )
#' # the smallest difference detectable with 2000 cases and 90% power
#' selective_power(pilot, c(good, poor), failure, n = 2000, power = 0.9)
#' # two models, each with its own confidence and its own failures
#' pilot$failure_b <- rbinom(n, 1, plogis(-0.5 - 1.5 * latent))
#' selective_power(pilot, c(good, poor), c(failure, failure_b),
#'   power = 0.8
#' )
#' @export
selective_power <- function(data, scores, loss, ..., correct = NULL,
                            quality = NULL,
                            metric = c("aurc", "augrc", "failure_auroc",
                                       "prr", "auarc"),
                            n = NULL, power = NULL, difference = NULL,
                            sig_level = 0.05,
                            alternative = c("two.sided", "one.sided"),
                            convention = c("aurc", "proc"),
                            strata = NULL, cluster = NULL,
                            estimator = "alpha", max_rejection = 1,
                            na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  metric <- check_choice(if (missing(metric)) "aurc" else metric,
    power_metrics,
    arg = "metric", call = call
  )
  alternative <- check_choice(
    if (missing(alternative)) "two.sided" else alternative,
    c("two.sided", "one.sided"),
    arg = "alternative", call = call
  )
  convention <- check_choice(
    if (missing(convention)) "aurc" else convention, c("aurc", "proc"),
    arg = "convention", call = call
  )
  sig_level <- check_number(sig_level, 0, 1, open = TRUE, call = call)
  rule <- if (is.character(difference)) {
    check_choice(difference, c("conservative", "pilot"),
      arg = "difference", call = call
    )
  } else if (is.null(difference)) {
    if (!is.null(n) && !is.null(power)) "solved" else "conservative"
  } else {
    "given"
  }
  if (is.character(difference)) difference <- NULL
  solve <- power_unknown(n, power, if (rule == "given") difference,
    call
  )
  if (!is.null(n)) n <- check_number(n, lower = 2, call = call)
  if (!is.null(power)) {
    power <- check_number(power, 0, 1, open = TRUE, call = call)
    if (power <= sig_level) {
      abort_aurc(
        c(
          "{.arg power} must be larger than {.arg sig_level}.",
          x = "{.arg power} is {.val {power}} and {.arg sig_level}
               {.val {sig_level}}.",
          i = "With no difference the test rejects with probability
               {.arg sig_level}."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  if (!is.null(difference)) {
    difference <- check_number(difference, call = call)
    if (difference == 0) {
      abort_aurc(
        c(
          "{.arg difference} must not be 0.",
          i = "No sample size gives power to detect no difference."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  check_data_frame(data, call = call)
  cols <- select_score_columns(data, rlang::enquo(scores), call)
  if (length(cols) != 2) {
    abort_aurc(
      c(
        "{.arg scores} must select exactly two columns.",
        x = "It selects {length(cols)}: {.val {cols}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (convention == "proc") {
    check_proc_convention(metric, list(
      strata = rlang::enquo(strata), cluster = rlang::enquo(cluster),
      case_weights = rlang::enquo(case_weights)
    ), call)
  }
  cmp <- compare_scores_run(
    data,
    quos = list(
      scores = rlang::new_quosure(cols, rlang::empty_env()),
      loss = if (missing(loss)) rlang::quo(NULL) else rlang::enquo(loss),
      correct = rlang::enquo(correct), quality = rlang::enquo(quality),
      case_weights = rlang::enquo(case_weights),
      strata = rlang::enquo(strata), cluster = rlang::enquo(cluster)
    ),
    metric = metric, method = "analytic", p_adjust = "none",
    conf_level = 0.95, type = "percentile", times = 2000, indices = NULL,
    estimator = estimator, augrc_method = "trapezoid", optimum = "exact",
    coverage = NULL, risk = NULL, n_bins = 10, binning = "adaptive",
    na_rm = na_rm, threads = 1,
    ignored = c(type = FALSE, times = FALSE, threads = FALSE),
    n_bins_given = FALSE, call = call, max_rejection = max_rejection
  )
  tests <- cmp$tests
  n_pilot <- cmp$settings$n
  if (convention == "proc") check_proc_losses(cmp$settings$losses, call)
  sd <- sqrt(n_pilot) * tests$std_error
  effect <- switch(rule,
    given = rep(difference, nrow(tests)),
    # the pilot's difference shrunk towards 0 by qnorm(0.8) standard
    # errors; 0 where it does not clear 0 (degenerate: NA with a warning)
    conservative = sign(tests$difference) *
      pmax(0, abs(tests$difference) - power_shrink * tests$std_error),
    tests$difference
  )
  z <- stats::qnorm(1 - if (alternative == "two.sided") {
    sig_level / 2
  } else {
    sig_level
  })
  two_sided <- alternative == "two.sided"
  out_n <- rep(if (is.null(n)) NA_real_ else n, nrow(tests))
  out_power <- rep(if (is.null(power)) NA_real_ else power, nrow(tests))
  out_diff <- effect
  # pROC's convention: its variances per failure (proc_variances())
  proc <- if (convention == "proc") proc_variances(cmp)
  no_variance <- !is.na(sd) & sd == 0
  no_difference <- solve != "difference" & !is.na(effect) & effect == 0
  no_null <- if (is.null(proc)) FALSE else !no_variance & !(proc$v0 > 0)
  no_null[is.na(no_null)] <- FALSE
  degenerate <- no_variance | no_difference | no_null
  ok <- !is.na(sd) & (solve == "difference" | !is.na(effect)) & !degenerate
  if (any(degenerate)) {
    what <- if (any(no_variance)) {
      "no variance of the"
    } else if (any(no_null)) {
      "no positive null variance (pROC's 2 (var_a - cov_ab)) of the"
    } else if (rule == "conservative") {
      "no difference clear of 0 (by 0.84 standard errors) in the"
    } else {
      "no"
    }
    warn_aurc(
      c(
        "The pilot shows {what} difference in {metric_label(metric)}
         between {.val {cols[1]}} and {.val {cols[2]}}; the result is
         {.code NA}.",
        i = if (!any(no_variance)) {
          "Give the {.arg difference} that matters."
        }
      ),
      class = "aurc_warning_power_degenerate"
    )
  }
  if (!is.null(proc)) {
    solved <- proc_solve(solve, proc, ok, effect, n, power, z)
    out_n[ok] <- solved$n %||% out_n[ok]
    out_power[ok] <- solved$power %||% out_power[ok]
    out_diff[ok] <- solved$difference %||% out_diff[ok]
  } else if (solve == "power") {
    out_power[ok] <- power_normal(abs(effect[ok]) * sqrt(n) / sd[ok], z,
      two_sided
    )
  } else {
    delta <- power_delta(power, z, two_sided)
    if (solve == "n") {
      exact <- (delta * sd[ok] / abs(effect[ok]))^2
      # (the 1e-9 keeps a whole answer from rounding up through
      # floating-point noise)
      out_n[ok] <- pmax(2, ceiling(exact - 1e-9))
    } else {
      out_diff[ok] <- delta * sd[ok] / sqrt(n)
    }
  }
  out_n[!ok & solve == "n"] <- NA_real_
  out_power[!ok & solve == "power"] <- NA_real_
  if (solve == "difference") out_diff[!ok] <- NA_real_
  keys <- tests[setdiff(names(tests), names(compare_tables_columns))]
  out <- tibble::as_tibble(c(keys, list(
    metric = rep(metric, nrow(tests)), score_a = tests$score_a,
    score_b = tests$score_b, difference = out_diff,
    difference_source = rep(rule, nrow(tests)), sd = sd, n = out_n,
    power = out_power, sig_level = rep(sig_level, nrow(tests)),
    alternative = rep(alternative, nrow(tests)), n_pilot = n_pilot,
    pilot_difference = tests$difference
  )))
  if (!is.null(proc)) {
    cases <- rep(NA_real_, nrow(out))
    cases[ok] <- if (solve == "n") solved$n_cases else n * proc$share[ok]
    out$n_cases <- cases
    out$n_controls <- cases * proc$kappa
  }
  out
}

# The columns of compare_scores()'s tests (the rest are grouping keys).
compare_tables_columns <- stats::setNames(nm = c(
  "score_a", "score_b", "estimate_a", "estimate_b", "difference", "lower",
  "upper", "std_error", "statistic", "p_value", "p_adjusted"
))

# Which of n, power and difference to solve for (the NULL one, as in
# pROC::power.roc.test()); `difference = NULL` with n or power NULL means
# the pilot's difference.
# qnorm(0.8): the shrinkage, in standard errors, of the conservative
# difference.
power_shrink <- stats::qnorm(0.8)

power_unknown <- function(n, power, difference, call) {
  if (!is.null(n) && !is.null(power) && !is.null(difference)) {
    abort_aurc(
      c(
        "One of {.arg n}, {.arg power} and {.arg difference} must be
         {.code NULL}: it is the one solved for.",
        x = "All three are given."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (is.null(n) && is.null(power)) {
    abort_aurc(
      c(
        "Give {.arg n} or {.arg power} (or both, to solve for
         {.arg difference}).",
        x = "Both are {.code NULL}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (is.null(n)) "n" else if (is.null(power)) "power" else "difference"
}

# The power of the Wald test at standardised effect delta = |d| sqrt(n) / sd
# with critical value z.
power_normal <- function(delta, z, two_sided) {
  p <- stats::pnorm(delta - z)
  if (two_sided) p + stats::pnorm(-delta - z) else p
}

# The standardised effect at which the power is reached.
power_delta <- function(power, z, two_sided) {
  one <- z + stats::qnorm(power)
  if (!two_sided) return(one)
  # the second tail only adds power, so the root lies in [0, one] (and
  # the power at 0 is sig_level < power)
  stats::uniroot(function(x) power_normal(x, z, TRUE) - power,
    c(0, one), tol = 1e-12
  )$root
}
