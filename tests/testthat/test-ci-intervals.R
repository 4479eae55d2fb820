test_that("failure AUROC: analytic variance is pROC's DeLong variance", {
  skip_if_not_installed("pROC")
  set.seed(21)
  for (n in c(30, 200)) {
    s <- round(rnorm(n), 1) # ties
    f <- rbinom(n, 1, plogis(-1 - s))
    ci <- selective_ci_vec(s, f, metrics = "failure_auroc")
    r <- pROC::roc(f, s, levels = c(1, 0), direction = "<", quiet = TRUE)
    expect_equal(ci$.estimate, as.numeric(pROC::auc(r)), tolerance = 1e-12)
    expect_equal(ci$.std_error^2, pROC::var(r, method = "delong"),
      tolerance = 1e-10
    )
    pci <- pROC::ci.auc(r, method = "delong")
    expect_equal(c(ci$.lower, ci$.upper), as.numeric(pci)[c(1, 3)],
      tolerance = 1e-10
    )
  }
})

test_that("the table has the documented columns, one row per metric", {
  set.seed(22)
  s <- rnorm(300)
  f <- rbinom(300, 1, plogis(-1 - s))
  ci <- selective_ci_vec(s, f, metrics = c("augrc", "aurc"),
    conf_level = 0.9
  )
  expect_named(ci, c(
    ".metric", ".estimator", ".estimate", ".lower", ".upper",
    ".std_error", ".conf_level", ".method"
  ))
  expect_equal(ci$.metric, c("augrc", "aurc"))
  expect_equal(ci$.estimate, c(augrc_vec(s, f), aurc_vec(s, f)))
  expect_equal(ci$.upper - ci$.estimate, qnorm(0.95) * ci$.std_error)
  expect_equal(ci$.conf_level, c(0.9, 0.9))
  expect_equal(ci$.method, c("analytic", "analytic"))
  all <- selective_ci_vec(s, f,
    metrics = c(
      "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc", "eaugrc",
      "naurc", "risk_at_coverage", "coverage_at_risk"
    ), coverage = 0.7, risk = 0.2
  )
  ref <- selective_metrics_vec(s, f,
    metrics = all$.metric, coverage = 0.7,
    risk = 0.2
  )
  expect_equal(all$.estimate, ref$.estimate, tolerance = 1e-12)
  expect_equal(all$.estimator, ref$.estimator)
})

test_that("a bootstrap result carries its replicates", {
  set.seed(23)
  s <- round(rnorm(150), 1)
  f <- rbinom(150, 1, plogis(-1 - s))
  idx <- matrix(sample.int(150, 40 * 150, replace = TRUE), 40)
  ci <- selective_ci_vec(s, f, metrics = c("aurc", "failure_auroc"),
    method = "bootstrap", indices = idx
  )
  reps <- attr(ci, "replicates")
  expect_identical(dim(reps), c(40L, 2L))
  expect_identical(colnames(reps), c("aurc", "failure_auroc"))
  # each replicate is the metric on its resampled rows
  for (b in c(1, 17, 40)) {
    expect_equal(unname(reps[b, "aurc"]), aurc_vec(s[idx[b, ]], f[idx[b, ]]),
      tolerance = 1e-12
    )
    expect_equal(unname(reps[b, "failure_auroc"]),
      failure_auroc_vec(s[idx[b, ]], f[idx[b, ]]),
      tolerance = 1e-12
    )
  }
  # the percentile interval and the standard error are theirs
  for (m in 1:2) {
    expect_equal(c(ci$.lower[m], ci$.upper[m]),
      unname(stats::quantile(reps[, m], c(0.025, 0.975), type = 7))
    )
    expect_equal(ci$.std_error[m], stats::sd(reps[, m]))
  }
  expect_null(attr(selective_ci_vec(s, f), "replicates"))
})

test_that("grouped data frames give one row per group and metric", {
  set.seed(23)
  df <- data.frame(
    s = rnorm(400), g = rep(c("a", "b"), 200),
    f = rbinom(400, 1, 0.3)
  )
  out <- selective_ci(dplyr::group_by(df, g), s, f)
  expect_equal(out$g, c("a", "a", "b", "b"))
  one <- selective_ci_vec(df$s[df$g == "b"], df$f[df$g == "b"])
  expect_equal(out$.std_error[3:4], one$.std_error)
  expect_equal(selective_ci(df, s, f), selective_ci_vec(df$s, df$f))
})

