# Influence functions of the LLM metrics (R/metric-llm-correlation.R) for
# their analytic intervals and paired comparisons in selective_ci() and
# compare_scores(). The score is a confidence, the quality (`o$quality`,
# as given; else 1 - loss) higher is better. Without case weights (the
# forms refuse them) but for the thresholded AUROC.
#
# Spearman's rho (with ties: Pearson's correlation of the mid-ranks) is
# the functional rho = (theta1 - 1/4) / sqrt((theta2 - 1/4)(theta3 - 1/4))
# of the grades a = F(x), b = G(y), F(x) = P(X < x) + P(X = x) / 2 (the
# mid-rank over n; E a = E b = 1/2 for every distribution, ties or not),
# theta1 = E ab, theta2 = E a^2, theta3 = E b^2. Perturbing the
# distribution towards the point (x0, y0) moves the grades too:
#   IF_theta1 = a0 b0 + E[h(x0, X) b] + E[a k(y0, Y)] - 3 theta1,
#   IF_theta2 = a0^2 + 2 E[h(x0, X) a] - 3 theta2 (theta3 likewise),
# h(x0, x) = 1(x0 < x) + 1(x0 = x) / 2 (k the same in y), and
#   IF_rho = IF_theta1 / D - (rho / 2) (IF_theta2 / (theta2 - 1/4) +
#            IF_theta3 / (theta3 - 1/4)),  D = sqrt((theta2 - 1/4)
#            (theta3 - 1/4)),
# each expectation a sum over the tie groups of one sort.
#
# Kendall's tau-b = tau_a / sqrt((1 - t_x)(1 - t_y)) is a function of three
# U-statistics over pairs (tau_a of sign(x_i - x_j) sign(y_i - y_j), t_x of
# 1(x_i = x_j), t_y of 1(y_i = y_j)): each has the influence values
# 2 (k1_i - U), k1_i the mean of its kernel over the other outputs (the
# Hajek projection, whose variance 4 var(k1) / n is the U-statistic's
# first-order variance), and the delta method gives
#   IF_tau_b = IF_tau_a / D + (tau_b / 2) (IF_tx / (1 - t_x) +
#              IF_ty / (1 - t_y)),  D = sqrt((1 - t_x)(1 - t_y)).
#
# The AUROC of a thresholded quality is the failure AUROC of the failure
# indicator quality < threshold: the failure AUROC's kernel (DeLong).
llm_influence_of <- function(metric) {
  function(score, loss, case_weights, o) {
    score <- as.double(score)
    q <- o$quality %||% (1 - as.double(loss))
    if (metric == "quality_auroc") {
      return(quality_auroc_influence(score, q, case_weights, o))
    }
    est <- rank_correlation(list(score = score, quality = q), metric,
      o$call
    )
    if (is.na(est)) return(NULL) # (rank_correlation() said why)
    inf <- if (metric == "spearman") {
      spearman_influence(score, q)
    } else {
      kendall_influence(score, q)
    }
    list(
      estimate = est, influence = inf,
      std_error = influence_std_error(inf, case_weights)
    )
  }
}

# For each x_i: sum_j v_j h(x_i, x_j) / n, h(a, b) = 1(a < b) + 1(a = b) / 2
# (the values above, half the tied), from one sort.
grade_weighted_above <- function(x, v) {
  n <- length(x)
  o <- order(x)
  g <- ci_sorted_groups(x, o)
  s <- ci_group_sums(v[o], g)
  above <- sum(s) - cumsum(s)
  out <- numeric(n)
  out[o] <- ((above + s / 2) / n)[g]
  out
}

# Influence values of Spearman's rho (see above).
spearman_influence <- function(x, y) {
  n <- length(x)
  ones <- rep(1, n)
  # the grades: the share below plus half the share tied
  a <- 1 - grade_weighted_above(x, ones)
  b <- 1 - grade_weighted_above(y, ones)
  t1 <- mean(a * b)
  t2 <- mean(a^2)
  t3 <- mean(b^2)
  v2 <- t2 - 1 / 4
  v3 <- t3 - 1 / 4
  rho <- (t1 - 1 / 4) / sqrt(v2 * v3)
  if1 <- a * b + grade_weighted_above(x, b) + grade_weighted_above(y, a) -
    3 * t1
  if2 <- a^2 + 2 * grade_weighted_above(x, a) - 3 * t2
  if3 <- b^2 + 2 * grade_weighted_above(y, b) - 3 * t3
  if1 / sqrt(v2 * v3) - rho / 2 * (if2 / v2 + if3 / v3)
}

# Influence values of Kendall's tau-b (see above): the pair signs by rows
# in blocks (O(n^2) time, as stats::cor()'s tau, O(n) memory per row).
kendall_influence <- function(x, y) {
  n <- length(x)
  k1 <- numeric(n)
  block <- max(1, floor(2^22 / n))
  for (from in seq(1, n, by = block)) {
    i <- from:min(n, from + block - 1)
    k1[i] <- rowSums(sign(outer(x[i], x, "-")) * sign(outer(y[i], y, "-")))
  }
  k1 <- k1 / (n - 1)
  tied <- function(v) {
    id <- match(v, unique(v))
    (tabulate(id)[id] - 1) / (n - 1)
  }
  tx_i <- tied(x)
  ty_i <- tied(y)
  ta <- mean(k1)
  tx <- mean(tx_i)
  ty <- mean(ty_i)
  d <- sqrt((1 - tx) * (1 - ty))
  tb <- ta / d
  2 * (k1 - ta) / d +
    tb / 2 * (2 * (tx_i - tx) / (1 - tx) + 2 * (ty_i - ty) / (1 - ty))
}

# The failure AUROC of quality < threshold, its estimate that of
# quality_auroc_vec().
quality_auroc_influence <- function(score, q, case_weights, o) {
  failure <- as.double(q < o$threshold)
  est <- withCallingHandlers(
    quality_auroc_vec(score, q, o$threshold, case_weights = case_weights),
    aurc_warning_one_class = function(cnd) invokeRestart("muffleWarning")
  )
  if (is.na(est)) return(NULL) # (ci_undefined() warns)
  res <- metric_influence_many(score, failure, case_weights,
    "failure_auroc", o
  )
  list(
    estimate = est, influence = res$influence[, 1],
    std_error = unname(res$std_error[1])
  )
}
