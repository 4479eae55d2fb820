make_scores <- function(n = 400, seed = 31) {
  set.seed(seed)
  latent <- rnorm(n)
  data.frame(
    failure = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
    good = round(latent + rnorm(n, sd = 0.5), 1),
    poor = round(latent + rnorm(n, sd = 1.5), 1),
    noise = rnorm(n),
    loss = rexp(n) * plogis(-latent)
  )
}

test_that("DeLong's paired test equals pROC::roc.test", {
  skip_if_not_installed("pROC")
  for (seed in 1:3) {
    df <- make_scores(n = 150 * seed, seed = seed)
    cmp <- compare_scores(df, c(good, poor), failure,
      metric = "failure_auroc"
    )
    r1 <- pROC::roc(df$failure, df$good,
      levels = c(1, 0), direction = "<",
      quiet = TRUE
    )
    r2 <- pROC::roc(df$failure, df$poor,
      levels = c(1, 0), direction = "<",
      quiet = TRUE
    )
    t <- pROC::roc.test(r1, r2, method = "delong", paired = TRUE)
    expect_equal(cmp$tests$statistic, unname(t$statistic), tolerance = 1e-10)
    expect_equal(cmp$tests$p_value, t$p.value, tolerance = 1e-10)
    expect_equal(c(cmp$tests$lower, cmp$tests$upper),
      as.numeric(t$conf.int),
      tolerance = 1e-10
    )
    expect_equal(cmp$estimates$estimate, unname(t$estimate),
      tolerance = 1e-12
    )
  }
})

test_that("differences, SEs and adjusted p-values follow their definitions", {
  df <- make_scores()
  cmp <- compare_scores(df, c("good", "poor", "noise"), loss,
    p_adjust = "bonferroni"
  )
  expect_s3_class(cmp, "aurc_comparison")
  expect_equal(nrow(cmp$tests), 3)
  expect_equal(cmp$tests$score_a, c("good", "good", "poor"))
  expect_equal(cmp$tests$score_b, c("poor", "noise", "noise"))
  a <- metric_influence(df$good, df$loss, NULL, "aurc")
  b <- metric_influence(df$poor, df$loss, NULL, "aurc")
  expect_equal(cmp$tests$difference[1], a$estimate - b$estimate)
  expect_equal(cmp$tests$std_error[1],
    sd(a$influence - b$influence) / sqrt(nrow(df)),
    tolerance = 1e-12
  )
  expect_equal(cmp$tests$p_value,
    2 * pnorm(-abs(cmp$tests$difference / cmp$tests$std_error)),
    tolerance = 1e-12
  )
  expect_equal(cmp$tests$p_adjusted, p.adjust(cmp$tests$p_value, "bonferroni"))
  expect_equal(cmp$estimates$estimate, c(
    aurc_vec(df$good, df$loss), aurc_vec(df$poor, df$loss),
    aurc_vec(df$noise, df$loss)
  ))
  # selections by name, position range and c() agree
  expect_equal(compare_scores(df, good:noise, loss)$tests,
    compare_scores(df, c(good, poor, noise), loss)$tests)
})

test_that("the paired test holds its level under the null", {
  skip_on_cran()
  # two exchangeable scores: the difference in AURC has mean 0
  set.seed(32)
  p <- replicate(400, {
    n <- 300
    latent <- rnorm(n)
    f <- rbinom(n, 1, plogis(-1 - latent))
    df <- data.frame(
      f = f, a = latent + rnorm(n),
      b = latent + rnorm(n)
    )
    compare_scores(df, c(a, b), f)$tests$p_value
  })
  # 5 % level; the binomial sd over 400 sets is 1.1 %
  expect_lt(abs(mean(p < 0.05) - 0.05), 0.03)
})

test_that("grouped data frames, NA and weights", {
  df <- make_scores()
  df$g <- rep(c("x", "y"), nrow(df) / 2)
  out <- compare_scores(dplyr::group_by(df, g), c(good, poor), failure,
    metric = "augrc"
  )
  expect_equal(out$tests$g, c("x", "y"))
  one <- compare_scores(df[df$g == "y", ], c(good, poor), failure,
    metric = "augrc"
  )
  expect_equal(out$tests$p_value[2], one$tests$p_value)
  df2 <- df
  df2$good[3] <- NA
  out <- compare_scores(df2, c(good, poor), failure)
  expect_true(all(is.na(out$tests$p_value)))
  expect_equal(
    compare_scores(df2, c(good, poor), failure, na_rm = TRUE)$tests,
    compare_scores(df2[-3, ], c(good, poor), failure)$tests
  )
  w <- rep(1:2, nrow(df) / 2)
  df$w <- w
  rows <- rep(seq_len(nrow(df)), w)
  expect_equal(
    compare_scores(df, c(good, poor), failure, case_weights = w)$tests,
    compare_scores(df[rows, ], c(good, poor), failure)$tests,
    tolerance = 1e-10
  )
})

