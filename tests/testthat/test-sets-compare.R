# compare_sets(): paired comparison of prediction-set predictors (issue 36).

# two predictors of 6 cases, classes a, b, c
hand_sets <- function() {
  truth <- c("a", "b", "c", "a", "b", "c")
  a <- rbind(
    c(TRUE, FALSE, FALSE), # covered, size 1
    c(TRUE, TRUE, FALSE), # covered, size 2
    c(FALSE, FALSE, TRUE), # covered, size 1
    c(FALSE, TRUE, FALSE), # missed, size 1
    c(TRUE, TRUE, TRUE), # covered, size 3
    c(FALSE, FALSE, FALSE) # empty
  )
  b <- rbind(
    c(TRUE, TRUE, FALSE), # covered, size 2
    c(TRUE, FALSE, TRUE), # missed, size 2
    c(FALSE, FALSE, TRUE), # covered, size 1
    c(TRUE, FALSE, FALSE), # covered, size 1
    c(TRUE, FALSE, FALSE), # missed, size 1
    c(TRUE, FALSE, FALSE) # missed, size 1
  )
  colnames(a) <- colnames(b) <- c("a", "b", "c")
  list(truth = truth, a = a, b = b)
}

# random predictors with ties in everything: each case's set drawn by
# adding each class with probability q, the truth with probability p
random_sets <- function(n, k = 4, p = 0.9, q = 0.3) {
  truth <- sample.int(k, n, replace = TRUE)
  draw <- function() {
    s <- matrix(stats::runif(n * k) < q, n, k)
    s[cbind(seq_len(n), truth)] <- stats::runif(n) < p
    colnames(s) <- seq_len(k)
    s
  }
  list(truth = truth, a = draw(), b = draw())
}

test_that("hand case: coverage and size differences, McNemar, paired SE", {
  h <- hand_sets()
  r <- compare_sets_vec(list(a = h$a, b = h$b), h$truth,
    metrics = c("coverage", "mean_size", "singleton_rate", "empty_rate"),
    p_adjust = "none"
  )
  expect_equal(r$set_a, rep("a", 4))
  expect_equal(r$set_b, rep("b", 4))
  # coverage: a covers 1, 2, 3, 5; b covers 1, 3, 4: d = (0, 1, 0, -1, 1, 0)
  cov <- r[r$.metric == "coverage", ]
  expect_equal(cov$estimate_a, 4 / 6)
  expect_equal(cov$estimate_b, 3 / 6)
  expect_equal(cov$difference, 1 / 6)
  # two discordant cases favour a, one b: z = (2 - 1) / sqrt(3)
  expect_equal(cov$statistic, 1 / sqrt(3))
  expect_equal(cov$p_value, 2 * pnorm(-1 / sqrt(3)))
  # the squared deviations from 1/6 sum to 3 (1/6)^2 + 2 (5/6)^2 +
  # (7/6)^2, which is 102 / 36
  se <- sqrt(102 / 36 / 5 / 6)
  expect_equal(cov$std_error, se)
  # Tango's score interval: where the score statistic, with the restricted
  # estimate q of P(d = -1) given Delta, is -/+ z
  z <- qnorm(0.975)
  score <- function(delta) {
    b <- -3 + (12 - 2 + 1) * delta
    cc <- -1 * delta * (1 - delta)
    q <- (sqrt(b^2 - 8 * 6 * cc) - b) / (4 * 6)
    (2 - 1 - 6 * delta) / sqrt(6 * (2 * q + delta * (1 - delta)))
  }
  expect_equal(score(cov$lower), z, tolerance = 1e-8)
  expect_equal(score(cov$upper), -z, tolerance = 1e-8)
  expect_equal(score(0), 1 / sqrt(3))
  # sizes a = (1, 2, 1, 1, 3, 0), b = (2, 2, 1, 1, 1, 1): d = (-1, 0, 0,
  # 0, 2, -1), mean 0, sum d^2 = 6
  sz <- r[r$.metric == "mean_size", ]
  expect_equal(sz$difference, 0)
  expect_equal(sz$std_error, sqrt(6 / 5 / 6))
  expect_equal(sz$statistic, 0)
  expect_equal(sz$p_value, 1)
  # singletons a: 1, 3, 4; b: 3, 4, 5, 6 -> 3/6 - 4/6; discordant 1 vs 2
  sg <- r[r$.metric == "singleton_rate", ]
  expect_equal(sg$difference, -1 / 6)
  expect_equal(sg$statistic, -1 / sqrt(3))
  # empty: a has case 6, b none: one discordant case, z = 1
  em <- r[r$.metric == "empty_rate", ]
  expect_equal(em$difference, 1 / 6)
  expect_equal(em$statistic, 1)
  expect_equal(em$.method, "mcnemar")
  expect_equal(sz$.method, "paired_z")
})

