calibration_test_data <- function() {
  set.seed(31)
  sizes <- c(120, 3, 60, 250)
  g <- rep(seq_along(sizes), sizes)
  n <- length(g)
  conf <- round(stats::runif(n, 0.3, 1), 2)
  data.frame(
    g = g, conf = conf, correct = stats::rbinom(n, 1, conf^1.5),
    w = stats::runif(n)
  )
}

binning_cases <- list(
  list(binning = "adaptive"),
  list(binning = "equal_width", n_bins = 7),
  list(binning = "equal_mass", n_bins = 4),
  list(breaks = c(0, 0.5, 0.8, 0.9, 1)),
  list(binning = "adaptive", min_remaining = 10, min_range = 0.02)
)

test_that("calibration_bins_df() equals calibration_bins() group by group", {
  skip_if_not_installed("dplyr")
  df <- calibration_test_data()
  df$conf[5] <- NA
  df <- df[sample(nrow(df)), ]
  gdf <- dplyr::group_by(df, g)
  for (case in binning_cases) {
    for (weighted in c(FALSE, TRUE)) {
      args <- c(case, list(na_rm = TRUE))
      got <- do.call(calibration_bins_df, c(
        list(gdf, quote(conf), quote(correct)),
        if (weighted) list(case_weights = quote(w)), args
      ))
      for (k in unique(df$g)) {
        x <- df[df$g == k, ]
        want <- do.call(calibration_bins_vec, c(
          list(x$conf, x$correct),
          if (weighted) list(case_weights = x$w), args
        ))
        mine <- got[got$g == k, -1]
        want <- as.data.frame(want[seq_len(nrow(want)), ])
        expect_equal(as.data.frame(mine), want,
          tolerance = 1e-14, info = paste(names(case), k, weighted)
        )
      }
    }
  }
  # ungrouped: one table without grouping columns
  one <- calibration_bins_df(df, conf, correct, na_rm = TRUE)
  expect_named(one, names(calibration_bins_vec(0.5, 1)))
})

test_that("ece() and mce() on groups equal the vector forms", {
  skip_if_not_installed("dplyr")
  df <- calibration_test_data()
  df$w[df$g == 2] <- 0
  df$correct[7] <- NA
  gdf <- dplyr::group_by(df, g)
  for (case in binning_cases) {
    for (na_rm in c(FALSE, TRUE)) {
      args <- c(case, list(na_rm = na_rm))
      for (metric in c("ece", "mce")) {
        f <- getExportedValue("aurc", metric)
        fv <- getExportedValue("aurc", paste0(metric, "_vec"))
        got <- suppressWarnings(do.call(f, c(
          list(gdf, quote(conf), quote(correct), case_weights = quote(w)), args
        )))
        want <- suppressWarnings(vapply(split(df, df$g), function(x) {
          do.call(fv, c(list(x$conf, x$correct, case_weights = x$w), args))
        }, numeric(1)))
        expect_equal(got$.estimate, unname(want), tolerance = 1e-14)
        expect_identical(is.na(got$.estimate), c(!na_rm, TRUE, FALSE, FALSE))
      }
    }
  }
  expect_warning(ece(gdf, conf, correct, case_weights = w, na_rm = TRUE),
    class = "aurc_warning_no_data"
  )
})

test_that("a probability matrix with labels is top-label calibration", {
  set.seed(4)
  z <- matrix(stats::rnorm(900), 300, 3)
  p <- round(exp(z) / rowSums(exp(z)), 2)
  p[, 3] <- 1 - p[, 1] - p[, 2]
  neg <- p[, 3] < 0
  if (any(neg)) p[neg, ] <- rep(c(0.5, 0.5, 0), each = sum(neg))
  labels <- sample(3, 300, TRUE)
  conf <- apply(p, 1, max)
  top <- apply(p, 1, function(r) which(r == max(r))[1])
  correct <- as.numeric(top == labels)
  for (binning in c("adaptive", "equal_width")) {
    expect_equal(ece_vec(p, labels, binning = binning),
      ece_vec(conf, correct, binning = binning),
      tolerance = 1e-14
    )
    expect_equal(mce_vec(p, labels, binning = binning),
      mce_vec(conf, correct, binning = binning),
      tolerance = 1e-14
    )
  }
  expect_equal(
    as.data.frame(calibration_bins_vec(p, factor(labels))),
    as.data.frame(calibration_bins_vec(conf, correct))
  )
  p[2, ] <- NA
  expect_identical(ece_vec(p, labels), NA_real_)
  expect_equal(ece_vec(p, labels, na_rm = TRUE),
    ece_vec(conf[-2], correct[-2]),
    tolerance = 1e-14
  )
})

