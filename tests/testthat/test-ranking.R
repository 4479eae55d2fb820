test_that("signed-rank p-values equal stats::wilcox.test in both regimes", {
  set.seed(101)
  n_exact <- 0
  n_normal <- 0
  for (it in seq_len(test_grid(60, 150))) {
    m <- sample(c(3:60, 120), 1)
    x <- switch(it %% 3 + 1,
      stats::rnorm(m),
      round(stats::rnorm(m) * 3) / 2, # ties among |d|
      stats::rnorm(m)
    )
    y <- if (it %% 3 == 1) round(stats::rnorm(m) * 3) / 2 else stats::rnorm(m)
    if (it %% 5 == 0) y[seq_len(min(3, m))] <- x[seq_len(min(3, m))] # zeros
    for (alt in c("less", "greater", "two.sided")) {
      for (cr in c(FALSE, TRUE)) {
        got <- signed_rank_test_impl(x, y, alt, cr)
        if (all(x == y)) { # R gives NaN here; DEFINITIONS Sec. 7 says p = 1
          expect_identical(got$p_value, 1)
          next
        }
        ref <- suppressWarnings(stats::wilcox.test(x, y,
          paired = TRUE, alternative = alt, correct = cr
        ))
        if (got$exact) n_exact <- n_exact + 1 else n_normal <- n_normal + 1
        expect_identical(got$statistic, unname(ref$statistic))
        expect_equal(got$p_value, ref$p.value, tolerance = 1e-10)
      }
    }
  }
  expect_gt(n_exact, 20)
  expect_gt(n_normal, 20)
})

test_that("identical columns give p = 1, missing pairs are dropped", {
  x <- c(0.1, 0.2, 0.3)
  expect_identical(signed_rank_test_impl(x, x, "less", FALSE)$p_value, 1)
  rk <- rank_replicates(cbind(a = x, b = x))
  expect_identical(rk$tests$p_value, c(1, 1))
  x <- c(1, 2, NA, 4, 7)
  y <- c(2, 1, 3, 6, 3)
  expect_equal(
    signed_rank_test_impl(x, y, "less", FALSE)$p_value,
    suppressWarnings(stats::wilcox.test(x, y,
      paired = TRUE, alternative = "less",
      correct = FALSE
    )$p.value),
    tolerance = 1e-12
  )
})

test_that("rank_replicates: tests and adjustment equal stats, every pair", {
  set.seed(102)
  for (B in c(30, 200)) {
    v <- matrix(round(stats::rnorm(B * 4, rep(c(0, 0.05, 0.1, 0.1), each = B),
      sd = 0.3
    ), 1), B, 4, dimnames = list(NULL, c("w", "x", "y", "z")))
    for (adj in c("holm", "none", "BH", "bonferroni", "hommel")) {
      for (dir in c("lower", "higher")) {
        rk <- rank_replicates(v, direction = dir, p_adjust = adj,
          continuity = B == 30)
        tt <- rk$tests
        expect_identical(nrow(tt), 12L)
        alt <- if (dir == "lower") "less" else "greater"
        ref <- mapply(function(i, j) {
          suppressWarnings(stats::wilcox.test(v[, i], v[, j],
            paired = TRUE,
            alternative = alt, correct = B == 30
          )$p.value)
        }, tt$method, tt$versus)
        expect_equal(tt$p_value, unname(ref), tolerance = 1e-10)
        expect_equal(tt$p_adjusted, stats::p.adjust(unname(ref), adj),
          tolerance = 1e-10
        )
        expect_identical(tt$significant, tt$p_adjusted <= 0.05)
      }
    }
  }
})

