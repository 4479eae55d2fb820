test_that("each calibration replicate is the _vec metric on the rebuilt rows", {
  set.seed(21)
  n <- 50
  conf <- round(stats::runif(n, 0.3, 1), 1) # ties
  conf[1:3] <- c(0, 1, 1) # the ends of [0, 1]
  conf2 <- stats::runif(n)
  f <- stats::rbinom(n, 1, 1 - conf^1.3)
  cal <- c(
    "ece", "mce", "debiased_l2_ce", "smooth_ece", "corp_mean_score",
    "corp_mcb", "corp_dsc", "corp_unc"
  )
  settings <- list(
    list(metrics = cal, options = list(n_bins = 5)),
    list(
      metrics = c("smooth_ece", "corp_mcb", "corp_unc", "corp_mean_score"),
      options = list(sigma = 0.07, smooth_method = "relplot",
                     corp_score = "log")
    ),
    list(metrics = c("smooth_ece", "mce"),
         options = list(smooth_method = "relplot", n_bins = 15))
  )
  reps <- test_grid(4, 10)
  for (weighted in c(FALSE, TRUE)) {
    w <- if (weighted) stats::rpois(n, 1.5) else NULL
    for (st in settings) {
      set.seed(4)
      res <- suppressWarnings(run_ci_bootstrap(list(a = conf, b = conf2), f,
        st$metrics,
        case_weights = w, options = st$options, times = reps
      ))
      counts <- aurc:::ci_bootstrap_counts(conf, w, NULL, NULL, reps,
        res$seed
      )
      for (m in st$metrics) {
        for (j in 1:2) {
          sc <- list(conf, conf2)[[j]]
          full <- suppressWarnings(vec_metric(m, sc, f, w, st$options))
          expect_equal(res$estimate[j, m], full, tolerance = 1e-10)
          for (b in seq_len(reps)) {
            i <- rebuild_rows(counts, b)
            ref <- suppressWarnings(vec_metric(m, sc[i], f[i], NULL,
              st$options
            ))
            expect_equal(res$replicates[b, j, m], ref, tolerance = 1e-10,
              label = paste(m, j, b)
            )
          }
        }
      }
    }
  }
})

test_that("CORP replicates: mean score = MCB - DSC + UNC, UNC = p (1 - p)", {
  set.seed(3)
  n <- 80
  conf <- round(stats::runif(n), 2)
  f <- stats::rbinom(n, 1, 0.3)
  res <- run_ci_bootstrap(list(conf), f,
    c("corp_mean_score", "corp_mcb", "corp_dsc", "corp_unc"),
    times = 30
  )
  r <- res$replicates[, 1, ]
  # mean score = MCB - DSC + UNC in every replicate
  expect_equal(r[, "corp_mean_score"],
    r[, "corp_mcb"] - r[, "corp_dsc"] + r[, "corp_unc"],
    tolerance = 1e-12
  )
  # UNC of the Brier score: p (1 - p) of the replicate's accuracy
  counts <- aurc:::ci_bootstrap_counts(conf, NULL, NULL, NULL, 30, res$seed)
  acc <- as.vector(counts %*% (1 - f)) / n
  expect_equal(unname(r[, "corp_unc"]), acc * (1 - acc), tolerance = 1e-12)
})

test_that("calibration BCa equals boot::boot.ci on the same replicates", {
  skip_if_not_installed("boot")
  set.seed(8)
  n <- 60
  conf <- round(stats::runif(n, 0.4, 1), 2)
  f <- stats::rbinom(n, 1, 1 - conf)
  metrics <- c(
    "mce", "debiased_l2_ce", "smooth_ece", "corp_mcb", "corp_dsc",
    "corp_mean_score"
  )
  opts <- list(n_bins = 5, sigma = 0.1)
  set.seed(1)
  res <- suppressWarnings(run_ci_bootstrap(list(conf), f, metrics,
    options = opts, times = 499, type = "bca", conf_level = 0.9
  ))
  for (m in metrics) {
    # the literal jackknife: delete one row, recompute with the _vec metric
    tj <- vapply(seq_len(n), function(i) {
      vec_metric(m, conf[-i], f[-i], NULL, opts)
    }, numeric(1))
    lv <- (n - 1) * (mean(tj) - tj)
    t0 <- vec_metric(m, conf, f, NULL, opts)
    t <- res$replicates[, 1, m]
    expect_equal(unname(res$estimate[1, m]), t0, tolerance = 1e-12)
    if (sum(t < t0) %in% c(0, length(t))) { # z0 infinite: no BCa interval
      expect_true(is.na(res$lower[1, m]) && is.na(res$upper[1, m]))
      next
    }
    bt <- list(t0 = t0, t = matrix(t), R = 499)
    ref <- suppressWarnings( # "extreme order statistics used"
      boot::boot.ci(bt, conf = 0.9, type = "bca", L = lv)$bca
    )
    expect_equal(unname(res$lower[1, m]), ref[4], tolerance = 1e-9)
    expect_equal(unname(res$upper[1, m]), ref[5], tolerance = 1e-9)
  }
})

