# selective_curve() (R/curve-selective.R): every metric at every cut,
# against a hand-computed case, the literal definition (random data with
# ties, NA and weights) and yardstick at every cut.

# The literal curve: for each distinct score t (descending) the rows
# s >= t, the metric `f(kept)` of those rows (a logical index), the
# coverage, and the step area.
literal_selective <- function(s, w, f) {
  thr <- sort(unique(s[w > 0]), decreasing = TRUE)
  cov <- vapply(thr, function(t) sum(w[s >= t]) / sum(w), numeric(1))
  val <- vapply(thr, function(t) f(s >= t & w > 0), numeric(1))
  list(coverage = cov, value = val, area = sum(diff(c(0, cov)) * val))
}

# Literal metrics of the rows `k`, with weights w.
lit_accuracy <- function(y, p, w) function(k) {
  sum(w[k] * (y[k] == p[k])) / sum(w[k])
}
lit_bal_accuracy <- function(y, p, w) function(k) {
  cl <- unique(y[k & w > 0])
  mean(vapply(cl, function(c) {
    sum(w[k & y == c & p == c]) / sum(w[k & y == c])
  }, numeric(1)))
}
lit_f1 <- function(y, p, w, event) function(k) {
  tp <- sum(w[k & y == event & p == event])
  fp <- sum(w[k & y != event & p == event])
  fn <- sum(w[k & y == event & p != event])
  if (2 * tp + fp + fn == 0) NA_real_ else 2 * tp / (2 * tp + fp + fn)
}
# MCC from the weighted confusion matrix C (rows truth, columns predicted)
lit_mcc <- function(y, p, w, lev) function(k) {
  cm <- matrix(0, length(lev), length(lev))
  for (i in which(k)) {
    a <- match(y[i], lev)
    b <- match(p[i], lev)
    cm[a, b] <- cm[a, b] + w[i]
  }
  s <- sum(cm)
  cc <- sum(diag(cm))
  tk <- rowSums(cm)
  pk <- colSums(cm)
  den <- (s^2 - sum(pk^2)) * (s^2 - sum(tk^2))
  if (den == 0) NA_real_ else (cc * s - sum(pk * tk)) / sqrt(den)
}
# AUROC over all (positive, negative) pairs
lit_auroc <- function(y, p, w) function(k) {
  pos <- which(k & y == 1)
  neg <- which(k & y == 0)
  if (!length(pos) || !length(neg)) return(NA_real_)
  num <- 0
  for (i in pos) {
    num <- num + w[i] * sum(w[neg] * ((p[i] > p[neg]) + 0.5 * (p[i] == p[neg])))
  }
  num / (sum(w[pos]) * sum(w[neg]))
}
lit_mean <- function(l, w) function(k) sum(w[k] * l[k]) / sum(w[k])

test_that("a hand-computed curve, its area and its oracle", {
  score <- c(3, 2, 2, 1)
  truth <- c(1, 0, 1, 1)
  estimate <- c(1, 1, 1, 0)
  cv <- selective_curve_vec(score, truth, estimate)
  # kept {1}: 1 right; {1, 2, 3}: 2 of 3; all: 2 of 4
  expect_equal(cv$threshold, c(3, 2, 1))
  expect_equal(cv$n_accepted, c(1, 3, 4))
  expect_equal(cv$coverage, c(0.25, 0.75, 1))
  expect_equal(cv$value, c(1, 2 / 3, 1 / 2))
  a <- selective_curve_area(cv)
  expect_equal(a$area, 0.25 * 1 + 0.5 * 2 / 3 + 0.25 * 1 / 2)
  # the oracle accepts the right ones first, one row per step:
  # 1, 1, 2/3, 1/2
  expect_equal(attr(cv, "oracle")$value, c(1, 1, 2 / 3, 1 / 2))
  expect_equal(a$oracle_area, 0.25 * (1 + 1 + 2 / 3 + 1 / 2))
  expect_equal(a$excess, a$oracle_area - a$area)
  # the excess of accuracy is the E-AURC of the 0/1 loss
  expect_equal(a$excess, eaurc_vec(score, as.double(truth != estimate)))

  # MAE of a tiny regression: errors 1, 0, 2, 1 under scores 4, 3, 3, 1
  y <- c(0, 0, 0, 0)
  cv <- selective_curve_vec(c(4, 3, 3, 1), y, c(1, 0, -2, 1), metric = "mae")
  expect_equal(cv$value, c(1, 1, 1))
  expect_equal(attr(cv, "oracle")$value, c(0, 1 / 2, 2 / 3, 1))
  cv <- selective_curve_vec(c(4, 3, 3, 1), y, c(1, 0, -2, 1), metric = "rmse")
  expect_equal(cv$value, sqrt(c(1, 5 / 3, 6 / 4)))
})

