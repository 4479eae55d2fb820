test_that("hand-computed working points", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  f <- c(0, 0, 1, 0, 1, 1)
  # coverage 1/6: risk 0; 0.5 -> the tie at 0.8 makes it 3/6, risk 1/3
  expect_equal(risk_at_coverage_vec(s, f, coverage = 0.1), 0)
  expect_equal(risk_at_coverage_vec(s, f, coverage = 0.3), 1 / 3)
  res <- risk_at_coverage(data.frame(s, f), s, f, coverage = 0.3)
  expect_equal(res$.coverage, 0.5)
  expect_identical(res$.estimator, "coverage=0.3")
  expect_equal(risk_at_coverage_vec(s, f, coverage = 1), 0.5)
  expect_equal(risk_at_coverage_vec(s, f, coverage = 0), 0)
  # risks at the thresholds: 0, 1/3, 1/4, 2/5, 1/2
  expect_equal(coverage_at_risk_vec(s, f, risk = 0.25), 4 / 6)
  expect_equal(coverage_at_risk_vec(s, f, risk = 0.3), 4 / 6)
  expect_equal(coverage_at_risk_vec(s, f, risk = 0.5), 1)
  expect_equal(coverage_at_risk_vec(c(2, 1), c(1, 0), risk = 0.4), 0)
  expect_identical(coverage_at_risk(data.frame(s, f), s, f, risk = 0.3)$
    .estimator, "risk=0.3")
})

test_that("literal definitions with ties, NA and case weights", {
  set.seed(61)
  for (n in c(1, 4, 30, 150)) {
    d <- random_tied_data(n, grid = 0.5, binary = n > 20)
    w <- stats::runif(n)
    for (cv in c(0, 0.1, 0.5, 0.77, 1)) {
      lit <- literal_risk_at_coverage(d$score, d$loss, cov = cv)
      expect_rel_equal(risk_at_coverage_vec(d$score, d$loss, coverage = cv),
        unname(lit["risk"]))
      res <- risk_at_coverage(data.frame(s = d$score, l = d$loss), s, l,
        coverage = cv, case_weights = w
      )
      litw <- literal_risk_at_coverage(d$score, d$loss, w, cov = cv)
      expect_rel_equal(res$.estimate, unname(litw["risk"]))
      expect_rel_equal(res$.coverage, unname(litw["coverage"]))
    }
    for (r in c(0, 0.2, 0.4, 1, 3)) {
      expect_rel_equal(coverage_at_risk_vec(d$score, d$loss, risk = r),
        literal_coverage_at_risk(d$score, d$loss, risk = r))
      expect_rel_equal(
        coverage_at_risk_vec(d$score, d$loss, risk = r, case_weights = w),
        literal_coverage_at_risk(d$score, d$loss, w, risk = r)
      )
    }
  }
  expect_identical(risk_at_coverage_vec(c(1, NA), 0:1, coverage = 1),
    NA_real_)
  expect_equal(risk_at_coverage_vec(c(1, NA), 0:1, coverage = 1,
    na_rm = TRUE), 0)
})

test_that("errors", {
  expect_snapshot(error = TRUE, {
    risk_at_coverage_vec(1:3, c(0, 1, 0))
    risk_at_coverage_vec(1:3, c(0, 1, 0), coverage = 1.5)
    risk_at_coverage_vec(1:3, c(0, 1, 0), coverage = "a")
    coverage_at_risk_vec(1:3, c(0, 1, 0), risk = -1)
    coverage_at_risk_vec(1:3, c(0, 1, 0))
  })
})
