make_pilot <- function(n = 400, seed = 31) {
  set.seed(seed)
  latent <- rnorm(n)
  data.frame(
    failure = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
    failure_b = rbinom(n, 1, plogis(-0.5 - 1.5 * latent)),
    good = round(latent + rnorm(n, sd = 0.5), 1),
    poor = round(latent + rnorm(n, sd = 1.2), 1),
    loss = rexp(n) * plogis(-latent),
    w = rpois(n, 2),
    site = sample(c("x", "y", "z"), n, replace = TRUE),
    patient = sample(80, n, replace = TRUE)
  )
}

# Two correlated binormal scores: given the failure f (probability p), score
# a is N(mu_a (1 - f), 1), score b is N(mu_b (1 - f), 1) with correlation
# rho to a. Their population metrics are known (see power_truth()).
power_gen <- function(n, p = 0.3, mu_a = 1.5, mu_b = 1.2, rho = 0.6) {
  f <- rbinom(n, 1, p)
  e1 <- rnorm(n)
  e2 <- rnorm(n)
  data.frame(
    failure = f, a = mu_a * (1 - f) + e1,
    b = mu_b * (1 - f) + rho * e1 + sqrt(1 - rho^2) * e2
  )
}

# Population values: with F the score's distribution function,
# AURC = E[f w(F(s))] with w(u) = -log(1 - u) (Zhou et al.), so
# p E[-log(1 - F(t))] over the failures' scores t ~ N(0, 1);
# AUGRC = E[f F(s)] = p (p / 2 + (1 - p) Phi(-mu / sqrt(2)));
# failure AUROC = P(s_success > s_failure) = Phi(mu / sqrt(2)).
power_truth <- function(metric, mu, p = 0.3) {
  switch(metric,
    aurc = p * stats::integrate(function(t) {
      dnorm(t) * -log(p * pnorm(t, lower.tail = FALSE) +
        (1 - p) * pnorm(t - mu, lower.tail = FALSE))
    }, -12, 12, rel.tol = 1e-10)$value,
    augrc = p * (p / 2 + (1 - p) * pnorm(-mu / sqrt(2))),
    failure_auroc = pnorm(mu / sqrt(2))
  )
}

# The rejection rate of compare_scores()'s test over `reps` data sets of
# `n` cases, and the power selective_power() states at n for the true
# difference and the per-case SD of a large pilot.
power_simulation <- function(metric, n, reps, pilot_n, seed,
                             alternative = "two.sided") {
  set.seed(seed)
  d_true <- power_truth(metric, 1.5) - power_truth(metric, 1.2)
  pilot <- power_gen(pilot_n)
  stated <- selective_power(pilot, c(a, b), failure,
    metric = metric, n = n, difference = d_true, alternative = alternative
  )$power
  crit <- qnorm(1 - if (alternative == "two.sided") 0.025 else 0.05)
  reject <- vapply(seq_len(reps), function(i) {
    t <- compare_scores(power_gen(n), c(a, b), failure, metric = metric)$tests
    if (alternative == "two.sided") {
      abs(t$statistic) > crit
    } else {
      sign(d_true) * t$statistic > crit
    }
  }, logical(1))
  c(stated = stated, realized = mean(reject))
}

# The normal approximation is to be within 2 points of the truth; the
# Monte-Carlo error of the realized rate adds 3 of its standard deviations
# (a false alarm with probability about 0.3% per check).
power_tolerance <- function(stated, reps) {
  0.02 + 3 * sqrt(stated * (1 - stated) / reps)
}