test_that("integer case weights give the interval of repeated rows", {
  set.seed(24)
  n <- 150
  s <- round(rnorm(n), 1)
  f <- rbinom(n, 1, plogis(-s))
  w <- sample(0:3, n, replace = TRUE)
  rows <- rep(seq_len(n), w)
  m <- c("aurc", "augrc", "failure_auroc", "eaurc", "naurc")
  a <- selective_ci_vec(s, f, metrics = m, case_weights = w)
  b <- selective_ci_vec(s[rows], f[rows], metrics = m)
  expect_equal(a, b, tolerance = 1e-10)
  # clusters made of the repeated rows of one original row
  a <- selective_ci_vec(s, f, metrics = m, case_weights = w,
    cluster = seq_len(n)
  )
  b <- selective_ci_vec(s[rows], f[rows], metrics = m, cluster = rows)
  expect_equal(a, b, tolerance = 1e-10)
})

test_that("cluster and strata variances follow their formulas", {
  set.seed(25)
  n <- 200
  s <- rnorm(n)
  l <- rexp(n)
  cl <- rep(1:40, each = 5)
  st <- rep(1:2, 100)
  inf <- metric_influence(s, l, NULL, "aurc")$influence
  tot <- tapply(inf, cl, sum)
  g <- length(tot)
  se_cl <- sqrt(sum((tot - mean(tot))^2) * g / (g - 1)) / n
  out <- selective_ci_vec(s, l, metrics = "aurc", cluster = cl)
  expect_equal(out$.std_error,
    se_cl,
    tolerance = 1e-12
  )
  v <- 0
  for (h in 1:2) {
    x <- inf[st == h]
    v <- v + sum((x - mean(x))^2) * length(x) / (length(x) - 1)
  }
  expect_equal(selective_ci_vec(s, l, metrics = "aurc", strata = st)$.std_error,
    sqrt(v) / n,
    tolerance = 1e-12
  )
  # without strata or clusters: sd(IF) / sqrt(n)
  expect_equal(selective_ci_vec(s, l, metrics = "aurc")$.std_error,
    sd(inf) / sqrt(n),
    tolerance = 1e-12
  )
})

test_that("analytic standard errors agree with a plain bootstrap", {
  skip_on_cran()
  # n = 1000 and 2000 bootstrap replicates of the _vec metrics (500 in the
  # quick run); the Monte Carlo error of the bootstrap SE is about 1.6 %
  # (3.2 % with 500), the tolerance 12 %.
  set.seed(26)
  n <- 1000
  z <- rnorm(n)
  tied <- round(z, 1)
  f <- rbinom(n, 1, plogis(-1 - 1.5 * z))
  lc <- rexp(n) * plogis(-z)
  conf <- pnorm(z)
  boot_se <- function(fn) {
    sd(replicate(test_grid(500, 2000), {
      i <- sample.int(n, n, replace = TRUE)
      fn(i)
    }))
  }
  check <- function(score, loss, metric, est = "alpha", fn) {
    ci <- selective_ci_vec(score, loss,
      metrics = metric, estimator = est,
      coverage = 0.7
    )
    b <- boot_se(fn)
    expect_lt(abs(ci$.std_error / b - 1), 0.12,
      label = paste(metric, est, "SE ratio", ci$.std_error / b)
    )
  }
  for (est in c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")) {
    check(tied, f, "aurc", est, function(i) {
      aurc_vec(tied[i], f[i], estimator = est)
    })
    check(z, lc, "aurc", est, function(i) {
      aurc_vec(z[i], lc[i], estimator = est)
    })
  }
  check(tied, f, "augrc", fn = function(i) augrc_vec(tied[i], f[i]))
  check(z, lc, "augrc", fn = function(i) augrc_vec(z[i], lc[i]))
  check(tied, f, "failure_auroc",
    fn = function(i) failure_auroc_vec(tied[i], f[i])
  )
  check(tied, f, "failure_aupr",
    fn = function(i) failure_aupr_vec(tied[i], f[i])
  )
  check(tied, f, "eaurc", fn = function(i) eaurc_vec(tied[i], f[i]))
  check(z, lc, "eaurc", fn = function(i) eaurc_vec(z[i], lc[i]))
  check(tied, f, "eaugrc", fn = function(i) eaugrc_vec(tied[i], f[i]))
  check(tied, f, "naurc", fn = function(i) naurc_vec(tied[i], f[i]))
  check(z, lc, "naurc", fn = function(i) naurc_vec(z[i], lc[i]))
  check(z, f, "risk_at_coverage",
    fn = function(i) risk_at_coverage_vec(z[i], f[i], coverage = 0.7)
  )
  check(conf, f, "ece", fn = function(i) {
    ece_vec(conf[i], 1 - f[i], binning = "equal_width")
  })
})

test_that("NA handling follows the metrics", {
  s <- c(0.9, 0.8, NA, 0.4, 0.3, 0.2, 0.7, 0.1)
  f <- c(0, 0, 1, 1, 0, 1, 0, 1)
  out <- selective_ci_vec(s, f)
  expect_true(all(is.na(out$.estimate) & is.na(out$.std_error)))
  keep <- !is.na(s)
  expect_equal(
    selective_ci_vec(s, f, na_rm = TRUE, strata = rep(1:2, 4)),
    selective_ci_vec(s[keep], f[keep], strata = rep(1:2, 4)[keep])
  )
})

