# Conformal risk control in certify_threshold(method = "crc") (issue 35):
# the smallest threshold lambda with
#   n / (n + 1) R_n(lambda) + B / (n + 1) <= alpha,
# R_n(lambda) = mean(loss * (score >= lambda)), i.e. S(lambda) + B <=
# alpha (n + 1) with S the sum of the accepted losses.

test_that("CRC by hand: ties enter together, B = 1 and B = 2", {
  # n = 9, B = 1, alpha = 0.3: S + 1 <= 3. Candidates 0.9, 0.8 (two
  # cases), 0.7, 0.5, 0.4 have S = 0, 0.5, 1.5, 1.5, 2.5: lambda = 0.5
  score <- c(0.9, 0.8, 0.8, 0.7, 0.5, 0.4, 0.3, 0.2, 0.1)
  loss <- c(0, 0.5, 0, 1, 0, 1, 0, 0.5, 1)
  res <- certify_threshold(score, loss, 0.3, method = "crc")
  expect_s3_class(res, "aurc_certificate")
  expect_equal(res$threshold, 0.5)
  expect_equal(res$n_accepted, 5)
  expect_equal(res$coverage, 5 / 9)
  expect_equal(res$failures, 1.5)
  expect_equal(res$risk, 1.5 / 5)
  expect_equal(res$joint_risk, 1.5 / 9)
  expect_equal(res$adjusted_risk, 2.5 / 10)
  expect_equal(res$loss_bound, 1)
  expect_equal(res$target_risk, 0.3)
  cand <- attr(res, "candidates")
  expect_equal(cand$threshold, sort(unique(score), decreasing = TRUE))
  expect_equal(cand$n_accepted, c(1, 3, 4, 5, 6, 7, 8, 9))
  expect_equal(cand$failures, c(0, 0.5, 1.5, 1.5, 2.5, 2.5, 3, 4))
  expect_equal(cand$adjusted_risk, (cand$failures + 1) / 10)
  expect_equal(cand$controlled, rep(c(TRUE, FALSE), c(4, 4)))

  # n = 7, B = 2, alpha = 0.5: S + 2 <= 4. The tie at 0.5 has losses 0.5
  # and 1: entered one by one, 0.5 would pass (S = 1.5); together S = 2.5
  score <- c(0.9, 0.8, 0.8, 0.7, 0.5, 0.5, 0.3)
  loss <- c(0, 1, 0, 0, 0.5, 1, 0)
  d <- data.frame(score, loss)
  res <- certify_threshold(d, score, loss, 0.5, method = "crc",
    loss_bound = 2
  )
  expect_equal(res$threshold, 0.7)
  expect_equal(res$n_accepted, 4)
  expect_equal(res$joint_risk, 1 / 7)
  expect_equal(res$adjusted_risk, 3 / 8)
  expect_equal(res$loss_bound, 2)
  expect_equal(attr(res, "candidates")$controlled,
    c(TRUE, TRUE, TRUE, FALSE, FALSE)
  )
  # alpha = 0.75: S + 2 <= 6, every candidate passes: the lowest score
  res <- certify_threshold(d, score, loss, 0.75, method = "crc",
    loss_bound = 2
  )
  expect_equal(res$threshold, 0.3)
  expect_equal(res$coverage, 1)
  expect_equal(res$adjusted_risk, 4.5 / 8)
  # a grid fixed in advance: 0.85, 0.6, 0.35 accept 1, 4, 6 cases with
  # S = 0, 1, 2.5: lambda = 0.6
  res <- certify_threshold(d, score, loss, 0.5, method = "crc",
    loss_bound = 2, thresholds = c(0.35, 0.85, 0.6)
  )
  expect_equal(attr(res, "candidates")$threshold, c(0.85, 0.6, 0.35))
  expect_equal(attr(res, "candidates")$n_accepted, c(1, 4, 6))
  expect_equal(res$threshold, 0.6)
  expect_equal(res$n_accepted, 4)
  # a logical loss is a 0/1 loss
  expect_equal(
    certify_threshold(d, score, loss > 0.7, 0.4, method = "crc"),
    certify_threshold(d, score, as.numeric(loss > 0.7), 0.4, method = "crc")
  )
})

