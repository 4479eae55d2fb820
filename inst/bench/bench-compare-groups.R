# Benchmark (issue 35, item 1): compare_groups() of 3 groups against one
# compare_scores() of two scores on the same total n (1e5 by default).
# compare_groups() computes one influence function per group (each on a
# third of the rows) plus the max-t distribution (10^5 draws of K normals),
# so about one selective_ci() on all rows is the floor of its design.
#
# Run: Rscript inst/bench/bench-compare-groups.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
reps <- if (length(args) >= 2) as.integer(args[2]) else 10
set.seed(1)
d <- data.frame(
  a = stats::runif(n), f = stats::rbinom(n, 1, 0.3),
  g = sample(c("x", "y", "z"), n, replace = TRUE)
)
d$b <- d$a + stats::rnorm(n, 0, 0.3)
per_call <- function(f) {
  f()
  system.time(for (i in seq_len(reps)) f())[["elapsed"]] / reps
}
cat(sprintf("n = %g, 3 groups, mean of %d calls\n", n, reps))
for (metric in c("aurc", "failure_auroc")) {
  t_grp <- per_call(function() compare_groups(d, a, f, group = g,
    metric = metric))
  t_cmp <- per_call(function() compare_scores(d, c(a, b), f,
    metric = metric))
  cat(sprintf(
    "%-14s compare_groups() %.4f s, compare_scores() %.4f s: ratio %.2f\n",
    metric, t_grp, t_cmp, t_grp / t_cmp
  ))
}
# the bootstrap: each group resampled separately vs both scores on the
# same draws
t_grp <- per_call(function() compare_groups(d, a, f, group = g,
  method = "bootstrap", times = 200))
t_cmp <- per_call(function() compare_scores(d, c(a, b), f,
  method = "bootstrap", times = 200))
cat(sprintf(
  "%-14s compare_groups() %.4f s, compare_scores() %.4f s: ratio %.2f\n",
  "aurc, boot 200", t_grp, t_cmp, t_grp / t_cmp
))
