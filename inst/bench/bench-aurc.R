# Benchmark: aurc_vec() against order() on the same vector, in one run.
#
# The package promises one sort per score vector and linear passes after it,
# so the whole metric should cost about as much as ordering the scores.
# Timings are interleaved and the median of `reps` runs is reported, as a
# ratio measured in this run (absolute times depend on the machine), with
# the range over the runs. Each order() and its gc free a large block right
# before the metric runs: the case in which fresh sort buffers made the
# time bimodal (issue 25). The second table repeats the runs with
# options(aurc.workspace = 0), i.e. fresh buffers on every call.
#
# Run: Rscript inst/bench/bench-aurc.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e7
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
score <- stats::runif(n) # continuous: n distinct values
loss <- as.double(stats::rbinom(n, 1, 0.2))

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
run <- function() {
  t <- matrix(0, reps, 4, dimnames = list(NULL, c(
    "order(score)", "aurc_vec(alpha)", "aurc_vec(alpha_prime)",
    "aurc_vec(trapezoid)"
  )))
  for (i in seq_len(reps)) {
    t[i, 1] <- elapsed(order(score))
    t[i, 2] <- elapsed(aurc_vec(score, loss))
    t[i, 3] <- elapsed(aurc_vec(score, loss, estimator = "alpha_prime"))
    t[i, 4] <- elapsed(aurc_vec(score, loss, estimator = "trapezoid"))
  }
  med <- apply(t, 2, stats::median)
  data.frame(
    call = colnames(t), median_s = med, min_s = apply(t, 2, min),
    max_s = apply(t, 2, max), ratio_to_order = med / med[[1]],
    row.names = NULL
  )
}
invisible(aurc_vec(score, loss)) # the first call takes its buffers fresh
cat(sprintf("n = %g, %d runs; buffers kept between calls (the default)\n",
            n, reps))
print(run(), digits = 3, row.names = FALSE)
old <- options(aurc.workspace = 0)
cat("\nfresh buffers on every call: options(aurc.workspace = 0)\n")
print(run(), digits = 3, row.names = FALSE)
options(old)
