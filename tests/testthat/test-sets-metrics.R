# Prediction-set metrics (R/sets-metrics.R, R/sets-input.R).

set_est <- function(res, metric) res$.estimate[res$.metric == metric]

# TorchCP's fixture (tests/classification/utils/test_classification_metrics
# .py, setup_basic_data): 4 cases, 4 classes, 0-based labels 0, 0, 1, 2.
torchcp_fixture <- function() {
  sets <- matrix(c(
    TRUE, TRUE, FALSE, FALSE,
    TRUE, FALSE, FALSE, FALSE,
    FALSE, TRUE, TRUE, FALSE,
    FALSE, FALSE, TRUE, TRUE
  ), 4, byrow = TRUE, dimnames = list(NULL, 0:3))
  list(sets = sets, truth = c(0, 0, 1, 2))
}

# MAPIE's docstring example of classification_ssc / classification_ssc_score
# (mapie/metrics/classification.py): 5 cases, 4 classes.
mapie_ssc_fixture <- function() {
  sets <- matrix(c(
    TRUE, TRUE, TRUE, TRUE,
    FALSE, TRUE, FALSE, TRUE,
    TRUE, TRUE, TRUE, FALSE,
    FALSE, FALSE, TRUE, TRUE,
    TRUE, TRUE, FALSE, TRUE
  ), 5, byrow = TRUE, dimnames = list(NULL, 0:3))
  list(sets = sets, truth = c(3, 3, 1, 2, 2))
}

test_that("hand-computed values on TorchCP's fixture", {
  f <- torchcp_fixture()
  res <- set_metrics_vec(f$sets, f$truth, alpha = 0.1)
  # every true label is in its set: coverage 1 (TorchCP asserts 1)
  expect_equal(set_est(res, "coverage"), 1)
  # sizes 2, 1, 2, 2
  expect_equal(set_est(res, "mean_size"), 7 / 4)
  expect_equal(set_est(res, "singleton_rate"), 1 / 4)
  expect_equal(set_est(res, "empty_rate"), 0)
  # the singleton {0} holds the true class 0
  expect_equal(set_est(res, "singleton_hit_ratio"), 1 / 4)
  # classes 0, 1, 2 are covered fully; class 3 has no case
  expect_equal(set_est(res, "class_coverage_gap"), 0.1)
  expect_equal(set_est(res, "covgap"), 10)
  expect_equal(set_est(res, "macro_coverage"), 1)
  # TorchCP's default strata [0, 1], [2, 3], ...: both covered fully
  torch_strata <- list(c(0, 1), c(2, 3), c(4, 10), c(11, 100), c(101, 1000))
  res <- set_metrics_vec(f$sets, f$truth, size_strata = torch_strata)
  expect_equal(set_est(res, "sscv"), 0.1)
  res <- set_metrics_vec(f$sets, f$truth,
    size_strata = list(c(0, 2), c(3, 4)), metrics = "sscv"
  )
  expect_equal(res$.estimate, 0.1)
})

test_that("TorchCP's singleton_hit_ratio test cases", {
  # test_singleton_hit_ratio: perfect (1.0) and zero (0.0) cases
  perfect <- diag(3) == 1
  expect_equal(
    set_est(set_metrics_vec(perfect, 1:3), "singleton_hit_ratio"), 1
  )
  none <- matrix(c(1, 1, 0, 1, 1, 1, 0, 1, 1), 3, byrow = TRUE) == 1
  expect_equal(set_est(set_metrics_vec(none, 1:3), "singleton_hit_ratio"), 0)
  # the mixed case: singleton hit, pair, singleton miss, singleton hit
  mixed <- matrix(c(1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1), 4,
    byrow = TRUE
  ) == 1
  res <- set_metrics_vec(mixed, c(1, 1, 3, 3))
  expect_equal(set_est(res, "singleton_hit_ratio"), 2 / 4)
  expect_equal(set_est(res, "singleton_rate"), 3 / 4)
})