test_that("hand-computed ranking: ranks, ties, order, frequencies", {
  # lower is better; replicate ranks with ties = "min":
  #   r1: a=1 b=2 c=2   r2: a=2 b=1 c=3   r3: a=1 b=2 c=3
  v <- cbind(a = c(1, 5, 1), b = c(2, 4, 2), c = c(2, 6, 3))
  rk <- rank_replicates(v, full_values = c(a = 1, b = 2, c = 3))
  r <- rk$ranking
  expect_identical(r$method, c("a", "b", "c"))
  expect_equal(r$mean_rank, c(4 / 3, 5 / 3, 8 / 3))
  expect_equal(r$median_rank, c(1, 2, 3))
  expect_equal(r$full_value, c(1, 2, 3))
  f <- rk$rank_frequencies
  expect_equal(f$n[f$method == "c"], c(0, 1, 2))
  expect_equal(f$proportion[f$method == "a"], c(2, 1, 0) / 3)
  # Kendall tau-b against the full ranking (1, 2, 3): replicate 1 has a tie
  expect_equal(rk$kendall$tau, c(
    literal_kendall_tau_b(c(1, 2, 2), 1:3),
    literal_kendall_tau_b(c(2, 1, 3), 1:3), 1
  ))
  # ties = "average" and higher is better:
  #   r1: b = c = 1.5, a = 3   r2: c = 1, a = 2, b = 3   r3: c = 1, b = 2, a = 3
  rk2 <- rank_replicates(v, direction = "higher", ties = "average")
  expect_identical(rk2$ranking$method, c("c", "b", "a"))
  expect_equal(rk2$ranking$mean_rank, c(
    (1.5 + 1 + 1) / 3, (1.5 + 3 + 2) / 3, (3 + 2 + 3) / 3
  ))
  # equal mean rank: the median rank decides
  w <- cbind(p = c(1, 1, 3, 1), q = c(2, 2, 1, 2), r = c(3, 3, 2, 3))
  # p: ranks 1,1,3,1 mean 1.5 median 1; q: 2,2,1,2 mean 1.75
  rk3 <- rank_replicates(w)
  expect_identical(rk3$ranking$method, c("p", "q", "r"))
})

test_that("rank_replicates takes a long table with metrics and groups", {
  set.seed(103)
  long <- expand.grid(
    replicate = 1:25, method = c("m1", "m2", "m3"),
    metric = c("aurc", "failure_auroc"), group = c("g1", "g2"),
    stringsAsFactors = FALSE
  )
  long$value <- stats::runif(nrow(long))
  rk <- rank_replicates(long,
    direction = c(aurc = "lower", failure_auroc = "higher")
  )
  expect_identical(names(rk$ranking)[1:2], c("group", "metric"))
  expect_identical(nrow(rk$tests), 2L * 2L * 6L)
  sub <- long[long$group == "g2" & long$metric == "failure_auroc", ]
  m <- matrix(sub$value, 25, dimnames = list(NULL, c("m1", "m2", "m3")))
  one <- rank_replicates(m, direction = "higher", metric = "failure_auroc")
  both <- rk$tests[rk$tests$group == "g2" &
    rk$tests$metric == "failure_auroc", ]
  expect_equal(both$p_adjusted, one$tests$p_adjusted)
  expect_identical(rk$settings$kendall_reference, "consensus")
})

