# compare_groups() (issue 35, item 1): one metric in independent groups.

# `shift` moves a group's failure rate and losses (its AURC, AUGRC),
# `slope` how well the score separates its failures (its failure AUROC)
make_groups <- function(n = 200, seed = 1, shift = c(0, 0, 0),
                        labels = c("a", "b", "c"),
                        slope = rep(1.5, length(shift))) {
  set.seed(seed)
  k <- length(shift)
  group <- rep(labels[seq_len(k)], each = n)
  latent <- rnorm(n * k)
  s <- rep(shift, each = n)
  b <- rep(slope, each = n)
  data.frame(
    group = group,
    score = round(latent + rnorm(n * k, sd = 0.7), 2),
    failure = rbinom(n * k, 1, plogis(-1.2 - b * latent + s)),
    loss = rexp(n * k) * plogis(-latent + s)
  )
}

test_that("a tiny case by hand: DeLong's variances and Welch's t", {
  # group a ranks every correct case above every failure (AUROC 1, no
  # variance); group b: correct {3, 2}, failures {4, 1}: AUROC 2 / 4, the
  # failures' placements 0 and 1 (variance 0.5), the correct cases' 0.5 and
  # 0.5 (variance 0): DeLong's variance 0 / 2 + 0.5 / 2 = 0.25
  df <- data.frame(
    g = rep(c("a", "b"), each = 4), s = c(4, 3, 2, 1, 4, 3, 2, 1),
    f = c(0, 0, 1, 1, 1, 0, 0, 1)
  )
  cmp <- compare_groups(df, s, f, group = g, metric = "failure_auroc")
  expect_s3_class(cmp, "aurc_group_comparison")
  expect_equal(cmp$groups$estimate, c(1, 0.5))
  expect_equal(cmp$groups$std_error, c(0, 0.5))
  expect_equal(cmp$groups$n, c(4, 4))
  expect_equal(cmp$groups$n_failures, c(2, 2))
  tt <- cmp$tests
  expect_equal(tt$difference, 0.5)
  expect_equal(tt$std_error, 0.5)
  expect_equal(tt$statistic, 1)
  # Welch: 0.25^2 / (0 / 3 + 0.25^2 / 3) = 3
  expect_equal(tt$df, 3)
  expect_equal(tt$p_value, 2 * pt(-1, 3))
  expect_equal(c(tt$lower, tt$upper), 0.5 + c(-1, 1) * qt(0.975, 3) * 0.5)
  # two groups: the simultaneous interval and the max-t test are the pair's
  expect_equal(c(tt$lower_simultaneous, tt$upper_simultaneous),
    c(tt$lower, tt$upper))
  expect_equal(tt$p_max_t, tt$p_value)
  g <- cmp$gap
  expect_equal(g$worst, "b")
  expect_equal(g$best, "a")
  expect_equal(g$gap, 0.5)
  expect_equal(c(g$lower, g$upper), c(tt$lower, tt$upper))
  expect_equal(g$statistic, 1)
  expect_equal(g$p_value, 2 * pt(-1, 3))
})

test_that("per-group results are selective_ci_vec() on the subsets", {
  df <- make_groups(n = 150, seed = 2)
  cases <- list(
    list(metric = "aurc", loss = "loss", opts = list()),
    list(metric = "augrc", loss = "failure", opts = list()),
    list(metric = "failure_auroc", loss = "failure", opts = list()),
    list(metric = "risk_at_coverage", loss = "failure",
      opts = list(coverage = 0.7)),
    list(metric = "eaurc", loss = "failure", opts = list())
  )
  for (cs in cases) {
    for (method in c("analytic", "bootstrap")) {
      set.seed(11)
      cmp <- do.call(compare_groups, c(
        list(df, quote(score), as.name(cs$loss), group = quote(group),
          metric = cs$metric, method = method),
        if (method == "bootstrap") list(times = 200), cs$opts
      ))
      set.seed(11)
      ref <- lapply(c("a", "b", "c"), function(g) {
        rows <- df$group == g
        do.call(selective_ci_vec, c(
          list(df$score[rows], df[[cs$loss]][rows], metrics = cs$metric,
            method = method),
          if (method == "bootstrap") list(times = 200), cs$opts
        ))
      })
      ref <- do.call(rbind, ref)
      info <- paste(cs$metric, method)
      expect_identical(cmp$groups$estimate, ref$.estimate, info = info)
      expect_identical(cmp$groups$lower, ref$.lower, info = info)
      expect_identical(cmp$groups$upper, ref$.upper, info = info)
      expect_identical(cmp$groups$std_error, ref$.std_error, info = info)
    }
  }
})

