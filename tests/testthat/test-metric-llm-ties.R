# prr(ties =): the group rule (default), LM-Polygraph's position rule and
# the expectation under random tie-breaking (R/metric-llm.R,
# src/core/partial.h)

test_that("hand case: the three tie rules on four outputs", {
  s <- c(2, 1, 1, 0)
  q <- c(0, 1, 0, 1) # losses 1, 0, 1, 0; mean loss 1/2
  # oracle (losses 0, 0, 1, 1): risks 0, 0, 1/3, 1/2
  a_star <- (0 + 0 + 1 / 3 + 1 / 2) / 4
  prr_of <- function(a) (1 / 2 - a) / (1 / 2 - a_star)
  # group: the tie {2, 3} at its tie-closed risk 2/3 at both positions
  a_group <- (1 + 2 / 3 + 2 / 3 + 1 / 2) / 4
  expect_equal(prr_vec(s, q), prr_of(a_group))
  expect_equal(prr_vec(s, q), -5 / 7)
  # LM-Polygraph: row 2 (loss 0) before row 3: risks 1, 1/2, 2/3, 1/2
  a_pos <- (1 + 1 / 2 + 2 / 3 + 1 / 2) / 4
  expect_equal(prr_vec(s, q, ties = "lm_polygraph"), prr_of(a_pos))
  expect_equal(prr_vec(s, q, ties = "lm_polygraph"), -4 / 7)
  # the rows of the tie the other way round: risks 1, 1, 2/3, 1/2
  s2 <- c(2, 1, 1, 0)
  q2 <- c(0, 0, 1, 1)
  expect_equal(prr_vec(s2, q2, ties = "lm_polygraph"),
    prr_of((1 + 1 + 2 / 3 + 1 / 2) / 4)
  )
  # random: the first of the tie has expected loss 1/2: (1 + 1/2) / 2
  a_rnd <- (1 + 3 / 4 + 2 / 3 + 1 / 2) / 4
  expect_equal(prr_vec(s, q, ties = "random"), prr_of(a_rnd))
  expect_equal(prr_vec(s, q, ties = "random"), -11 / 14)
  # and is the mean of the two orders
  expect_equal(prr_vec(s, q, ties = "random"),
    (prr_vec(s, q, ties = "lm_polygraph") +
      prr_vec(s2, q2, ties = "lm_polygraph")) / 2
  )
  # without ties the three agree
  s3 <- c(4, 3, 2, 1)
  expect_equal(prr_vec(s3, q, ties = "random"), prr_vec(s3, q))
  expect_equal(prr_vec(s3, q, ties = "lm_polygraph"), prr_vec(s3, q))
})

test_that("random ties are the average over every order of the rows", {
  perms <- function(v) {
    if (length(v) <= 1) return(list(v))
    out <- list()
    for (i in seq_along(v)) {
      for (p in perms(v[-i])) out[[length(out) + 1]] <- c(v[i], p)
    }
    out
  }
  s <- c(3, 2, 2, 2, 1, 1)
  q <- c(0.9, 0.2, 0.7, 1, 0, 0.5)
  all <- perms(seq_along(s))
  for (r in c(1, 0.5, 0.4, 0.9)) {
    # PRR is linear in the area: its mean over the orders is the PRR of
    # the mean area
    brute <- mean(vapply(all, function(o) {
      prr_vec(s[o], q[o], ties = "lm_polygraph", max_rejection = r)
    }, numeric(1)))
    expect_equal(prr_vec(s, q, ties = "random", max_rejection = r), brute,
      tolerance = 1e-12, info = r
    )
  }
})

# LM-Polygraph's PredictionRejectionArea and its normalisation
# (src/lm_polygraph/ue_metrics/pred_rej_area.py, __call__: np.argsort() of
# the uncertainty, cumulative mean of the min-max normalised target, the
# last floor(max_rejection * n) positions averaged; utils/manager.py:
# (value - random) / (oracle - random), the oracle the target's negative
# as the uncertainty, the random one here its expectation, the mean
# target). R's order() is stable: ties in input order.
polygraph_prr_pos <- function(uncertainty, target, r) {
  area <- function(u, t) {
    t <- (t - min(t)) / (max(t) - min(t))
    n <- length(u)
    k <- floor(r * n)
    kept <- cumsum(t[order(u)])[(n - k + 1):n]
    sum(kept / ((n - k + 1):n)) / k
  }
  rnd <- mean((target - min(target)) / (max(target) - min(target)))
  (area(uncertainty, target) - rnd) / (area(-target, target) - rnd)
}

test_that("ties = 'lm_polygraph' equals LM-Polygraph's PRR with ties", {
  set.seed(7)
  for (n in c(10, 40, 200)) {
    conf <- round(stats::runif(n), 1) # a verbalised confidence: ties
    rouge <- round(pmin(1, pmax(0, 0.2 + 0.6 * conf +
      stats::rnorm(n, sd = 0.25))), 2)
    for (r in c(1, 0.5, 0.2)) {
      expect_equal(prr_vec(conf, rouge, ties = "lm_polygraph",
        max_rejection = r), polygraph_prr_pos(-conf, rouge, r),
      tolerance = 1e-12, info = paste(n, r)
      )
    }
  }
})