test_that("every built-in metric is its literal definition (ties, NA, w)", {
  set.seed(3601)
  n <- 60
  s <- round(runif(n), 1)
  y3 <- sample(c("a", "b", "c"), n, TRUE)
  p3 <- ifelse(runif(n) < 0.6, y3, sample(c("a", "b", "c"), n, TRUE))
  y2 <- rbinom(n, 1, 0.4)
  p2 <- ifelse(runif(n) < 0.7, y2, 1 - y2)
  prob <- round(plogis(rnorm(n) + y2), 2)
  yr <- rnorm(n)
  er <- round(yr + rnorm(n), 1)
  for (weighted in c(FALSE, TRUE)) {
    w <- if (weighted) sample(c(0, 0.5, 1, 3), n, TRUE) else rep(1, n)
    cw <- if (weighted) w else NULL
    check <- function(truth, estimate, metric, f) {
      cv <- suppressWarnings(selective_curve_vec(s, truth, estimate,
        metric = metric, case_weights = cw
      ))
      lit <- literal_selective(s, w, f)
      expect_equal(cv$coverage, lit$coverage)
      expect_equal(cv$value, lit$value, info = metric)
      if (!anyNA(lit$value)) {
        expect_equal(selective_curve_area(cv)$area, lit$area, info = metric)
      }
    }
    check(y3, p3, "accuracy", lit_accuracy(y3, p3, w))
    check(y3, p3, "balanced_accuracy", lit_bal_accuracy(y3, p3, w))
    check(y2, p2, "f1", lit_f1(y2, p2, w, event = 0))
    check(y3, p3, "mcc", lit_mcc(y3, p3, w, c("a", "b", "c")))
    check(y2, p2, "mcc", lit_mcc(y2, p2, w, c(0, 1)))
    check(y2, prob, "auroc", lit_auroc(y2, prob, w))
    check(y2, prob, "brier", lit_mean((prob - y2)^2, w))
    check(yr, er, "mae", lit_mean(abs(er - yr), w))
    check(yr, er, "rmse", function(k) sqrt(lit_mean((er - yr)^2, w)(k)))
  }
  # missing values: dropped with na_rm, an error without
  sn <- c(s, NA, 0.5)
  yn <- c(y3, "a", NA)
  pn <- c(p3, "a", "b")
  expect_error(selective_curve_vec(sn, yn, pn), class = "aurc_error_missing")
  expect_equal(
    selective_curve_vec(sn, yn, pn, na_rm = TRUE, metric = "mcc",
      min_coverage = 0.2
    ),
    selective_curve_vec(s, y3, p3, metric = "mcc", min_coverage = 0.2)
  )
})

test_that("the oracle of a given per-row loss takes tied losses together", {
  set.seed(3602)
  n <- 40
  s <- runif(n)
  y <- sample(c("a", "b"), n, TRUE)
  p <- ifelse(runif(n) < 0.7, y, ifelse(y == "a", "b", "a"))
  ol <- as.double(y != p)
  cv <- selective_curve_vec(s, y, p, metric = "balanced_accuracy",
    oracle_loss = ol
  )
  # the literal curve of the score -ol
  lit <- literal_selective(-ol, rep(1, n), lit_bal_accuracy(y, p, rep(1, n)))
  expect_equal(attr(cv, "oracle")$value, lit$value)
  expect_equal(selective_curve_area(cv)$oracle_area, lit$area)
  expect_equal(selective_curve_area(cv)$excess,
    lit$area - selective_curve_area(cv)$area
  )
})

test_that("decomposable metrics: the area is the AURC, the excess E-AURC", {
  set.seed(3603)
  n <- 80
  s <- round(runif(n), 1)
  y <- rnorm(n)
  est <- y + rnorm(n, sd = 0.2 + s)
  w <- sample(1:3, n, TRUE)
  cv <- selective_curve_vec(-s, y, est, metric = "mae", case_weights = w)
  expect_equal(selective_curve_area(cv)$area,
    aurc_vec(-s, abs(est - y), case_weights = w)
  )
  rc <- rc_curve_vec(-s, abs(est - y), case_weights = w)
  expect_equal(cv$value, rc$selective_risk)
  expect_equal(cv$coverage, rc$coverage)
  # without weights the oracle is eaurc()'s exact optimum
  cv <- selective_curve_vec(-s, y, est, metric = "mae")
  expect_equal(selective_curve_area(cv)$excess,
    eaurc_vec(-s, abs(est - y))
  )
  truth <- rbinom(n, 1, 0.5)
  prob <- plogis(rnorm(n) + truth)
  cv <- selective_curve_vec(s, truth, prob, metric = "brier")
  expect_equal(selective_curve_area(cv)$excess,
    eaurc_vec(s, (prob - truth)^2)
  )
  # and Ilg's AUSE is the excess of the MAE curve of -uncertainty
  cv <- selective_curve_vec(-s, y, est, metric = "mae")
  expect_equal(selective_curve_area(cv)$excess, ause_vec(s, abs(est - y)))
})