test_that("replicate values equal the metrics on the data rebuilt in R", {
  set.seed(104)
  d <- ranking_data(n = 30, runs = 2, grid = 0.5)
  cases <- sort(unique(d$case))
  idx <- matrix(sample.int(30, 30 * 4, replace = TRUE), 4)
  idx[1, ] <- rep(1:3, 10) # heavy duplicates
  metrics <- c(
    "aurc", "aurc_alpha_prime", "aurc_sele", "aurc_2sele", "aurc_trapezoid",
    "augrc", "augrc_step", "failure_auroc"
  )
  rk <- bootstrap_ranking(d, method, case, score, loss,
    run = run,
    metrics = metrics, indices = idx
  )
  ref_metric <- function(metric, s, l) {
    switch(metric,
      augrc = literal_ranking_augrc(s, l),
      augrc_step = literal_ranking_augrc_step(s, l),
      failure_auroc = literal_ranking_failure_auroc(s, l),
      aurc_vec(s, l, estimator = if (metric == "aurc") "alpha" else
        sub("aurc_", "", metric))
    )
  }
  for (metric in metrics) {
    for (m in c("a", "c")) {
      for (b in c(1, 4)) {
        per_run <- vapply(1:2, function(r) {
          rows <- d[d$method == m & d$run == r, ]
          rows <- rows[order(rows$case), ]
          rows <- rows[idx[b, ], ] # the replicate, duplicates included
          ref_metric(metric, rows$score, rows$loss)
        }, numeric(1))
        got <- rk$replicates$value[rk$replicates$metric == metric &
          rk$replicates$method == m & rk$replicates$replicate == b]
        expect_rel_equal(got, mean(per_run))
      }
      full <- vapply(1:2, function(r) {
        rows <- d[d$method == m & d$run == r, ]
        ref_metric(metric, rows$score, rows$loss)
      }, numeric(1))
      got <- rk$ranking$full_value[rk$ranking$metric == metric &
        rk$ranking$method == m]
      expect_rel_equal(got, mean(full))
    }
  }
  expect_identical(rk$settings$higher_better, metrics == "failure_auroc")
})

test_that("set.seed reproduces the draws; 1 and 2 threads agree", {
  set.seed(105)
  d <- ranking_data(n = 50)
  set.seed(7)
  r1 <- bootstrap_ranking(d, method, case, score, loss, times = 20)
  set.seed(7)
  r2 <- bootstrap_ranking(d, method, case, score, loss,
    times = 20,
    threads = 2
  )
  expect_identical(r1[1:5], r2[1:5])
  # the documented draws: sample.int(n, n, replace = TRUE) per replicate
  set.seed(7)
  idx <- t(vapply(1:20, function(b) sample.int(50, 50, replace = TRUE),
    integer(50)))
  r3 <- bootstrap_ranking(d, method, case, score, loss, indices = idx)
  expect_identical(r1$replicates, r3$replicates)
  expect_identical(r1$tests, r3$tests)
})

test_that("stratified draws follow the documented procedure", {
  set.seed(106)
  d <- ranking_data(n = 24)
  d$site <- ifelse(d$case <= 10, "x", "y")
  set.seed(8)
  rk <- bootstrap_ranking(d, method, case, score, loss,
    strata = site,
    times = 5
  )
  set.seed(8)
  idx <- t(vapply(1:5, function(b) {
    c((1:10)[sample.int(10, 10, replace = TRUE)],
      (11:24)[sample.int(14, 14, replace = TRUE)])
  }, integer(24)))
  ref <- bootstrap_ranking(d, method, case, score, loss, indices = idx)
  expect_identical(rk$replicates, ref$replicates)
  expect_true(rk$settings$stratified)
})

test_that("row order and case labels do not matter; groups are separate", {
  set.seed(107)
  d <- ranking_data(n = 20, runs = 2)
  idx <- matrix(sample.int(20, 20 * 6, replace = TRUE), 6)
  ref <- bootstrap_ranking(d, method, case, score, loss,
    run = run,
    indices = idx
  )
  shuffled <- d[sample(nrow(d)), ]
  shuffled$case <- sprintf("id%03d", shuffled$case) # sorts the same way
  got <- bootstrap_ranking(shuffled, method, case, score, loss,
    run = run, indices = idx
  )
  expect_identical(got$replicates, ref$replicates)
  expect_identical(got$tests, ref$tests)
  d2 <- ranking_data(n = 15)
  both <- rbind(
    cbind(d[d$run == 1, ], ds = "one"),
    cbind(d2, ds = "two")
  )
  idx2 <- matrix(sample.int(15, 15 * 6, replace = TRUE), 6)
  g <- bootstrap_ranking(both, method, case, score, loss,
    group = ds,
    indices = list(two = idx2, one = idx)
  )
  alone <- bootstrap_ranking(d2, method, case, score, loss, indices = idx2)
  sub <- g$tests[g$tests$group == "two", -1]
  expect_identical(sub, alone$tests)
  expect_identical(names(g$replicates), c(
    "group", "replicate", "method", "metric", "value"
  ))
})

