# The Brier score, the scaled Brier score and the log loss
# (R/calibration-proper-scores.R), their forms and intervals.

test_that("tiny cases by hand", {
  p <- c(0.9, 0.6, 0.8, 0.3)
  y <- c(1, 0, 1, 1)
  # (0.01 + 0.36 + 0.04 + 0.49) / 4
  expect_equal(brier_score_vec(p, y), 0.9 / 4)
  # ybar = 3/4: base rate's Brier 3/16
  expect_equal(scaled_brier_score_vec(p, y), 1 - (0.9 / 4) / (3 / 16))
  expect_equal(log_loss_vec(p, y),
    -(log(0.9) + log(0.4) + log(0.8) + log(0.3)) / 4)
  # weights as repeated rows
  w <- c(2, 1, 1, 3)
  rows <- rep(1:4, w)
  for (f in list(brier_score_vec, scaled_brier_score_vec, log_loss_vec)) {
    expect_equal(f(p, y, case_weights = w), f(p[rows], y[rows]))
    # scale-free
    expect_equal(f(p, y, case_weights = w * 2^-1060), f(p, y, case_weights = w))
  }
  # a confident mistake costs about -log(1e-15), not Inf (1 - 1e-15 is
  # rounded to a double, as in scikit-learn's clipping)
  expect_equal(log_loss_vec(c(1, 0.5), c(0, 1)),
    (-log1p(-(1 - 1e-15)) - log(0.5)) / 2)
  expect_equal(log_loss_vec(c(0, 0.5), c(1, 1)), (-log(1e-15) - log(0.5)) / 2)
  # loss = is 1 - correct
  expect_equal(brier_score_vec(p, loss = 1 - y), brier_score_vec(p, y))
})

test_that("the literal definitions on random data with NA and weights", {
  set.seed(1)
  n <- 300
  p <- round(runif(n), 2)
  y <- rbinom(n, 1, p)
  w <- runif(n, 0.2, 3)
  p[c(5, 9)] <- NA
  keep <- !is.na(p)
  pk <- p[keep]
  yk <- y[keep]
  wk <- w[keep]
  expect_true(is.na(brier_score_vec(p, y)))
  expect_equal(brier_score_vec(p, y, na_rm = TRUE, case_weights = w),
    weighted.mean((pk - yk)^2, wk))
  ybar <- weighted.mean(yk, wk)
  expect_equal(scaled_brier_score_vec(p, y, na_rm = TRUE, case_weights = w),
    1 - weighted.mean((pk - yk)^2, wk) / (ybar * (1 - ybar)))
  q <- pmin(pmax(pk, 1e-15), 1 - 1e-15)
  expect_equal(log_loss_vec(p, y, na_rm = TRUE, case_weights = w),
    weighted.mean(-(yk * log(q) + (1 - yk) * log(1 - q)), wk))
})

test_that("equal to yardstick's binary log loss and Brier score", {
  skip_if_not_installed("yardstick")
  set.seed(2)
  n <- 400
  p <- runif(n, 0.01, 0.99)
  y <- rbinom(n, 1, p)
  truth <- factor(ifelse(y == 1, "yes", "no"), c("yes", "no"))
  expect_equal(log_loss_vec(p, y),
    yardstick::mn_log_loss_vec(truth, p), tolerance = 1e-12)
  # yardstick's brier_class sums over both classes' columns and halves:
  # for two classes that is the Brier score of the event
  expect_equal(brier_score_vec(p, y),
    yardstick::brier_class_vec(truth, p), tolerance = 1e-12)
})

