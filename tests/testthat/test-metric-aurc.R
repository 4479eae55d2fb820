estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")

test_that("hand-computed: three samples, no ties", {
  # accepted from the top: risks 0, 1/2, 2/3 at coverages 1/3, 2/3, 1
  s <- c(3, 2, 1)
  l <- c(0, 1, 1)
  expect_equal(aurc_vec(s, l), (0 + 1 / 2 + 2 / 3) / 3)
  # r = 3, 2, 1; sele = (0 * 3 + 1 * 2 + 1 * 1) / 9
  expect_equal(aurc_vec(s, l, estimator = "sele"), 1 / 3)
  expect_equal(aurc_vec(s, l, estimator = "2sele"), 2 / 3)
  # minus log(1 - 2 / 4) minus log(1 - 1 / 4), over n = 3
  expect_equal(aurc_vec(s, l, estimator = "alpha_prime"), log(8 / 3) / 3)
  # flat 1/3 * 0, then trapezoids 1/3 * (0 + 1/2) / 2 + 1/3 * (1/2 + 2/3) / 2
  expect_equal(aurc_vec(s, l, estimator = "trapezoid"), 5 / 18)
})

test_that("hand-computed: a tie is one threshold", {
  # both accepted together: a single threshold with risk 1/2
  expect_equal(aurc_vec(c(1, 1), c(1, 0)), 1 / 2)
  expect_equal(aurc_weights(c(1, 1)), c(1, 1))
  # H_2 - H_0 = 1.5 would be the no-ties formula: not used with ties
  s <- c(2, 1, 1)
  l <- c(0, 1, 0)
  # thresholds: s = 2 (coverage 1/3, risk 0) counted once, s = 1 (risk 1/3)
  # counted twice
  expect_equal(aurc_vec(s, l), (0 + 2 * (1 / 3)) / 3)
  # up = 1, 3, 3: w(2) = 1/3 + 1/3 + 1 = 5/3, w(1) = 2/3
  expect_equal(aurc_weights(s), c(5 / 3, 2 / 3, 2 / 3))
})

test_that("reference values of the authors' public code", {
  # Zhou et al.'s code for alpha, alpha_prime and sele; the AUGRC authors'
  # code (Traub et al.) for the trapezoid convention. Values from issue #2.
  s <- c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)
  f <- c(0, 1, 0, 0, 1, 0, 1, 1, 0, 1)
  expect_equal(aurc_vec(s, f), 0.368968253968254, tolerance = 1e-14)
  expect_equal(aurc_vec(s, f, estimator = "alpha_prime"), 0.335895448726861,
    tolerance = 1e-14
  )
  expect_equal(aurc_vec(s, f, estimator = "sele"), 0.23, tolerance = 1e-14)
  expect_equal(aurc_vec(s, f, estimator = "trapezoid"), 0.343968253968254,
    tolerance = 1e-14
  )
  # Traub et al.'s example: 100 evenly spaced confidences, alternating
  # between wrong and correct
  conf <- seq(0, 1, length.out = 100)
  loss <- 1 - rep(c(0, 1), 50)
  expect_equal(aurc_vec(conf, loss, estimator = "trapezoid"),
    0.48281112575762547,
    tolerance = 1e-12
  )
})

test_that("2 x SELE is not an upper bound (Zhou et al., App. A.2)", {
  # five samples, only the most confident one wrong
  s <- 5:1
  l <- c(1, 0, 0, 0, 0)
  alpha <- aurc_vec(s, l)
  expect_equal(alpha, harmonic(5) / 5)
  expect_equal(aurc_vec(s, l, estimator = "2sele"), 2 / 5)
  expect_gt(alpha, aurc_vec(s, l, estimator = "2sele"))
})

test_that("every estimator equals its literal definition, ties included", {
  set.seed(20261121)
  for (n in c(1, 2, 3, 5, 17, 64, 150, 300)) {
    for (binary in c(FALSE, TRUE)) {
      d <- random_tied_data(n, grid = if (n > 50) 0.25 else 0.5, binary)
      for (est in estimators) {
        expect_rel_equal(
          aurc_vec(d$score, d$loss, estimator = est),
          literal_aurc(d$score, d$loss, estimator = est)
        )
      }
    }
  }
})