test_that("metrics: names, own functions, directions", {
  set.seed(108)
  d <- ranking_data(n = 25, binary = FALSE)
  idx <- matrix(sample.int(25, 25 * 8, replace = TRUE), 8)
  rk <- bootstrap_ranking(d, method, case, score, loss,
    metrics = list("aurc", mine = function(score, loss) aurc_vec(score, loss),
      neg = list(
        fn = function(score, loss) -aurc_vec(score, loss),
        direction = "higher"
      )
    ),
    indices = idx
  )
  v <- split(rk$replicates$value, rk$replicates$metric)
  expect_equal(v$mine, v$aurc, tolerance = 1e-14)
  expect_equal(v$neg, -v$aurc, tolerance = 1e-14)
  r <- split(rk$ranking$method, rk$ranking$metric)
  expect_identical(r$neg, r$aurc)
  p <- split(rk$tests$p_value, rk$tests$metric)
  expect_equal(p$neg, p$aurc, tolerance = 1e-12)
  expect_identical(rk$settings$metrics, c("aurc", "mine", "neg"))
})

test_that("print, summary and as.data.frame", {
  set.seed(109)
  d <- ranking_data(n = 30)
  set.seed(9)
  rk <- bootstrap_ranking(d, method, case, score, loss, times = 30)
  expect_snapshot(print(rk))
  s <- summary(rk)
  expect_identical(names(s), c(
    "metric", "method", "rank", "mean_rank", "median_rank", "full_value",
    "p_first", "beats", "beaten_by", "mean_kendall_tau"
  ))
  expect_equal(sum(s$beats), sum(rk$tests$significant))
  expect_equal(sum(s$p_first[s$metric == "aurc"]), 1)
  expect_identical(names(as.data.frame(rk)), c(
    "metric", "method", "rank", "mean_rank", "median_rank", "full_value"
  ))
  expect_identical(names(as.data.frame(rk, what = "tests")), c(
    "metric", "method", "versus", "statistic", "p_value", "p_adjusted",
    "significant"
  ))
  expect_identical(names(as.data.frame(rk, what = "replicates")), c(
    "replicate", "method", "metric", "value"
  ))
  expect_s3_class(as.data.frame(rk), "data.frame")
})

test_that("p-values shrink as the number of replicates grows", {
  set.seed(110)
  d <- ranking_data(n = 60)
  set.seed(10)
  small <- bootstrap_ranking(d, method, case, score, loss,
    metrics = "augrc",
    times = 20
  )
  set.seed(10)
  large <- bootstrap_ranking(d, method, case, score, loss,
    metrics = "augrc",
    times = 200
  )
  best <- function(rk) min(rk$tests$p_value)
  expect_lt(best(large), best(small))
})

test_that("an absurd thread count is capped, not passed to OpenMP", {
  d <- ranking_data(n = 8, methods = c("a", "b"))
  expect_message(
    rk <- bootstrap_ranking(d, method, case, score, loss, times = 5,
      threads = 1e9
    ),
    class = "aurc_message_threads"
  )
  expect_lte(rk$settings$threads, parallel::detectCores())
})

