# Influence function of the prediction rejection ratio over part of the
# rejection range (prr(max_rejection = r), R/metric-llm.R), for the
# analytic intervals of selective_ci() and the analytic tests of
# compare_scores(). With max_rejection = 1 PRR is 1 - NAURC of the "alpha"
# estimator and takes that influence function (R/ci-influence.R); this file
# covers r < 1 and agrees with it at r = 1 (tested).
#
# PRR = (m - A) / (m - A*): m the mean loss, A the mean of the tie-closed
# step risk curve over the coverage window [1 - r, 1] (src/core/partial.h,
# step_window() / (r N)), A* the same for the oracle order. Its influence
# value is
#   IF = ((IF_m - IF_A) (m - A*) - (m - A) (IF_m - IF_A*)) / (m - A*)^2,
# with IF_m = loss - m and:
# * IF_A by the recipe of ?influence_functions: with the tie groups g of the
#   score in descending order (count c_g, loss sum s_g, A_g and L_g the
#   count and loss before g, U_g = A_g + c_g, L'_g = L_g + s_g) and the
#   window [a, N], a = (1 - r) N, group g contributes
#     I_g = o_g L'_g / U_g,  o_g = U_g - max(A_g, a) (when positive),
#   and a sample of group g with loss l has a_g + b_g l,
#     a_g = (dI_g/dc_g + sum_{h > g} dI_h/dA_h) / r,
#     b_g = (dI_g/ds_g + sum_{h > g} dI_h/dL_h) / r,
#   centred (N held fixed, so a is too);
# * IF_A* as the influence of the population oracle term, the L-functional
#   (1 / r) int_{1-r}^1 (1 / u) int_0^u Q(t) dt du = int_0^1 Q(t) J(t) dt
#   with J(t) = -log(max(t, 1 - r)) / r (Q the loss quantile function):
#   with loss blocks k ascending (value lambda_k, cumulative share F_k) and
#   D_j = (lambda_j - lambda_{j+1}) J(F_j), block k has
#     sum_{j >= k} D_j - sum_j D_j F_j,
#   the rule of the NAURC oracle (src/core/influence_kernels.h) with this J.

prr_window_influence <- function(score, loss, case_weights, max_rejection) {
  n <- length(score)
  w <- weights_or_ones(case_weights, n)
  r <- max_rejection
  N <- sum(w) # nolint: object_name_linter
  # the score's step curve over [a, N]
  g <- tie_groups_desc(score, w, loss)
  a <- (1 - r) * N
  U <- g$before + g$count # nolint: object_name_linter
  Lp <- g$loss_before + g$loss # nolint: object_name_linter
  live <- g$count > 0
  o <- pmax(0, U - pmax(g$before, a))
  o[!live] <- 0
  on <- o > 0
  Ui <- ifelse(on, 1 / ifelse(on, U, 1), 0) # nolint: object_name_linter
  risk <- Lp * Ui
  dI_c <- ifelse(on, risk - o * risk * Ui, 0) # nolint: object_name_linter
  dI_s <- o * Ui # nolint: object_name_linter
  dI_A <- ifelse(on, (g$before <= a) * risk - o * risk * Ui, 0) # nolint
  dI_L <- dI_s # nolint: object_name_linter
  later <- function(x) rev(cumsum(rev(x))) - x
  ag <- (dI_c + later(dI_A)) / r
  bg <- (dI_s + later(dI_L)) / r
  inf_a <- ag[g$id] + bg[g$id] * loss
  inf_a <- inf_a - sum(w * inf_a) / N
  # the estimate's parts from the C++ core, as prr() computes them
  lam <- sort(unique(loss))
  k <- match(loss, lam)
  block_count <- c(rowsum(w, k, reorder = TRUE))
  parts <- prr_parts_impl(
    rev(g$count), rev(g$loss), block_count,
    c(rowsum(w * loss, k, reorder = TRUE)), r
  )
  m <- parts[["mean"]]
  area <- parts[["area"]]
  optimum <- parts[["optimum"]]
  # the oracle's L-functional
  Fk <- cumsum(block_count) / N # nolint: object_name_linter
  K <- length(lam) # nolint: object_name_linter
  inf_o <- rep(0, n)
  if (K >= 2) {
    j <- seq_len(K - 1)
    D <- (lam[j] - lam[j + 1]) * -log(pmax(Fk[j], 1 - r)) / r # nolint
    block <- c(rev(cumsum(rev(D))), 0) - sum(D * Fk[j])
    inf_o <- block[k]
  }
  den <- m - optimum
  num <- m - area
  if (!(den > 0)) { # every loss equal: PRR is undefined, as prr() says
    return(list(
      estimate = NA_real_, influence = rep(NA_real_, n), std_error = NA_real_
    ))
  }
  inf_m <- loss - m
  inf <- ((inf_m - inf_a) * den - num * (inf_m - inf_o)) / den^2
  list(
    estimate = num / den, influence = inf, parts = parts,
    parts_influence = list(mean = inf_m, area = inf_a, optimum = inf_o),
    std_error = influence_se_of(inf, case_weights)
  )
}
