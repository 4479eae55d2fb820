# Benchmark (issue 25, item 4): the bootstrap's cost does not grow with the
# size of the case weights, and long calls answer an interrupt (SIGINT, as
# Ctrl-C sends) within a second.
#
# Part 1: selective_ci_vec(method = "bootstrap", times = 50) at n = 50 with
# every weight 1, 1e5, 1e7, .Machine$integer.max and 1e15 (frequency
# weights: up to 5e16 rows). Before the binomial draws a replicate drew
# one row at a time: 0.6 s at 1e5, 56 s at 1e7, and integer.max did not
# finish in 60 s.
# Part 2: long calls run in a child R process (callr) are sent SIGINT
# after 1.5 s; the time from the signal to the child's end is the latency.
#
# Run: Rscript inst/bench/bench-weights-interrupt.R
library(aurc)
set.seed(1)
s <- stats::runif(50)
l <- stats::rbinom(50, 1, 0.3)
for (w in c(1, 1e5, 1e7, .Machine$integer.max, 1e15)) {
  t <- stats::median(replicate(5, system.time(
    selective_ci_vec(s, l, method = "bootstrap", times = 50,
      case_weights = rep(w, 50)
    )
  )[["elapsed"]]))
  cat(sprintf("bootstrap, 50 cases of weight %-10.4g %8.4f s\n", w, t))
}

if (!requireNamespace("callr", quietly = TRUE)) {
  cat("callr is not installed: no interrupt latencies\n")
  quit(save = "no")
}
long_calls <- list(
  "selective_ci_vec bootstrap, n = 1e6, times = 1e4" = function() {
    set.seed(2)
    x <- stats::runif(1e6)
    aurc::selective_ci_vec(x, stats::rbinom(1e6, 1, 0.3),
      method = "bootstrap", times = 1e4
    )
  },
  "selective_ci_vec bootstrap, n = 1e4 weighted, times = 1e6" = function() {
    set.seed(2)
    aurc::selective_ci_vec(stats::runif(1e4), stats::rbinom(1e4, 1, 0.3),
      method = "bootstrap", times = 1e6,
      case_weights = rep(.Machine$integer.max, 1e4)
    )
  },
  "compare_scores bootstrap, n = 1e6, times = 1e4" = function() {
    set.seed(3)
    d <- data.frame(a = stats::runif(1e6), b = stats::runif(1e6),
      l = stats::rbinom(1e6, 1, 0.3))
    aurc::compare_scores(d, c(a, b), l, method = "bootstrap", times = 1e4)
  },
  "aurc_vec, n = 2e8 (signal while R draws the data)" = function() {
    x <- stats::runif(2e8)
    aurc::aurc_vec(x, x > 0.5)
  }
)
for (nm in names(long_calls)) {
  p <- callr::r_bg(long_calls[[nm]], supervise = TRUE)
  Sys.sleep(1.5)
  if (!p$is_alive()) {
    cat(sprintf("%-58s ended before the signal\n", nm))
    next
  }
  t0 <- Sys.time()
  p$interrupt()
  p$wait(timeout = 30000)
  latency <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  alive <- p$is_alive()
  if (alive) p$kill()
  cat(sprintf("%-58s %s\n", nm, if (alive) {
    "did not answer within 30 s"
  } else {
    sprintf("answered in %.2f s", latency)
  }))
}

# Part 3 (issue 32): aurc_vec() and its relatives at n = 1e8, signalled at
# several moments of the call itself (the child draws the data first and
# says when it is ready). Before the interrupt poll of the tie-group passes
# and of the first touch of the buffers, this took up to 3.5 s (5-14 s
# under load). Run with other load on the machine to see the worst case.
child <- tempfile(fileext = ".R")
ready <- tempfile()
answered <- tempfile()
writeLines(c(
  "library(aurc)",
  "set.seed(1); n <- 1e8; x <- runif(n); l <- as.double(runif(n) < 1 - x)",
  "fn <- Sys.getenv('AURC_BENCH_FN')",
  sprintf("cat('ready', file = '%s')", ready),
  "repeat tryCatch(switch(fn,",
  "  aurc = aurc_vec(x, l), weighted = aurc_vec(x, l, case_weights = rep(1, n)),",
  "  augrc = augrc_vec(x, l), ci = selective_ci_vec(x, l),",
  "  ece = ece_vec(x, 1 - l)),",
  sprintf("  interrupt = function(e) { cat(format(as.numeric(Sys.time()), digits = 15), file = '%s'); quit(save = 'no') })", answered)
), child)
for (fn in c("aurc", "weighted", "augrc", "ci", "ece")) {
  lat <- c()
  for (delay in c(0.1, 0.4, 0.8, 1.3, 2, 3)) {
    unlink(c(ready, answered))
    p <- callr::process$new("Rscript", child, env = c("current", AURC_BENCH_FN = fn))
    while (!file.exists(ready) && p$is_alive()) Sys.sleep(0.05)
    Sys.sleep(delay)
    t0 <- as.numeric(Sys.time())
    p$interrupt()
    while (!file.exists(answered) && as.numeric(Sys.time()) - t0 < 60) Sys.sleep(0.01)
    lat <- c(lat, if (file.exists(answered)) {
      as.numeric(readLines(answered, warn = FALSE)) - t0
    } else {
      NA
    })
    p$kill()
  }
  cat(sprintf("%-10s n = 1e8, 6 signals: slowest answer %.2f s (median %.2f s)\n",
              fn, max(lat), stats::median(lat)))
}
