# Coverage of the 95% intervals of the AUSE (ause_ci_vec()): Ilg et al.'s,
# which are those of E-AURC (alpha estimator, exact optimum) of the score
# -uncertainty, analytic and percentile bootstrap (selective_ci()), and
# torch-uncertainty's (delta method, ?ause_ci), on a heteroscedastic
# regression: the error |y - y_hat| with sd sigma, the uncertainty a noisy
# sigma. The targets are the population values, approximated on 2e6 draws.
# Run: Rscript studies/ause-interval-coverage.R (a few minutes)
library(aurc)
draw <- function(n) {
  sigma <- runif(n, 0.2, 2)
  list(
    u = sigma * exp(rnorm(n, sd = 0.5)),
    e = abs(rnorm(n, sd = sigma))
  )
}
set.seed(20261128)
big <- draw(2e6)
truth <- ause_vec(big$u, big$e)
truth_tu <- ause_vec(big$u, big$e, definition = "torch_uncertainty")
cat(sprintf("population AUSE: Ilg ~ %.5f, torch-uncertainty ~ %.5f\n",
  truth, truth_tu
))
covers <- function(ci, value) ci$.lower <= value && value <= ci$.upper
for (n in c(200, 1000, 5000)) {
  reps <- 400
  hit <- c(analytic = 0, bootstrap = 0, tu = 0)
  est <- est_tu <- numeric(reps)
  for (r in seq_len(reps)) {
    d <- draw(n)
    a <- ause_ci_vec(d$u, d$e)
    est[r] <- a$.estimate
    hit["analytic"] <- hit["analytic"] + covers(a, truth)
    tu <- ause_ci_vec(d$u, d$e, definition = "torch_uncertainty")
    est_tu[r] <- tu$.estimate
    hit["tu"] <- hit["tu"] + covers(tu, truth_tu)
    if (r <= 100) {
      b <- selective_ci_vec(-d$u, d$e, metrics = "eaurc",
        method = "bootstrap", times = 500
      )
      hit["bootstrap"] <- hit["bootstrap"] + covers(b, truth)
    }
  }
  line <- paste(
    "n = %5d: Ilg bias %+.5f, coverage analytic %.3f (%d reps),",
    "percentile bootstrap %.2f (100 reps); torch-uncertainty bias %+.5f,",
    "coverage %.3f\n"
  )
  cat(sprintf(line, n, mean(est) - truth, hit[["analytic"]] / reps, reps,
    hit[["bootstrap"]] / 100, mean(est_tu) - truth_tu, hit[["tu"]] / reps
  ))
}
