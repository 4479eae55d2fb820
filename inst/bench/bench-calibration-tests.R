# Benchmark: calibration_test_vec() (Spiegelhalter, KS, Kuiper) against
# order() on the same confidences, and calibration_slope_vec() /
# calibration_intercept_vec() (Newton's method) against stats::glm() on the
# same logistic recalibration; ici_vec() against the authors' plain
# loess + predict code (it is that code plus the input checks).
#
# The tests sort once (KS, Kuiper) and then make linear passes; Spiegelhalter
# needs no sort. Timings are interleaved and the median of `reps` runs is
# reported, with ratios measured in this run.
#
# Run: Rscript inst/bench/bench-calibration-tests.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
confidence <- stats::rbeta(n, 8, 1)
correct <- as.double(stats::rbinom(n, 1, confidence^1.3))
x <- stats::qlogis(confidence)
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

calls <- list(
  order = function() order(confidence),
  all_three_tests = function() calibration_test_vec(confidence, correct),
  spiegelhalter = function() {
    calibration_test_vec(confidence, correct, method = "spiegelhalter")
  },
  kuiper = function() {
    calibration_test_vec(confidence, correct, method = "kuiper")
  },
  calibration_slope_vec = function() calibration_slope_vec(confidence, correct),
  glm_slope = function() {
    stats::glm(correct ~ x, family = stats::binomial())
  },
  calibration_intercept_vec = function() {
    calibration_intercept_vec(confidence, correct)
  },
  glm_intercept = function() {
    stats::glm(correct ~ 1 + offset(x), family = stats::binomial())
  }
)
times <- matrix(NA_real_, reps, length(calls),
  dimnames = list(NULL, names(calls))
)
for (r in seq_len(reps)) {
  for (k in names(calls)) times[r, k] <- elapsed(calls[[k]]())
}
med <- apply(times, 2, stats::median)
cat(sprintf("n = %g, median of %d runs (seconds)\n", n, reps))
print(round(med, 4))
cat("\nratios\n")
cat(sprintf("  all three tests / order()      : %.2f\n",
  med[["all_three_tests"]] / med[["order"]]))
cat(sprintf("  kuiper / order()               : %.2f\n",
  med[["kuiper"]] / med[["order"]]))
cat(sprintf("  spiegelhalter / order()        : %.2f\n",
  med[["spiegelhalter"]] / med[["order"]]))
cat(sprintf("  glm / calibration_slope_vec    : %.1f\n",
  med[["glm_slope"]] / med[["calibration_slope_vec"]]))
cat(sprintf("  glm / calibration_intercept_vec: %.1f\n",
  med[["glm_intercept"]] / med[["calibration_intercept_vec"]]))

# ICI: loess is the cost. The authors' plain code lets loess compute the
# trace of its hat matrix exactly (O(n^2), about 5 s at n = 2e4), which
# only loess's own summary uses; ici_vec() asks for the approximate trace
# (the smooth is the same). The fair baseline is therefore the same loess
# call with trace.hat = "approximate": ici_vec() adds the input checks and
# the summaries. Both ratios are reported, at n = 2e4 and at n.
ici_times <- function(m) {
  idx <- seq_len(m)
  p <- confidence[idx]
  y <- correct[idx]
  plain <- function(control) {
    mean(abs(stats::predict(stats::loess(y ~ p, control = control),
      newdata = p
    ) - p))
  }
  approx <- stats::loess.control(trace.hat = "approximate")
  t_ici <- stats::median(replicate(5, elapsed(ici_vec(p, y))))
  t_approx <- stats::median(replicate(5, elapsed(plain(approx))))
  t_exact <- if (m <= 2e4) {
    stats::median(replicate(3, elapsed(plain(stats::loess.control()))))
  } else {
    NA_real_
  }
  cat(sprintf(paste0("\nICI at n = %g: ici_vec %.3f s; loess with the",
    " approximate trace %.3f s (ratio %.2f); with the exact trace %.3f s",
    " (ratio %.3f)\n"),
    m, t_ici, t_approx, t_ici / t_approx, t_exact, t_ici / t_exact))
}
ici_times(min(n, 2e4))
if (n > 2e4) ici_times(n)
