# metric_with(): a metric with its options bound, in selective_metrics()
# and bootstrap_ranking(); metric_info(): the catalog users read (issue 33).

test_that("metric_with() validates the metric and its options", {
  m <- metric_with("partial_aurc", coverage_range = c(0, 0.5))
  expect_s3_class(m, "aurc_metric")
  expect_identical(m$metric, "partial_aurc")
  expect_identical(m$options$coverage_range, c(0, 0.5))
  expect_identical(m$name, "partial_aurc[coverage=0-0.5]")
  expect_identical(metric_with("aurc")$name, "aurc")
  expect_identical(metric_with("aurc", estimator = "sele", .name = "s")$name,
    "s")
  expect_output(print(m), "coverage_range: 0.0, 0.5|coverage_range: 0, 0.5")
  expect_error(metric_with("auc"), class = "aurc_error_value")
  expect_error(metric_with(1), class = "aurc_error_type")
  expect_error(metric_with("ece"), class = "aurc_error_value")
  expect_error(metric_with("aurc", coverage = 0.5), class = "aurc_error_value")
  expect_error(metric_with("aurc", "sele"), class = "aurc_error_value")
  expect_error(metric_with("partial_aurc"), class = "aurc_error_missing")
  expect_error(metric_with("partial_aurc", coverage_range = c(0.6, 0.2)),
    class = "aurc_error"
  )
  expect_error(metric_with("aurc", estimator = "beta"), class = "aurc_error")
  expect_error(metric_with("aurc", .name = ""), class = "aurc_error_type")
  err <- tryCatch(metric_with("partial_aurc"), error = identity)
  expect_match(conditionMessage(err), "coverage_range")
})

test_that("selective_metrics() takes two coverage ranges in one call", {
  set.seed(21)
  s <- round(runif(80), 1)
  l <- rbinom(80, 1, 1 - s) * round(rexp(80), 1)
  w <- runif(80, 0.5, 2)
  res <- selective_metrics_vec(s, l, metrics = list(
    "aurc",
    metric_with("partial_aurc", coverage_range = c(0, 0.5)),
    metric_with("partial_aurc", coverage_range = c(0.5, 1)),
    sele = metric_with("aurc", estimator = "sele")
  ), case_weights = w)
  expect_identical(res$.metric, c("aurc", "partial_aurc", "partial_aurc",
    "sele"))
  expect_identical(res$.estimator, c("alpha", "coverage=0-0.5",
    "coverage=0.5-1", "sele"))
  expect_equal(res$.estimate, c(
    aurc_vec(s, l, case_weights = w),
    partial_aurc_vec(s, l, coverage_range = c(0, 0.5), case_weights = w),
    partial_aurc_vec(s, l, coverage_range = c(0.5, 1), case_weights = w),
    aurc_vec(s, l, estimator = "sele", case_weights = w)
  ), tolerance = 1e-14)
  # a tiny case by hand: scores 4 > 3 > 2 > 1 with losses 0, 1, 0, 1. In
  # accepted counts u (coverage u / 4) the selective risk is 0 up to u = 1,
  # then (u - 1) / u, 1 / u, (u - 2) / u on [1, 2], [2, 3], [3, 4]
  # (?partial_aurc_vec); the areas over coverage are a quarter of those
  # over u
  res <- selective_metrics_vec(4:1, c(0, 1, 0, 1), metrics = list(
    metric_with("partial_aurc", coverage_range = c(0, 0.5)),
    metric_with("partial_aurc", coverage_range = c(0.5, 1))
  ))
  expect_equal(res$.estimate, c(
    (1 - log(2)) / 4,
    (log(3 / 2) + 1 - 2 * log(4 / 3)) / 4
  ), tolerance = 1e-14)
  # the same with a grouped data frame, each group as its own vector
  skip_if_not_installed("dplyr")
  df <- data.frame(g = rep(1:2, 40), s = s, l = l)
  got <- selective_metrics(dplyr::group_by(df, g), s, l, metrics = list(
    metric_with("partial_aurc", coverage_range = c(0, 0.5)), "augrc"
  ))
  for (g in 1:2) {
    i <- df$g == g
    expect_equal(got$.estimate[got$g == g], c(
      partial_aurc_vec(s[i], l[i], coverage_range = c(0, 0.5)),
      augrc_vec(s[i], l[i])
    ), tolerance = 1e-14)
  }
  expect_error(selective_metrics_vec(s, l, metrics = list(
    metric_with("partial_aurc", coverage_range = c(0, 0.5)),
    metric_with("partial_aurc", coverage_range = c(0, 0.5))
  )), class = "aurc_error_value")
  expect_error(selective_metrics_vec(s, l, metrics = list("aurc", 3)),
    class = "aurc_error_value"
  )
})

