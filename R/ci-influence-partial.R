# Influence functions of the partial areas (R/metric-partial.R), for the
# analytic intervals of selective_ci() and the analytic tests of
# compare_scores(). The recipe of ?influence_functions: with the tie groups
# g of the score in descending order (count c_g, loss sum s_g; A_g and L_g
# the count and loss before g; N the total), T = N^-k sum_h I_h(A_h, L_h,
# c_h, s_h) with k = 1 (partial AURC) or 2 (partial AUGRC), and the
# influence value of a sample of group g with loss l is a_g + b_g l,
#   a_g = N dT/dc_g = N^(1-k) [dI_g/dc_g + sum_{h > g} dI_h/dA_h],
#   b_g = N dT/ds_g = N^(1-k) [dI_g/ds_g + sum_{h > g} dI_h/dL_h],
# centred (N is held fixed: the direction of the derivative keeps the total
# weight). With d1 = max(0, a - A), d2 = min(c, b - A) the part of the
# group's segment [A, A + c] inside the window [a, b] = N [c1, c2], u1 =
# A + d1, u2 = A + d2 and r = s / c:
#   AURC:  I = r (u2 - u1) + (L - r A) log(u2 / u1)
#   AUGRC: I = L (d2 - d1) + r (d2^2 - d1^2) / 2
# (the group's integral of R(u) = (L + r (u - A)) / u or G(u) N = L + r (u -
# A)), differentiated piecewise (the kinks where a window edge meets a
# group edge have measure zero).

partial_influence <- function(metric, score, loss, case_weights, range) {
  n <- length(score)
  w <- weights_or_ones(case_weights, n)
  tg <- tie_groups_desc(score, w, loss) # R/ci-influence-helpers.R
  grp <- tg$id
  cnt <- tg$count
  sm <- tg$loss
  N <- sum(cnt) # nolint: object_name_linter
  a <- range[1] * N
  b <- range[2] * N
  A <- tg$before # nolint: object_name_linter
  L <- tg$loss_before # nolint: object_name_linter
  live <- cnt > 0
  r <- ifelse(live, sm / ifelse(live, cnt, 1), 0)
  d1 <- pmax(0, a - A)
  d2 <- pmin(cnt, b - A)
  inside <- live & d2 > d1
  # derivatives of d1, d2 (and u1, u2) in A and c
  d1_A <- ifelse(a > A, -1, 0)
  # one branch of d2 = min(c, b - A) for both derivatives (at a tie, e.g.
  # the last group's end at b = N, either branch gives the same derivative
  # along directions that keep N, but only if both partials use the same)
  end_in <- cnt <= b - A
  d2_A <- ifelse(end_in, 0, -1)
  d2_c <- ifelse(end_in, 1, 0)
  if (metric == "partial_augrc") {
    k <- 2
    value <- L * (d2 - d1) + r * (d2^2 - d1^2) / 2
    dL <- d2 - d1
    ds <- ifelse(live, (d2^2 - d1^2) / (2 * ifelse(live, cnt, 1)), 0)
    dA <- L * (d2_A - d1_A) + r * (d2 * d2_A - d1 * d1_A)
    dc <- L * d2_c + r * d2 * d2_c -
      ifelse(live, r * (d2^2 - d1^2) / (2 * ifelse(live, cnt, 1)), 0)
  } else {
    k <- 1
    u1 <- A + d1
    u2 <- A + d2
    K <- L - r * A # nolint: object_name_linter
    # the log term is absent for the first group (A = L = 0, u1 may be 0)
    lg <- ifelse(inside & u1 > 0, log(u2 / pmax(u1, .Machine$double.xmin)), 0)
    u1_A <- 1 + d1_A
    u2_A <- 1 + d2_A
    value <- r * (u2 - u1) + K * lg
    dL <- lg
    ds <- ifelse(live, ((u2 - u1) - A * lg) / ifelse(live, cnt, 1), 0)
    inv1 <- ifelse(inside & u1 > 0, 1 / pmax(u1, .Machine$double.xmin), 0)
    inv2 <- ifelse(inside, 1 / pmax(u2, .Machine$double.xmin), 0)
    dA <- r * (u2_A - u1_A) - r * lg + K * (u2_A * inv2 - u1_A * inv1)
    dc <- ifelse(live,
      (-r * (u2 - u1) + r * A * lg) / ifelse(live, cnt, 1), 0
    ) + r * d2_c + K * d2_c * inv2
  }
  zero <- !inside
  value[zero] <- 0
  dL[zero] <- 0
  ds[zero] <- 0
  dA[zero] <- 0
  dc[zero] <- 0
  # sums over the later groups h > g
  later <- function(x) rev(cumsum(rev(x))) - x
  scale <- N^(1 - k)
  ag <- scale * (dc + later(dA))
  bg <- scale * (ds + later(dL))
  inf <- ag[grp] + bg[grp] * loss
  inf <- inf - sum(w * inf) / N
  estimate <- sum(value) / N^k
  list(
    estimate = estimate, influence = inf,
    std_error = influence_se_of(inf, case_weights)
  )
}
