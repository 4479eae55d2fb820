# The coverage of intervals under importance weights that ?selective_ci
# states (section "Case weights"; issue 32). A known covariate shift: the
# source has x ~ N(0, 1), the target x ~ N(0.5, 1); the score is
# x + N(0, 0.8^2) and a case fails with probability plogis(-1.5 - 1.2 x).
# Source samples are weighted by the density ratio dnorm(x, 0.5) / dnorm(x)
# and the 95% intervals are checked against the target's values, computed
# on 1e7 target cases. Three ways: importance weights (analytic), the same
# weights as plain numbers (counts), and importance weights with the
# percentile bootstrap. tests/testthat/test-weights-importance.R repeats
# the analytic check at n = 5000.
#
# Run: Rscript studies/importance-coverage.R   (about 2 minutes)
library(aurc)
imp_data <- function(n, shift = 0) {
  x <- stats::rnorm(n, shift)
  list(
    x = x, score = x + stats::rnorm(n, 0, 0.8),
    loss = stats::rbinom(n, 1, stats::plogis(-1.5 - 1.2 * x))
  )
}
metrics <- c("aurc", "augrc", "failure_auroc")
set.seed(7)
big <- imp_data(1e7, shift = 0.5)
truth <- c(
  aurc_vec(big$score, big$loss), augrc_vec(big$score, big$loss),
  failure_auroc_vec(big$score, big$loss)
)
coverage <- function(n, reps, how, seed = 8) {
  set.seed(seed)
  covered <- matrix(NA, reps, 3, dimnames = list(NULL, metrics))
  for (r in seq_len(reps)) {
    d <- imp_data(n)
    w <- stats::dnorm(d$x, 0.5) / stats::dnorm(d$x)
    cw <- if (how == "counts") w else hardhat::importance_weights(w)
    ci <- if (how == "bootstrap") {
      selective_ci_vec(d$score, d$loss, metrics = metrics,
        case_weights = cw, method = "bootstrap", times = 1000
      )
    } else {
      selective_ci_vec(d$score, d$loss, metrics = metrics, case_weights = cw)
    }
    covered[r, ] <- ci$.lower <= truth & truth <= ci$.upper
  }
  round(100 * colMeans(covered), 1)
}
runs <- list(
  "importance, analytic, n = 1000, 2000 data sets" = c(1000, 2000),
  "importance, analytic, n = 5000, 1000 data sets" = c(5000, 1000),
  "counts, analytic, n = 1000, 1000 data sets" = c(1000, 1000),
  "importance, bootstrap, n = 1000, 500 data sets" = c(1000, 500)
)
for (nm in names(runs)) {
  how <- sub(",.*", "", nm)
  if (grepl("bootstrap", nm)) how <- "bootstrap"
  cov <- coverage(runs[[nm]][1], runs[[nm]][2], how)
  cat(sprintf("%-48s %s\n", nm,
              paste(paste0(names(cov), " ", cov, "%"), collapse = ", ")))
}