test_that("bootstrap_ranking() takes every registry metric, options bound", {
  set.seed(22)
  n <- 60
  d <- data.frame(
    method = rep(c("a", "b"), each = n), case = rep(seq_len(n), 2),
    score = round(runif(2 * n), 1), loss = rbinom(2 * n, 1, 0.35)
  )
  idx <- matrix(sample.int(n, n * 4, replace = TRUE), 4)
  metrics <- list(
    low = metric_with("partial_aurc", coverage_range = c(0, 0.5)),
    metric_with("partial_augrc", coverage_range = c(0.25, 1)),
    metric_with("risk_at_coverage", coverage = 0.7),
    metric_with("coverage_at_risk", risk = 0.3),
    metric_with("fpr_at_tpr", tpr = 0.8),
    "aurc_sele", "augrc_step", "failure_auroc"
  )
  rk <- bootstrap_ranking(d, method, case, score, loss, metrics = metrics,
    indices = idx
  )
  v <- rk$replicates
  ref <- list(
    low = function(s, l) partial_aurc_vec(s, l, coverage_range = c(0, 0.5)),
    `partial_augrc[coverage=0.25-1]` = function(s, l) {
      partial_augrc_vec(s, l, coverage_range = c(0.25, 1))
    },
    `risk_at_coverage[coverage=0.7]` = function(s, l) {
      risk_at_coverage_vec(s, l, coverage = 0.7)
    },
    `coverage_at_risk[risk=0.3]` = function(s, l) {
      coverage_at_risk_vec(s, l, risk = 0.3)
    },
    `fpr_at_tpr[tpr=0.8]` = function(s, l) fpr_at_tpr_vec(s, l, tpr = 0.8),
    aurc_sele = function(s, l) aurc_vec(s, l, estimator = "sele"),
    augrc_step = function(s, l) augrc_vec(s, l, method = "step"),
    failure_auroc = function(s, l) failure_auroc_vec(s, l)
  )
  expect_setequal(unique(v$metric), names(ref))
  for (m in names(ref)) {
    for (meth in c("a", "b")) {
      rows <- d$method == meth
      for (b in 1:4) {
        i <- idx[b, ]
        want <- ref[[m]](d$score[rows][i], d$loss[rows][i])
        got <- v$value[v$metric == m & v$method == meth & v$replicate == b]
        expect_equal(got, want, tolerance = 1e-13, info = paste(m, meth, b))
      }
      full <- rk$ranking$full_value[rk$ranking$metric == m &
        rk$ranking$method == meth]
      expect_equal(full, ref[[m]](d$score[rows], d$loss[rows]),
        tolerance = 1e-13
      )
    }
  }
  # directions come from the registry
  dirs <- vapply(ranking_metric_specs(metrics), function(s) s$higher_better,
    logical(1))
  expect_identical(dirs, c(FALSE, FALSE, FALSE, TRUE, FALSE, FALSE, FALSE,
    TRUE))
  expect_error(
    bootstrap_ranking(d, method, case, score, loss, metrics = "partial_aurc",
      times = 5),
    class = "aurc_error_missing"
  )
  expect_error(
    bootstrap_ranking(d, method, case, score, loss, metrics = list(
      metric_with("partial_aurc", coverage_range = c(0, 0.5)),
      metric_with("partial_aurc", coverage_range = c(0, 0.5))
    ), times = 5),
    class = "aurc_error_value"
  )
})

