# A database query that fails partway is a classed error, never an empty or
# NA result (issue 25): the backend terminated from a second connection
# during a long query (pg_terminate_backend()), the server stopped during
# a call, a query that fails inside the engine. The long query is a lazy
# table that sleeps in the engine before reading its rows
# (pg_slow_table()); helper-db.R runs the fault in the background once the
# backend has been busy for 0.3 s.

# RPostgres is optional (installed by tools/install-deps.sh from CRAN when
# it builds; not in DESCRIPTION, so its name is a variable here)
pg_drivers <- function() {
  second <- "RPostgres"
  c("RPostgreSQL", if (requireNamespace(second, quietly = TRUE)) second)
}

pg_fault_data <- function(con) {
  df <- db_test_data(n = 200, seed = 11)
  DBI::dbWriteTable(con, "faults", df, overwrite = TRUE)
  df
}

fault_calls <- list(
  aurc = function(t) aurc(t, score, loss),
  grouped_aurc = function(t) aurc(dplyr::group_by(t, model), score, loss),
  selective_metrics = function(t) selective_metrics(t, score, failure),
  failure_auroc = function(t) failure_auroc(t, score, failure),
  eaurc = function(t) eaurc(t, score, failure, na_rm = TRUE),
  ece = function(t) ece(t, conf, correct),
  ece_equal_width = function(t) {
    ece(t, conf, correct, binning = "equal_width", na_rm = TRUE)
  },
  rc_curve = function(t) rc_curve(t, score, loss, na_rm = TRUE),
  score_table = function(t) score_table(t, score, failure)
)

test_that("a backend terminated during the query is a classed error", {
  con0 <- pg_con()
  params <- pg_state$params
  df <- pg_fault_data(con0)
  for (driver in pg_drivers()) {
    for (f in names(fault_calls)) {
      con <- pg_connect(params, driver)
      expect_false(inherits(con, "error"))
      slow <- pg_slow_table(con, "faults")
      plain <- suppressWarnings(dplyr::tbl(con, "faults"))
      pg_terminate_when_busy(params, pg_backend_pid(con))
      err <- expect_error(
        fault_calls[[f]](slow),
        class = "aurc_error_database_connection",
        info = paste(driver, f)
      )
      expect_s3_class(err, "aurc_error_database")
      expect_match(conditionMessage(err), "Lost the database connection")
      # the engine's own message is kept
      expect_match(conditionMessage(err$parent), "terminat|closed|connection",
        info = paste(driver, f)
      )
      # RPostgreSQL's connection is dead and the next call says so too;
      # RPostgres reconnects, and the next call gives the right value
      if (driver == "RPostgreSQL") {
        expect_error(fault_calls[[f]](plain),
          class = "aurc_error_database_connection"
        )
      } else if (!f %in% c("rc_curve", "score_table")) {
        expect_equal(
          as.data.frame(suppressWarnings(fault_calls[[f]](plain))),
          as.data.frame(suppressWarnings(fault_calls[[f]](df))),
          tolerance = 1e-9, info = paste(driver, f)
        )
      }
      try(DBI::dbDisconnect(con), silent = TRUE)
    }
  }
})

test_that("a query that fails inside the engine is a classed error", {
  con <- pg_con()
  pg_fault_data(con)
  # fails only when rows are read: the column probe (WHERE 1 = 0) passes
  t <- suppressWarnings(dplyr::tbl(con, dbplyr::sql(
    "SELECT score, loss / (w - w) AS loss, w FROM faults"
  )))
  err <- expect_error(aurc(t, score, loss), class = "aurc_error_database_query")
  expect_s3_class(err, "aurc_error_engine")
  expect_match(conditionMessage(err), "failed to compute the metrics")
  expect_match(conditionMessage(err$parent), "division by zero")
  # the connection still works afterwards
  expect_equal(
    aurc(suppressWarnings(dplyr::tbl(con, "faults")), score, loss,
      na_rm = TRUE
    ),
    aurc(db_test_data(n = 200, seed = 11), score, loss, na_rm = TRUE),
    tolerance = 1e-12
  )
})

test_that("the server stopped during a call is a classed error", {
  skip_if(nzchar(Sys.getenv("AURC_PG_HOST")), "an outside server is used")
  pg_con() # skips (or fails on CI) without a server
  for (driver in pg_drivers()) {
    server <- pg_server_start()
    expect_type(server, "list")
    withr::defer(server$stop())
    con <- pg_connect(server$params, driver)
    pg_fault_data(con)
    slow <- pg_slow_table(con, "faults")
    plain <- suppressWarnings(dplyr::tbl(con, "faults"))
    pg_stop_when_busy(server, pg_backend_pid(con))
    expect_error(aurc(slow, score, loss),
      class = "aurc_error_database_connection", info = driver
    )
    # no server at all: every later call on the connection
    expect_error(ece(plain, conf, correct), class = "aurc_error_database_connection", info = driver)
    try(DBI::dbDisconnect(con), silent = TRUE)
  }
})