test_that("undefined metrics give NA with the metric's classed warning", {
  s <- c(0.9, 0.8, 0.5, 0.4)
  expect_warning(
    out <- selective_ci_vec(s, c(0, 0, 0, 0),
      metrics = c("aurc", "failure_auroc")
    ),
    class = "aurc_warning_one_class"
  )
  expect_equal(out$.estimate[1], 0)
  expect_true(is.na(out$.estimate[2]) && is.na(out$.lower[2]))
  expect_warning(
    selective_ci_vec(s, c(1, 1, 1, 1), metrics = "naurc"),
    class = "aurc_warning_undefined"
  )
  expect_warning(
    selective_ci_vec(s, c(0, 1, 0, 1), case_weights = rep(0, 4)),
    class = "aurc_warning_no_data"
  )
})

test_that("bad input gives classed errors naming the argument", {
  s <- c(0.9, 0.8, 0.5, 0.4)
  f <- c(0, 1, 0, 1)
  expect_snapshot(error = TRUE, selective_ci_vec(s, f, conf_level = 1))
  expect_error(selective_ci_vec(s, f, conf_level = 0), class = "aurc_error")
  expect_error(selective_ci_vec(s, f, conf_level = NA), class = "aurc_error")
  expect_snapshot(error = TRUE, selective_ci_vec(s, f, metrics = "auc"))
  expect_snapshot(error = TRUE, selective_ci_vec(s, f, strata = 1:3))
  expect_snapshot(error = TRUE, selective_ci_vec(s, f, cluster = rep(1, 4)))
  expect_error(selective_ci_vec(s, f, strata = c(1, 1, NA, 2)),
    class = "aurc_error_value"
  )
  expect_snapshot(error = TRUE, selective_ci_vec(s, f,
    method = "bootstrap",
    times = 1
  ))
  expect_error(
    selective_ci_vec(s, f, method = "bootstrap", times = 1e9),
    class = "aurc_error_value"
  )
  expect_error(selective_ci_vec(s, f, method = "bootstrap", type = "bc"),
    class = "aurc_error_value"
  )
  expect_snapshot(error = TRUE, selective_ci_vec(s * 2, f, metrics = "ece"))
  expect_error(selective_ci_vec(s, c(0, 2, 0, 1), metrics = "failure_auroc"),
    class = "aurc_error_value"
  )
  expect_error(selective_ci_vec(s, f, metrics = "risk_at_coverage"),
    class = "aurc_error"
  )
  expect_snapshot(selective_ci_vec(s, f, times = 10))
})

test_that("analytic and bootstrap standard errors agree within 10%", {
  # n = 2000 with tied scores, 10,000 bootstrap replicates; a 0/1 loss and a
  # continuous loss; every metric with the alpha AURC, and the sele and
  # trapezoid estimators with AURC_SLOW_TESTS=true (coverage at risk is
  # left out: its analytic interval is a test inversion, not mean +- z SE)
  set.seed(2024)
  n <- 2000
  s <- round(stats::rnorm(n), 1)
  f <- stats::rbinom(n, 1, stats::plogis(-1 - 1.5 * s))
  conf <- stats::plogis(s)
  cont <- stats::rexp(n) * (0.5 + f)
  cases <- list(
    list(
      score = conf, loss = f,
      metrics = c(
        "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc",
        "eaugrc", "naurc", "risk_at_coverage", "ece"
      )
    ),
    list(
      score = s, loss = cont,
      metrics = c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage")
    )
  )
  for (case in cases) {
    for (est in test_grid("alpha", c("alpha", "sele", "trapezoid"))) {
      args <- list(case$score, case$loss,
        metrics = case$metrics, estimator = est, coverage = 0.7
      )
      an <- do.call(selective_ci_vec, args)
      set.seed(7)
      bs <- do.call(selective_ci_vec,
        c(args, method = "bootstrap", times = 10000, threads = 2)
      )
      ratio <- an$.std_error / bs$.std_error
      expect_true(all(abs(ratio - 1) < 0.10),
        label = paste(est, paste(an$.metric, round(ratio, 3), collapse = ", "))
      )
    }
  }
})