test_that("bad input gives classed errors", {
  set.seed(111)
  d <- ranking_data(n = 6, methods = c("a", "b"), runs = 2)
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d[-3, ], method, case, score, loss, run = run)
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(rbind(d, d[1, ]), method, case, score, loss, run = run)
  })
  bad <- d
  bad$score[2] <- NA
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(bad, method, case, score, loss)
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, metrics = "auc")
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss,
      metrics = list(function(s, l) 1)
    )
  })
  d2 <- d
  d2$loss <- d2$loss + 0.5
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d2, method, case, score, loss, metrics = "failure_auroc")
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, run = run,
      indices = matrix(7L, 2, 6))
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, run = run,
      indices = matrix(1L, 2, 5))
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, run = run, times = 3,
      indices = matrix(1L, 2, 6))
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, times = 0)
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, p_adjust = "sidak")
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score, loss, alpha = 2)
  })
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d, method, case, score)
  })
  expect_snapshot(error = TRUE, rank_replicates(matrix(1:4, 2)))
  expect_snapshot(error = TRUE, rank_replicates(list(1)))
  expect_snapshot(error = TRUE, {
    rank_replicates(data.frame(replicate = 1, method = "a", value = 1,
      metric = "m"), direction = c(other = "lower"))
  })
  expect_snapshot(error = TRUE, {
    rank_replicates(data.frame(replicate = c(1, 1, 2), method = "a",
      value = 1))
  })
  expect_snapshot(error = TRUE, rank_replicates(cbind(a = 1, b = 2), 3))
})

test_that("a metric missing in some replicates warns", {
  # failure AUROC needs both classes: one failure among 8 cases
  d <- data.frame(
    method = rep(c("a", "b"), each = 8), case = rep(1:8, 2),
    score = c(8:1, 1:8), loss = rep(c(rep(0, 7), 1), 2)
  )
  idx <- rbind(1:8, rep(1L, 8), c(1:7, 8L))
  expect_snapshot({
    rk <- bootstrap_ranking(d, method, case, score, loss,
      metrics = "failure_auroc", indices = idx
    )
  })
  expect_true(all(is.na(rk$replicates$value[rk$replicates$replicate == 2])))
  expect_identical(rk$ranking$method, c("a", "b"))
})

# ---- failure_aupr, eaurc, eaugrc, naurc in the kernel (issue 5b) -----------

# The replicate value of `metric` for method `m`, replicate `b`, and the
# reference: the package's `_vec` metric on the replicate rebuilt in R
# (`rows[idx[b, ], ]`, duplicates included), averaged over the runs.
ranking_vec_reference <- function(d, idx, metric, m, b, runs) {
  fn <- switch(metric,
    failure_aupr = failure_aupr_vec, eaurc = eaurc_vec,
    eaugrc = eaugrc_vec, naurc = naurc_vec
  )
  mean(vapply(runs, function(r) {
    rows <- d[d$method == m & d$run == r, ]
    rows <- rows[order(rows$case), ]
    if (!is.null(b)) rows <- rows[idx[b, ], ]
    fn(rows$score, rows$loss)
  }, numeric(1)))
}

test_that("kernel failure_aupr/eaurc/eaugrc/naurc equal _vec on rebuilt data", {
  set.seed(112)
  d <- ranking_data(n = 30, runs = 2, grid = 0.5) # ties in the score
  truth <- d$loss[d$method == "a" & d$run == 1][order(d$case[
    d$method == "a" & d$run == 1
  ])]
  idx <- matrix(sample.int(30, 30 * 5, replace = TRUE), 5)
  # heavy duplicates, both classes present
  idx[1, ] <- rep(c(which(truth == 1)[1], which(truth == 0)[1:2]), 10)
  metrics <- c("failure_aupr", "eaurc", "eaugrc", "naurc")
  rk <- bootstrap_ranking(d, method, case, score, loss,
    run = run, metrics = metrics, indices = idx
  )
  for (metric in metrics) {
    for (m in c("a", "b", "c")) {
      for (b in c(1, 2, 5)) {
        got <- rk$replicates$value[rk$replicates$metric == metric &
          rk$replicates$method == m & rk$replicates$replicate == b]
        # (the random scores may rank the losses backwards: warned)
        expect_rel_equal(got, suppressWarnings(
          ranking_vec_reference(d, idx, metric, m, b, 1:2),
          classes = "aurc_warning_direction"
        ))
      }
      got <- rk$ranking$full_value[rk$ranking$metric == metric &
        rk$ranking$method == m]
      expect_rel_equal(got, ranking_vec_reference(d, idx, metric, m, NULL, 1:2))
    }
  }
  # directions from the registry, as each metric's documentation says
  expect_identical(rk$settings$higher_better, c(TRUE, FALSE, FALSE, FALSE))
  e <- rk$replicates$value[rk$replicates$metric == "eaurc"]
  expect_true(all(e >= -1e-15)) # exact optimum: never negative
})