test_that("forms: data frame, grouped, undefined values", {
  skip_if_not_installed("dplyr")
  set.seed(3)
  df <- data.frame(p = runif(60), g = rep(c("a", "b"), 30))
  df$y <- rbinom(60, 1, df$p)
  res <- log_loss(dplyr::group_by(df, g), p, y)
  expect_equal(res$.estimate, c(
    log_loss_vec(df$p[df$g == "a"], df$y[df$g == "a"]),
    log_loss_vec(df$p[df$g == "b"], df$y[df$g == "b"])
  ))
  expect_identical(res$.metric, rep("log_loss", 2))
  expect_warning(v <- scaled_brier_score_vec(c(0.5, 0.7), c(1, 1)),
    class = "aurc_warning_undefined")
  expect_true(is.na(v))
  expect_error(brier_score_vec(c(0.5, 1.5), c(1, 0)),
    class = "aurc_error_value")
  expect_error(brier_score_vec(c(0.5, 0.5), c(1, 2)),
    class = "aurc_error_value")
})

test_that("intervals: the sandwich of a mean; the bootstrap's replicates", {
  set.seed(4)
  n <- 500
  p <- runif(n, 0.5, 0.99)
  y <- rbinom(n, 1, p^1.5)
  m <- c("brier_score", "scaled_brier_score", "log_loss")
  res <- selective_ci_vec(p, correct = y, metrics = m)
  expect_equal(res$.estimate, c(brier_score_vec(p, y),
    scaled_brier_score_vec(p, y), log_loss_vec(p, y)))
  # the Brier score and the log loss: sd / sqrt(n) of the per-case scores
  expect_equal(res$.std_error[1], sd((p - y)^2) / sqrt(n))
  expect_equal(res$.std_error[3],
    sd(-(y * log(p) + (1 - y) * log(1 - p))) / sqrt(n))
  # the scaled score's delta method against a numerical derivative
  inf <- aurc:::proper_score_influence_of("scaled_brier_score")(p, 1 - y,
    NULL, list())
  w <- rep(1, n)
  w[7] <- 1 + 1e-6
  moved <- scaled_brier_score_vec(p, y, case_weights = w)
  expect_equal((moved - inf$estimate) / 1e-6 * n, inf$influence[7],
    tolerance = 1e-4)
  # bootstrap replicates: the scores of the resampled rows
  idx <- t(replicate(20, sample.int(n, n, replace = TRUE)))
  b <- selective_ci_vec(p, correct = y, metrics = m, method = "bootstrap",
    indices = idx
  )
  manual <- t(apply(idx, 1, function(i) {
    c(brier_score_vec(p[i], y[i]), scaled_brier_score_vec(p[i], y[i]),
      log_loss_vec(p[i], y[i]))
  }))
  expect_equal(unname(attr(b, "replicates")), unname(manual),
    tolerance = 1e-12)
  # paired comparison of two models
  df <- data.frame(a = p, b = pmin(0.999, p + 0.05), y = y)
  cmp <- compare_scores(df, c(a, b), correct = y, metric = "log_loss")
  la <- -(y * log(df$a) + (1 - y) * log(1 - df$a))
  lb <- -(y * log(df$b) + (1 - y) * log(1 - df$b))
  expect_equal(cmp$tests$std_error, sd(la - lb) / sqrt(n))
})

test_that("the scaled Brier score's analytic interval covers (simulation)", {
  reps <- if (identical(Sys.getenv("AURC_SLOW_TESTS"), "true")) 1000 else
    200
  set.seed(5)
  # the true value from 1e6 cases of the same model
  gen <- function(n) {
    p <- runif(n, 0.5, 0.99)
    list(p = p, y = rbinom(n, 1, p^1.5))
  }
  big <- gen(1e6)
  truth <- scaled_brier_score_vec(big$p, big$y)
  hits <- vapply(seq_len(reps), function(r) {
    d <- gen(400)
    ci <- selective_ci_vec(d$p, correct = d$y, metrics = "scaled_brier_score")
    ci$.lower <= truth && truth <= ci$.upper
  }, logical(1))
  band <- 3.5 * sqrt(0.95 * 0.05 / reps) + 0.005
  expect_lt(abs(mean(hits) - 0.95), band)
})
