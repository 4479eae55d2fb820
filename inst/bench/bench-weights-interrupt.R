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
  "aurc_vec, n = 2e8" = function() {
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
