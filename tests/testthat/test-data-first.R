# corp_reliability(), smooth_calibration() and certify_threshold() take a
# data frame first, as every function of the package; vectors first still
# work, with a message once per session (issue 33).

test_that("data first equals vectors first, which is told once", {
  set.seed(71)
  conf <- round(stats::runif(400, 0.5, 1), 2)
  ok <- stats::rbinom(400, 1, conf^2)
  w <- stats::runif(400, 0.5, 2)
  d <- data.frame(conf, ok, w)
  told <- aurc:::vectors_first_told
  rm(list = ls(told), envir = told)
  set.seed(1)
  a <- corp_reliability(d, conf, ok, times = 0, case_weights = w)
  set.seed(1)
  expect_message(b <- corp_reliability(conf, ok, times = 0, case_weights = w),
    class = "aurc_message_deprecated"
  )
  expect_equal(a, b)
  set.seed(1)
  expect_no_message(corp_reliability(conf, ok, times = 20))
  # named vectors (the old call by name) need no message
  expect_no_message(corp_reliability(confidence = conf, correct = ok,
    times = 0))
  set.seed(2)
  s1 <- smooth_calibration(d, conf, ok, times = 10)
  set.seed(2)
  expect_message(s2 <- smooth_calibration(conf, ok, times = 10),
    class = "aurc_message_deprecated"
  )
  expect_equal(s1, s2)
  score <- stats::runif(3000)
  failure <- stats::rbinom(3000, 1, 0.3 * (1 - score)^2)
  cal <- data.frame(score, failure)
  c1 <- certify_threshold(cal, score, failure, 0.05, 0.01, method = "ltt",
    fwer = "holm")
  expect_message(c2 <- certify_threshold(score, failure, 0.05, 0.01,
    method = "ltt", fwer = "holm"), class = "aurc_message_deprecated")
  expect_identical(c1, c2)
  expect_identical(
    certify_threshold(cal, score, failure, target_risk = 0.05),
    suppressMessages(certify_threshold(score, failure, target_risk = 0.05))
  )
})

test_that("options keep their meaning; bad columns are classed errors", {
  set.seed(72)
  conf <- round(stats::runif(200, 0.5, 1), 2)
  ok <- stats::rbinom(200, 1, conf)
  d <- data.frame(conf, ok, g = rep(1:2, 100))
  # times given with the asymptotic band: ignored, with its warning; not
  # given: no warning (missing() still tells)
  expect_warning(corp_reliability(d, conf, ok, times = 5,
    band_method = "asymptotic"), class = "aurc_warning_ignored")
  expect_no_warning(corp_reliability(d, conf, ok, band_method = "asymptotic"))
  expect_error(corp_reliability(d, conf, nope), class = "aurc_error_column")
  err <- tryCatch(corp_reliability(d, conf, nope), error = identity)
  expect_match(conditionMessage(err), "correct")
  expect_error(smooth_calibration(d, conf, ok, bogus = 1),
    class = "aurc_error_dots"
  )
  skip_if_not_installed("dplyr")
  expect_error(corp_reliability(dplyr::group_by(d, g), conf, ok),
    class = "aurc_error_type"
  )
  # certify_threshold() takes a grouped data frame as `group =` (issue 35)
  expect_identical(
    suppressWarnings(certify_threshold(dplyr::group_by(d, g), conf, ok,
      0.5, 0.2
    )),
    suppressWarnings(certify_threshold(d, conf, ok, 0.5, 0.2, group = g))
  )
})
