# Benchmark: the shared metric engine against aurc_vec() (issue 15).
#
# augrc_vec() and selective_metrics_vec() go through the metric engine
# (metrics_impl), aurc_vec() through its own streaming kernel. Both sort the
# scores once; the engine must then stream over the tie groups as
# aurc_vec() does rather than materialise them. On n distinct scores the
# ratio engine / aurc_vec(estimator = "trapezoid") should be close to 1.
# Also: the fixed cost of one ece_vec() call at n = 1e4.
# Timings are interleaved; the median of `reps` runs is reported as ratios
# measured in this run (absolute times depend on the machine).
#
# Run: Rscript inst/bench/bench-engine.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e7
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
score <- stats::runif(n) # distinct scores: one tie group per sample
loss <- as.double(stats::rbinom(n, 1, 0.3 - 0.2 * score))
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

t <- matrix(0, reps, 3, dimnames = list(NULL, c("aurc", "augrc", "metrics")))
for (i in seq_len(reps)) {
  t[i, "aurc"] <- elapsed(aurc_vec(score, loss, estimator = "trapezoid"))
  t[i, "augrc"] <- elapsed(augrc_vec(score, loss))
  t[i, "metrics"] <- elapsed(selective_metrics_vec(score, loss,
    metrics = "augrc"
  ))
}
med <- apply(t, 2, stats::median)
cat(sprintf("n = %g distinct scores, median of %d runs\n", n, reps))
cat(sprintf("aurc_vec(trapezoid): %.3f s\n", med[["aurc"]]))
cat(sprintf("augrc_vec():          %.3f s = %.2f x aurc_vec\n",
  med[["augrc"]], med[["augrc"]] / med[["aurc"]]))
cat(sprintf("selective_metrics_vec(augrc): %.3f s = %.2f x aurc_vec\n",
  med[["metrics"]], med[["metrics"]] / med[["aurc"]]))

# ece_vec(): the cost of one call at n = 1e4
conf <- stats::runif(1e4)
correct <- stats::rbinom(1e4, 1, conf)
k <- 200
tm <- system.time(for (j in seq_len(k)) ece_vec(conf, correct), gcFirst = TRUE)
cat(sprintf(
  "ece_vec(), n = 1e4: %.2f ms per call (CPU: %.2f ms)\n",
  1000 * tm[["elapsed"]] / k,
  1000 * (tm[["user.self"]] + tm[["sys.self"]]) / k
))