test_that("each side's estimate is set_metrics_vec()'s, with weights and NA", {
  set.seed(36)
  x <- random_sets(60)
  w <- sample(c(0, 0.5, 1, 3), 60, replace = TRUE)
  x$a[3, 2] <- NA
  x$truth[7] <- NA
  x$b[10, 1] <- NA
  r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, case_weights = w,
    size_strata = 2, alpha = 0.2, times = 50, na_rm = TRUE
  )
  keep <- -c(3, 7, 10) # the cases incomplete in any predictor
  ea <- set_metrics_vec(x$a[keep, ], x$truth[keep], case_weights = w[keep],
    size_strata = 2, alpha = 0.2
  )
  eb <- set_metrics_vec(x$b[keep, ], x$truth[keep], case_weights = w[keep],
    size_strata = 2, alpha = 0.2
  )
  expect_equal(r$.metric, ea$.metric)
  expect_equal(r$estimate_a, ea$.estimate)
  expect_equal(r$estimate_b, eb$.estimate)
  expect_equal(r$difference, ea$.estimate - eb$.estimate)
  expect_equal(unique(r$n), sum(w[keep]))
  # without na_rm every result is NA
  r_na <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, times = 20)
  expect_true(all(is.na(r_na$difference)))
})

test_that("the paired Wald interval is t.test(paired = TRUE)'s, McNemar's p", {
  set.seed(7)
  x <- random_sets(80)
  r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
    metrics = c("coverage", "mean_size", "singleton_rate", "empty_rate",
      "singleton_hit_ratio"),
    conf_level = 0.9
  )
  cov_a <- x$a[cbind(1:80, x$truth)]
  cov_b <- x$b[cbind(1:80, x$truth)]
  size_a <- rowSums(x$a)
  size_b <- rowSums(x$b)
  vals <- list(
    coverage = list(cov_a, cov_b), mean_size = list(size_a, size_b),
    singleton_rate = list(size_a == 1, size_b == 1),
    empty_rate = list(size_a == 0, size_b == 0),
    singleton_hit_ratio = list(size_a == 1 & cov_a, size_b == 1 & cov_b)
  )
  for (m in names(vals)) {
    xa <- as.numeric(vals[[m]][[1]])
    xb <- as.numeric(vals[[m]][[2]])
    row <- r[r$.metric == m, ]
    tt <- stats::t.test(xa, xb, paired = TRUE)
    expect_equal(row$difference, unname(tt$estimate))
    expect_equal(row$std_error, tt$stderr)
    z <- qnorm(0.95)
    if (m == "mean_size") {
      expect_equal(c(row$lower, row$upper),
        row$difference + c(-1, 1) * z * tt$stderr
      )
      expect_equal(row$statistic, unname(tt$statistic))
      expect_equal(row$p_value, 2 * pnorm(-abs(unname(tt$statistic))))
    } else {
      tab <- table(factor(xa, 0:1), factor(xb, 0:1))
      mc <- stats::mcnemar.test(tab, correct = FALSE)
      expect_equal(row$statistic^2, unname(mc$statistic))
      expect_equal(row$p_value, mc$p.value)
    }
  }
})

test_that("frequency weights are repeated cases", {
  set.seed(11)
  x <- random_sets(40)
  w <- sample(1:3, 40, replace = TRUE)
  rows <- rep(1:40, w)
  m <- c("coverage", "mean_size", "empty_rate")
  got <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, case_weights = w,
    metrics = m
  )
  rep_ <- compare_sets_vec(list(a = x$a[rows, ], b = x$b[rows, ]),
    x$truth[rows], metrics = m
  )
  expect_equal(got, rep_)
})

