# Benchmark: bootstrap_ranking() against a plain R loop, in one run.
# Second part: E-AURC (exact optimum) on a continuous loss, the kernel
# against eaurc_vec() on each rebuilt replicate (what bootstrap_ranking()
# did before the metric moved into the kernel), timed and scaled the same
# way.
#
# 13 methods x 5 runs x 1e4 cases x 500 replicates of AUGRC (the size of
# Traub et al.'s study for one dataset). The plain R loop rebuilds each
# replicate's data and re-sorts it (order(), then one vectorised pass); it
# is timed on the first `sub` replicates and scaled linearly to all of them
# (each replicate costs the same). Both draw the same replicates, and the
# loop's values are checked against the package's.
#
# Run: Rscript inst/bench/bench-ranking.R [times] [sub]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
times <- if (length(args) >= 1) as.integer(args[1]) else 500L
sub <- if (length(args) >= 2) as.integer(args[2]) else 20L
n_methods <- 13
n_runs <- 5
n <- 1e4

set.seed(1)
truth <- stats::rbinom(n, 1, 0.2)
grid <- expand.grid(case = seq_len(n), run = seq_len(n_runs),
                    method = sprintf("csf_%02d", seq_len(n_methods)))
strength <- 0.3 + as.integer(grid$method) / n_methods
grid$score <- round(-truth[grid$case] * strength + stats::rnorm(nrow(grid)),
                    2) # rounded: ties, as real confidence scores have
grid$loss <- truth[grid$case]

set.seed(2)
idx <- t(vapply(seq_len(times), function(b) sample.int(n, n, replace = TRUE),
                integer(n)))

# plain R: AUGRC (trapezoid, ties as one threshold) after a fresh sort
augrc_r <- function(s, l) {
  m <- length(s)
  o <- order(s, decreasing = TRUE)
  s <- s[o]
  l <- l[o]
  last <- c(s[-1] != s[-m], TRUE)
  risk <- cumsum(l)[last] / m
  cover <- which(last) / m
  sum(diff(c(0, cover)) * (c(0, risk[-length(risk)]) + risk) / 2)
}
methods <- levels(grid$method)
cols <- split(grid[c("score", "loss")], list(grid$run, grid$method))
plain_loop <- function(reps) {
  out <- matrix(NA_real_, length(reps), n_methods)
  for (b in seq_along(reps)) {
    i <- idx[reps[b], ]
    v <- vapply(cols, function(d) augrc_r(d$score[i], d$loss[i]), 0)
    out[b, ] <- colMeans(matrix(v, n_runs))
  }
  out
}

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]
t_plain <- elapsed(plain <- plain_loop(seq_len(sub)))
t_pkg1 <- elapsed(rk1 <- bootstrap_ranking(grid, method, case, score, loss,
  run = run, metrics = "augrc", indices = idx, threads = 1))
t_pkg2 <- elapsed(rk2 <- bootstrap_ranking(grid, method, case, score, loss,
  run = run, metrics = "augrc", indices = idx, threads = 2))

pkg <- matrix(rk1$replicates$value, times)[seq_len(sub), ]
stopifnot(isTRUE(all.equal(unname(pkg), plain, tolerance = 1e-12)))
stopifnot(identical(rk1$replicates, rk2$replicates))

t_plain_all <- t_plain * times / sub
cat(sprintf(
  "%d methods x %d runs x %g cases x %d replicates of AUGRC\n",
  n_methods, n_runs, n, times
))
cat(sprintf(
  "plain R loop, re-sorting: %.2f s for %d replicates -> %.1f s for %d %s\n",
  t_plain, sub, t_plain_all, times, "(scaled linearly)"
))
cat(sprintf("bootstrap_ranking(), 1 thread:  %.2f s (%.0fx faster)\n",
            t_pkg1, t_plain_all / t_pkg1))
cat(sprintf("bootstrap_ranking(), 2 threads: %.2f s (%.0fx faster)\n",
            t_pkg2, t_plain_all / t_pkg2))
cat("(the package times include building the tables and all the tests)\n")

# E-AURC with a continuous loss (ties in score and loss): the kernel sorts
# the loss once per method and run; eaurc_vec() re-sorts score and loss.
set.seed(3)
grid$closs <- grid$loss + round(stats::rexp(nrow(grid)), 2)
cols_c <- split(grid[c("score", "closs")], list(grid$run, grid$method))
vec_loop <- function(reps) {
  out <- matrix(NA_real_, length(reps), n_methods)
  for (b in seq_along(reps)) {
    i <- idx[reps[b], ]
    v <- vapply(cols_c, function(d) eaurc_vec(d$score[i], d$closs[i]), 0)
    out[b, ] <- colMeans(matrix(v, n_runs))
  }
  out
}
t_vec <- elapsed(vec <- vec_loop(seq_len(sub)))
t_e1 <- elapsed(rke1 <- bootstrap_ranking(grid, method, case, score, closs,
  run = run, metrics = "eaurc", indices = idx, threads = 1))
t_e2 <- elapsed(rke2 <- bootstrap_ranking(grid, method, case, score, closs,
  run = run, metrics = "eaurc", indices = idx, threads = 2))
pkg_e <- matrix(rke1$replicates$value, times)[seq_len(sub), ]
stopifnot(isTRUE(all.equal(unname(pkg_e), vec, tolerance = 1e-12)))
stopifnot(identical(rke1$replicates, rke2$replicates))
t_vec_all <- t_vec * times / sub
cat(sprintf(
  "\nE-AURC (exact optimum), continuous loss, same design\n"
))
cat(sprintf(
  "eaurc_vec() per replicate: %.2f s for %d replicates -> %.1f s for %d %s\n",
  t_vec, sub, t_vec_all, times, "(scaled linearly)"
))
cat(sprintf("bootstrap_ranking(), 1 thread:  %.2f s (%.0fx faster)\n",
            t_e1, t_vec_all / t_e1))
cat(sprintf("bootstrap_ranking(), 2 threads: %.2f s (%.0fx faster)\n",
            t_e2, t_vec_all / t_e2))