test_that("MAPIE's documented examples", {
  # classification_mean_width_score: sets at two confidence levels,
  # printed result [2. 1.8]
  level1 <- matrix(c(
    FALSE, FALSE, TRUE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE,
    FALSE, TRUE, TRUE, TRUE, FALSE, TRUE
  ), 5, byrow = TRUE)
  level2 <- matrix(c(
    FALSE, TRUE, TRUE, TRUE, FALSE, TRUE, FALSE, TRUE, FALSE,
    FALSE, TRUE, TRUE, TRUE, TRUE, FALSE
  ), 5, byrow = TRUE)
  y <- rep(1, 5)
  expect_equal(set_est(set_metrics_vec(level1, y), "mean_size"), 2)
  expect_equal(set_est(set_metrics_vec(level2, y), "mean_size"), 1.8)
  # classification_ssc(num_bins = 2): [[1. 0.66666667]];
  # classification_ssc_score: [0.66666667]
  f <- mapie_ssc_fixture()
  tab <- set_size_coverage(f$sets, f$truth, size_strata = 2)
  expect_equal(tab$coverage, c(1, 2 / 3))
  expect_equal(tab$min_size, c(0, 3))
  expect_equal(tab$max_size, c(2, 4))
  res <- set_metrics_vec(f$sets, f$truth, size_strata = 2)
  expect_equal(set_est(res, "ssc_min"), 2 / 3)
  # by hand: case 5 (true class 2) misses, the others are covered
  expect_equal(set_est(res, "coverage"), 4 / 5)
})

test_that("size strata follow MAPIE's array_split convention", {
  k <- 9
  sets <- matrix(FALSE, 10, k)
  for (i in 1:10) sets[i, seq_len(i - 1)] <- TRUE # sizes 0..9
  truth <- rep(1, 10)
  # numpy.array_split(range(10), 4): lengths 3, 3, 2, 2
  tab <- set_size_coverage(sets, truth, size_strata = 4)
  expect_equal(tab$min_size, c(0, 3, 6, 8))
  expect_equal(tab$max_size, c(2, 5, 7, 9))
  expect_equal(tab$n, c(3, 3, 2, 2))
  # coverage: class 1 is in every set of size >= 1
  expect_equal(tab$coverage, c(2 / 3, 1, 1, 1))
  # default: one stratum per size that occurs
  tab <- set_size_coverage(sets, truth)
  expect_equal(tab$min_size, 0:9)
  expect_equal(tab$n, rep(1, 10))
  # more strata than sizes: one size each
  tab <- set_size_coverage(sets, truth, size_strata = 10)
  expect_equal(tab$min_size, 0:9)
  # explicit ranges with gaps: sizes outside every range are left out
  tab <- set_size_coverage(sets, truth,
    size_strata = list(c(5, 6), c(0, 0), c(2, 3))
  )
  expect_equal(tab$min_size, c(0, 2, 5))
  expect_equal(tab$n, c(1, 2, 2))
  expect_equal(tab$coverage, c(0, 1, 1))
  res <- set_metrics_vec(sets, truth, alpha = 0.5, metrics = "sscv",
    size_strata = list(c(5, 6), c(0, 0), c(2, 3))
  )
  expect_equal(res$.estimate, 0.5)
})

test_that("list sets without classes take the labels seen", {
  # numeric labels in numeric order
  tab <- set_class_coverage(list(2, c(2, 10), 10), c(10, 2, 10))
  expect_equal(tab$class, c("2", "10"))
  expect_equal(tab$coverage, c(1, 0.5))
  # a label of a set that no truth has is a class too
  tab <- set_class_coverage(list("a", "z"), c("a", "a"))
  expect_equal(tab$class, c("a", "z"))
  expect_equal(tab$n, c(2, 0))
  expect_no_warning(set_metrics_vec(list("a"), 1, metrics = "coverage"))
})

test_that("a factor truth matches an unnamed matrix by position", {
  sets <- matrix(c(TRUE, FALSE, TRUE, FALSE, TRUE, TRUE), 3, byrow = TRUE)
  truth <- factor(c("u", "v", "v"), levels = c("u", "v"))
  res <- set_metrics_vec(sets, truth, metrics = c("coverage", "mean_size"))
  expect_equal(res$.estimate, c(2 / 3, 4 / 3))
  tab <- set_class_coverage(sets, truth)
  expect_equal(tab$class, c("1", "2"))
  expect_equal(tab$coverage, c(1, 0.5))
})

test_that("the list form equals the matrix form", {
  f <- mapie_ssc_fixture()
  cls <- colnames(f$sets)
  sets <- lapply(seq_len(nrow(f$sets)), function(i) cls[f$sets[i, ]])
  a <- set_metrics_vec(f$sets, f$truth, size_strata = 2)
  b <- set_metrics_vec(sets, as.character(f$truth), classes = cls,
    size_strata = 2
  )
  expect_equal(a, b)
  # empty sets count as size 0
  s <- list(character(0), "a", NULL, c("a", "b"))
  res <- set_metrics_vec(s, c("a", "a", "b", "b"), classes = c("a", "b"))
  expect_equal(set_est(res, "mean_size"), 3 / 4)
  expect_equal(set_est(res, "empty_rate"), 2 / 4)
  expect_equal(set_est(res, "coverage"), 2 / 4)
})

