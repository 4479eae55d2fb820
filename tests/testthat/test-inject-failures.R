test_that("hand-computed: the least confident correct predictions fail", {
  score <- c(0.9, 0.2, 0.5, 0.3, 0.8, 0.1)
  failure <- c(0, 0, 1, 0, 0, 1)
  # correct: 0.9, 0.2, 0.3, 0.8 -> lowest two are 0.2 (row 2), 0.3 (row 4)
  expect_equal(inject_failures(score, failure, 2), c(0, 1, 1, 1, 0, 1))
  expect_equal(inject_failures(score, failure, 0), failure)
  expect_equal(inject_failures(score, failure, 4), rep(1, 6))
})

test_that("ties: the first in input order; types and missing values", {
  score <- c(0.5, 0.4, 0.4, 0.4, 0.9, NA)
  failure <- c(0L, 0L, 1L, 0L, 0L, 0L)
  # correct with a score: rows 1, 2, 4, 5; lowest 0.4 at rows 2 and 4
  expect_identical(
    inject_failures(score, failure, 1),
    c(0L, 1L, 1L, 0L, 0L, 0L)
  )
  expect_identical(
    inject_failures(score, failure, 2),
    c(0L, 1L, 1L, 1L, 0L, 0L)
  )
  lg <- inject_failures(score, failure == 1, 1)
  expect_identical(lg, c(FALSE, TRUE, TRUE, FALSE, FALSE, FALSE))
  # the NA-score row is never chosen
  expect_identical(
    inject_failures(score, failure, 4),
    c(1L, 1L, 1L, 1L, 1L, 0L)
  )
  expect_snapshot(error = TRUE, inject_failures(score, failure, 5))
  expect_snapshot(error = TRUE, inject_failures(score, failure, -1))
  expect_snapshot(error = TRUE, inject_failures(score, failure, 1.5))
  expect_snapshot(error = TRUE, inject_failures(score, c(0, 2, 0, 0, 0, 0), 1))
  expect_snapshot(error = TRUE, inject_failures(score, failure[-1], 1))
  expect_snapshot(error = TRUE, inject_failures("a", 0, 1))
})

# Failure AUROC and AUPR, literal definitions (DEFINITIONS Sec. 4), local to this
# worked example until the package's own functions are merged.
local_auroc_f <- function(s, f) {
  ok <- s[f == 0]
  bad <- s[f == 1]
  mean(outer(ok, bad, ">") + 0.5 * outer(ok, bad, "=="))
}

# average precision, failures positive, ranked by -score, ties grouped
local_aupr_f <- function(s, f) {
  thr <- sort(unique(s))
  tp <- vapply(thr, function(t) sum(f[s <= t]), numeric(1))
  flagged <- vapply(thr, function(t) sum(s <= t), numeric(1))
  recall <- tp / sum(f)
  sum(diff(c(0, recall)) * tp / flagged)
}

test_that("Ding et al. Table 1 pattern on real model outputs", {
  # logistic regression on the Pima Indians diabetes data (MASS), maximum
  # class probability as the confidence score, 332 test samples
  fit <- stats::glm(type ~ ., data = MASS::Pima.tr, family = stats::binomial)
  p <- stats::predict(fit, MASS::Pima.te, type = "response")
  score <- pmax(p, 1 - p)
  failure <- as.integer((p > 0.5) != (MASS::Pima.te$type == "Yes"))
  ms <- c(0, 5, 10, 20, 40)
  res <- t(vapply(ms, function(m) {
    f <- inject_failures(score, failure, m)
    c(
      accuracy = 1 - mean(f), auroc_f = local_auroc_f(score, f),
      aupr_f = local_aupr_f(score, f), aurc = aurc_vec(score, f)
    )
  }, numeric(4)))
  # m more wrong predictions: accuracy drops by m / 332
  expect_equal(res[, "accuracy"], res[1, "accuracy"] - ms / 332)
  # AUROC_f and AUPR_f "improve" with m (Ding et al. Table 1) ...
  expect_true(all(diff(res[, "auroc_f"]) > 0))
  expect_true(all(diff(res[, "aupr_f"]) > 0))
  # ... while the AURC correctly gets worse
  expect_true(all(diff(res[, "aurc"]) > 0))
  # the same model at every threshold is at least as good with smaller m
  f40 <- inject_failures(score, failure, 40)
  expect_true(all(f40 >= failure))
})
