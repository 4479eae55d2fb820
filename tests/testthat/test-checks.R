test_that("check_threads caps at the cores, the option and OMP_THREAD_LIMIT", {
  cores <- parallel::detectCores()
  expect_identical(check_threads(1), 1L)
  expect_message(
    n <- check_threads(1e9),
    class = "aurc_message_threads"
  )
  expect_lte(n, cores)
  expect_gte(n, 1L)
  withr::with_options(list(aurc.threads = 1), {
    expect_message(n <- check_threads(2), "option aurc.threads",
      class = "aurc_message_threads"
    )
    expect_identical(n, 1L)
  })
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), {
    expect_message(n <- check_threads(2), "OMP_THREAD_LIMIT",
      class = "aurc_message_threads"
    )
    expect_identical(n, 1L)
  })
  # a cap that is not a positive number is ignored
  withr::with_options(list(aurc.threads = "a lot"), {
    expect_identical(check_threads(1), 1L)
  })
})

test_that("check_threads rejects what is not a thread count", {
  for (bad in list(0, -1, 1.5, NA, NA_real_, Inf, "2", c(1, 2), NULL)) {
    expect_error(check_threads(bad), class = "aurc_error")
  }
  f <- function(threads) check_threads(threads)
  expect_snapshot(error = TRUE, {
    f(0)
    f(Inf)
    f("2")
  })
})

test_that("check_cells fails before allocation, and the option raises it", {
  expect_silent(check_cells(100, "n", "a table"))
  expect_error(check_cells(2^40, "n", "a table"), class = "aurc_error_size")
  expect_error(check_cells(NA, "n", "a table"), class = "aurc_error_size")
  withr::with_options(list(aurc.max_cells = 10), {
    expect_error(check_cells(11, "n", "a table"), class = "aurc_error_size")
  })
  expect_snapshot(error = TRUE, check_cells(2^40, "times", "the table"))
})

test_that("check_whole_numbers bounds values at 2^53", {
  expect_identical(check_whole_numbers(2^53), 2^53)
  expect_error(check_whole_numbers(2^53 + 2), class = "aurc_error_size")
  expect_error(check_whole_numbers(1e308), class = "aurc_error_size")
})

test_that("sizes are validated before allocation, naming the argument", {
  d <- data.frame(
    method = rep(c("a", "b"), each = 20), case = rep(1:20, 2),
    score = stats::runif(40), loss = rep(c(0, 1), 20)
  )
  for (times in c(1e9, 1e308, 2^31)) {
    expect_error(
      bootstrap_ranking(d, method, case, score, loss, times = times),
      "times", class = "aurc_error_size"
    )
    expect_error(
      aurc_batch_study(d$score, d$loss, batch_sizes = 4, times = times),
      "times", class = "aurc_error"
    )
  }
  expect_error(contribution_curve(1e308), "n", class = "aurc_error_size")
  expect_error(contribution_curve(1e12), "n", class = "aurc_error_size")
  expect_error(
    calibration_bins_vec(stats::runif(20), rep(0:1, 10), binning = "equal_width",
      n_bins = 1e9
    ),
    "n_bins", class = "aurc_error"
  )
  expect_error(weight_mse(3, 1e16), "n", class = "aurc_error_size")
  expect_error(weight_bias(0.5, 1e16), "n", class = "aurc_error_size")
  expect_error(plot_weight_bias(n = 1e308), "n", class = "aurc_error_size")
  expect_error(mean_weight_mse(1e9, "sele"), "n", class = "aurc_error_size")
})

