# Coverage of the ECE's 95% intervals at small n (issue 34): the analytic
# interval and the bootstrap's percentile, basic, normal and BCa
# intervals, every bound kept within [0, Inf). Reported in ?selective_ci.
#
# Models (as inst/scripts/ci-calibration-coverage.R): confidence f = 0.5 +
# 0.5 Beta(2, 1); correct ~ Bernoulli(p(f)) with
#   calibrated     p(f) = f (the true ECE is 0)
#   miscalibrated  p(f) = f - 0.1 sin(4 pi (f - 0.5)) (at most 1)
# ECE with 10 equal-width bins; its true value from 2e6 cases (0 for the
# calibrated model). n = 213 (the size of the report in the issue), 500,
# 2000; `reps` data sets of `times` replicates per cell.
#
# Run: Rscript studies/ci-ece-small-n.R [reps] [times]
suppressPackageStartupMessages(library(aurc))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 400
times <- if (length(args) >= 2) as.integer(args[2]) else 1000
draw <- function(n, model) {
  f <- 0.5 + 0.5 * stats::rbeta(n, 2, 1)
  p <- if (model == "calibrated") f else
    pmin(1, f - 0.1 * sin(4 * pi * (f - 0.5)))
  list(f = f, y = stats::rbinom(n, 1, p))
}
set.seed(34)
truth <- c(calibrated = 0, miscalibrated = {
  d <- draw(2e6, "miscalibrated")
  ece_vec(d$f, d$y, binning = "equal_width")
})
cat("true ECE:", format(truth, digits = 4), "\n")
types <- c("percentile", "basic", "normal", "bca")
started <- Sys.time()
for (model in names(truth)) {
  for (n in c(213, 500, 2000)) {
    hit <- matrix(NA, reps, length(types) + 1,
      dimnames = list(NULL, c("analytic", types))
    )
    width <- hit
    est <- numeric(reps)
    for (r in seq_len(reps)) {
      d <- draw(n, model)
      a <- suppressWarnings(selective_ci_vec(d$f, correct = d$y,
        metrics = "ece", binning = "equal_width"
      ))
      est[r] <- a$.estimate
      ivs <- list(analytic = a)
      for (type in types) {
        ivs[[type]] <- suppressWarnings(selective_ci_vec(d$f, correct = d$y,
          metrics = "ece", binning = "equal_width", method = "bootstrap",
          type = type, times = times
        ))
      }
      for (k in names(ivs)) {
        iv <- ivs[[k]]
        hit[r, k] <- iv$.lower <= truth[[model]] &&
          truth[[model]] <= iv$.upper
        width[r, k] <- iv$.upper - iv$.lower
      }
    }
    cat(sprintf("\n%s, n = %d (mean estimate %.4f, true %.4f):\n", model, n,
      mean(est), truth[[model]]))
    cat(sprintf("  %-10s coverage %5.1f%%  mean width %.4f\n", colnames(hit),
      100 * colMeans(hit, na.rm = TRUE), colMeans(width, na.rm = TRUE)
    ), sep = "")
  }
}
cat(sprintf("\n%.0f s\n", as.numeric(Sys.time() - started, units = "secs")))