test_that("strata and clusters are used within each group", {
  df <- make_groups(n = 120, seed = 16)
  df$cl <- rep(seq_len(nrow(df) / 4), each = 4)
  df$st <- df$cl %% 2
  for (method in c("analytic", "bootstrap")) {
    boot <- if (method == "bootstrap") list(times = 100)
    set.seed(5)
    cmp <- do.call(compare_groups, c(list(df, quote(score), quote(failure),
      group = quote(group), metric = "augrc", strata = quote(st),
      cluster = quote(cl), method = method), boot))
    set.seed(5)
    ref <- do.call(rbind, lapply(c("a", "b", "c"), function(g) {
      d <- df[df$group == g, ]
      do.call(selective_ci_vec, c(list(d$score, d$failure,
        metrics = "augrc", strata = d$st, cluster = d$cl, method = method),
        boot))
    }))
    expect_identical(cmp$groups$std_error, ref$.std_error, info = method)
    expect_identical(cmp$groups$lower, ref$.lower, info = method)
  }
  # Welch's df counts the clusters
  an <- compare_groups(df, score, failure, group = group, cluster = cl)
  v <- an$groups$std_error^2
  expect_equal(an$tests$df[1], (v[1] + v[2])^2 /
    (v[1]^2 / 29 + v[2]^2 / 29))
  expect_output(print(an), "cluster-robust")
})

test_that("calibration metrics: correct = as in selective_ci_vec()", {
  set.seed(4)
  n <- 600
  df <- data.frame(g = rep(c("x", "y"), each = n / 2), conf = runif(n, .5, 1))
  df$right <- rbinom(n, 1, df$conf^ifelse(df$g == "y", 1.5, 1))
  cmp <- compare_groups(df, conf, correct = right, group = g, metric = "ece")
  ref <- selective_ci_vec(df$conf[df$g == "y"], correct = df$right[df$g ==
    "y"], metrics = "ece")
  expect_equal(cmp$groups$estimate[2], ref$.estimate)
  expect_equal(cmp$groups$std_error[2], ref$.std_error)
  expect_true(all(is.na(cmp$groups$n_failures)) ||
    all(cmp$groups$n_failures >= 0))
  # the calibration slope: worst is the farthest from 1
  sl <- compare_groups(df, conf, correct = right, group = g,
    metric = "calibration_slope"
  )
  far <- which.max(abs(sl$groups$estimate - 1))
  expect_equal(sl$gap$worst, sl$groups$group[far])
  expect_equal(sl$gap$gap, abs(diff(sl$groups$estimate)))
})

