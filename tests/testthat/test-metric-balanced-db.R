# aurc_ba() and augrc_ba() on database tables equal the in-memory forms:
# SQLite, and the real PostgreSQL server of helper-db.R.

expect_balanced_db_matches_memory <- function(con) {
  force(con) # connected (and RSQLite loaded) before DBI dispatches on it
  set.seed(61)
  n <- 300
  df <- data.frame(
    s = round(stats::runif(n), 2), f = stats::rbinom(n, 1, 0.3),
    truth = sample(c("a", "b", "c"), n, TRUE, prob = c(0.5, 0.3, 0.2)),
    w = stats::rexp(n), g = rep(1:3, 100)
  )
  df$w[4] <- 0 # a row of weight 0 is not there
  t <- db_copy(con, df, "balanced")
  for (fun in list(aurc_ba, augrc_ba)) {
    expect_equal(
      fun(t, s, f, truth),
      fun(df, s, f, truth),
      tolerance = 1e-12
    )
    expect_equal(
      fun(dplyr::group_by(t, g), s, f, truth, case_weights = w),
      fun(dplyr::group_by(df, g), s, f, truth, case_weights = w),
      tolerance = 1e-12
    )
  }
  # missing class, score or failure: NA, or dropped with na_rm
  na <- df
  na$truth[5] <- NA
  na$s[7] <- NA
  tn <- db_copy(con, na, "balanced_na")
  expect_true(is.na(aurc_ba(tn, s, f, truth)$.estimate))
  expect_equal(
    aurc_ba(dplyr::group_by(tn, g), s, f, truth, na_rm = TRUE),
    aurc_ba(dplyr::group_by(na, g), s, f, truth, na_rm = TRUE),
    tolerance = 1e-12
  )
  # a class given by an expression of the columns
  expect_equal(
    augrc_ba(t, s, f, truth == "a"),
    augrc_ba(df, s, f, truth == "a"),
    tolerance = 1e-12
  )
  # bad input: the in-memory classed errors
  bad <- df
  bad$f[3] <- 2
  tb <- db_copy(con, bad, "balanced_bad")
  expect_error(aurc_ba(tb, s, f, truth), class = "aurc_error_value")
  expect_error(aurc_ba(t, s, f, nope), class = "aurc_error_column")
}

test_that("balanced metrics on SQLite equal the in-memory forms", {
  expect_balanced_db_matches_memory(sqlite_con())
})

test_that("balanced metrics on PostgreSQL equal the in-memory forms", {
  expect_balanced_db_matches_memory(pg_con())
})

test_that("balanced metrics on DuckDB equal the in-memory forms", {
  expect_balanced_db_matches_memory(duckdb_con())
})
