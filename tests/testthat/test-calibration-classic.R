# The calibration summaries of clinical papers (issue 36): the
# Hosmer-Lemeshow test, Harrell's unreliability index U (with D and Q) and
# the lowess smooth of rms::val.prob() for ICI (Eavg), E90 and Emax.

classic_data <- function(n, seed, grid = NULL, slope = 1, shift = 0) {
  withr::with_seed(seed, {
    p <- stats::runif(n, 0.03, 0.97)
    if (!is.null(grid)) {
      i <- sample.int(n, n %/% 3)
      p[i] <- pmin(pmax(round(p[i] * grid) / grid, 0.05), 0.95)
    }
    y <- stats::rbinom(n, 1, stats::plogis(shift + slope * stats::qlogis(p)))
    w <- stats::rpois(n, 1.5)
  })
  list(p = p, y = y, w = w)
}

# -2 log-likelihood of a logistic model with linear predictor eta
literal_deviance <- function(y, eta, w = rep(1, length(y))) {
  -2 * sum(w * (y * log(stats::plogis(eta)) +
    (1 - y) * log(stats::plogis(-eta))))
}

literal_unreliability <- function(p, y, w = rep(1, length(p))) {
  x <- stats::qlogis(p)
  d <- data.frame(y = y, x = x, w = w)
  fit <- suppressWarnings(stats::glm(y ~ x,
    family = stats::binomial(), data = d, weights = w,
    control = stats::glm.control(epsilon = 1e-15, maxit = 200)
  ))
  n <- sum(w)
  ybar <- sum(w * y) / n
  l01 <- literal_deviance(y, x, w)
  lcal <- literal_deviance(y, stats::predict(fit), w)
  l0 <- literal_deviance(y, rep(stats::qlogis(ybar), length(y)), w)
  chisq <- l01 - lcal
  c(statistic = chisq, u = (chisq - 2) / n, d = (l0 - l01 - 1) / n,
    q = (l0 - l01 - 1) / n - (chisq - 2) / n,
    p_value = stats::pchisq(chisq, 2, lower.tail = FALSE))
}

test_that("Hosmer-Lemeshow by hand", {
  p <- c(0.1, 0.2, 0.3, 0.4, 0.6, 0.8)
  y <- c(0, 0, 1, 0, 1, 1)
  # type 7 thirds: positions 1, 8/3, 13/3, 6: 0.1, 0.2 + (2/3) 0.1,
  # 0.4 + (1/3) 0.2, 0.8; groups {0.1, 0.2}, {0.3, 0.4}, {0.6, 0.8}
  # O1, E1, O0, E0: (0, 0.3, 2, 1.7), (1, 0.7, 1, 1.3), (2, 1.4, 0, 0.6)
  chisq <- 0.09 / 0.3 + 0.09 / 1.7 + 0.09 / 0.7 + 0.09 / 1.3 +
    0.36 / 1.4 + 0.36 / 0.6
  res <- hosmer_lemeshow_test_vec(p, y, n_groups = 3, fitted = TRUE)
  expect_s3_class(res, "tbl_df")
  expect_named(res, c("method", "statistic", "df", "p_value", "groups", "n"))
  expect_equal(res$method, "hosmer_lemeshow")
  expect_equal(res$statistic, chisq, tolerance = 1e-14)
  expect_equal(res$df, 1)
  expect_equal(res$groups, 3)
  expect_equal(res$n, 6)
  expect_equal(res$p_value, 1 - stats::pchisq(chisq, 1), tolerance = 1e-14)
  # a tie at a cut point: both 0.2s go to the first group, (0.1, 0.2, 0.2)
  p2 <- c(0.1, 0.2, 0.2, 0.4, 0.6, 0.8)
  # thirds: 0.1, 0.2, 0.4 + (1/3) 0.2, 0.8: {0.1, 0.2, 0.2}, {0.4},
  # {0.6, 0.8}
  chisq2 <- (0 - 0.5)^2 / 0.5 + (3 - 2.5)^2 / 2.5 +
    (0 - 0.4)^2 / 0.4 + (1 - 0.6)^2 / 0.6 +
    (2 - 1.4)^2 / 1.4 + (0 - 0.6)^2 / 0.6
  expect_equal(
    hosmer_lemeshow_test_vec(p2, c(0, 0, 0, 0, 1, 1), n_groups = 3)$statistic,
    chisq2,
    tolerance = 1e-14
  )
})