test_that("a tiny case computed by hand", {
  # failure AUROC, failures at rows 3 and 4. Score a ranks both successes
  # above both failures (AUROC 1); score b ranks success 1 above both
  # failures and success 2 below both (AUROC 1/2). DeLong's placements of
  # the difference a - b: successes (1 - 1, 1 - 0) = (0, 1), failures
  # (1 - 1/2, 1 - 1/2); variance 0.5 / 2 + 0 / 2, and sd^2 = 4 * that = 1.
  d <- data.frame(
    failure = c(0, 0, 1, 1), a = c(4, 3, 2, 1), b = c(4, 1, 3, 2)
  )
  res <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", n = 16, difference = "pilot"
  )
  sd <- sqrt(4 * (0.5 / 2 + 0 / 2))
  expect_equal(res$sd, 1)
  expect_equal(res$sd, sd)
  expect_equal(res$difference, 1 - 1 / 2)
  expect_equal(res$pilot_difference, 0.5)
  expect_equal(res$n_pilot, 4)
  # delta = 0.5 * sqrt(16) / 1 = 2
  z <- qnorm(0.975)
  expect_equal(res$power, pnorm(2 - z) + pnorm(-2 - z), tolerance = 1e-12)
  one <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", n = 16, alternative = "one.sided",
    difference = "pilot"
  )
  expect_equal(one$power, pnorm(2 - qnorm(0.95)), tolerance = 1e-12)
  # 80% power: (z + z_0.8)^2 * 1 / 0.5^2 = 31.4 (the second tail,
  # pnorm(-4.8), is far too small to move it) -> 32 cases
  n80 <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", power = 0.8, difference = "pilot"
  )
  expect_equal(n80$n, ceiling((z + qnorm(0.8))^2 / 0.5^2))
  expect_equal(n80$n, 32)
  expect_equal(n80$power, 0.8)
  one80 <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", power = 0.8, alternative = "one.sided",
    difference = "pilot"
  )
  expect_equal(one80$n, ceiling((qnorm(0.95) + qnorm(0.8))^2 / 0.5^2))
  # the difference detectable with 100 cases and 90% power, one-sided:
  # (z_0.95 + z_0.9) * 1 / sqrt(100)
  det <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", n = 100, power = 0.9,
    alternative = "one.sided"
  )
  expect_equal(det$difference, (qnorm(0.95) + qnorm(0.9)) / 10,
    tolerance = 1e-12
  )
  # a given difference replaces the pilot's: delta = 0.25 * 8 / 1 = 2
  res <- selective_power(d, c(a, b), failure,
    metric = "failure_auroc", n = 64, difference = -0.25
  )
  expect_equal(res$difference, -0.25)
  expect_equal(res$power, pnorm(2 - z) + pnorm(-2 - z), tolerance = 1e-12)
})

test_that("the formulas hold for any pilot and settings", {
  df <- make_pilot()
  for (metric in c("aurc", "augrc", "failure_auroc")) {
    base <- selective_power(df, c(good, poor), failure,
      metric = metric, n = 300, sig_level = 0.01
    )
    s <- base$sd
    d <- base$difference
    z <- qnorm(1 - 0.01 / 2)
    delta <- abs(d) * sqrt(300) / s
    expect_equal(base$power, pnorm(delta - z) + pnorm(-delta - z),
      tolerance = 1e-12
    )
    # the sample size: the smallest n whose power reaches the target
    res <- selective_power(df, c(good, poor), failure,
      metric = metric, power = 0.9, sig_level = 0.01
    )
    pw <- function(n) {
      pnorm(abs(d) * sqrt(n) / s - z) + pnorm(-abs(d) * sqrt(n) / s - z)
    }
    expect_gte(pw(res$n), 0.9)
    expect_lt(pw(res$n - 1), 0.9)
    # the detectable difference reaches the power exactly
    det <- selective_power(df, c(good, poor), failure,
      metric = metric, n = 500, power = 0.9, sig_level = 0.01
    )
    expect_equal(pnorm(det$difference * sqrt(500) / s - z) +
      pnorm(-det$difference * sqrt(500) / s - z), 0.9, tolerance = 1e-9)
    expect_gt(det$difference, 0)
  }
})

test_that("round trips: n -> power -> n and n, power -> difference -> power", {
  df <- make_pilot()
  for (alt in c("two.sided", "one.sided")) {
    for (n in c(23, 157, 675)) {
      p <- selective_power(df, c(good, poor), loss, n = n,
        alternative = alt
      )$power
      back <- selective_power(df, c(good, poor), loss, power = p,
        alternative = alt
      )
      expect_equal(back$n, n)
      det <- selective_power(df, c(good, poor), loss, n = n, power = 0.8,
        alternative = alt
      )
      again <- selective_power(df, c(good, poor), loss, n = n,
        difference = det$difference, alternative = alt
      )
      expect_equal(again$power, 0.8, tolerance = 1e-9)
    }
  }
})

