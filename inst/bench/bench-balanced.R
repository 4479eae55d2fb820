# The balanced-accuracy AURC and AUGRC (fd-shifts; issue 27): the metrics,
# their analytic intervals and their bootstrap, relative to one order() of
# the scores, and the engine's bootstrap (counts over presorted cases)
# relative to the plain way: the metric recomputed on each resampled data
# set. All ratios are measured in this run.
# Run: Rscript inst/bench/bench-balanced.R [n] [times]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
times <- if (length(args) >= 2) as.integer(args[2]) else 200
set.seed(1)
truth <- sample(letters[1:10], n, replace = TRUE, prob = 10:1)
score <- runif(n)
failure <- rbinom(n, 1, 0.1 + 0.4 * (1 - score) * match(truth, letters) / 10)

time_of <- function(expr, reps = 3) {
  e <- substitute(expr)
  env <- parent.frame()
  stats::median(vapply(seq_len(reps), function(i) {
    system.time(eval(e, env))[["elapsed"]]
  }, numeric(1)))
}
t_order <- time_of(order(score))
plain_reps <- 10 # the plain bootstrap, timed on 10 replicates and scaled
t_plain <- time_of({
  for (b in seq_len(plain_reps)) {
    i <- sample.int(n, n, replace = TRUE)
    aurc_ba_vec(score[i], failure[i], truth[i])
  }
}, reps = 1) * times / plain_reps
rows <- c(
  "aurc_ba_vec" = time_of(aurc_ba_vec(score, failure, truth)),
  "augrc_ba_vec" = time_of(augrc_ba_vec(score, failure, truth)),
  "selective_ci, analytic (both)" = time_of(selective_ci_vec(score, failure,
    truth = truth, metrics = c("aurc_ba", "augrc_ba"))),
  "selective_ci, bootstrap (both)" = time_of(selective_ci_vec(score,
    failure, truth = truth, metrics = c("aurc_ba", "augrc_ba"),
    method = "bootstrap", times = times), reps = 1),
  "plain bootstrap of aurc_ba_vec" = t_plain
)
cat(sprintf("n = %g, %d replicates; order(): %.3f s\n", n, times, t_order))
for (nm in names(rows)) {
  cat(sprintf("%-32s %8.3f s  %7.2fx order()\n", nm, rows[[nm]],
    rows[[nm]] / t_order))
}
cat(sprintf("engine bootstrap (both metrics) / plain (aurc_ba alone): %.3f\n",
  rows[["selective_ci, bootstrap (both)"]] /
    rows[["plain bootstrap of aurc_ba_vec"]]))