test_that("Hosmer-Lemeshow equals ResourceSelection::hoslem.test", {
  skip_if_not_installed("ResourceSelection")
  for (k in 1:6) {
    d <- classic_data(c(40, 300, 2000)[(k - 1) %% 3 + 1], k,
      grid = if (k > 3) 10, slope = c(1, 0.7)[(k - 1) %% 2 + 1]
    )
    for (g in c(10, 5, 13)) {
      ref <- suppressWarnings(ResourceSelection::hoslem.test(d$y, d$p, g = g))
      res <- suppressWarnings(hosmer_lemeshow_test_vec(d$p, d$y,
        n_groups = g, fitted = TRUE
      ))
      expect_equal(res$statistic, unname(ref$statistic), tolerance = 1e-10)
      expect_equal(res$df, unname(ref$parameter))
      # (hoslem.test's 1 - pchisq() is accurate to about 1e-16 absolute)
      expect_lt(abs(res$p_value - unname(ref$p.value)), 1e-10)
      expect_equal(res$groups, nrow(ref$observed))
    }
  }
})

test_that("Hosmer-Lemeshow weights are frequencies (the rows repeated)", {
  d <- classic_data(150, 21, grid = 20)
  res <- hosmer_lemeshow_test_vec(d$p, d$y, case_weights = d$w)
  rows <- rep(seq_along(d$p), d$w)
  ref <- hosmer_lemeshow_test_vec(d$p[rows], d$y[rows])
  expect_equal(res$statistic, ref$statistic, tolerance = 1e-12)
  expect_equal(res$p_value, ref$p_value, tolerance = 1e-12)
  expect_equal(res$n, sum(d$w))
  skip_if_not_installed("ResourceSelection")
  rs <- ResourceSelection::hoslem.test(d$y[rows], d$p[rows])
  expect_equal(res$statistic, unname(rs$statistic), tolerance = 1e-10)
})

