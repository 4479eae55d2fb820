estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")

test_that("hand-computed E-AURC and NAURC", {
  # scores 3 > 2 > 1, losses 1, 0, 0: alpha AURC = (1 + 1/2 + 1/3) / 3;
  # oracle order losses 0, 0, 1: (0 + 0 + 1/3) / 3
  s <- c(3, 2, 1)
  l <- c(1, 0, 0)
  expect_equal(eaurc_vec(s, l), (1 + 1 / 2) / 3)
  # NAURC: (11/18 - 1/9) / (1/3 - 1/9) is (1/2) / (2/9) is 9/4
  expect_equal(naurc_vec(s, l), 9 / 4)
  # asymptotic optimum with err = 1/3: 1/3 + 2/3 log(2/3)
  expect_equal(eaurc_vec(s, l, optimum = "asymptotic"),
    11 / 18 - (1 / 3 + 2 / 3 * log(2 / 3)))
})

test_that("the authors' public code: E-AURC with the asymptotic optimum", {
  # Traub et al.'s example (issue #3): trapezoid AURC 0.48281112575762547,
  # err = 1/2, optimum 1/2 + 1/2 log(1/2) in their code
  conf <- seq(0, 1, length.out = 100)
  loss <- 1 - rep(c(0, 1), 50)
  expect_equal(
    eaurc_vec(conf, loss, estimator = "trapezoid", optimum = "asymptotic"),
    0.48281112575762547 - (0.5 + 0.5 * log(0.5)),
    tolerance = 1e-12
  )
})

test_that("literal definitions with ties, NA and case weights", {
  set.seed(51)
  for (n in c(1, 3, 8, 40, 120)) {
    for (binary in c(FALSE, TRUE)) {
      d <- random_tied_data(n, grid = 0.5, binary = binary)
      if (!binary) d$loss <- round(d$loss, 1) # ties in the loss too
      w <- stats::runif(n, 0, 2.5)
      for (est in estimators) {
        a <- literal_aurc(d$score, d$loss, estimator = est)
        o <- literal_aurc_oracle(d$loss, estimator = est)
        expect_rel_equal(eaurc_vec(d$score, d$loss, estimator = est), a - o)
        aw <- literal_aurc(d$score, d$loss, w, estimator = est)
        ow <- literal_aurc_oracle(d$loss, w, estimator = est)
        expect_rel_equal(
          eaurc_vec(d$score, d$loss, estimator = est, case_weights = w),
          aw - ow
        )
        if (length(unique(d$loss)) > 1) {
          expect_rel_equal(naurc_vec(d$score, d$loss, estimator = est),
            literal_naurc(d$score, d$loss, estimator = est))
          expect_rel_equal(
            naurc_vec(d$score, d$loss, estimator = est, case_weights = w),
            literal_naurc(d$score, d$loss, w, estimator = est)
          )
        }
      }
    }
  }
  expect_identical(eaurc_vec(c(1, NA), c(0, 1)), NA_real_)
  expect_equal(eaurc_vec(c(1, NA, 2), c(0, 1, 1), na_rm = TRUE), 1 / 2)
})

test_that("the exact optimum is the minimum over all orderings", {
  # every permutation of 6 losses (two tied) as a strict order
  l <- c(0, 1, 0.5, 0.5, 2, 0)
  permutations <- function(v) {
    if (length(v) == 1) return(list(v))
    do.call(c, lapply(seq_along(v), function(i) {
      lapply(permutations(v[-i]), function(p) c(v[i], p))
    }))
  }
  perms <- permutations(1:6)
  for (est in estimators) {
    vals <- vapply(perms, function(p) aurc_vec(p, l, estimator = est), 1)
    expect_equal(eaurc_vec(1:6, l, estimator = est),
      aurc_vec(1:6, l, estimator = est) - min(vals),
      tolerance = 1e-12
    )
  }
})

test_that("E-AURC (exact) is never negative for rank estimators, ties too", {
  set.seed(52)
  for (i in 1:40) {
    d <- random_tied_data(sample(2:60, 1), grid = 1, binary = i %% 2 == 0)
    for (est in c("alpha", "alpha_prime", "sele", "2sele")) {
      expect_gte(eaurc_vec(d$score, d$loss, estimator = est), -1e-15)
    }
  }
  # the trapezoid rule across a tie can fall below the strict oracle:
  # losses 0, 1, 1 with the two failures tied: 1/3 * 0 + 2/3 * (0 + 2/3) / 2
  # = 2/9, oracle 0 + 1/3 * (0 + 1/2) / 2 + 1/3 * (1/2 + 2/3) / 2 = 5/18
  expect_equal(eaurc_vec(c(2, 1, 1), c(0, 1, 1), estimator = "trapezoid"),
    2 / 9 - 5 / 18)
})

