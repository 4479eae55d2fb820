# A sharded PostgreSQL layout (DEFINITIONS Sec. 12) for
# test-db-postgres-fdw.R: on the server of helper-db.R (pg_start()), a
# table partitioned by the list of a key column, one partition a local
# table, the other a foreign table of postgres_fdw (shipped with
# PostgreSQL) that lives on a second private server. That server is
# started here the same way (pg_server_start(): initdb/pg_ctl in a fresh
# directory, socket only, a random port, as `postgres` when root) once per
# run and stopped at its end (testthat's teardown environment). When it
# cannot be had, or postgres_fdw is missing, the tests say why and skip
# (fail on CI, as db_unavailable()).

pg_shard_state <- new.env(parent = emptyenv())

# The second server's connection parameters, or NULL (the reason in
# pg_shard_state$reason).
pg_shard_start <- function() {
  if (!is.null(pg_shard_state$reason)) return(NULL)
  if (!is.null(pg_shard_state$params)) return(pg_shard_state$params)
  server <- pg_server_start()
  if (is.character(server)) {
    pg_shard_state$reason <- paste("second server:", server)
    return(NULL)
  }
  pg_shard_state$stop <- server$stop
  tryCatch(
    withr::defer(pg_shard_stop(), envir = testthat::teardown_env()),
    error = function(e) NULL
  )
  reg.finalizer(pg_shard_state, function(e) pg_shard_stop(), onexit = TRUE)
  pg_shard_state$params <- server$params
  pg_shard_state$params
}

pg_shard_stop <- function() {
  if (is.function(pg_shard_state$stop)) {
    pg_shard_state$stop()
    pg_shard_state$stop <- NULL
    pg_shard_state$params <- NULL
  }
}

# Connections to both servers, list(con, con2), with the foreign server
# `aurc_shard2` (postgres_fdw) defined on the first; closed when `env`
# ends. `fdw_tuple_cost` 0.2, PostgreSQL 17's default: whether a GROUP BY
# runs on the shard is the planner's choice by cost, and with the 0.01 of
# earlier versions the transfer of a row looks so cheap that for these
# small tables it fetched the rows (sorted) and grouped them itself in two
# of the twelve statements of test-db-postgres-fdw.R.
pg_fdw_cons <- function(env = parent.frame()) {
  con <- pg_con(env)
  params2 <- pg_shard_start()
  if (is.null(params2)) db_unavailable(pg_shard_state$reason)
  con2 <- pg_connect(params2)
  if (inherits(con2, "error")) {
    db_unavailable(paste(
      "can't connect to the second PostgreSQL server:",
      conditionMessage(con2)
    ))
  }
  withr::defer(DBI::dbDisconnect(con2), envir = env)
  q <- function(x) as.character(DBI::dbQuoteString(con, as.character(x)))
  # (no NOTICE of the DROP ... IF EXISTS below in the test output)
  pg_execute(con2, "SET client_min_messages = warning")
  setup <- c(
    "SET client_min_messages = warning",
    "CREATE EXTENSION IF NOT EXISTS postgres_fdw",
    "DROP SERVER IF EXISTS aurc_shard2 CASCADE",
    paste0(
      "CREATE SERVER aurc_shard2 FOREIGN DATA WRAPPER postgres_fdw ",
      "OPTIONS (host ", q(params2$host), ", port ", q(params2$port),
      ", dbname ", q(params2$dbname),
      ", fdw_tuple_cost '0.2')"
    ),
    paste0(
      "CREATE USER MAPPING FOR CURRENT_USER SERVER aurc_shard2 ",
      "OPTIONS (user ", q(params2$user), ")"
    ),
    # the first server reaches the second (not so when the first is one
    # given by AURC_PG_HOST on another machine)
    paste0(
      "CREATE FOREIGN TABLE aurc_shard2_probe (nspname name) SERVER ",
      "aurc_shard2 OPTIONS (schema_name 'pg_catalog', ",
      "table_name 'pg_namespace')"
    ),
    "SELECT COUNT(*) FROM aurc_shard2_probe"
  )
  for (s in setup) {
    done <- pg_execute(con, s)
    if (inherits(done, "error")) {
      db_unavailable(paste("postgres_fdw unavailable:",
        conditionMessage(done)))
    }
  }
  list(con = con, con2 = con2)
}

