# Intervals and comparisons of the clinical calibration summaries: ICI,
# E50, E90, Emax (loess) and the calibration slope and intercept
# (logistic recalibration), evaluated in R on the engine's replicates
# (R/ci-bootstrap-r.R) and, for the slope and intercept, analytic from
# their influence functions (R/ci-influence-recalibration.R).

clinical_data <- function(n, seed, slope = 0.6, intercept = 0) {
  set.seed(seed)
  p <- stats::runif(n, 0.5, 0.99)
  y <- stats::rbinom(n, 1, stats::plogis(intercept + slope * stats::qlogis(p)))
  list(p = p, y = y)
}

clinical_metrics <- c(
  "ici", "e50", "e90", "emax", "calibration_slope", "calibration_intercept"
)

clinical_vec <- function(m, p, y, w = NULL) {
  fn <- getExportedValue("aurc", paste0(m, "_vec"))
  fn(p, y, case_weights = w)
}

test_that("each replicate is the metric of the resampled rows", {
  d <- clinical_data(300, 1)
  n <- length(d$p)
  set.seed(2)
  idx <- t(replicate(20, sample.int(n, n, replace = TRUE)))
  res <- selective_ci_vec(d$p, correct = d$y, metrics = clinical_metrics,
    method = "bootstrap", indices = idx
  )
  reps <- attr(res, "replicates")
  # as boot::boot() would compute them: the metric on data[i, ]
  manual <- t(apply(idx, 1, function(i) {
    vapply(clinical_metrics, clinical_vec, numeric(1), d$p[i], d$y[i])
  }))
  expect_equal(unname(reps), unname(manual), tolerance = 1e-12)
  est <- vapply(clinical_metrics, clinical_vec, numeric(1), d$p, d$y)
  expect_equal(res$.estimate, unname(est), tolerance = 1e-14)
  expect_equal(res$.metric, clinical_metrics)
  expect_equal(res$.estimator, rep(c("loess", "logistic"), c(4, 2)))
  # percentile bounds: type-7 quantiles of those replicates
  q <- apply(manual, 2, stats::quantile, c(0.025, 0.975), names = FALSE)
  expect_equal(res$.lower, unname(q[1, ]), tolerance = 1e-12)
  expect_equal(res$.upper, unname(q[2, ]), tolerance = 1e-12)
})

test_that("the R metrics see the engine's resamples of the same seed", {
  d <- clinical_data(200, 3)
  loss <- 1 - d$y
  set.seed(4)
  res <- run_ci_bootstrap(list(d$p), loss, c("aurc", "ici", "ece"),
    times = 12
  )
  counts <- aurc:::ci_bootstrap_counts(d$p, NULL, NULL, NULL, 12, res$seed)
  for (b in 1:12) {
    rows <- rep(seq_along(d$p), counts[b, ])
    expect_equal(res$replicates[b, 1, "ici"],
      ici_vec(d$p[rows], d$y[rows]),
      tolerance = 1e-12
    )
    expect_equal(res$replicates[b, 1, "aurc"],
      aurc_vec(d$p, loss, case_weights = counts[b, ]),
      tolerance = 1e-12
    )
  }
  # a block of counts from replicate `first` on is the same draws
  later <- aurc:::ci_bootstrap_counts(d$p, NULL, NULL, NULL, 5, res$seed,
    first = 7
  )
  expect_identical(later, counts[8:12, ])
  # the ICI replicates do not depend on the other metrics asked for
  set.seed(4)
  alone <- run_ci_bootstrap(list(d$p), loss, "ici", times = 12)
  expect_identical(alone$replicates[, 1, "ici"], res$replicates[, 1, "ici"])
})

test_that("weighted and clustered replicates weight the cases drawn", {
  d <- clinical_data(150, 5)
  w <- rep(c(1, 3), length.out = 150) # 300 rows: weights as counts
  cl <- rep(1:50, each = 3)
  set.seed(6)
  res <- run_ci_bootstrap(list(d$p), 1 - d$y,
    c("calibration_slope", "ici"),
    case_weights = w, cluster = cl, times = 6
  )
  counts <- aurc:::ci_bootstrap_counts(d$p, w, NULL, cl, 6, res$seed)
  for (b in 1:6) {
    keep <- counts[b, ] > 0
    expect_equal(res$replicates[b, 1, "calibration_slope"],
      calibration_slope_vec(d$p, d$y, case_weights = counts[b, ]),
      tolerance = 1e-10
    )
    # with case weights: the counts as case weights
    expect_equal(res$replicates[b, 1, "ici"],
      ici_vec(d$p[keep], d$y[keep], case_weights = counts[b, keep]),
      tolerance = 1e-12
    )
  }
})

