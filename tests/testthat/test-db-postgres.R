# The server is started once per test run by helper-db.R (initdb/pg_ctl on
# a private port) and stopped at the end; see pg_start().

test_that("every metric on PostgreSQL equals the in-memory form", {
  con <- pg_con()
  df <- db_test_data(seed = 2)
  t <- db_copy(con, df)
  expect_db_matches_memory(t, df)
})

test_that("rc_curve, ece and mce on PostgreSQL equal the in-memory forms", {
  con <- pg_con()
  df <- db_test_data(seed = 4)
  t <- db_copy(con, df)
  expect_db_curves_match_memory(t, df)
})

test_that("integer columns and bad input on PostgreSQL", {
  con <- pg_con()
  # integer score, loss and weights: the engine must not divide integers
  df <- data.frame(
    s = c(3L, 2L, 2L, 1L), l = c(0L, 1L, 0L, 1L), w = c(1L, 2L, 1L, 3L)
  )
  t <- db_copy(con, df, "ints")
  expect_equal(
    selective_metrics(t, s, l, case_weights = w),
    selective_metrics(df, s, l, case_weights = w),
    tolerance = 1e-12
  )
  bad <- data.frame(s = c(0.9, 0.5), l = c(0, -2), txt = c("a", "b"))
  tb <- db_copy(con, bad, "bad")
  expect_error(aurc(tb, s, l), class = "aurc_error_value")
  expect_error(aurc(tb, txt, l), class = "aurc_error_type")
  expect_error(aurc(tb, s, nope), class = "aurc_error_column")
})