test_that("Hosmer-Lemeshow: data frames, groups, NA, edge cases", {
  d <- classic_data(400, 5)
  df <- data.frame(p = d$p, y = d$y, g = rep(c("a", "b"), 200))
  res <- hosmer_lemeshow_test(df, p, y, n_groups = 8)
  expect_equal(res, hosmer_lemeshow_test_vec(d$p, d$y, n_groups = 8))
  skip_if_not_installed("dplyr")
  by <- hosmer_lemeshow_test(dplyr::group_by(df, g), p, y)
  expect_equal(by$g, c("a", "b"))
  expect_equal(by$statistic[2],
    hosmer_lemeshow_test_vec(d$p[df$g == "b"], d$y[df$g == "b"])$statistic
  )
  # NA
  p <- replace(d$p, 3, NA)
  expect_true(is.na(hosmer_lemeshow_test_vec(p, d$y)$statistic))
  expect_equal(hosmer_lemeshow_test_vec(p, d$y, na_rm = TRUE),
    hosmer_lemeshow_test_vec(d$p[-3], d$y[-3])
  )
  # many ties: fewer groups, with a warning; the cut points are 0.2, 0.5,
  # 0.7, 0.9, and the first group [0.2, 0.5] takes both 0.2 and 0.5
  pt <- rep(c(0.2, 0.5, 0.7, 0.9), each = 25)
  yt <- rep(c(0, 1), 50)
  expect_warning(res <- hosmer_lemeshow_test_vec(pt, yt, fitted = TRUE),
    class = "aurc_warning_groups"
  )
  expect_equal(res$groups, 3)
  expect_equal(res$df, 1)
  # O1, E1, O0, E0: (25, 17.5, 25, 32.5), (12, 17.5, 13, 7.5),
  # (13, 22.5, 12, 2.5)
  expect_equal(res$statistic,
    7.5^2 / 17.5 + 7.5^2 / 32.5 + 5.5^2 / 17.5 + 5.5^2 / 7.5 +
      9.5^2 / 22.5 + 9.5^2 / 2.5,
    tolerance = 1e-14
  )
  expect_warning(
    expect_warning(
      res <- hosmer_lemeshow_test_vec(rep(0.3, 10), yt[1:10],
        fitted = TRUE
      ),
      class = "aurc_warning_undefined"
    ),
    NA
  )
  expect_true(is.na(res$p_value))
  # a group of confidences 1: its wrong-prediction term at its limit.
  # Thirds of 7 values: positions 1, 3, 5, 7: cuts 0.2, 0.8, 1; groups
  # {0.2, 0.5, 0.8} (O1 2, E1 1.5, O0 1, E0 1.5) and {1, 1, 1, 1} (O1 4,
  # E1 4, O0 0, E0 0)
  p1 <- c(0.2, 0.5, 0.8, 1, 1, 1, 1)
  expect_warning(
    res <- hosmer_lemeshow_test_vec(p1, c(0, 1, 1, 1, 1, 1, 1),
      n_groups = 3, fitted = FALSE
    ),
    class = "aurc_warning_groups"
  )
  expect_equal(res$statistic, 0.25 / 1.5 + 0.25 / 1.5, tolerance = 1e-14)
  expect_equal(res$df, 2)
  res <- suppressWarnings(hosmer_lemeshow_test_vec(p1,
    c(0, 1, 1, 1, 0, 1, 1),
    n_groups = 3, fitted = FALSE
  ))
  expect_equal(c(res$statistic, res$p_value), c(Inf, 0))
  expect_error(hosmer_lemeshow_test_vec(d$p, d$y, n_groups = 2),
    class = "aurc_error"
  )
  expect_error(hosmer_lemeshow_test_vec(d$p, d$y, n_groups = 4.5),
    class = "aurc_error"
  )
  expect_error(hosmer_lemeshow_test_vec(d$p, d$y, groups = 4),
    class = "aurc_error"
  )
  expect_warning(
    res <- hosmer_lemeshow_test_vec(d$p, d$y, case_weights = rep(1e-3, 400)),
    class = "aurc_warning_weights_scale"
  )
  expect_true(is.na(res$statistic))
})

test_that("Harrell's U by hand: every confidence the same", {
  p <- rep(0.5, 4)
  y <- c(1, 1, 1, 0)
  # L01 = -2 * 4 * log(0.5); the intercept alone: ybar = 0.75
  l01 <- 8 * log(2)
  lcal <- -2 * (3 * log(0.75) + log(0.25))
  res <- unreliability_index_vec(p, y)
  expect_named(res, c("method", "statistic", "df", "p_value", "u", "d", "q",
    "n"))
  expect_equal(res$statistic, l01 - lcal, tolerance = 1e-14)
  expect_equal(res$df, 1)
  expect_equal(res$u, (l01 - lcal - 1) / 4, tolerance = 1e-12)
  expect_equal(res$d, -1 / 4)
  expect_equal(res$q, -1 / 4 - (l01 - lcal - 1) / 4, tolerance = 1e-12)
  expect_equal(res$p_value, stats::pchisq(l01 - lcal, 1, lower.tail = FALSE))
})