test_that("the per-case variance is compare_scores()'s n * SE^2", {
  df <- make_pilot()
  cases <- list(
    list(metric = "aurc"), list(metric = "augrc"),
    list(metric = "failure_auroc"),
    list(metric = "aurc", estimator = "sele")
  )
  for (case in cases) {
    est <- if (is.null(case$estimator)) "alpha" else case$estimator
    loss_col <- if (case$metric == "aurc") "loss" else "failure"
    cmp <- compare_scores(df, c(good, poor), !!rlang::sym(loss_col),
      metric = case$metric, estimator = est
    )$tests
    res <- selective_power(df, c(good, poor), !!rlang::sym(loss_col),
      metric = case$metric, estimator = est, n = 100
    )
    expect_equal(res$sd^2, nrow(df) * cmp$std_error^2, tolerance = 1e-12)
    expect_equal(res$pilot_difference, cmp$difference)
  }
  # the literal definition: sum of squared differences of the influence
  # values over n - 1 (weights: counted w times, over sum(w) - 1)
  a <- metric_influence(df$good, df$loss, NULL, "aurc")
  b <- metric_influence(df$poor, df$loss, NULL, "aurc")
  res <- selective_power(df, c(good, poor), loss, n = 100)
  expect_equal(res$sd^2,
    sum((a$influence - b$influence)^2) / (nrow(df) - 1),
    tolerance = 1e-10
  )
  a <- metric_influence(df$good, df$loss, df$w, "aurc")
  b <- metric_influence(df$poor, df$loss, df$w, "aurc")
  res <- selective_power(df, c(good, poor), loss, n = 100, case_weights = w)
  expect_equal(res$n_pilot, sum(df$w))
  expect_equal(res$sd^2,
    sum(df$w * (a$influence - b$influence)^2) / (sum(df$w) - 1),
    tolerance = 1e-10
  )
  # integer weights = repeated rows
  rep_df <- df[rep(seq_len(nrow(df)), df$w), ]
  expect_equal(
    selective_power(rep_df, c(good, poor), loss, power = 0.8),
    selective_power(df, c(good, poor), loss, power = 0.8, case_weights = w),
    tolerance = 1e-10
  )
  # strata, clusters, two models, correct =
  designs <- list(
    list(
      sp = selective_power(df, c(good, poor), failure, n = 10,
        metric = "augrc", strata = site
      ),
      cs = compare_scores(df, c(good, poor), failure,
        metric = "augrc", strata = site
      )
    ),
    list(
      sp = selective_power(df, c(good, poor), loss, n = 10,
        cluster = patient, case_weights = w
      ),
      cs = compare_scores(df, c(good, poor), loss,
        cluster = patient, case_weights = w
      )
    ),
    list(
      sp = selective_power(df, c(good, poor), c(failure, failure_b),
        n = 10, metric = "failure_auroc"
      ),
      cs = compare_scores(df, c(good, poor), c(failure, failure_b),
        metric = "failure_auroc"
      )
    ),
    list(
      sp = selective_power(df, c("good", "poor"), correct = 1 - failure,
        n = 10
      ),
      cs = compare_scores(df, c(good, poor), failure)
    )
  )
  for (x in designs) {
    expect_equal(x$sp$sd, sqrt(x$cs$settings$n) * x$cs$tests$std_error,
      tolerance = 1e-12
    )
    expect_equal(x$sp$n_pilot, x$cs$settings$n)
  }
})

test_that("grouped pilots give one row per group", {
  df <- make_pilot(600)
  res <- selective_power(dplyr::group_by(df, site), c(good, poor), failure,
    power = 0.8, metric = "augrc"
  )
  expect_equal(res$site, c("x", "y", "z"))
  for (s in c("x", "y", "z")) {
    one <- selective_power(df[df$site == s, ], c(good, poor), failure,
      power = 0.8, metric = "augrc"
    )
    expect_equal(res[res$site == s, -1], one)
  }
})

test_that("missing values: NA, or dropped with na_rm", {
  df <- make_pilot()
  df$good[3] <- NA
  res <- selective_power(df, c(good, poor), failure, n = 100)
  expect_true(is.na(res$power))
  expect_true(is.na(res$sd))
  kept <- selective_power(df, c(good, poor), failure, n = 100, na_rm = TRUE)
  expect_equal(kept, selective_power(df[-3, ], c(good, poor), failure,
    n = 100
  ))
  expect_equal(kept$n_pilot, nrow(df) - 1)
})

