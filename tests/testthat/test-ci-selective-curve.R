# Bootstrap intervals of selective-curve areas (R/ci-selective-curve.R) and
# the paired comparison of scores (R/compare-selective-curves.R).

curve_ci_data <- function(n = 120, seed = 1) {
  set.seed(seed)
  truth <- factor(sample(c("a", "b", "c"), n, TRUE, prob = c(0.5, 0.3, 0.2)))
  # tied scores
  score <- round(runif(n), 1)
  right <- runif(n) < 0.4 + 0.5 * score
  wrong <- factor(c("b", "c", "a")[as.integer(truth)], levels = levels(truth))
  estimate <- factor(ifelse(right, as.character(truth), as.character(wrong)),
    levels = levels(truth)
  )
  p <- round(runif(n), 2)
  y <- rbinom(n, 1, p)
  yr <- rnorm(n)
  list(
    n = n, truth = truth, estimate = estimate, score = score,
    loss = as.numeric(truth != estimate), p = p, y = y, yr = yr,
    yr_hat = yr + rnorm(n, sd = 0.5 + score), w = sample(1:3, n, TRUE)
  )
}

# the arguments of every built-in metric (and a function) on `x`
curve_ci_cases <- function(x) {
  wmae <- function(truth, estimate, case_weights = NULL) {
    w <- case_weights %||% rep(1, length(truth))
    sum(w * abs(truth - estimate)) / sum(w)
  }
  cls <- list(truth = x$truth, estimate = x$estimate)
  list(
    accuracy = c(cls, list(metric = "accuracy")),
    balanced_accuracy = c(cls, list(
      metric = "balanced_accuracy", oracle_loss = x$loss
    )),
    f1 = c(cls, list(metric = "f1", oracle_loss = x$loss,
      min_coverage = 0.2
    )),
    mcc = c(cls, list(metric = "mcc", oracle_loss = x$loss,
      min_coverage = 0.2
    )),
    auroc = list(truth = x$y, estimate = x$p, metric = "auroc",
      min_coverage = 0.3
    ),
    brier = list(truth = x$y, estimate = x$p, metric = "brier"),
    rmse = list(truth = x$yr, estimate = x$yr_hat, metric = "rmse"),
    mae = list(truth = x$yr, estimate = x$yr_hat, metric = "mae"),
    user = list(truth = x$yr, estimate = x$yr_hat, metric = wmae,
      direction = "minimize", oracle_loss = abs(x$yr - x$yr_hat)
    )
  )
}

test_that("the estimates are selective_curve_area() exactly", {
  x <- curve_ci_data()
  for (nm in names(curve_ci_cases(x))) {
    args <- curve_ci_cases(x)[[nm]]
    for (w in list(NULL, x$w)) {
      a <- selective_curve_area(do.call(selective_curve_vec,
        c(list(score = x$score), args, list(case_weights = w))
      ))
      ci <- do.call(selective_curve_ci_vec, c(list(score = x$score), args,
        list(case_weights = w, times = 20, type = "normal")
      ))
      expect_identical(ci$.estimate[1], a$area, label = nm)
      expect_identical(ci$.estimate[2], a$excess, label = nm)
      expect_identical(ci$.estimator, c("area", "excess"))
    }
  }
  # classes as numbers (the event of F1 the smallest), not a factor
  tn <- as.integer(x$truth) - 1
  en <- as.integer(x$estimate) - 1
  for (m in c("accuracy", "balanced_accuracy", "f1", "mcc")) {
    a <- selective_curve_area(selective_curve_vec(x$score, tn, en,
      metric = m, min_coverage = 0.2, case_weights = x$w
    ))
    ci <- selective_curve_ci_vec(x$score, tn, en, metric = m,
      min_coverage = 0.2, case_weights = x$w, times = 20
    )
    expect_identical(ci$.estimate, c(a$area, a$excess), label = m)
  }
})

