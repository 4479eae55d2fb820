test_that("every score equals its plain R formula on random logits", {
  set.seed(91)
  z <- matrix(stats::rnorm(200, sd = 3), 40, 5)
  z[1, 1:2] <- c(5, 5) # a tie in the maximum
  for (temp in c(1, 2.5)) {
    p <- plain_softmax(z / temp)
    sorted <- t(apply(p, 1, sort, decreasing = TRUE))
    cs <- function(type, ...) {
      confidence_score(z, type, temperature = temp, ...)
    }
    expect_equal(cs("msp"), apply(p, 1, max), tolerance = 1e-12)
    expect_equal(cs("maxlogit"), apply(z / temp, 1, max), tolerance = 1e-12)
    expect_equal(cs("margin"), sorted[, 1] - sorted[, 2], tolerance = 1e-12)
    expect_equal(cs("neg_entropy"), rowSums(p * log(p)), tolerance = 1e-12)
    expect_equal(cs("neg_gini"), rowSums(p^2) - 1, tolerance = 1e-12)
    zt <- z / temp
    expect_equal(cs("maxlogit_pnorm"),
      apply(zt, 1, max) / sqrt(rowSums(zt^2)),
      tolerance = 1e-12
    )
    expect_equal(cs("maxlogit_pnorm", p = 3),
      apply(zt, 1, max) / rowSums(abs(zt)^3)^(1 / 3),
      tolerance = 1e-12
    )
    expect_equal(cs("maxlogit_pnorm", p = Inf),
      apply(zt, 1, max) / apply(abs(zt), 1, max),
      tolerance = 1e-12
    )
  }
  # from probabilities, with an exact zero (0 log 0 = 0)
  p <- plain_softmax(z)
  p[2, ] <- c(0.5, 0.5, 0, 0, 0)
  expect_equal(confidence_score(p, "neg_entropy", from = "probs"),
    rowSums(ifelse(p > 0, p * log(p), 0)), tolerance = 1e-12)
  expect_equal(confidence_score(p, "msp", from = "probs"), apply(p, 1, max))
  expect_equal(confidence_score(p, "margin", from = "probs")[2], 0)
})

test_that("MC dropout / ensemble scores equal plain R formulas", {
  set.seed(92)
  n_members <- 4
  n <- 15
  n_classes <- 3
  dims <- c(n_members, n, n_classes)
  z <- array(stats::rnorm(prod(dims)), dims)
  probs <- array(0, c(n_members, n, n_classes))
  for (s in 1:n_members) probs[s, , ] <- plain_softmax(z[s, , ])
  pbar <- apply(probs, c(2, 3), mean)
  negh <- function(p) rowSums(p * log(p))
  mean_negh <- rowMeans(sapply(1:n_members, function(s) negh(probs[s, , ])))
  expect_equal(confidence_score(z, "mcd_msp"), apply(pbar, 1, max),
    tolerance = 1e-12)
  expect_equal(confidence_score(z, "mcd_pe"), negh(pbar), tolerance = 1e-12)
  # -(H(pbar) - mean_s H(p_s)), H = -negh
  expect_equal(confidence_score(z, "mcd_mi"), negh(pbar) - mean_negh,
    tolerance = 1e-12)
  expect_equal(confidence_score(probs, "mcd_mi", from = "probs"),
    negh(pbar) - mean_negh, tolerance = 1e-12)
  # mutual information is never positive as a negative score
  expect_true(all(confidence_score(z, "mcd_mi") <= 1e-15))
})

test_that("huge logits give finite scores", {
  z <- rbind(c(1e4, -1e4, 0), c(-1e4, -1e4, -1e4), c(1e4, 1e4 - 1, -1e4))
  for (type in c("msp", "maxlogit", "margin", "neg_entropy",
                 "maxlogit_pnorm", "neg_gini")) {
    expect_true(all(is.finite(confidence_score(z, type))), label = type)
  }
  expect_equal(confidence_score(z, "msp"), c(1, 1 / 3, 1 / (1 + exp(-1))))
  a <- array(c(1e4, -1e4, 1e4, 0, 5, -1e4), c(2, 1, 3))
  for (type in c("mcd_msp", "mcd_pe", "mcd_mi")) {
    expect_true(is.finite(confidence_score(a, type)))
  }
})