test_that("importance weights: the same estimates, Kish's effective n", {
  skip_if_not_installed("hardhat")
  set.seed(12)
  x <- random_sets(50)
  w <- runif(50, 0.2, 3)
  r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
    case_weights = hardhat::importance_weights(w), metrics = "mean_size"
  )
  d <- rowSums(x$a) - rowSums(x$b)
  dbar <- sum(w * d) / sum(w)
  ess <- sum(w)^2 / sum(w^2)
  v <- sum(w * (d - dbar)^2) / sum(w) * ess / (ess - 1)
  expect_equal(r$difference, dbar)
  expect_equal(r$std_error, sqrt(v / ess))
})

test_that("the paired bootstrap matches boot::boot() on the same draws", {
  skip_if_not_installed("boot")
  set.seed(3)
  x <- random_sets(70)
  gap <- function(s, y, m) {
    set_metrics_vec(s, y, metrics = m, size_strata = 2)$.estimate
  }
  for (m in c("covgap", "class_coverage_gap", "macro_coverage", "ssc_min",
    "sscv")) {
    stat <- function(d, i) {
      gap(x$a[i, ], x$truth[i], m) - gap(x$b[i, ], x$truth[i], m)
    }
    set.seed(5)
    b <- boot::boot(seq_len(70), stat, R = 99)
    idx <- boot::boot.array(b, indices = TRUE)
    r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, metrics = m,
      size_strata = 2, indices = idx
    )
    expect_equal(r$difference, b$t0)
    expect_equal(r$std_error, sd(b$t[, 1]))
    q <- quantile(b$t[, 1], c(0.025, 0.975), type = 7, names = FALSE)
    expect_equal(c(r$lower, r$upper), q)
    p <- min(1, 2 * min(1 + sum(b$t <= 0), 1 + sum(b$t >= 0)) / 100)
    expect_equal(r$p_value, p)
    expect_equal(r$.method, "paired_bootstrap_percentile")
    rb <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, metrics = m,
      size_strata = 2, indices = idx, type = "basic"
    )
    expect_equal(c(rb$lower, rb$upper), 2 * b$t0 - rev(q))
  }
})

test_that("the bootstrap is reproducible and pairs the draws", {
  set.seed(9)
  x <- random_sets(60)
  set.seed(1)
  r1 <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, metrics = "covgap",
    times = 200
  )
  set.seed(1)
  r2 <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, metrics = "covgap",
    times = 200
  )
  expect_identical(r1, r2)
  # identical predictors: every replicate difference is 0
  r0 <- compare_sets_vec(list(a = x$a, b = x$a), x$truth, times = 50)
  expect_true(all(r0$difference == 0))
  expect_true(all(r0$std_error == 0))
  expect_true(all(r0$p_value == 1))
  rate <- r0$.method == "mcnemar"
  expect_true(all(r0$lower[!rate] == 0 & r0$upper[!rate] == 0))
  # the score interval of no discordant case is symmetric about 0
  expect_equal(r0$lower[rate], -r0$upper[rate])
  expect_true(all(r0$upper[rate] > 0))
})

test_that("more than two predictors: all pairs, p-values adjusted per metric", {
  set.seed(4)
  x <- random_sets(100)
  c3 <- x$a
  c3[1:30, ] <- TRUE
  sets <- list(a = x$a, b = x$b, c = c3)
  r <- compare_sets_vec(sets, x$truth, metrics = c("coverage", "mean_size"))
  expect_equal(nrow(r), 6)
  expect_equal(r$set_a, rep(c("a", "a", "b"), 2))
  expect_equal(r$set_b, rep(c("b", "c", "c"), 2))
  for (m in c("coverage", "mean_size")) {
    row <- r[r$.metric == m, ]
    expect_equal(row$p_adjusted, p.adjust(row$p_value, "holm"))
  }
  r_none <- compare_sets_vec(sets, x$truth, metrics = "coverage",
    p_adjust = "none"
  )
  expect_equal(r_none$p_adjusted, r_none$p_value)
  # each pair is the two-predictor comparison
  r_bc <- compare_sets_vec(sets[c("b", "c")], x$truth, metrics = "coverage")
  expect_equal(r_none$p_value[3], r_bc$p_value)
  # unnamed predictors are set1, set2, ...
  r_un <- compare_sets_vec(unname(sets[1:2]), x$truth, metrics = "coverage")
  expect_equal(c(r_un$set_a, r_un$set_b), c("set1", "set2"))
})

