test_that("hand-computed curve", {
  # thresholds 3, 2 (two samples), 1
  res <- rc_curve_vec(c(2, 3, 1, 2), c(1, 0, 1, 0))
  expect_s3_class(res, c("aurc_rc_curve", "tbl_df"))
  expect_named(res, c(
    "threshold", "n_accepted", "coverage", "selective_risk",
    "generalized_risk"
  ))
  expect_equal(res$threshold, c(3, 2, 1))
  expect_equal(res$n_accepted, c(1, 3, 4))
  expect_equal(res$coverage, c(1, 3, 4) / 4)
  expect_equal(res$selective_risk, c(0, 1 / 3, 1 / 2))
  expect_equal(res$generalized_risk, c(0, 1 / 4, 1 / 2))
  expect_equal(attr(res, "random")$mean_loss, 1 / 2)
  expect_equal(attr(res, "oracle")$selective_risk, c(0, 0, 1 / 3, 1 / 2))
})

test_that("literal curve with ties, NA, case weights, -0 and Inf", {
  set.seed(81)
  for (n in c(1, 5, 60)) {
    d <- random_tied_data(n, grid = 0.5)
    w <- stats::runif(n)
    w[1] <- 0
    lit <- literal_rc(d$score, d$loss)
    expect_equal(as.data.frame(rc_curve_vec(d$score, d$loss)), lit,
      tolerance = 1e-12, ignore_attr = TRUE
    )
    if (n > 1) {
      litw <- literal_rc(d$score, d$loss, w)
      res <- rc_curve_vec(d$score, d$loss, case_weights = w)
      expect_equal(as.data.frame(res), litw, tolerance = 1e-12,
        ignore_attr = TRUE
      )
    }
  }
  res <- rc_curve_vec(c(-0, 0, Inf, -Inf, NA), c(1, 0, 0, 1, 0), na_rm = TRUE)
  expect_equal(res$threshold, c(Inf, 0, -Inf))
  # the curve integrates to the metrics
  d <- random_tied_data(100)
  cv <- rc_curve_vec(d$score, d$loss)
  x <- c(0, cv$coverage)
  y <- c(0, cv$generalized_risk)
  expect_equal(sum(diff(x) * (head(y, -1) + tail(y, -1)) / 2),
    augrc_vec(d$score, d$loss), tolerance = 1e-12)
  expect_equal(sum(diff(cv$n_accepted) * cv$selective_risk[-1]) / 100 +
    cv$coverage[1] * cv$selective_risk[1], aurc_vec(d$score, d$loss),
    tolerance = 1e-12)
})

test_that("grouped data frames give one curve per group", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    m = rep(c("a", "b"), each = 4), s = c(4, 3, 2, 1, 1, 1, 2, 2),
    l = c(0, 1, 0, 1, 1, 0, 0, 0)
  )
  res <- rc_curve(dplyr::group_by(df, m), s, l)
  expect_s3_class(res, "aurc_rc_curve")
  expect_named(res, c(
    "m", "threshold", "n_accepted", "coverage", "selective_risk",
    "generalized_risk"
  ))
  expect_identical(res$m, c("a", "a", "a", "a", "b", "b"))
  expect_equal(res$selective_risk[5:6], c(0, 1 / 4))
  expect_identical(attr(res, "group_vars"), "m")
  expect_equal(attr(res, "random")$mean_loss, c(1 / 2, 1 / 4))
  res <- rc_curve(df, s, l)
  expect_equal(nrow(res), 4)
})

test_that("curves need data", {
  expect_snapshot(error = TRUE, {
    rc_curve_vec(c(1, NA), c(0, 1))
    rc_curve_vec(numeric(), numeric())
    rc_curve_vec(1:2, c(0, 1), case_weights = c(0, 0))
    rc_curve_vec(1:2, c(0, -1))
    rc_curve(data.frame(s = 1:2), s, nope)
  })
})