test_that("every estimator equals its literal definition with case weights", {
  set.seed(11)
  for (n in c(1, 4, 30, 200)) {
    d <- random_tied_data(n, grid = 0.5)
    w_int <- sample(0:3, n, replace = TRUE)
    w_int[1] <- 1 # at least one sample counts
    w_real <- stats::runif(n, 0, 2)
    for (w in list(w_int, w_real)) {
      for (est in estimators) {
        if (est == "alpha_prime" && sum(w) < 1) {
          # its weight -log(1 - r / (n + 1)) counts cases (issue 33)
          expect_warning(
            v <- aurc_vec(d$score, d$loss, estimator = est, case_weights = w),
            class = "aurc_warning_weights_scale"
          )
          expect_identical(v, NA_real_)
          next
        }
        expect_rel_equal(
          aurc_vec(d$score, d$loss, estimator = est, case_weights = w),
          literal_aurc(d$score, d$loss, w, estimator = est)
        )
      }
    }
  }
})

test_that("integer case weights equal repeated rows", {
  set.seed(3)
  d <- random_tied_data(80, binary = TRUE)
  w <- sample(0:4, 80, replace = TRUE)
  rep_s <- rep(d$score, w)
  rep_l <- rep(d$loss, w)
  for (est in estimators) {
    expect_rel_equal(
      aurc_vec(d$score, d$loss, estimator = est, case_weights = w),
      aurc_vec(rep_s, rep_l, estimator = est)
    )
  }
  expect_equal(
    aurc_weights(d$score, case_weights = w)[w > 0],
    aurc_weights(rep_s)[match(d$score[w > 0], rep_s)]
  )
})

test_that("results do not depend on the order of the rows", {
  set.seed(5)
  d <- random_tied_data(200, grid = 0.5)
  w <- stats::runif(200)
  for (est in estimators) {
    for (i in 1:3) {
      p <- sample(200)
      expect_rel_equal(
        aurc_vec(d$score[p], d$loss[p], estimator = est,
          case_weights = w[p]
        ),
        aurc_vec(d$score, d$loss, estimator = est, case_weights = w)
      )
      expect_rel_equal(
        aurc_vec(d$score[p], d$loss[p], estimator = est),
        aurc_vec(d$score, d$loss, estimator = est)
      )
    }
  }
})

test_that("alpha weights: mean 1, H_n - H_{n-r} without ties only", {
  set.seed(7)
  for (n in c(1, 2, 10, 333)) {
    s <- stats::rnorm(n)
    r <- rank(s)
    w <- aurc_weights(s)
    h <- vapply(r, function(ri) harmonic(n) - harmonic(n - ri), numeric(1))
    expect_rel_equal(w, h)
    expect_equal(mean(w), 1, tolerance = 1e-13)
    # Eq. 20: alpha_prime <= alpha, weight by weight
    wp <- aurc_weights(s, "alpha_prime")
    expect_true(all(wp <= w + 1e-15))
    expect_rel_equal(wp, -log(1 - r / (n + 1)))
    expect_rel_equal(aurc_weights(s, "sele"), r / n)
    expect_rel_equal(aurc_weights(s, "2sele"), 2 * r / n)
  }
  # with ties: still mean 1, equal to the literal sum, not the H formula
  set.seed(8)
  s <- round(stats::rnorm(300), 1)
  w <- aurc_weights(s)
  expect_equal(mean(w), 1, tolerance = 1e-13)
  expect_rel_equal(w, literal_alpha_weights(s))
  rmax <- literal_ranks(s)$r
  h <- vapply(rmax, function(ri) harmonic(300) - harmonic(300 - ri), 0)
  expect_false(isTRUE(all.equal(w, h)))
  # weighted mean is 1 with case weights too
  cw <- stats::runif(300)
  wc <- aurc_weights(s, case_weights = cw)
  expect_equal(sum(cw * wc) / sum(cw), 1, tolerance = 1e-13)
  expect_rel_equal(wc, literal_alpha_weights(s, cw))
})

test_that("alpha_prime <= alpha for the estimates without ties", {
  set.seed(9)
  for (i in 1:20) {
    s <- stats::runif(50)
    l <- stats::rbinom(50, 1, 0.4)
    expect_lte(
      aurc_vec(s, l, estimator = "alpha_prime"), aurc_vec(s, l) + 1e-15
    )
  }
})

test_that("aurc_weights reproduce the estimate", {
  set.seed(10)
  d <- random_tied_data(120)
  cw <- stats::runif(120)
  for (est in c("alpha", "alpha_prime", "sele", "2sele")) {
    w <- aurc_weights(d$score, est, case_weights = cw)
    expect_rel_equal(
      sum(cw * w * d$loss) / sum(cw),
      aurc_vec(d$score, d$loss, estimator = est, case_weights = cw)
    )
  }
})