# The definitions of the help page, case by case.
literal_set_metrics <- function(sets, truth, k, w, alpha, strata) {
  n <- length(sets)
  cov <- vapply(seq_len(n), function(i) truth[i] %in% sets[[i]], logical(1))
  size <- lengths(sets)
  t <- 1 - alpha
  wm <- function(x) sum(w * x) / sum(w)
  cls <- Filter(function(j) sum(w[truth == j]) > 0, seq_len(k))
  ck <- vapply(cls, function(j) {
    sum(w[truth == j] * cov[truth == j]) / sum(w[truth == j])
  }, numeric(1))
  in_s <- lapply(strata, function(s) size >= s[1] & size <= s[2])
  in_s <- Filter(function(m) sum(w[m]) > 0, in_s)
  cs <- vapply(in_s, function(m) sum(w[m] * cov[m]) / sum(w[m]), numeric(1))
  c(
    coverage = wm(cov), mean_size = wm(size),
    singleton_rate = wm(size == 1), empty_rate = wm(size == 0),
    singleton_hit_ratio = wm(size == 1 & cov),
    class_coverage_gap = max(abs(ck - t)),
    covgap = 100 * mean(abs(ck - t)), macro_coverage = mean(ck),
    ssc_min = min(cs), sscv = max(abs(cs - t))
  )
}

random_sets <- function(n, k) {
  sets <- matrix(runif(n * k) < 0.35, n, k)
  truth <- sample.int(k, n, replace = TRUE)
  list(sets = sets, truth = truth)
}

test_that("the literal definitions on random data with weights and NA", {
  set.seed(11)
  k <- 5
  strata <- list(c(0, 1), c(2, 3), c(4, 5))
  for (rep in 1:5) {
    d <- random_sets(60, k)
    w <- sample(0:3, 60, replace = TRUE) + runif(60) * (rep > 3)
    lst <- lapply(seq_len(60), function(i) which(d$sets[i, ]))
    res <- set_metrics_vec(d$sets, d$truth, alpha = 0.2,
      size_strata = strata, case_weights = w
    )
    want <- literal_set_metrics(lst, d$truth, k, w, 0.2, strata)
    expect_equal(res$.estimate, unname(want[res$.metric]),
      tolerance = 1e-12
    )
    # NA: dropped with na_rm = TRUE, NA otherwise
    d$truth[c(3, 9)] <- NA
    d$sets[5, 2] <- NA
    res <- set_metrics_vec(d$sets, d$truth, alpha = 0.2,
      size_strata = strata, case_weights = w, na_rm = TRUE
    )
    keep <- -c(3, 5, 9)
    want <- literal_set_metrics(lst[keep], d$truth[keep], k, w[keep], 0.2,
      strata
    )
    expect_equal(res$.estimate, unname(want[res$.metric]),
      tolerance = 1e-12
    )
    res <- set_metrics_vec(d$sets, d$truth, case_weights = w)
    expect_true(all(is.na(res$.estimate)))
  }
})

test_that("integer weights equal repeated rows; row order does not matter", {
  set.seed(3)
  d <- random_sets(40, 4)
  w <- sample(0:3, 40, replace = TRUE)
  a <- set_metrics_vec(d$sets, d$truth, case_weights = w,
    interval = "clopper_pearson"
  )
  rows <- rep(seq_len(40), w)
  b <- set_metrics_vec(d$sets[rows, ], d$truth[rows],
    interval = "clopper_pearson"
  )
  expect_equal(a, b)
  o <- sample(40)
  c2 <- set_metrics_vec(d$sets[o, ], d$truth[o], case_weights = w[o],
    interval = "clopper_pearson"
  )
  expect_equal(a, c2)
})

test_that("proportion intervals equal prop.test and binom.test", {
  sets <- cbind(c(rep(TRUE, 17), rep(FALSE, 6)), TRUE)
  truth <- rep(1, 23)
  res <- set_metrics_vec(sets, truth, metrics = "coverage", conf_level = 0.9)
  ref <- stats::prop.test(17, 23, conf.level = 0.9, correct = FALSE)
  expect_equal(c(res$.lower, res$.upper), as.numeric(ref$conf.int))
  res <- set_metrics_vec(sets, truth, metrics = "coverage",
    interval = "clopper_pearson"
  )
  ref <- stats::binom.test(17, 23)
  expect_equal(c(res$.lower, res$.upper), as.numeric(ref$conf.int))
  expect_equal(res$.method, "clopper_pearson")
})

