# label_shift_weights() (R/weights-label-shift.R): importance weights
# pi_target(y) / pi_source(y) for a label shift.

test_that("the weights are the ratio of the class frequencies", {
  truth <- factor(c("a", "a", "a", "b"))
  w <- label_shift_weights(truth, c(a = 0.5, b = 0.5))
  # source: a 3/4, b 1/4; so a: 0.5 / 0.75, b: 0.5 / 0.25
  expect_equal(as.double(w), c(2 / 3, 2 / 3, 2 / 3, 2))
  expect_identical(aurc:::weights_kind(w), "importance")
  # the weighted class frequencies are the target's
  expect_equal(sum(as.double(w)[truth == "b"]) / sum(as.double(w)), 0.5)
  # the target given as labels, the source given
  w2 <- label_shift_weights(c(1, 1, 2), target = c(2L, 2L, 2L, 1L),
    source = c("1" = 0.5, "2" = 0.5)
  )
  expect_equal(as.double(w2), c(0.25 / 0.5, 0.25 / 0.5, 0.75 / 0.5))
  # a class the target lacks gets weight 0
  w3 <- label_shift_weights(c("a", "b"), c(a = 1, b = 0))
  expect_equal(as.double(w3), c(2, 0))
})

test_that("weighted source data estimate the target's metrics", {
  gen <- function(n, prior) {
    y <- rbinom(n, 1, prior)
    score <- rnorm(n, ifelse(y == 1, 0.3, 1.2))
    failure <- rbinom(n, 1, plogis(-0.5 - 1.2 * score + 0.8 * y))
    data.frame(y = factor(y, 0:1), score = score, failure = failure)
  }
  set.seed(3)
  target <- gen(4e5, 0.6)
  truth_aurc <- aurc_vec(target$score, target$failure)
  truth_auroc <- failure_auroc_vec(target$score, target$failure)
  source <- gen(4e5, 0.15)
  w <- label_shift_weights(source$y, c("0" = 0.4, "1" = 0.6))
  expect_equal(aurc_vec(source$score, source$failure, case_weights = w),
    truth_aurc, tolerance = 0.02)
  expect_equal(
    failure_auroc_vec(source$score, source$failure, case_weights = w),
    truth_auroc, tolerance = 0.01
  )
  # without the weights the source's AURC is far off
  expect_gt(abs(aurc_vec(source$score, source$failure) / truth_aurc - 1),
    0.1)
  # the importance-weighted intervals cover the target's AURC
  reps <- if (identical(Sys.getenv("AURC_SLOW_TESTS"), "true")) 1000 else
    200
  hits <- vapply(seq_len(reps), function(r) {
    d <- gen(1000, 0.15)
    ci <- selective_ci_vec(d$score, d$failure, metrics = "aurc",
      case_weights = label_shift_weights(d$y, c("0" = 0.4, "1" = 0.6))
    )
    ci$.lower <= truth_aurc && truth_aurc <= ci$.upper
  }, logical(1))
  band <- 3.5 * sqrt(0.95 * 0.05 / reps)
  expect_lt(abs(mean(hits) - 0.95), band)
})

test_that("bad input gets classed errors", {
  y <- c("a", "b", "a")
  expect_error(label_shift_weights(y, c(a = 0.5, b = 0.6)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(y, c(a = 0.5, c = 0.5)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(y, c(0.5, 0.5)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(c(1L, 2L), c(2, 2, 1)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(y, c("a", "z")),
    class = "aurc_error_value")
  expect_error(label_shift_weights(c("a", NA), c(a = 1)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(character(), c(a = 1)),
    class = "aurc_error_value")
  expect_error(label_shift_weights(c(0.5, 1.5), c("0.5" = 1)),
    class = "aurc_error_type")
  expect_error(label_shift_weights(y, c(a = 0.5, b = 0.5),
    source = c(a = 1, b = 0)), class = "aurc_error_value")
})
