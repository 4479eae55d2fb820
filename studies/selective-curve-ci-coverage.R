# Coverage of the 95% bootstrap intervals of selective_curve_ci_vec() (area
# and excess) and the level of compare_selective_curves(), on a binary
# classifier whose correctness rises with the score. The targets are the
# population values, approximated on 1e6 draws. Also the speed of one
# replicate (replicates per second) at n = 1e4 and 1e5.
# Run: Rscript studies/selective-curve-ci-coverage.R [data sets] [times]
#   [n] [coverage-only]
# (200 data sets of 200 replicates at n = 200 and 1000: about 10 minutes)
# For accuracy the area is 1 - AURC ("alpha"): the analytic AURC interval
# of selective_ci() is shown beside it, on the same data sets.
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n_sets <- if (length(args) >= 1) as.integer(args[1]) else 200
n_times <- if (length(args) >= 2) as.integer(args[2]) else 200
sizes <- if (length(args) >= 3) as.integer(args[3]) else c(200, 1000)
skip_level <- length(args) >= 4 && args[4] == "coverage-only"
draw <- function(n) {
  truth <- factor(sample(c("a", "b"), n, TRUE, prob = c(0.4, 0.6)),
    levels = c("a", "b")
  )
  skill <- runif(n)
  right <- runif(n) < 0.5 + 0.45 * skill
  estimate <- factor(ifelse(right, as.character(truth),
    ifelse(truth == "a", "b", "a")
  ), levels = c("a", "b"))
  # a confidence score: the skill with noise, rounded (ties), and a second
  # score of the same information (for the level of the paired test)
  list(
    score = round(skill + rnorm(n, sd = 0.15), 2),
    score2 = round(skill + rnorm(n, sd = 0.15), 2),
    truth = truth, estimate = estimate, p = plogis(qlogis(0.5 + 0.45 * skill)),
    y = as.numeric(right), loss = as.numeric(!right)
  )
}
metrics <- list(
  accuracy = list(min_coverage = 0, oracle = FALSE),
  balanced_accuracy = list(min_coverage = 0.1, oracle = TRUE),
  f1 = list(min_coverage = 0.1, oracle = TRUE),
  mcc = list(min_coverage = 0.1, oracle = TRUE)
)
one <- function(d, m, fn, ...) {
  o <- metrics[[m]]
  fn(d$score, d$truth, d$estimate, metric = m,
    oracle_loss = if (o$oracle) d$loss, min_coverage = o$min_coverage, ...
  )
}
set.seed(20261128)
pop <- draw(1e6)
target <- lapply(names(metrics), function(m) {
  a <- selective_curve_area(one(pop, m, selective_curve_vec))
  c(area = a$area, excess = a$excess)
})
names(target) <- names(metrics)
print(do.call(rbind, target))
z <- stats::qnorm(0.975)
for (n in sizes) {
  # percentile and normal intervals from the same replicates
  hits <- array(0, c(length(metrics), 2, 2), dimnames = list(
    names(metrics), c("area", "excess"), c("percentile", "normal")
  ))
  analytic <- 0
  for (r in seq_len(n_sets)) {
    d <- draw(n)
    a <- selective_ci_vec(d$score, d$loss, metrics = "aurc")
    analytic <- analytic + (1 - a$.upper <= target$accuracy[["area"]] &
      target$accuracy[["area"]] <= 1 - a$.lower)
    for (m in names(metrics)) {
      ci <- suppressWarnings(one(d, m, selective_curve_ci_vec,
        times = n_times
      ))
      lo_n <- ci$.estimate - z * ci$.std_error
      hi_n <- ci$.estimate + z * ci$.std_error
      hits[m, , 1] <- hits[m, , 1] + (ci$.lower <= target[[m]] &
        target[[m]] <= ci$.upper)
      hits[m, , 2] <- hits[m, , 2] + (lo_n <= target[[m]] &
        target[[m]] <= hi_n)
    }
  }
  cat(sprintf("\nn = %d, %d data sets, %d replicates: coverage\n",
    n, n_sets, n_times
  ))
  print(round(hits / n_sets, 3))
  cat(sprintf("accuracy area, analytic AURC interval of selective_ci(): %.3f\n",
    analytic / n_sets
  ))
}
# level of the paired test: two scores of the same information, so the
# population difference of their areas is 0
for (n in if (skip_level) integer() else sizes) {
  rej <- 0
  for (r in seq_len(n_sets)) {
    d <- draw(n)
    df <- data.frame(a = d$score, b = d$score2, truth = d$truth,
      estimate = d$estimate, loss = d$loss
    )
    cmp <- suppressWarnings(compare_selective_curves(df, c(a, b), truth,
      estimate, metric = "f1", oracle_loss = loss, min_coverage = 0.1,
      times = n_times
    ))
    rej <- rej + (cmp$tests$p_value < 0.05)
  }
  cat(sprintf("\npaired test, F1, n = %d: rejection rate at 5%%: %.3f\n", n,
    rej / n_sets
  ))
}
# speed: replicates per second of CPU time (user + system, so that other
# jobs on a shared machine do not count) and of elapsed time
cat("\nreplicates per second (CPU time; elapsed time)\n")
for (n in c(1e4, 1e5)) {
  d <- draw(n)
  for (m in c("accuracy", "f1", "auroc")) {
    times <- if (n == 1e4) 200 else 40
    tm <- system.time(if (m == "auroc") {
      selective_curve_ci_vec(d$score, d$y, d$p, metric = "auroc",
        min_coverage = 0.05, times = times
      )
    } else {
      one(d, m, selective_curve_ci_vec, times = times)
    })
    cpu <- tm[["user.self"]] + tm[["sys.self"]]
    cat(sprintf("n = %g, %s: %.0f replicates/s (elapsed: %.0f)\n", n, m,
      times / cpu, times / tm[["elapsed"]]
    ))
  }
}