test_that("yardstick at every cut agrees, with case weights", {
  skip_if_not_installed("yardstick")
  set.seed(3604)
  n <- 50
  s <- round(runif(n), 1)
  lev <- c("a", "b")
  y <- factor(sample(lev, n, TRUE), lev)
  p <- factor(ifelse(runif(n) < 0.7, as.character(y), sample(lev, n, TRUE)),
    lev
  )
  prob <- round(runif(n) * 0.5 + 0.5 * (y == "a"), 2)
  yr <- rnorm(n)
  er <- yr + rnorm(n)
  w <- w_all <- sample(1:3, n, TRUE)
  cuts <- sort(unique(s), decreasing = TRUE)
  at_cuts <- function(f, truth, estimate, w) {
    vapply(cuts, function(t) {
      k <- s >= t
      suppressWarnings(f(truth[k], estimate[k], case_weights = w[k]))
    }, numeric(1))
  }
  cmp <- function(metric, f, truth, estimate, w = w_all) {
    cv <- suppressWarnings(selective_curve_vec(s, truth, estimate,
      metric = metric, case_weights = w
    ))
    ref <- at_cuts(f, truth, estimate, w)
    ok <- !is.na(ref) & !is.na(cv$value)
    expect_gt(sum(ok), 5)
    expect_equal(cv$value[ok], ref[ok], info = metric)
  }
  cmp("accuracy", yardstick::accuracy_vec, y, p)
  cmp("balanced_accuracy", yardstick::bal_accuracy_vec, y, p)
  cmp("f1", yardstick::f_meas_vec, y, p)
  cmp("mcc", yardstick::mcc_vec, y, p)
  cmp("auroc", yardstick::roc_auc_vec, y, prob)
  # yardstick 1.4.0's brier_class() turns case weights into
  # exp(w - max(w)) / sum(...), not a weighted mean: compared unweighted
  cmp("brier", yardstick::brier_class_vec, y, prob, w = rep(1, n))
  cmp("rmse", yardstick::rmse_vec, yr, er)
  cmp("mae", yardstick::mae_vec, yr, er)
  # a yardstick function as the metric is called per tie group
  cv <- selective_curve_vec(s, y, p, metric = yardstick::mcc_vec,
    direction = "maximize", case_weights = w, min_coverage = 0.2
  )
  expect_equal(cv$value, selective_curve_vec(s, y, p,
    metric = "mcc", case_weights = w, min_coverage = 0.2
  )$value)
})

test_that("a user's function is called once per tie group", {
  calls <- 0
  f <- function(truth, estimate) {
    calls <<- calls + 1
    stats::median(abs(truth - estimate))
  }
  s <- c(5, 4, 4, 3, 3, 3, 1)
  y <- c(1, 2, 3, 4, 5, 6, 7)
  est <- c(2, 2, 5, 7, 8, 6, 0)
  cv <- selective_curve_vec(s, y, est, metric = f)
  expect_equal(calls, 4)
  # errors 1, 0, 2, 3, 3, 0, 7: medians of the first 1, 3, 6, 7
  expect_equal(cv$value, c(1, 1, 1.5, 2))
  a <- selective_curve_area(cv)
  expect_equal(a$metric, "user")
  expect_equal(a$oracle_area, NA_real_)
  # with an oracle loss and a direction: an excess
  cv <- selective_curve_vec(s, y, est, metric = f,
    oracle_loss = abs(y - est), direction = "minimize"
  )
  a <- selective_curve_area(cv)
  expect_equal(a$excess, a$area - a$oracle_area)
  # case weights reach the function
  g <- function(truth, estimate, case_weights) sum(case_weights)
  cv <- selective_curve_vec(s, y, est, metric = g, case_weights = 1:7)
  expect_equal(cv$value, cumsum(1:7)[c(1, 3, 6, 7)])
})

