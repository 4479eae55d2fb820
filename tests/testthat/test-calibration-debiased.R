test_that("hand-computed debiased l2 calibration error", {
  # bins [0, .5] and (.5, 1]: bin 1 = .2, .2 with outcomes 0, 0: acc 0,
  # (.2 - 0)^2 - 0 = .04; bin 2 = .9 x 4 with outcomes 0 0 1 1: acc .5,
  # (.9 - .5)^2 - .25 / 3 = .16 - 1/12. Weighted: 2/6 * .04 + 4/6 * (.16 -
  # 1/12).
  x <- c(0.2, 0.2, 0.9, 0.9, 0.9, 0.9)
  y <- c(0, 0, 0, 0, 1, 1)
  want <- sqrt(2 / 6 * 0.04 + 4 / 6 * (0.16 - 1 / 12))
  expect_equal(ece_vec(x, y, breaks = c(0, 0.5, 1), debias = TRUE), want)
  # floored at 0: bin 2 with outcomes 1 1 1 0 is nearly calibrated
  expect_equal(
    ece_vec(x, c(0, 0, 1, 1, 1, 0), breaks = c(0, 0.5, 1), debias = TRUE),
    sqrt(max(0, 2 / 6 * 0.04 + 4 / 6 * (0.15^2 - 0.75 * 0.25 / 3)))
  )
  # a bin with one sample contributes 0
  expect_equal(
    ece_vec(c(0.1, 0.9, 0.9), c(1, 0, 1),
      breaks = c(0, 0.5, 1),
      debias = TRUE
    ),
    sqrt(max(0, 2 / 3 * (0.4^2 - 0.25)))
  )
})

test_that("kumar2019 bins and debiasing equal their library, transcribed", {
  for (seed in 1:6) {
    withr::local_seed(seed)
    n <- sample(c(40, 97, 300), 1)
    p <- if (seed %% 2) stats::runif(n) else round(stats::runif(n) * 8) / 8
    y <- stats::rbinom(n, 1, p)
    expect_equal(
      ece_vec(p, y, binning = "kumar2019", n_bins = 15, debias = TRUE),
      literal_kumar_ce(p, y),
      tolerance = 1e-12
    )
    expect_equal(
      ece_vec(p, y, binning = "kumar2019_legacy", n_bins = 15, debias = TRUE),
      literal_kumar_ce(p, y, legacy = TRUE),
      tolerance = 1e-12
    )
  }
})

