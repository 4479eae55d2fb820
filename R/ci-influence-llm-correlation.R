# Influence values of the rank correlations of uncertainty_correlation_ci()
# (issue 36): Kendall's tau-b and Spearman's rho with ties, as functions of
# V-statistics, and the standard error they give. Exact for ties: the
# sample values are these V-statistics, and the influence values are the
# derivatives of each statistic when the weight of one output grows (the
# tests check both against literal O(n^2) formulas and numerical
# derivatives). Reused by the metric catalog (branch "catalog").

# Kendall's tau-b of x and y (complete, finite, not constant) and its
# influence values. With c_i = sum_j sign(x_i - x_j) sign(y_i - y_j),
# t_i = #{j: x_j != x_i}, u_i = #{j: y_j != y_i} and the V-statistics
# A = sum_i c_i / n^2, B = sum_i t_i / n^2, C = sum_i u_i / n^2,
# tau_b = A / sqrt(B C) and
# IF_i = IF_A / sqrt(B C) - (tau_b / 2) (IF_B / B + IF_C / C),
# IF_A = 2 (c_i / n - A) (likewise B, C): one sort of x and a Fenwick tree
# over the ranks of y, O(n log n) time and O(n) memory.
kendall_tau_b_influence <- function(x, y) {
  n <- length(x)
  k <- kendall_sorted(x, y)
  row <- numeric(n)
  row[k$order] <- kendall_row_sums_impl(k$group, k$y_rank, k$n_y, double())
  t_x <- numeric(n)
  t_x[k$order] <- n - tabulate(k$group)[k$group]
  t_y <- numeric(n)
  t_y[k$order] <- n - tabulate(k$y_rank, k$n_y)[k$y_rank]
  a <- sum(row) / n^2
  b <- sum(t_x) / n^2
  cc <- sum(t_y) / n^2
  tau <- a / sqrt(b * cc)
  if_a <- 2 * (row / n - a)
  if_b <- 2 * (t_x / n - b)
  if_c <- 2 * (t_y / n - cc)
  list(
    estimate = tau,
    influence = if_a / sqrt(b * cc) - tau / 2 * (if_b / b + if_c / cc)
  )
}

# The one sort behind Kendall's row sums (kendall_row_sums_impl(),
# src/core/kendall.h): the order of x, the tie group of x and the dense
# rank of y of each output in that order, and the number of y values.
# Reused by every bootstrap replicate (R/ci-llm-regression.R), whose
# counts are laid over this order.
kendall_sorted <- function(x, y) {
  n <- length(x)
  o <- order(x, method = "radix")
  xs <- x[o]
  levels_y <- sort.int(unique(y), method = "radix")
  list(
    order = o,
    group = as.integer(cumsum(c(TRUE, xs[-1] != xs[-n]))),
    y_rank = match(y, levels_y)[o], n_y = length(levels_y)
  )
}

# Spearman's rho (Pearson's correlation of mid-ranks) and its influence
# values. With U_i = (1 / (2 n)) sum_j sign(x_i - x_j) (the centred
# mid-rank over n), V_i the same for y, N = mean(U V), D_x = mean(U^2),
# D_y = mean(V^2) (V-statistics of degree 3), rho = N / sqrt(D_x D_y) and
# IF_N = U_i V_i + m_i(V) + k_i(U) - 3 N,
# IF_Dx = U_i^2 + 2 m_i(U) - 3 D_x, IF_Dy = V_i^2 + 2 k_i(V) - 3 D_y,
# where m_i(v) = (1 / (2 n)) sum_j sign(x_j - x_i) v_j and k_i the same
# over y; IF_rho = IF_N / sqrt(D_x D_y) - (rho / 2) (IF_Dx / D_x +
# IF_Dy / D_y). Sorting and cumulative sums, O(n log n).
spearman_rho_influence <- function(x, y) {
  n <- length(x)
  sx <- sorted_ties(x)
  sy <- sorted_ties(y)
  u <- (sx$mid_rank - (n + 1) / 2) / n
  v <- (sy$mid_rank - (n + 1) / 2) / n
  nn <- mean(u * v)
  dx <- mean(u^2)
  dy <- mean(v^2)
  rho <- nn / sqrt(dx * dy)
  if_n <- u * v + signed_mean(sx, v) + signed_mean(sy, u) - 3 * nn
  if_x <- u^2 + 2 * signed_mean(sx, u) - 3 * dx
  if_y <- v^2 + 2 * signed_mean(sy, v) - 3 * dy
  list(
    estimate = rho,
    influence = if_n / sqrt(dx * dy) - rho / 2 * (if_x / dx + if_y / dy)
  )
}

# One sort of `key`: the order, the tie group of each sorted value and the
# mid-rank of each value (input order).
sorted_ties <- function(key) {
  n <- length(key)
  o <- order(key, method = "radix")
  k <- key[o]
  g <- cumsum(c(TRUE, k[-1] != k[-n]))
  ends <- cumsum(tabulate(g))
  mid <- numeric(n)
  mid[o] <- (ends - (tabulate(g) - 1) / 2)[g]
  list(order = o, group = g, mid_rank = mid)
}

# (1 / (2 n)) sum_j sign(key_j - key_i) v_j for every i (`st` the
# sorted_ties() of the key): the sum of v over larger keys minus that over
# smaller keys.
signed_mean <- function(st, v) {
  n <- length(v)
  sums <- rowsum(v[st$order], st$group, reorder = FALSE)[, 1]
  upto <- cumsum(sums)
  below <- upto - sums
  above <- upto[length(upto)] - upto
  out <- numeric(n)
  out[st$order] <- ((above - below) / (2 * n))[st$group]
  out
}

# The standard error of an estimate from its influence values,
# sqrt(sum IF_i^2 / (n (n - 1))) (that of selective_ci()'s analytic
# intervals without weights).
correlation_influence_se <- function(influence) {
  n <- length(influence)
  if (n < 2) return(NA_real_)
  sqrt(sum(influence^2) / (n * (n - 1)))
}