test_that("the analytic slope and intercept intervals are the sandwich", {
  d <- clinical_data(400, 7)
  n <- 400
  x <- stats::qlogis(d$p)
  res <- selective_ci_vec(d$p, correct = d$y,
    metrics = c("calibration_slope", "calibration_intercept")
  )
  # the robust (HC0) sandwich of glm(), with the n / (n - 1) correction
  sandwich_se <- function(fit, k) {
    X <- stats::model.matrix(fit)
    mu <- stats::fitted(fit)
    r <- d$y - mu
    bread <- solve(crossprod(X, X * (mu * (1 - mu))))
    meat <- crossprod(X * r)
    v <- bread %*% meat %*% bread
    sqrt(v[k, k] * n / (n - 1))
  }
  ctl <- stats::glm.control(epsilon = 1e-14, maxit = 100)
  fit_s <- stats::glm(d$y ~ x, family = stats::binomial(), control = ctl)
  fit_i <- stats::glm(d$y ~ 1 + offset(x), family = stats::binomial(),
    control = ctl
  )
  expect_equal(res$.estimate, unname(c(coef(fit_s)[2], coef(fit_i)[1])),
    tolerance = 1e-8
  )
  expect_equal(res$.std_error,
    c(sandwich_se(fit_s, 2), sandwich_se(fit_i, 1)),
    tolerance = 1e-7
  )
  z <- stats::qnorm(0.975)
  expect_equal(res$.lower, res$.estimate - z * res$.std_error)
  # near the model-based standard error of glm() when the model holds
  model_se <- sqrt(diag(stats::vcov(fit_s)))[2]
  expect_lt(abs(res$.std_error[1] / model_se - 1), 0.15)
  # integer weights: the interval of the rows repeated
  w <- rep(1:3, length.out = n)
  rows <- rep(seq_len(n), w)
  a <- selective_ci_vec(d$p, correct = d$y, case_weights = w,
    metrics = c("calibration_slope", "calibration_intercept")
  )
  b <- selective_ci_vec(d$p[rows], correct = d$y[rows],
    metrics = c("calibration_slope", "calibration_intercept")
  )
  expect_equal(a$.std_error, b$.std_error, tolerance = 1e-9)
  expect_equal(a$.estimate, b$.estimate, tolerance = 1e-9)
})

test_that("the influence values are the derivative of the estimate", {
  d <- clinical_data(80, 8)
  w <- rep(1, 80)
  for (what in c("slope", "intercept")) {
    res <- aurc:::recalibration_influence(what, d$p, d$y, NULL, 1e-8, NULL)
    i <- 17
    h <- 1e-6
    w2 <- w
    w2[i] <- w2[i] + h
    input <- list(confidence = d$p, correct = d$y, case_weights = w2)
    moved <- aurc:::recalibration_fit(input, what, 1e-8, NULL)
    # d/dh T(w + h e_i) = (IF_i - mean IF) / N, and the IF has mean 0
    expect_equal((moved - res$estimate) / h * 80, res$influence[i],
      tolerance = 1e-4
    )
    expect_equal(mean(res$influence), 0, tolerance = 1e-10)
  }
})

test_that("BCa of the R metrics equals boot::boot.ci on the same replicates", {
  skip_if_not_installed("boot")
  d <- clinical_data(60, 9)
  f <- 1 - d$y
  n <- 60
  set.seed(10)
  res <- suppressWarnings(run_ci_bootstrap(list(d$p), f,
    c("ici", "emax", "calibration_slope"),
    times = 499, type = "bca", conf_level = 0.9
  ))
  for (m in c("ici", "emax", "calibration_slope")) {
    t0 <- clinical_vec(m, d$p, d$y)
    # without influence values given: the literal jackknife, one row
    # deleted at a time
    tj <- vapply(seq_len(n), function(i) {
      suppressWarnings(clinical_vec(m, d$p[-i], d$y[-i]))
    }, numeric(1))
    lv <- (n - 1) * (mean(tj) - tj)
    t <- res$replicates[, 1, m]
    expect_equal(unname(res$estimate[1, m]), t0, tolerance = 1e-12)
    bt <- list(t0 = t0, t = matrix(t), R = 499)
    ref <- suppressWarnings(
      boot::boot.ci(bt, conf = 0.9, type = "bca", L = lv)$bca
    )
    expect_equal(unname(res$lower[1, m]), ref[4], tolerance = 1e-9)
    expect_equal(unname(res$upper[1, m]), ref[5], tolerance = 1e-9)
  }
  # selective_ci() gives the slope its influence values
  idx <- t(replicate(499, sample.int(n, n, replace = TRUE)))
  ci <- selective_ci_vec(d$p, correct = d$y, metrics = "calibration_slope",
    method = "bootstrap", type = "bca", indices = idx, conf_level = 0.9
  )
  lv <- aurc:::recalibration_influence("slope", d$p, d$y, NULL, 1e-8,
    NULL
  )$influence
  bt <- list(t0 = ci$.estimate, t = attr(ci, "replicates"), R = 499)
  ref <- suppressWarnings(
    boot::boot.ci(bt, conf = 0.9, type = "bca", L = lv)$bca
  )
  expect_equal(c(ci$.lower, ci$.upper), ref[4:5], tolerance = 1e-9)
})

