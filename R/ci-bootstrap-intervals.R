# Intervals, standard errors and paired p-values from bootstrap replicate
# values (the engine is R/ci-bootstrap.R). Replicates where a metric is
# undefined (NaN: e.g. a resample without failures for failure AUROC) are
# left out, with a classed warning saying how many.
#
#   std_error   the standard deviation of the replicate values (n - 1).
#   percentile  the type-7 quantiles (the stats::quantile() default) of the
#               replicate values at levels alpha and 1 - alpha, alpha half
#               of one minus conf_level.
#   basic       the percentile interval reflected around the estimate,
#               2 estimate - (q(1 - alpha), q(alpha)) with the same type-7
#               quantiles q (boot::boot.ci(type = "basic") takes
#               interpolated order statistics instead): it corrects the
#               bootstrap's estimate of the bias
#               (for an upward-biased metric such as the ECE the replicates
#               lie above the estimate, and the reflected interval below).
#   normal      estimate -/+ qnorm((1 + conf_level) / 2) * std_error, not
#               bias-corrected: centred on the estimate, like the analytic
#               interval, so the two differ only in their standard error.
#   bca         Efron's bias-corrected and accelerated interval, exactly as
#               boot::boot.ci(type = "bca", L = ) computes it from the same
#               replicate values: z0 = qnorm(mean(t < t0)), a = sum(L^3) /
#               (6 sum(L^2)^1.5), adjusted levels pnorm(z0 + (z0 + z) /
#               (1 - a (z0 + z))), and the order statistics interpolated on
#               the normal scale (Davison & Hinkley 1997, Eq. 5.8). L are
#               the influence values given (summed within clusters; case
#               weights as repeated rows), or else the jackknife values
#               (n - 1) (mean - t_(-i)), deleting one row (or cluster) at a
#               time.
#
# Paired differences (a - b) use the same replicates of both scores. Their
# two-sided p-value is the inversion of the interval of the same type: the
# smallest 1 - conf_level at which the interval excludes 0.
#   percentile  2 min(1 + #(d <= 0), 1 + #(d >= 0)) / (B + 1), at most 1
#   basic       the same with d reflected: 2 min(1 + #(d >= 2 d0),
#               1 + #(d <= 2 d0)) / (B + 1), at most 1
#   normal      2 pnorm(-|estimate| / std_error)
#   bca         F = #(d <= 0) / B kept within [1 / (B + 1), B / (B + 1)],
#               z = (u / (1 + a u)) - z0 with u = qnorm(F) - z0, and
#               p = 2 min(pnorm(z), 1 - pnorm(z))

ci_bootstrap_result <- function(input, res, jack, seed, call) {
  n_sc <- ncol(input$score)
  n_met <- length(input$metrics)
  snames <- input$score_names
  mnames <- input$metrics
  est <- matrix(res$estimate, n_sc, n_met, dimnames = list(snames, mnames))
  ci_warn_undefined_estimates(est, call)
  reps <- res$replicates
  dimnames(reps) <- list(NULL, snames, mnames)
  reps[is.nan(reps)] <- NA_real_
  lower <- upper <- se <- accel <- est
  lower[] <- upper[] <- se[] <- accel[] <- NA_real_
  infl <- list()
  for (m in seq_len(n_met)) {
    for (j in seq_len(n_sc)) {
      t <- reps[, j, m]
      if (!is.na(est[j, m])) {
        ci_warn_undefined_replicates(t, snames[j], mnames[m], call)
      }
      lv <- NULL
      if (input$type == "bca") {
        lv <- ci_influence(input, jack, j, m)
        infl[[paste(j, m)]] <- lv
      }
      iv <- ci_interval(t, est[j, m], input$type, input$conf_level, lv, call)
      lower[j, m] <- iv[["lower"]]
      upper[j, m] <- iv[["upper"]]
      se[j, m] <- iv[["std_error"]]
      accel[j, m] <- iv[["acceleration"]]
    }
  }
  diff <- ci_pairs(input, est, reps, infl, call)
  out <- list(
    estimate = est, replicates = reps, lower = lower, upper = upper,
    std_error = se, diff = diff, type = input$type,
    conf_level = input$conf_level, times = input$times, seed = seed
  )
  if (input$type == "bca") out$acceleration <- accel
  out
}

