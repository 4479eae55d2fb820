# Every calibration function takes the outcome as `correct` or, by name,
# as the failure `loss` (read as correct = 1 - loss), as every function of
# the package reads the two names (issue 33).

test_that("loss = gives the result of correct = 1 - loss in every form", {
  set.seed(41)
  conf <- round(stats::runif(400, 0.5, 1), 2)
  ok <- stats::rbinom(400, 1, conf)
  w <- stats::runif(400, 0.5, 2)
  d <- data.frame(conf, ok, f = 1 - ok, w)
  vec <- list(ece_vec, mce_vec, calibration_bins_vec, smooth_ece_vec,
    corp_mcb_vec, ici_vec, e50_vec, e90_vec, emax_vec,
    calibration_slope_vec, calibration_intercept_vec, calibration_test_vec)
  for (fn in vec) {
    expect_identical(fn(conf, loss = 1 - ok, case_weights = w),
      fn(conf, ok, case_weights = w))
    expect_identical(fn(conf, loss = ok == 0), fn(conf, ok))
    expect_error(fn(conf, ok, loss = 1 - ok), class = "aurc_error_value")
    err <- tryCatch(fn(conf, loss = replace(1 - ok, 2, 0.5)),
      error = identity)
    expect_s3_class(err, "aurc_error")
    expect_match(conditionMessage(err), "`loss`")
  }
  df <- list(ece, mce, calibration_bins, calibration_bins_df, smooth_ece,
    corp_mcb, corp_decomposition, ici, e50, e90, emax, calibration_slope,
    calibration_intercept, calibration_summary, calibration_test)
  for (fn in df) {
    expect_identical(fn(d, conf, loss = f, case_weights = w),
      fn(d, conf, ok, case_weights = w))
    expect_error(fn(d, conf, ok, loss = f), class = "aurc_error_value")
  }
  skip_if_not_installed("dplyr")
  g <- dplyr::group_by(transform(d, grp = rep(1:2, 200)), grp)
  expect_identical(ece(g, conf, loss = f), ece(g, conf, ok))
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", d)
  expect_equal(
    ece(dplyr::tbl(con, "t"), conf, loss = f, binning = "equal_width")$.estimate,
    ece_vec(conf, ok, binning = "equal_width"),
    tolerance = 1e-12
  )
})

test_that("corp_reliability() and smooth_calibration() take loss = too", {
  set.seed(42)
  conf <- round(stats::runif(300, 0.5, 1), 2)
  ok <- stats::rbinom(300, 1, conf)
  d <- data.frame(conf, ok, f = 1 - ok)
  set.seed(1)
  a <- corp_reliability(d, conf, ok, times = 10)
  set.seed(1)
  expect_equal(corp_reliability(d, conf, loss = f, times = 10), a)
  set.seed(1)
  expect_equal(suppressMessages(corp_reliability(conf, loss = 1 - ok,
    times = 10)), a)
  set.seed(2)
  s <- smooth_calibration(d, conf, ok, times = 5)
  set.seed(2)
  expect_equal(smooth_calibration(d, conf, loss = f, times = 5), s)
  expect_error(corp_reliability(d, conf, ok, loss = f),
    class = "aurc_error_value"
  )
  expect_error(corp_reliability(d, conf), class = "aurc_error_missing")
})
