all_estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")

# a test set whose errors concentrate at low scores, ties included
simulated_test_set <- function(n, grid = 0) {
  score <- stats::rnorm(n)
  if (grid > 0) score <- round(score / grid) * grid
  failure <- stats::rbinom(n, 1, stats::plogis(-1 - 1.5 * score))
  list(score = score, failure = failure)
}

test_that("every batch estimate is aurc_vec() on that batch", {
  set.seed(1)
  d <- simulated_test_set(103, grid = 0.5)
  d$loss <- d$failure + stats::rexp(103) # continuous loss too
  set.seed(99)
  study <- aurc_batch_study(d$score, d$loss,
    batch_sizes = c(10, 4, 103), estimators = all_estimators, times = 2
  )
  # the documented draws: for each repetition, each batch size in increasing
  # order, one sample.int(n)
  set.seed(99)
  expected <- list()
  for (rep in 1:2) {
    for (b in c(4, 10, 103)) {
      perm <- sample.int(103)
      for (batch in seq_len(103 %/% b)) {
        idx <- perm[(batch - 1) * b + seq_len(b)]
        for (est in all_estimators) {
          expected[[length(expected) + 1]] <- data.frame(
            batch_size = b, rep = rep, batch = batch, estimator = est,
            estimate = literal_aurc(d$score[idx], d$loss[idx],
              estimator = est
            )
          )
        }
      }
    }
  }
  expected <- do.call(rbind, expected)
  expect_equal(nrow(study$estimates), nrow(expected))
  expect_equal(study$estimates$batch_size, as.integer(expected$batch_size))
  expect_equal(study$estimates$rep, expected$rep)
  expect_equal(study$estimates$batch, expected$batch)
  expect_equal(study$estimates$estimator, expected$estimator)
  expect_equal(study$estimates$estimate, expected$estimate, tolerance = 1e-12)
  # the population value is the full-set alpha AURC
  expect_equal(study$population, literal_aurc(d$score, d$loss,
    estimator = "alpha"
  ), tolerance = 1e-12)
})

test_that("the summary is computed from the estimates", {
  set.seed(2)
  d <- simulated_test_set(500)
  study <- aurc_batch_study(d$score, d$failure,
    batch_sizes = c(8, 50, 500), times = 3
  )
  p <- aurc_vec(d$score, d$failure)
  s <- study$summary
  expect_s3_class(s, "tbl_df")
  expect_named(s, c("batch_size", "estimator", "mean", "sd", "bias", "mse",
                    "mae"))
  expect_equal(s$batch_size, rep(c(8L, 50L, 500L), each = 4))
  expect_equal(s$estimator, rep(c("alpha", "alpha_prime", "sele", "2sele"), 3))
  for (i in seq_len(nrow(s))) {
    e <- study$estimates
    x <- e$estimate[e$batch_size == s$batch_size[i] &
      e$estimator == s$estimator[i]]
    expect_equal(s$mean[i], mean(x))
    expect_equal(s$sd[i], stats::sd(x))
    expect_equal(s$bias[i], mean(x) - p)
    expect_equal(s$mse[i], mean((x - p)^2))
    expect_equal(s$mae[i], mean(abs(x - p)))
  }
  # one batch of the whole set: alpha is the population value exactly
  full <- s[s$batch_size == 500 & s$estimator == "alpha", ]
  expect_equal(full$bias, 0)
  expect_equal(full$mse, 0)
  expect_equal(nrow(study$estimates), 3 * 4 * (62 + 10 + 1))
  expect_named(study$estimates,
               c("batch_size", "rep", "batch", "estimator", "estimate"))
  one <- aurc_batch_study(d$score, d$failure, batch_sizes = 500)
  expect_true(all(is.na(one$summary$sd)))
})

