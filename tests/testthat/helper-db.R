# Database engines for the tests of DEFINITIONS Sec. 12.
#
# SQLite is embedded (RSQLite). PostgreSQL: a real server that this helper
# starts once per test run with initdb/pg_ctl in a private temporary
# directory (socket only, no TCP, a random private port), as the `postgres`
# user when run as root (the server refuses root), and stops at the end of
# the run (testthat's teardown environment, also when tests fail). A server
# given through AURC_PG_HOST (AURC_PG_PORT, AURC_PG_USER, AURC_PG_PASSWORD,
# AURC_PG_DBNAME) is used instead. When no server can be had, the tests say
# why and skip; on CI (CI=true) they fail instead.

db_unavailable <- function(reason) {
  if (identical(Sys.getenv("CI"), "true")) {
    testthat::fail(paste("Database engine unavailable on CI:", reason))
    testthat::skip(reason)
  }
  testthat::skip(reason)
}

sqlite_con <- function(env = parent.frame()) {
  if (!requireNamespace("RSQLite", quietly = TRUE) ||
    !requireNamespace("dbplyr", quietly = TRUE)) {
    db_unavailable("RSQLite or dbplyr is not installed")
  }
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  con
}

# (the package name in a variable: duckdb is deliberately not in Suggests)
duckdb_con <- function(env = parent.frame()) {
  pkg <- "duckdb"
  if (!requireNamespace(pkg, quietly = TRUE)) {
    testthat::skip("duckdb is not installed (optional engine)")
  }
  con <- DBI::dbConnect(getExportedValue(pkg, "duckdb")())
  withr::defer(DBI::dbDisconnect(con, shutdown = TRUE), envir = env)
  con
}

pg_state <- new.env(parent = emptyenv())

find_pg_bin <- function(name) {
  path <- Sys.which(name)
  if (nzchar(path)) return(unname(path))
  cand <- Sys.glob(file.path("/usr/lib/postgresql/*/bin", name))
  if (length(cand)) return(cand[length(cand)])
  ""
}

# Runs a PostgreSQL tool, as `postgres` when we are root. Returns the exit
# status; output goes to `log`. Without LD_PRELOAD: under `make sanitize`
# it holds the ASan runtime, meant for R, and the server's tools fail with
# it.
run_pg <- function(bin, args, as_postgres, log, timeout = 60) {
  if (as_postgres) {
    args <- c("-u", "postgres", "--", bin, args)
    bin <- "runuser"
  }
  status <- withr::with_envvar(c(LD_PRELOAD = NA), suppressWarnings(
    system2(bin, shQuote(args), stdout = log, stderr = log, timeout = timeout)
  ))
  if (is.null(status)) 0L else status
}

pg_start <- function() {
  if (!is.null(pg_state$reason)) return(NULL)
  if (!is.null(pg_state$params)) return(pg_state$params)
  if (!requireNamespace("RPostgreSQL", quietly = TRUE)) {
    pg_state$reason <- "RPostgreSQL is not installed"
    return(NULL)
  }
  if (nzchar(Sys.getenv("AURC_PG_HOST"))) {
    pg_state$params <- list(
      host = Sys.getenv("AURC_PG_HOST"),
      port = as.integer(Sys.getenv("AURC_PG_PORT", "5432")),
      user = Sys.getenv("AURC_PG_USER", "postgres"),
      password = Sys.getenv("AURC_PG_PASSWORD", ""),
      dbname = Sys.getenv("AURC_PG_DBNAME", "postgres")
    )
    return(pg_state$params)
  }
  server <- pg_server_start()
  if (is.character(server)) {
    pg_state$reason <- server
    return(NULL)
  }
  pg_state$stop <- server$stop
  # at the end of the test run, also when tests fail; and, should the run
  # be cut short, when R exits
  tryCatch(
    withr::defer(pg_stop(), envir = testthat::teardown_env()),
    error = function(e) NULL
  )
  reg.finalizer(pg_state, function(e) pg_stop(), onexit = TRUE)
  pg_state$params <- server$params
  pg_state$params
}