test_that("empty and degenerate input is a classed error", {
  d0 <- data.frame(
    method = character(), case = integer(), score = numeric(),
    loss = numeric()
  )
  expect_error(bootstrap_ranking(d0, method, case, score, loss),
    class = "aurc_error_length"
  )
  m0 <- matrix(numeric(), 0, 2, dimnames = list(NULL, c("a", "b")))
  expect_error(rank_replicates(m0), class = "aurc_error_length")
  expect_error(plot_weight_bias(n = numeric(0)), class = "aurc_error_length")
  expect_error(plot_weight_mse_bound(beta = 0), class = "aurc_error_value")
  expect_error(plot_weight_mse_bound(beta = numeric()),
    class = "aurc_error_value"
  )
  expect_error(confidence_score(matrix(1:4, 2), temperature = Inf),
    "temperature", class = "aurc_error_value"
  )
  expect_error(inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 1),
    "no correct prediction", class = "aurc_error_value"
  )
  expect_identical(inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 0),
    c(0, 0))
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d0, method, case, score, loss)
    rank_replicates(m0)
    inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 1)
  })
})

# Issue 25, item 5: sizes checked before allocation, classed errors where
# the fuzz campaign found unclassed ones.
test_that("sizes are checked before anything is allocated", {
  truth <- factor(c("a", "b", "a"))
  # 1:3e9 is a compact sequence: a copy would be 24 GB
  expect_error(aurc_prob_vec(truth, estimate = 1:3e9),
    class = "aurc_error_column"
  )
  expect_snapshot(error = TRUE, aurc_prob_vec(truth, estimate = 1:3e9))
  set.seed(1)
  conf <- stats::runif(1e5)
  ok <- stats::rbinom(1e5, 1, conf)
  # 1e5 distinct confidences x 1e5 replicates would be 75 GB
  expect_error(corp_reliability(conf, ok, times = 1e5),
    class = "aurc_error_size"
  )
})

test_that("case weights of the prob forms are numbers or hardhat weights", {
  truth <- factor(c("a", "b", "a", "b"))
  p <- c(0.8, 0.3, 0.6, 0.1)
  bad <- list(
    factor(c(1, 2, 1, 1)), as.Date("2020-01-01") + 0:3,
    structure(c(1, 2, 1, 1), class = "integer64"),
    data.frame(w = c(1, 2, 1, 1))
  )
  for (w in bad) {
    expect_error(aurc_prob_vec(truth, p, case_weights = w),
      class = "aurc_error_type"
    )
  }
  expect_snapshot(error = TRUE, aurc_prob_vec(truth, p, case_weights = bad[[3]]))
  skip_if_not_installed("hardhat")
  hw <- hardhat::frequency_weights(c(1L, 2L, 1L, 1L))
  expect_identical(aurc_prob_vec(truth, p, case_weights = hw),
    aurc_prob_vec(truth, p, case_weights = c(1, 2, 1, 1))
  )
})