test_that("print and autoplot", {
  df <- make_scores()
  cmp <- compare_scores(df, c(good, poor, noise), failure)
  expect_snapshot(print(cmp))
  p <- autoplot(cmp)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  expect_equal(nrow(b$data[[2]]), 3) # one interval per pair
  expect_equal(sort(b$data[[3]]$x), sort(cmp$tests$difference))
  expect_equal(b$data[[1]]$xintercept, 0)
  df$g <- rep(c("x", "y"), nrow(df) / 2)
  pg <- autoplot(compare_scores(dplyr::group_by(df, g), c(good, poor), failure))
  expect_equal(length(unique(ggplot2::ggplot_build(pg)$data[[2]]$PANEL)), 2)
})

test_that("bad input", {
  df <- make_scores(50)
  expect_snapshot(error = TRUE, compare_scores(df, good, failure))
  expect_snapshot(error = TRUE, compare_scores(df, c(good, nope), failure))
  expect_error(compare_scores(df, c(good, poor), failure, p_adjust = "x"),
    class = "aurc_error_value"
  )
  expect_error(compare_scores(df, c(good, poor), failure,
    metric = c("aurc", "augrc")
  ), class = "aurc_error_type")
  expect_error(compare_scores(df, c(good, poor), failure, conf_level = 2),
    class = "aurc_error_value"
  )
  df$txt <- "a"
  expect_error(compare_scores(df, c(good, txt), failure), class = "aurc_error")
  df$one <- 0
  expect_warning(
    out <- compare_scores(df, c(good, poor), one, metric = "failure_auroc"),
    class = "aurc_warning_one_class"
  )
  expect_true(is.na(out$tests$p_value))
})

make_models <- function(n = 1000, seed = 7) {
  set.seed(seed)
  latent <- rnorm(n)
  # two models on the same cases: each has its own failures and confidence
  data.frame(
    fail_a = rbinom(n, 1, plogis(-1.2 - 1.5 * latent)),
    fail_b = rbinom(n, 1, plogis(-0.8 - 1.2 * latent)),
    conf_a = round(latent + rnorm(n, sd = 0.6), 1),
    conf_b = round(latent + rnorm(n, sd = 0.9), 1)
  )
}

test_that("models with their own losses: estimates and SEs by definition", {
  df <- make_models(600)
  for (metric in c("aurc", "augrc", "failure_auroc")) {
    cmp <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b),
      metric = metric
    )
    a <- metric_influence(df$conf_a, df$fail_a, NULL, metric)
    b <- metric_influence(df$conf_b, df$fail_b, NULL, metric)
    expect_equal(cmp$estimates$estimate, c(a$estimate, b$estimate),
      tolerance = 1e-12
    )
    expect_equal(cmp$tests$difference, a$estimate - b$estimate,
      tolerance = 1e-12
    )
    # the difference is not stratified: the failures differ between models
    expect_equal(cmp$tests$std_error,
      sd(a$influence - b$influence) / sqrt(nrow(df)),
      tolerance = 1e-10
    )
    expect_equal(cmp$settings$losses, c("fail_a", "fail_b"))
  }
  expect_equal(
    compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b))$estimates$estimate,
    c(aurc_vec(df$conf_a, df$fail_a), aurc_vec(df$conf_b, df$fail_b)),
    tolerance = 1e-12
  )
  # selections by name and c() agree
  expect_equal(
    compare_scores(df, c("conf_a", "conf_b"), c("fail_a", "fail_b"))$tests,
    compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b))$tests
  )
})

test_that("two models with the same failures: pROC's paired DeLong test", {
  skip_if_not_installed("pROC")
  df <- make_models(800, seed = 11)
  df$fail_copy <- df$fail_a
  cmp <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_copy),
    metric = "failure_auroc"
  )
  r1 <- pROC::roc(df$fail_a, df$conf_a,
    levels = c(1, 0), direction = "<", quiet = TRUE
  )
  r2 <- pROC::roc(df$fail_copy, df$conf_b,
    levels = c(1, 0), direction = "<", quiet = TRUE
  )
  t <- pROC::roc.test(r1, r2, method = "delong", paired = TRUE)
  expect_equal(cmp$tests$statistic, unname(t$statistic), tolerance = 1e-10)
  expect_equal(cmp$tests$p_value, t$p.value, tolerance = 1e-10)
  expect_equal(c(cmp$tests$lower, cmp$tests$upper), as.numeric(t$conf.int),
    tolerance = 1e-10
  )
})