test_that("ece_prob() and mce_prob() are yardstick metrics of the top label", {
  skip_if_not_installed("dplyr")
  set.seed(8)
  n <- 400
  p1 <- round(stats::runif(n), 2)
  truth <- factor(ifelse(stats::runif(n) < p1^2, "yes", "no"), c("yes", "no"))
  df <- data.frame(
    model = rep(c("a", "b"), n / 2), truth = truth, .pred_yes = p1,
    .pred_no = 1 - p1
  )
  expect_s3_class(ece_prob, "prob_metric")
  expect_identical(attr(mce_prob, "direction"), "minimize")
  tl <- data.frame(
    model = df$model, conf = pmax(p1, 1 - p1),
    correct = as.numeric(ifelse(p1 >= 0.5, "yes", "no") == truth)
  )
  for (binning in c("adaptive", "equal_mass")) {
    got <- ece_prob(dplyr::group_by(df, model), truth, .pred_yes,
      estimator = binning
    )
    want <- ece(dplyr::group_by(tl, model), conf, correct, binning = binning)
    expect_equal(got$.estimate, want$.estimate, tolerance = 1e-14)
    expect_identical(got$.estimator, rep(binning, 2))
  }
  expect_equal(mce_prob_vec(df$truth, as.matrix(df[3:4])),
    mce_vec(tl$conf, tl$correct),
    tolerance = 1e-14
  )
  skip_if_not_installed("yardstick")
  ms <- yardstick::metric_set(yardstick::roc_auc, ece_prob, aurc_prob)
  res <- ms(dplyr::group_by(df, model), truth, .pred_yes)
  expect_equal(res$.estimate[res$.metric == "ece_prob"],
    ece(dplyr::group_by(tl, model), conf, correct)$.estimate,
    tolerance = 1e-14
  )
})

test_that("calibration data-frame errors and warnings", {
  df <- calibration_test_data()[1:20, ]
  df$conf[2] <- NA
  probs <- rbind(c(0.7, 0.3), c(0.6, 0.6))
  pdf <- data.frame(truth = factor(c("a", "b")), .pred_a = c(0.7, 0.2),
    .pred_b = c(0.3, 0.8)
  )
  expect_snapshot(error = TRUE, {
    calibration_bins_df(df, conf, correct)
    calibration_bins_df(df, conf, correct, na_rm = TRUE, case_weights = 0 * w)
    ece_vec(probs, c(1, 2))
    ece_vec(rbind(c(0.7, 0.3), c(0.4, 0.6)), c(1, 3))
    ece_prob(pdf, truth, .pred_a, .pred_b, estimator = "equal")
  })
  expect_snapshot({
    x <- ece_prob(pdf, truth, .pred_a, .pred_b, estimator = "macro")
    x <- ece_prob(pdf, truth, .pred_a, .pred_b, n_bins = 5)
  })
})

test_that("calibration_bins() takes a data frame first, grouped or not", {
  set.seed(6)
  n <- 400
  df <- data.frame(
    model = rep(c("a", "b"), each = n / 2),
    conf = round(stats::runif(n, 0.5, 1), 2), w = stats::rpois(n, 2)
  )
  df$ok <- stats::rbinom(n, 1, df$conf)
  one <- calibration_bins(df, conf, ok, binning = "equal_mass", n_bins = 7,
    case_weights = w
  )
  vec <- calibration_bins_vec(df$conf, df$ok, binning = "equal_mass",
    n_bins = 7, case_weights = df$w
  )
  expect_s3_class(one, "aurc_calibration_bins")
  expect_identical(one, vec)
  expect_s3_class(ggplot2::autoplot(one), "ggplot")
  skip_if_not_installed("dplyr")
  g <- calibration_bins(dplyr::group_by(df, model), conf, ok)
  # the same table as calibration_bins_df(), with the class and attributes
  # that autoplot() draws
  expect_s3_class(g, "aurc_calibration_bins")
  expect_identical(
    tibble::as_tibble(g),
    calibration_bins_df(dplyr::group_by(df, model), conf, ok)
  )
  for (m in c("a", "b")) {
    d <- df[df$model == m, ]
    expect_equal(as.list(g[g$model == m, -1]),
      as.list(calibration_bins_vec(d$conf, d$ok)),
      ignore_attr = TRUE
    )
  }
})