test_that("list sets, matrix sets and the data-frame form agree", {
  set.seed(8)
  x <- random_sets(40, k = 3)
  cls <- c("x", "y", "z")
  colnames(x$a) <- colnames(x$b) <- cls
  truth <- cls[x$truth]
  as_list <- function(s) lapply(seq_len(nrow(s)), function(i) cls[s[i, ]])
  m <- c("coverage", "mean_size", "covgap", "sscv")
  set.seed(2)
  r_mat <- compare_sets_vec(list(a = x$a, b = x$b), truth, metrics = m,
    times = 100
  )
  set.seed(2)
  r_list <- compare_sets_vec(list(a = as_list(x$a), b = as_list(x$b)),
    truth, metrics = m, times = 100, classes = cls
  )
  expect_equal(r_list, r_mat)
  df <- data.frame(truth = truth)
  df$a <- x$a
  df$b <- as_list(x$b)
  set.seed(2)
  r_df <- compare_sets(df, c(a, b), truth, metrics = m, times = 100)
  expect_equal(r_df, r_mat)
  set.seed(2)
  expect_equal(
    compare_sets(df, c("a", "b"), truth, metrics = m, times = 100), r_mat
  )
})

test_that("grouped data frames give one set of pairs per group", {
  skip_if_not_installed("dplyr")
  set.seed(10)
  x <- random_sets(60)
  df <- data.frame(truth = x$truth, g = rep(c("u", "v"), 30))
  df$a <- x$a
  df$b <- x$b
  m <- c("coverage", "mean_size", "empty_rate")
  r <- compare_sets(dplyr::group_by(df, g), c(a, b), truth, metrics = m)
  expect_equal(r$g, rep(c("u", "v"), each = 3))
  u <- df$g == "u"
  ru <- compare_sets_vec(list(a = x$a[u, ], b = x$b[u, ]), x$truth[u],
    metrics = m
  )
  expect_equal(r$difference[1:3], ru$difference)
  expect_equal(r$p_adjusted[1:3], ru$p_adjusted)
})

test_that("classed errors name the argument", {
  h <- hand_sets()
  expect_error(compare_sets_vec(list(a = h$a), h$truth),
    class = "aurc_error_type"
  )
  expect_error(compare_sets_vec(h$a, h$truth), class = "aurc_error_type")
  expect_error(compare_sets_vec(list(a = h$a, a = h$b), h$truth),
    class = "aurc_error_value"
  )
  expect_error(compare_sets_vec(list(a = h$a, b = h$b[1:5, ]), h$truth),
    class = "aurc_error_length"
  )
  b4 <- cbind(h$b, d = FALSE)
  expect_error(compare_sets_vec(list(a = h$a, b = b4), h$truth),
    class = "aurc_error_value"
  )
  expect_error(compare_sets_vec(list(a = h$a, b = h$b), h$truth,
    p_adjust = "nope"
  ), class = "aurc_error_value")
  expect_error(compare_sets_vec(list(a = h$a, b = h$b), h$truth,
    type = "bca"
  ), class = "aurc_error_value")
  expect_error(compare_sets_vec(list(a = h$a, b = h$b), h$truth,
    times = 1
  ), class = "aurc_error")
  expect_error(compare_sets_vec(list(a = h$a, b = h$b), h$truth,
    indices = matrix(7, 3, 6)
  ), class = "aurc_error_value")
  expect_error(compare_sets_vec(list(a = h$a, b = h$b), h$truth, foo = 1),
    class = "aurc_error"
  )
  df <- data.frame(truth = h$truth)
  df$a <- h$a
  expect_error(compare_sets(df, a, truth), class = "aurc_error")
  expect_warning(
    r <- compare_sets_vec(list(a = h$a, b = h$b), h$truth,
      case_weights = rep(0, 6), metrics = "coverage"
    ),
    class = "aurc_warning"
  )
  expect_true(is.na(r$difference))
})

