# Coverage of the intervals of the clinical calibration summaries
# (selective_ci(metrics = c("ici", "e50", "e90", "emax",
# "calibration_slope", "calibration_intercept"))), reported in
# ?selective_ci and NEWS.md.
#
# Model: confidence p ~ U(0.5, 0.99), correct ~ Bernoulli(plogis(a + b
# logit(p))) with b = 0.6, a = 0 (overconfident). True values: the slope
# 0.6; the intercept, ICI, E50, E90 and Emax as the package computes them
# on 200,000 cases of the same model (the population's loess smooth to
# within its own small error). 95% intervals, n = 500 and 2000.
#
# Run: Rscript studies/ci-clinical-coverage.R [data sets] [replicates]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n_sets <- if (length(args) >= 1) as.integer(args[1]) else 200
times <- if (length(args) >= 2) as.integer(args[2]) else 200
metrics <- c(
  "ici", "e50", "e90", "emax", "calibration_slope", "calibration_intercept"
)
draw <- function(n) {
  p <- stats::runif(n, 0.5, 0.99)
  y <- stats::rbinom(n, 1, stats::plogis(0.6 * stats::qlogis(p)))
  list(p = p, y = y)
}
set.seed(20261128)
big <- draw(2e5)
truth <- vapply(metrics, function(m) {
  fn <- getExportedValue("aurc", paste0(m, "_vec"))
  fn(big$p, big$y)
}, numeric(1))
truth["calibration_slope"] <- 0.6
cat("true values:\n")
print(round(truth, 4))
started <- Sys.time()
for (n in c(500, 2000)) {
  hits <- list()
  for (s in seq_len(n_sets)) {
    d <- draw(n)
    for (method in c("analytic", "percentile", "normal")) {
      ms <- if (method == "analytic") metrics[5:6] else metrics
      res <- suppressWarnings(if (method == "analytic") {
        selective_ci_vec(d$p, correct = d$y, metrics = ms)
      } else {
        selective_ci_vec(d$p, correct = d$y, metrics = ms,
          method = "bootstrap", type = method, times = times
        )
      })
      hit <- res$.lower <= truth[ms] & truth[ms] <= res$.upper
      hits[[method]] <- rbind(hits[[method]], stats::setNames(hit, ms))
    }
  }
  cat(sprintf("\nn = %d, %d data sets, %d replicates: coverage (%%)\n", n,
    n_sets, times))
  for (method in names(hits)) {
    cat(sprintf("%-10s %s\n", method, paste(sprintf("%s %.1f",
      colnames(hits[[method]]), 100 * colMeans(hits[[method]], na.rm = TRUE)
    ), collapse = ", ")))
  }
}
cat(sprintf("\n%.0f s\n", as.numeric(Sys.time() - started, units = "secs")))