test_that("special scores: -0 equals 0, infinite scores are ordered", {
  expect_equal(
    aurc_vec(c(0, -0, 1), c(1, 0, 0)),
    aurc_vec(c(0, 0, 1), c(1, 0, 0))
  )
  s <- c(Inf, 2, -Inf, 1)
  l <- c(0, 1, 1, 0)
  expect_equal(aurc_vec(s, l), literal_aurc_alpha(s, l))
  expect_equal(aurc_vec(c(3L, 2L, 1L), c(FALSE, TRUE, TRUE)), 7 / 18)
})

test_that("missing values follow na_rm", {
  s <- c(0.9, NA, 0.5, 0.2)
  l <- c(0, 1, NaN, 1)
  expect_identical(aurc_vec(s, l), NA_real_)
  expect_equal(aurc_vec(s, l, na_rm = TRUE), aurc_vec(c(0.9, 0.2), c(0, 1)))
  w <- c(1, 2, 3, 4)
  expect_equal(
    aurc_vec(s, l, na_rm = TRUE, case_weights = w),
    aurc_vec(c(0.9, 0.2), c(0, 1), case_weights = c(1, 4))
  )
  expect_identical(aurc_weights(c(1, NA, 2)), c(0.5, NA, 1.5))
})

test_that("nothing left to compute gives NA with a classed warning", {
  expect_warning(out <- aurc_vec(numeric(), numeric()),
    class = "aurc_warning_no_data"
  )
  expect_identical(out, NA_real_)
  expect_warning(aurc_vec(NA_real_, 1, na_rm = TRUE),
    class = "aurc_warning_no_data"
  )
  expect_warning(aurc_vec(1:2, c(0, 1), case_weights = c(0, 0)),
    class = "aurc_warning_no_data"
  )
  expect_snapshot(aurc_vec(numeric(), numeric()))
})

test_that("bad input fails with a classed error naming the argument", {
  expect_error(aurc_vec("a", 1), class = "aurc_error")
  expect_snapshot(error = TRUE, {
    aurc_vec("a", 1)
    aurc_vec(factor("a"), 1)
    aurc_vec(1:3, 1:2)
    aurc_vec(1:3, c(0, -1, 0))
    aurc_vec(1:3, c(0, Inf, 0))
    aurc_vec(1:3, c("a", "b", "c"))
    aurc_vec(1:3, c(0, 1, 0), estimator = "beta")
    aurc_vec(1:3, c(0, 1, 0), na_rm = NA)
    aurc_vec(1:3, c(0, 1, 0), case_weights = c(1, -1, 1))
    aurc_vec(1:3, c(0, 1, 0), case_weights = 1:2)
    aurc_vec(1:3, c(0, 1, 0), "alpha")
    aurc_weights(1:3, "trapezoid")
    aurc_weights(matrix(1:4, 2))
  })
})

test_that("data-frame form: columns, expressions, groups", {
  df <- data.frame(
    s = c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4),
    correct = c(1, 0, 1, 1, 0, 0),
    g = c("a", "a", "a", "b", "b", "b"),
    w = c(1, 2, 1, 1, 1, 3)
  )
  res <- aurc(df, s, 1 - correct)
  expect_s3_class(res, "tbl_df")
  expect_named(res, c(".metric", ".estimator", ".estimate"))
  expect_identical(res$.metric, "aurc")
  expect_identical(res$.estimator, "alpha")
  expect_equal(res$.estimate, aurc_vec(df$s, 1 - df$correct))
  expect_equal(
    aurc(df, "s", 1 - correct, estimator = "sele", case_weights = w)$.estimate,
    aurc_vec(df$s, 1 - df$correct, estimator = "sele", case_weights = df$w)
  )
  skip_if_not_installed("dplyr")
  grouped <- dplyr::group_by(df, g)
  res <- aurc(grouped, s, 1 - correct)
  expect_named(res, c("g", ".metric", ".estimator", ".estimate"))
  expect_equal(res$g, c("a", "b"))
  expect_equal(res$.estimate, c(
    aurc_vec(df$s[1:3], 1 - df$correct[1:3]),
    aurc_vec(df$s[4:6], 1 - df$correct[4:6])
  ))
})

test_that("data-frame form: bad input", {
  df <- data.frame(s = 1:3, l = c(0, 1, 0))
  expect_error(aurc(df, s, nope), class = "aurc_error")
  expect_snapshot(error = TRUE, {
    aurc(list(s = 1), s, l)
    aurc(df, s, nope)
    aurc(df, s, c(1, 0))
    aurc(df, s, l, estimator = "x")
    aurc(df, s, -l)
  })
})
