# Balanced-accuracy AURC and AUGRC (R/metric-balanced.R)

test_that("hand case", {
  # descending scores; classes a a b b; failures 0 1 1 0
  score <- c(4, 3, 2, 1)
  failure <- c(0, 1, 1, 0)
  truth <- c("a", "a", "b", "b")
  # R_BA at coverage 1/4: (0/1 + 0) / 2 = 0; 2/4: (1/2) / 2 = 1/4;
  # 3/4: (1/2 + 1/1) / 2 = 3/4; 1: (1/2 + 1/2) / 2 = 1/2
  r <- c(0, 1 / 4, 3 / 4, 1 / 2)
  want <- 1 / 4 * r[1] + 1 / 4 * ((r[1] + r[2]) + (r[2] + r[3]) +
    (r[3] + r[4])) / 2
  expect_equal(aurc_ba_vec(score, failure, truth), want)
  # equal class counts: the AUGRC itself
  expect_equal(augrc_ba_vec(score, failure, truth), augrc_vec(score, failure))
  # one class: the trapezoid AURC
  expect_equal(aurc_ba_vec(score, failure, rep("a", 4)),
    aurc_vec(score, failure, estimator = "trapezoid"))
  # a rare class counts as much as a common one: failures reweighted
  t2 <- c("a", "a", "a", "b")
  scaled <- failure * 4 / (2 * c(3, 3, 3, 1))
  expect_equal(augrc_ba_vec(score, failure, t2), augrc_vec(score, scaled))
})

# fd-shifts' definition written out: at every distinct threshold the mean
# over all classes of the accepted failures / accepted count (0 for a class
# with nothing accepted), trapezoid over coverage, flat to 0.
literal_aurc_ba <- function(s, f, y, w) {
  th <- sort(unique(s), decreasing = TRUE)
  cl <- unique(y)
  risk <- vapply(th, function(t) {
    mean(vapply(cl, function(k) {
      a <- sum(w[s >= t & y == k])
      if (a > 0) sum((w * f)[s >= t & y == k]) / a else 0
    }, numeric(1)))
  }, numeric(1))
  cov <- vapply(th, function(t) sum(w[s >= t]), numeric(1)) / sum(w)
  x <- c(0, cov)
  yy <- c(risk[1], risk)
  sum(diff(x) * (yy[-1] + yy[-length(yy)]) / 2)
}

test_that("the balanced metrics follow fd-shifts' definitions", {
  set.seed(51)
  for (rep in 1:6) {
    n <- 80
    y <- sample(c("a", "b", "c"), n, replace = TRUE, prob = c(0.6, 0.3, 0.1))
    s <- round(stats::runif(n), 1 + rep %% 2)
    f <- stats::rbinom(n, 1, 0.3)
    w <- if (rep > 3) stats::runif(n, 0.2, 2) else rep(1, n)
    expect_equal(aurc_ba_vec(s, f, y, case_weights = w),
      literal_aurc_ba(s, f, y, w), tolerance = 1e-12)
    n_c <- as.vector(tapply(w, y, sum)[y])
    expect_equal(augrc_ba_vec(s, f, y, case_weights = w),
      augrc_vec(s, f * sum(w) / (3 * n_c), case_weights = w),
      tolerance = 1e-12)
    wi <- stats::rpois(n, 1.5)
    rows <- rep(seq_len(n), wi)
    expect_equal(aurc_ba_vec(s, f, y, case_weights = wi),
      aurc_ba_vec(s[rows], f[rows], y[rows]), tolerance = 1e-12)
    expect_equal(augrc_ba_vec(s, f, y, case_weights = wi),
      augrc_ba_vec(s[rows], f[rows], y[rows]), tolerance = 1e-12)
  }
})

test_that("groups, NA and bad input", {
  set.seed(52)
  df <- data.frame(s = stats::runif(60), f = stats::rbinom(60, 1, 0.3),
    y = rep(c("a", "b", "b"), 20), g = rep(1:2, each = 30))
  res <- aurc_ba(df, s, f, y)
  expect_identical(res$.metric, "aurc_ba")
  expect_identical(res$.estimator, "balanced")
  expect_equal(res$.estimate, aurc_ba_vec(df$s, df$f, df$y))
  skip_if_not_installed("dplyr")
  g <- augrc_ba(dplyr::group_by(df, g), s, f, y)
  expect_equal(g$.estimate, unname(vapply(split(df, df$g), function(x) {
    augrc_ba_vec(x$s, x$f, x$y)
  }, numeric(1))))
  y <- df$y
  y[3] <- NA
  expect_identical(aurc_ba_vec(df$s, df$f, y), NA_real_)
  expect_equal(aurc_ba_vec(df$s, df$f, y, na_rm = TRUE),
    aurc_ba_vec(df$s[-3], df$f[-3], df$y[-3]))
  expect_error(aurc_ba_vec(df$s, df$f, df$y[-1]), class = "aurc_error")
  expect_error(aurc_ba_vec(df$s, df$f + 0.5, df$y), class = "aurc_error_value")
  expect_error(aurc_ba_vec(df$s, df$f, list(1)), class = "aurc_error_type")
  expect_error(augrc_ba_vec(df$s, df$f, df$y, 1), class = "aurc_error_dots")
})

test_that("the balanced metrics run the input checks of every metric", {
  # (an uncertainty given as the score was silent here, issue 33, while
  # aurc_vec() warned on the same data)
  set.seed(33)
  n <- 400
  y <- sample(c("a", "b", "c"), n, replace = TRUE)
  confidence <- stats::runif(n)
  failure <- stats::rbinom(n, 1, 1 - confidence)
  uncertainty <- 1 - confidence
  expect_warning(aurc_vec(uncertainty, failure),
                 class = "aurc_warning_direction")
  expect_warning(aurc_ba_vec(uncertainty, failure, y),
                 class = "aurc_warning_direction")
  expect_warning(augrc_ba_vec(uncertainty, failure, y),
                 class = "aurc_warning_direction")
  d <- data.frame(u = uncertainty, f = failure, y = y)
  expect_warning(aurc_ba(d, u, f, y), class = "aurc_warning_direction")
  # the right direction is quiet, and the value is unchanged by the check
  expect_no_warning(v <- aurc_ba_vec(confidence, failure, y))
  expect_equal(v, suppressWarnings(aurc_ba_vec(confidence, failure, y)))
  # swapped arguments: a confidence is no failure (a classed error)
  expect_error(aurc_ba_vec(failure, confidence, y), class = "aurc_error_value")
})