test_that("the tests keep their level under the null (small simulation)", {
  # two exchangeable predictors: for each case the two sets are drawn from
  # the same law, so every difference has mean 0
  set.seed(2026)
  reps <- 200
  p <- matrix(NA_real_, reps, 3)
  for (i in seq_len(reps)) {
    x <- random_sets(150, k = 3, p = 0.85, q = 0.25)
    r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
      metrics = c("coverage", "mean_size", "singleton_rate")
    )
    p[i, ] <- r$p_value
  }
  rate <- colMeans(p < 0.05)
  # binomial sd at 200 replicates is 0.015
  expect_true(all(rate > 0.01 & rate < 0.10), info = paste(rate))
  # the bootstrap metrics (fewer replicates: each is a bootstrap)
  reps_b <- 40
  pb <- matrix(NA_real_, reps_b, 2)
  for (i in seq_len(reps_b)) {
    x <- random_sets(150, k = 3, p = 0.85, q = 0.25)
    r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
      metrics = c("macro_coverage", "covgap"), times = 199
    )
    pb[i, ] <- r$p_value
  }
  rate_b <- colMeans(pb < 0.05)
  expect_true(all(rate_b <= 0.15), info = paste(rate_b))
})

test_that("fewer than two cases: NA intervals with a classed warning", {
  h <- hand_sets()
  expect_warning(
    r <- compare_sets_vec(list(a = h$a[1, , drop = FALSE],
      b = h$b[1, , drop = FALSE]), h$truth[1], times = 20),
    class = "aurc_warning_no_interval"
  )
  expect_true(all(is.na(r$lower) & is.na(r$p_value)))
  expect_equal(r$difference[r$.metric == "mean_size"], -1)
  expect_warning(
    r <- compare_sets_vec(list(a = h$a, b = h$b), h$truth,
      case_weights = rep(1e-320, 6), times = 20
    ),
    class = "aurc_warning_no_interval"
  )
  expect_true(all(is.na(r$upper)))
  expect_equal(r$difference[r$.metric == "coverage"], 1 / 6)
})

test_that("weighted bootstrap: frequency weights draw rows, importance cases", {
  skip_if_not_installed("boot")
  skip_if_not_installed("hardhat")
  set.seed(21)
  x <- random_sets(30)
  w <- sample(1:3, 30, replace = TRUE)
  # frequency weights: each position of a replicate is one of the sum(w)
  # rows, as the bootstrap of the data with rows repeated
  rows <- rep(1:30, w)
  idx_rows <- matrix(sample.int(length(rows), 50 * length(rows),
    replace = TRUE
  ), 50)
  idx_cases <- matrix(rows[idx_rows], 50)
  m <- c("covgap", "sscv")
  got <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, case_weights = w,
    metrics = m, indices = idx_cases
  )
  want <- compare_sets_vec(list(a = x$a[rows, ], b = x$b[rows, ]),
    x$truth[rows], metrics = m, indices = idx_rows
  )
  expect_equal(got, want)
  # importance weights: the cases are resampled, each drawn case with its
  # weight (boot::boot() with the weights of the cases drawn)
  wi <- runif(30, 0.5, 2)
  stat <- function(d, i) {
    val <- function(s) {
      set_metrics_vec(s[i, ], x$truth[i], metrics = "covgap",
        case_weights = wi[i]
      )$.estimate
    }
    val(x$a) - val(x$b)
  }
  set.seed(6)
  b <- boot::boot(1:30, stat, R = 60)
  r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
    case_weights = hardhat::importance_weights(wi), metrics = "covgap",
    indices = boot::boot.array(b, indices = TRUE)
  )
  expect_equal(r$std_error, sd(b$t[, 1]))
  expect_equal(r$difference, b$t0)
})

