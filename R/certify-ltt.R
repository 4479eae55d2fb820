# Learn then Test (Angelopoulos, Bates, Candes, Jordan and Lei 2025) for
# certify_threshold(method = "ltt"): a p-value per candidate threshold for
# the null "its risk exceeds the target", then a family-wise error rate
# (FWER) procedure over the candidates. One sort (the risk-coverage curve),
# then vectorised passes over the D distinct thresholds.

certify_ltt <- function(score, failure, target_risk, delta, p_value, fwer,
                        max_abstention, thresholds, na_rm, call) {
  bounded <- p_value == "hoeffding_bentkus"
  if (!bounded) check_binary_for_binomial(failure, call)
  curve <- certify_curve(score, failure, na_rm, call, bounded = bounded)
  if (!is.null(thresholds)) curve <- curve_at_grid(curve, thresholds)
  tab <- ltt_table(curve, target_risk, max_abstention, p_value)
  tab$rejected <- ltt_reject(tab, delta, fwer,
    two_risks = !is.null(max_abstention)
  )
  ok <- which(tab$rejected)
  if (length(ok) == 0) {
    hint <- if (fwer == "fixed_sequence" && is.null(thresholds)) {
      "Fixed-sequence testing starts at the highest score, which accepts
       one sample: give a grid {.arg thresholds} whose first value accepts
       enough samples, or use {.code fwer = \"holm\"}."
    }
    warn_not_certified(target_risk, delta, "No candidate threshold", hint)
    best <- list(
      threshold = NA_real_, coverage = 0, n_accepted = 0, failures = 0,
      risk = NA_real_, p_value = NA_real_
    )
  } else {
    # rows are in decreasing threshold, so the last rejected row has the
    # largest coverage
    best <- tab[max(ok), ]
  }
  out <- tibble::tibble(
    threshold = best$threshold, coverage = best$coverage,
    n_accepted = best$n_accepted, failures = best$failures,
    risk = best$risk, p_value = best$p_value, target_risk = target_risk,
    max_abstention = if (is.null(max_abstention)) NA_real_ else max_abstention,
    delta = delta
  )
  attr(out, "candidates") <- tab
  out
}

# A loss in [0, 1] given with p_value = "binomial" is an error (the exact
# binomial p-value needs 0/1 losses); other values are left to
# check_failure().
check_binary_for_binomial <- function(failure, call) {
  if (!(is.numeric(failure) && !is.object(failure) && is.null(dim(failure)))) {
    return(invisible())
  }
  bad <- which(!is.na(failure) & failure > 0 & failure < 1)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg failure} must contain only 0 and 1 with
         {.code p_value = \"binomial\"}.",
        x = "Element {bad[1]} is {.val {failure[bad[1]]}}.",
        i = "For a loss in [0, 1] use
             {.code p_value = \"hoeffding_bentkus\"}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible()
}

# A loss bounded in [0, upper] (or logical) where present.
check_unit_loss <- function(loss, n, arg = "failure", upper = 1,
                            call = rlang::caller_env()) {
  check_numeric_vector(loss, arg, allow_logical = TRUE, call = call)
  check_same_length(loss, n, arg, call = call)
  bad <- which(!is.na(loss) & !(loss >= 0 & loss <= upper))
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must be a loss in [0, {upper}].",
        x = "Element {bad[1]} is {.val {loss[bad[1]]}}.",
        i = if (upper != 1) "The bound is {.arg loss_bound}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(loss)
}

# The candidates as a grid fixed in advance: unique, decreasing; at each
# grid value g the accepted set is {score >= g}, read off the curve (one
# binary search per grid value).
check_thresholds <- function(thresholds, call) {
  if (is.null(thresholds)) return(NULL)
  check_numeric_vector(thresholds, "thresholds", call = call)
  bad <- which(!is.finite(thresholds))
  if (length(thresholds) == 0 || length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg thresholds} must be a non-empty vector of finite numbers.",
        x = if (length(bad)) "Element {bad[1]} is {.val {thresholds[bad[1]]}}."
        else "It is empty."
      ),
      class = "aurc_error_value", call = call
    )
  }
  sort(unique(as.double(thresholds)), decreasing = TRUE)
}

