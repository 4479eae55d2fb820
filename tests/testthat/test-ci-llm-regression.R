# The AUSE and the LLM metrics in the catalog: selective_ci(),
# selective_ci_vec(), compare_scores() and compare_groups() (R/ci-llm-
# regression.R, R/ci-influence-ause.R, R/ci-influence-llm.R).

llm_data <- function(n = 60, seed = 1) {
  set.seed(seed)
  s <- round(stats::runif(n), 1) # ties
  q <- round(pmin(1, pmax(0, 0.45 + 0.4 * s + stats::rnorm(n, sd = 0.2))), 1)
  e <- round(abs(stats::rnorm(n, sd = 1.1 - s)), 1)
  list(s = s, s2 = round(s + stats::rnorm(n, sd = 0.3), 1), q = q, e = e)
}

# The vector form of each metric on a confidence s and outcome y (the
# error for the AUSE, the quality for the others).
llm_vec <- function(m, s, y, threshold = 0.6, definition = "ilg",
                    n_bins = 20, p = 1, na_rm = FALSE, case_weights = NULL) {
  switch(m,
    ause = ause_vec(-s, y, definition = definition, na_rm = na_rm,
      case_weights = case_weights
    ),
    rank_calibration_error = rank_calibration_error_vec(s, y,
      n_bins = n_bins, p = p, na_rm = na_rm
    ),
    spearman = , kendall = uncertainty_correlation_vec(s, y, method = m,
      na_rm = na_rm
    ),
    quality_auroc = quality_auroc_vec(s, y, threshold, na_rm = na_rm,
      case_weights = case_weights
    ),
    quality_aupr = quality_aupr_vec(s, y, threshold, na_rm = na_rm,
      case_weights = case_weights
    )
  )
}

# `times` for the bootstrap only (it is ignored, with a warning, otherwise)
llm_times <- function(method) if (method == "bootstrap") list(times = 20)

llm_metrics <- c("rank_calibration_error", "spearman", "kendall",
  "quality_auroc", "quality_aupr")

test_that("the catalog rows of the AUSE and the LLM metrics", {
  info <- metric_info(c("ause", llm_metrics))
  expect_identical(info$family, c("regression", rep("llm", 5)))
  expect_identical(info$input, c("loss", rep("quality", 5)))
  expect_identical(info$direction,
    c("minimize", "minimize", rep("maximize", 4)))
  expect_identical(info$analytic_interval,
    c(TRUE, FALSE, TRUE, TRUE, TRUE, FALSE))
  expect_true(all(info$bootstrap_interval & info$compare_scores &
    info$compare_groups))
  expect_false(any(info$database | info$selective_metrics |
    info$bootstrap_ranking | info$selective_power))
  expect_identical(info$weights,
    c("counts", "none", "none", "none", "scale_free", "scale_free"))
  expect_identical(info$options[[1]], "definition")
  expect_identical(info$options[[2]], c("n_bins", "p"))
})

test_that("hand-computed AUSE and correlations through selective_ci_vec()", {
  # torch-uncertainty's test data: Ilg's AUSE by hand. Uncertainty
  # 0.2 0.1 0.5 0.3 0.4, errors 0.1 0.2 0.3 0.4 0.5. Removing the most
  # uncertain first removes the errors 0.3, 0.5, 0.4, 0.1 in turn: the
  # mean error kept for k = 0..4 removed is 0.3, 0.3, 0.7/3, 0.15, 0.2.
  # The oracle removes 0.5, 0.4, 0.3, 0.2: 0.3, 0.25, 0.2, 0.15, 0.1.
  # AUSE = (0 + 0.05 + (0.7/3 - 0.2) + 0 + 0.1) / 5.
  u <- c(0.2, 0.1, 0.5, 0.3, 0.4)
  e <- c(0.1, 0.2, 0.3, 0.4, 0.5)
  hand <- (0.05 + (0.7 / 3 - 0.2) + 0.1) / 5
  ci <- selective_ci_vec(-u, e, metrics = "ause")
  expect_equal(ci$.estimate, hand, tolerance = 1e-14)
  expect_identical(ci$.estimator, "ilg")
  # Spearman and Kendall of 4 outputs by hand: score ranks 4 3 2 1,
  # quality ranks 1 3 2 4, d = (3, 0, 0, -3): rho = 1 - 6 sum d^2 /
  # (n (n^2 - 1)) = 1 - 6 * 18 / 60 = -0.8; of the 6 pairs only (2, 3)
  # is concordant: tau = (1 - 5) / 6.
  s <- c(4, 3, 2, 1) / 10
  q <- c(1, 3, 2, 4) / 10
  ci <- selective_ci_vec(s, quality = q, metrics = c("spearman", "kendall"))
  expect_equal(ci$.estimate, c(-0.8, -4 / 6), tolerance = 1e-14)
})

