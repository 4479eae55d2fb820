# Coverage of the intervals of Ilg et al.'s AUSE, which are those of
# E-AURC (alpha estimator, exact optimum) of the score -uncertainty
# (?ause_vec, "AUSE and E-AURC"), on a heteroscedastic regression: the
# error |y - y_hat| with sd sigma, the uncertainty a noisy sigma.
# The target is the population AUSE, approximated on 2e6 draws.
# Run: Rscript inst/scripts/ause-interval-coverage.R (about a minute)
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
cat(sprintf("population AUSE (Ilg) ~ %.5f\n", truth))
for (n in c(200, 1000, 5000)) {
  reps <- 400
  hit <- c(analytic = 0, bootstrap = 0)
  est <- numeric(reps)
  for (r in seq_len(reps)) {
    d <- draw(n)
    a <- selective_ci_vec(-d$u, d$e, metrics = "eaurc")
    est[r] <- a$.estimate
    hit["analytic"] <- hit["analytic"] + (a$.lower <= truth & truth <= a$.upper)
    if (r <= 100) {
      b <- selective_ci_vec(-d$u, d$e, metrics = "eaurc",
        method = "bootstrap", times = 500
      )
      hit["bootstrap"] <- hit["bootstrap"] +
        (b$.lower <= truth & truth <= b$.upper)
    }
    stopifnot(isTRUE(all.equal(est[r], ause_vec(d$u, d$e))))
  }
  line <- paste(
    "n = %5d: mean estimate %.5f (bias %+.5f); 95%% coverage analytic",
    "%.3f (%d reps), percentile bootstrap %.2f (100 reps)\n"
  )
  cat(sprintf(line, n, mean(est), mean(est) - truth,
    hit[["analytic"]] / reps, reps, hit[["bootstrap"]] / 100
  ))
}
