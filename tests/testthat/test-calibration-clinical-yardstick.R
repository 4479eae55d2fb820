# ICI, E50, E90, Emax and the calibration intercept as yardstick metrics
# (R/calibration-clinical-yardstick.R)

clinical_prob_data <- function() {
  set.seed(61)
  n <- 300
  p <- stats::runif(n)
  truth <- factor(ifelse(stats::runif(n) < p^1.5, "yes", "no"),
    c("yes", "no"))
  data.frame(truth = truth, .pred_yes = p, .pred_no = 1 - p,
    g = rep(c("a", "b"), n / 2), w = stats::runif(n, 0.5, 2))
}

test_that("the prob forms equal the top-label summaries", {
  df <- clinical_prob_data()
  conf <- pmax(df$.pred_yes, df$.pred_no)
  top <- ifelse(df$.pred_yes >= df$.pred_no, "yes", "no")
  correct <- as.numeric(top == df$truth)
  expect_equal(ici_prob_vec(df$truth, df$.pred_yes), ici_vec(conf, correct))
  expect_equal(e50_prob_vec(df$truth, as.matrix(df[2:3])),
    e50_vec(conf, correct))
  expect_equal(e90_prob(df, truth, .pred_yes, .pred_no)$.estimate,
    e90_vec(conf, correct))
  expect_equal(emax_prob(df, truth, .pred_yes, case_weights = w)$.estimate,
    emax_vec(conf, correct, case_weights = df$w))
  expect_equal(
    calibration_intercept_prob(df, truth, .pred_yes, .pred_no)$.estimate,
    calibration_intercept_vec(conf, correct)
  )
  res <- ici_prob(df, truth, .pred_yes, .pred_no)
  expect_identical(res$.metric, "ici_prob")
  expect_identical(res$.estimator, "loess")
  expect_identical(attr(calibration_intercept_prob, "direction"), "zero")
  expect_identical(attr(ici_prob, "direction"), "minimize")
})

test_that("groups, metric sets and ignored options", {
  skip_if_not_installed("dplyr")
  df <- clinical_prob_data()
  gdf <- dplyr::group_by(df, g)
  res <- ici_prob(gdf, truth, .pred_yes, .pred_no)
  want <- vapply(split(df, df$g), function(x) {
    ici_prob_vec(x$truth, as.matrix(x[c(".pred_yes", ".pred_no")]))
  }, numeric(1))
  expect_equal(res$.estimate, unname(want))
  expect_warning(ici_prob_vec(df$truth, df$.pred_yes, estimator = "macro"),
    class = "aurc_warning_ignored")
  expect_error(ici_prob_vec(df$truth, df$.pred_yes, span = 0),
    class = "aurc_error_value")
  expect_error(ici_prob_vec(as.character(df$truth), df$.pred_yes),
    class = "aurc_error_type")
  skip_if_not_installed("yardstick")
  ms <- yardstick::metric_set(ici_prob, calibration_intercept_prob,
    ece_prob)
  out <- ms(df, truth, .pred_yes, .pred_no)
  expect_identical(out$.metric,
    c("ici_prob", "calibration_intercept_prob", "ece_prob"))
  expect_equal(out$.estimate[1], ici_prob(df, truth, .pred_yes,
    .pred_no)$.estimate)
})
