# Benchmark: calibration_bins() and ece_vec() against order() on the same
# vector, in one run.
#
# The binning promises one sort of the confidences and linear passes after
# it, so every binning should cost about as much as ordering them (the
# issue asks for at most 2x at n = 1e7). Timings are interleaved and the
# median of `reps` runs is reported as a ratio measured in this run.
#
# Run: Rscript inst/bench/bench-calibration.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e7
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
confidence <- stats::rbeta(n, 8, 1) # continuous, dense near 1
correct <- as.double(stats::rbinom(n, 1, confidence))

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
binnings <- c("adaptive", "ding2020", "equal_width", "equal_mass")
t_order <- numeric(reps)
t_bins <- matrix(0, reps, length(binnings), dimnames = list(NULL, binnings))
for (i in seq_len(reps)) {
  t_order[i] <- elapsed(order(confidence))
  for (b in binnings) {
    t_bins[i, b] <- elapsed(ece_vec(confidence, correct, binning = b))
  }
}
med <- function(x) stats::median(x)
cat(sprintf("n = %g, median of %d runs\n", n, reps))
cat(sprintf("order(confidence): %.3f s\n", med(t_order)))
res <- data.frame(
  call = paste0("ece_vec(binning = \"", binnings, "\")"),
  seconds = apply(t_bins, 2, med)
)
res$ratio_to_order <- res$seconds / med(t_order)
print(res, digits = 3, row.names = FALSE)
