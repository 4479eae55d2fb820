# Benchmark: grouped data frames with many small groups against the same
# rows ungrouped.
#
# The data-frame forms evaluate every group of a grouped data frame in one
# C++ call over rows ordered by group (small groups sorted by a comparison
# sort) and build one tibble at the end, so 3000 groups of 30 rows should
# cost at most a few times the same 90 000 rows as one group. Timings are
# interleaved; the median of `reps` runs is reported, as ratios measured in
# this run (absolute times depend on the machine).
#
# Run: Rscript inst/bench/bench-grouped.R [groups] [rows_per_group] [reps]
library(aurc)
if (!requireNamespace("dplyr", quietly = TRUE)) {
  stop("This benchmark needs dplyr for grouped data frames.")
}
args <- commandArgs(trailingOnly = TRUE)
n_groups <- if (length(args) >= 1) as.integer(args[1]) else 3000L
size <- if (length(args) >= 2) as.integer(args[2]) else 30L
reps <- if (length(args) >= 3) as.integer(args[3]) else 7L

set.seed(1)
n <- n_groups * size
df <- data.frame(
  model = rep(seq_len(n_groups), each = size),
  score = stats::runif(n)
)
df$failure <- as.double(stats::rbinom(n, 1, 0.4 - 0.3 * df$score))
df$correct <- 1 - df$failure
grouped <- dplyr::group_by(df, model)

# every metric of the registry in its data-frame form, then the rest
targets <- list(risk_at_coverage = list(coverage = 0.8),
  coverage_at_risk = list(risk = 0.2))
metric_task <- function(name) {
  f <- getExportedValue("aurc", name)
  function(d) {
    do.call(f, c(list(d, quote(score), quote(failure)), targets[[name]]))
  }
}
metric_names <- c(
  "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc", "eaugrc",
  "naurc", "risk_at_coverage", "coverage_at_risk"
)
tasks <- stats::setNames(
  lapply(metric_names, metric_task), paste0(metric_names, "()")
)
tasks <- c(tasks, list(
  "selective_metrics()" = function(d) selective_metrics(d, score, failure),
  "rc_curve()" = function(d) rc_curve(d, score, failure),
  "ece()" = function(d) ece(d, score, correct),
  "ece(binning = \"equal_width\")" = function(d) {
    ece(d, score, correct, binning = "equal_width")
  },
  "calibration_bins_df()" = function(d) calibration_bins_df(d, score, correct)
))
# each timing runs the task `inner` times: single calls take milliseconds
inner <- 5L
elapsed <- function(f, d) {
  system.time(for (k in seq_len(inner)) f(d), gcFirst = TRUE)[["elapsed"]] /
    inner
}

cat(sprintf(
  "%d groups x %d rows vs the same %d rows ungrouped, median of %d runs\n\n",
  n_groups, size, n, reps
))
cat(sprintf(
  "%-32s %11s %11s %7s\n", "task", "grouped s", "ungrouped s", "ratio"
))
for (nm in names(tasks)) {
  f <- tasks[[nm]]
  f(grouped) # warm up
  t_grouped <- t_plain <- numeric(reps)
  for (i in seq_len(reps)) {
    t_grouped[i] <- elapsed(f, grouped)
    t_plain[i] <- elapsed(f, df)
  }
  g <- stats::median(t_grouped)
  p <- stats::median(t_plain)
  cat(sprintf("%-32s %11.4f %11.4f %7.2f\n", nm, g, p, g / p))
}
