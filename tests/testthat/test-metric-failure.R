test_that("hand-computed failure AUROC and AUPR", {
  # scores 0.9 0.8 0.8 0.6 0.4 0.3, failures at 0.8, 0.4, 0.3
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  f <- c(0, 0, 1, 0, 1, 1)
  # pairs (correct, failure): 0.9 beats all 3; 0.8 ties 0.8 (1/2) and beats
  # 2; 0.6 beats 2 -> (3 + 2.5 + 2) / 9
  expect_equal(failure_auroc_vec(s, f), 7.5 / 9)
  # thresholds from the bottom: {0.3}: rec 1/3, prec 1; {0.3, 0.4}: rec 2/3,
  # prec 1; + 0.6: rec 2/3; + 0.8 (two): rec 1, prec 3/5; + 0.9: rec 1
  expect_equal(failure_aupr_vec(s, f), 1 / 3 + 1 / 3 + (1 / 3) * (3 / 5))
})

test_that("the authors' example (sklearn conventions)", {
  # Traub et al.'s example from issue #3: AUROC_f is 0.51, computed from the
  # pairs: the correct prediction at ascending rank 2k beats k failures
  conf <- seq(0, 1, length.out = 100)
  loss <- 1 - rep(c(0, 1), 50)
  expect_equal(failure_auroc_vec(conf, loss), sum(1:50) / 2500,
    tolerance = 1e-12
  )
})

test_that("literal definitions with ties, NA and case weights", {
  set.seed(41)
  for (n in c(2, 5, 30, 150)) {
    d <- random_tied_data(n, grid = 0.5, binary = TRUE)
    d$loss[1:2] <- c(0, 1)
    expect_rel_equal(failure_auroc_vec(d$score, d$loss),
      literal_failure_auroc(d$score, d$loss))
    expect_rel_equal(failure_aupr_vec(d$score, d$loss),
      literal_failure_aupr(d$score, d$loss))
    w <- stats::runif(n)
    expect_rel_equal(failure_auroc_vec(d$score, d$loss, case_weights = w),
      literal_failure_auroc(d$score, d$loss, w))
    expect_rel_equal(failure_aupr_vec(d$score, d$loss, case_weights = w),
      literal_failure_aupr(d$score, d$loss, w))
    wi <- sample(0:3, n, replace = TRUE)
    wi[1:2] <- 1
    expect_rel_equal(
      failure_aupr_vec(d$score, d$loss, case_weights = wi),
      failure_aupr_vec(rep(d$score, wi), rep(d$loss, wi))
    )
    p <- sample(n)
    expect_rel_equal(failure_aupr_vec(d$score[p], d$loss[p]),
      failure_aupr_vec(d$score, d$loss))
  }
  expect_identical(failure_auroc_vec(c(1, NA, 3), c(0, 1, 1)), NA_real_)
  expect_equal(failure_auroc_vec(c(1, NA, 3), c(0, 1, 1), na_rm = TRUE), 0)
  expect_equal(failure_auroc_vec(1:4, c(TRUE, TRUE, FALSE, FALSE)), 1)
})

test_that("data-frame forms", {
  df <- data.frame(s = c(4, 3, 2, 1), f = c(0, 1, 0, 1))
  res <- failure_aupr(df, s, f)
  expect_identical(c(res$.metric, res$.estimator), c("failure_aupr", "binary"))
  expect_equal(res$.estimate, failure_aupr_vec(df$s, df$f))
  expect_equal(failure_auroc(df, s, f)$.estimate, 0.75)
})

test_that("one class gives NA with a classed warning; bad input errors", {
  expect_warning(out <- failure_auroc_vec(1:3, c(1, 1, 1)),
    class = "aurc_warning_one_class"
  )
  expect_identical(out, NA_real_)
  expect_warning(failure_aupr_vec(1:3, c(0, 0, 0)),
    class = "aurc_warning_one_class"
  )
  expect_snapshot({
    failure_auroc_vec(1:3, c(1, 1, 1))
    failure_aupr_vec(1:3, c(0, 0, 0))
  })
  expect_snapshot(error = TRUE, {
    failure_auroc_vec(1:3, c(0, 0.5, 1))
    failure_aupr_vec(1:3, c(0, 1))
    failure_auroc(data.frame(s = 1:2, f = 0:1), s, nope)
  })
})