test_that("interval estimates equal the vector forms exactly", {
  d <- llm_data()
  for (def in c("ilg", "torch_uncertainty")) {
    ref <- ause_vec(-d$s, d$e, definition = def)
    for (method in c("analytic", "bootstrap")) {
      ci <- do.call(selective_ci_vec, c(list(d$s, d$e, metrics = "ause",
        definition = def, method = method), llm_times(method)))
      expect_identical(ci$.estimate, ref)
      expect_identical(ci$.estimator, def)
    }
    # the analytic interval is ause_ci_vec()'s
    a <- selective_ci_vec(d$s, d$e, metrics = "ause", definition = def)
    b <- ause_ci_vec(-d$s, d$e, definition = def)
    # (the same influence values, summed in another order)
    expect_equal(a$.std_error, b$.std_error, tolerance = 1e-12)
  }
  for (m in llm_metrics) {
    ref <- llm_vec(m, d$s, d$q)
    for (method in c("analytic", "bootstrap")) {
      if (method == "analytic" && !metric_info(m)$analytic_interval) next
      ci <- do.call(selective_ci_vec, c(list(d$s, quality = d$q,
        metrics = m, threshold = 0.6, method = method), llm_times(method)))
      expect_identical(ci$.estimate, ref, info = paste(m, method))
    }
  }
  ci <- selective_ci_vec(d$s, quality = d$q,
    metrics = "rank_calibration_error", n_bins = 7, p = 2,
    method = "bootstrap", times = 20
  )
  expect_identical(ci$.estimate, llm_vec("rank_calibration_error", d$s,
    d$q, n_bins = 7, p = 2))
  expect_identical(ci$.estimator, "n_bins=7/p=2")
  # NA removed
  sn <- replace(d$s, c(3, 9), NA)
  ci <- selective_ci_vec(sn, quality = d$q, metrics = "kendall",
    na_rm = TRUE
  )
  expect_identical(ci$.estimate, llm_vec("kendall", sn, d$q, na_rm = TRUE))
  expect_true(is.na(selective_ci_vec(sn, d$e, metrics = "ause")$.estimate))
})

test_that("data-frame, grouped and comparison forms equal the vector forms", {
  skip_if_not_installed("dplyr")
  d <- llm_data()
  df <- data.frame(s = d$s, s2 = d$s2, q = d$q, e = d$e,
    g = rep(c("a", "b"), 30))
  for (m in c("ause", llm_metrics)) {
    y <- if (m == "ause") "e" else "q"
    args <- list(metrics = m, threshold = 0.6, method = "bootstrap",
      times = 20)
    by <- if (m == "ause") list(quote(e)) else list(quality = quote(q))
    one <- do.call(selective_ci, c(list(df, quote(s)), by, args))
    expect_identical(one$.estimate, llm_vec(m, df$s, df[[y]]), info = m)
    grouped <- do.call(selective_ci,
      c(list(dplyr::group_by(df, g), quote(s)), by, args)
    )
    for (k in c("a", "b")) {
      r <- df$g == k
      expect_identical(grouped$.estimate[grouped$g == k],
        llm_vec(m, df$s[r], df[[y]][r]), info = m)
    }
    for (method in c("analytic", "bootstrap")) {
      if (method == "analytic" && !metric_info(m)$analytic_interval) next
      # (the rank-calibration error's tests warn that they are rough)
      cmp <- suppressWarnings(
        do.call(compare_scores, c(list(df, quote(c(s, s2))), by,
          list(metric = m, threshold = 0.6, method = method),
          llm_times(method))),
        classes = "aurc_warning_rough_test"
      )
      expect_identical(cmp$estimates$estimate,
        c(llm_vec(m, df$s, df[[y]]), llm_vec(m, df$s2, df[[y]])),
        info = paste(m, method))
      expect_equal(cmp$tests$difference,
        llm_vec(m, df$s, df[[y]]) - llm_vec(m, df$s2, df[[y]]))
      grp <- suppressWarnings(
        do.call(compare_groups, c(list(df, quote(s)), by,
          list(group = quote(g), metric = m, threshold = 0.6,
            method = method), llm_times(method))),
        classes = "aurc_warning_rough_test"
      )
      expect_identical(grp$groups$estimate, c(
        llm_vec(m, df$s[df$g == "a"], df[[y]][df$g == "a"]),
        llm_vec(m, df$s[df$g == "b"], df[[y]][df$g == "b"])
      ), info = paste(m, method))
    }
  }
})

