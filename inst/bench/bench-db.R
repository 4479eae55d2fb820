# Benchmark: aurc() on a lazy table in SQLite and in PostgreSQL.
#
# DEFINITIONS Sec. 12 promises that the work runs in the engine: R's memory should
# not grow with the table, and the time should be close to the engine's own
# `GROUP BY score` query, which the method starts with (then come window
# sums over the grouped rows and one aggregate). The table is generated
# inside each engine (no copy through R). Reported: the median time of
# aurc() and of the plain `GROUP BY score` (its rows counted in the engine,
# nothing sent to R), their ratio, and the growth of R's resident memory
# (peak during aurc(), /proc/self/status VmHWM after resetting it, minus
# the resident size before). Also the time of one aurc() call on a
# 400-row table in the same engine (`small_ms`, median of 20), which is
# almost all R: building the SQL and reading the result.
#
# PostgreSQL: a server is started with initdb/pg_ctl in a temporary
# directory on a private port (as the `postgres` user when run as root) and
# stopped at the end; set AURC_PG_HOST (AURC_PG_PORT, AURC_PG_USER,
# AURC_PG_DBNAME) to use a running server instead.
#
# Run: Rscript inst/bench/bench-db.R [n] [reps] [distinct_scores]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e7
reps <- if (length(args) >= 2) as.integer(args[2]) else 3
distinct <- if (length(args) >= 3) as.numeric(args[3]) else 1e6

rss_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"),
    value = TRUE
  )
  as.numeric(gsub("[^0-9]", "", line))
}
reset_peak <- function() {
  try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
}
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

small_table <- function(con) {
  set.seed(1)
  DBI::dbWriteTable(con, "preds_small", data.frame(
    score = round(stats::runif(400), 2), failure = stats::rbinom(400, 1, 0.2)
  ), overwrite = TRUE)
}

run_engine <- function(label, con, sql_group_by) {
  t <- dplyr::tbl(con, "preds")
  invisible(aurc(t, score, failure)) # warm up (and page in the table)
  t_aurc <- t_group <- growth <- numeric(reps)
  for (i in seq_len(reps)) {
    t_group[i] <- elapsed(DBI::dbGetQuery(con, sql_group_by))
    gc()
    reset_peak()
    before <- rss_kb("VmRSS")
    t_aurc[i] <- elapsed(value <- aurc(t, score, failure))
    growth[i] <- (rss_kb("VmHWM") - before) / 1024
  }
  small <- dplyr::tbl(con, "preds_small")
  t_small <- vapply(seq_len(20), function(i) {
    elapsed(aurc(small, score, failure))
  }, numeric(1))
  data.frame(
    engine = label, n = n, distinct_scores = distinct,
    group_by_s = stats::median(t_group), aurc_s = stats::median(t_aurc),
    ratio = stats::median(t_aurc) / stats::median(t_group),
    r_memory_growth_mb = max(growth),
    small_ms = 1000 * stats::median(t_small), aurc = value$.estimate
  )
}

results <- list()

# SQLite (file on disk, as a table too large for memory would be)
db <- tempfile(fileext = ".sqlite")
con <- DBI::dbConnect(RSQLite::SQLite(), db)
DBI::dbExecute(con, sprintf(
  "CREATE TABLE preds AS WITH RECURSIVE i(k) AS (SELECT 1 UNION ALL
   SELECT k + 1 FROM i WHERE k < %.0f)
   SELECT CAST(abs(random()) %% %.0f AS REAL) / %.0f AS score,
          CASE WHEN abs(random()) %% 5 = 0 THEN 1.0 ELSE 0.0 END AS failure
   FROM i", n, distinct, distinct
))
small_table(con)
results$sqlite <- run_engine("SQLite", con,
  "SELECT COUNT(*) FROM (SELECT score, COUNT(*), SUM(failure) FROM preds
   GROUP BY score)"
)
DBI::dbDisconnect(con)
unlink(db)

# PostgreSQL
pg <- NULL
if (nzchar(Sys.getenv("AURC_PG_HOST"))) {
  params <- list(
    host = Sys.getenv("AURC_PG_HOST"),
    port = as.integer(Sys.getenv("AURC_PG_PORT", "5432")),
    user = Sys.getenv("AURC_PG_USER", "postgres"),
    dbname = Sys.getenv("AURC_PG_DBNAME", "postgres")
  )
} else {
  root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  bin <- function(x) {
    p <- Sys.which(x)
    if (nzchar(p)) p else Sys.glob(file.path("/usr/lib/postgresql/*/bin", x))[1]
  }
  run <- function(tool, a) {
    if (root) {
      system2("runuser", shQuote(c("-u", "postgres", "--", bin(tool), a)))
    } else {
      system2(bin(tool), shQuote(a))
    }
  }
  dir <- tempfile("aurc-pg-bench-", tmpdir = "/tmp")
  dir.create(dir, mode = "0700")
  if (root) system2("chown", c("postgres", dir))
  port <- sample(20000:45000, 1)
  run("initdb", c("-D", file.path(dir, "data"), "-A", "trust", "-U",
    "postgres", "-N"))
  run("pg_ctl", c("-D", file.path(dir, "data"), "-l", file.path(dir, "log"),
    "-w", "-o", paste0("-p ", port, " -k ", dir,
      " -c listen_addresses='' -c shared_buffers=256MB -c work_mem=256MB"),
    "start"))
  pg <- function() {
    run("pg_ctl", c("-D", file.path(dir, "data"), "-m", "fast", "-w", "stop"))
    unlink(dir, recursive = TRUE)
  }
  params <- list(host = dir, port = port, user = "postgres",
    dbname = "postgres")
}
con <- do.call(DBI::dbConnect, c(list(RPostgreSQL::PostgreSQL()), params))
DBI::dbExecute(con, "DROP TABLE IF EXISTS preds")
DBI::dbExecute(con, sprintf(
  "CREATE TABLE preds AS SELECT
     floor(random() * %.0f)::double precision / %.0f AS score,
     CASE WHEN random() < 0.2 THEN 1.0 ELSE 0.0 END::double precision
       AS failure
   FROM generate_series(1, %.0f)", distinct, distinct, n
))
DBI::dbExecute(con, "VACUUM ANALYZE preds")
small_table(con)
results$postgres <- suppressWarnings(run_engine("PostgreSQL", con,
  "SELECT COUNT(*) FROM (SELECT score, COUNT(*), SUM(failure) FROM preds
   GROUP BY score) q"
))
DBI::dbExecute(con, "DROP TABLE preds")
DBI::dbExecute(con, "DROP TABLE preds_small")
DBI::dbDisconnect(con)
if (is.function(pg)) pg()

res <- do.call(rbind, results)
cat(sprintf("median of %d runs\n", reps))
print(res, digits = 3, row.names = FALSE)
