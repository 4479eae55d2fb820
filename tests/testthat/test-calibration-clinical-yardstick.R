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

test_that("two classes: the calibration of the event probability", {
  df <- clinical_prob_data()
  event <- as.numeric(df$truth == "yes")
  expect_equal(ici_prob_vec(df$truth, df$.pred_yes),
    ici_vec(df$.pred_yes, event))
  expect_equal(e50_prob_vec(df$truth, as.matrix(df[2:3])),
    e50_vec(df$.pred_yes, event))
  expect_equal(e90_prob(df, truth, .pred_yes, .pred_no)$.estimate,
    e90_vec(df$.pred_yes, event))
  expect_equal(emax_prob(df, truth, .pred_yes, case_weights = w)$.estimate,
    emax_vec(df$.pred_yes, event, case_weights = df$w))
  # the intercept is glm(event ~ 1 + offset(logit(p))): the clinical
  # calibration-in-the-large of P(yes)
  fit <- stats::glm(event ~ 1 + offset(stats::qlogis(df$.pred_yes)),
    family = stats::binomial(),
    control = stats::glm.control(epsilon = 1e-14, maxit = 100)
  )
  expect_equal(
    calibration_intercept_prob(df, truth, .pred_yes, .pred_no)$.estimate,
    unname(stats::coef(fit)), tolerance = 1e-8
  )
  # the second level as the event: the calibration of P(no)
  # (one column is the probability of the event level, as in yardstick)
  expect_equal(
    ici_prob_vec(df$truth, df$.pred_no, event_level = "second"),
    ici_vec(df$.pred_no, 1 - event)
  )
  expect_equal(
    calibration_intercept_prob(df, truth, .pred_yes, .pred_no,
      event_level = "second")$.estimate,
    calibration_intercept_vec(df$.pred_no, 1 - event)
  )
  # not the top-label summary (which folds the probabilities at 0.5), and
  # no warning that the event probability looks like P(class)
  conf <- pmax(df$.pred_yes, df$.pred_no)
  top <- ifelse(df$.pred_yes >= df$.pred_no, "yes", "no")
  expect_false(isTRUE(all.equal(ici_prob_vec(df$truth, df$.pred_yes),
    ici_vec(conf, as.numeric(top == df$truth)))))
  expect_no_warning(ici_prob_vec(df$truth, df$.pred_yes))
  res <- ici_prob(df, truth, .pred_yes, .pred_no)
  expect_identical(res$.metric, "ici_prob")
  expect_identical(res$.estimator, "loess")
  expect_identical(attr(calibration_intercept_prob, "direction"), "zero")
  expect_identical(attr(ici_prob, "direction"), "minimize")
})

test_that("more classes: top-label calibration", {
  set.seed(62)
  n <- 400
  raw <- matrix(stats::rexp(3 * n), n)
  p <- raw / rowSums(raw)
  lev <- c("a", "b", "c")
  truth <- factor(lev[apply(p, 1, function(q) sample(3, 1, prob = q^1.3))],
    lev)
  conf <- apply(p, 1, max)
  correct <- as.numeric(max.col(p, ties.method = "first") ==
    as.integer(truth))
  expect_equal(ici_prob_vec(truth, p), ici_vec(conf, correct))
  expect_equal(calibration_intercept_prob_vec(truth, p),
    calibration_intercept_vec(conf, correct))
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