test_that("reproducible with set.seed()", {
  d <- withr::with_seed(3, simulated_test_set(300))
  a <- withr::with_seed(10, aurc_batch_study(d$score, d$failure,
    batch_sizes = c(8, 16)
  ))
  b <- withr::with_seed(10, aurc_batch_study(d$score, d$failure,
    batch_sizes = c(8, 16)
  ))
  c <- withr::with_seed(11, aurc_batch_study(d$score, d$failure,
    batch_sizes = c(8, 16)
  ))
  expect_identical(a, b)
  expect_false(identical(a$estimates$estimate, c$estimates$estimate))
})

test_that("the paper's claims: plug-in MSE falls, SELE does not converge", {
  set.seed(4)
  d <- simulated_test_set(2^14)
  study <- aurc_batch_study(d$score, d$failure)
  s <- study$summary
  get <- function(est, col) s[[col]][s$estimator == est]
  for (est in c("alpha", "alpha_prime")) {
    mse <- get(est, "mse")
    expect_lt(mse[8], mse[1] / 20) # b = 1024 against b = 8
    expect_true(all(diff(mse) < 0))
    expect_lt(abs(get(est, "bias")[8]), 0.01)
  }
  # SELE: biased downwards at every size, its MSE levels off
  sele <- get("sele", "mse")
  expect_true(all(get("sele", "bias")[4:8] < -0.02))
  expect_gt(sele[8], sele[4] / 2) # b = 1024 against b = 64
  expect_gt(sele[8], 5 * get("alpha", "mse")[8])
  # 2 x SELE overestimates
  expect_true(all(get("2sele", "bias") > 0))
  # without ties alpha_prime never exceeds alpha on any batch (Eq. 20)
  e <- study$estimates
  expect_true(all(
    e$estimate[e$estimator == "alpha_prime"] <=
      e$estimate[e$estimator == "alpha"] + 1e-15
  ))
})

test_that("missing values: an error, or dropped with na_rm = TRUE", {
  d <- withr::with_seed(5, simulated_test_set(200))
  s <- d$score
  l <- d$failure
  s[3] <- NA
  l[7] <- NA
  keep <- !is.na(s) & !is.na(l)
  a <- withr::with_seed(1, aurc_batch_study(s, l,
    batch_sizes = 8, na_rm = TRUE
  ))
  b <- withr::with_seed(1, aurc_batch_study(s[keep], l[keep],
    batch_sizes = 8
  ))
  expect_identical(a, b)
  expect_equal(a$n, 198)
  expect_error(aurc_batch_study(s, l), class = "aurc_error_missing")
})

test_that("print states the settings", {
  d <- withr::with_seed(6, simulated_test_set(100))
  study <- withr::with_seed(1, aurc_batch_study(d$score, d$failure,
    batch_sizes = c(10, 50), estimators = c("alpha", "sele")
  ))
  expect_snapshot(print(study))
})

test_that("bad input gives classed errors", {
  s <- c(0.1, 0.5, 0.9, 0.2)
  l <- c(1, 0, 0, 1)
  expect_error(aurc_batch_study(s, l, batch_sizes = 5),
    class = "aurc_error_value"
  )
  expect_snapshot(error = TRUE, {
    aurc_batch_study(s, l)
    aurc_batch_study(s, l, batch_sizes = c(2, 2))
    aurc_batch_study(s, l, batch_sizes = 0)
    aurc_batch_study(s, l, batch_sizes = numeric())
    aurc_batch_study(s, l, batch_sizes = 2, times = 0)
    aurc_batch_study(s, l, batch_sizes = 2, times = c(1, 2))
    aurc_batch_study(s, l, batch_sizes = 2, estimators = "auc")
    aurc_batch_study(s, l, 2)
    aurc_batch_study(s, c(1, 0, -1, 0), batch_sizes = 2)
    aurc_batch_study(s, l[-1], batch_sizes = 2)
    aurc_batch_study(c(s, NA), c(l, 1), batch_sizes = 2)
  })
})
