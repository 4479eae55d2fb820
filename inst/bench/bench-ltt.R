# Benchmark: certify_threshold(method = "ltt") against SGR and against one
# order() of the scores, at n = 1e6 (continuous scores: D ~ n candidates).
#
# LTT sorts the scores once (the risk-coverage curve), then computes every
# candidate's p-value and the FWER procedure in vectorised passes over the
# D distinct thresholds (Holm sorts the D p-values once more). SGR needs the
# same curve and ~log2(D) bounds. Timings are interleaved; the median of
# `reps` runs is reported, as ratios measured in this run (absolute times
# depend on the machine).
#
# Run: Rscript inst/bench/bench-ltt.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
score <- stats::runif(n)
failure <- as.double(stats::rbinom(n, 1, 0.4 * (1 - score)^2))
loss <- stats::runif(n, 0, 0.8 * (1 - score)^2)

quiet <- function(expr) suppressWarnings(expr)
cases <- list(
  order = function() order(score),
  sgr = function() quiet(certify_threshold(score, failure, 0.05, 0.01)),
  ltt_fixed_sequence = function() {
    quiet(certify_threshold(score, failure, 0.05, 0.01, method = "ltt"))
  },
  ltt_holm = function() {
    quiet(certify_threshold(score, failure, 0.05, 0.01, method = "ltt",
      fwer = "holm"
    ))
  },
  ltt_hb_loss_abstention = function() {
    quiet(certify_threshold(score, loss, 0.05, 0.01, method = "ltt",
      p_value = "hoeffding_bentkus", fwer = "bonferroni",
      max_abstention = 0.6
    ))
  }
)
elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

for (f in cases) f()
times <- matrix(NA_real_, reps, length(cases),
  dimnames = list(NULL, names(cases))
)
for (r in seq_len(reps)) {
  for (nm in names(cases)) times[r, nm] <- elapsed(cases[[nm]]())
}
med <- apply(times, 2, stats::median)
cat(sprintf("n = %s, median of %d interleaved runs\n", format(n), reps))
for (nm in names(cases)) {
  cat(sprintf(
    "%-24s %.3f s  vs order() %5.2f  vs SGR %5.2f\n", nm, med[[nm]],
    med[[nm]] / med[["order"]], med[[nm]] / med[["sgr"]]
  ))
}
