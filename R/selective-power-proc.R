# pROC's convention for selective_power() (`convention = "proc"`): the
# sample size and power of pROC::power.roc.test() for two paired ROC
# curves (Obuchowski and McClish 1997, with DeLong's variances), for the
# failure AUROC. The help of selective_power(), section "pROC's
# convention", states the formulas; this file computes them.

# The metric and design pROC's convention applies to: the failure AUROC of
# two scores of one pilot without strata, clusters or case weights (pROC's
# power.roc.test() has none of them).
check_proc_convention <- function(metric, quos, call) {
  if (metric != "failure_auroc") {
    abort_aurc(
      c(
        "{.code convention = \"proc\"} applies only to
         {.code metric = \"failure_auroc\"}.",
        x = "{.arg metric} is {.val {metric}}.",
        i = "It is the convention of {.fn pROC::power.roc.test}, which
             plans for the area under the ROC curve alone."
      ),
      class = c("aurc_error_method", "aurc_error_value"), call = call
    )
  }
  given <- !vapply(quos, rlang::quo_is_null, logical(1))
  if (any(given)) {
    abort_aurc(
      c(
        "{.code convention = \"proc\"} takes no
         {.arg {names(quos)[given]}}.",
        i = "{.fn pROC::power.roc.test} has no strata, clusters or case
             weights; use {.code convention = \"aurc\"}."
      ),
      class = c("aurc_error_method", "aurc_error_value"), call = call
    )
  }
  invisible()
}

# Two models with their own failures are not two ROC curves of the same
# cases and controls, which pROC requires (paired curves).
check_proc_losses <- function(losses, call) {
  if (length(unique(losses)) < 2) return(invisible())
  abort_aurc(
    c(
      "{.code convention = \"proc\"} needs one failure column shared by
       both scores.",
      x = "{.arg loss} gives two: {.val {losses}}.",
      i = "{.fn pROC::power.roc.test} compares two paired ROC curves of
           the same cases and controls."
    ),
    class = c("aurc_error_method", "aurc_error_value"), call = call
  )
}

# pROC's variances from the pilot's comparison (compare_scores_run(), one
# row of tests per group, two rows of estimates per group): DeLong's
# variances var_a, var_b of the two AUROCs and var_d of their difference
# (= var_a + var_b - 2 cov_ab), times the number of pROC cases (the
# failures): va = n_f var_d under the alternative and v0 = 2 n_f (var_a -
# cov_ab) = n_f (var_a - var_b + var_d) under the null. `share`: the
# pilot's share of failures (pROC's cases among all cases), `kappa` its
# ratio of successes to failures (pROC's kappa = ncontrols / ncases).
proc_variances <- function(cmp) {
  se <- cmp$estimates$std_error
  var_a <- se[c(TRUE, FALSE)]^2
  var_b <- se[c(FALSE, TRUE)]^2
  var_d <- cmp$tests$std_error^2
  cases <- cmp$settings$n_failures
  n <- cmp$settings$n
  list(
    va = cases * var_d, v0 = cases * (var_a - var_b + var_d),
    share = cases / n, kappa = (n - cases) / cases
  )
}

# Solves pROC's equation sqrt(n_f) |d| = z sqrt(v0) + z[power] sqrt(va)
# (n_f the failures of the study; `z` the critical value, of one tail) for
# the one unknown, on the rows `ok`. `n` counts all cases: n_f = n share.
# Returns list(n, n_cases) or list(power) or list(difference).
proc_solve <- function(solve, proc, ok, effect, n, power, z) {
  v0 <- proc$v0[ok]
  va <- proc$va[ok]
  if (solve == "power") {
    cases <- n * proc$share[ok]
    zb <- (sqrt(cases) * abs(effect[ok]) - z * sqrt(v0)) / sqrt(va)
    return(list(power = stats::pnorm(zb)))
  }
  root <- z * sqrt(v0) + stats::qnorm(power) * sqrt(va)
  if (solve == "n") {
    cases <- root^2 / effect[ok]^2
    # all cases: the failures and kappa successes per failure (the 1e-9
    # keeps a whole answer from rounding up through floating-point noise)
    all <- cases * (1 + proc$kappa[ok])
    return(list(n = pmax(2, ceiling(all - 1e-9)), n_cases = cases))
  }
  list(difference = root / sqrt(n * proc$share[ok]))
}