test_that("failure AUROC: DeLong's variance and pROC::power.roc.test", {
  skip_if_not_installed("pROC")
  for (seed in 1:3) {
    df <- make_pilot(200 * seed, seed = seed)
    r1 <- pROC::roc(df$failure, df$good,
      levels = c(1, 0), direction = "<", quiet = TRUE
    )
    r2 <- pROC::roc(df$failure, df$poor,
      levels = c(1, 0), direction = "<", quiet = TRUE
    )
    v1 <- pROC::var(r1, method = "delong")
    v2 <- pROC::var(r2, method = "delong")
    c12 <- pROC::cov(r1, r2, method = "delong")
    res <- selective_power(df, c(good, poor), failure,
      metric = "failure_auroc", power = 0.8, difference = "pilot"
    )
    # per case: DeLong's variance of the difference times all cases
    expect_equal(res$sd^2, nrow(df) * (v1 + v2 - 2 * c12), tolerance = 1e-10)
    expect_equal(res$difference, as.numeric(r1$auc - r2$auc),
      tolerance = 1e-12
    )
    # pROC (Obuchowski & McClish): n_cases = (z_a sqrt(V0) + z_b sqrt(VA))^2
    # / d^2 with the variances per pROC "case" (here: success), VA of the
    # difference and V0 = 2 (var1 - cov) under the null, one tail
    p <- pROC::power.roc.test(r1, r2, power = 0.8)
    m <- length(r1$cases)
    va <- m * (v1 + v2 - 2 * c12)
    v0 <- m * 2 * (v1 - c12)
    za <- qnorm(0.975)
    zb <- qnorm(0.8)
    d <- as.numeric(r1$auc - r2$auc)
    expect_equal(p$ncases, (za * sqrt(v0) + zb * sqrt(va))^2 / d^2,
      tolerance = 1e-8
    )
    # ours, in pROC's terms: all cases = ncases (1 + kappa), and VA in
    # place of V0; the rest is the rounding up (and the second tail, which
    # is below 1e-5 here)
    ours <- p$ncases * (1 + p$ncontrols / p$ncases) *
      (za + zb)^2 * va / (za * sqrt(v0) + zb * sqrt(va))^2
    expect_gte(res$n, ours - 1e-6)
    expect_lt(res$n, ours + 1)
  }
})

test_that("simulation (quick): stated power is the realized rejection rate", {
  for (metric in c("aurc", "failure_auroc")) {
    # n = 500 states about 0.69 (AURC) and 0.81 (failure AUROC)
    r <- power_simulation(metric, n = 500, reps = 200, pilot_n = 2e5,
      seed = 11
    )
    expect_lt(abs(r[["realized"]] - r[["stated"]]),
      power_tolerance(r[["stated"]], 200)
    )
  }
})

test_that("simulation (slow): stated vs realized power over metrics and n", {
  skip_if_not_slow()
  reps <- 2000
  grid <- expand.grid(
    metric = c("aurc", "augrc", "failure_auroc"), n = c(200, 800),
    alternative = c("two.sided", "one.sided"), stringsAsFactors = FALSE
  )
  for (i in seq_len(nrow(grid))) {
    g <- grid[i, ]
    r <- power_simulation(g$metric, g$n, reps,
      pilot_n = 2e6, seed = 100 + i, alternative = g$alternative
    )
    expect_lt(abs(r[["realized"]] - r[["stated"]]),
      power_tolerance(r[["stated"]], reps),
      label = sprintf("%s n = %d %s: realized %.3f vs stated %.3f",
        g$metric, g$n, g$alternative, r[["realized"]], r[["stated"]]
      )
    )
  }
})

test_that("simulation (slow): two models with their own failures", {
  skip_if_not_slow()
  gen <- function(n) {
    latent <- rnorm(n)
    data.frame(
      a = latent + rnorm(n, sd = 0.6), b = latent + rnorm(n, sd = 0.9),
      fa = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
      fb = rbinom(n, 1, plogis(-0.8 - 1.5 * latent))
    )
  }
  reps <- 2000
  for (metric in c("aurc", "failure_auroc")) {
    set.seed(7)
    # the true difference and per-case SD from a pilot of 2e6 cases
    big <- selective_power(gen(2e6), c(a, b), c(fa, fb),
      metric = metric, n = 400, difference = "pilot"
    )
    reject <- vapply(seq_len(reps), function(i) {
      compare_scores(gen(400), c(a, b), c(fa, fb),
        metric = metric
      )$tests$p_value < 0.05
    }, logical(1))
    expect_lt(abs(mean(reject) - big$power),
      power_tolerance(big$power, reps),
      label = sprintf("models %s: realized %.3f vs stated %.3f",
        metric, mean(reject), big$power
      )
    )
  }
})

