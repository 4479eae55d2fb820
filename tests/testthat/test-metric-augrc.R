test_that("hand-computed AUGRC, both methods", {
  # scores 3 > 2 > 1, losses 0, 1, 1: ranks r = 3, 2, 1, mid = r
  # trapezoid (1/9) * ((2 - 1/2) + (1 - 1/2)) is 2/9
  s <- c(3, 2, 1)
  l <- c(0, 1, 1)
  expect_equal(augrc_vec(s, l), 2 / 9)
  # step (1/9) * (2 + 1) is 1/3
  expect_equal(augrc_vec(s, l, method = "step"), 1 / 3)
  # a tie: (2, 1, 1) with losses (0, 1, 0): curve points (1/3, 0), (1, 1/3);
  # trapezoid 2/3 * (0 + 1/3) / 2 = 1/9
  expect_equal(augrc_vec(c(2, 1, 1), c(0, 1, 0)), 1 / 9)
})

test_that("reference values of the AUGRC authors' public code", {
  # Traub et al.'s example (values given in issue #3, from their code):
  # 100 evenly spaced confidences, alternating wrong/correct
  conf <- seq(0, 1, length.out = 100)
  loss <- 1 - rep(c(0, 1), 50)
  expect_equal(augrc_vec(conf, loss), 0.2475, tolerance = 1e-12)
  # their E-AUGRC: AUGRC - err^2 / 2 with err = 1/2
  expect_equal(eaugrc_vec(conf, loss), 0.2475 - 0.125, tolerance = 1e-12)
})

test_that("AUGRC equals its literal definition with ties, NA, weights", {
  set.seed(31)
  for (n in c(1, 2, 5, 40, 200)) {
    for (binary in c(FALSE, TRUE)) {
      d <- random_tied_data(n, grid = 0.5, binary = binary)
      expect_rel_equal(augrc_vec(d$score, d$loss),
        literal_augrc_trapezoid(d$score, d$loss))
      expect_rel_equal(augrc_vec(d$score, d$loss),
        literal_augrc_mid(d$score, d$loss))
      expect_rel_equal(augrc_vec(d$score, d$loss, method = "step"),
        literal_aurc_sele(d$score, d$loss))
      w <- stats::runif(n, 0, 2)
      expect_rel_equal(augrc_vec(d$score, d$loss, case_weights = w),
        literal_augrc_trapezoid(d$score, d$loss, w))
      expect_rel_equal(
        augrc_vec(d$score, d$loss, method = "step", case_weights = w),
        literal_aurc_sele(d$score, d$loss, w)
      )
    }
  }
  s <- c(0.3, NA, 0.3, 0.9, 0.1)
  l <- c(1, 0, 0, 1, NaN)
  expect_identical(augrc_vec(s, l), NA_real_)
  expect_rel_equal(augrc_vec(s, l, na_rm = TRUE),
    literal_augrc_trapezoid(s[c(1, 3, 4)], l[c(1, 3, 4)]))
})

test_that("step AUGRC is the sele AURC", {
  set.seed(32)
  d <- random_tied_data(300)
  w <- stats::runif(300)
  expect_identical(
    augrc_vec(d$score, d$loss, method = "step", case_weights = w),
    aurc_vec(d$score, d$loss, estimator = "sele", case_weights = w)
  )
})

test_that("the AUGRC identity holds to 1e-14 with ties", {
  set.seed(33)
  for (i in 1:30) {
    n <- sample(c(2, 10, 100, 1000), 1)
    d <- random_tied_data(n, grid = 0.5, binary = TRUE)
    d$loss[1:2] <- c(0, 1)
    id <- augrc_identity(d$score, d$loss)
    expect_lt(abs(id$difference), 1e-14)
    expect_equal(id$failure_auroc, failure_auroc_vec(d$score, d$loss))
    expect_equal(id$accuracy, 1 - mean(d$loss))
    expect_equal(id$augrc, augrc_vec(d$score, d$loss))
    # and E-AUGRC is its ranking term
    expect_equal(eaugrc_vec(d$score, d$loss),
      (1 - id$failure_auroc) * id$accuracy * (1 - id$accuracy),
      tolerance = 1e-12
    )
  }
  w <- stats::runif(50)
  d <- random_tied_data(50, binary = TRUE)
  d$loss[1:2] <- c(0, 1)
  expect_lt(abs(augrc_identity(d$score, d$loss, case_weights = w)$difference),
    1e-14)
})

test_that("E-AUGRC: zero for the oracle, never negative", {
  f <- c(0, 0, 1, 0, 1)
  expect_equal(eaugrc_vec(-f, f), 0)
  set.seed(34)
  for (i in 1:20) {
    d <- random_tied_data(30, binary = TRUE)
    expect_gte(eaugrc_vec(d$score, d$loss), -1e-15)
  }
  # one class: still defined
  expect_equal(eaugrc_vec(1:3, c(0, 0, 0)), 0)
  expect_equal(eaugrc_vec(1:3, c(1, 1, 1)), 0)
})

test_that("integer case weights equal repeated rows; row order is free", {
  set.seed(35)
  d <- random_tied_data(60, binary = TRUE)
  w <- sample(0:3, 60, replace = TRUE)
  for (m in c("trapezoid", "step")) {
    expect_rel_equal(
      augrc_vec(d$score, d$loss, method = m, case_weights = w),
      augrc_vec(rep(d$score, w), rep(d$loss, w), method = m)
    )
  }
  expect_rel_equal(eaugrc_vec(d$score, d$loss, case_weights = w),
    eaugrc_vec(rep(d$score, w), rep(d$loss, w)))
  p <- sample(60)
  expect_rel_equal(augrc_vec(d$score[p], d$loss[p]), augrc_vec(d$score, d$loss))
})

test_that("data-frame forms", {
  df <- data.frame(
    s = c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4), f = c(0, 1, 0, 1, 0, 1),
    g = rep(c("a", "b"), each = 3)
  )
  res <- augrc(df, s, f, method = "step")
  expect_named(res, c(".metric", ".estimator", ".estimate"))
  expect_identical(res$.estimator, "step")
  expect_equal(res$.estimate, augrc_vec(df$s, df$f, method = "step"))
  res <- eaugrc(df, s, f)
  expect_identical(c(res$.metric, res$.estimator), c("eaugrc", "trapezoid"))
  skip_if_not_installed("dplyr")
  res <- augrc(dplyr::group_by(df, g), s, f)
  expect_named(res, c("g", ".metric", ".estimator", ".estimate"))
  expect_equal(res$.estimate[2], augrc_vec(df$s[4:6], df$f[4:6]))
})

test_that("errors and warnings", {
  expect_warning(id <- augrc_identity(1:3, c(0, 0, 0)),
    class = "aurc_warning_one_class"
  )
  expect_true(is.na(id$identity))
  expect_snapshot({
    augrc_identity(1:3, c(0, 0, 0))
    augrc_vec(numeric(), numeric())
  })
  expect_snapshot(error = TRUE, {
    augrc_vec(1:3, c(0, 1, 0), method = "simpson")
    augrc_vec(1:3, c(0, -1, 0))
    eaugrc_vec(1:3, c(0, 0.5, 1))
    augrc_identity(1:3, c(0, 2, 1))
    augrc_identity(1:3, c(0, 1, 1), "x")
  })
})
