# Benchmark: the analytic interval of selective_ci_vec() against the point
# estimate of the same metric, at n = 1e6 (target: at most 3 times).
#
# The analytic interval sorts the scores once (as the point estimate does),
# then computes every sample's influence value in linear passes and the
# standard error. Timings are interleaved; the median of `reps` runs is
# reported, as ratios measured in this run (absolute times depend on the
# machine).
#
# Run: Rscript inst/bench/bench-ci.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 7

set.seed(1)
score <- stats::runif(n)
failure <- as.double(stats::rbinom(n, 1, 0.3 - 0.2 * score))
loss <- stats::rexp(n) * (1 - score)

cases <- list(
  aurc = list(
    point = function() aurc_vec(score, loss),
    ci = function() selective_ci_vec(score, loss, metrics = "aurc")
  ),
  augrc = list(
    point = function() augrc_vec(score, loss),
    ci = function() selective_ci_vec(score, loss, metrics = "augrc")
  ),
  failure_auroc = list(
    point = function() failure_auroc_vec(score, failure),
    ci = function() selective_ci_vec(score, failure, metrics = "failure_auroc")
  ),
  eaurc = list(
    point = function() eaurc_vec(score, loss),
    ci = function() selective_ci_vec(score, loss, metrics = "eaurc")
  ),
  aurc_and_augrc = list(
    point = function() {
      selective_metrics_vec(score, loss, metrics = c("aurc", "augrc"))
    },
    ci = function() selective_ci_vec(score, loss)
  )
)
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

cat(sprintf("n = %s, median of %d interleaved runs\n", format(n), reps))
for (name in names(cases)) {
  cs <- cases[[name]]
  cs$point()
  cs$ci()
  tp <- tc <- numeric(reps)
  for (r in seq_len(reps)) {
    tp[r] <- elapsed(cs$point())
    tc[r] <- elapsed(cs$ci())
  }
  cat(sprintf(
    "%-15s point %.3f s  analytic interval %.3f s  ratio %.2f\n", name,
    stats::median(tp), stats::median(tc),
    stats::median(tc) / stats::median(tp)
  ))
}