test_that("bad input is a classed error", {
  df <- make_pilot()
  expect_error(selective_power(df, c(good, poor), failure, n = 10,
    sig_level = 1
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure, n = 10,
    sig_level = 0
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure, power = 1),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure, power = 0.04),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure, power = "a"),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure, n = 1.5),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure, n = NA),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, poor), failure,
    difference = 0.1
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure,
    n = 10, power = 0.8, difference = 0.1
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure,
    n = 10, difference = 0
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure,
    n = 10, difference = Inf
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor, loss), failure, n = 10),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, good, failure, n = 10),
    class = "aurc_error_value"
  )
  expect_error(selective_power(df, c(good, nope), failure, n = 10),
    class = "aurc_error_column"
  )
  expect_error(selective_power(df, c(good, poor), failure, n = 10,
    metric = "ece"
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure, n = 10,
    alternative = "less"
  ), class = "aurc_error_value")
  expect_error(selective_power(df, c(good, poor), failure, 10),
    class = "aurc_error_dots"
  )
  expect_error(selective_power(df, c(good, poor), loss, n = 10,
    metric = "failure_auroc"
  ), class = "aurc_error")
  expect_error(selective_power(as.list(df), c(good, poor), loss, n = 10),
    class = "aurc_error"
  )
  expect_snapshot(error = TRUE, {
    selective_power(df, c(good, poor), failure, n = 10, power = 0.8,
      difference = 0.1
    )
  })
  expect_snapshot(error = TRUE, selective_power(df, c(good, poor), failure))
  expect_snapshot(error = TRUE, {
    selective_power(df, c(good, poor), failure, power = 0.01)
  })
  expect_snapshot(error = TRUE, {
    selective_power(df, c(good, poor), failure, n = 10, difference = 0)
  })
  expect_snapshot(error = TRUE, {
    selective_power(df, c(good, poor, loss), failure, n = 10)
  })
  expect_snapshot(error = TRUE, selective_power(df, c(good, poor), failure,
    n = 1
  ))
})

test_that("a pilot with no difference or no variance: NA with a warning", {
  df <- make_pilot()
  df$good2 <- df$good
  expect_warning(
    res <- selective_power(df, c(good, good2), failure, power = 0.8),
    class = "aurc_warning_power_degenerate"
  )
  expect_true(is.na(res$n))
  expect_equal(res$pilot_difference, 0)
  expect_snapshot(res <- selective_power(df, c(good, good2), failure,
    n = 100, difference = 0.01
  ))
  expect_true(is.na(res$power))
})

test_that("PRR and AUARC of two uncertainty measures take the same variance", {
  set.seed(77)
  n <- 600
  conf <- stats::runif(n)
  q <- stats::rbinom(n, 1, 0.2 + 0.7 * conf)
  df <- data.frame(a = conf, b = conf + stats::rnorm(n, sd = 0.4), l = 1 - q)
  for (m in c("prr", "auarc", "prr_half")) {
    mr <- if (m == "prr_half") 0.5 else 1
    m <- sub("_half", "", m)
    cmp <- compare_scores(df, c(a, b), l, metric = m, max_rejection = mr)
    pw <- selective_power(df, c(a, b), l, metric = m, n = 1000,
      max_rejection = mr, difference = "pilot")
    expect_equal(pw$sd^2, n * cmp$tests$std_error^2, tolerance = 1e-12)
    expect_equal(pw$pilot_difference, cmp$tests$difference, tolerance = 1e-12)
    z <- stats::qnorm(0.975)
    d <- abs(cmp$tests$difference) * sqrt(1000) / pw$sd
    expect_equal(pw$power, stats::pnorm(d - z) + stats::pnorm(-d - z),
      tolerance = 1e-12)
  }
  # over part of the rejection range PRR differs from the whole range's
  expect_false(isTRUE(all.equal(
    selective_power(df, c(a, b), l, metric = "prr", n = 1000,
      max_rejection = 0.5)$pilot_difference,
    selective_power(df, c(a, b), l, metric = "prr", n = 1000)$pilot_difference
  )))
})

