test_that("fit_temperature minimises the plain-R NLL", {
  set.seed(94)
  n <- 300
  y <- sample(1:3, n, replace = TRUE)
  z <- matrix(stats::rnorm(n * 3), n, 3)
  z[cbind(1:n, y)] <- z[cbind(1:n, y)] + 1.5
  z <- 4 * z # over-confident
  nll <- function(t) mean(-log(plain_softmax(z / t)[cbind(1:n, y)]))
  temp <- fit_temperature(z, y)
  expect_gt(temp, 1)
  grid <- exp(seq(log(temp) - 0.01, log(temp) + 0.01, length.out = 21))
  expect_lte(nll(temp), min(vapply(grid, nll, 1)) + 1e-12)
  # the derivative of the NLL is zero there
  eps <- 1e-5
  expect_lt(abs(nll(temp * (1 + eps)) - nll(temp * (1 - eps))), 1e-9)
  # factor labels
  yf <- factor(letters[y], levels = letters[1:3])
  expect_equal(fit_temperature(z, yf), temp)
})

test_that("boundary warning and bad input", {
  z <- cbind(c(10, -10), c(-10, 10))
  expect_warning(t <- fit_temperature(z, c(1, 2), interval = c(1, 2)),
    class = "aurc_warning_boundary"
  )
  expect_equal(t, 1, tolerance = 1e-3)
  expect_snapshot(fit_temperature(z, c(1, 2), interval = c(1, 2)))
  expect_snapshot(error = TRUE, {
    fit_temperature(z, c(1, 3))
    fit_temperature(z, c(1, 2), interval = c(2, 1))
    fit_temperature(z, c(1, 2), tol = -1)
    fit_temperature(z[, 1], c(1, 2))
  })
})
