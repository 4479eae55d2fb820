# Influence functions of the balanced-accuracy AURC and AUGRC (aurc_ba(),
# augrc_ba(); R/metric-balanced.R), for the analytic intervals of
# selective_ci(truth =) and the analytic tests of compare_scores(truth =).
#
# Both are unchanged when every weight is multiplied by one number, so the
# influence value of sample i is N dT/dw_i (its weighted sum is 0). The
# classes present, K, stay fixed. With the tie groups g of the score in
# descending order (count c_g, U_g the count up to and including g, u_g =
# U_g / N) and, per class c, its count n_c and, up to and including g, its
# accepted count a_c(g) and failures e_c(g):
#
# * AUGRC_BA = (1/K) sum_c A_c / (N n_c), A_c = sum_g c_g (E_c(g) +
#   f_c(g) / 2) (E_c failures of c before g, f_c in g), so for a sample of
#   group g, class c and loss l
#     IF = P_g / K + l (C_g + c_g / 2) / (K n_c) - T - A_c / (K n_c^2),
#   P_g = sum_c (E_c(g) + f_c(g) / 2) / n_c, C_g the count after g.
# * AURC_BA = sum_g omega_g R_g, R_g = (1/K) sum_{c: a_c(g) > 0}
#   e_c(g) / a_c(g), omega_g the trapezoid weight of point g (width_1 +
#   width_2 / 2 for the first, (width_g + width_{g+1}) / 2 inside,
#   width_G / 2 for the last; width_g = u_g - u_{g-1}). For a sample of
#   group g, class c and loss l:
#     IF = height_g - T + (N / K) sum_{h >= g} omega_h (l - rho_c(h)) /
#          a_c(h),
#   height_g the trapezoid's height over width_g and rho_c = e_c / a_c.
#   The sum runs over the runs of groups on which a_c is constant, so the
#   whole pass is O(n) after one sort.

balanced_influence <- function(metric, score, loss, truth, case_weights) {
  n <- length(score)
  w <- weights_or_ones(case_weights, n)
  out <- rep(0, n)
  live <- w > 0 # rows of weight 0 are not there, nor are their classes
  cls <- match(truth, unique(truth[live]))
  s <- score[live]
  l <- loss[live]
  cl <- cls[live]
  ww <- w[live]
  N <- sum(ww) # nolint: object_name_linter
  K <- length(unique(cl)) # nolint: object_name_linter
  g <- tie_groups_desc(s, ww, l) # R/ci-influence-helpers.R
  o <- g$order
  gid <- g$gid
  g_of <- g$id
  cnt <- g$count
  n_c <- c(rowsum(ww, cl, reorder = TRUE))
  if (metric == "augrc_ba") {
    res <- balanced_influence_augrc(o, gid, g_of, cnt, cl, l, ww, n_c, N, K)
  } else {
    res <- balanced_influence_aurc(o, gid, g_of, cnt, cl, l, ww, N, K)
  }
  out[live] <- res$influence
  list(
    estimate = res$estimate, influence = out,
    std_error = influence_se_of(out, case_weights)
  )
}

balanced_influence_augrc <- function(o, gid, g_of, cnt, cl, l, ww, n_c,
                                     N, K) { # nolint: object_name_linter
  # per group, the scaled failures sum_c f_c(g) / n_c and, per class, A_c
  scaled <- (ww * l / n_c[cl])[o]
  f_g <- c(rowsum(scaled, gid, reorder = FALSE))
  E_g <- cumsum(f_g) - f_g # nolint: object_name_linter
  P <- E_g + f_g / 2 # nolint: object_name_linter
  after <- rev(cumsum(rev(cnt))) - cnt
  # A_c = sum_g c_g (E_c(g) + f_c(g) / 2) = sum_{i in c} w_i l_i (C_g +
  # c_g / 2) (each failure counts for the groups after it and half its own)
  per <- ww * l * (after[g_of] + cnt[g_of] / 2)
  A <- c(rowsum(per, cl, reorder = TRUE)) # nolint
  estimate <- sum(A / n_c) / (K * N)
  inf <- P[g_of] / K + l * (after[g_of] + cnt[g_of] / 2) / (K * n_c[cl]) -
    estimate - A[cl] / (K * n_c[cl]^2)
  list(estimate = estimate, influence = inf)
}

balanced_influence_aurc <- function(o, gid, g_of, cnt, cl, l, ww, N,
                                    K) { # nolint: object_name_linter
  G <- length(cnt) # nolint: object_name_linter
  # per (class, group) in descending order: the accepted count and failures
  # of the class up to and including the group
  # (class, group) as one number, ordered by class, then group
  key <- if (as.double(K) * G < .Machine$integer.max) {
    (cl[o] - 1L) * G + gid # integer: rowsum() names its groups fast
  } else {
    (cl[o] - 1) * as.double(G) + gid
  }
  first <- !duplicated(key)
  cg <- data.frame(
    c = cl[o][first], g = gid[first], key = key[first],
    a = c(rowsum(ww[o], key, reorder = FALSE)),
    e = c(rowsum((ww * l)[o], key, reorder = FALSE))
  )
  cg <- cg[order(cg$key), ]
  # runs of one class in cg: its first and last rows
  start <- c(TRUE, cg$c[-1] != cg$c[-nrow(cg)])
  last <- c(start[-1], TRUE)
  run <- cumsum(start)
  within <- function(x) { # cumulative sums within each class (exact)
    unlist(lapply(split(x, run), cumsum), use.names = FALSE)
  }
  cg$a <- within(cg$a)
  cg$e <- within(cg$e)
  cg$rho <- cg$e / cg$a
  # R_g = (1/K) sum_c rho_c(g): changes of rho summed at the group where
  # they happen (every group has a row in cg)
  prev <- ifelse(start, 0, c(0, cg$rho[-nrow(cg)]))
  delta <- c(rowsum(cg$rho - prev, cg$g, reorder = TRUE))
  R <- cumsum(delta) / K # nolint: object_name_linter
  u <- cumsum(cnt) / N
  width <- diff(c(0, u))
  height <- c(R[1], (R[-1] + R[-G]) / 2)
  estimate <- sum(width * height)
  omega <- c(width[-1], 0) / 2 + width / 2
  omega[1] <- omega[1] + width[1] / 2
  # per (class, run): sum of omega over the groups from this group of the
  # class up to the next one of the class (exclusive)
  cum_omega <- c(0, cumsum(omega))
  nxt <- ifelse(last, G + 1, c(cg$g[-1], G + 1))
  span <- cum_omega[nxt] - cum_omega[cg$g]
  later <- function(x) { # sums over this and the later rows of the class
    unlist(lapply(split(x, run), function(v) rev(cumsum(rev(v)))),
      use.names = FALSE
    )
  }
  s1 <- later(span / cg$a)
  s2 <- later(span * cg$rho / cg$a)
  idx <- match((cl - 1) * as.double(G) + g_of, cg$key)
  inf <- height[g_of] - estimate + (N / K) * (l * s1[idx] - s2[idx])
  list(estimate = estimate, influence = inf)
}