test_that("the gap intervals are the projection of the Bonferroni box", {
  f <- mapie_ssc_fixture()
  res <- set_metrics_vec(f$sets, f$truth, alpha = 0.2,
    interval = "clopper_pearson", metrics = c("class_coverage_gap", "covgap")
  )
  # classes 1, 2, 3 (0-based "1", "2", "3") hold 1, 2, 2 cases with 1, 1, 2
  # covered; Clopper-Pearson at level 1 - 0.05 / 3
  a <- 0.05 / 3 / 2
  l <- c(stats::qbeta(a, 1, 1), stats::qbeta(a, 1, 2), stats::qbeta(a, 2, 1))
  u <- c(1, stats::qbeta(1 - a, 2, 1), 1)
  cov <- c(1, 0.5, 1)
  near <- pmax(0, l - 0.8, 0.8 - u)
  far <- pmax(0.8 - l, u - 0.8)
  expect_equal(res$.estimate, c(0.3, 100 * mean(abs(cov - 0.8))))
  expect_equal(res$.lower, c(max(near), 100 * mean(near)))
  expect_equal(res$.upper, c(max(far), 100 * mean(far)))
  # macro coverage: normal interval with Agresti-Coull class variances
  res <- set_metrics_vec(f$sets, f$truth, metrics = "macro_coverage")
  z <- qnorm(0.975)
  n <- c(1, 2, 2)
  a_k <- (cov * n + z^2 / 2) / (n + z^2)
  half <- z * sqrt(sum(a_k * (1 - a_k) / (n + z^2))) / 3
  expect_equal(res$.estimate, 2.5 / 3)
  expect_equal(c(res$.lower, res$.upper),
    c(2.5 / 3 - half, min(1, 2.5 / 3 + half))
  )
  expect_equal(res$.method, "normal")
})

test_that("the intervals cover at about their level (small simulation)", {
  skip_on_cran()
  set.seed(2026)
  k <- 4
  # true per-class coverage 0.95, 0.9, 0.85, 0.8; sizes from 1 to 3
  p_cls <- c(0.95, 0.9, 0.85, 0.8)
  t <- 0.9
  true_gap <- max(abs(p_cls - t))
  # (equal class probabilities: the marginal and the macro coverage agree)
  true_cov <- mean(p_cls)
  true_size <- 2
  hits <- matrix(FALSE, 300, 4)
  for (r in 1:300) {
    n <- 200
    y <- sample.int(k, n, replace = TRUE)
    covered <- runif(n) < p_cls[y]
    size <- sample(1:3, n, replace = TRUE)
    sets <- matrix(FALSE, n, k)
    for (i in seq_len(n)) {
      others <- setdiff(seq_len(k), y[i])
      if (covered[i]) {
        sets[i, c(y[i], others[seq_len(size[i] - 1)])] <- TRUE
      } else {
        sets[i, others[seq_len(size[i])]] <- TRUE
      }
    }
    res <- set_metrics_vec(sets, y, alpha = 0.1,
      metrics = c("coverage", "mean_size", "class_coverage_gap",
        "macro_coverage"
      )
    )
    truth_val <- c(true_cov, true_size, true_gap, true_cov)
    hits[r, ] <- res$.lower <= truth_val & truth_val <= res$.upper
  }
  rate <- colMeans(hits)
  # Wilson and the normal mean interval near 0.95 (300 runs: sd 0.013);
  # the projected gap interval is conservative
  expect_gt(rate[1], 0.91)
  expect_gt(rate[2], 0.91)
  expect_gt(rate[3], 0.94)
  expect_gt(rate[4], 0.91)
})

test_that("the data-frame form honours groups, matrix and list columns", {
  d <- torchcp_fixture()
  df <- data.frame(truth = d$truth, g = c("x", "x", "y", "y"))
  df$sets <- d$sets
  res <- set_metrics(df, sets, truth, metrics = c("coverage", "mean_size"))
  expect_equal(res, set_metrics_vec(d$sets, d$truth,
    metrics = c("coverage", "mean_size")
  ))
  df$w <- c(2, 0, 1, 1)
  res <- set_metrics(df, sets, truth, case_weights = w,
    metrics = "mean_size"
  )
  # sizes 2, 1, 2, 2 with weights 2, 0, 1, 1
  expect_equal(res$.estimate, 2)
  skip_if_not_installed("dplyr")
  res <- set_metrics(dplyr::group_by(df, g), sets, truth,
    metrics = "mean_size"
  )
  expect_equal(res$g, c("x", "y"))
  expect_equal(res$.estimate, c(1.5, 2))
  df$lst <- list("0", "0", c("1", "2"), character(0))
  res <- set_metrics(df, lst, truth, classes = as.character(0:3),
    metrics = c("coverage", "empty_rate")
  )
  expect_equal(res$.estimate, c(3 / 4, 1 / 4))
})

