# Conformal risk control (Angelopoulos, Bates, Fisch, Lei and Schuster
# 2024) for certify_threshold(method = "crc"). With a threshold lambda on
# the score (accept when score >= lambda), the loss of a case is
# L_i(lambda) = loss_i * 1(score_i >= lambda), in [0, B] and non-increasing
# in lambda. CRC returns the smallest lambda with
#   n / (n + 1) * R_n(lambda) + B / (n + 1) <= alpha,
# R_n(lambda) = mean of L_i(lambda) over the n calibration cases, that is
# S(lambda) + B <= alpha (n + 1) with S the sum of the accepted losses.
# One sort (the risk-coverage curve: tie groups entered together), then
# one pass over the D candidates, by decreasing threshold: S only grows
# along them, so the candidates that pass are a prefix and lambda is its
# last one.

certify_crc <- function(score, loss, target_risk, loss_bound, thresholds,
                        na_rm, call) {
  curve <- certify_curve(score, loss, na_rm, call, loss_bound = loss_bound)
  if (!is.null(thresholds)) curve <- curve_at_grid(curve, thresholds)
  tab <- crc_table(curve, target_risk, loss_bound)
  out <- crc_result(tab, curve$n, target_risk, loss_bound)
  if (!is.finite(out$threshold)) {
    warn_crc_abstain(target_risk, loss_bound, curve$n)
  }
  attr(out, "candidates") <- tab
  out
}

# One row per candidate threshold, by decreasing threshold.
crc_table <- function(curve, target_risk, loss_bound) {
  m <- curve$n_accepted
  loss <- curve$loss_accepted
  n <- curve$n
  adjusted <- (loss + loss_bound) / (n + 1)
  # S + B <= alpha (n + 1), with a relative tolerance of 1e-10 so that a
  # sum such as 0.1 + 0.2 is not taken above 0.3
  passes <- loss + loss_bound <= target_risk * (n + 1) * (1 + 1e-10)
  columns_tibble(
    threshold = curve$threshold, coverage = m / n, n_accepted = m,
    failures = loss, risk = loss / m, joint_risk = loss / n,
    adjusted_risk = adjusted,
    # a prefix (S grows along the rows); cumsum() keeps it one even if
    # rounding in the sums made it otherwise
    controlled = cumsum(!passes) == 0
  )
}

# The result row: the last controlled candidate (the smallest threshold), or
# threshold Inf (abstain on everything) when none is.
crc_result <- function(tab, n, target_risk, loss_bound) {
  j <- sum(tab$controlled)
  if (j == 0) {
    return(columns_tibble(
      threshold = Inf, coverage = 0, n_accepted = 0, failures = 0,
      risk = NA_real_, joint_risk = 0, adjusted_risk = loss_bound / (n + 1),
      target_risk = target_risk, loss_bound = loss_bound
    ))
  }
  columns_tibble(
    threshold = tab$threshold[j], coverage = tab$coverage[j],
    n_accepted = tab$n_accepted[j], failures = tab$failures[j],
    risk = tab$risk[j], joint_risk = tab$joint_risk[j],
    adjusted_risk = tab$adjusted_risk[j], target_risk = target_risk,
    loss_bound = loss_bound
  )
}

# CRC at a threshold chosen elsewhere (the shared threshold of several
# groups): the row of one group's curve at `lambda`.
crc_at <- function(curve, lambda, target_risk, loss_bound) {
  at <- curve_at_grid(curve, lambda)
  m <- at$n_accepted
  loss <- at$loss_accepted
  n <- curve$n
  columns_tibble(
    threshold = lambda, coverage = m / n, n_accepted = m, failures = loss,
    risk = if (m > 0) loss / m else NA_real_, joint_risk = loss / n,
    adjusted_risk = (loss + loss_bound) / (n + 1),
    target_risk = target_risk, loss_bound = loss_bound
  )
}

warn_crc_abstain <- function(target_risk, loss_bound, n, where = NULL) {
  # even accepting nothing, B / (n + 1) <= alpha needs n >= B / alpha - 1
  need <- ceiling(loss_bound / target_risk - 1 - 1e-9)
  warn_aurc(
    c(
      "No threshold controls the expected risk at {target_risk}{where};
       returning {.val {Inf}} (abstain on everything).",
      i = if (n < need) {
        "With a loss bound of {loss_bound}, CRC needs at least {need}
         calibration samples at this level, not {n}."
      } else {
        "Allow a larger {.arg target_risk} or use more data."
      }
    ),
    class = "aurc_warning_not_certified"
  )
}

# A tibble of columns of one length, without tibble()'s checks (which cost
# more than CRC itself on a group of a few hundred cases).
columns_tibble <- function(...) {
  cols <- list(...)
  tibble::new_tibble(cols, nrow = length(cols[[1]]))
}