test_that("min_coverage leaves the first cuts out of the areas", {
  s <- c(4, 3, 2, 1)
  y <- c(1, 0, 1, 0)
  p <- c(1, 0, 0, 0)
  expect_warning(
    cv <- selective_curve_vec(s, y, p, metric = "mcc"),
    class = "aurc_warning_undefined"
  )
  expect_equal(selective_curve_area(cv)$area, NA_real_)
  cv <- selective_curve_vec(s, y, p, metric = "mcc", min_coverage = 0.25)
  # MCC at 1 row: undefined; at 2 rows: 1; at 3 rows (c = 2 right, truth
  # counts 1, 2, predicted 2, 1): (2 * 3 - (2 * 1 + 1 * 2)) /
  # sqrt((9 - 5) (9 - 5)) = 1/2; at 4 rows (c = 3, truth 2, 2, predicted
  # 3, 1): (3 * 4 - (3 * 2 + 1 * 2)) / sqrt((16 - 10) (16 - 8))
  expect_equal(cv$value[-1], c(1, 2 / 4, 4 / sqrt(48)))
  expect_equal(selective_curve_area(cv)$area,
    0.25 * (1 + 0.5 + 4 / sqrt(48))
  )
  # accuracy 1, 1, 2/3, 3/4: from coverage 0.5 the last two count
  cv <- selective_curve_vec(s, y, p, metric = "accuracy", min_coverage = 0.5)
  expect_equal(selective_curve_area(cv)$area, 0.25 * (2 / 3 + 3 / 4))
})

test_that("grouped data frames give one curve per group", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    g = rep(c("x", "y"), each = 5), s = c(5:1, 1:5),
    y = c(1, 0, 1, 1, 0, 1, 0, 1, 1, 0), p = c(1, 1, 1, 0, 0, 1, 1, 1, 0, 0)
  )
  cv <- selective_curve(dplyr::group_by(df, g), s, y, p, metric = "f1",
    min_coverage = 0.2
  )
  expect_named(cv, c("g", "threshold", "n_accepted", "coverage", "value"))
  expect_equal(cv$value[cv$g == "y"],
    selective_curve_vec(1:5, df$y[6:10], df$p[6:10], metric = "f1",
      min_coverage = 0.2
    )$value
  )
  expect_equal(nrow(selective_curve_area(cv)), 2)
})

test_that("one row, infinite scores", {
  cv <- selective_curve_vec(5, "a", "a", metric = "balanced_accuracy")
  expect_equal(cv$value, 1)
  cv <- selective_curve_vec(c(Inf, 1, -Inf), c(1, 0, 1), c(1, 1, 1))
  expect_equal(cv$threshold, c(Inf, 1, -Inf))
  expect_equal(cv$value, c(1, 1 / 2, 2 / 3))
})

test_that("arguments are checked with classed conditions", {
  s <- c(3, 2, 1)
  y <- c(1, 0, 1)
  expect_error(selective_curve_vec(s, y, y, metric = "x"),
    class = "aurc_error_value"
  )
  expect_error(selective_curve_vec(s, y), class = "aurc_error_missing_argument")
  expect_error(selective_curve_vec(s, y[1:2], y), class = "aurc_error_length")
  expect_error(selective_curve_vec(s, y, y, oracle_loss = y),
    class = "aurc_error_value"
  )
  expect_error(selective_curve_vec(s, y, y, metric = "f1", oracle_loss = -y),
    class = "aurc_error_value"
  )
  expect_error(selective_curve_vec(s, y, y, case_weights = c(0, 0, 0)),
    class = "aurc_error_no_data"
  )
  expect_error(selective_curve_vec(s, y, y, metric = function(t, e) 1:2),
    class = "aurc_error_type"
  )
  expect_error(selective_curve_vec(s, c(0, 2, 1), y, metric = "brier"),
    class = "aurc_error_value"
  )
  expect_error(selective_curve_vec(s, y, y, min_coverage = 2),
    class = "aurc_error_value"
  )
  expect_warning(selective_curve_vec(s, y, y, direction = "minimize"),
    class = "aurc_warning_ignored"
  )
  expect_error(selective_curve_area(1), class = "aurc_error_type")
})

test_that("selective curves plot, grouped or not", {
  skip_if_not_installed("ggplot2")
  skip_if_not_installed("dplyr")
  set.seed(3605)
  df <- data.frame(
    m = rep(c("a", "b"), each = 40), s = runif(80),
    y = rnorm(80)
  )
  df$est <- df$y + rnorm(80)
  p <- ggplot2::autoplot(selective_curve_vec(df$s, df$y, df$est,
    metric = "rmse"
  ))
  expect_s3_class(p, "ggplot")
  expect_silent(ggplot2::ggplot_build(p))
  g <- selective_curve(dplyr::group_by(df, m), s, y, est, metric = "mae")
  expect_silent(ggplot2::ggplot_build(ggplot2::autoplot(g)))
  expect_silent(ggplot2::ggplot_build(ggplot2::autoplot(g, oracle = FALSE)))
})