test_that("analytic differences: SEs add, Welch's df, Holm over the pairs", {
  df <- make_groups(n = 120, seed = 5, shift = c(0, 0.5, 1))
  cmp <- compare_groups(df, score, loss, group = group, metric = "aurc")
  est <- cmp$groups$estimate
  se <- cmp$groups$std_error
  n <- cmp$groups$n
  pairs <- utils::combn(3, 2)
  a <- pairs[1, ]
  b <- pairs[2, ]
  se_d <- sqrt(se[a]^2 + se[b]^2)
  df_w <- (se[a]^2 + se[b]^2)^2 /
    (se[a]^4 / (n[a] - 1) + se[b]^4 / (n[b] - 1))
  t <- (est[a] - est[b]) / se_d
  p <- 2 * pt(-abs(t), df_w)
  expect_equal(cmp$tests$difference, est[a] - est[b])
  expect_equal(cmp$tests$std_error, se_d)
  expect_equal(cmp$tests$df, df_w)
  expect_equal(cmp$tests$statistic, t)
  expect_equal(cmp$tests$p_value, p)
  expect_equal(cmp$tests$p_adjusted, p.adjust(p, "holm"))
  bon <- compare_groups(df, score, loss, group = group, p_adjust = "none")
  expect_equal(bon$tests$p_adjusted, p)
  # the simultaneous intervals are wider than the pairs' own, and hold the
  # same critical value for every pair
  crit <- (cmp$tests$upper_simultaneous - cmp$tests$difference) / se_d
  expect_equal(crit, rep(crit[1], 3))
  expect_gt(crit[1], qt(0.975, min(df_w)))
  expect_lt(crit[1], qt(1 - 0.025 / 3, min(df_w)))
  # the single-step adjusted p-values: below 0.05 exactly where the
  # simultaneous interval excludes 0
  excl <- cmp$tests$lower_simultaneous > 0 | cmp$tests$upper_simultaneous < 0
  expect_equal(cmp$tests$p_max_t < 0.05, excl)
  expect_true(all(cmp$tests$p_max_t >= cmp$tests$p_value))
  expect_true(all(cmp$tests$p_max_t <= pmin(1, 3 * cmp$tests$p_value)))
  # the gap: the worst (highest AURC) and best groups
  expect_equal(cmp$gap$worst, cmp$groups$group[which.max(est)])
  expect_equal(cmp$gap$best, cmp$groups$group[which.min(est)])
  expect_equal(cmp$gap$gap, max(est) - min(est))
  expect_equal(cmp$gap$statistic, max(abs(t)))
  expect_equal(cmp$gap$p_value, min(cmp$tests$p_max_t))
})

test_that("max-t critical value: the studentized range for equal SEs", {
  # with equal variances and df = Inf, max |X_a - X_b| / sqrt(2 v) is the
  # range of K normals over sqrt(2): qtukey(conf, K, Inf) / sqrt(2)
  se <- rep(0.1, 4)
  pairs <- utils::combn(4, 2)
  pw <- list(stat = rep(0, 6), df = rep(Inf, 6), se = rep(sqrt(0.02), 6),
    p = rep(1, 6))
  mt <- aurc:::groups_max_t_analytic(pw, se, pairs, 0.95)
  expect_equal(mt$crit, qtukey(0.95, 4, Inf) / sqrt(2), tolerance = 0.01)
  pw$stat <- rep(2.5, 6)
  pw$p <- rep(2 * pnorm(-2.5), 6)
  mt <- aurc:::groups_max_t_analytic(pw, se, pairs, 0.95)
  expect_equal(mt$p_gap, ptukey(2.5 * sqrt(2), 4, Inf, lower.tail = FALSE),
    tolerance = 0.05
  )
})

test_that("the max-t simulation leaves the user's random numbers alone", {
  df <- make_groups(n = 80, seed = 6)
  set.seed(99)
  x <- runif(3)
  set.seed(99)
  cmp <- compare_groups(df, score, loss, group = group)
  expect_identical(runif(3), x)
  # and gives the same answer whatever the user's seed
  set.seed(1)
  again <- compare_groups(df, score, loss, group = group)
  expect_identical(cmp, again)
  # without a seed in the session, none is left behind
  rm(".Random.seed", envir = globalenv())
  compare_groups(df, score, loss, group = group)
  expect_false(exists(".Random.seed", envir = globalenv(), inherits = FALSE))
  set.seed(NULL)
})

test_that("the failure AUROC equals pROC's unpaired DeLong test", {
  skip_if_not_installed("pROC")
  for (seed in 1:3) {
    df <- make_groups(n = 100 * seed, seed = seed, shift = c(0, 0.4, 0))
    # groups of unequal size
    df <- df[-(1:(20 * seed)), ]
    cmp <- compare_groups(df, score, failure, group = group,
      metric = "failure_auroc"
    )
    rocs <- lapply(split(df, df$group), function(d) {
      pROC::roc(d$failure, d$score, levels = c(1, 0), direction = "<",
        quiet = TRUE
      )
    })
    for (k in seq_len(nrow(cmp$tests))) {
      a <- cmp$tests$group_a[k]
      b <- cmp$tests$group_b[k]
      t <- pROC::roc.test(rocs[[a]], rocs[[b]], paired = FALSE,
        method = "delong"
      )
      # (1e-6 asked; they agree to rounding, about 1e-15)
      expect_equal(cmp$tests$statistic[k], unname(t$statistic),
        tolerance = 1e-10
      )
      expect_equal(cmp$tests$p_value[k], t$p.value, tolerance = 1e-10)
      expect_equal(cmp$tests$df[k], unname(t$parameter), tolerance = 1e-10)
      expect_equal(c(cmp$tests$estimate_a[k], cmp$tests$estimate_b[k]),
        unname(t$estimate),
        tolerance = 1e-12
      )
    }
  }
})

