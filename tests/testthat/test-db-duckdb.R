# DuckDB is optional (CRAN only, a long source build): tested where
# installed, skipped with a message otherwise.

test_that("every metric on DuckDB equals the in-memory form", {
  con <- duckdb_con()
  df <- db_test_data(seed = 8)
  t <- db_copy(con, df)
  expect_db_matches_memory(t, df)
  expect_db_curves_match_memory(t, df)
})