test_that("Harrell's U, D, Q: the literal definition with weights", {
  for (k in 1:3) {
    d <- classic_data(200, 30 + k, grid = 10, slope = 0.8)
    lit <- literal_unreliability(d$p, d$y)
    res <- unreliability_index_vec(d$p, d$y)
    expect_equal(unlist(res[names(lit)]), lit, tolerance = 1e-9)
    litw <- literal_unreliability(d$p, d$y, d$w)
    resw <- unreliability_index_vec(d$p, d$y, case_weights = d$w)
    expect_equal(unlist(resw[names(litw)]), litw, tolerance = 1e-9)
    rows <- rep(seq_along(d$p), d$w)
    rep_res <- unreliability_index_vec(d$p[rows], d$y[rows])
    expect_equal(resw, rep_res, tolerance = 1e-9)
  }
})

test_that("U, D, Q, Eavg, E90, Emax and Brier equal rms::val.prob", {
  skip_if_not_installed("rms")
  for (k in 1:6) {
    d <- classic_data(c(50, 400, 2500)[(k - 1) %% 3 + 1], 40 + k,
      grid = if (k > 3) 10, slope = c(1, 0.6, 1.3)[(k - 1) %% 3 + 1],
      shift = c(0, 0.3)[(k - 1) %% 2 + 1]
    )
    v <- rms::val.prob(d$p, d$y, pl = FALSE)
    u <- unreliability_index_vec(d$p, d$y)
    expect_equal(u$statistic, unname(v["U:Chi-sq"]), tolerance = 1e-8)
    expect_equal(u$u, unname(v["U"]), tolerance = 1e-8)
    expect_lt(abs(u$p_value - unname(v["U:p"])), 1e-8)
    expect_equal(u$d, unname(v["D"]), tolerance = 1e-8)
    expect_equal(u$q, unname(v["Q"]), tolerance = 1e-8)
    expect_equal(ici_vec(d$p, d$y, smoother = "lowess"), unname(v["Eavg"]),
      tolerance = 1e-8
    )
    expect_equal(e90_vec(d$p, d$y, smoother = "lowess"), unname(v["E90"]),
      tolerance = 1e-8
    )
    expect_equal(emax_vec(d$p, d$y, smoother = "lowess"), unname(v["Emax"]),
      tolerance = 1e-8
    )
    expect_equal(brier_score_vec(d$p, d$y), unname(v["Brier"]),
      tolerance = 1e-12
    )
    s <- calibration_summary(data.frame(p = d$p, y = d$y), p, y,
      smoother = "lowess"
    )
    expect_equal(s$.estimate[s$.metric == "emax"], unname(v["Emax"]),
      tolerance = 1e-8
    )
    expect_equal(s$.estimator, rep(c("logistic", "lowess"), c(2, 4)))
  }
  # every confidence the same: val.prob's U and Eavg
  p <- rep(0.3, 40)
  y <- rep(0:1, c(30, 10))
  v <- rms::val.prob(p, y, pl = FALSE)
  u <- unreliability_index_vec(p, y)
  expect_equal(c(u$u, u$statistic, u$p_value, u$d, u$q),
    unname(v[c("U", "U:Chi-sq", "U:p", "D", "Q")]),
    tolerance = 1e-10
  )
  expect_equal(ici_vec(p, y, smoother = "lowess"), unname(v["Eavg"]))
})

