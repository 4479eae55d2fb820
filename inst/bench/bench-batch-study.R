# Benchmark: aurc_batch_study() on 1e5 samples with 8 batch sizes, in one run.
#
# The study sorts the full set once and fills every batch from the global
# order, so one split costs a linear pass per estimator. Reported against
# two things measured in the same run: one aurc_vec() on the full set (a
# sort and a pass) and the naive study, one aurc_vec() call per batch and
# estimator (a sort per batch). Median of `reps` interleaved runs; ratios
# are what carries over to another machine, seconds are this machine's.
#
# Run: Rscript inst/bench/bench-batch-study.R [n] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
reps <- if (length(args) >= 2) as.integer(args[2]) else 5

set.seed(1)
score <- stats::rnorm(n)
failure <- stats::rbinom(n, 1, stats::plogis(-1 - 1.5 * score))
sizes <- 2^(3:10)
estimators <- c("alpha", "alpha_prime", "sele", "2sele")

naive_study <- function() {
  for (b in sizes) {
    perm <- sample.int(n)
    for (k in seq_len(n %/% b)) {
      idx <- perm[(k - 1) * b + seq_len(b)]
      for (e in estimators) aurc_vec(score[idx], failure[idx], estimator = e)
    }
  }
}

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
t_study <- t_full <- numeric(reps)
for (i in seq_len(reps)) {
  t_study[i] <- elapsed(aurc_batch_study(score, failure, batch_sizes = sizes))
  t_full[i] <- elapsed(aurc_vec(score, failure))
}
t_naive <- elapsed(naive_study()) # once: it is slow
med <- stats::median
cat(sprintf("n = %g, batch sizes %s, 4 estimators; median of %d runs\n",
            n, paste(sizes, collapse = ","), reps))
res <- data.frame(
  call = c("aurc_batch_study()", "aurc_vec() on the full set",
           "naive study: aurc_vec() per batch (1 run)"),
  seconds = c(med(t_study), med(t_full), t_naive)
)
res$ratio_to_study <- res$seconds / med(t_study)
print(res, digits = 3, row.names = FALSE)
cat(sprintf("study / one full-set aurc_vec(): %.1f\n",
            med(t_study) / med(t_full)))
cat(sprintf("naive / study: %.0f\n", t_naive / med(t_study)))
