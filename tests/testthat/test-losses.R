test_that("every loss equals its plain R formula", {
  set.seed(93)
  z <- matrix(stats::rnorm(120, sd = 2), 30, 4)
  y <- sample(1:4, 30, replace = TRUE)
  p <- plain_softmax(z)
  onehot <- diag(4)[y, ]
  expect_equal(selective_loss(p, y, "zero_one"),
    as.numeric(max.col(p, "first") != y))
  expect_equal(selective_loss(p, y, "cross_entropy"), -log(p[cbind(1:30, y)]),
    tolerance = 1e-12)
  expect_equal(selective_loss(p, y, "brier"), rowSums((p - onehot)^2),
    tolerance = 1e-12)
  # from logits, with a temperature
  pt <- plain_softmax(z / 2)
  expect_equal(
    selective_loss(z, y, "cross_entropy", from = "logits", temperature = 2),
    -log(pt[cbind(1:30, y)]), tolerance = 1e-12
  )
  expect_equal(selective_loss(z, y, "brier", from = "logits", temperature = 2),
    rowSums((pt - onehot)^2), tolerance = 1e-12)
  expect_equal(selective_loss(z, y, from = "logits"),
    as.numeric(max.col(z, "first") != y))
  # factor labels matching the column names
  colnames(p) <- c("a", "b", "c", "d")
  yf <- factor(c("a", "b", "c", "d")[y], levels = colnames(p))
  expect_equal(selective_loss(p, yf, "brier"), rowSums((p - onehot)^2),
    tolerance = 1e-12)
})

test_that("argmax ties go to the first class; CE is clamped; huge logits", {
  p <- rbind(c(0.5, 0.5, 0), c(0.4, 0.2, 0.4))
  expect_equal(selective_loss(p, c(2, 1)), c(1, 0))
  expect_equal(selective_loss(p, c(3, 3), "cross_entropy")[1],
    -log(.Machine$double.xmin))
  z <- rbind(c(1e4, -1e4, 0), c(-1e4, 1e4, 1e4))
  for (type in c("zero_one", "cross_entropy", "brier")) {
    out <- selective_loss(z, c(2, 3), type, from = "logits")
    expect_true(all(is.finite(out)), label = type)
  }
  expect_equal(selective_loss(z, c(2, 3), "cross_entropy", from = "logits"),
    c(2e4, log(2)))
})

test_that("bad probabilities and labels fail naming the first bad row", {
  p <- matrix(rep(c(0.5, 0.5), 20), 20, 2, byrow = TRUE)
  p[17, ] <- c(0.5, 0.43)
  expect_error(selective_loss(p, rep(1, 20)), "Row 17 of `probs` sums to 0.93")
  good <- matrix(0.5, 3, 2)
  expect_snapshot(error = TRUE, {
    selective_loss(p, rep(1, 20))
    selective_loss(good, c(1, 3, 1))
    selective_loss(good, c(1, 2, 0.5))
    selective_loss(good, c(1, NA, 1))
    selective_loss(good, c(1, 2))
    selective_loss(good, c("a", "b", "a"))
    selective_loss(good, factor(c("a", "b", "c")))
    selective_loss(`colnames<-`(good, c("x", "y")), factor(c("x", "z", "x")))
    selective_loss(good, c(1, 2, 1), "hinge")
  })
})