test_that("class table and size table", {
  f <- mapie_ssc_fixture()
  tab <- set_class_coverage(f$sets, f$truth)
  expect_equal(tab$class, as.character(0:3))
  expect_equal(tab$n, c(0, 1, 2, 2))
  expect_equal(tab$coverage, c(NA, 1, 0.5, 1))
  expect_equal(tab$mean_size, c(NA, 3, 2.5, 3))
  expect_true(is.na(tab$.lower[1]))
  tab <- set_size_coverage(f$sets, f$truth)
  expect_equal(tab$min_size, 2:4)
  expect_equal(tab$coverage, c(1, 0.5, 1))
})

test_that("bad input gets classed errors and warnings", {
  f <- torchcp_fixture()
  expect_error(set_metrics_vec(f$sets * 1, f$truth),
    class = "aurc_error_type"
  )
  expect_error(set_metrics_vec("a", f$truth), class = "aurc_error_type")
  expect_error(set_metrics_vec(f$sets, c(0, 0, 1, 7)),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(unname(f$sets), c(0, 1, 2, 3)),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth[1:3]),
    class = "aurc_error_length"
  )
  expect_error(set_metrics_vec(list("a", "z"), c("a", "a"), classes = "a"),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, alpha = 1),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, metrics = "nope"),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, size_strata = list(c(2, 1))),
    class = "aurc_error_value"
  )
  expect_error(
    set_metrics_vec(f$sets, f$truth, size_strata = list(c(0, 2), c(2, 3))),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, case_weights = c(1, -1, 1, 1)),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, interval = "exact"),
    class = "aurc_error_value"
  )
  expect_error(set_metrics_vec(f$sets, f$truth, 0.1), class = "aurc_error_dots")
  expect_error(set_class_coverage(f$sets, c(NA, 0, 1, 2)),
    class = "aurc_error_missing"
  )
  expect_warning(
    res <- set_metrics_vec(f$sets, f$truth, case_weights = rep(0, 4)),
    class = "aurc_warning_no_data"
  )
  expect_true(all(is.na(res$.estimate)))
  expect_warning(
    res <- set_metrics_vec(list(c("a", "a"), "b"), c("a", "b"),
      metrics = "mean_size"
    ),
    class = "aurc_warning_duplicate_labels"
  )
  expect_equal(res$.estimate, 1)
  expect_snapshot(error = TRUE, {
    set_metrics_vec(f$sets * 1, f$truth)
    set_metrics_vec(f$sets, c(0, 0, 1, 7))
    set_metrics_vec(list("a", "z"), c("a", "a"), classes = "a")
    set_metrics_vec(f$sets, f$truth, size_strata = list(c(2, 1)))
  })
})

test_that("importance weights: same estimates, intervals of Kish's n", {
  skip_if_not_installed("hardhat")
  set.seed(7)
  n <- 60
  truth <- sample(1:3, n, replace = TRUE)
  sets <- matrix(runif(n * 3) < 0.6, n, 3)
  sets[cbind(seq_len(n), truth)] <- runif(n) < 0.85
  w <- sample(c(1, 3), n, replace = TRUE)
  freq <- set_metrics_vec(sets, truth, case_weights = w)
  imp <- set_metrics_vec(sets, truth,
    case_weights = hardhat::importance_weights(w)
  )
  expect_equal(imp$.estimate, freq$.estimate)
  # Wilson's interval of the coverage with n = (sum w)^2 / sum w^2 cases
  p <- sum(w * sets[cbind(seq_len(n), truth)]) / sum(w)
  n_eff <- sum(w)^2 / sum(w^2)
  z <- stats::qnorm(0.975)
  centre <- (p + z^2 / (2 * n_eff)) / (1 + z^2 / n_eff)
  half <- z / (1 + z^2 / n_eff) *
    sqrt(p * (1 - p) / n_eff + z^2 / (4 * n_eff^2))
  cov <- imp[imp$.metric == "coverage", ]
  expect_equal(c(cov$.lower, cov$.upper), centre + c(-1, 1) * half,
    tolerance = 1e-12
  )
  # equal importance weights are the unweighted cases
  same <- set_metrics_vec(sets, truth,
    case_weights = hardhat::importance_weights(rep(5, n))
  )
  plain <- set_metrics_vec(sets, truth)
  expect_equal(same[c(".lower", ".upper")], plain[c(".lower", ".upper")],
    tolerance = 1e-12
  )
})
