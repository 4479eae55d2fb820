# Coverage of the intervals of set_metrics() by simulation (issue 36).
# Prediction sets are drawn with known class-conditional coverage p_k and
# set sizes drawn independently of coverage, so every target is known:
# coverage sum_k pi_k p_k, mean size, singleton rate, the largest class
# gap max_k |p_k - t|, covgap, macro coverage, and (sizes independent of
# coverage) the coverage of every size stratum equals the marginal one.
# Run: Rscript studies/sets-interval-coverage.R [reps]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 1000
set.seed(2026)

draw_sets <- function(n, pi, p, size_prob) {
  k <- length(pi)
  y <- sample.int(k, n, replace = TRUE, prob = pi)
  covered <- runif(n) < p[y]
  size <- sample.int(length(size_prob), n, replace = TRUE, prob = size_prob)
  sets <- matrix(FALSE, n, k)
  for (i in seq_len(n)) {
    others <- setdiff(seq_len(k), y[i])
    if (covered[i]) {
      sets[i, c(y[i], others[seq_len(size[i] - 1)])] <- TRUE
    } else {
      sets[i, others[seq_len(size[i])]] <- TRUE
    }
  }
  list(sets = sets, y = y)
}

scenario <- function(name, n, pi, p, size_prob, alpha, interval) {
  t <- 1 - alpha
  marg <- sum(pi * p)
  sizes <- seq_along(size_prob)
  truth <- c(
    coverage = marg, mean_size = sum(sizes * size_prob),
    singleton_rate = size_prob[1], class_coverage_gap = max(abs(p - t)),
    covgap = 100 * mean(abs(p - t)), macro_coverage = mean(p),
    ssc_min = marg, sscv = abs(marg - t)
  )
  hit <- matrix(NA, reps, length(truth), dimnames = list(NULL, names(truth)))
  for (r in seq_len(reps)) {
    d <- draw_sets(n, pi, p, size_prob)
    res <- set_metrics_vec(d$sets, d$y, alpha = alpha,
      metrics = names(truth), interval = interval
    )
    hit[r, ] <- res$.lower <= truth & truth <= res$.upper
  }
  data.frame(scenario = name, interval = interval, n = n,
    metric = names(truth), coverage = colMeans(hit, na.rm = TRUE)
  )
}

out <- rbind(
  scenario("K = 4, equal classes", 200, rep(0.25, 4),
    c(0.95, 0.9, 0.85, 0.8), c(0.4, 0.4, 0.2), 0.1, "wilson"),
  scenario("K = 4, equal classes", 200, rep(0.25, 4),
    c(0.95, 0.9, 0.85, 0.8), c(0.4, 0.4, 0.2), 0.1, "clopper_pearson"),
  scenario("K = 10, unequal classes", 1000, (1:10) / 55,
    seq(0.8, 0.98, length.out = 10), c(0.6, 0.3, 0.1), 0.1, "wilson"),
  scenario("K = 10, all classes at target", 1000, rep(0.1, 10),
    rep(0.9, 10), c(0.6, 0.3, 0.1), 0.1, "wilson")
)
out$coverage <- round(out$coverage, 3)
print(out, row.names = FALSE)