test_that("each bootstrap replicate is the metric of the rows it draws", {
  d <- llm_data(40, seed = 4)
  n <- length(d$s)
  set.seed(5)
  idx <- matrix(sample.int(n, 8 * n, replace = TRUE), 8)
  for (def in c("ilg", "torch_uncertainty")) {
    ci <- selective_ci_vec(d$s, d$e, metrics = "ause", definition = def,
      method = "bootstrap", indices = idx
    )
    reps <- attr(ci, "replicates")[, 1]
    for (b in seq_len(nrow(idx))) {
      r <- sort(idx[b, ])
      expect_equal(reps[b], ause_vec(-d$s[r], d$e[r], definition = def),
        tolerance = 1e-12, info = def)
    }
  }
  ci <- selective_ci_vec(d$s, quality = d$q, metrics = llm_metrics,
    threshold = 0.6, n_bins = 6, method = "bootstrap", indices = idx
  )
  reps <- attr(ci, "replicates")
  for (b in seq_len(nrow(idx))) {
    r <- sort(idx[b, ]) # the rows drawn, in input order (ties as the RCE)
    for (m in llm_metrics) {
      expect_equal(unname(reps[b, m]), llm_vec(m, d$s[r], d$q[r], n_bins = 6),
        tolerance = 1e-12, info = m)
    }
  }
})

# The weighted functional of Spearman's rho (weights summing to 1): the
# grades F(x_i) = sum_j w_j (1(x_j < x_i) + 1(x_j = x_i) / 2).
spearman_functional <- function(x, y, w) {
  a <- vapply(x, function(v) sum(w * ((x < v) + (x == v) / 2)), 0)
  b <- vapply(y, function(v) sum(w * ((y < v) + (y == v) / 2)), 0)
  t1 <- sum(w * a * b)
  t2 <- sum(w * a^2)
  t3 <- sum(w * b^2)
  (t1 - 1 / 4) / sqrt((t2 - 1 / 4) * (t3 - 1 / 4))
}

test_that("Spearman's influence values are the functional's derivative", {
  set.seed(6)
  n <- 25
  x <- round(stats::runif(n), 1)
  y <- round(pmin(1, pmax(0, x + stats::rnorm(n, sd = 0.3))), 1)
  w0 <- rep(1 / n, n)
  expect_equal(spearman_functional(x, y, w0),
    stats::cor(x, y, method = "spearman"), tolerance = 1e-12)
  h <- 1e-6
  literal <- vapply(seq_len(n), function(i) {
    w <- (1 - h) * w0
    w[i] <- w[i] + h
    (spearman_functional(x, y, w) - spearman_functional(x, y, w0)) / h
  }, 0)
  expect_equal(aurc:::spearman_rho_influence(x, y)$influence, literal,
    tolerance = 1e-4)
  # and the interval's standard error is the influence values'
  ci <- selective_ci_vec(x, quality = y, metrics = "spearman")
  expect_equal(ci$.std_error,
    sqrt(sum(literal^2) * n / (n - 1)) / n, tolerance = 1e-4)
})