test_that("the replicates are the curves of the resampled rows", {
  x <- curve_ci_data(n = 60, seed = 2)
  n <- x$n
  n_rep <- 30
  for (weighted in c(FALSE, TRUE)) {
    w <- if (weighted) x$w else NULL
    m <- if (weighted) sum(x$w) else n
    set.seed(3)
    # frequency weights: each position one of the rows they stand for,
    # case i with probability w_i / sum(w)
    idx <- matrix(sample.int(n, m * n_rep, TRUE, prob = w), n_rep)
    for (nm in names(curve_ci_cases(x))) {
      args <- curve_ci_cases(x)[[nm]]
      ci <- do.call(selective_curve_ci_vec, c(list(score = x$score), args,
        list(case_weights = w, indices = idx)
      ))
      reps <- attr(ci, "replicates")
      # an independent loop: the drawn cases with their counts as case
      # weights, each replicate sorted and checked anew
      loop <- t(vapply(seq_len(n_rep), function(b) {
        cnt <- tabulate(idx[b, ], n)
        u <- which(cnt > 0)
        a <- suppressWarnings(selective_curve_area(do.call(
          selective_curve_vec,
          c(list(score = x$score[u]), lapply(args, function(v) {
            if (is.atomic(v) && length(v) == n) v[u] else v
          }), list(case_weights = cnt[u]))
        )))
        c(a$area, a$excess)
      }, numeric(2)))
      expect_equal(unname(reps), loop, tolerance = 1e-12, label = nm)
      # the resampled rows themselves (each case repeated): the same
      # area; the same excess where the oracle has tie groups
      rows <- t(vapply(seq_len(n_rep), function(b) {
        r <- idx[b, ]
        a <- suppressWarnings(selective_curve_area(do.call(
          selective_curve_vec,
          c(list(score = x$score[r]), lapply(args, function(v) {
            if (is.atomic(v) && length(v) == n) v[r] else v
          }))
        )))
        c(a$area, a$excess)
      }, numeric(2)))
      expect_equal(reps[, "area"], rows[, 1], tolerance = 1e-12, label = nm)
      if (!nm %in% c("accuracy", "brier", "rmse", "mae")) {
        expect_equal(reps[, "excess"], rows[, 2], tolerance = 1e-12,
          label = nm
        )
      }
      # the intervals from those replicates
      ok <- loop[is.finite(loop[, 1]), 1]
      expect_equal(ci$.lower[1], unname(stats::quantile(ok, 0.025)),
        tolerance = 1e-12, label = nm
      )
      expect_equal(ci$.upper[1], unname(stats::quantile(ok, 0.975)),
        tolerance = 1e-12, label = nm
      )
      expect_equal(ci$.std_error[1], stats::sd(ok), tolerance = 1e-12)
    }
  }
})

test_that("a function metric gets the counts as case_weights", {
  x <- curve_ci_data(n = 40, seed = 4)
  seen <- list()
  f <- function(truth, estimate, case_weights = NULL) {
    seen[[length(seen) + 1]] <<- case_weights
    mean(truth == estimate)
  }
  idx <- matrix(rep(c(1:20, 1:20), 2), 2, byrow = TRUE)
  selective_curve_ci_vec(x$score, x$truth, x$estimate, metric = f,
    indices = idx
  )
  # the estimate's calls have no weights, the replicates' the counts
  got <- unlist(lapply(seen, unique))
  expect_true(all(got == 2))
  expect_false(all(vapply(seen, is.null, logical(1))))
})

test_that("accuracy: the replicates of selective_ci() and its analytic SE", {
  x <- curve_ci_data(n = 400, seed = 5)
  set.seed(6)
  ci <- selective_curve_ci_vec(x$score, x$truth, x$estimate, times = 2000)
  set.seed(6)
  aurc <- selective_ci_vec(x$score, x$loss, metrics = "aurc",
    method = "bootstrap", times = 2000
  )
  # the area of accuracy is 1 - AURC ("alpha"): on the same draws every
  # replicate is one minus selective_ci()'s
  expect_equal(attr(ci, "replicates")[, "area"],
    1 - attr(aurc, "replicates")[, 1],
    tolerance = 1e-12
  )
  analytic <- selective_ci_vec(x$score, x$loss, metrics = "aurc")
  expect_equal(ci$.estimate[1], 1 - analytic$.estimate, tolerance = 1e-12)
  # the bootstrap SE within Monte Carlo error (2000 replicates: the SD of
  # an SD is about 1.6%) of the analytic one
  expect_equal(ci$.std_error[1], analytic$.std_error, tolerance = 0.08)
})