test_that("kumar2019 splits as numpy.array_split; the legacy rule by ceiling", {
  # n = 7 into 3 parts: array_split gives sizes 3, 2, 2; ceiling 3, 3, 1
  expect_identical(literal_split_starts(7, 3), c(1, 4, 6))
  expect_identical(literal_split_starts(7, 3, legacy = TRUE), c(1, 4, 7))
  p <- c(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
  y <- c(1, 0, 1, 1, 0, 1, 1)
  current <- calibration_bins_vec(p, y, binning = "kumar2019", n_bins = 3)
  legacy <- calibration_bins_vec(p, y, binning = "kumar2019_legacy", n_bins = 3)
  expect_identical(current$n[current$n > 0], c(3, 2, 2))
  expect_identical(legacy$n[legacy$n > 0], c(3, 3, 1))
  # edges midway between parts: 0.35 and 0.55 (current), 0.35, 0.65 (legacy)
  expect_equal(current$upper[1:2], c(0.35, 0.55))
  expect_equal(legacy$upper[1:2], c(0.35, 0.65))
  # they agree when n_bins divides n
  q <- seq(0.05, 0.95, length.out = 30)
  z <- rep(0:1, 15)
  expect_identical(
    ece_vec(q, z, binning = "kumar2019", n_bins = 5),
    ece_vec(q, z, binning = "kumar2019_legacy", n_bins = 5)
  )
})

test_that("kumar2019: ties, integer weights = repeated rows, row order", {
  withr::local_seed(3)
  p <- round(stats::runif(200) * 60) / 60
  y <- stats::rbinom(200, 1, p)
  w <- stats::rpois(200, 1.5)
  perm <- sample(200)
  a <- ece_vec(p, y, binning = "kumar2019", debias = TRUE, case_weights = w)
  expect_equal(
    a, ece_vec(rep(p, w), rep(y, w), binning = "kumar2019", debias = TRUE)
  )
  expect_equal(a, ece_vec(p[perm], y[perm],
    binning = "kumar2019",
    debias = TRUE, case_weights = w[perm]
  ))
  bins <- calibration_bins_vec(p, y, binning = "kumar2019")
  # ties are never split across bins
  expect_true(all(bins$max_confidence[-nrow(bins)] < bins$min_confidence[-1]))
})

test_that("data-frame form and bad input", {
  df <- data.frame(p = c(0.2, 0.2, 0.9, 0.9, 0.9, 0.9), y = c(0, 0, 0, 0, 1, 1))
  out <- ece(df, p, y, breaks = c(0, 0.5, 1), debias = TRUE)
  expect_equal(out$.metric, "debiased_l2_ce")
  expect_equal(out$.estimate, ece_vec(df$p, df$y,
    breaks = c(0, 0.5, 1),
    debias = TRUE
  ))
  expect_snapshot(error = TRUE, ece_vec(df$p, df$y, debias = NA))
})

test_that("classwise ECE is the mean of one-vs-rest ECEs", {
  withr::local_seed(4)
  n <- 300
  probs <- matrix(stats::runif(n * 3), ncol = 3)
  probs <- round(probs / rowSums(probs), 3)
  probs[, 3] <- 1 - probs[, 1] - probs[, 2]
  labels <- apply(probs, 1, function(p) sample(3, 1, prob = pmax(p, 0)))
  per <- vapply(1:3, function(k) {
    ece_vec(pmin(probs[, k], 1), as.integer(labels == k),
      binning = "equal_width", n_bins = 15
    )
  }, numeric(1))
  got <- classwise_ece_vec(probs, labels)
  expect_equal(as.numeric(got), mean(per))
  expect_equal(attr(got, "per_class"), per)
  per2 <- vapply(1:3, function(k) {
    literal_kumar_ce(probs[, k], as.integer(labels == k))
  }, numeric(1))
  got2 <- classwise_ece_vec(probs, labels,
    binning = "kumar2019",
    debias = TRUE
  )
  expect_equal(as.numeric(got2), sqrt(mean(per2^2)), tolerance = 1e-12)
  # missing rows
  probs[5, 1] <- NA
  expect_identical(classwise_ece_vec(probs, labels), NA_real_)
  expect_equal(
    as.numeric(classwise_ece_vec(probs, labels, na_rm = TRUE)),
    as.numeric(classwise_ece_vec(probs[-5, ], labels[-5]))
  )
  expect_snapshot(error = TRUE, classwise_ece_vec(probs[-5, ], labels[-5] + 3))
  bad <- probs[-5, ]
  bad[2, ] <- c(0.5, 0.6, 0.1)
  expect_snapshot(error = TRUE, classwise_ece_vec(bad, labels[-5]))
})

test_that("bootstrap hooks: counts over rows = repeated rows", {
  withr::local_seed(9)
  x <- round(stats::runif(150), 2)
  y <- stats::rbinom(150, 1, x^2)
  counts <- stats::rpois(150, 1)
  rx <- rep(x, counts)
  ry <- rep(y, counts)
  stat <- function(m, ...) calibration_counts_statistic(m, x, y, ...)(counts)
  expect_equal(stat("smooth_ece"), as.numeric(smooth_ece_vec(rx, ry)),
    tolerance = 1e-12
  )
  expect_equal(stat("corp_mcb"), corp_mcb_vec(rx, ry), tolerance = 1e-12)
  expect_equal(stat("corp_dsc", score = "log"),
    corp_decomposition(data.frame(rx, ry), rx, ry, score = "log")$dsc,
    tolerance = 1e-12
  )
  expect_equal(stat("ece"), ece_vec(rx, ry), tolerance = 1e-12)
  kumar <- calibration_settings(
    "kumar2019", FALSE, 15, 0.9, 40, 0.05, NULL, rlang::current_env()
  )
  expect_equal(stat("debiased_l2_ce", settings = kumar),
    ece_vec(rx, ry, binning = "kumar2019", n_bins = 15, debias = TRUE),
    tolerance = 1e-12
  )
  # no counts: the estimate on the data
  expect_equal(calibration_counts_statistic("corp_mcb", x, y)(NULL),
    corp_mcb_vec(x, y)
  )
})

test_that("classwise_ece() per group: classwise_ece_vec() and the definition", {
  set.seed(31)
  n <- 240
  probs <- matrix(stats::rexp(n * 3), ncol = 3)
  probs <- floor(100 * probs / rowSums(probs)) / 100 # ties
  probs[, 3] <- 1 - probs[, 1] - probs[, 2]
  labels <- vapply(seq_len(n), function(i) {
    sample(3, 1, prob = pmax(probs[i, ], 0.01))
  }, integer(1))
  w <- stats::rpois(n, 1) + 1
  df <- data.frame(
    truth = factor(c("x", "y", "z")[labels], c("x", "y", "z")),
    p_x = probs[, 1], p_y = probs[, 2], p_z = probs[, 3],
    model = rep(c("a", "b", "c"), length.out = n), w = w
  )
  # the literal definition: (1/K) sum_k sum_b (n_b / n) |acc_b - conf_b|
  # over 15 equal-width bins [0, 1/15], (1/15, 2/15], ...
  literal <- function(p, y, w = rep(1, length(y)), k = 15) {
    mean(vapply(seq_len(ncol(p)), function(j) {
      # edges b / k compared exactly: x in ((b - 1) / k, b / k] is bin b
      bin <- findInterval(p[, j], seq_len(k - 1) / k, left.open = TRUE) + 1
      gaps <- vapply(split(seq_along(bin), bin), function(i) {
        abs(sum(w[i] * (y[i] == j)) - sum(w[i] * p[i, j]))
      }, numeric(1))
      sum(gaps) / sum(w)
    }, numeric(1)))
  }
  res <- classwise_ece(df, truth, p_x, p_y, p_z)
  expect_identical(names(res), c(".metric", ".estimator", ".estimate"))
  expect_identical(res$.metric, "classwise_ece")
  expect_identical(res$.estimator, "equal_width")
  expect_equal(res$.estimate, literal(probs, labels), tolerance = 1e-12)
  expect_equal(res$.estimate, as.numeric(classwise_ece_vec(probs, labels)),
    tolerance = 1e-14
  )
  # case weights: the literal definition with weights = repeated rows
  rw <- classwise_ece(df, truth, p_x, p_y, p_z, case_weights = w)
  expect_equal(rw$.estimate, literal(probs, labels, w), tolerance = 1e-12)
  rep_rows <- rep(seq_len(n), w)
  expect_equal(rw$.estimate,
    as.numeric(classwise_ece_vec(probs[rep_rows, ], labels[rep_rows])),
    tolerance = 1e-12
  )
  # integer truth; debias; other binning
  df$k <- labels
  expect_equal(classwise_ece(df, k, p_x, p_y, p_z)$.estimate, res$.estimate)
  db <- classwise_ece(df, truth, p_x:p_z, debias = TRUE, binning = "kumar2019")
  expect_identical(db$.metric, "classwise_debiased_l2_ce")
  expect_identical(db$.estimator, "kumar2019")
  expect_equal(db$.estimate, as.numeric(classwise_ece_vec(probs, labels,
    debias = TRUE, binning = "kumar2019"
  )), tolerance = 1e-14)
  # grouped: one row per group
  skip_if_not_installed("dplyr")
  g <- classwise_ece(dplyr::group_by(df, model), truth,
    dplyr::starts_with("p_"),
    n_bins = 5
  )
  expect_identical(g$model, c("a", "b", "c"))
  for (m in c("a", "b", "c")) {
    i <- df$model == m
    expect_equal(g$.estimate[g$model == m], literal(probs[i, ], labels[i],
      k = 5
    ), tolerance = 1e-12)
  }
})

test_that("classwise_ece() rejects bad columns with classed errors", {
  df <- data.frame(truth = factor(c("a", "b")), pa = c(0.6, 0.3),
                   pb = c(0.4, 0.7))
  expect_snapshot(error = TRUE, {
    classwise_ece(df, truth, pa)
    classwise_ece(transform(df, pc = 0), truth, pa, pb, pc)
    classwise_ece(df, nope, pa, pb)
  })
  expect_error(classwise_ece(df, truth, pa), class = "aurc_error_column")
  df$pa[1] <- NA
  expect_identical(classwise_ece(df, truth, pa, pb)$.estimate, NA_real_)
})