test_that("CRC: no threshold passes -> Inf (abstain on everything)", {
  # B / (n + 1) = 2 / 8 > alpha = 0.2: even accepting nothing fails
  score <- c(0.9, 0.8, 0.8, 0.7, 0.5, 0.5, 0.3)
  loss <- c(0, 1, 0, 0, 0.5, 1, 0)
  expect_warning(
    res <- certify_threshold(score, loss, 0.2, method = "crc",
      loss_bound = 2
    ),
    class = "aurc_warning_not_certified"
  )
  expect_equal(res$threshold, Inf)
  expect_equal(res$coverage, 0)
  expect_equal(res$n_accepted, 0)
  expect_equal(res$joint_risk, 0)
  expect_equal(res$adjusted_risk, 2 / 8)
  expect_true(is.na(res$risk))
  w <- tryCatch(
    certify_threshold(score, loss, 0.2, method = "crc", loss_bound = 2),
    warning = identity
  )
  expect_match(conditionMessage(w), "at least 9")
  # feasible n, but the most confident case already costs too much:
  # S(0.9) + 1 = 2 > 0.6 * 3
  expect_warning(
    res <- certify_threshold(c(0.9, 0.5), c(1, 0), 0.6, method = "crc"),
    class = "aurc_warning_not_certified"
  )
  expect_equal(res$threshold, Inf)
})

# Plain R: every candidate threshold in turn.
crc_literal <- function(score, loss, alpha, B = 1, grid = NULL) {
  n <- length(score)
  cand <- sort(unique(if (is.null(grid)) score else grid))
  for (lambda in cand) {
    r <- mean(loss * (score >= lambda))
    if (n / (n + 1) * r + B / (n + 1) <= alpha) return(lambda)
  }
  Inf
}

test_that("CRC equals a loop over every candidate threshold", {
  set.seed(351)
  for (rep in 1:60) {
    n <- sample(c(5, 30, 200, 1000), 1)
    B <- sample(c(1, 2.5), 1)
    # ties: scores on a coarse grid half of the time
    score <- runif(n)
    if (rep %% 2 == 0) score <- round(score, sample(1:2, 1))
    loss <- if (rep %% 3 == 0) {
      B * rbinom(n, 1, 0.5 * (1 - score))
    } else {
      B * runif(n) * (1 - score)
    }
    alpha <- runif(1, 0.02, 0.4) * B
    grid <- if (rep %% 5 == 0) seq(1, 0, by = -0.05)
    got <- suppressWarnings(certify_threshold(score, loss, alpha,
      method = "crc", loss_bound = B, thresholds = grid
    ))
    ref <- crc_literal(score, loss, alpha, B, grid)
    expect_equal(got$threshold, ref, info = paste("rep", rep))
    acc <- score >= ref
    expect_equal(got$n_accepted, sum(acc))
    expect_equal(got$joint_risk, sum(loss[acc]) / n, tolerance = 1e-12)
    if (is.finite(ref)) expect_lte(got$adjusted_risk, alpha)
  }
})

# Simulation model: score ~ U(0, 1) and a loss with mean c (1 - s)^2 given
# the score (Bernoulli, B = 1; or B U with U uniform on [0, 2 c (1 - s)^2 /
# B], B = 2). The expected joint risk of a threshold lambda in [0, 1] is
# J(lambda) = c (1 - lambda)^3 / 3, and 0 at Inf.
crc_joint_risk <- function(lambda, c) {
  ifelse(is.finite(lambda), c * (1 - pmin(pmax(lambda, 0), 1))^3 / 3, 0)
}

crc_sim <- function(reps, n = 200, alpha = 0.05, c = 0.4, B = 1,
                    seed = 1) {
  set.seed(seed)
  vapply(seq_len(reps), function(r) {
    s <- runif(n)
    g <- c * (1 - s)^2
    loss <- if (B == 1) rbinom(n, 1, g) else runif(n, 0, 2 * g)
    res <- suppressWarnings(certify_threshold(s, loss, alpha,
      method = "crc", loss_bound = B
    ))
    crc_joint_risk(res$threshold, c)
  }, numeric(1))
}

# The mean risk is at most alpha: the one-sided 3-standard-error slack; and
# (Theorem 2 of the paper, for losses without ties) at least alpha - 2 B /
# (n + 1), so a method much too careful would show.
expect_crc_mean <- function(risk, alpha, n, B) {
  se <- stats::sd(risk) / sqrt(length(risk))
  expect_lte(mean(risk), alpha + 3 * se)
  expect_gte(mean(risk), alpha - 2 * B / (n + 1) - 3 * se)
}