test_that("the default plans conservatively (the winner's curse)", {
  # the true difference and per-case SD from a pilot of 2e5 cases
  set.seed(1)
  big <- selective_power(power_gen(2e5), c(a, b), failure, n = 100,
    difference = "pilot"
  )
  d_true <- big$pilot_difference
  real <- function(n) {
    delta <- abs(d_true) * sqrt(n) / big$sd
    pnorm(delta - qnorm(0.975)) + pnorm(-delta - qnorm(0.975))
  }
  set.seed(2)
  reps <- 150
  res <- t(replicate(reps, {
    pilot <- power_gen(300)
    p <- compare_scores(pilot, c(a, b), failure)$tests$p_value
    by_pilot <- selective_power(pilot, c(a, b), failure, power = 0.8,
      difference = "pilot"
    )
    default <- suppressWarnings(
      selective_power(pilot, c(a, b), failure, power = 0.8)
    )
    c(p = p, pilot = real(by_pilot$n), default = real(default$n))
  }))
  # the pilots a study would be planned on: those with a significant
  # difference
  sel <- res[, "p"] < 0.05
  expect_gt(sum(sel), 40)
  realised <- colMeans(res[sel, c("pilot", "default")], na.rm = TRUE)
  # planned for 80%: the pilot's difference delivers about 0.53, the
  # conservative default about 0.81
  expect_lt(realised[["pilot"]], 0.65)
  expect_gt(realised[["default"]], 0.74)
  # the default is "conservative", and says so
  one <- selective_power(power_gen(300), c(a, b), failure, n = 500)
  expect_identical(one$difference_source, "conservative")
  expect_equal(abs(one$difference),
    abs(one$pilot_difference) - qnorm(0.8) * one$sd / sqrt(one$n_pilot),
    tolerance = 1e-12
  )
  expect_error(selective_power(power_gen(300), c(a, b), failure, n = 500,
    difference = "observed"), class = "aurc_error_value")
})

test_that("convention = \"proc\": a tiny case computed by hand", {
  # failures at rows 3 and 4 (pROC's cases), successes its controls.
  # DeLong: score a's placements are all 1 (var_a = 0); score b's are
  # (1, 0) for the successes and (1/2, 1/2) for the failures, var_b =
  # 0.5 / 2 + 0 / 2 = 1/4; cov_ab = 0 (a's placements are constant).
  d <- data.frame(
    failure = c(0, 0, 1, 1), a = c(4, 3, 2, 1), b = c(4, 1, 3, 2)
  )
  # b first: V_0 = 2 * 2 * (1/4 - 0) = 1, V_A = 2 * (1/4) = 1/2,
  # d = 1/2 - 1 = -1/2, kappa = 2 / 2 = 1
  z <- qnorm(0.975)
  res <- selective_power(d, c(b, a), failure,
    metric = "failure_auroc", power = 0.8, difference = "pilot",
    convention = "proc"
  )
  cases <- (z * 1 + qnorm(0.8) * sqrt(1 / 2))^2 / (1 / 2)^2
  expect_equal(res$n_cases, cases, tolerance = 1e-12)
  expect_equal(res$n_controls, cases, tolerance = 1e-12)
  expect_equal(res$n, ceiling(2 * cases))
  # power at 16 cases: 8 failures, one tail
  res <- selective_power(d, c(b, a), failure,
    metric = "failure_auroc", n = 16, difference = "pilot",
    convention = "proc"
  )
  expect_equal(res$power, pnorm((sqrt(8) / 2 - z) / sqrt(1 / 2)),
    tolerance = 1e-12
  )
  expect_equal(res$n_cases, 8)
  # the detectable difference at 16 cases and 90% power
  res <- selective_power(d, c(b, a), failure,
    metric = "failure_auroc", n = 16, power = 0.9, convention = "proc"
  )
  expect_equal(res$difference, (z + qnorm(0.9) * sqrt(1 / 2)) / sqrt(8),
    tolerance = 1e-12
  )
  # a first: V_0 = 2 * 2 * (0 - 0) = 0, pROC's NaN: NA with a warning
  expect_warning(
    res <- selective_power(d, c(a, b), failure,
      metric = "failure_auroc", power = 0.8, difference = "pilot",
      convention = "proc"
    ),
    class = "aurc_warning_power_degenerate"
  )
  expect_true(is.na(res$n))
  expect_true(is.na(res$n_cases))
})

