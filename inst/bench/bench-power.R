# Benchmark (issue 27, item 5): selective_power() from a pilot of n = 1e5
# cases against one compare_scores() call on the same pilot, for the AURC,
# AUGRC and failure AUROC of two scores. The pilot's variance is one
# compare_scores() (two scores' influence values and their difference); the
# power formula after it is O(1), so about 1 x is the design.
#
# Run: Rscript inst/bench/bench-power.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
reps <- if (length(args) >= 2) as.integer(args[2]) else 20
set.seed(1)
# failures that the scores rank (the default plan, the pilot's difference
# shrunk by 0.84 standard errors, needs a difference clear of 0)
d <- data.frame(a = stats::runif(n))
d$f <- stats::rbinom(n, 1, stats::plogis(1 - 3 * d$a))
d$b <- d$a + stats::rnorm(n, 0, 0.3)
per_call <- function(f) {
  f()
  system.time(for (i in seq_len(reps)) f())[["elapsed"]] / reps
}
cat(sprintf("n = %g, mean of %d calls\n", n, reps))
for (metric in c("aurc", "augrc", "failure_auroc")) {
  t_cmp <- per_call(function() compare_scores(d, c(a, b), f, metric = metric))
  t_n <- per_call(function() {
    selective_power(d, c(a, b), f, metric = metric, power = 0.8)
  })
  t_d <- per_call(function() {
    selective_power(d, c(a, b), f, metric = metric, n = 5000, power = 0.9)
  })
  cat(sprintf(
    "%-13s compare_scores %.4f s; selective_power: n %.4f s = %.2f x, difference %.4f s = %.2f x\n",
    metric, t_cmp, t_n, t_n / t_cmp, t_d, t_d / t_cmp
  ))
}