test_that("kernel eaurc and naurc with a continuous loss with ties", {
  set.seed(113)
  d <- ranking_data(n = 25, runs = 2, binary = FALSE)
  d$loss <- round(d$loss * 4) / 4 # ties in the loss, also across cases
  expect_gt(anyDuplicated(d$loss[d$method == "a" & d$run == 1]), 0)
  idx <- matrix(sample.int(25, 25 * 6, replace = TRUE), 6)
  idx[1, ] <- c(rep(1:2, 12), 3L)
  metrics <- c("eaurc", "naurc", "aurc")
  rk <- bootstrap_ranking(d, method, case, score, loss,
    run = run, metrics = metrics, indices = idx
  )
  for (metric in c("eaurc", "naurc")) {
    for (m in c("a", "c")) {
      for (b in c(1, 3, 6)) {
        got <- rk$replicates$value[rk$replicates$metric == metric &
          rk$replicates$method == m & rk$replicates$replicate == b]
        # (the random scores may rank the losses backwards: warned)
        expect_rel_equal(got, suppressWarnings(
          ranking_vec_reference(d, idx, metric, m, b, 1:2),
          classes = "aurc_warning_direction"
        ))
      }
      got <- rk$ranking$full_value[rk$ranking$metric == metric &
        rk$ranking$method == m]
      expect_rel_equal(got, ranking_vec_reference(d, idx, metric, m, NULL, 1:2))
    }
  }
  # the oracle metrics do not change the others
  alone <- bootstrap_ranking(d, method, case, score, loss,
    run = run, metrics = "aurc", indices = idx
  )
  expect_identical(
    rk$replicates[rk$replicates$metric == "aurc", ], alone$replicates
  )
})

test_that("kernel oracle metrics: 1 and 2 threads agree; naurc undefined", {
  set.seed(114)
  d <- ranking_data(n = 40, binary = FALSE)
  d$loss <- round(d$loss * 2) / 2
  idx <- matrix(sample.int(40, 40 * 19, replace = TRUE), 19) # not whole blocks
  metrics <- c("failure_aupr", "eaurc", "eaugrc", "naurc")
  m_cont <- c("eaurc", "naurc")
  r1 <- bootstrap_ranking(d, method, case, score, loss,
    metrics = m_cont, indices = idx, threads = 1
  )
  r2 <- bootstrap_ranking(d, method, case, score, loss,
    metrics = m_cont, indices = idx, threads = 2
  )
  expect_identical(r1$replicates, r2$replicates)
  d$loss <- as.numeric(d$loss > 1.5)
  b1 <- bootstrap_ranking(d, method, case, score, loss,
    metrics = metrics, indices = idx, threads = 1
  )
  b2 <- bootstrap_ranking(d, method, case, score, loss,
    metrics = metrics, indices = idx, threads = 2
  )
  expect_identical(b1$replicates, b2$replicates)
  expect_identical(b1$tests, b2$tests)
  # every loss equal in a replicate: NAURC is missing there, E-AURC is 0
  same <- data.frame(
    method = rep(c("a", "b"), each = 4), case = rep(1:4, 2),
    score = c(4:1, 1:4), loss = rep(c(0.5, 0.5, 0.5, 2), 2)
  )
  one <- rbind(1:4, rep(1L, 4), c(1L, 2L, 2L, 3L))
  expect_snapshot({
    rk <- bootstrap_ranking(same, method, case, score, loss,
      metrics = c("naurc", "eaurc"), indices = one
    )
  })
  v <- rk$replicates
  expect_true(all(is.na(v$value[v$metric == "naurc" & v$replicate > 1])))
  expect_identical(v$value[v$metric == "eaurc" & v$replicate > 1], rep(0, 4))
})