test_that("the lowess smooth: definition, weights, hand case, errors", {
  d <- classic_data(300, 51, grid = 20)
  sm <- stats::lowess(d$p, d$y, iter = 0)
  dist <- abs(d$p - stats::approx(sm, xout = d$p, ties = mean)$y)
  expect_equal(ici_vec(d$p, d$y, smoother = "lowess"), mean(dist))
  expect_equal(e50_vec(d$p, d$y, smoother = "lowess"), stats::median(dist))
  expect_equal(e90(data.frame(p = d$p, y = d$y), p, y,
    smoother = "lowess"
  )$.estimator, "lowess")
  # integer weights repeat the rows
  rows <- rep(seq_along(d$p), d$w)
  for (m in c("ici", "e50", "e90", "emax")) {
    fn <- getExportedValue("aurc", paste0(m, "_vec"))
    expect_equal(fn(d$p, d$y, smoother = "lowess", case_weights = d$w),
      fn(d$p[rows], d$y[rows], smoother = "lowess")
    )
  }
  # one confidence: the smooth is the proportion right
  expect_equal(emax_vec(rep(0.3, 4), c(1, 0, 0, 0), smoother = "lowess"),
    0.05
  )
  expect_warning(ici_vec(d$p, d$y, smoother = "lowess", span = 0.5),
    class = "aurc_warning_ignored"
  )
  expect_error(ici_vec(d$p, d$y, smoother = "lowess", case_weights = d$w / 2),
    class = "aurc_error_value"
  )
  expect_error(ici_vec(d$p, d$y, smoother = "spline"),
    class = "aurc_error_value"
  )
  # loess stays the default
  expect_identical(ici_vec(d$p, d$y), ici_vec(d$p, d$y, smoother = "loess"))
  expect_false(isTRUE(all.equal(ici_vec(d$p, d$y),
    ici_vec(d$p, d$y, smoother = "lowess")
  )))
})

test_that("U: undefined fits, NA, weights below one case, errors", {
  d <- classic_data(100, 61)
  expect_warning(res <- unreliability_index_vec(d$p, rep(1, 100)),
    class = "aurc_warning_undefined"
  )
  expect_true(is.na(res$u))
  expect_warning(unreliability_index_vec(c(0.2, 0.3, 0.7, 0.8), c(0, 0, 1, 1)),
    class = "aurc_warning_undefined"
  )
  expect_true(is.na(unreliability_index_vec(replace(d$p, 1, NA), d$y)$u))
  expect_equal(unreliability_index_vec(replace(d$p, 1, NA), d$y, na_rm = TRUE),
    unreliability_index_vec(d$p[-1], d$y[-1])
  )
  expect_warning(
    unreliability_index_vec(d$p, d$y, case_weights = rep(1e-3, 100)),
    class = "aurc_warning_weights_scale"
  )
  expect_error(unreliability_index_vec(d$p, d$y, eps = 0.7),
    class = "aurc_error"
  )
  df <- data.frame(p = d$p, y = d$y)
  expect_equal(unreliability_index(df, p, y), unreliability_index_vec(d$p, d$y))
  expect_equal(unreliability_index(df, p, loss = 1 - y),
    unreliability_index_vec(d$p, d$y)
  )
})

test_that("smoother reaches the intervals, comparisons and labels", {
  d <- classic_data(300, 71, slope = 0.7)
  n <- length(d$p)
  set.seed(2)
  idx <- t(replicate(10, sample.int(n, n, replace = TRUE)))
  m <- c("ici", "e90", "emax")
  res <- selective_ci_vec(d$p, correct = d$y, metrics = m,
    method = "bootstrap", indices = idx, smoother = "lowess"
  )
  expect_equal(res$.estimator, rep("lowess", 3))
  expect_equal(res$.estimate, c(
    ici_vec(d$p, d$y, smoother = "lowess"),
    e90_vec(d$p, d$y, smoother = "lowess"),
    emax_vec(d$p, d$y, smoother = "lowess")
  ))
  manual <- t(apply(idx, 1, function(i) {
    c(ici_vec(d$p[i], d$y[i], smoother = "lowess"),
      e90_vec(d$p[i], d$y[i], smoother = "lowess"),
      emax_vec(d$p[i], d$y[i], smoother = "lowess"))
  }))
  expect_equal(unname(attr(res, "replicates")), manual, tolerance = 1e-12)
  expect_warning(
    selective_ci_vec(d$p, correct = d$y, metrics = "ici", span = 0.5,
      method = "bootstrap", times = 5, smoother = "lowess"
    ),
    class = "aurc_warning_ignored"
  )
  expect_error(
    selective_ci_vec(d$p, correct = d$y, metrics = "ici",
      method = "bootstrap", times = 5, smoother = "spline"
    ),
    class = "aurc_error_value"
  )
  df <- data.frame(a = d$p, b = pmin(d$p + 0.05, 0.99), y = d$y)
  cmp <- compare_scores(df, c(a, b), correct = y, metric = "ici",
    method = "bootstrap", times = 20, smoother = "lowess"
  )
  expect_equal(nrow(cmp$tests), 1)
  expect_equal(cmp$estimates$estimate, c(
    ici_vec(df$a, df$y, smoother = "lowess"),
    ici_vec(df$b, df$y, smoother = "lowess")
  ))
})