test_that("compare_scores() pairs the clinical summaries", {
  d <- clinical_data(300, 11)
  df <- data.frame(a = d$p, b = pmin(1, d$p * 1.03), y = d$y)
  # analytic: the paired difference of the influence values
  cmp <- compare_scores(df, c(a, b), correct = y, metric = "calibration_slope")
  ia <- aurc:::recalibration_influence("slope", df$a, d$y, NULL, 1e-8, NULL)
  ib <- aurc:::recalibration_influence("slope", df$b, d$y, NULL, 1e-8, NULL)
  dif <- ia$influence - ib$influence
  expect_equal(cmp$tests$difference, ia$estimate - ib$estimate,
    tolerance = 1e-12
  )
  expect_equal(cmp$tests$std_error, sd(dif) / sqrt(300),
    tolerance = 1e-10
  )
  expect_output(print(cmp), "calibration slope of a, b")
  # bootstrap: the same replicates for both scores
  idx <- t(replicate(30, sample.int(300, 300, replace = TRUE)))
  cmp <- compare_scores(df, c(a, b), correct = y, metric = "e90",
    method = "bootstrap", indices = idx
  )
  diffs <- apply(idx, 1, function(i) {
    e90_vec(df$a[i], d$y[i]) - e90_vec(df$b[i], d$y[i])
  })
  expect_equal(cmp$tests$std_error, sd(diffs), tolerance = 1e-10)
})

test_that("bad requests get classed errors", {
  d <- clinical_data(100, 12)
  expect_error(
    selective_ci_vec(d$p, correct = d$y, metrics = "ici"),
    class = "aurc_error_method"
  )
  expect_error(
    selective_ci_vec(d$p, correct = d$y, metrics = "ici",
      method = "bootstrap", span = 0, times = 10
    ),
    class = "aurc_error_value"
  )
  expect_error(
    selective_ci_vec(d$p, correct = d$y, metrics = "calibration_slope",
      eps = 0.7
    ),
    class = "aurc_error_value"
  )
  expect_error(
    selective_ci_vec(d$p * 2, correct = d$y, metrics = "calibration_slope"),
    class = "aurc_error_value"
  )
  big <- clinical_data(6000, 13)
  expect_error(
    selective_ci_vec(big$p, correct = big$y, metrics = "ici",
      method = "bootstrap", type = "bca", times = 10
    ),
    class = "aurc_error_size"
  )
  # an undefined slope (the confidence separates the outcomes): NA with
  # the slope's own warning, once
  p <- c(0.6, 0.7, 0.8, 0.9)
  expect_warning(
    res <- selective_ci_vec(p, correct = c(0, 0, 1, 1),
      metrics = "calibration_slope"
    ),
    class = "aurc_warning_undefined"
  )
  expect_true(is.na(res$.estimate) && is.na(res$.lower))
})

test_that("span and eps reach the metrics and their labels", {
  d <- clinical_data(300, 14)
  res <- selective_ci_vec(d$p, correct = d$y, metrics = c("ici", "emax"),
    method = "bootstrap", times = 20, span = 0.5
  )
  expect_equal(res$.estimate, c(
    ici_vec(d$p, d$y, span = 0.5), emax_vec(d$p, d$y, span = 0.5)
  ))
  expect_equal(res$.estimator, rep("loess/span=0.5", 2))
  res <- selective_ci_vec(pmin(d$p, 0.999), correct = d$y,
    metrics = "calibration_slope", eps = 0.01
  )
  expect_equal(res$.estimate,
    calibration_slope_vec(pmin(d$p, 0.999), d$y, eps = 0.01),
    tolerance = 1e-12
  )
  expect_equal(res$.estimator, "logistic/eps=0.01")
})

test_that("the analytic slope and intercept intervals cover (simulation)", {
  reps <- if (identical(Sys.getenv("AURC_SLOW_TESTS"), "true")) 1000 else
    200
  set.seed(15)
  hits <- matrix(FALSE, reps, 2)
  for (r in seq_len(reps)) {
    p <- stats::runif(500, 0.5, 0.97)
    # true slope 0.7 (for the slope) and true intercept -0.4 with slope 1
    ys <- stats::rbinom(500, 1, stats::plogis(0.7 * stats::qlogis(p)))
    yi <- stats::rbinom(500, 1, stats::plogis(-0.4 + stats::qlogis(p)))
    s <- selective_ci_vec(p, correct = ys, metrics = "calibration_slope")
    i <- selective_ci_vec(p, correct = yi, metrics = "calibration_intercept")
    hits[r, ] <- c(s$.lower <= 0.7 && 0.7 <= s$.upper,
      i$.lower <= -0.4 && -0.4 <= i$.upper)
  }
  cover <- colMeans(hits)
  # 95% intervals; the band is 3.5 binomial standard errors wide
  band <- 3.5 * sqrt(0.95 * 0.05 / reps)
  expect_true(all(abs(cover - 0.95) < band), info = paste(cover))
})