test_that("selective_ci() gives every calibration error by the bootstrap", {
  set.seed(5)
  n <- 300
  df <- data.frame(
    conf = stats::runif(n, 0.5, 1),
    model = rep(c("a", "b", "c"), each = 100),
    patient = rep(seq_len(100), 3),
    site = rep(1:2, length.out = n)
  )
  df$fail <- stats::rbinom(n, 1, 1 - df$conf^2)
  cal <- c(
    "ece", "mce", "debiased_l2_ce", "smooth_ece", "corp_mean_score",
    "corp_mcb", "corp_dsc", "corp_unc"
  )
  set.seed(2)
  a <- selective_ci(df, conf, fail,
    metrics = cal, method = "bootstrap", times = 50
  )
  expect_identical(a$.metric, cal)
  expect_identical(unique(a$.method), "bootstrap_percentile")
  expect_true(all(a$.lower <= a$.estimate & a$.estimate <= a$.upper))
  expect_equal(a$.estimate[a$.metric == "smooth_ece"],
    as.numeric(smooth_ece_vec(df$conf, 1 - df$fail)),
    tolerance = 1e-12
  )
  expect_equal(a$.estimate[a$.metric == "corp_mcb"],
    corp_mcb_vec(df$conf, 1 - df$fail),
    tolerance = 1e-12
  )
  expect_identical(a$.estimator[a$.metric == "smooth_ece"],
    "fine/sigma=fixed_point"
  )
  # set.seed() reproduces; 1 thread = 2 threads
  set.seed(2)
  b <- selective_ci_vec(df$conf, df$fail,
    metrics = cal, method = "bootstrap", times = 50, threads = 2
  )
  expect_identical(a, b)
  # grouped: one row per group and metric
  skip_if_not_installed("dplyr")
  g <- selective_ci(dplyr::group_by(df, model), conf, fail,
    metrics = c("smooth_ece", "corp_mcb"), method = "bootstrap", times = 20,
    type = "normal", strata = site, cluster = patient, sigma = 0.05
  )
  expect_identical(g$model, rep(c("a", "b", "c"), each = 2))
  expect_identical(g$.estimator[1], "fine/sigma=0.05")
  for (k in c("a", "b", "c")) {
    d <- df[df$model == k, ]
    expect_equal(g$.estimate[g$model == k],
      c(as.numeric(smooth_ece_vec(d$conf, 1 - d$fail, sigma = 0.05)),
        corp_mcb_vec(d$conf, 1 - d$fail)),
      tolerance = 1e-12
    )
  }
  # BCa through the jackknife
  set.seed(3)
  bca <- selective_ci_vec(df$conf, df$fail,
    metrics = c("ece", "corp_dsc"), method = "bootstrap", times = 99,
    type = "bca", corp_score = "log"
  )
  expect_identical(bca$.estimator, c("adaptive", "log"))
  expect_true(all(is.finite(c(bca$.lower, bca$.upper))))
})

test_that("case weights are repeated rows for the calibration intervals", {
  set.seed(9)
  n <- 40
  conf <- round(stats::runif(n, 0.5, 1), 2)
  fail <- stats::rbinom(n, 1, 0.3)
  w <- stats::rpois(n, 2)
  rows <- rep(seq_len(n), w)
  idx <- matrix(sample(length(rows), 20 * length(rows), TRUE), 20)
  cal <- c("mce", "smooth_ece", "corp_mcb", "debiased_l2_ce")
  a <- selective_ci_vec(conf, fail,
    metrics = cal, method = "bootstrap",
    case_weights = w, indices = matrix(rows[idx], 20)
  )
  b <- selective_ci_vec(conf[rows], fail[rows],
    metrics = cal, method = "bootstrap", indices = idx
  )
  expect_equal(a, b, tolerance = 1e-10)
})

test_that("analytic intervals of calibration errors without IF: an error", {
  set.seed(1)
  conf <- stats::runif(50)
  fail <- stats::rbinom(50, 1, 0.3)
  for (m in c("mce", "smooth_ece", "corp_mcb", "corp_unc",
              "corp_mean_score", "corp_dsc", "debiased_l2_ce")) {
    expect_error(
      selective_ci_vec(conf, fail, metrics = c("ece", m)),
      class = "aurc_error_method"
    )
  }
  expect_snapshot(error = TRUE, {
    selective_ci_vec(conf, fail, metrics = c("ece", "smooth_ece", "corp_mcb"),
      method = "analytic"
    )
    selective_ci_vec(conf * 2, fail, metrics = "smooth_ece",
      method = "bootstrap"
    )
    selective_ci_vec(conf, fail, metrics = "smooth_ece",
      method = "bootstrap", sigma = -1
    )
    selective_ci_vec(conf, fail, metrics = "corp_mcb",
      method = "bootstrap", corp_score = "spherical"
    )
  })
  # ECE keeps its analytic interval
  expect_identical(
    selective_ci_vec(conf, fail, metrics = "ece")$.method, "analytic"
  )
})

