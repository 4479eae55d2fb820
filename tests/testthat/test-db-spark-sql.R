# Spark SQL is checked through dbplyr's simulated connection: the generated
# SQL is kept as a snapshot. dbplyr >= 2.4 has simulate_spark_sql(); older
# versions (Debian's 2.3.0) have simulate_hive(), whose dialect Spark SQL
# accepts. Each variant has its own snapshot; the one that the installed
# dbplyr lacks is skipped with a message.

spark_sql_of <- function(con, metrics, estimator = "alpha", grouped = TRUE) {
  lf <- dbplyr::lazy_frame(
    model = "a", score = 0.5, failure = 1, w = 1, con = con
  )
  if (grouped) lf <- dplyr::group_by(lf, model)
  cols <- db_metric_columns(lf, list(
    score = rlang::quo(score), loss = rlang::quo(failure),
    case_weights = rlang::quo(w)
  ), call = rlang::current_env(), probe = FALSE)
  db_metric_query(cols, metrics, db_options(list(
    estimator = estimator, coverage = 0.8, risk = 0.1
  )))
}

simulated <- function(name) {
  ns <- asNamespace("dbplyr")
  fn <- paste0("simulate_", name)
  if (!exists(fn, envir = ns)) {
    skip(paste0("dbplyr ", utils::packageVersion("dbplyr"), " has no ", fn,
      "(); this variant's snapshot is checked where it exists"))
  }
  get(fn, envir = ns)()
}

for (variant in c("spark_sql", "hive")) {
  test_that(paste("generated SQL for Spark via", variant), {
    skip_if_not_installed("dbplyr")
    con <- simulated(variant)
    expect_snapshot(
      cat(spark_sql_of(con, "aurc"), "\n"),
      variant = variant
    )
    expect_snapshot(
      cat(spark_sql_of(con, c(
        "aurc", "augrc", "failure_auroc", "failure_aupr", "eaugrc",
        "risk_at_coverage", "coverage_at_risk"
      ), estimator = "alpha_prime"), "\n"),
      variant = variant
    )
  })
}

test_that("the Spark SQL uses only GROUP BY, window sums, LN and CASE", {
  skip_if_not_installed("dbplyr")
  con <- if (exists("simulate_spark_sql", envir = asNamespace("dbplyr"))) {
    dbplyr::simulate_spark_sql()
  } else {
    dbplyr::simulate_hive()
  }
  sql <- toupper(spark_sql_of(con, c(
    "aurc", "augrc", "failure_auroc", "failure_aupr", "risk_at_coverage",
    "coverage_at_risk"
  ), estimator = "alpha_prime"))
  functions <- unique(regmatches(sql, gregexpr("[A-Z_]+(?=\\()", sql,
    perl = TRUE
  ))[[1]])
  expect_true(all(functions %in% c(
    "SUM", "COUNT", "MIN", "MAX", "LN", "CAST", "OVER", "NOT"
  )))
  expect_match(sql, "ROWS UNBOUNDED PRECEDING", fixed = TRUE)
  expect_match(sql, "GROUP BY", fixed = TRUE)
})