test_that("the asymptotic optimum can give a negative E-AURC", {
  # a perfect ordering of 10 predictions with 5 failures: the trapezoid AURC
  # (1/10) (5 * 0 + 0.5 * (0 + 1/6) + 0.5 * (1/6 + 2/7) + ...) is below
  # 1/2 + 1/2 log(1/2)
  f <- rep(c(0, 1), each = 5)
  r <- c(0, (1:5) / (6:10))
  trap <- sum((head(r, -1) + tail(r, -1)) / 2) / 10
  expect_equal(aurc_vec(10:1, f, estimator = "trapezoid"), trap)
  expect_lt(trap, 0.5 + 0.5 * log(0.5))
  expect_equal(
    eaurc_vec(10:1, f, estimator = "trapezoid", optimum = "asymptotic"),
    trap - (0.5 + 0.5 * log(0.5))
  )
  expect_equal(eaurc_vec(10:1, f, estimator = "trapezoid"), 0)
  # err = 1: the optimum's limit is 1
  expect_equal(eaurc_vec(1:3, c(1, 1, 1), optimum = "asymptotic"), 0)
})

test_that("integer case weights equal repeated rows", {
  set.seed(53)
  d <- random_tied_data(50)
  d$loss <- round(d$loss, 1)
  w <- sample(0:3, 50, replace = TRUE)
  for (est in estimators) {
    expect_rel_equal(
      eaurc_vec(d$score, d$loss, estimator = est, case_weights = w),
      eaurc_vec(rep(d$score, w), rep(d$loss, w), estimator = est)
    )
    expect_rel_equal(
      naurc_vec(d$score, d$loss, estimator = est, case_weights = w),
      naurc_vec(rep(d$score, w), rep(d$loss, w), estimator = est)
    )
  }
})

test_that("large weights take the closed-form oracle and equal repeated rows", {
  set.seed(54)
  n <- 12
  d <- random_tied_data(n)
  d$loss <- round(d$loss, 1)
  # weights above 64 take the closed forms of the oracle at group level
  w <- sample(c(0, 70, 150, 333), n, replace = TRUE)
  w[1] <- 400
  rs <- rep(d$score, w)
  rl <- rep(d$loss, w)
  for (est in estimators) {
    expect_rel_equal(
      eaurc_vec(d$score, d$loss, estimator = est, case_weights = w),
      eaurc_vec(rs, rl, estimator = est)
    )
    # the literal O(n^2) definition (DEFINITIONS Sec. 4) on the repeated rows
    expect_rel_equal(
      eaurc_vec(d$score, d$loss, estimator = est, case_weights = w),
      literal_aurc(rs, rl, estimator = est) -
        literal_aurc_oracle(rl, estimator = est),
      tol = 1e-10
    )
  }
  # fractional weights: the unit split of DEFINITIONS Sec. 4 with a remainder
  wf <- w + 0.5
  for (est in estimators) {
    expect_rel_equal(
      eaurc_vec(d$score, d$loss, estimator = est, case_weights = wf),
      literal_aurc(d$score, d$loss, wf, estimator = est) -
        literal_aurc_oracle(d$loss, wf, estimator = est),
      tol = 1e-10
    )
  }
})

test_that("huge case weights neither hang nor lose the value", {
  # used to loop once per unit of weight
  w <- c(1e16, 1, 1)
  for (est in estimators) {
    v <- eaurc_vec(c(0.9, 0.8, 0.1), c(0, 1, 0), estimator = est,
      case_weights = w
    )
    expect_true(is.finite(v))
    expect_true(is.finite(naurc_vec(c(0.9, 0.8, 0.1), c(0, 1, 0),
      estimator = est, case_weights = w
    )))
  }
  # scaling every weight by 1e12 changes the oracle alpha by O(1 / n) only
  s <- c(0.9, 0.8, 0.7, 0.1)
  l <- c(0, 1, 0, 1)
  big <- eaurc_vec(s, l, case_weights = c(3, 1, 2, 5) * 1e12)
  bigger <- eaurc_vec(s, l, case_weights = c(3, 1, 2, 5) * 1e13)
  expect_equal(big, bigger, tolerance = 1e-9)
})

test_that("data-frame forms name the estimator and optimum", {
  df <- data.frame(s = c(3, 2, 1, 0), l = c(1, 0, 0, 1))
  res <- eaurc(df, s, l, estimator = "sele", optimum = "asymptotic")
  expect_identical(res$.estimator, "sele/asymptotic")
  expect_equal(res$.estimate,
    eaurc_vec(df$s, df$l, estimator = "sele", optimum = "asymptotic"))
  res <- naurc(df, s, l)
  expect_identical(c(res$.metric, res$.estimator), c("naurc", "alpha"))
})

test_that("errors and warnings", {
  expect_warning(out <- naurc_vec(1:3, c(1, 1, 1)),
    class = "aurc_warning_undefined"
  )
  expect_identical(out, NA_real_)
  expect_snapshot(naurc_vec(1:3, c(1, 1, 1)))
  expect_snapshot(error = TRUE, {
    eaurc_vec(1:3, c(0, 1, 0), optimum = "best")
    eaurc_vec(1:3, c(0, 0.5, 1), optimum = "asymptotic")
    eaurc_vec(1:3, c(0, 1, 0), estimator = "beta")
    naurc_vec(1:3, c(0, -1, 0))
  })
})
