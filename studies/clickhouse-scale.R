# clickhouse-scale.R
#
# The scale measurement of the database forms on a real distributed engine
# (issue 37): two ClickHouse servers with a Distributed table over both,
# started as the tests start them (tests/testthat/helper-clickhouse.R),
# `n` rows generated in the engine (half on each server): a score rounded
# to 4 decimals (10001 distinct values), a continuous score (as many
# distinct values as rows) and a 0/1 failure whose rate falls with the
# score. It times, with wall clock:
# * the engine's own `SELECT score, count(), sum(failure) ... GROUP BY
#   score` on the Distributed table (the floor of any exact method),
# * aurc() and selective_metrics() on the lazy table (ClickHouse 18.16 has
#   no window functions: the portable path, the GROUP BY score table
#   finished in R),
# * on the continuous score: the engine's GROUP BY of 1000 bins, and
#   score_table(bins = 1000) with aurc() of it, and the stated error bound,
# and R's peak memory (VmHWM of /proc/self/status) after each step.
#
# Run from the package root with the package installed:
#   nice -n 5 Rscript studies/clickhouse-scale.R 1e8
# Needs Debian's clickhouse-server and RClickhouse; disk: about 13 bytes a
# row (compressed MergeTree parts), removed at the end.

n <- as.double(commandArgs(TRUE)[1])
if (is.na(n)) n <- 1e7
suppressPackageStartupMessages({
  library(aurc)
  library(dplyr)
})
# the helpers use testthat's skip() only when no server can be had
source("tests/testthat/helper-db.R")
source("tests/testthat/helper-clickhouse.R")
`%||%` <- function(x, y) if (is.null(x)) y else x
ports <- ch_start()
if (is.null(ports)) stop(ch_state$reason)
con <- DBI::dbConnect(RClickhouse::clickhouse(), host = "127.0.0.1",
  port = ports[1], user = "default", password = ""
)
vmhwm <- function() {
  x <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  as.double(gsub("[^0-9]", "", x)) / 1024 # MB
}
timed <- function(label, expr) {
  t <- system.time(value <- force(expr))[["elapsed"]]
  cat(sprintf("%-52s %8.2f s   R peak %6.0f MB\n", label, t, vmhwm()))
  invisible(value)
}
cat(sprintf("n = %.0f rows, load: %s\n", n,
  paste(readLines("/proc/loadavg"), collapse = "")
))
cat("ClickHouse", DBI::dbGetQuery(con, "SELECT version() AS v")$v, "\n")
for (i in 1:2) {
  ch_client(ports[i], "DROP TABLE IF EXISTS big_local")
  ch_client(ports[i], paste(
    "CREATE TABLE big_local (score Float64, cscore Float64,",
    "failure UInt8) ENGINE = MergeTree() ORDER BY tuple()"
  ))
}
ch_client(ports[1], "DROP TABLE IF EXISTS big")
ch_client(ports[1], paste(
  "CREATE TABLE big AS big_local",
  "ENGINE = Distributed(aurc_two, default, big_local)"
))
half <- sprintf("%.0f", n / 2)
timed("generate the rows (in the engine, both servers)", {
  for (i in 1:2) {
    st <- ch_client(ports[i], paste0(
      "INSERT INTO big_local SELECT round(u, 4) AS score, u AS cscore, ",
      "toUInt8(rand(", i, ") / 4294967296.0 < 0.6 - 0.5 * u) AS failure ",
      "FROM (SELECT rand() / 4294967296.0 AS u FROM numbers(", half, "))"
    ))
    if (st != 0) stop("insert failed")
  }
})
t <- tbl(con, "big")
timed("engine: SELECT score, count(), sum(failure) GROUP BY", {
  DBI::dbGetQuery(con, paste(
    "SELECT score, count() AS n, sum(failure) AS f FROM big GROUP BY score"
  ))
})
a <- timed("aurc(tbl, score, failure)", aurc(t, score, failure))
print(a)
timed("selective_metrics(tbl, score, failure)",
  print(selective_metrics(t, score, failure))
)
timed("engine: GROUP BY floor(cscore * 1000) (1000 bins)", {
  DBI::dbGetQuery(con, paste(
    "SELECT floor(cscore * 1000) AS b, count() AS n, sum(failure) AS f",
    "FROM big GROUP BY b"
  ))
})
sb <- timed("score_table(tbl, cscore, failure, bins = 1000)",
  score_table(t, cscore, failure, bins = 1000)
)
binned <- c(
  aurc = aurc(sb)$.estimate, augrc = augrc(sb)$.estimate,
  failure_auroc = failure_auroc(sb)$.estimate
)
cat("binned (1000 bins):\n")
print(binned, digits = 10)
cat("stated bounds:\n")
print(unlist(attr(sb, "bin_error")), digits = 4)
if (n <= 2e7) {
  exact <- timed("selective_metrics(tbl, cscore, failure), exact", {
    selective_metrics(t, cscore, failure,
      metrics = c("aurc", "augrc", "failure_auroc")
    )$.estimate
  })
  cat("exact:\n")
  print(exact, digits = 10)
  cat("|binned - exact|:\n")
  print(abs(binned - exact), digits = 4)
}
DBI::dbDisconnect(con)
for (i in 1:2) ch_client(ports[i], "DROP TABLE IF EXISTS big_local")
ch_stop()
cat(sprintf("load at the end: %s\n", readLines("/proc/loadavg")))
