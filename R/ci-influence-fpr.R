# Influence function of the false positive rate at a true positive rate
# (fpr_at_tpr(), R/metric-fpr-tpr.R), for the analytic intervals of
# selective_ci() and the analytic tests of compare_scores().
#
# With the correct predictions as positives (P of them, weighted) and the
# failures as negatives (F), the threshold t is the highest score whose
# true positive rate reaches `tpr`, and theta = FPR(t), the share of
# failures at or above it. In the population t is the (1 - tpr) upper
# quantile of the positives' scores, so (N = P + F, tau the true positive
# rate at t)
#   failure:  IF = (1(s >= t) - theta) N / F
#   correct:  IF = -rho (1(s >= t) - tau) N / P
# where rho = (f_neg(t) / F) / (f_pos(t) / P) is the slope of the ROC curve
# at t: the threshold moves with the positives and carries the failures'
# rate with it. rho comes from a window of tie groups around t holding
# about sqrt(N) samples, the rule of the risk at coverage's local loss rate
# (src/core/influence_kernels.h); a tied threshold group of at least
# sqrt(N) samples stays put ("locked"), and then the positives have no
# influence. No positive in the window: NA (no analytic interval).

fpr_at_tpr_influence <- function(score, loss, case_weights, tpr) {
  n <- length(score)
  w <- weights_or_ones(case_weights, n)
  g <- tie_groups_desc(score, w, loss) # R/ci-influence-helpers.R
  cnt <- g$count
  neg <- g$loss # failures per group (0/1 losses)
  pos <- cnt - neg
  N <- sum(cnt) # nolint: object_name_linter
  F <- sum(neg) # nolint: object_name_linter
  P <- N - F # nolint: object_name_linter
  na <- list(estimate = NA_real_, influence = rep(NA_real_, n),
    std_error = NA_real_)
  if (!(F > 0) || !(P > 0)) return(na)
  live <- cnt > 0
  # the threshold group, as src/core/working_points.h finds it
  reach <- live & cumsum(pos) / P >= tpr * (1 - 1e-12)
  gstar <- which(reach)[1]
  inside <- seq_along(cnt) <= gstar
  theta <- sum(neg[inside]) / F
  tau <- sum(pos[inside]) / P
  rho <- if (cnt[gstar] >= sqrt(N)) {
    0 # locked: the threshold does not move
  } else {
    win <- local_window(cnt, gstar, sqrt(N))
    if (sum(pos[win]) > 0) (sum(neg[win]) / F) / (sum(pos[win]) / P) else NA
  }
  if (is.na(rho)) return(utils::modifyList(na, list(estimate = theta)))
  in_i <- inside[g$id]
  inf <- ifelse(loss > 0.5,
    (in_i - theta) * N / F,
    -rho * (in_i - tau) * N / P
  )
  inf <- inf - sum(w * inf) / N
  list(
    estimate = theta, influence = inf,
    std_error = influence_se_of(inf, case_weights)
  )
}

# Groups around group `g` (alternately one after, one before) until they
# hold `want` samples or all groups are in: the window of the local rates.
local_window <- function(cnt, g, want) {
  lo <- hi <- g
  total <- cnt[g]
  G <- length(cnt) # nolint: object_name_linter
  while (total < want && (lo > 1 || hi < G)) {
    if (hi < G) {
      hi <- hi + 1
      total <- total + cnt[hi]
    }
    if (total < want && lo > 1) {
      lo <- lo - 1
      total <- total + cnt[lo]
    }
  }
  lo:hi
}