# Runs one statement; the error instead of a stop (RPostgreSQL turns some
# failures into warnings).
pg_execute <- function(con, sql) {
  tryCatch(
    withCallingHandlers(
      {
        DBI::dbExecute(con, sql)
        invisible(TRUE)
      },
      warning = function(w) stop(conditionMessage(w), call. = FALSE)
    ),
    error = function(e) e
  )
}

pg_fdw_type <- function(x) {
  if (is.logical(x)) return("BOOLEAN")
  if (is.integer(x)) return("INTEGER")
  if (is.numeric(x)) return("DOUBLE PRECISION")
  "TEXT"
}

# The rows of `df` in a table `name` of the first server, partitioned by
# the list of `key`: the rows whose key is in `local` in the local
# partition `<name>_local`, the others in the foreign partition
# `<name>_far` (postgres_fdw), whose rows live on the second server in its
# table `<name>_far`. The rows are inserted through the partitioned table
# (PostgreSQL routes the far ones through postgres_fdw); both servers then
# ANALYZE. Returns a lazy table of `name`.
pg_sharded_copy <- function(cons, df, name, key, local) {
  con <- cons$con
  con2 <- cons$con2
  id <- function(x) as.character(DBI::dbQuoteIdentifier(con, x))
  lit <- function(x) {
    paste(vapply(x, function(v) {
      as.character(DBI::dbQuoteString(con, as.character(v)))
    }, character(1)), collapse = ", ")
  }
  columns <- paste(id(names(df)), vapply(df, pg_fdw_type, character(1)),
    collapse = ", "
  )
  far <- paste0(name, "_far")
  stage <- paste0(name, "_stage")
  other <- setdiff(unique(df[[key]]), local)
  stmts2 <- c(
    paste("DROP TABLE IF EXISTS", id(far)),
    paste0("CREATE TABLE ", id(far), " (", columns, ")")
  )
  stmts <- c(
    paste("DROP TABLE IF EXISTS", id(name), "CASCADE"),
    paste0("CREATE TABLE ", id(name), " (", columns, ") PARTITION BY LIST (",
      id(key), ")"),
    paste0("CREATE TABLE ", id(paste0(name, "_local")), " PARTITION OF ",
      id(name), " FOR VALUES IN (", lit(local), ")"),
    paste0("CREATE FOREIGN TABLE ", id(far), " PARTITION OF ", id(name),
      " FOR VALUES IN (", lit(other), ") SERVER aurc_shard2 ",
      "OPTIONS (table_name ", lit(far), ")")
  )
  for (s in stmts2) stopifnot(isTRUE(pg_execute(con2, s)))
  for (s in stmts) stopifnot(isTRUE(pg_execute(con, s)))
  DBI::dbWriteTable(con, stage, df, overwrite = TRUE, row.names = FALSE)
  stopifnot(isTRUE(pg_execute(con, paste0(
    "INSERT INTO ", id(name), " (", paste(id(names(df)), collapse = ", "),
    ") SELECT ", paste(id(names(df)), collapse = ", "), " FROM ", id(stage)
  ))))
  stopifnot(isTRUE(pg_execute(con, paste("DROP TABLE", id(stage)))))
  stopifnot(isTRUE(pg_execute(con2, paste("ANALYZE", id(far)))))
  stopifnot(isTRUE(pg_execute(con, paste("ANALYZE", id(name)))))
  suppressWarnings(dplyr::tbl(con, name))
}

# The plan of a query on the first server (EXPLAIN VERBOSE), one string.
pg_explain <- function(con, sql) {
  plan <- DBI::dbGetQuery(con, paste("EXPLAIN VERBOSE", sql))
  paste(plan[[1]], collapse = "\n")
}

# The lines "Remote SQL: ..." of a plan.
pg_remote_sql <- function(plan) {
  lines <- strsplit(plan, "\n", fixed = TRUE)[[1]]
  trimws(sub(".*Remote SQL: ", "", grep("Remote SQL:", lines, value = TRUE)))
}

# The SQL statements the package sends while `expr` runs (a tracer on its
# one point of contact with the engine, db_fetch_all()).
pg_traced_statements <- function(expr) {
  log <- new.env(parent = emptyenv())
  log$sql <- character()
  ns <- asNamespace("aurc")
  suppressMessages(trace("db_fetch_all", where = ns, print = FALSE,
    tracer = bquote(assign("sql", c(get("sql", envir = .(log)), sql),
      envir = .(log)
    ))
  ))
  on.exit(suppressMessages(untrace("db_fetch_all", where = ns)))
  force(expr)
  log$sql
}