curve_at_grid <- function(curve, grid) {
  d <- length(curve$threshold)
  # rows 1..j of the (decreasing) curve have threshold >= g
  j <- d - findInterval(grid, rev(curve$threshold), left.open = TRUE)
  pick <- function(x) ifelse(j > 0, x[pmax(j, 1L)], 0)
  list(
    threshold = grid, n_accepted = pick(curve$n_accepted),
    loss_accepted = pick(curve$loss_accepted), n = curve$n
  )
}

# One row per candidate, in decreasing threshold (the fixed-sequence
# order): the accepted count m, the loss sum, the empirical selective risk
# and the p-values.
ltt_table <- function(curve, target_risk, max_abstention, p_value) {
  m <- curve$n_accepted
  loss <- curve$loss_accepted
  n <- curve$n
  p_risk <- if (p_value == "binomial") {
    stats::pbinom(round(loss), m, target_risk)
  } else {
    hb_p_value(loss, m, target_risk)
  }
  # nothing accepted (a grid value above every score): no evidence
  p_risk[m == 0] <- 1
  p_abstention <- if (is.null(max_abstention)) {
    rep(NA_real_, length(m))
  } else {
    # the abstention indicator is 0/1, so its p-value is the exact binomial
    # one whatever `p_value` says (Hoeffding-Bentkus only bounds it)
    stats::pbinom(round(n - m), n, max_abstention)
  }
  tibble::tibble(
    threshold = curve$threshold, coverage = m / n, n_accepted = m,
    failures = loss, risk = loss / m, p_risk = p_risk,
    p_abstention = p_abstention,
    p_value = if (is.null(max_abstention)) {
      p_risk
    } else {
      pmax(p_risk, p_abstention)
    }
  )
}

# Hoeffding-Bentkus p-value (LTT, after Bates et al. 2021):
# for a mean of m losses in [0, 1] whose sum is `loss`, of the null
# "mean risk > alpha":
#   min(exp(-m h1(min(rhat, alpha), alpha)),
#       e * P(Bin(m, alpha) <= ceiling(m rhat))),
# h1(a, b) = a log(a / b) + (1 - a) log((1 - a) / (1 - b)), 0 log 0 = 0.
hb_p_value <- function(loss, m, alpha) {
  rhat <- pmin(loss / m, alpha)
  h1 <- ifelse(rhat > 0, rhat * log(rhat / alpha), 0) +
    (1 - rhat) * log((1 - rhat) / (1 - alpha))
  hoeffding <- exp(-m * h1)
  # m * rhat, rounded up; the tolerance keeps a sum such as 0.1 + 0.2 + 0.7
  # (1 + 2e-16) at 1
  k <- ceiling(loss - 1e-9 * pmax(1, loss))
  bentkus <- exp(1) * stats::pbinom(k, m, alpha)
  pmin(hoeffding, bentkus)
}

# The FWER procedure over the D candidates; `tab` is in decreasing
# threshold. Returns the rejected flags (the certified thresholds).
ltt_reject <- function(tab, delta, fwer, two_risks) {
  p <- tab$p_value
  d <- length(p)
  switch(fwer,
    fixed_sequence = if (two_risks) {
      # each risk in its own direction at delta / 2 (a union bound over the
      # two risks): selective risk from the highest threshold down, and
      # abstention from the lowest up, which rejects exactly where its
      # p-value (increasing in the threshold) is at most delta / 2
      cumsum(tab$p_risk > delta / 2) == 0 & tab$p_abstention <= delta / 2
    } else {
      cumsum(p > delta) == 0
    },
    bonferroni = p <= delta / d,
    holm = {
      o <- order(p)
      keep <- cumsum(p[o] > delta / (d - seq_len(d) + 1)) == 0
      out <- logical(d)
      out[o] <- keep
      out
    }
  )
}

warn_not_certified <- function(target_risk, delta, what, hint = NULL) {
  warn_aurc(
    c(
      "{what} is certified at risk {target_risk} with delta = {delta};
       returning {.val {NA}}.",
      i = "Allow a larger {.arg target_risk} or {.arg delta}, or use more
           data.",
      if (!is.null(hint)) c(i = hint)
    ),
    class = "aurc_warning_not_certified"
  )
}
