# Benchmark: the bootstrap engine of selective_ci() (DEFINITIONS Sec. 11).
#
# 2000 replicates of AURC and AUGRC together against one aurc_vec() on the
# same data, at n = 1e5 and 1e6, with 1 and 2 threads. The target is at
# most 40 x one aurc_vec() with one thread. Scores are continuous (every
# case its own tie group: the worst case for the per-group passes) and the
# loss is 0/1. Reported: elapsed time, and for one thread also the CPU
# time (user + system), which a busy machine disturbs less.
#
# Run: Rscript inst/bench/bench-ci-bootstrap.R [times]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
times <- if (length(args) >= 1) as.integer(args[1]) else 2000L

timing <- function(expr) {
  t <- system.time(expr, gcFirst = TRUE)
  c(elapsed = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]])
}
for (n in c(1e5, 1e6)) {
  set.seed(1)
  s <- stats::rnorm(n)
  f <- stats::rbinom(n, 1, stats::plogis(-1.5 - s))
  one <- apply(vapply(1:7, function(i) timing(aurc_vec(s, f)), numeric(2)),
    1, stats::median)
  for (threads in 1:2) {
    t_boot <- timing(aurc:::ci_bootstrap(
      list(s), f, NULL, c("aurc", "augrc"), list(), times, NULL, NULL, NULL,
      threads, "percentile", 0.95, NULL
    ))
    cat(sprintf(
      paste(
        "n = %.0e, %d replicates, %d thread(s): %.2f s elapsed =",
        "%.0f x aurc_vec() (%.4f s); CPU %.2f s = %.0f x\n"
      ),
      n, times, threads, t_boot[["elapsed"]],
      t_boot[["elapsed"]] / one[["elapsed"]], one[["elapsed"]],
      t_boot[["cpu"]], t_boot[["cpu"]] / one[["cpu"]]
    ))
  }
}
