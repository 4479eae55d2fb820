# Benchmark: the bootstrap engine of selective_ci() (SPEC Sec. 11).
#
# 2000 replicates of AURC and AUGRC together against one aurc_vec() on the
# same data, at n = 1e5 and 1e6, with 1 and 2 threads. The target is at
# most 40 x one aurc_vec() with one thread. Scores are continuous (every
# case its own tie group: the worst case for the per-group passes) and the
# loss is 0/1.
#
# Run: Rscript inst/bench/bench-ci-bootstrap.R [times]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
times <- if (length(args) >= 1) as.integer(args[1]) else 2000L

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
for (n in c(1e5, 1e6)) {
  set.seed(1)
  s <- stats::rnorm(n)
  f <- stats::rbinom(n, 1, stats::plogis(-1.5 - s))
  one <- stats::median(vapply(1:7, function(i) elapsed(aurc_vec(s, f)), 0))
  for (threads in 1:2) {
    t_boot <- elapsed(aurc:::ci_bootstrap(
      list(s), f, NULL, c("aurc", "augrc"), list(), times, NULL, NULL, NULL,
      threads, "percentile", 0.95, NULL
    ))
    cat(sprintf(
      paste(
        "n = %.0e, %d replicates, %d thread(s): %.2f s = %.1f x aurc_vec()",
        "(%.4f s)\n"
      ),
      n, times, threads, t_boot, t_boot / one, one
    ))
  }
}
