# Benchmark: the fixed cost of one call (issue 25, item 6; against order()
# of the same vector, issue 34) and of the input
# checks that warn about likely mistakes (issue 24). aurc_vec() at n = 1e3
# without and with options(aurc.threads = 2) (the core count is read once
# per session, not per call), and at n = 1e3 and 1e7 the time of the
# checks of warn_if_suspicious() against the whole call. Ratios are
# measured in this run.
#
# Run: Rscript inst/bench/bench-call-overhead.R [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 2000

# the time per call in a loop, after a third as many calls to warm up (the
# first thousand calls of a session grow R's heap, and its collections,
# by a quarter of a call's time: measured 113 against 90-92 microseconds)
per_call <- function(f, reps) {
  for (i in seq_len(max(1, reps %/% 3))) f()
  t <- system.time(for (i in seq_len(reps)) f(), gcFirst = TRUE)[["elapsed"]]
  t / reps
}
set.seed(1)
small <- list(score = stats::runif(1e3), loss = stats::rbinom(1e3, 1, 0.2))
options(aurc.threads = NULL)
plain <- per_call(function() aurc_vec(small$score, small$loss), reps)
options(aurc.threads = 2)
threads <- per_call(function() aurc_vec(small$score, small$loss), reps)
options(aurc.threads = NULL)
ordered <- per_call(function() order(small$score), reps)
check_small <- per_call(
  function() aurc:::warn_if_suspicious(small$score, small$loss), reps
)
big <- list(score = stats::runif(1e7), loss = stats::rbinom(1e7, 1, 0.2))
whole_big <- stats::median(replicate(5, system.time(
  aurc_vec(big$score, big$loss)
)[["elapsed"]]))
check_big <- per_call(
  function() aurc:::warn_if_suspicious(big$score, big$loss), 50
)
out <- data.frame(
  what = c(
    "aurc_vec() vs order() on the same vector, n = 1e3",
    "aurc_vec(), n = 1e3: aurc.threads = 2 vs unset",
    "input checks vs aurc_vec(), n = 1e3",
    "input checks vs aurc_vec(), n = 1e7"
  ),
  numerator_us = c(plain, threads, check_small, check_big) * 1e6,
  denominator_us = c(ordered, plain, plain, whole_big) * 1e6
)
out$ratio <- out$numerator_us / out$denominator_us
print(out, row.names = FALSE, digits = 3)
