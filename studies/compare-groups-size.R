# Size and power of the gap test of compare_groups() (issue 35, item 1):
# the max-t test that every group has the same value of the metric, at
# alpha = 0.05. K groups of n cases from the same distribution (size) or
# with the last group's failures shifted or less well separated (power). A
# case has a latent x ~ N(0, 1), the score x + N(0, 0.7^2) rounded to 0.01
# (ties), a failure with probability plogis(-1.2 - slope x + shift) and a
# continuous loss
# Exp(1) * plogis(-x + shift). The rates are known to about
# sqrt(0.05 * 0.95 / reps) (0.7 points at 1000 data sets).
#
# Run: Rscript studies/compare-groups-size.R [reps]   (a few minutes)
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 1000
make <- function(n, shift, slope = rep(1.5, length(shift))) {
  k <- length(shift)
  x <- stats::rnorm(n * k)
  s <- rep(shift, each = n)
  b <- rep(slope, each = n)
  data.frame(
    group = rep(letters[seq_len(k)], each = n),
    score = round(x + stats::rnorm(n * k, sd = 0.7), 2),
    failure = stats::rbinom(n * k, 1, stats::plogis(-1.2 - b * x + s)),
    loss = stats::rexp(n * k) * stats::plogis(-x + s)
  )
}
rate <- function(reps, n, shift, metric, method = "analytic", times = 500,
                 seed = 1, slope = rep(1.5, length(shift))) {
  set.seed(seed)
  loss <- if (metric == "aurc") "loss" else "failure"
  rej <- vapply(seq_len(reps), function(r) {
    df <- make(n, shift, slope)
    cmp <- suppressWarnings(compare_groups(df, score, !!as.name(loss),
      group = group, metric = metric, method = method, times = times
    ))
    cmp$gap$p_value < 0.05
  }, logical(1))
  mean(rej, na.rm = TRUE)
}
cells <- list(
  list("aurc", 300, c(0, 0, 0)), list("failure_auroc", 300, c(0, 0, 0)),
  list("augrc", 300, c(0, 0, 0)), list("aurc", 100, c(0, 0, 0)),
  list("failure_auroc", 100, c(0, 0, 0, 0, 0)),
  list("failure_auroc", 300, c(0, 0)),
  list("aurc", 300, c(0, 0, 0.5)), list("failure_auroc", 300, c(0, 0, 0.5)),
  list("augrc", 300, c(0, 0, 0.5)),
  # the failure AUROC does not see a shift of the failure rate (the
  # ranking is the same): its power against a weaker slope in one group
  list("failure_auroc", 300, c(0, 0, 0), c(1.5, 1.5, 0.9)),
  list("failure_auroc", 300, c(0, 0, 0), c(1.5, 1.5, 0.6))
)
cat(sprintf("%d data sets per cell; alpha = 0.05\n", reps))
for (i in seq_along(cells)) {
  cl <- cells[[i]]
  slope <- if (length(cl) > 3) cl[[4]] else rep(1.5, length(cl[[3]]))
  r <- rate(reps, cl[[2]], cl[[3]], cl[[1]], seed = i, slope = slope)
  cat(sprintf(
    "analytic  %-14s K = %d, n = %3d, shift %-9s slope %-13s rate %.3f\n",
    cl[[1]], length(cl[[3]]), cl[[2]], paste(cl[[3]], collapse = ","),
    paste(slope, collapse = ","), r
  ))
}
b_reps <- max(50, reps %/% 5)
for (shift in list(c(0, 0, 0), c(0, 0, 0.5))) {
  r <- rate(b_reps, 300, shift, "aurc", method = "bootstrap", seed = 99)
  cat(sprintf(
    "bootstrap aurc (500 reps, %d data sets) n = 300, shift %-9s rate %.3f\n",
    b_reps, paste(shift, collapse = ","), r
  ))
}