test_that("grouped bins keep, per group, n, ECE, MCE and the histogram", {
  skip_if_not_installed("dplyr")
  set.seed(8)
  n <- 600
  df <- data.frame(
    model = rep(c("b", "a", "c"), each = n / 3),
    data = rep(c("x", "y"), n / 2),
    conf = round(stats::runif(n, 0.4, 1), 3), w = stats::rpois(n, 2)
  )
  df$ok <- stats::rbinom(n, 1, df$conf)
  g <- calibration_bins(dplyr::group_by(df, model, data), conf, ok,
    binning = "equal_width", case_weights = w
  )
  keys <- attr(g, "groups")
  expect_identical(attr(g, "group_vars"), c("model", "data"))
  expect_identical(names(keys), c("model", "data"))
  expect_identical(nrow(keys), 6L)
  expect_identical(attr(g, "binning"), "equal_width")
  hist <- attr(g, "histogram")
  expect_identical(names(hist),
    c("model", "data", "lower", "upper", "n", "share")
  )
  expect_identical(nrow(hist), 600L)
  for (k in seq_len(nrow(keys))) {
    rows <- df$model == keys$model[k] & df$data == keys$data[k]
    one <- calibration_bins_vec(df$conf[rows], df$ok[rows],
      binning = "equal_width", case_weights = df$w[rows]
    )
    expect_equal(attr(g, "n")[k], attr(one, "n"))
    expect_equal(attr(g, "ece")[k], attr(one, "ece"))
    expect_equal(attr(g, "mce")[k], attr(one, "mce"))
    in_k <- hist$model == keys$model[k] & hist$data == keys$data[k]
    expect_equal(as.list(hist[in_k, -(1:2)]),
      as.list(attr(one, "histogram"))
    )
  }
  # weights at a tiny scale: the shares do not change, `n` counts them
  tiny <- calibration_bins(dplyr::group_by(df, model, data), conf, ok,
    binning = "equal_width", case_weights = w * 1e-300
  )
  expect_equal(attr(tiny, "histogram")$share, hist$share)
  expect_equal(attr(tiny, "histogram")$n, hist$n * 1e-300)
  # a subset is no longer a binning: a plain tibble
  expect_false(inherits(g[g$model == "a", ], "aurc_calibration_bins"))
  expect_snapshot(print(calibration_bins(dplyr::group_by(df, model), conf, ok,
    binning = "equal_width", n_bins = 3
  )))
})

test_that("the call of aurc before 0.1.0 still works, with a message", {
  set.seed(7)
  conf <- stats::runif(100, 0.5, 1)
  ok <- stats::rbinom(100, 1, conf)
  want <- calibration_bins_vec(conf, ok, binning = "equal_width", n_bins = 4)
  rlang::local_options(rlib_message_verbosity = "verbose")
  expect_message(
    got <- calibration_bins(conf, ok, binning = "equal_width", n_bins = 4),
    class = "aurc_message_deprecated"
  )
  expect_identical(got, want)
  expect_identical(
    suppressMessages(calibration_bins(
      confidence = conf, correct = ok, binning = "equal_width", n_bins = 4
    )),
    want
  )
  expect_identical(
    suppressMessages(calibration_bins(conf, correct = ok,
      binning = "equal_width", n_bins = 4
    )),
    want
  )
  # a probability matrix and labels, as before
  p <- cbind(conf, 1 - conf)
  expect_identical(
    suppressMessages(calibration_bins(p, ifelse(ok == 1, 1, 2))),
    calibration_bins_vec(conf, ok)
  )
  expect_snapshot(x <- calibration_bins(conf, ok))
})