test_that("bootstrap: differences of the groups' own replicates", {
  df <- make_groups(n = 100, seed = 7, shift = c(0, 0.6, 0))
  for (type in c("percentile", "basic", "normal", "bca")) {
    set.seed(3)
    cmp <- compare_groups(df, score, loss, group = group, metric = "augrc",
      method = "bootstrap", times = 300, type = type
    )
    set.seed(3)
    ref <- lapply(c("a", "b", "c"), function(g) {
      rows <- df$group == g
      selective_ci_vec(df$score[rows], df$loss[rows], metrics = "augrc",
        method = "bootstrap", times = 300, type = type
      )
    })
    reps <- lapply(ref, function(r) attr(r, "replicates")[, 1])
    est <- vapply(ref, function(r) r$.estimate, numeric(1))
    d <- reps[[1]] - reps[[2]]
    d0 <- est[1] - est[2]
    tt <- cmp$tests[1, ]
    expect_equal(tt$difference, d0, info = type)
    expect_equal(tt$std_error, sd(d), info = type)
    if (type == "percentile") {
      q <- unname(quantile(d, c(0.025, 0.975), type = 7))
      expect_equal(c(tt$lower, tt$upper), q)
      p <- min(1, 2 * min(1 + sum(d <= 0), 1 + sum(d >= 0)) / 301)
      expect_equal(tt$p_value, p)
    }
    if (type == "basic") {
      q <- unname(quantile(d, c(0.975, 0.025), type = 7))
      expect_equal(c(tt$lower, tt$upper), 2 * d0 - q)
    }
    if (type == "normal") {
      expect_equal(c(tt$lower, tt$upper), d0 + c(-1, 1) * qnorm(0.975) *
        sd(d))
      expect_equal(tt$p_value, 2 * pnorm(-abs(d0) / sd(d)))
    }
    expect_true(all(is.na(cmp$tests$df)))
    # the bootstrap max-t: the 95% quantile of the studentized maximum
    dd <- cbind(reps[[1]] - reps[[2]], reps[[1]] - reps[[3]],
      reps[[2]] - reps[[3]])
    d0s <- c(est[1] - est[2], est[1] - est[3], est[2] - est[3])
    ses <- apply(dd, 2, sd)
    m <- apply(abs(sweep(sweep(dd, 2, d0s), 2, ses, "/")), 1, max)
    crit <- unname(quantile(m, 0.95, type = 7))
    expect_equal(cmp$tests$upper_simultaneous, d0s + crit * ses, info = type)
    expect_equal(cmp$gap$p_value,
      (1 + sum(m >= max(abs(d0s / ses)))) / 301,
      info = type
    )
  }
})

test_that("BCa: the acceleration of a difference of independent groups", {
  # from the groups' influence values: concatenated, each scaled by its
  # group's size (so sum(L^2) is the variance), a = sum(L^3) / (6
  # sum(L^2)^1.5); the formula from the groups' own accelerations and SEs
  set.seed(8)
  la <- rexp(50) - 1
  lb <- rgamma(80, 2) - 2
  acc <- function(l) sum(l^3) / (6 * sum(l^2)^1.5)
  se_a <- sqrt(sum(la^2)) / 50
  se_b <- sqrt(sum(lb^2)) / 80
  expect_equal(
    aurc:::groups_acceleration(acc(la), se_a, acc(lb), se_b),
    acc(c(la / 50, -lb / 80))
  )
})