test_that("CRC: the mean joint risk over calibration sets is <= alpha", {
  skip_on_cran()
  risk <- crc_sim(2000, seed = 352)
  expect_crc_mean(risk, 0.05, 200, 1)
  # it is a guarantee in expectation only: a single calibration set
  # often gives a risk above alpha
  expect_gt(mean(risk > 0.05), 0.2)
  risk <- crc_sim(1000, alpha = 0.1, B = 2, seed = 353)
  expect_crc_mean(risk, 0.1, 200, 2)
})

test_that("CRC validity, long simulation", {
  skip_if_not_slow()
  for (cfg in list(
    list(alpha = 0.05, B = 1, n = 200), list(alpha = 0.1, B = 2, n = 200),
    list(alpha = 0.02, B = 1, n = 1000)
  )) {
    risk <- crc_sim(10000, n = cfg$n, alpha = cfg$alpha, B = cfg$B,
      seed = 354
    )
    expect_crc_mean(risk, cfg$alpha, cfg$n, cfg$B)
  }
})

test_that("CRC arguments: classed errors and warnings", {
  s <- c(0.9, 0.8, 0.7, 0.6)
  l <- c(0, 1, 0.5, 0)
  # delta and the LTT options do not apply
  expect_warning(
    res <- certify_threshold(s, l, 0.4, delta = 0.1, method = "crc"),
    class = "aurc_warning_ignored"
  )
  expect_equal(res, certify_threshold(s, l, 0.4, method = "crc"))
  expect_false("delta" %in% names(res))
  expect_warning(certify_threshold(s, l, 0.4, method = "crc", fwer = "holm"),
    class = "aurc_warning_ignored"
  )
  expect_warning(
    certify_threshold(s, l, 0.4, method = "crc", max_abstention = 0.5),
    class = "aurc_warning_ignored"
  )
  # a grid is used, not ignored
  expect_no_warning(certify_threshold(s, l, 0.4, method = "crc",
    thresholds = c(0.85, 0.65)
  ))
  # loss_bound with another method is ignored
  expect_warning(certify_threshold(s, c(0, 0, 0, 0), 0.9, delta = 0.5,
    loss_bound = 2
  ),
    class = "aurc_warning_ignored"
  )
  # the loss must be in [0, loss_bound]
  expect_error(certify_threshold(s, c(0, 1.5, 0, 0), 0.4, method = "crc"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(s, c(0, -0.1, 0, 0), 0.4, method = "crc",
    loss_bound = 2
  ), class = "aurc_error_value")
  expect_no_error(certify_threshold(s, c(0, 1.5, 0, 0), 1, method = "crc",
    loss_bound = 2
  ))
  for (bad in list(0, -1, Inf, NA, "1", c(1, 2))) {
    expect_error(certify_threshold(s, l, 0.4, method = "crc",
      loss_bound = bad
    ), class = "aurc_error_value")
  }
  # alpha in (0, B)
  expect_error(certify_threshold(s, l, 1, method = "crc"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(s, l, 2.5, method = "crc", loss_bound = 2),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(c(s, NA), c(l, 0), 0.4, method = "crc"),
    class = "aurc_error_missing"
  )
  expect_equal(
    certify_threshold(c(s, NA), c(l, 0), 0.4, method = "crc", na_rm = TRUE),
    certify_threshold(s, l, 0.4, method = "crc")
  )
  expect_error(certify_threshold(s, l[-1], 0.4, method = "crc"),
    class = "aurc_error_length"
  )
})

test_that("CRC's print says the guarantee is in expectation", {
  res <- certify_threshold(c(0.9, 0.8, 0.7, 0.6), c(0, 2, 1, 0), 0.9,
    method = "crc", loss_bound = 2
  )
  expect_output(print(res), "Conformal risk control")
  expect_output(print(res), "loss in \\[0, 2\\]")
  expect_output(print(res),
    "E\\[loss x 1\\(score >= threshold\\)\\] <= 0.9", fixed = FALSE
  )
  expect_output(print(res), "not with probability 1 - delta")
  expect_identical(class(tibble::as_tibble(res)),
    c("tbl_df", "tbl", "data.frame")
  )
  expect_identical(class(as.data.frame(res)), "data.frame")
})
