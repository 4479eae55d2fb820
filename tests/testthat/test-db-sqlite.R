test_that("every metric on SQLite equals the in-memory form", {
  con <- sqlite_con()
  df <- db_test_data()
  t <- db_copy(con, df)
  expect_db_matches_memory(t, df)
})

test_that("rc_curve, ece and mce on SQLite equal the in-memory forms", {
  con <- sqlite_con()
  df <- db_test_data(seed = 4)
  t <- db_copy(con, df)
  expect_db_curves_match_memory(t, df)
})

test_that("tiny hand-computed case on SQLite, ties grouped", {
  con <- sqlite_con()
  # scores 3, 2, 2, 1 with losses 0, 1, 0, 1: thresholds 3, 2, 1 with
  # accepted counts 1, 3, 4 and accepted losses 0, 1, 2; the alpha AURC is
  # one quarter of 1 x 0 / 1 plus 2 x 1 / 3 plus 1 x 2 / 4, that is 7 / 24
  df <- data.frame(s = c(3, 2, 2, 1), l = c(0, 1, 0, 1))
  t <- db_copy(con, df)
  expect_equal(aurc(t, s, l)$.estimate, 7 / 24, tolerance = 1e-12)
  # trapezoid AUGRC: points (1/4, 0), (3/4, 1/4), (1, 2/4) from (0, 0)
  expect_equal(
    augrc(t, s, l)$.estimate,
    (0.75 - 0.25) * 0.25 / 2 + 0.25 * 0.75 / 2,
    tolerance = 1e-12
  )
  # failure AUROC: correct (3, 2) against failures (2, 1): pairs 1, 1, 1/2, 1
  expect_equal(failure_auroc(t, s, l)$.estimate, 3.5 / 4, tolerance = 1e-12)
})

test_that("rows and weights: integer weights equal repeated rows on SQLite", {
  con <- sqlite_con()
  df <- db_test_data(n = 200, seed = 3)
  df <- df[stats::complete.cases(df[c("score", "loss")]), ]
  rep_df <- df[rep(seq_len(nrow(df)), df$w), ]
  a <- selective_metrics(db_copy(con, df, "a"), score, loss, case_weights = w)
  b <- selective_metrics(db_copy(con, rep_df, "b"), score, loss)
  expect_equal(a, b, tolerance = 1e-12)
})

test_that("bad input on SQLite gives the in-memory classed errors", {
  con <- sqlite_con()
  df <- data.frame(
    s = c(0.9, 0.5, 0.2), l = c(0, -1, 1), txt = c("a", "b", "c"),
    f = c(0, 2, 1)
  )
  t <- db_copy(con, df)
  expect_error(aurc(t, s, l), class = "aurc_error_value")
  expect_error(aurc(df, s, l), class = "aurc_error_value")
  expect_error(aurc(t, txt, f), class = "aurc_error_type")
  expect_error(aurc(df, txt, f), class = "aurc_error_type")
  expect_error(aurc(t, nope, f), class = "aurc_error_column")
  expect_error(aurc(df, nope, f), class = "aurc_error_column")
  expect_error(failure_auroc(t, s, f), class = "aurc_error_value")
  expect_error(failure_auroc(df, s, f), class = "aurc_error_value")
  expect_snapshot(error = TRUE, {
    aurc(t, s, l)
    aurc(t, txt, f)
    aurc(t, nope, f)
    failure_auroc(t, s, f)
  })
})

test_that("degenerate groups give NA with the in-memory warnings", {
  con <- sqlite_con()
  df <- data.frame(s = c(0.9, 0.5, 0.2), f = c(1, 1, 1), w = c(0, 0, 0))
  t <- db_copy(con, df)
  expect_warning(
    v <- failure_auroc(t, s, f), class = "aurc_warning_one_class"
  )
  expect_true(is.na(v$.estimate))
  expect_warning(
    v <- aurc(t, s, f, case_weights = w), class = "aurc_warning_no_data"
  )
  expect_true(is.na(v$.estimate))
  empty <- db_copy(con, df[0, ], "empty")
  expect_warning(v <- aurc(empty, s, f), class = "aurc_warning_no_data")
  expect_true(is.na(v$.estimate))
})

test_that("missing confidences and all-incomplete groups on SQLite", {
  con <- sqlite_con()
  df <- db_test_data(n = 300, seed = 7)
  df$conf[c(3, 50, 51, 200)] <- NA
  df$correct[c(10, 120)] <- NA
  # a group whose rows are all incomplete
  df$model[df$model == "c" & !is.na(df$score)][1:3] <- "z"
  df$score[df$model == "z"] <- NA
  t <- db_copy(con, df)
  td <- dplyr::group_by(t, model)
  dd <- dplyr::group_by(df, model)
  for (bn in c("equal_width", "equal_mass")) {
    for (cw in list(NULL, quote(w))) {
      for (fn in list(ece, mce)) {
        expect_equal(
          as.data.frame(fn(td, conf, correct, binning = bn, n_bins = 5,
            na_rm = TRUE, case_weights = !!cw
          )),
          as.data.frame(fn(dd, conf, correct, binning = bn, n_bins = 5,
            na_rm = TRUE, case_weights = !!cw
          )),
          tolerance = 1e-9
        )
      }
    }
  }
  expect_equal(
    as.data.frame(ece(td, conf, correct, binning = "equal_mass")),
    as.data.frame(ece(dd, conf, correct, binning = "equal_mass")),
    tolerance = 1e-9
  )
  expect_warning(
    a <- selective_metrics(td, score, failure, na_rm = TRUE),
    class = "aurc_warning_no_data"
  )
  expect_warning(
    b <- selective_metrics(dd, score, failure, na_rm = TRUE),
    class = "aurc_warning_no_data"
  )
  expect_equal(as.data.frame(a), as.data.frame(b), tolerance = 1e-9)
  expect_true(all(is.na(a$.estimate[a$model == "z"])))
  expect_equal(
    as.data.frame(aurc(td, score, loss)), as.data.frame(aurc(dd, score, loss)),
    tolerance = 1e-9
  )
})