# Starts a private PostgreSQL server (initdb, pg_ctl) in a fresh directory
# on a random port, socket only. Returns list(params, stop, pg_ctl, data,
# root), or a string saying why it could not.
pg_server_start <- function() { # nolint: cyclocomp_linter.
  initdb <- find_pg_bin("initdb")
  pg_ctl <- find_pg_bin("pg_ctl")
  if (!nzchar(initdb) || !nzchar(pg_ctl)) {
    return(paste(
      "no PostgreSQL server: initdb/pg_ctl not found (install Debian's",
      "postgresql) and AURC_PG_HOST not set"
    ))
  }
  root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  if (root && system2("id", "postgres", stdout = FALSE, stderr = FALSE) != 0) {
    return("running as root and there is no `postgres` user")
  }
  # outside tempdir(): the postgres user must be able to enter it
  dir <- tempfile("aurc-pg-", tmpdir = if (root) "/tmp" else tempdir())
  dir.create(dir, mode = "0700")
  if (root) system2("chown", c("postgres", shQuote(dir)))
  log <- file.path(dir, "setup.log")
  data <- file.path(dir, "data")
  st <- run_pg(initdb, c("-D", data, "-A", "trust", "-U", "postgres", "-N"),
    root, log
  )
  if (st != 0) {
    reason <- paste(
      "initdb failed:", paste(utils::tail(readLines(log), 3), collapse = " ")
    )
    unlink(dir, recursive = TRUE)
    return(reason)
  }
  for (attempt in 1:3) {
    port <- sample(20000:45000, 1)
    st <- run_pg(pg_ctl, c(
      "-D", data, "-l", file.path(dir, "server.log"), "-w", "-t", "30",
      "-o", paste0("-p ", port, " -k ", dir, " -c listen_addresses=''"),
      "start"
    ), root, log)
    if (st == 0) break
  }
  if (st != 0) {
    reason <- paste(
      "pg_ctl start failed:",
      paste(utils::tail(readLines(file.path(dir, "server.log")), 3),
        collapse = " "
      )
    )
    unlink(dir, recursive = TRUE)
    return(reason)
  }
  list(
    params = list(
      host = dir, port = port, user = "postgres", password = "",
      dbname = "postgres"
    ),
    stop = function() {
      if (!dir.exists(dir)) return(invisible())
      run_pg(pg_ctl, c("-D", data, "-m", "immediate", "-w", "-t", "30",
        "stop"), root, log)
      unlink(dir, recursive = TRUE)
    },
    pg_ctl = pg_ctl, data = data, root = root
  )
}

pg_stop <- function() {
  if (is.function(pg_state$stop)) {
    pg_state$stop()
    pg_state$stop <- NULL
    pg_state$params <- NULL
  }
}

pg_con <- function(env = parent.frame()) {
  if (!requireNamespace("dbplyr", quietly = TRUE)) {
    db_unavailable("dbplyr is not installed")
  }
  params <- pg_start()
  if (is.null(params)) db_unavailable(pg_state$reason)
  con <- pg_connect(params)
  if (inherits(con, "error")) {
    db_unavailable(paste("can't connect to PostgreSQL:", conditionMessage(con)))
  }
  withr::defer(DBI::dbDisconnect(con), envir = env)
  con
}

pg_connect <- function(params, driver = "RPostgreSQL") {
  drv <- if (driver == "RPostgreSQL") {
    RPostgreSQL::PostgreSQL()
  } else {
    getExportedValue(driver, "Postgres")()
  }
  # TZ: RPostgres asks Sys.timezone(), which runs timedatectl without it
  tz <- Sys.getenv("TZ", "UTC")
  withr::with_envvar(c(PGCONNECT_TIMEOUT = "10", TZ = tz), tryCatch(
    do.call(DBI::dbConnect, c(list(drv), params)),
    error = function(e) e
  ))
}

# Faults on purpose (test-db-faults.R). A lazy table whose query first
# sleeps `sleep` seconds in the engine, then reads `table`: the window in
# which a test terminates the backend or stops the server.
pg_slow_table <- function(con, table, sleep = 20) {
  suppressWarnings(dplyr::tbl(con, dbplyr::sql(paste0(
    "SELECT s.* FROM (SELECT pg_sleep(", sleep, ")) p CROSS JOIN ", table,
    " s"
  ))))
}