test_that("Kendall's influence values are the V-statistics' derivatives", {
  set.seed(7)
  n <- 20
  x <- round(stats::runif(n), 1)
  y <- round(pmin(1, pmax(0, x + stats::rnorm(n, sd = 0.3))), 1)
  # literal, pair by pair: A, B, C the means over all n^2 pairs of
  # sign(dx) sign(dy), 1(dx != 0), 1(dy != 0)
  cc <- tx <- ty <- numeric(n)
  for (i in 1:n) for (j in 1:n) {
    cc[i] <- cc[i] + sign(x[i] - x[j]) * sign(y[i] - y[j])
    tx[i] <- tx[i] + (x[i] != x[j])
    ty[i] <- ty[i] + (y[i] != y[j])
  }
  a <- sum(cc) / n^2
  b <- sum(tx) / n^2
  cy <- sum(ty) / n^2
  tau <- a / sqrt(b * cy)
  expect_equal(tau, stats::cor(x, y, method = "kendall"), tolerance = 1e-12)
  literal <- 2 * (cc / n - a) / sqrt(b * cy) -
    tau / 2 * (2 * (tx / n - b) / b + 2 * (ty / n - cy) / cy)
  ci <- selective_ci_vec(x, quality = y, metrics = "kendall")
  expect_equal(ci$.std_error, sqrt(sum(literal^2) / (n * (n - 1))),
    tolerance = 1e-12)
  # the standard error of uncertainty_correlation_ci()'s influence
  # interval (there on Fisher's z scale)
  uc <- uncertainty_correlation_ci(x, y, method = "kendall")
  expect_equal(ci$.std_error, uc$.std_error * (1 - tau^2),
    tolerance = 1e-12)
  # and the jackknife agrees to first order
  jack <- vapply(1:n, function(i) {
    stats::cor(x[-i], y[-i], method = "kendall")
  }, 0)
  se_jack <- sqrt((n - 1) / n * sum((jack - mean(jack))^2))
  expect_equal(ci$.std_error, se_jack, tolerance = 0.25)
})

test_that("the AUSE's standard errors agree with the jackknife", {
  set.seed(8)
  n <- 80
  sig <- stats::runif(n, 0.2, 2)
  e <- round(abs(stats::rnorm(n, sd = sig)), 1)
  u <- round(sig * exp(stats::rnorm(n, sd = 0.4)), 1)
  for (def in c("ilg", "torch_uncertainty")) {
    jack <- vapply(1:n, function(i) {
      ause_vec(u[-i], e[-i], definition = def)
    }, 0)
    se_jack <- sqrt((n - 1) / n * sum((jack - mean(jack))^2))
    se <- selective_ci_vec(-u, e, metrics = "ause",
      definition = def)$.std_error
    expect_equal(se, se_jack, tolerance = 0.25, info = def)
  }
})

test_that("options are validated and weights refused where not taken", {
  d <- llm_data()
  expect_error(selective_ci_vec(d$s, d$e, metrics = "ause",
    definition = "ILG"), class = "aurc_error")
  expect_error(selective_ci_vec(d$s, quality = d$q,
    metrics = "rank_calibration_error", p = 3, method = "bootstrap",
    times = 5), "p", class = "aurc_error_value")
  expect_error(selective_ci_vec(d$s, quality = d$q,
    metrics = "quality_auroc"), "threshold", class = "aurc_error_missing")
  expect_error(selective_ci_vec(d$s, quality = d$q,
    metrics = "rank_calibration_error"), class = "aurc_error_method")
  w <- rep(c(1, 2), 30)
  for (m in c("rank_calibration_error", "spearman", "kendall")) {
    expect_error(selective_ci_vec(d$s, quality = d$q, metrics = m,
      method = "bootstrap", times = 5, case_weights = w),
      "case_weights", class = "aurc_error_weights")
    expect_error(compare_scores(data.frame(a = d$s, b = d$s2, q = d$q,
      w = w), c(a, b), quality = q, metric = m, method = "bootstrap",
      times = 5, case_weights = w), "case_weights",
      class = "aurc_error_weights")
    # weights of 1 are no weights
    expect_identical(selective_ci_vec(d$s, quality = d$q, metrics = m,
      method = "bootstrap", times = 5, case_weights = rep(1, 60))$.estimate,
      llm_vec(m, d$s, d$q))
  }
  # torch-uncertainty's AUSE counts rows: whole weights only
  expect_error(selective_ci_vec(d$s, d$e, metrics = "ause",
    definition = "torch_uncertainty", case_weights = w / 4),
    "case_weights", class = "aurc_error_value")
  # whole weights are repeated rows
  r <- rep(seq_along(w), w)
  for (def in c("ilg", "torch_uncertainty")) {
    expect_equal(selective_ci_vec(d$s, d$e, metrics = "ause",
      definition = def, case_weights = w)$.estimate,
      ause_vec(-d$s[r], d$e[r], definition = def), tolerance = 1e-12)
  }
  expect_equal(selective_ci_vec(d$s, quality = d$q, metrics = "quality_auroc",
    threshold = 0.6, case_weights = w)$.estimate,
    quality_auroc_vec(d$s[r], d$q[r], 0.6), tolerance = 1e-12)
})