test_that("set.seed() reproduces the intervals; every type", {
  x <- curve_ci_data(n = 80, seed = 7)
  run <- function(type) {
    set.seed(8)
    selective_curve_ci_vec(x$score, x$truth, x$estimate, metric = "f1",
      oracle_loss = x$loss, min_coverage = 0.2, times = 200, type = type
    )
  }
  expect_identical(run("percentile"), run("percentile"))
  pc <- run("percentile")
  t <- attr(pc, "replicates")[, "area"]
  t0 <- pc$.estimate[1]
  expect_equal(run("basic")$.lower[1],
    2 * t0 - unname(stats::quantile(t, 0.975)), tolerance = 1e-12
  )
  nm <- run("normal")
  expect_equal(nm$.lower[1], t0 - stats::qnorm(0.975) * sd(t),
    tolerance = 1e-12
  )
  bca <- run("bca")
  expect_true(all(bca$.lower < bca$.estimate & bca$.estimate < bca$.upper))
  # the BCa acceleration from the jackknife by hand
  jack <- vapply(seq_len(x$n), function(i) {
    selective_curve_area(suppressWarnings(selective_curve_vec(
      x$score[-i], x$truth[-i], x$estimate[-i], metric = "f1",
      oracle_loss = x$loss[-i], min_coverage = 0.2
    )))$area
  }, numeric(1))
  infl <- (x$n - 1) * (mean(jack) - jack)
  a <- sum(infl^3) / (6 * sum(infl^2)^1.5)
  z0 <- stats::qnorm(mean(t < t0))
  z <- stats::qnorm(c(0.025, 0.975))
  adj <- stats::pnorm(z0 + (z0 + z) / (1 - a * (z0 + z)))
  # order statistics interpolated on the normal scale (Davison & Hinkley
  # Eq. 5.8)
  interp <- function(p) {
    ts <- sort(t)
    rk <- (length(t) + 1) * p
    k <- floor(rk)
    lo <- stats::qnorm(k / (length(t) + 1))
    hi <- stats::qnorm((k + 1) / (length(t) + 1))
    ts[k] + (stats::qnorm(p) - lo) / (hi - lo) * (ts[k + 1] - ts[k])
  }
  expect_equal(c(bca$.lower[1], bca$.upper[1]), interp(adj),
    tolerance = 1e-10
  )
})

test_that("strata, clusters and groups", {
  x <- curve_ci_data(n = 90, seed = 9)
  st <- rep(1:3, 30)
  set.seed(1)
  a <- selective_curve_ci_vec(x$score, x$truth, x$estimate, strata = st,
    times = 50
  )
  set.seed(1)
  b <- selective_ci_vec(x$score, x$loss, metrics = "aurc",
    method = "bootstrap", times = 50, strata = st
  )
  expect_equal(attr(a, "replicates")[, "area"],
    1 - attr(b, "replicates")[, 1], tolerance = 1e-12
  )
  cl <- rep(1:30, each = 3)
  set.seed(1)
  a <- selective_curve_ci_vec(x$score, x$truth, x$estimate, cluster = cl,
    times = 50
  )
  set.seed(1)
  b <- selective_ci_vec(x$score, x$loss, metrics = "aurc",
    method = "bootstrap", times = 50, cluster = cl
  )
  expect_equal(attr(a, "replicates")[, "area"],
    1 - attr(b, "replicates")[, 1], tolerance = 1e-12
  )
  df <- data.frame(s = x$score, t = x$truth, e = x$estimate,
    g = rep(c("u", "v"), 45)
  )
  gdf <- dplyr::group_by(df, g)
  got <- selective_curve_ci(gdf, s, t, e, metric = "mcc", times = 30,
    min_coverage = 0.3
  )
  expect_identical(got$g, c("u", "u", "v", "v"))
  one <- selective_curve_area(selective_curve_vec(df$s[df$g == "v"],
    df$t[df$g == "v"], df$e[df$g == "v"], metric = "mcc",
    min_coverage = 0.3
  ))
  expect_identical(got$.estimate[3], one$area)
  expect_true(is.na(got$.estimate[4]))
})

test_that("NA rows: dropped with na_rm, else a classed error", {
  x <- curve_ci_data(n = 50, seed = 10)
  s <- x$score
  s[3] <- NA
  expect_error(
    selective_curve_ci_vec(s, x$truth, x$estimate, times = 20),
    class = "aurc_error_missing"
  )
  st <- rep(1:2, 25)
  set.seed(2)
  a <- selective_curve_ci_vec(s, x$truth, x$estimate, times = 20,
    na_rm = TRUE, strata = st
  )
  set.seed(2)
  b <- selective_curve_ci_vec(s[-3], x$truth[-3], x$estimate[-3],
    times = 20, strata = st[-3]
  )
  expect_identical(a, b)
})