# Runs `action` (a shell command) in the background once the backend `pid`
# has been running one query for 0.3 s, polled through psql on a second
# connection every 0.1 s for at most 30 s.
pg_when_busy <- function(params, pid, action) {
  psql <- find_pg_bin("psql")
  poll <- sprintf(paste(
    "SELECT 1 FROM pg_stat_activity WHERE pid = %d AND state = 'active'",
    "AND now() - query_start > interval '0.3 seconds'"
  ), pid)
  script <- sprintf(paste0(
    "for i in $(seq 1 300); do ",
    "r=$(%s -h %s -p %d -U %s -d %s -Atc \"%s\"); ",
    "if [ \"$r\" = 1 ]; then %s; exit 0; fi; sleep 0.1; done"
  ), shQuote(psql), shQuote(params$host), params$port, shQuote(params$user),
  shQuote(params$dbname), poll, action)
  env <- c(LD_PRELOAD = NA, PGPASSWORD = params$password %||% "")
  withr::with_envvar(env, system2("sh", c("-c",
    shQuote(script)), wait = FALSE, stdout = FALSE, stderr = FALSE))
}

pg_terminate_when_busy <- function(params, pid) {
  psql <- find_pg_bin("psql")
  pg_when_busy(params, pid, sprintf(
    "%s -h %s -p %d -U %s -d %s -Atc \"%s\" >/dev/null",
    shQuote(psql), shQuote(params$host), params$port, shQuote(params$user),
    shQuote(params$dbname),
    sprintf("SELECT pg_terminate_backend(%d)", pid)
  ))
}

pg_stop_when_busy <- function(server, pid) {
  cmd <- paste(shQuote(server$pg_ctl), "-D", shQuote(server$data),
    "-m fast -w -t 30 stop >/dev/null"
  )
  if (server$root) cmd <- paste("runuser -u postgres --", cmd)
  pg_when_busy(server$params, pid, cmd)
}

pg_backend_pid <- function(con) {
  DBI::dbGetQuery(con, "SELECT pg_backend_pid() AS pid")$pid
}

# Random data with ties, NA, case weights (integer, some 0) and groups.
db_test_data <- function(n = 400, seed = 1) {
  withr::with_seed(seed, {
    df <- data.frame(
      score = round(stats::runif(n), 2),
      loss = round(stats::rexp(n), 1),
      failure = stats::rbinom(n, 1, 0.3),
      w = sample(0:3, n, replace = TRUE),
      fw = round(stats::runif(n, 0, 2), 3),
      model = sample(c("a", "b", "c"), n, replace = TRUE),
      conf = round(stats::runif(n, 0.3, 1), 2),
      stringsAsFactors = FALSE
    )
    df$score[sample(n, 5)] <- NA
    df$loss[sample(n, 5)] <- NA
    df$correct <- 1 - df$failure
    df
  })
}

# A lazy table of `df` on `con`, under a fresh name.
db_copy <- function(con, df, name = "preds") {
  DBI::dbWriteTable(con, name, df, overwrite = TRUE)
  # RPostgreSQL works through dbplyr's older interface (a warning)
  suppressWarnings(dplyr::tbl(con, name))
}

