# The analytic intervals of the working points of fd-shifts: the FPR at a
# TPR (R/ci-influence-fpr.R) and the lowest-risk rule
# (R/ci-influence-lowest-risk.R). The FPR: the
# estimate, frequency weights as repeated rows, a locked threshold, the
# coverage of the interval and agreement with the bootstrap.

test_that("influence values of the FPR at TPR: estimate, weights, locks", {
  set.seed(81)
  n <- 200
  s <- round(stats::rnorm(n), 1) # ties
  f <- stats::rbinom(n, 1, stats::plogis(-1 - s))
  w <- sample(1:3, n, replace = TRUE)
  for (tp in c(0.95, 0.7)) {
    res <- aurc:::fpr_at_tpr_influence(s, f, w, tp)
    expect_equal(res$estimate, fpr_at_tpr_vec(s, f, tpr = tp,
      case_weights = w), tolerance = 1e-14)
    expect_equal(sum(w * res$influence), 0, tolerance = 1e-10)
    # integer weights: the values of the rows repeated
    rep_i <- rep(seq_len(n), w)
    rep_res <- aurc:::fpr_at_tpr_influence(s[rep_i], f[rep_i], NULL, tp)
    expect_equal(rep_res$influence, res$influence[rep_i], tolerance = 1e-12)
    expect_equal(rep_res$std_error, res$std_error, tolerance = 1e-12)
  }
  # a tied threshold group of at least sqrt(N) samples does not move: the
  # correct predictions have no influence
  s3 <- rep(c(0.2, 0.5, 0.9), c(40, 120, 40))
  f3 <- stats::rbinom(200, 1, 0.3)
  res3 <- aurc:::fpr_at_tpr_influence(s3, f3, NULL, 0.8)
  expect_equal(res3$influence[f3 == 0], rep(0, sum(f3 == 0)))
  expect_equal(res3$influence[f3 == 1],
    ((s3[f3 == 1] >= 0.5) - res3$estimate) * 200 / sum(f3))
})

test_that("the analytic interval of the FPR at TPR covers and agrees", {
  gen <- function(n) {
    s <- stats::rnorm(n)
    list(s = s, f = stats::rbinom(n, 1, stats::plogis(-1.5 - 1.2 * s)))
  }
  set.seed(82)
  big <- gen(2e6)
  truth <- fpr_at_tpr_vec(big$s, big$f)
  reps <- test_grid(200, 600)
  hits <- 0
  for (k in seq_len(reps)) {
    d <- gen(2000)
    ci <- selective_ci_vec(d$s, d$f, metrics = "fpr_at_tpr")
    hits <- hits + (ci$.lower <= truth && truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_gte(hits / reps, band[1] - 0.03)
  expect_lte(hits / reps, band[2])
  an <- selective_ci_vec(d$s, d$f, metrics = "fpr_at_tpr")
  bs <- selective_ci_vec(d$s, d$f, metrics = "fpr_at_tpr",
    method = "bootstrap", times = 2000)
  expect_equal(an$.std_error, bs$.std_error, tolerance = 0.15)
  # paired, analytic
  df <- data.frame(a = d$s, b = d$s + stats::rnorm(2000, sd = 0.5),
    f = d$f)
  cmp <- compare_scores(df, c(a, b), f, metric = "fpr_at_tpr", tpr = 0.9)
  expect_equal(cmp$tests$difference,
    fpr_at_tpr_vec(df$a, df$f, tpr = 0.9) -
      fpr_at_tpr_vec(df$b, df$f, tpr = 0.9),
    tolerance = 1e-12)
  expect_true(is.finite(cmp$tests$std_error) && cmp$tests$std_error > 0)
})

test_that("fd-shifts' working point: the influence at the achieved coverage", {
  set.seed(83)
  n <- 300
  s <- round(stats::runif(n), 2)
  # the most confident tenth fails often: the lowest risk lies beyond c
  f <- stats::rbinom(n, 1, ifelse(s > 0.9, 0.4, 0.4 * (1 - s)))
  w <- stats::runif(n, 0.5, 2)
  for (cv in c(0.2, 0.6)) {
    low <- aurc:::metric_influence(s, f, w, "risk_at_coverage",
      list(coverage = cv, rule = "lowest_risk"))
    expect_equal(low$estimate, risk_at_coverage_vec(s, f, coverage = cv,
      rule = "lowest_risk", case_weights = w), tolerance = 1e-14)
    achieved <- risk_at_coverage(data.frame(s, f, w), s, f, coverage = cv,
      rule = "lowest_risk", case_weights = w)$.coverage
    at <- aurc:::metric_influence(s, f, w, "risk_at_coverage",
      list(coverage = achieved))
    expect_equal(low$influence, at$influence, tolerance = 1e-14)
    expect_equal(at$estimate, low$estimate, tolerance = 1e-14)
  }
  # the coverage of the analytic interval, with the minimum inside the range
  gen <- function(n) {
    s <- stats::runif(n)
    list(s = s, f = stats::rbinom(n, 1, ifelse(s > 0.9, 0.35,
      0.4 * (1 - s))))
  }
  big <- gen(2e6)
  truth <- risk_at_coverage_vec(big$s, big$f, coverage = 0.3,
    rule = "lowest_risk")
  expect_lt(truth, risk_at_coverage_vec(big$s, big$f, coverage = 0.3))
  reps <- test_grid(200, 600)
  hits <- 0
  for (k in seq_len(reps)) {
    d <- gen(2000)
    ci <- selective_ci_vec(d$s, d$f, metrics = "risk_at_coverage",
      coverage = 0.3, rule = "lowest_risk")
    hits <- hits + (ci$.lower <= truth && truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_gte(hits / reps, band[1] - 0.04) # a minimum: biased low
  expect_lte(hits / reps, band[2])
})
