# Benchmark: selective_metrics_vec() with every metric against the slowest
# single metric, in one run.
#
# selective_metrics() sorts the scores once (and the losses once, for the
# exact optimum of eaurc/naurc) and evaluates every metric on the shared tie
# groups, so all nine metrics should cost little more than the slowest one.
# Timings are interleaved; the median of `reps` runs is reported, as ratios
# measured in this run (absolute times depend on the machine).
#
# Run: Rscript inst/bench/bench-metrics.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 7

set.seed(1)
score <- stats::runif(n)
failure <- as.double(stats::rbinom(n, 1, 0.3 - 0.2 * score))
loss <- stats::rexp(n) * (1 - score) # a continuous loss: the oracle sorts it

singles <- list(
  aurc = function(l) aurc_vec(score, l),
  augrc = function(l) augrc_vec(score, l),
  failure_auroc = function(l) failure_auroc_vec(score, failure),
  failure_aupr = function(l) failure_aupr_vec(score, failure),
  eaurc = function(l) eaurc_vec(score, l),
  eaugrc = function(l) eaugrc_vec(score, failure),
  naurc = function(l) naurc_vec(score, l),
  risk_at_coverage = function(l) risk_at_coverage_vec(score, l, coverage = 0.8),
  coverage_at_risk = function(l) coverage_at_risk_vec(score, l, risk = 0.1)
)
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
med <- function(x) stats::median(x)

for (case in c("0/1 failure", "continuous loss")) {
  l <- if (case == "0/1 failure") failure else loss
  metrics <- names(singles)
  if (case == "continuous loss") {
    metrics <- setdiff(metrics, c("failure_auroc", "failure_aupr", "eaugrc"))
  }
  t_single <- matrix(0, reps, length(metrics), dimnames = list(NULL, metrics))
  t_all <- numeric(reps)
  for (i in seq_len(reps)) {
    for (m in metrics) t_single[i, m] <- elapsed(singles[[m]](l))
    t_all[i] <- elapsed(selective_metrics_vec(score, l,
      metrics = metrics, coverage = 0.8, risk = 0.1
    ))
  }
  single <- apply(t_single, 2, med)
  cat(sprintf("\n%s, n = %g, median of %d runs\n", case, n, reps))
  print(data.frame(seconds = round(single, 4)))
  cat(sprintf(
    "all %d metrics at once: %.4f s = %.2f x the slowest single (%s)\n",
    length(metrics), med(t_all), med(t_all) / max(single),
    names(which.max(single))
  ))
}
