# Coverage and level of compare_sets() by simulation (issue 36).
# Two set predictors of the same cases (K = 3 equally likely classes). In
# predictor A the true class is in the set with probability p_a[y], each
# other class with probability q_a; B likewise with p_b, q_b. The two share
# their uniforms (case i holds the truth in A when U_i < p_a[y_i] and in B
# when U_i < p_b[y_i]; the same for each other class), so they are
# positively correlated, as two predictors of one model are. Every target
# is known in closed form:
#   coverage        sum_k pi_k p_k
#   mean_size       coverage + (K - 1) q
#   singleton_rate  sum_k pi_k [p_k f(0) + (1 - p_k) f(1)]
#   empty_rate      sum_k pi_k (1 - p_k) f(0)
#   class gaps      from c_k = p_k; coverage of size stratum s:
#                   sum_k pi_k p_k f(s - 1) /
#                   sum_k pi_k [p_k f(s - 1) + (1 - p_k) f(s)]
# with f the Binomial(K - 1, q) probabilities. Size strata {1} and {2, 3}
# (sizes 0 are in no stratum). "null": A and B have the same law and
# independent uniforms, so every difference is 0 (the level of each test).
# Run: Rscript studies/sets-compare-coverage.R [reps] [n]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 500
n <- if (length(args) > 1) as.integer(args[2]) else 500
set.seed(2026)
k <- 3
pi <- rep(1 / k, k)
alpha <- 0.1
strata <- list(c(1, 1), c(2, 3))

draw <- function(y, u, v, p, q) {
  s <- v < q
  s[cbind(seq_along(y), y)] <- u < p[y]
  colnames(s) <- seq_len(k)
  s
}

truth_of <- function(p, q) {
  f <- stats::dbinom(0:(k - 1), k - 1, q)
  # the probability that B = s - 1
  fs <- function(s) if (s >= 1 && s <= k) f[s] else 0
  cov <- sum(pi * p)
  strat_cov <- vapply(strata, function(r) {
    s <- r[1]:r[2]
    hit <- sum(pi * p) * sum(vapply(s, fs, 1))
    miss <- sum(pi * (1 - p)) * sum(vapply(s + 1, fs, 1))
    hit / (hit + miss)
  }, 1)
  gap <- abs(p - (1 - alpha))
  c(
    coverage = cov, mean_size = cov + (k - 1) * q,
    singleton_rate = sum(pi * (p * f[1] + (1 - p) * f[2])),
    empty_rate = sum(pi * (1 - p)) * f[1],
    class_coverage_gap = max(gap), covgap = 100 * mean(gap),
    macro_coverage = mean(p), ssc_min = min(strat_cov),
    sscv = max(abs(strat_cov - (1 - alpha)))
  )
}

metrics <- c("coverage", "mean_size", "singleton_rate", "empty_rate",
  "class_coverage_gap", "covgap", "macro_coverage", "ssc_min", "sscv")

scenario <- function(name, p_a, q_a, p_b, q_b, paired = TRUE) {
  target <- truth_of(p_a, q_a)[metrics] - truth_of(p_b, q_b)[metrics]
  hit <- reject <- matrix(NA, reps, length(metrics))
  for (i in seq_len(reps)) {
    y <- sample.int(k, n, replace = TRUE, prob = pi)
    u <- stats::runif(n)
    v <- matrix(stats::runif(n * k), n, k)
    a <- draw(y, u, v, p_a, q_a)
    if (!paired) {
      u <- stats::runif(n)
      v <- matrix(stats::runif(n * k), n, k)
    }
    b <- draw(y, u, v, p_b, q_b)
    r <- compare_sets_vec(list(a = a, b = b), y, alpha = alpha,
      metrics = metrics, size_strata = strata, times = 999
    )
    hit[i, ] <- r$lower <= target & target <= r$upper
    reject[i, ] <- r$p_value < 0.05
  }
  data.frame(
    scenario = name, metric = metrics, target = round(target, 4),
    coverage = colMeans(hit, na.rm = TRUE),
    reject_5pct = colMeans(reject, na.rm = TRUE)
  )
}

t0 <- Sys.time()
out <- rbind(
  scenario("null", c(0.9, 0.9, 0.9), 0.3, c(0.9, 0.9, 0.9), 0.3,
    paired = FALSE
  ),
  scenario("differ", c(0.97, 0.9, 0.86), 0.25, c(0.92, 0.88, 0.80), 0.35)
)
cat(sprintf("reps = %d, n = %d, B = 999, level 0.95\n", reps, n))
print(out, row.names = FALSE)
cat("seconds:", round(as.numeric(Sys.time() - t0, units = "secs")), "\n")
