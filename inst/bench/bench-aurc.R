# Benchmark: aurc_vec() against order() on the same vector, in one run.
#
# The package promises one sort per score vector and linear passes after it,
# so the whole metric should cost about as much as ordering the scores.
# Timings are interleaved and the median of `reps` runs is reported, as a
# ratio measured in this run (absolute times depend on the machine).
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
t_order <- t_aurc <- t_prime <- t_trap <- numeric(reps)
for (i in seq_len(reps)) {
  t_order[i] <- elapsed(order(score))
  t_aurc[i] <- elapsed(aurc_vec(score, loss))
  t_prime[i] <- elapsed(aurc_vec(score, loss, estimator = "alpha_prime"))
  t_trap[i] <- elapsed(aurc_vec(score, loss, estimator = "trapezoid"))
}
med <- function(x) stats::median(x)
cat(sprintf("n = %g, median of %d runs\n", n, reps))
cat(sprintf("order(score):                        %.3f s\n", med(t_order)))
res <- data.frame(
  call = c("aurc_vec(alpha)", "aurc_vec(alpha_prime)", "aurc_vec(trapezoid)"),
  seconds = c(med(t_aurc), med(t_prime), med(t_trap))
)
res$ratio_to_order <- res$seconds / med(t_order)
print(res, digits = 3, row.names = FALSE)