# Influence values of score j, metric m as list(L, w): per unit values and
# unit weights (rows each stands for).
ci_influence <- function(input, jack, j, m) {
  metric <- input$metrics[m]
  given <- input$influence[[j]][[metric]]
  w <- if (length(input$case_weights)) input$case_weights else
    rep(1, input$n)
  if (!is.null(given)) {
    if (input$n_clusters > 0) {
      lv <- as.vector(rowsum(w * given, input$cluster, reorder = TRUE))
      return(list(L = lv, w = rep(1, length(lv))))
    }
    return(list(L = as.double(given), w = w))
  }
  tj <- jack$jackknife[, j, m]
  uw <- jack$unit_weight
  keep <- uw > 0
  tj <- tj[keep]
  uw <- uw[keep]
  total <- sum(uw)
  list(L = (total - 1) * (sum(uw * tj) / total - tj), w = uw)
}

# BCa acceleration from weighted influence values (rows a unit stands for).
ci_acceleration <- function(lv) {
  sum(lv$w * lv$L^3) / (6 * sum(lv$w * lv$L^2)^1.5)
}

# `acceleration`: the BCa acceleration itself, instead of from `lv` (the
# difference of two independent groups, R/compare-groups.R).
ci_interval <- function(t, t0, type, conf_level, lv, call,
                        acceleration = NULL) {
  na <- c(lower = NA_real_, upper = NA_real_, std_error = NA_real_,
          acceleration = NA_real_)
  t <- t[is.finite(t)]
  if (!is.finite(t0) || length(t) < 2) return(na)
  se <- stats::sd(t)
  alpha <- (1 - conf_level) / 2
  out <- na
  out[["std_error"]] <- se
  if (type == "percentile") {
    q <- stats::quantile(t, c(alpha, 1 - alpha), type = 7, names = FALSE)
    out[c("lower", "upper")] <- q
  } else if (type == "basic") {
    q <- stats::quantile(t, c(1 - alpha, alpha), type = 7, names = FALSE)
    out[c("lower", "upper")] <- 2 * t0 - q
  } else if (type == "normal") {
    z <- stats::qnorm(1 - alpha)
    out[c("lower", "upper")] <- c(t0 - z * se, t0 + z * se)
  } else {
    a <- acceleration %||% ci_acceleration(lv)
    out[["acceleration"]] <- a
    z0 <- stats::qnorm(sum(t < t0) / length(t))
    if (!is.finite(z0) || !is.finite(a)) {
      ci_warn_bca_undefined(z0, call)
      return(out)
    }
    z <- stats::qnorm(c(alpha, 1 - alpha))
    adj <- stats::pnorm(z0 + (z0 + z) / (1 - a * (z0 + z)))
    out[c("lower", "upper")] <- ci_normal_interpolation(t, adj)
  }
  out
}

# Quantiles of t at levels p by order statistics interpolated on the normal
# scale (Davison & Hinkley 1997, Eq. 5.8): with R values, the level p sits
# at rank (R + 1) p; between ranks k and k + 1 interpolate linearly in
# qnorm(rank / (R + 1)); beyond the ends take the extreme values.
ci_normal_interpolation <- function(t, p) {
  n_rep <- length(t)
  ts <- sort(t)
  vapply(p, function(pp) {
    rk <- (n_rep + 1) * pp
    k <- trunc(rk)
    if (k == rk && k >= 1 && k <= n_rep) return(ts[k])
    if (k <= 0) return(ts[1])
    if (k >= n_rep) return(ts[n_rep])
    lo <- stats::qnorm(k / (n_rep + 1))
    hi <- stats::qnorm((k + 1) / (n_rep + 1))
    ts[k] + (stats::qnorm(pp) - lo) / (hi - lo) * (ts[k + 1] - ts[k])
  }, numeric(1))
}

