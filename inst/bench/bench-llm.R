# PRR, AUARC and the partial areas (issue 27) at n = 1e6: time relative to
# one order() of the scores (the floor of any exact method), and PRR
# relative to LM-Polygraph's definition written in vectorised R (two
# argsorts and cumulative sums, as its numpy code does).
# Run: Rscript inst/bench/bench-llm.R
library(aurc)
set.seed(1)
n <- 1e6
conf <- runif(n)
quality <- pmin(1, pmax(0, 0.3 + 0.5 * conf + rnorm(n, sd = 0.2)))
loss <- 1 - quality

time_of <- function(expr, reps = 5) {
  e <- substitute(expr)
  env <- parent.frame()
  t <- vapply(seq_len(reps), function(i) {
    system.time(eval(e, env))[["elapsed"]]
  }, numeric(1))
  stats::median(t)
}
polygraph_area <- function(uncertainty, target, r) {
  k <- floor(r * length(uncertainty))
  m <- length(uncertainty)
  kept <- cumsum(target[order(uncertainty)])[(m - k + 1):m]
  sum(kept / ((m - k + 1):m)) / k
}
polygraph_prr <- function(uncertainty, target, r) {
  rnd <- mean(target)
  (polygraph_area(uncertainty, target, r) - rnd) /
    (polygraph_area(-target, target, r) - rnd)
}

t_order <- time_of(order(conf))
rows <- list(
  "prr_vec (max_rejection = 1)" = time_of(prr_vec(conf, quality)),
  "prr_vec (max_rejection = 0.5)" =
    time_of(prr_vec(conf, quality, max_rejection = 0.5)),
  "auarc_vec" = time_of(auarc_vec(conf, quality)),
  "partial_aurc_vec [0.5, 1]" =
    time_of(partial_aurc_vec(conf, loss, coverage_range = c(0.5, 1))),
  "partial_augrc_vec [0.5, 1]" =
    time_of(partial_augrc_vec(conf, loss, coverage_range = c(0.5, 1))),
  "LM-Polygraph PRR in R" = time_of(polygraph_prr(-conf, quality, 1))
)
cat(sprintf("n = %g; order(): %.3f s\n", n, t_order))
for (nm in names(rows)) {
  cat(sprintf("%-32s %.3f s  %.2fx order()  %.2fx LM-Polygraph in R\n", nm,
    rows[[nm]], rows[[nm]] / t_order,
    rows[[nm]] / rows[["LM-Polygraph PRR in R"]]))
}