test_that("the unclassed errors of the fuzz campaign are classed", {
  set.seed(2)
  s <- stats::runif(20)
  f <- rep(0:1, 10)
  df <- data.frame(a = s, b = rev(s), f = f)
  for (nb in list(NULL, c(5, 10))) {
    expect_error(selective_ci_vec(s, f, n_bins = nb), class = "aurc_error")
    expect_error(compare_scores(df, c(a, b), f, n_bins = nb),
      class = "aurc_error"
    )
  }
  expect_error(
    selective_ci_vec(s, f, strata = as.raw(rep(0:1, 10))),
    class = "aurc_error_type"
  )
  expect_error(
    selective_ci_vec(s, f, cluster = as.raw(rep(0:1, 10)),
      method = "bootstrap", times = 10
    ),
    class = "aurc_error"
  )
  expect_error(corp_mcb_vec(c(0.5, 0.7), c(1, 0), score = function(x) x),
    class = "aurc_error_value"
  )
  expect_error(
    rank_replicates(cbind(a = stats::runif(5), b = stats::runif(5)),
      metric = ""
    ),
    class = "aurc_error_type"
  )
  # issue 33: the full fuzz set with missing values of every type, a
  # data frame without columns and language objects as values
  pd <- data.frame(
    truth = factor(rep(c("a", "b", "c"), 4)),
    pa = rep(c(0.7, 0.3, 0.1), 4), pb = rep(c(0.2, 0.3, 0.8), 4),
    g = rep(1:2, 6)
  )
  pd$pc <- 1 - pd$pa - pd$pb
  classed <- list(
    # a selection of score columns that is a missing number
    list(quote(compare_scores(df, scores = NA_real_, loss = f)),
      "aurc_error_column", "scores"),
    list(quote(compare_scores(df, scores = NaN, loss = f)),
      "aurc_error_column", "scores"),
    list(quote(compare_scores(df, scores = c(1, NA), loss = f)),
      "aurc_error_column", "scores"),
    list(quote(compare_scores(df, scores = NA_integer_, loss = f)),
      "aurc_error_column", "scores"),
    list(quote(compare_scores(df, scores = 1.5, loss = f)),
      "aurc_error_column", "scores"),
    list(quote(selective_power(df, scores = NaN, loss = f, power = 0.8)),
      "aurc_error_column", "scores"),
    list(quote(selective_power(df, scores = NA_real_, loss = f, n = 50)),
      "aurc_error_column", "scores"),
    # `metric` was called `metrics` in the message
    list(quote(compare_scores(df, c(a, b), f, metric = "nope")),
      "aurc_error_value", "metric"),
    # model outputs as a data frame without columns
    list(quote(confidence_score(data.frame())), "aurc_error_type", "x"),
    list(quote(selective_loss(data.frame(), 1:2)), "aurc_error_type", "probs"),
    list(quote(fit_temperature(data.frame(), 1:2)),
      "aurc_error_type", "logits"),
    list(quote(top_label(data.frame(), 1:2)), "aurc_error_type", "probs"),
    list(quote(classwise_ece_vec(data.frame(), 1:2)),
      "aurc_error_type", "probs"),
    # a choice that is no atomic vector
    list(quote(smooth_ece_vec(s, f, method = data.frame())),
      "aurc_error_value", "method"),
    list(quote(smooth_ece_vec(s, f, method = function(x) x)),
      "aurc_error_value", "method"),
    list(quote(smooth_ece(df, a, f, method = quote(x))),
      "aurc_error_value", "method"),
    list(quote(selective_ci(df, a, f, metrics = "smooth_ece",
      smooth_method = function(x) x)), "aurc_error_value", "smooth_method"),
    list(quote(corp_reliability(s, f, band_position = function(x) x)),
      "aurc_error_value", "band_position"),
    # metrics that are no names
    list(quote(selective_ci_vec(s, f, metrics = function(x) x)),
      "aurc_error_type", "metrics"),
    list(quote(selective_ci_vec(s, f, metrics = quote(x))),
      "aurc_error_type", "metrics"),
    list(quote(selective_ci(df, a, f, metrics = function(x) x)),
      "aurc_error_type", "metrics"),
    list(quote(selective_ci_prob(pd, truth, pa, pb, pc,
      metrics = function(x) x)), "aurc_error_type", "metrics"),
    # score types that are a function, or 1e5 numbers (formatted for
    # more than 10 s)
    list(quote(rc_curve_prob(pd, truth, pa, pb, pc,
      score_type = function(x) x)), "aurc_error_value", "score_type"),
    list(quote(failure_roc_curve_prob(pd, truth, pa, pb, pc,
      score_type = rep(1, 1e5))), "aurc_error_value", "score_type"),
    list(quote(compare_scores_prob(pd, truth, pa, pb, pc,
      score_types = function(x) x)), "aurc_error_value", "score_types"),
    # options of the prob forms: a symbol as value was evaluated again by
    # do.call(); an unquoted column is not found
    list(quote(selective_ci_prob(pd, truth, pa, pb, pc,
      conf_level = quote(x))), "aurc_error_value", "conf_level"),
    list(quote(calibration_bins_prob(pd, truth, pa, pb, pc,
      binning = quote(x))), "aurc_error_value", "binning"),
    list(quote(compare_scores_prob(pd, truth, pa, pb, pc,
      metric = quote(x))), "aurc_error_type", "metric"),
    list(quote(selective_ci_prob(pd, truth, pa, pb, pc, strata = g)),
      "aurc_error_column", "strata")
  )
  for (case in classed) {
    err <- expect_error(eval(case[[1]]), class = case[[2]])
    expect_match(conditionMessage(err), paste0("`", case[[3]], "`"),
      fixed = TRUE, info = deparse(case[[1]])
    )
  }
  # the column named as a string, as the error says
  expect_identical(
    selective_ci_prob(pd, truth, pa, pb, pc, strata = "g"),
    selective_ci_prob(pd, truth, pa, pb, pc, strata = pd$g)
  )
  expect_snapshot(error = TRUE, {
    compare_scores(df, scores = NA_real_, loss = f)
    confidence_score(data.frame())
    selective_ci_vec(s, f, metrics = function(x) x)
    failure_roc_curve_prob(pd, truth, pa, pb, pc, score_type = rep(1, 1e5))
    selective_ci_prob(pd, truth, pa, pb, pc, strata = g)
  })
  skip_if_not_installed("dplyr")
  empty <- dplyr::group_by(
    data.frame(g = character(), s = numeric(), l = numeric()), g
  )
  # zero groups: a table of zero rows, as aurc() gives ...
  res <- selective_metrics(empty, s, l)
  expect_identical(nrow(res), 0L)
  expect_named(res, c("g", ".metric", ".estimator", ".estimate"))
  # ... and a classed error where a result must have rows
  expect_error(score_table(empty, s, l), class = "aurc_error_no_data")
  expect_error(failure_roc_curve(empty, s, l), class = "aurc_error_no_data")
  expect_error(failure_pr_curve(empty, s, l), class = "aurc_error_no_data")
  expect_snapshot(error = TRUE, score_table(empty, s, l))
})