test_that("lazy database tables say to collect first", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  d <- llm_data()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", data.frame(s = d$s, s2 = d$s2, q = d$q,
    e = d$e, g = 1:2))
  tb <- dplyr::tbl(con, "t")
  expect_error(selective_ci(tb, s, e, metrics = "ause"), "collect",
    class = "aurc_error_type")
  expect_error(compare_scores(tb, c(s, s2), quality = q, metric = "kendall"),
    "collect", class = "aurc_error_type")
  expect_error(compare_groups(tb, s, quality = q, group = g,
    metric = "spearman"), "collect", class = "aurc_error_type")
  expect_error(ause(tb, s, e), "collect", class = "aurc_error_type")
})

test_that("coverage of the analytic intervals and level of the paired test", {
  skip_on_cran()
  # bivariate normal: Spearman's rho_s = (6 / pi) asin(r / 2), Kendall's
  # tau = (2 / pi) asin(r)
  set.seed(9)
  r <- 0.5
  truth <- c(spearman = 6 / pi * asin(r / 2), kendall = 2 / pi * asin(r))
  hits <- matrix(NA, 200, 2, dimnames = list(NULL, names(truth)))
  for (b in 1:200) {
    x <- stats::rnorm(150)
    y <- r * x + sqrt(1 - r^2) * stats::rnorm(150)
    ci <- selective_ci_vec(x, quality = stats::pnorm(y),
      metrics = c("spearman", "kendall"))
    hits[b, ] <- ci$.lower <= truth & truth <= ci$.upper
  }
  cov <- colMeans(hits)
  expect_true(all(cov > 0.89 & cov < 0.99), info = paste(cov, collapse = " "))
  # the paired test of two exchangeable uncertainty measures: its level
  rej <- matrix(NA, 200, 2)
  for (b in 1:200) {
    n <- 150
    sig <- stats::runif(n, 0.2, 2)
    e <- abs(stats::rnorm(n, sd = sig))
    q <- stats::pnorm(-e + stats::rnorm(n, sd = 0.5))
    d <- data.frame(a = -sig * exp(stats::rnorm(n, sd = 0.5)),
      b = -sig * exp(stats::rnorm(n, sd = 0.5)), e = e, q = q)
    rej[b, 1] <- compare_scores(d, c(a, b), e, metric = "ause")$tests$p_value <
      0.05
    rej[b, 2] <- compare_scores(d, c(a, b), quality = q,
      metric = "kendall")$tests$p_value < 0.05
  }
  level <- colMeans(rej)
  expect_true(all(level < 0.11), info = paste(level, collapse = " "))
})

test_that("torch-uncertainty's AUSE with weights standing for 2^600 rows", {
  set.seed(10)
  u <- stats::runif(40)
  e <- stats::rexp(40)
  w <- round(stats::runif(40, 1, 4))
  # beyond 2^500 rows from the shares; the same value as at 2^60 rows up
  # to the 1 / N terms
  big <- ause_vec(u, e, definition = "torch_uncertainty",
    case_weights = w * 2^600)
  expect_true(is.finite(big))
  expect_equal(big, ause_vec(u, e, definition = "torch_uncertainty",
    case_weights = w * 2^60), tolerance = 1e-12)
})

test_that("tests of the rank-calibration error come with a classed warning", {
  set.seed(7)
  d <- data.frame(a = stats::runif(60), b = stats::runif(60),
    q = stats::runif(60), g = rep(1:2, 30))
  expect_warning(
    compare_scores(d, c(a, b), quality = q,
      metric = "rank_calibration_error", method = "bootstrap", times = 20
    ),
    class = "aurc_warning_rough_test"
  )
  expect_warning(
    compare_groups(d, a, quality = q, group = g,
      metric = "rank_calibration_error", method = "bootstrap", times = 20
    ),
    class = "aurc_warning_rough_test"
  )
  # the other LLM metrics' tests keep their level: no such warning
  expect_no_warning(
    compare_scores(d, c(a, b), quality = q, metric = "spearman"),
    class = "aurc_warning_rough_test"
  )
})