test_that("case weights count cases; importance weights are accepted", {
  df <- make_groups(n = 60, seed = 9)
  df$w <- rep(1:3, length.out = nrow(df))
  long <- df[rep(seq_len(nrow(df)), df$w), ]
  a <- compare_groups(df, score, loss, group = group, case_weights = w)
  b <- compare_groups(long, score, loss, group = group)
  expect_equal(a$groups[c("n", "estimate", "std_error")],
    b$groups[c("n", "estimate", "std_error")])
  expect_equal(a$tests$p_value, b$tests$p_value)
  skip_if_not_installed("hardhat")
  df$iw <- hardhat::importance_weights(df$w / 2)
  i <- compare_groups(df, score, loss, group = group, case_weights = iw)
  expect_equal(i$groups$n, c(60, 60, 60))
  expect_equal(i$groups$estimate, a$groups$estimate)
})

test_that("groups: factor order, integers, missing values", {
  df <- make_groups(n = 60, seed = 10)
  df$f <- factor(df$group, levels = c("c", "z", "a", "b"))
  cmp <- compare_groups(df, score, loss, group = f)
  expect_equal(cmp$groups$group, c("c", "a", "b"))
  expect_equal(cmp$tests$group_a, c("c", "c", "a"))
  df$i <- match(df$group, c("c", "a", "b")) * 10L
  expect_equal(compare_groups(df, score, loss, group = i)$groups$group,
    c("10", "20", "30"))
  # a missing group: an error, or its rows dropped with na_rm
  df$g2 <- df$group
  df$g2[c(1, 70)] <- NA
  expect_error(compare_groups(df, score, loss, group = g2),
    class = "aurc_error_value"
  )
  dropped <- compare_groups(df, score, loss, group = g2, na_rm = TRUE)
  expect_equal(dropped$groups$n, c(59, 59, 60))
  # a missing score: its group NA (with na_rm = FALSE), the gap NA
  df$score[5] <- NA
  na <- compare_groups(df, score, loss, group = group)
  expect_true(is.na(na$groups$estimate[1]))
  expect_false(is.na(na$groups$estimate[2]))
  expect_true(is.na(na$tests$p_value[1]))
  expect_false(is.na(na$tests$p_value[3]))
  expect_true(is.na(na$gap$gap))
  expect_output(print(na), "worst group: NA")
  kept <- compare_groups(df, score, loss, group = group, na_rm = TRUE)
  expect_equal(kept$groups$n, c(59, 60, 60))
})

test_that("an undefined metric in one group: NA with its warning", {
  df <- make_groups(n = 60, seed = 12)
  df$failure[df$group == "b"] <- 0
  expect_warning(
    cmp <- compare_groups(df, score, failure, group = group,
      metric = "failure_auroc"
    ),
    class = "aurc_warning_one_class"
  )
  expect_true(is.na(cmp$groups$estimate[2]))
  expect_true(is.na(cmp$gap$p_value))
})

test_that("print names the worst group and the gap first", {
  df <- make_groups(n = 100, seed = 13, shift = c(0, 1, 0))
  cmp <- compare_groups(df, score, failure, group = group,
    metric = "failure_auroc"
  )
  out <- capture.output(print(cmp))
  head <- paste(out[1:5], collapse = "\n")
  expect_match(head, paste0("worst group: ", cmp$gap$worst), fixed = TRUE)
  expect_match(head, "gap: ", fixed = TRUE)
  expect_match(head, "simultaneous CI", fixed = TRUE)
  expect_match(paste(out, collapse = "\n"), "DeLong", fixed = TRUE)
})

test_that("tidy forms and autoplot", {
  df <- make_groups(n = 80, seed = 14)
  cmp <- compare_groups(df, score, loss, group = group)
  expect_identical(tibble::as_tibble(cmp), cmp$groups)
  expect_identical(as.data.frame(cmp, what = "tests"),
    as.data.frame(cmp$tests))
  expect_identical(tibble::as_tibble(cmp, what = "gap"), cmp$gap)
  expect_error(tibble::as_tibble(cmp, what = "nope"),
    class = "aurc_error_value"
  )
  skip_if_not_installed("generics")
  expect_identical(generics::tidy(cmp, what = "tests"), cmp$tests)
  skip_if_not_installed("ggplot2")
  p <- autoplot(cmp)
  expect_s3_class(p, "ggplot")
  expect_s3_class(ggplot2::ggplot_build(p), "ggplot_built")
  q <- autoplot(cmp, what = "differences")
  expect_s3_class(ggplot2::ggplot_build(q), "ggplot_built")
  expect_error(autoplot(cmp, what = "x"), class = "aurc_error_value")
})