test_that("the four metrics run in the kernel, not the R fallback", {
  metrics <- c("failure_aupr", "eaurc", "eaugrc", "naurc")
  # the registry is the one table of directions and binary flags
  specs <- ranking_metric_specs(metrics)
  expect_identical(
    vapply(specs, function(s) s$higher_better, logical(1)),
    c(TRUE, FALSE, FALSE, FALSE)
  )
  expect_identical(
    vapply(specs, function(s) s$binary, logical(1)),
    c(TRUE, FALSE, TRUE, FALSE)
  )
  expect_true(all(vapply(specs, function(s) s$kernel, logical(1))))
  expect_true(all(vapply(specs, function(s) is.null(s$fn), logical(1))))
  # the kernel entry point computes them directly
  set.seed(115)
  d <- ranking_data(n = 12, methods = "a")
  idx <- matrix(sample.int(12, 12 * 3, replace = TRUE), 3)
  rk <- bootstrap_ranking(d, method, case, score, loss,
    metrics = metrics, indices = idx
  )
  direct <- ranking_kernel_values(
    matrix(d$score), matrix(d$loss), t(idx), specs, 1L
  )
  expect_identical(rk$replicates$value, as.vector(direct))
  # a replicate with one class: the kernel gives one ranking warning, not
  # the per-replicate warnings failure_aupr_vec() would give
  d1 <- data.frame(
    method = rep(c("a", "b"), each = 6), case = rep(1:6, 2),
    score = c(6:1, 1:6), loss = rep(c(0, 0, 0, 0, 0, 1), 2)
  )
  expect_snapshot({
    rk1 <- bootstrap_ranking(d1, method, case, score, loss,
      metrics = c("failure_aupr", "eaugrc"),
      indices = rbind(1:6, rep(2L, 6))
    )
  })
  v <- rk1$replicates
  expect_true(all(is.na(v$value[v$metric == "failure_aupr" &
    v$replicate == 2])))
  expect_identical(v$value[v$metric == "eaugrc" & v$replicate == 2], c(0, 0))
})

test_that("`correct` names the correctness column; the old flag still works", {
  set.seed(120)
  d <- ranking_data(n = 30, methods = c("a", "b"))
  idx <- matrix(sample.int(30, 30 * 5, replace = TRUE), 5)
  by_loss <- bootstrap_ranking(d, method, case, score, loss, indices = idx)
  d$ok <- 1 - d$loss
  by_correct <- bootstrap_ranking(d, method, case, score, correct = ok,
    indices = idx)
  expect_identical(by_correct$replicates, by_loss$replicates)
  expect_error(bootstrap_ranking(d, method, case, score, loss, correct = ok,
    indices = idx), class = "aurc_error_value")
  d$half <- replace(d$ok, 1, 0.5)
  expect_error(bootstrap_ranking(d, method, case, score, correct = half,
    indices = idx), class = "aurc_error_value")
  expect_warning(old <- bootstrap_ranking(d, method, case, score, loss,
    indices = idx, correct = TRUE), class = "aurc_warning_deprecated")
  expect_identical(old$tests,
    bootstrap_ranking(d, method, case, score, loss, indices = idx,
      continuity = TRUE)$tests)
  expect_true(old$settings$correct)
  v <- cbind(a = 1:5 / 10, b = c(2, 1, 4, 3, 6) / 10)
  expect_warning(r1 <- rank_replicates(v, correct = TRUE),
    class = "aurc_warning_deprecated")
  expect_identical(r1$tests, rank_replicates(v, continuity = TRUE)$tests)
})