test_that("compare_groups() takes the lowess smoother", {
  d <- classic_data(400, 91)
  df <- data.frame(p = d$p, y = d$y, g = rep(c("a", "b"), 200))
  r <- compare_groups(df, p, correct = y, group = g, metric = "ici",
    method = "bootstrap", times = 20, smoother = "lowess"
  )
  expect_equal(r$groups$estimate, c(
    ici_vec(d$p[df$g == "a"], d$y[df$g == "a"], smoother = "lowess"),
    ici_vec(d$p[df$g == "b"], d$y[df$g == "b"], smoother = "lowess")
  ))
})

test_that("HL and U hold their level under calibration (simulation)", {
  # 500 data sets of n = 500 calibrated confidences: the rejection rate at
  # 5% is near 5% (a binomial standard error of 1%)
  set.seed(2026)
  reject <- replicate(500, {
    p <- stats::runif(500, 0.05, 0.95)
    y <- stats::rbinom(500, 1, p)
    c(hl = hosmer_lemeshow_test_vec(p, y, fitted = FALSE)$p_value < 0.05,
      u = unreliability_index_vec(p, y)$p_value < 0.05)
  })
  rate <- rowMeans(reject)
  expect_true(all(rate > 0.025 & rate < 0.08), info = format(rate))
  # with hoslem.test's df = G - 2, meant for the model's own training data,
  # the test rejects too often on confidences fixed in advance
  hl_fitted <- mean(replicate(200, {
    p <- stats::runif(500, 0.05, 0.95)
    y <- stats::rbinom(500, 1, p)
    hosmer_lemeshow_test_vec(p, y, fitted = TRUE)$p_value < 0.05
  }))
  expect_gt(hl_fitted, 0.07)
  # and they detect overconfidence (slope 0.6) at this n
  power <- rowMeans(replicate(100, {
    p <- stats::runif(500, 0.05, 0.95)
    y <- stats::rbinom(500, 1, stats::plogis(0.6 * stats::qlogis(p)))
    c(hosmer_lemeshow_test_vec(p, y, fitted = FALSE)$p_value < 0.05,
      unreliability_index_vec(p, y)$p_value < 0.05)
  }))
  expect_true(all(power > 0.5), info = format(power))
})

test_that("the yardstick forms take the lowess smoother", {
  d <- classic_data(300, 81, slope = 0.7)
  truth <- factor(ifelse(d$y == 1, "yes", "no"), c("yes", "no"))
  df <- data.frame(truth = truth, .pred_yes = d$p, .pred_no = 1 - d$p)
  res <- ici_prob(df, truth, .pred_yes, .pred_no, smoother = "lowess")
  expect_equal(res$.estimator, "lowess")
  expect_equal(res$.estimate, ici_vec(d$p, d$y, smoother = "lowess"))
  expect_equal(emax_prob_vec(truth, d$p, smoother = "lowess"),
    emax_vec(d$p, d$y, smoother = "lowess")
  )
  expect_warning(
    e90_prob_vec(truth, d$p, smoother = "lowess", span = 0.5),
    class = "aurc_warning_ignored"
  )
})
