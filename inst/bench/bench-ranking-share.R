# Benchmark: the share of bootstrap_ranking()'s time spent in the C++ kernel
# (issue 15), on the data of bench-ranking.R: 13 methods x 5 runs x 1e4
# cases x `times` replicates of AUGRC with indices given. Everything else
# (finding methods, runs and cases, checking the index matrix, ranks and
# tests) is R work around the kernel. Measured with Rprof over `reps` calls
# after one warm-up call.
#
# Run: Rscript inst/bench/bench-ranking-share.R [times] [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
times <- if (length(args) >= 1) as.integer(args[1]) else 500L
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
n_methods <- 13
n_runs <- 5
n <- 1e4

set.seed(1)
truth <- stats::rbinom(n, 1, 0.2)
grid <- expand.grid(case = seq_len(n), run = seq_len(n_runs),
                    method = sprintf("csf_%02d", seq_len(n_methods)))
strength <- 0.3 + as.integer(grid$method) / n_methods
grid$score <- round(-truth[grid$case] * strength + stats::rnorm(nrow(grid)),
                    2)
grid$loss <- truth[grid$case]
set.seed(2)
idx <- t(vapply(seq_len(times), function(b) sample.int(n, n, replace = TRUE),
                integer(n)))
run_once <- function() {
  bootstrap_ranking(grid, method, case, score, loss, run = run,
    metrics = "augrc", indices = idx, threads = 1
  )
}
invisible(run_once())
prof <- tempfile()
utils::Rprof(prof, interval = 0.002)
for (i in seq_len(reps)) invisible(run_once())
utils::Rprof(NULL)
tot <- utils::summaryRprof(prof)$by.total
share <- tot["\"ranking_metrics_impl\"", "total.time"] /
  tot["\"bootstrap_ranking\"", "total.time"]
cat(sprintf(
  "%d methods x %d runs x %g cases x %d replicates: kernel %.0f%% of %s\n",
  n_methods, n_runs, n, times, 100 * share, "bootstrap_ranking()"
))