test_that("bad input fails naming the first bad row", {
  p <- matrix(c(0.5, 0.5, 0.2, 0.3, 0.5, 0.5), 3, 2, byrow = TRUE)
  p[2, ] <- c(0.2, 0.73)
  expect_error(confidence_score(p, from = "probs"), class = "aurc_error_probs")
  a <- array(0.5, c(2, 3, 2))
  a[2, 3, 1] <- 0.4
  expect_snapshot(error = TRUE, {
    confidence_score(p, "msp", from = "probs")
    confidence_score(rbind(c(0.5, 0.5), c(1.2, -0.2)), from = "probs")
    confidence_score(a, "mcd_msp", from = "probs")
    confidence_score(matrix(c(1, NA, 3, 4), 2), "msp")
    confidence_score(1:3, "msp")
    confidence_score(matrix(1:4, 2), "mcd_pe")
    confidence_score(array(1, c(2, 2, 2)), "msp")
    confidence_score(matrix(0.5, 2, 2), "maxlogit", from = "probs")
    confidence_score(matrix(1, 2, 2), "entropy")
    confidence_score(matrix(1, 2, 2), temperature = 0)
    confidence_score(matrix(1, 2, 2), "maxlogit_pnorm", p = 0.5)
  })
})
# Model outputs as users have them: data frames of numeric columns, and
# labels 0..K-1 from Python through labels_from = 0 (never guessed).
test_that("data frames of numeric columns equal the matrix", {
  set.seed(2)
  z <- matrix(stats::rnorm(60), 20, 3)
  p <- exp(z) / rowSums(exp(z))
  y <- sample(3, 20, TRUE)
  zd <- as.data.frame(z)
  pd <- stats::setNames(as.data.frame(p), c(".pred_a", ".pred_b", ".pred_c"))
  for (type in c("msp", "margin", "maxlogit")) {
    expect_identical(confidence_score(zd, type), confidence_score(z, type))
  }
  expect_identical(confidence_score(pd, "neg_entropy", from = "probs"),
    confidence_score(p, "neg_entropy", from = "probs")
  )
  expect_identical(selective_loss(pd, y, "brier"), selective_loss(p, y, "brier"))
  expect_identical(fit_temperature(zd, y), fit_temperature(z, y))
  expect_identical(top_label(as.data.frame(p), y), top_label(p, y))
  expect_identical(classwise_ece_vec(as.data.frame(p), y),
    classwise_ece_vec(p, y)
  )
  # a hand case: the largest probability of each row
  expect_identical(
    confidence_score(data.frame(a = c(0.2, 0.6), b = c(0.8, 0.4)), "msp",
      from = "probs"
    ),
    c(0.8, 0.6)
  )
  bad <- pd
  bad$.pred_b <- as.character(bad$.pred_b)
  expect_snapshot(error = TRUE, confidence_score(bad, from = "probs"))
})

test_that("labels 0..K-1 with labels_from = 0", {
  set.seed(3)
  p <- matrix(stats::runif(30), 10, 3)
  p <- p / rowSums(p)
  y0 <- sample(0:2, 10, TRUE)
  expect_identical(selective_loss(p, y0, "cross_entropy", labels_from = 0),
    selective_loss(p, y0 + 1, "cross_entropy")
  )
  expect_identical(top_label(p, y0, labels_from = 0), top_label(p, y0 + 1))
  expect_identical(
    fit_temperature(log(p), y0, labels_from = 0),
    fit_temperature(log(p), y0 + 1)
  )
  expect_identical(classwise_ece_vec(p, y0, labels_from = 0),
    classwise_ece_vec(p, y0 + 1)
  )
  # a hand case: row 1 predicts class 0 (Python's numbering) and is right
  q <- rbind(c(0.7, 0.3), c(0.4, 0.6))
  expect_identical(selective_loss(q, c(0, 0), labels_from = 0), c(0, 1))
  # never guessed: 0 with the default is an error that names the fix
  expect_snapshot(error = TRUE, selective_loss(p, y0))
  expect_snapshot(error = TRUE, top_label(p, y0))
  expect_error(selective_loss(p, y0 + 1, labels_from = 0),
    class = "aurc_error_labels"
  )
  expect_snapshot(error = TRUE, selective_loss(p, y0, labels_from = 2))
})