test_that("convention = \"proc\" reproduces pROC::power.roc.test()", {
  skip_if_not_installed("pROC")
  settings <- list(
    list(n = 300, seed = 1, sig = 0.05, alt = "two.sided", power = 0.8),
    list(n = 500, seed = 2, sig = 0.01, alt = "one.sided", power = 0.9),
    list(n = 800, seed = 3, sig = 0.1, alt = "two.sided", power = 0.7),
    list(n = 250, seed = 4, sig = 0.05, alt = "one.sided", power = 0.95)
  )
  for (s in settings) {
    df <- make_pilot(s$n, seed = s$seed)
    # pROC's default levels: controls 0 (successes), cases 1 (failures)
    r1 <- pROC::roc(df$failure, df$good, direction = ">", quiet = TRUE)
    r2 <- pROC::roc(df$failure, df$poor, direction = ">", quiet = TRUE)
    args <- list(df, quote(c(good, poor)), quote(failure),
      metric = "failure_auroc", sig_level = s$sig, alternative = s$alt,
      difference = "pilot", convention = "proc"
    )
    # the sample size for a power
    p <- pROC::power.roc.test(r1, r2,
      power = s$power, sig.level = s$sig, alternative = s$alt
    )
    ours <- do.call(selective_power, c(args, power = s$power))
    expect_equal(ours$n_cases, p$ncases, tolerance = 1e-10)
    expect_equal(ours$n_controls, p$ncontrols, tolerance = 1e-10)
    expect_equal(ours$n, ceiling(p$ncases + p$ncontrols - 1e-9))
    expect_equal(ours$difference, as.numeric(r1$auc - r2$auc),
      tolerance = 1e-12
    )
    # the power at the pilot's size (pROC's only one for two curves)
    p <- pROC::power.roc.test(r1, r2, sig.level = s$sig,
      alternative = s$alt
    )
    ours <- do.call(selective_power, c(args, n = nrow(df)))
    expect_equal(ours$power, p$power, tolerance = 1e-10)
    expect_equal(ours$n_cases, p$ncases, tolerance = 1e-12)
    expect_equal(ours$n_controls, p$ncontrols, tolerance = 1e-12)
    # round trip: the power at pROC's (fractional) sample size is the
    # target
    sized <- do.call(selective_power, c(args, power = s$power))
    back <- do.call(selective_power,
      c(args, n = sized$n_cases + sized$n_controls)
    )
    expect_equal(back$power, s$power, tolerance = 1e-10)
  }
})

test_that("convention = \"proc\" for grouped pilots and bad input", {
  skip_if_not_installed("pROC")
  df <- make_pilot(900, seed = 5)
  res <- selective_power(dplyr::group_by(df, site), c(good, poor), failure,
    metric = "failure_auroc", power = 0.8, difference = "pilot",
    convention = "proc"
  )
  for (s in c("x", "y", "z")) {
    sub <- df[df$site == s, ]
    p <- pROC::power.roc.test(
      pROC::roc(sub$failure, sub$good, direction = ">", quiet = TRUE),
      pROC::roc(sub$failure, sub$poor, direction = ">", quiet = TRUE),
      power = 0.8
    )
    expect_equal(res$n_cases[res$site == s], p$ncases, tolerance = 1e-10)
  }
  for (m in c("aurc", "augrc", "prr")) {
    loss <- if (m == "prr") quote(1 - loss / max(loss)) else quote(loss)
    expect_error(selective_power(df, c(good, poor), !!loss, metric = m,
      n = 100, convention = "proc"
    ), class = "aurc_error_method")
  }
  expect_error(selective_power(df, c(good, poor), failure,
    metric = "failure_auroc", n = 100, convention = "proc", strata = site
  ), class = "aurc_error_method")
  expect_error(selective_power(df, c(good, poor), failure,
    metric = "failure_auroc", n = 100, convention = "proc", case_weights = w
  ), class = "aurc_error_method")
  expect_error(selective_power(df, c(good, poor), failure,
    metric = "failure_auroc", n = 100, convention = "proc",
    cluster = patient
  ), class = "aurc_error_method")
  expect_error(selective_power(df, c(good, poor), c(failure, failure_b),
    metric = "failure_auroc", n = 100, convention = "proc"
  ), class = "aurc_error_method")
  expect_error(selective_power(df, c(good, poor), failure,
    metric = "failure_auroc", n = 100, convention = "pROC"
  ), class = "aurc_error_value")
  expect_snapshot(error = TRUE, selective_power(df, c(good, poor), loss,
    n = 100, convention = "proc"
  ))
})
