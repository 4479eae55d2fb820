# Benchmark (issue 25, item 7): compare_scores() for the failure AUROC of
# two scores (DeLong, paired) against one selective_ci() of one score and
# against pROC::roc.test(paired = TRUE), at n = 1e5, in one run. The
# comparison computes two scores' influence values and their difference,
# so about 2 x one selective_ci() is the floor of its design.
#
# Run: Rscript inst/bench/bench-compare.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
reps <- if (length(args) >= 2) as.integer(args[2]) else 20
set.seed(1)
d <- data.frame(a = stats::runif(n), f = stats::rbinom(n, 1, 0.3))
d$b <- d$a + stats::rnorm(n, 0, 0.3)
per_call <- function(f) {
  f()
  system.time(for (i in seq_len(reps)) f())[["elapsed"]] / reps
}
t_cmp <- per_call(function() {
  compare_scores(d, c(a, b), f, metric = "failure_auroc")
})
t_ci <- per_call(function() selective_ci(d, a, f, metrics = "failure_auroc"))
t_aurc <- per_call(function() compare_scores(d, c(a, b), f, metric = "aurc"))
t_ci_aurc <- per_call(function() selective_ci(d, a, f, metrics = "aurc"))
cat(sprintf("n = %g, mean of %d calls\n", n, reps))
cat(sprintf("compare_scores(failure_auroc) %.4f s = %.2f x selective_ci() (%.4f s)\n",
  t_cmp, t_cmp / t_ci, t_ci))
cat(sprintf("compare_scores(aurc)          %.4f s = %.2f x selective_ci() (%.4f s)\n",
  t_aurc, t_aurc / t_ci_aurc, t_ci_aurc))
if (requireNamespace("pROC", quietly = TRUE)) {
  ra <- pROC::roc(d$f, d$a, quiet = TRUE, direction = "<")
  rb <- pROC::roc(d$f, d$b, quiet = TRUE, direction = "<")
  t_p <- per_call(function() {
    pROC::roc.test(ra, rb, paired = TRUE, method = "delong")
  })
  cat(sprintf("pROC::roc.test (ROC curves given)  %.4f s: compare_scores is %.2f x\n",
    t_p, t_cmp / t_p))
}
