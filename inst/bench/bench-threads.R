# Benchmark: the one sort on two threads (issue 15). aurc_vec(),
# augrc_vec() and ece_vec() at n = 1e7 with options(aurc.threads = 2)
# against the same call on one thread, interleaved, median of `reps` runs,
# as ratios measured in this run. Needs two free cores to mean anything.
#
# Run: Rscript inst/bench/bench-threads.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e7
reps <- if (length(args) >= 2) as.integer(args[2]) else 7

set.seed(1)
score <- stats::runif(n) # continuous: n distinct values
loss <- as.double(stats::rbinom(n, 1, 0.2))
tied <- round(stats::rnorm(n) * 100) # about 1000 distinct values

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
calls <- list(
  "aurc_vec(), distinct scores" = function() aurc_vec(score, loss),
  "aurc_vec(), tied scores" = function() aurc_vec(tied, loss),
  "augrc_vec(), distinct scores" = function() augrc_vec(score, loss),
  "ece_vec(), equal-mass bins" = function() {
    ece_vec(score, 1 - loss, binning = "equal_mass")
  }
)
rows <- lapply(names(calls), function(name) {
  f <- calls[[name]]
  t1 <- t2 <- numeric(reps)
  for (i in seq_len(reps)) {
    options(aurc.threads = NULL)
    t1[i] <- elapsed(v1 <- f())
    options(aurc.threads = 2)
    t2[i] <- elapsed(v2 <- f())
  }
  options(aurc.threads = NULL)
  stopifnot(identical(v1, v2))
  data.frame(
    call = name, one_thread = stats::median(t1),
    two_threads = stats::median(t2),
    ratio = stats::median(t2) / stats::median(t1)
  )
})
cat(sprintf("n = %g, median of %d runs, %d cores\n", n, reps,
  parallel::detectCores()))
print(do.call(rbind, rows), digits = 3, row.names = FALSE)