test_that("on tied scores the rules differ by a lot", {
  # a confidence of five levels; rows stored with the better answers first
  # (a file sorted by score, as a benchmark's output often is)
  set.seed(3)
  n <- 400
  level <- sample(1:5, n, replace = TRUE)
  rouge <- pmin(1, pmax(0, 0.1 * level + stats::rnorm(n, sd = 0.3)))
  o <- order(-rouge)
  level <- level[o]
  rouge <- rouge[o]
  grp <- prr_vec(level, rouge)
  pos <- prr_vec(level, rouge, ties = "lm_polygraph")
  rnd <- prr_vec(level, rouge, ties = "random")
  # (0.329, 0.665 and 0.383)
  expect_gt(pos - grp, 0.3)
  expect_gt(rnd - grp, 0.03)
  # reversing the rows moves LM-Polygraph's value (to 0.095), not the
  # others; the random rule lies between the two orders
  rev_pos <- prr_vec(rev(level), rev(rouge), ties = "lm_polygraph")
  expect_lt(rev_pos, grp - 0.2)
  expect_true(rev_pos < rnd && rnd < pos)
  expect_equal(prr_vec(rev(level), rev(rouge)), grp)
  expect_equal(prr_vec(rev(level), rev(rouge), ties = "random"), rnd)
})

test_that("tie rules with case weights are the expanded rows", {
  s <- c(3, 2, 2, 2, 1, 1)
  q <- c(0.9, 0.2, 0.7, 1, 0, 0.5)
  w <- c(2, 1, 3, 1, 2, 1)
  rows <- rep(seq_along(s), w)
  for (ties in c("group", "random", "lm_polygraph")) {
    for (r in c(1, 0.5)) {
      expect_equal(
        prr_vec(s, q, case_weights = w, ties = ties, max_rejection = r),
        prr_vec(s[rows], q[rows], ties = ties, max_rejection = r),
        tolerance = 1e-12, info = paste(ties, r)
      )
    }
  }
})

test_that("ties: the data-frame form, labels, checks, large groups", {
  d <- data.frame(s = c(2, 1, 1, 0), q = c(0, 1, 0, 1))
  res <- prr(d, s, q, ties = "random")
  expect_equal(res$.estimate, -11 / 14)
  expect_equal(res$.estimator, "max_rejection=1/ties=random")
  expect_equal(prr(d, s, q)$.estimator, "max_rejection=1")
  expect_error(prr_vec(d$s, d$q, ties = "first"),
    class = "aurc_error_value"
  )
  expect_error(prr_vec(d$s, d$q, ties = NA), class = "aurc_error_value")
  # large groups take the closed form of the unit rule
  set.seed(2)
  n <- 500
  s <- sample(1:3, n, replace = TRUE)
  q <- stats::runif(n)
  lit <- function(s, q) { # the literal expectation, position by position
    o <- order(-s)
    l <- 1 - q[o]
    ss <- s[o]
    risk <- numeric(n)
    for (k in seq_len(n)) {
      g <- ss == ss[k]
      before <- sum(ss > ss[k])
      j <- k - before
      risk[k] <- (sum(l[ss > ss[k]]) + j * mean(l[g])) / k
    }
    m <- mean(l)
    oracle <- cumsum(sort(l)) / seq_len(n)
    (m - mean(risk)) / (m - mean(oracle))
  }
  expect_equal(prr_vec(s, q, ties = "random"), lit(s, q), tolerance = 1e-10)
})

test_that("ties in selective_metrics() and bootstrap_ranking()", {
  set.seed(6)
  n <- 60
  d <- data.frame(
    a = sample(1:4, n, replace = TRUE), b = round(stats::runif(n), 1),
    q = stats::runif(n, 0.3, 1)
  )
  res <- selective_metrics(d, a, 1 - q, metrics = list(
    pos = metric_with("prr", ties = "lm_polygraph"),
    rnd = metric_with("prr", ties = "random")
  ))
  expect_equal(res$.estimate[res$.metric == "pos"],
    prr_vec(d$a, d$q, ties = "lm_polygraph"))
  expect_equal(res$.estimate[res$.metric == "rnd"],
    prr_vec(d$a, d$q, ties = "random"))
  long <- data.frame(
    method = rep(c("a", "b"), each = n), case = rep(seq_len(n), 2),
    score = c(d$a, d$b), loss = rep(1 - d$q, 2)
  )
  expect_error(
    bootstrap_ranking(long, method, case, score, loss,
      metrics = list(metric_with("prr", ties = "lm_polygraph")),
      times = 10
    ),
    class = "aurc_error_value"
  )
})