test_that("compare_scores() compares calibration errors by the bootstrap", {
  set.seed(12)
  n <- 200
  f <- round(stats::runif(n, 0.5, 1), 2)
  g <- pmin(1, pmax(0, f + round(stats::rnorm(n, 0, 0.05), 2)))
  fail <- stats::rbinom(n, 1, 1 - f^2)
  df <- data.frame(f, g, fail)
  set.seed(1)
  cmp <- compare_scores(df, c(f, g), fail,
    metric = "corp_mcb", method = "bootstrap", times = 50
  )
  expect_equal(cmp$estimates$estimate,
    c(corp_mcb_vec(f, 1 - fail), corp_mcb_vec(g, 1 - fail)),
    tolerance = 1e-12
  )
  expect_output(print(cmp), "CORP miscalibration \\(MCB\\) of f, g")
  expect_error(
    compare_scores(df, c(f, g), fail, metric = "smooth_ece"),
    class = "aurc_error_method"
  )
})

test_that("adaptive and equal-mass bins: the ECE of ece(), with an interval", {
  set.seed(12)
  n <- 900
  conf <- round(stats::runif(n, 0.4, 1), 2) # ties
  correct <- stats::rbinom(n, 1, conf^1.4)
  w <- stats::rpois(n, 1.3)
  conf[5] <- NA
  for (b in c("adaptive", "equal_mass")) {
    for (cw in list(NULL, w)) {
      bins <- if (b == "equal_mass") list(n_bins = 12) else list()
      an <- do.call(selective_ci_vec, c(list(conf,
        correct = correct, metrics = "ece", binning = b, case_weights = cw,
        na_rm = TRUE
      ), bins))
      expect_equal(an$.estimate,
        do.call(ece_vec, c(list(conf, correct,
          binning = b, case_weights = cw, na_rm = TRUE
        ), bins)),
        tolerance = 1e-12
      )
    }
  }
  ok <- !is.na(conf)
  conf <- conf[ok]
  correct <- correct[ok]
  # the analytic SE: the influence function with the data's bins held fixed
  tab <- calibration_bins_vec(conf, correct)
  edges <- tab$max_confidence[tab$n > 0]
  bin <- findInterval(conf, edges, left.open = TRUE) + 1
  gap <- tapply(correct - conf, bin, sum)
  infl <- sign(gap[as.character(bin)]) * (correct - conf)
  infl <- infl - mean(infl)
  an <- selective_ci_vec(conf, correct = correct, metrics = "ece")
  expect_equal(an$.std_error, sd(infl) / sqrt(length(conf)), tolerance = 1e-10)
  expect_identical(an$.estimator, "adaptive")
  # each bootstrap replicate is ece() on the resampled rows, in those bins
  set.seed(3)
  idx <- matrix(sample.int(length(conf), 40 * length(conf), TRUE), 40)
  bs <- selective_ci_vec(conf, correct = correct, metrics = c("ece", "mce"),
    method = "bootstrap", indices = idx
  )
  breaks <- c(0, edges[-length(edges)], 1)
  by_hand <- t(apply(idx, 1, function(i) {
    c(
      ece_vec(conf[i], correct[i], breaks = breaks),
      mce_vec(conf[i], correct[i], breaks = breaks)
    )
  }))
  expect_equal(unname(attr(bs, "replicates")), by_hand, tolerance = 1e-12)
  # compare_scores(): each score with its own bins
  df <- data.frame(a = conf, b = round(conf^0.8, 2), correct = correct)
  cmp <- compare_scores(df, c(a, b), correct = correct, metric = "ece")
  expect_equal(cmp$estimates$estimate,
    c(ece_vec(df$a, df$correct), ece_vec(df$b, df$correct)),
    tolerance = 1e-12
  )
  set.seed(1)
  cmpb <- compare_scores(df, c(a, b), correct = correct, metric = "ece",
    method = "bootstrap", times = 100
  )
  expect_equal(cmpb$estimates$estimate, cmp$estimates$estimate,
    tolerance = 1e-12
  )
  expect_warning(
    selective_ci_vec(conf, correct = correct, metrics = "ece", n_bins = 15),
    class = "aurc_warning_ignored"
  )
  expect_error(
    selective_ci_vec(conf, correct = correct, metrics = "ece",
      binning = "ding2020"
    ),
    class = "aurc_error_value"
  )
})
