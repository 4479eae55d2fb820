# The one sort on several threads (options(aurc.threads), issue 15): the
# same values as on one thread, for inputs large enough to take the
# multi-threaded path (2^16 values or more), and against independent
# computations.

test_that("two sort threads give the one-thread values", {
  set.seed(15)
  n <- 2^17 + 11
  score <- c(stats::runif(n - 2e4), round(stats::rnorm(2e4), 1), -0, 0)
  loss <- stats::rbinom(length(score), 1, 0.3)
  w <- stats::rpois(length(score), 1)
  values <- function(threads) {
    withr::local_options(aurc.threads = threads)
    list(
      aurc_vec(score, loss),
      aurc_vec(score, loss, case_weights = w),
      augrc_vec(score, loss, case_weights = w),
      selective_metrics_vec(score, loss),
      ece_vec(pmin(pmax(score, 0), 1), 1 - loss, binning = "equal_mass"),
      rc_curve(data.frame(s = score, l = loss), s, l)
    )
  }
  one <- values(NULL)
  two <- values(2)
  expect_identical(two, one)
})

test_that("the threaded sort agrees with order() and the literal AURC", {
  set.seed(16)
  n <- 2^16 + 5
  score <- round(stats::rnorm(n), 2)
  loss <- stats::runif(n)
  # the trapezoid-free alpha estimator by its literal definition (DEFINITIONS
  # Sec. 2): the mean over thresholds of the selective risk, tie groups
  # accepted together
  o <- order(-score)
  s <- score[o]
  l <- loss[o]
  last <- c(which(diff(s) != 0), n)
  acc <- last
  risk <- cumsum(l)[last] / acc
  size <- diff(c(0, last))
  literal <- sum(size * risk) / n
  for (threads in list(NULL, 2)) {
    withr::local_options(aurc.threads = threads)
    expect_equal(aurc_vec(score, loss), literal, tolerance = 1e-12)
    curve <- rc_curve(data.frame(s = score, l = loss), s, l)
    expect_equal(curve$threshold, rev(sort(unique(score))))
  }
})

test_that("integer and logical losses give the values of double losses", {
  set.seed(17)
  score <- stats::runif(1000)
  loss <- stats::rbinom(1000, 1, 0.4)
  expect_identical(aurc_vec(score, loss), aurc_vec(score, as.double(loss)))
  expect_identical(
    augrc_vec(score, as.logical(loss)), augrc_vec(score, as.double(loss))
  )
  expect_identical(
    aurc_vec(as.integer(round(score * 10)), loss),
    aurc_vec(round(score * 10), as.double(loss))
  )
})

test_that("the threaded column scans find NA and invalid losses", {
  set.seed(18)
  n <- 2^17 + 3
  score <- stats::runif(n)
  loss <- stats::rbinom(n, 1, 0.3)
  for (threads in list(NULL, 2)) {
    withr::local_options(aurc.threads = threads)
    # missing values anywhere, in either column, of every type
    for (at in c(1, n %/% 2, n %/% 2 + 1, n)) {
      s <- score
      s[at] <- NA
      expect_identical(aurc_vec(s, loss), NA_real_)
      expect_identical(
        aurc_vec(s, loss, na_rm = TRUE), aurc_vec(score[-at], loss[-at])
      )
      l <- as.integer(loss)
      l[at] <- NA
      expect_identical(augrc_vec(score, l), NA_real_)
      l <- as.logical(loss)
      l[at] <- NA
      expect_identical(augrc_vec(score, l), NA_real_)
    }
    # the first invalid loss is named, whichever slice it is in
    for (at in c(n %/% 2 + 1, n)) {
      l <- as.double(loss)
      l[c(at, n - (n - at) %/% 2)] <- c(-1, Inf)
      err <- expect_error(aurc_vec(score, l), class = "aurc_error_value")
      expect_match(conditionMessage(err), paste("Element", at, "is"))
      li <- as.integer(loss)
      li[at] <- -3L
      err <- expect_error(aurc_vec(score, li), class = "aurc_error_value")
      expect_match(conditionMessage(err), paste("Element", at, "is"))
    }
  }
})

test_that("a bad aurc.threads option is a classed error", {
  withr::local_options(aurc.threads = "two")
  expect_error(aurc_vec(c(0.9, 0.1), c(0, 1)), class = "aurc_error_value")
  withr::local_options(aurc.threads = 0.5)
  expect_error(aurc_vec(c(0.9, 0.1), c(0, 1)), class = "aurc_error_value")
  withr::local_options(aurc.threads = 1e9)
  expect_equal(aurc_vec(c(0.9, 0.1), c(0, 1)), aurc_vec(c(0.9, 0.1), c(0, 1)))
})