test_that("coverage at risk at a tied threshold: the coverage's own noise", {
  # scores 4, 3, 2, 1 (25 each); failures 0 at 4, 13 of 25 at 3. At risk
  # 0.2 the estimate is 0.25 (score 4 only). Excess (failures - 0.2 x
  # accepted) / 100: -0.05 at 0.25, +0.03 at 0.5; h = 1(s = 4) (0 - 0.2)
  # has standard error sqrt(100 / 99 x 0.75) / 100 = 0.0087, so z se =
  # 0.017 rejects both neighbours: the threshold is certain, and the
  # interval is the binomial one of the accepted share, 0.25 +- z
  # sqrt(0.25 x 0.75 / 99).
  s <- rep(4:1, each = 25)
  f <- c(rep(0, 25), rep(c(1, 0), length.out = 25), rep(1, 50))
  expect_equal(sum(f[26:50]), 13)
  out <- selective_ci_vec(s, f, metrics = "coverage_at_risk", risk = 0.2)
  half <- stats::qnorm(0.975) * sqrt(0.25 * 0.75 / 99)
  expect_equal(out$.estimate, 0.25)
  expect_equal(c(out$.lower, out$.upper), 0.25 + c(-1, 1) * half,
    tolerance = 1e-12
  )
  expect_equal(out$.std_error, half / stats::qnorm(0.975), tolerance = 1e-12)
})

test_that("coverage at risk: the interval is the literal test inversion", {
  set.seed(11)
  for (k in 1:5) {
    n <- 300
    s <- round(stats::runif(n), 1 + (k %% 2))
    l <- if (k <= 3) stats::rbinom(n, 1, 1 - s) else stats::rexp(n) * (1 - s)
    w <- if (k %% 2) stats::rpois(n, 2) + 1 else rep(1, n)
    r <- 0.3
    out <- selective_ci_vec(s, l, metrics = "coverage_at_risk", risk = r,
      case_weights = w, conf_level = 0.9
    )
    z <- stats::qnorm(0.95)
    total <- sum(w)
    t <- sort(unique(s), decreasing = TRUE)
    cov <- vapply(t, function(x) sum(w[s >= x]) / total, 0)
    exc <- vapply(t, function(x) sum((w * (l - r))[s >= x]) / total, 0)
    ok <- vapply(t, function(x) {
      sum((w * l)[s >= x]) / sum(w[s >= x]) <= r
    }, TRUE)
    est <- if (any(ok)) max(cov[ok]) else 0
    q <- if (any(ok)) t[which(ok & cov == est)[1]] else t[1]
    # standard error of a weighted mean of per-row values: integer weights
    # are repeated rows
    se <- function(x) {
      xr <- rep(x, w)
      stats::sd(xr) / sqrt(length(xr))
    }
    d <- z * se((s >= q) * (l - r))
    lo <- max(0, cov[exc <= -d])
    hi <- max(0, cov[exc <= d])
    m <- if (est > 0) z * se(as.numeric(s >= q)) else 0
    expect_equal(out$.estimate, est, tolerance = 1e-12)
    expect_equal(out$.lower,
      max(0, est - sqrt(max(0, est - lo)^2 + m^2)), tolerance = 1e-12
    )
    expect_equal(out$.upper,
      min(1, est + sqrt(max(0, hi - est)^2 + m^2)), tolerance = 1e-12
    )
    # integer weights are repeated rows
    rep_out <- selective_ci_vec(rep(s, w), rep(l, w),
      metrics = "coverage_at_risk", risk = r, conf_level = 0.9
    )
    expect_equal(rep_out[c(".lower", ".upper")], out[c(".lower", ".upper")],
      tolerance = 1e-12
    )
  }
})

test_that("quality = gives PRR and AUARC their own convention in intervals, comparisons and power", {
  set.seed(91)
  n <- 300
  s <- stats::runif(n)
  q <- pmin(1, pmax(0, s + stats::rnorm(n, 0, 0.3)))
  d <- data.frame(s = s, s2 = stats::runif(n), q = q)
  ci <- selective_ci(d, s, quality = q, metrics = c("prr", "auarc"))
  expect_equal(ci$.estimate, c(prr_vec(s, q), auarc_vec(s, q)),
    tolerance = 1e-14
  )
  expect_identical(
    selective_ci_vec(s, quality = q, metrics = "prr")$.estimate,
    selective_ci_vec(s, 1 - q, metrics = "prr")$.estimate
  )
  cmp <- compare_scores(d, c(s, s2), quality = q, metric = "prr")
  expect_equal(cmp$estimates$estimate, c(prr_vec(s, q), prr_vec(d$s2, q)),
    tolerance = 1e-14
  )
  pw <- selective_power(d, c(s, s2), quality = q, metric = "prr", n = 500)
  pw_loss <- selective_power(transform(d, l = 1 - q), c(s, s2), l,
    metric = "prr", n = 500
  )
  expect_equal(pw$power, pw_loss$power)
  expect_error(selective_ci(d, s, 1 - q, quality = q, metrics = "prr"),
    class = "aurc_error_value"
  )
  expect_error(selective_ci_vec(s, quality = q * 2, metrics = "prr"),
    class = "aurc_error"
  )
})