# Every metric on the lazy table `t` equals the in-memory one on `df`
# (grouped and not; na_rm; integer and fractional weights). The quick grid
# covers every SQL path (each weighting kind, binning, grouping); the full
# grid (AURC_SLOW_TESTS=true, run by CI) every combination. `tol`: the
# relative tolerance.
expect_db_matches_memory <- function(t, df, tol = 1e-9) {
  m <- c(
    "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc", "eaugrc",
    "naurc", "risk_at_coverage", "coverage_at_risk"
  )
  same <- function(a, b) {
    a <- as.data.frame(a)
    b <- as.data.frame(b)
    testthat::expect_equal(a, b, tolerance = tol)
  }
  for (grouped in c(FALSE, TRUE)) {
    td <- if (grouped) dplyr::group_by(t, model) else t
    dd <- if (grouped) dplyr::group_by(df, model) else df
    for (est in test_grid(
      c("alpha", "2sele"),
      c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")
    )) {
      same(
        aurc(td, score, loss, estimator = est, na_rm = TRUE, case_weights = w),
        aurc(dd, score, loss, estimator = est, na_rm = TRUE, case_weights = w)
      )
      same(
        naurc(td, score, loss,
          estimator = est, na_rm = TRUE, case_weights = fw
        ),
        naurc(dd, score, loss, estimator = est, na_rm = TRUE, case_weights = fw)
      )
      same(
        eaurc(td, score, failure, estimator = est, optimum = "asymptotic",
          na_rm = TRUE),
        eaurc(dd, score, failure, estimator = est, optimum = "asymptotic",
          na_rm = TRUE)
      )
    }
    for (w in test_grid(c("none", "fw"), c("none", "w", "fw"))) {
      cw <- if (w == "none") NULL else rlang::sym(w)
      for (loss in c("loss", "failure")) {
        mm <- if (loss == "loss") setdiff(m, c(binary_metrics_test)) else m
        same(
          selective_metrics(td, score, !!rlang::sym(loss), metrics = mm,
            coverage = 0.37, risk = 0.25, na_rm = TRUE, case_weights = !!cw
          ),
          selective_metrics(dd, score, !!rlang::sym(loss), metrics = mm,
            coverage = 0.37, risk = 0.25, na_rm = TRUE, case_weights = !!cw
          )
        )
      }
    }
    same(
      augrc(td, score, loss, method = "step", na_rm = TRUE, case_weights = w),
      augrc(dd, score, loss, method = "step", na_rm = TRUE, case_weights = w)
    )
    same(
      risk_at_coverage(td, score, loss, coverage = 0.5, na_rm = TRUE),
      risk_at_coverage(dd, score, loss, coverage = 0.5, na_rm = TRUE)
    )
    # na_rm = FALSE: NA where a group has a missing value
    same(aurc(td, score, loss), aurc(dd, score, loss))
    same(
      failure_auroc(td, score, failure, case_weights = fw),
      failure_auroc(dd, score, failure, case_weights = fw)
    )
  }
}

# rc_curve(), ece() and mce() on the lazy table `t` equal the in-memory
# forms on `df`. The oracle reference of a database curve has a point at the
# end of every block of equal losses; each is a point of the in-memory
# oracle curve.
expect_db_curves_match_memory <- function(t, df, tol = 1e-9) {
  for (grouped in c(FALSE, TRUE)) {
    td <- if (grouped) dplyr::group_by(t, model) else t
    dd <- if (grouped) dplyr::group_by(df, model) else df
    weightings <- test_grid(
      list(NULL, quote(fw)), list(NULL, quote(w), quote(fw))
    )
    for (cw in weightings) {
      a <- rc_curve(td, score, loss, na_rm = TRUE, case_weights = !!cw)
      b <- rc_curve(dd, score, loss, na_rm = TRUE, case_weights = !!cw)
      strip <- function(x) {
        y <- as.data.frame(x)
        attr(y, "oracle") <- attr(y, "random") <- attr(y, "group_vars") <- NULL
        y
      }
      testthat::expect_equal(strip(a), strip(b), tolerance = tol)
      testthat::expect_equal(attr(a, "random"), attr(b, "random"),
        tolerance = tol
      )
      oa <- attr(a, "oracle")
      ob <- attr(b, "oracle")
      key <- function(o) {
        paste(if (grouped) o$model, signif(o$coverage, 10),
          signif(o$selective_risk, 10))
      }
      testthat::expect_true(all(key(oa) %in% key(ob)))
      for (bn in c("equal_width", "equal_mass", "adaptive")) {
        for (k in test_grid(7, c(1, 7))) {
          for (fn in list(ece, mce)) {
            ign <- bn == "adaptive"
            testthat::expect_equal(
              as.data.frame(with_ignored(fn(td, conf, correct, binning = bn,
                n_bins = k, na_rm = TRUE, case_weights = !!cw
              ), ign)),
              as.data.frame(with_ignored(fn(dd, conf, correct, binning = bn,
                n_bins = k, na_rm = TRUE, case_weights = !!cw
              ), ign)),
              tolerance = tol
            )
          }
        }
      }
    }
    brk <- c(0, 0.5, 0.9, 0.95, 1)
    testthat::expect_equal(
      as.data.frame(ece(td, conf, correct, breaks = brk)),
      as.data.frame(ece(dd, conf, correct, breaks = brk)),
      tolerance = tol
    )
  }
}

binary_metrics_test <- c("failure_auroc", "failure_aupr", "eaugrc")