test_that("classed errors name the argument", {
  x <- curve_ci_data(n = 30, seed = 11)
  go <- function(...) {
    selective_curve_ci_vec(x$score, x$truth, x$estimate, times = 20, ...)
  }
  expect_error(go(type = "student"), class = "aurc_error_value",
    regexp = "type"
  )
  expect_error(go(conf_level = 1), regexp = "conf_level")
  expect_error(go(min_coverage = 2), regexp = "min_coverage")
  expect_error(go(metric = "auprc"), regexp = "metric")
  expect_error(go(strata = rep(NA, 30)), class = "aurc_error_value",
    regexp = "strata"
  )
  expect_error(go(cluster = 1:3), regexp = "cluster")
  expect_error(go(indices = matrix(0, 2, 30)), class = "aurc_error_value",
    regexp = "indices"
  )
  expect_error(go(indices = matrix(1, 2, 29)), class = "aurc_error_length",
    regexp = "indices"
  )
  expect_error(go(oracle_loss = x$loss), class = "aurc_error_value",
    regexp = "oracle_loss"
  )
  expect_error(go(foo = 1), class = "aurc_error_dots")
  expect_error(
    selective_curve_ci_vec(x$score, x$truth, x$estimate, times = 1),
    regexp = "times"
  )
  big <- curve_ci_data(n = 5001, seed = 1)
  expect_error(
    selective_curve_ci_vec(big$score, big$truth, big$estimate,
      type = "bca", times = 20
    ),
    class = "aurc_error_size"
  )
  df <- data.frame(s = x$score, t = x$truth, e = x$estimate)
  expect_error(compare_selective_curves(df, s, t, e, times = 20),
    class = "aurc_error_value", regexp = "scores"
  )
  expect_error(
    compare_selective_curves(df, c(s, s2), t, e, times = 20),
    regexp = "scores"
  )
  df$s2 <- -df$s
  expect_error(
    compare_selective_curves(df, c(s, s2), t, e, times = 20,
      p_adjust = "nope"
    ),
    regexp = "p_adjust"
  )
})

test_that("undefined replicates are left out with a classed warning", {
  # F1 from coverage 0: defined on the data (the first row is the event),
  # undefined in a replicate without the first row (a "b" comes first)
  truth <- factor(c("a", "b", "b", "b", "a", "b", "a", "a", "b", "a"),
    levels = c("a", "b")
  )
  set.seed(1)
  expect_warning(
    ci <- selective_curve_ci_vec(10:1, truth, truth, metric = "f1",
      times = 200
    ),
    class = "aurc_warning_bootstrap_undefined"
  )
  reps <- attr(ci, "replicates")[, "area"]
  expect_true(anyNA(reps))
  expect_equal(ci$.std_error[1], sd(reps, na.rm = TRUE))
})

test_that("the percentile interval covers in a small simulation", {
  skip_on_cran()
  # F1 of the event, accepted from coverage 0.2, on a population whose
  # area is computed from 2e5 rows
  draw <- function(n) {
    truth <- factor(sample(c("a", "b"), n, TRUE), levels = c("a", "b"))
    score <- runif(n)
    right <- runif(n) < 0.55 + 0.4 * score
    estimate <- factor(ifelse(right, as.character(truth),
      ifelse(truth == "a", "b", "a")
    ), levels = c("a", "b"))
    list(score = score, truth = truth, estimate = estimate)
  }
  set.seed(13)
  pop <- draw(2e5)
  target <- selective_curve_area(selective_curve_vec(pop$score, pop$truth,
    pop$estimate, metric = "f1", min_coverage = 0.2
  ))$area
  hits <- vapply(1:100, function(r) {
    d <- draw(150)
    ci <- selective_curve_ci_vec(d$score, d$truth, d$estimate,
      metric = "f1", min_coverage = 0.2, times = 150
    )
    ci$.lower[1] <= target && target <= ci$.upper[1]
  }, logical(1))
  # 95% intervals: 100 data sets give 0.95 +- 0.045 (two SDs)
  expect_gt(mean(hits), 0.85)
  expect_lte(mean(hits), 1)
})

test_that("hardhat weights: frequency as counts, importance resamples cases", {
  skip_if_not_installed("hardhat")
  x <- curve_ci_data(n = 60, seed = 14)
  set.seed(1)
  plain <- selective_curve_ci_vec(x$score, x$truth, x$estimate,
    case_weights = x$w, times = 50
  )
  set.seed(1)
  freq <- selective_curve_ci_vec(x$score, x$truth, x$estimate,
    case_weights = hardhat::frequency_weights(x$w), times = 50
  )
  expect_identical(plain, freq)
  set.seed(1)
  imp <- selective_curve_ci_vec(x$score, x$truth, x$estimate,
    case_weights = hardhat::importance_weights(x$w), times = 50
  )
  expect_identical(imp$.estimate, plain$.estimate)
  # the cases resampled, each with its weight times its count
  set.seed(1)
  aurc <- selective_ci_vec(x$score, x$loss, metrics = "aurc",
    method = "bootstrap", times = 50,
    case_weights = hardhat::importance_weights(x$w)
  )
  expect_equal(attr(imp, "replicates")[, "area"],
    1 - attr(aurc, "replicates")[, 1], tolerance = 1e-12
  )
  expect_error(
    selective_curve_ci_vec(x$score, x$truth, x$estimate,
      case_weights = hardhat::importance_weights(x$w),
      indices = matrix(1L, 2, 60)
    ),
    class = "aurc_error_value", regexp = "indices"
  )
})