test_that("identical inputs: difference 0 and p = 1, as pROC", {
  df <- make_models(300)
  df$conf_a2 <- df$conf_a
  for (method in c("analytic", "bootstrap")) {
    cmp <- if (method == "analytic") {
      compare_scores(df, c(conf_a, conf_a2), fail_a, metric = "failure_auroc")
    } else {
      compare_scores(df, c(conf_a, conf_a2), fail_a,
        metric = "failure_auroc", method = "bootstrap", times = 200
      )
    }
    expect_equal(cmp$tests$difference, 0)
    expect_equal(cmp$tests$statistic, 0)
    expect_equal(cmp$tests$p_value, 1)
  }
  skip_if_not_installed("pROC")
  r <- pROC::roc(df$fail_a, df$conf_a,
    levels = c(1, 0), direction = "<", quiet = TRUE
  )
  expect_equal(suppressWarnings(pROC::roc.test(r, r, paired = TRUE))$p.value,
    1
  )
})

test_that("models' bootstrap: the same cases for both, each with its loss", {
  df <- make_models(200, seed = 3)
  set.seed(5)
  idx <- matrix(sample.int(nrow(df), 150 * nrow(df), replace = TRUE), 150)
  cmp <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b),
    metric = "augrc", method = "bootstrap", indices = idx
  )
  d <- apply(idx, 1, function(i) {
    augrc_vec(df$conf_a[i], df$fail_a[i]) -
      augrc_vec(df$conf_b[i], df$fail_b[i])
  })
  expect_equal(cmp$tests$std_error, sd(d), tolerance = 1e-10)
  expect_equal(cmp$estimates$estimate, c(
    augrc_vec(df$conf_a, df$fail_a), augrc_vec(df$conf_b, df$fail_b)
  ), tolerance = 1e-12)
})

test_that("the analytic SE of a model difference agrees with the bootstrap", {
  df <- make_models(1500, seed = 21)
  for (metric in c("aurc", "failure_auroc")) {
    an <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b),
      metric = metric
    )
    set.seed(1)
    bs <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b),
      metric = metric, method = "bootstrap", times = 10000
    )
    expect_lt(abs(an$tests$std_error / bs$tests$std_error - 1), 0.10)
  }
})

test_that("calibration errors take correct = as ece() does", {
  set.seed(4)
  n <- 500
  df <- data.frame(
    p_a = runif(n, 0.5, 1), p_b = runif(n, 0.5, 1)
  )
  df$correct <- rbinom(n, 1, df$p_a^1.5)
  a <- compare_scores(df, c(p_a, p_b), correct = correct, metric = "ece")
  b <- compare_scores(df, c(p_a, p_b), 1 - correct, metric = "ece")
  expect_equal(a$tests, b$tests)
  # a correctness given as the loss of a calibration error warns
  expect_warning(
    compare_scores(df, c(p_a, p_b), correct, metric = "ece"),
    class = "aurc_warning_convention"
  )
})

test_that("bad loss selections", {
  df <- make_models(100)
  df$fail_c <- df$fail_a
  expect_snapshot(error = TRUE,
    compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b, fail_c))
  )
  expect_snapshot(error = TRUE,
    compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b), correct = fail_c)
  )
  expect_error(compare_scores(df, c(conf_a, conf_b)),
    class = "aurc_error_missing"
  )
  expect_error(compare_scores(df, c(conf_a, conf_b), c(fail_a, nope)),
    class = "aurc_error_column"
  )
})

test_that("the comparison plot says which direction is better", {
  set.seed(31)
  n <- 300
  df <- data.frame(f = stats::rbinom(n, 1, 0.3), a = stats::runif(n),
    b = stats::runif(n))
  p1 <- ggplot2::autoplot(compare_scores(df, c(a, b), f, metric = "aurc"))
  expect_match(p1$labels$caption, "lower is better")
  p2 <- ggplot2::autoplot(compare_scores(df, c(a, b), f,
    metric = "failure_auroc"
  ))
  expect_match(p2$labels$caption, "higher is better")
  expect_equal(aurc:::metric_direction("ece"), "minimize")
  expect_equal(aurc:::metric_direction("coverage_at_risk"), "maximize")
})

test_that("correct = and quality = take one column per model too", {
  df <- make_models(300)
  df$ok_a <- df$fail_a == 0
  df$ok_b <- 1 - df$fail_b
  want <- compare_scores(df, c(conf_a, conf_b), c(fail_a, fail_b))
  got <- compare_scores(df, c(conf_a, conf_b), correct = c(ok_a, ok_b))
  expect_identical(got$tests, want$tests)
  expect_identical(got$settings$losses, c("1 - ok_a", "1 - ok_b"))
  got <- compare_scores(df, c(conf_a, conf_b), quality = c(ok_a, ok_b))
  expect_identical(got$tests, want$tests)
  expect_error(
    compare_scores(df, c(conf_a, conf_b), correct = c(ok_a, conf_b)),
    class = "aurc_error_value"
  )
})
