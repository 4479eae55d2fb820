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