test_that("compare_selective_curves(): the same draws for every score", {
  x <- curve_ci_data(n = 80, seed = 15)
  n <- x$n
  df <- data.frame(truth = x$truth, estimate = x$estimate,
    good = x$score, poor = x$score + runif(n, -0.5, 0.5), loss = x$loss
  )
  df$same <- df$good
  set.seed(3)
  idx <- matrix(sample.int(n, n * 40, TRUE), 40)
  cmp <- compare_selective_curves(df, c(good, poor, same), truth, estimate,
    metric = "mcc", oracle_loss = loss, min_coverage = 0.2, indices = idx,
    p_adjust = "none"
  )
  expect_s3_class(cmp, "aurc_curve_comparison")
  expect_named(cmp$tests, c(
    "score_a", "score_b", "estimate_a", "estimate_b", "difference",
    "lower", "upper", "std_error", "statistic", "p_value", "p_adjusted"
  ))
  loop <- vapply(c("good", "poor"), function(col) {
    vapply(seq_len(40), function(b) {
      r <- idx[b, ]
      selective_curve_area(suppressWarnings(selective_curve_vec(
        df[[col]][r], df$truth[r], df$estimate[r], metric = "mcc",
        min_coverage = 0.2
      )))$area
    }, numeric(1))
  }, numeric(40))
  one <- selective_curve_ci_vec(df$good, df$truth, df$estimate,
    metric = "mcc", oracle_loss = df$loss, min_coverage = 0.2, indices = idx
  )
  expect_identical(cmp$estimates$estimate[1], one$.estimate[1])
  expect_identical(cmp$estimates$lower[1], one$.lower[1])
  d <- loop[, 1] - loop[, 2]
  t1 <- cmp$tests[1, ]
  expect_equal(t1$difference, t1$estimate_a - t1$estimate_b)
  expect_equal(t1$lower, unname(stats::quantile(d, 0.025)),
    tolerance = 1e-12
  )
  expect_equal(t1$std_error, sd(d), tolerance = 1e-12)
  expect_equal(t1$p_value,
    min(1, 2 * min(1 + sum(d <= 0), 1 + sum(d >= 0)) / 41)
  )
  # identical scores: no difference, p = 1
  t3 <- cmp$tests[cmp$tests$score_a == "good" & cmp$tests$score_b == "same", ]
  expect_identical(c(t3$difference, t3$p_value, t3$statistic), c(0, 1, 0))
  expect_output(print(cmp), "Paired comparison of 3 selective-curve areas")
  # grouped
  df$g <- rep(c("u", "v"), 40)
  got <- compare_selective_curves(dplyr::group_by(df, g), c(good, poor),
    truth, estimate, times = 20, type = "normal"
  )
  expect_identical(got$tests$g, c("u", "v"))
})

test_that("the C++ running AUROC refuses bad input instead of crashing", {
  impl <- getFromNamespace("running_auroc_impl", "aurc")
  expect_error(impl(c(1, 0), c(1L, 5L), c(1, 1), 2L, 2L), "rank")
  expect_error(impl(c(1, 0), c(1L, NA), c(1, 1), 2L, 2L), "rank")
  expect_error(impl(c(1, 0), c(1L, 2L), c(1, 1), 3L, 2L), "ends")
  expect_error(impl(c(1, 0), c(1L, 2L), c(1, 1), c(2L, 1L), 2L), "ends")
  expect_error(impl(c(1, 0), 1L, c(1, 1), 2L, 2L), "length")
  # by hand: positives at estimates 0.9, 0.4, negatives at 0.6, 0.4 (a
  # tie); with all four rows the pairs 0.9 over 0.6 and 0.4 count 1 each,
  # 0.4 under 0.6 counts 0, the tie one half: 2.5 of 4 pairs
  expect_equal(impl(c(1, 0, 1, 0), c(3L, 2L, 1L, 1L), rep(1, 4), c(2L, 4L),
    3L
  ), c(1, 2.5 / 4))
})