test_that("metric_info() describes every metric and its forms", {
  info <- metric_info()
  expect_s3_class(info, "tbl_df")
  expect_true(all(aurc:::metric_names() %in% info$metric))
  expect_false(anyDuplicated(info$metric) > 0)
  expect_true(all(info$direction %in% c("minimize", "maximize", "target_0",
    "target_1")))
  expect_true(all(info$input %in% c("loss", "failure", "quality", "correct")))
  expect_true(all(info$undefined %in% c("ratio", "one_class", "no_data",
    "own")))
  reg <- info[info$family == "selective", ]
  for (k in seq_len(nrow(reg))) {
    e <- aurc:::metric_registry[[reg$metric[k]]]
    expect_identical(reg$direction[k], e$direction)
    expect_identical(reg$options[[k]], e$options)
  }
  # every registry metric has every form but the analytic interval of the
  # achievable AURC and the power analysis of most
  forms <- c("vec", "data_frame", "selective_metrics", "bootstrap_interval",
    "compare_scores", "compare_groups", "bootstrap_ranking", "database")
  expect_true(all(as.matrix(reg[forms])))
  expect_false(reg$analytic_interval[reg$metric == "achievable_aurc"])
  expect_identical(metric_info(c("prr", "ece"))$metric, c("prr", "ece"))
  expect_identical(metric_info("naurc")$undefined, "ratio")
  expect_error(metric_info("auc"), class = "aurc_error_value")
  expect_error(metric_info(1), class = "aurc_error_type")
  expect_error(metric_info(NA_character_), class = "aurc_error_type")
})

test_that("selective_ci() and compare_scores() take metric_with()", {
  set.seed(23)
  n <- 300
  s <- stats::runif(n)
  l <- stats::rbinom(n, 1, 0.6 - 0.5 * s)
  d <- data.frame(s = s, s2 = stats::runif(n), l = l, g = rep(1:2, n / 2))
  lo <- metric_with("partial_aurc", coverage_range = c(0, 0.5))
  hi <- metric_with("partial_aurc", coverage_range = c(0.5, 1))
  ci <- selective_ci(d, s, l, metrics = list("aurc", lo, hi,
    sele = metric_with("aurc", estimator = "sele")
  ))
  expect_identical(ci$.metric, c("aurc", "partial_aurc", "partial_aurc",
    "sele"))
  expect_identical(ci$.estimator[2:3], c("coverage=0-0.5", "coverage=0.5-1"))
  # each row is the interval of the metric with its own options
  one <- selective_ci(d, s, l, metrics = "partial_aurc",
    coverage_range = c(0.5, 1)
  )
  expect_identical(unlist(ci[3, -1]), unlist(one[1, -1]))
  expect_equal(ci$.estimate[4], aurc_vec(s, l, estimator = "sele"),
    tolerance = 1e-14
  )
  # grouped: group-major, the metrics in the order asked
  skip_if_not_installed("dplyr")
  gr <- selective_ci(dplyr::group_by(d, g), s, l, metrics = list(hi, lo))
  expect_identical(gr$g, c(1L, 1L, 2L, 2L))
  expect_identical(gr$.estimator, rep(c("coverage=0.5-1", "coverage=0-0.5"),
    2))
  expect_equal(gr$.estimate[3],
    partial_aurc_vec(s[d$g == 2], l[d$g == 2], coverage_range = c(0.5, 1)),
    tolerance = 1e-14
  )
  v <- selective_ci_vec(s, l, metrics = list(lo))
  expect_identical(unlist(v), unlist(selective_ci_vec(s, l,
    metrics = "partial_aurc", coverage_range = c(0, 0.5))))
  cmp <- compare_scores(d, c(s, s2), l, metric = lo)
  ref <- compare_scores(d, c(s, s2), l, metric = "partial_aurc",
    coverage_range = c(0, 0.5)
  )
  expect_identical(cmp$tests, ref$tests)
  expect_error(compare_scores(d, c(s, s2), l, metric = list(lo, hi)),
    class = "aurc_error_value"
  )
})