test_that("classed errors name the argument", {
  df <- make_groups(n = 30, seed = 15)
  expect_error(compare_groups(df, score, loss), class = "aurc_error_missing")
  expect_error(compare_groups(df, score, loss, group = nope),
    class = "aurc_error_column"
  )
  df$one <- "x"
  expect_error(compare_groups(df, score, loss, group = one),
    "at least two groups",
    class = "aurc_error_value"
  )
  df$num <- df$score
  expect_error(compare_groups(df, score, loss, group = num),
    class = "aurc_error_value"
  )
  df$lst <- I(as.list(seq_len(nrow(df))))
  expect_error(compare_groups(df, score, loss, group = lst),
    class = "aurc_error_type"
  )
  expect_error(compare_groups(df, score, loss, group = group, metric = "x"),
    class = "aurc_error"
  )
  expect_error(
    compare_groups(df, score, loss, group = group, metric = c("aurc",
      "augrc")),
    class = "aurc_error_type"
  )
  expect_error(compare_groups(df, score, loss, group = group,
    p_adjust = "x"), class = "aurc_error_value")
  expect_error(compare_groups(df, score, loss, group = group, na_rm = NA),
    class = "aurc_error_type"
  )
  expect_error(compare_groups(df, score, loss, group = group, 3),
    class = "aurc_error_dots"
  )
  expect_error(compare_groups(df, score, group = group),
    class = "aurc_error_missing"
  )
  expect_error(compare_groups(1:3, score, loss, group = group),
    class = "aurc_error_type"
  )
  # a metric without an influence function: the error of selective_ci()
  expect_error(
    compare_groups(df, score, failure, group = group, metric = "mce"),
    class = "aurc_error_method"
  )
  skip_if_not_installed("dplyr")
  expect_error(
    compare_groups(dplyr::group_by(df, group), score, loss, group = group),
    class = "aurc_error_value"
  )
})

# Size and power of the gap test (the max-t test that all groups are equal)
size_power <- function(reps, n, shift, metric, loss, seed,
                       slope = rep(1.5, length(shift))) {
  set.seed(seed)
  vapply(seq_len(reps), function(r) {
    df <- make_groups(n = n, seed = seed * 1e4 + r, shift = shift,
      slope = slope
    )
    cmp <- suppressWarnings(compare_groups(df, score, !!as.name(loss),
      group = group, metric = metric
    ))
    cmp$gap$p_value < 0.05
  }, logical(1))
}

test_that("the gap test holds its size; its power", {
  skip_on_cran()
  reps <- 300
  rej <- size_power(reps, 300, c(0, 0, 0), "aurc", "loss", seed = 21)
  se <- sqrt(0.05 * 0.95 / reps)
  expect_lt(abs(mean(rej) - 0.05), 3.5 * se)
  power <- mean(size_power(100, 300, c(0, 0, 0.5), "aurc", "loss",
    seed = 22
  ))
  # (0.609 in studies/compare-groups-size.R, 1000 data sets)
  expect_gt(power, 0.4)
})

test_that("size and power: a larger simulation (slow)", {
  skip_if_not_slow()
  # (about a minute; studies/compare-groups-size.R has more cells)
  reps <- 600
  se <- sqrt(0.05 * 0.95 / reps)
  for (metric in c("aurc", "failure_auroc")) {
    loss <- if (metric == "aurc") "loss" else "failure"
    rej <- size_power(reps, 300, c(0, 0, 0), metric, loss, seed = 31)
    expect_lt(abs(mean(rej) - 0.05), 3.5 * se, label = metric)
  }
  # a score that separates the failures of one group less well
  power <- mean(size_power(200, 300, c(0, 0, 0), "failure_auroc",
    "failure",
    seed = 32, slope = c(1.5, 1.5, 0.6)
  ))
  # (0.764 in studies/compare-groups-size.R, 1000 data sets)
  expect_gt(power, 0.6)
})