# ---- paired differences ----------------------------------------------------

ci_pairs <- function(input, est, reps, infl, call) {
  n_sc <- ncol(input$score)
  n_met <- length(input$metrics)
  rows <- list()
  if (n_sc >= 2) {
    for (m in seq_len(n_met)) {
      for (a in seq_len(n_sc - 1)) {
        for (b in seq(a + 1, n_sc)) {
          d <- reps[, a, m] - reps[, b, m]
          d0 <- est[a, m] - est[b, m]
          lv <- NULL
          if (input$type == "bca") {
            la <- infl[[paste(a, m)]]
            lb <- infl[[paste(b, m)]]
            lv <- list(L = la$L - lb$L, w = la$w)
          }
          iv <- suppressWarnings(
            ci_interval(d, d0, input$type, input$conf_level, lv, call)
          )
          rows[[length(rows) + 1]] <- list(
            score_a = input$score_names[a], score_b = input$score_names[b],
            metric = input$metrics[m], estimate = d0,
            lower = iv[["lower"]], upper = iv[["upper"]],
            std_error = iv[["std_error"]],
            p_value = ci_p_value(d, d0, input$type, iv)
          )
        }
      }
    }
  }
  if (length(rows) == 0) {
    return(tibble::tibble(
      score_a = character(), score_b = character(), metric = character(),
      estimate = double(), lower = double(), upper = double(),
      std_error = double(), p_value = double()
    ))
  }
  tibble::as_tibble(do.call(rbind.data.frame, c(rows,
    stringsAsFactors = FALSE
  )))
}

ci_p_value <- function(d, d0, type, iv) {
  d <- d[is.finite(d)]
  n_rep <- length(d)
  if (!is.finite(d0) || n_rep < 2) return(NA_real_)
  if (type == "percentile") {
    return(min(1, 2 * min(1 + sum(d <= 0), 1 + sum(d >= 0)) / (n_rep + 1)))
  }
  if (type == "basic") {
    return(min(1, 2 * min(1 + sum(d >= 2 * d0), 1 + sum(d <= 2 * d0)) /
      (n_rep + 1)))
  }
  if (type == "normal") {
    se <- iv[["std_error"]]
    if (!(se > 0)) return(if (d0 == 0) 1 else 0)
    return(2 * stats::pnorm(-abs(d0) / se))
  }
  a <- iv[["acceleration"]]
  z0 <- stats::qnorm(sum(d < d0) / n_rep)
  if (!is.finite(z0) || !is.finite(a)) return(NA_real_)
  f <- min(max(sum(d <= 0) / n_rep, 1 / (n_rep + 1)), n_rep / (n_rep + 1))
  u <- stats::qnorm(f) - z0
  z <- u / (1 + a * u) - z0
  2 * min(stats::pnorm(z), 1 - stats::pnorm(z))
}

# ---- conditions ------------------------------------------------------------

ci_warn_undefined_estimates <- function(est, call) {
  for (m in colnames(est)) {
    if (!any(is.nan(est[, m]) | is.na(est[, m]))) next
    warn_metric_undefined(m, call = call)
  }
}

ci_warn_undefined_replicates <- function(t, score, metric, call) {
  k <- sum(!is.finite(t))
  if (k == 0) return(invisible())
  warn_aurc(
    c(
      paste(
        "{.val {metric}} of {.val {score}} is undefined in {k} of",
        "{length(t)} bootstrap replicates; the interval uses the others."
      ),
      i = "A resample can hold a single class (no failures, or only failures)."
    ),
    class = "aurc_warning_bootstrap_undefined", call = call
  )
}

ci_warn_bca_undefined <- function(z0, call) {
  why <- if (!is.finite(z0)) {
    "every replicate lies on one side of the estimate"
  } else {
    "the acceleration is undefined (influence values all zero or undefined)"
  }
  warn_aurc(
    c(
      "The BCa interval is undefined: {why}; returning {.val {NA}}.",
      i = "Use {.code type = \"percentile\"} or more replicates."
    ),
    class = "aurc_warning_bca_undefined", call = call
  )
}
