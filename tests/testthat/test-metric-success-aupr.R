# Success AUPR (AUPR-In): average precision with the correct predictions as
# the positive class and the score as the ranking. Added through the
# registry as CONTRIBUTING.md's "Adding a metric" describes (issue 33).

# The literal definition: at every distinct threshold t from the highest
# score down, the accepted set {s >= t}; AP = sum (Rec_k - Rec_{k-1}) Prec_k
literal_success_aupr <- function(s, f, w = rep(1, length(s))) {
  ok <- 1 - f
  thr <- sort(unique(s[w > 0]), decreasing = TRUE)
  total <- sum(w * ok)
  prev_rec <- 0
  ap <- 0
  for (t in thr) {
    accepted <- s >= t
    tp <- sum(w * ok * accepted)
    rec <- tp / total
    ap <- ap + (rec - prev_rec) * tp / sum(w * accepted)
    prev_rec <- rec
  }
  ap
}

test_that("a hand-computed case", {
  # correct at 0.9, 0.8 (tied with a failure) and 0.6: precision 1, 2/3 and
  # 3/4 as each third of the correct predictions is accepted
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  failure <- c(0, 0, 1, 0, 1, 1)
  expect_equal(success_aupr_vec(score, failure), (1 + 2 / 3 + 3 / 4) / 3,
    tolerance = 1e-15
  )
  res <- success_aupr(data.frame(score, failure), score, failure)
  expect_identical(res$.metric, "success_aupr")
  expect_identical(res$.estimator, "binary")
  expect_equal(res$.estimate, 29 / 36, tolerance = 1e-15)
})

test_that("it equals the literal definition with ties, NA and weights", {
  set.seed(61)
  for (n in c(2, 7, 60, 500)) {
    s <- round(stats::rnorm(n), 1)
    f <- stats::rbinom(n, 1, 0.4)
    f[1:2] <- c(0, 1)
    w <- stats::runif(n, 0, 3)
    expect_equal(success_aupr_vec(s, f), literal_success_aupr(s, f),
      tolerance = 1e-12
    )
    expect_equal(success_aupr_vec(s, f, case_weights = w),
      literal_success_aupr(s, f, w),
      tolerance = 1e-12
    )
    # integer weights: the data with rows repeated
    k <- sample(0:3, n, replace = TRUE)
    k[1:2] <- 1
    expect_equal(success_aupr_vec(s, f, case_weights = k),
      success_aupr_vec(rep(s, k), rep(f, k)),
      tolerance = 1e-12
    )
    # the identity with failure AUPR
    expect_equal(success_aupr_vec(s, f, case_weights = w),
      failure_aupr_vec(-s, 1 - f, case_weights = w),
      tolerance = 1e-12
    )
    s_na <- replace(s, n, NA)
    expect_identical(success_aupr_vec(s_na, f), NA_real_)
    if (n > 2) {
      expect_equal(success_aupr_vec(s_na, f, na_rm = TRUE),
        literal_success_aupr(s[-n], f[-n]),
        tolerance = 1e-12
      )
    }
  }
})

test_that("it equals yardstick's average precision (an independent implementation)", {
  skip_if_not_installed("yardstick")
  set.seed(62)
  s <- round(stats::runif(300), 2)
  f <- stats::rbinom(300, 1, 0.6 - 0.4 * s)
  d <- data.frame(
    truth = factor(ifelse(f == 0, "ok", "wrong"), c("ok", "wrong")), s = s,
    w = stats::runif(300, 0.5, 2)
  )
  expect_equal(success_aupr_vec(s, f),
    yardstick::average_precision(d, truth, s)$.estimate,
    tolerance = 1e-12
  )
  d$cw <- hardhat::frequency_weights(round(d$w * 3))
  expect_equal(success_aupr_vec(s, f, case_weights = round(d$w * 3)),
    yardstick::average_precision(d, truth, s, case_weights = cw)$.estimate,
    tolerance = 1e-12
  )
})

test_that("one class is NA with a warning, a loss not 0/1 an error", {
  expect_warning(v <- success_aupr_vec(c(0.9, 0.5), c(0, 0)),
    class = "aurc_warning_one_class"
  )
  expect_identical(v, NA_real_)
  expect_error(success_aupr_vec(c(0.9, 0.5), c(0, 0.5)), class = "aurc_error")
})

test_that("every form reads the registry entry", {
  set.seed(63)
  s <- round(stats::runif(200), 1)
  f <- stats::rbinom(200, 1, 0.7 - 0.5 * s)
  info <- metric_info("success_aupr")
  expect_identical(info$direction, "maximize")
  expect_identical(info$input, "failure")
  expect_false(info$analytic_interval)
  expect_true(info$bootstrap_interval && info$bootstrap_ranking &&
    info$database && info$prob)
  v <- success_aupr_vec(s, f)
  expect_equal(selective_metrics_vec(s, f, metrics = "success_aupr")$.estimate,
    v, tolerance = 1e-14)
  set.seed(1)
  ci <- selective_ci_vec(s, f, metrics = "success_aupr", method = "bootstrap",
    times = 200)
  expect_equal(ci$.estimate, v, tolerance = 1e-14)
  expect_true(ci$.lower < v && v < ci$.upper)
  expect_error(selective_ci_vec(s, f, metrics = "success_aupr"),
    class = "aurc_error_method"
  )
  d <- data.frame(a = s, b = rev(s), f = f)
  cmp <- compare_scores(d, c(a, b), f, metric = "success_aupr",
    method = "bootstrap", times = 100)
  expect_equal(cmp$estimates$estimate[1], v, tolerance = 1e-14)
})
