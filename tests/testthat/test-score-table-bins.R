# Binned score tables (score_table(bins = B), R/score-table-bins.R): the
# bins, the stated error bounds by hand, and the bounds holding on data
# (the engine's binning on a ClickHouse cluster: test-db-clickhouse.R).

test_that("binned score table by hand, with its bounds", {
  # by hand: scores 0.6, 0.5, 0.1 with losses 0, 1, 0 in 2 bins over
  # [0.1, 0.6], [0.1, 0.35) and [0.35, 0.6]: 0.6 and 0.5 merge (count 2,
  # loss sum 1, midpoint 0.475), 0.1 alone (midpoint 0.225). Exact alpha
  # AURC (0 / 1 + 1 / 2 + 1 / 3) / 3 = 5 / 18; binned (1 / 2 + 1 / 2 +
  # 1 / 3) / 3 = 4 / 9; the bound (M / N) sum c_b^2 / N_b with bins in
  # descending order, c = (2, 1), N_b = (2, 3), M = 1, N = 3: the sum
  # 4 / 2 plus 1 / 3, over 3, is 7 / 9
  tiny <- data.frame(s = c(0.6, 0.5, 0.1), l = c(0, 1, 0))
  sb1 <- score_table(tiny, s, l, bins = 2)
  expect_equal(sb1$n, c(1, 2))
  expect_equal(sb1$loss_sum, c(0, 1))
  expect_equal(sb1$score, c(0.1 + 0.25 / 2, 0.35 + 0.25 / 2))
  expect_equal(aurc(tiny, s, l)$.estimate, 5 / 18)
  expect_equal(aurc(sb1)$.estimate, 4 / 9)
  expect_equal(attr(sb1, "bin_error")$aurc, 7 / 9)
  # AUGRC bound M sum c_b^2 / N^2 = (4 + 1) / 9; AUROC bound: the one bin
  # with a failure and a correct prediction, 1 x 1 / (2 x 1 x 2) = 1 / 4
  expect_equal(attr(sb1, "bin_error")$augrc, 5 / 9)
  expect_equal(attr(sb1, "bin_error")$failure_auroc, 1 / 4)
  expect_error(score_table(df, score, loss, bins = 1),
    class = "aurc_error_value"
  )
  expect_error(
    combine_score_tables(sb1, score_table(tiny, s, l)),
    class = "aurc_error_value"
  )
})

test_that("the bounds hold on data with ties, groups and weights", {
  withr::local_seed(5)
  n <- 2000
  df <- data.frame(
    score = round(stats::rbeta(n, 2, 5), 3), loss = round(stats::rexp(n), 2),
    w = sample(0:3, n, replace = TRUE),
    model = sample(c("a", "b"), n, replace = TRUE)
  )
  df$failure <- stats::rbinom(n, 1, plogis(2 - 6 * df$score))
  con <- sqlite_con()
  t <- db_copy(con, df)
  for (bins in c(3, 10, 100)) {
    for (loss in c("loss", "failure")) {
      lq <- rlang::sym(loss)
      dd <- dplyr::group_by(df, model)
      sm <- score_table(dd, score, !!lq, case_weights = w, bins = bins)
      sd <- score_table(dplyr::group_by(t, model), score, !!lq,
        case_weights = w, bins = bins
      )
      expect_equal(as.data.frame(sd), as.data.frame(sm), tolerance = 1e-10)
      expect_equal(attr(sd, "bin_error"), attr(sm, "bin_error"),
        tolerance = 1e-10
      )
      bound <- attr(sm, "bin_error")
      for (est in c("alpha", "trapezoid")) {
        exact <- aurc(dd, score, !!lq, estimator = est, case_weights = w)
        approx <- aurc(sm, estimator = est)
        expect_true(all(abs(approx$.estimate - exact$.estimate) <=
          bound$aurc + 1e-12))
      }
      exact <- augrc(dd, score, !!lq, case_weights = w)
      expect_true(all(abs(augrc(sm)$.estimate - exact$.estimate) <=
        bound$augrc + 1e-12))
      if (loss == "failure") {
        exact <- failure_auroc(dd, score, failure, case_weights = w)
        expect_true(all(abs(failure_auroc(sm)$.estimate - exact$.estimate) <=
          bound$failure_auroc + 1e-12))
      }
    }
  }
  # many bins: the table is the exact one up to the scores (every distinct
  # score alone in its bin), so the metrics are exact
  sm <- score_table(df, score, loss, bins = 1e5)
  expect_equal(aurc(sm)$.estimate, aurc(df, score, loss)$.estimate,
    tolerance = 1e-12
  )
  expect_error(score_table(df, score, loss, bins = 2.5),
    class = "aurc_error_value"
  )
  expect_error(score_table(data.frame(s = c(1, Inf), l = c(0, 1)), s, l,
    bins = 4
  ), class = "aurc_error_value")
})