test_that("the data-frame form keeps hardhat importance weights", {
  skip_if_not_installed("hardhat")
  set.seed(13)
  x <- random_sets(50)
  w <- runif(50, 0.2, 3)
  df <- data.frame(y = x$truth, w = hardhat::importance_weights(w))
  df$a <- x$a
  df$b <- x$b
  m <- c("coverage", "mean_size")
  got <- compare_sets(df, c(a, b), y, case_weights = w, metrics = m)
  want <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
    case_weights = hardhat::importance_weights(w), metrics = m
  )
  expect_equal(got, want)
  plain <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
    case_weights = w, metrics = m
  )
  expect_false(isTRUE(all.equal(got$std_error, plain$std_error)))
  # set_metrics() too (its groups used to drop the importance mark)
  expect_equal(
    set_metrics(df, a, y, case_weights = w),
    set_metrics_vec(x$a, x$truth,
      case_weights = hardhat::importance_weights(w)
    )
  )
})

test_that("the interval of the rates is Tango's, as PropCIs::scoreci.mp()", {
  skip_if_not_installed("PropCIs")
  set.seed(17)
  for (n in c(15, 80, 400)) {
    x <- random_sets(n, p = 0.8)
    r <- compare_sets_vec(list(a = x$a, b = x$b), x$truth,
      metrics = c("coverage", "singleton_rate", "empty_rate"),
      conf_level = 0.9
    )
    cov_a <- x$a[cbind(seq_len(n), x$truth)]
    cov_b <- x$b[cbind(seq_len(n), x$truth)]
    vals <- list(
      coverage = list(cov_a, cov_b),
      singleton_rate = list(rowSums(x$a) == 1, rowSums(x$b) == 1),
      empty_rate = list(rowSums(x$a) == 0, rowSums(x$b) == 0)
    )
    for (m in names(vals)) {
      n10 <- sum(vals[[m]][[1]] & !vals[[m]][[2]])
      n01 <- sum(!vals[[m]][[1]] & vals[[m]][[2]])
      # PropCIs's difference is (c - b) / n
      tg <- PropCIs::scoreci.mp(b = n01, c = n10, n = n, conf.level = 0.9)
      row <- r[r$.metric == m, ]
      expect_equal(c(row$lower, row$upper), as.numeric(tg$conf.int),
        tolerance = 1e-5, info = paste(m, n)
      )
    }
  }
  # no discordant case: an interval around 0 all the same
  h <- hand_sets()
  r0 <- compare_sets_vec(list(a = h$a, b = h$a), h$truth,
    metrics = "coverage"
  )
  tg <- PropCIs::scoreci.mp(b = 0, c = 0, n = 6, conf.level = 0.95)
  expect_equal(c(r0$lower, r0$upper), as.numeric(tg$conf.int),
    tolerance = 1e-5
  )
  # all cases discordant one way
  a <- h$a
  a[] <- TRUE
  b <- h$a
  b[] <- FALSE
  r1 <- compare_sets_vec(list(a = a, b = b), h$truth, metrics = "coverage")
  tg <- PropCIs::scoreci.mp(b = 0, c = 6, n = 6, conf.level = 0.95)
  expect_equal(c(r1$lower, r1$upper), as.numeric(tg$conf.int),
    tolerance = 1e-5
  )
})

test_that("importance weights: cases of weight 0 are not drawn", {
  skip_if_not_installed("hardhat")
  set.seed(31)
  x <- random_sets(40)
  w <- runif(40, 0.5, 2)
  w0 <- c(w, rep(0, 10))
  a0 <- rbind(x$a, x$b[1:10, ])
  b0 <- rbind(x$b, x$a[1:10, ])
  y0 <- c(x$truth, x$truth[1:10])
  m <- c("covgap", "ssc_min", "coverage")
  set.seed(3)
  got <- compare_sets_vec(list(a = a0, b = b0), y0, metrics = m,
    case_weights = hardhat::importance_weights(w0), times = 100
  )
  set.seed(3)
  want <- compare_sets_vec(list(a = x$a, b = x$b), x$truth, metrics = m,
    case_weights = hardhat::importance_weights(w), times = 100
  )
  expect_equal(got, want)
})