test_that("metrics are the same for case weights at any scale", {
  set.seed(5)
  n <- 200
  s <- round(stats::runif(n), 2)
  f <- stats::rbinom(n, 1, 1 - s)
  l <- f * stats::rexp(n)
  w <- stats::runif(n, 0.5, 3)
  # E-AURC, NAURC and PRR with the exact optimum treat weights as counts
  # of copies (a strict oracle order), so they are not invariant to scaling
  for (m in setdiff(aurc:::metric_names(), c("eaurc", "naurc", "prr"))) {
    info <- aurc:::metric_entry(m)
    loss <- if (info$input == "failure") f else l
    base <- selective_metrics_vec(s, loss, metrics = m, case_weights = w,
      coverage = 0.5, risk = 0.3, coverage_range = c(0.2, 0.9)
    )$.estimate
    for (k in c(1e-300, 1e-170, 1e-160, 1e154, 1e300)) {
      expect_equal(
        selective_metrics_vec(s, loss, metrics = m, case_weights = k * w,
          coverage = 0.5, risk = 0.3, coverage_range = c(0.2, 0.9)
        )$.estimate,
        base,
        tolerance = 1e-12, info = paste(m, k)
      )
    }
  }
  expect_equal(
    eaurc_vec(s, f, optimum = "asymptotic", case_weights = 1e300 * w),
    eaurc_vec(s, f, optimum = "asymptotic", case_weights = w)
  )
  conf <- 0.5 + s / 2
  # (adaptive bins count cases: test-weights-scale.R)
  for (k in c(1e-170, 1e154, 1e300)) {
    expect_equal(
      ece_vec(conf, 1 - f, binning = "equal_width", case_weights = k * w),
      ece_vec(conf, 1 - f, binning = "equal_width", case_weights = w),
      tolerance = 1e-12
    )
  }
  # the issue's cases: rep(1e154, n) gave Inf, 1e-170 gave 0
  expect_equal(aurc_vec(s, f, case_weights = rep(1e154, n)), aurc_vec(s, f))
  expect_equal(aurc_vec(s, f, case_weights = rep(1e-170, n)), aurc_vec(s, f))
  expect_equal(aurc_vec(s, f, case_weights = rep(1e-160, n)), aurc_vec(s, f),
    tolerance = 1e-14
  )
})
