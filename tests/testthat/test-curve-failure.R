# The literal points of the definitions (inst/DEFINITIONS.md): at every distinct score t
# (ascending) the flagged set is {s <= t}.
literal_failure_points <- function(s, f, w = rep(1, length(s))) {
  keep <- w > 0
  s <- s[keep]
  f <- f[keep]
  w <- w[keep]
  t <- sort(unique(s))
  n_fail <- sum(w * f)
  n_ok <- sum(w * (1 - f))
  flagged <- vapply(t, function(x) sum(w[s <= x]), numeric(1))
  fail <- vapply(t, function(x) sum(w[s <= x] * f[s <= x]), numeric(1))
  data.frame(
    threshold = t, n_flagged = flagged,
    false_positive_rate = (flagged - fail) / n_ok,
    true_positive_rate = fail / n_fail,
    precision = fail / flagged
  )
}

trapezoid <- function(x, y) {
  sum(diff(x) * (utils::head(y, -1) + utils::tail(y, -1)) / 2)
}

test_that("hand-computed tiny case", {
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  failure <- c(0, 0, 1, 0, 1, 1)
  roc <- failure_roc_curve_vec(score, failure)
  expect_s3_class(roc, c("aurc_failure_roc_curve", "tbl_df"))
  expect_named(roc, c(
    "threshold", "n_flagged", "false_positive_rate", "true_positive_rate"
  ))
  # flagged {s <= t}: nothing, then 0.3 (F), 0.4 (F), 0.6 (C), 0.8 (C + F),
  # 0.9 (C)
  expect_equal(roc$threshold, c(-Inf, 0.3, 0.4, 0.6, 0.8, 0.9))
  expect_equal(roc$n_flagged, c(0, 1, 2, 3, 5, 6))
  expect_equal(roc$false_positive_rate, c(0, 0, 0, 1, 2, 3) / 3)
  expect_equal(roc$true_positive_rate, c(0, 1, 2, 2, 3, 3) / 3)
  # pairs (correct, failure): 0.9 beats 3, 0.8 beats 2 and ties 1,
  # 0.6 beats 2: 7.5 / 9
  expect_equal(trapezoid(roc$false_positive_rate, roc$true_positive_rate),
    5 / 6)
  expect_equal(attr(roc, "summary")$auroc, 5 / 6)
  expect_equal(attr(roc, "summary")$failure_rate, 1 / 2)

  pr <- failure_pr_curve_vec(score, failure)
  expect_s3_class(pr, c("aurc_failure_pr_curve", "tbl_df"))
  expect_named(pr, c("threshold", "n_flagged", "recall", "precision"))
  expect_equal(pr$threshold, c(0.3, 0.4, 0.6, 0.8, 0.9))
  expect_equal(pr$recall, c(1, 2, 2, 3, 3) / 3)
  expect_equal(pr$precision, c(1, 1, 2 / 3, 3 / 5, 1 / 2))
  # average precision: 1/3 * 1 + 1/3 * 1 + 1/3 * 3/5
  expect_equal(sum(diff(c(0, pr$recall)) * pr$precision), 13 / 15)
  expect_equal(attr(pr, "summary")$aupr, 13 / 15)
})

test_that("the curves follow the literal definitions, ties and weights", {
  set.seed(161)
  for (n in c(2, 7, 80)) {
    d <- random_tied_data(n, grid = 0.5, binary = TRUE)
    d$loss[1:2] <- c(0, 1)
    w <- stats::runif(n)
    if (n > 2) w[n] <- 0
    for (weights in list(NULL, w)) {
      ww <- if (is.null(weights)) rep(1, n) else weights
      lit <- literal_failure_points(d$score, d$loss, ww)
      roc <- failure_roc_curve_vec(d$score, d$loss, case_weights = weights)
      expect_equal(roc$threshold, c(-Inf, lit$threshold))
      expect_equal(roc$n_flagged, c(0, lit$n_flagged), tolerance = 1e-12)
      expect_equal(roc$false_positive_rate, c(0, lit$false_positive_rate),
        tolerance = 1e-12
      )
      expect_equal(roc$true_positive_rate, c(0, lit$true_positive_rate),
        tolerance = 1e-12
      )
      pr <- failure_pr_curve_vec(d$score, d$loss, case_weights = weights)
      expect_equal(pr$threshold, lit$threshold)
      expect_equal(pr$recall, lit$true_positive_rate, tolerance = 1e-12)
      expect_equal(pr$precision, lit$precision, tolerance = 1e-12)
    }
  }
})

test_that("the areas under the curves are the failure AUROC and AUPR", {
  set.seed(162)
  for (n in c(5, 50, 500)) {
    for (grid in c(0.01, 0.5)) {
      d <- random_tied_data(n, grid = grid, binary = TRUE)
      d$loss[1:2] <- c(0, 1)
      w <- stats::rexp(n)
      for (weights in list(NULL, w)) {
        roc <- failure_roc_curve_vec(d$score, d$loss, case_weights = weights)
        expect_equal(
          trapezoid(roc$false_positive_rate, roc$true_positive_rate),
          failure_auroc_vec(d$score, d$loss, case_weights = weights),
          tolerance = 1e-12
        )
        pr <- failure_pr_curve_vec(d$score, d$loss, case_weights = weights)
        expect_equal(
          sum(diff(c(0, pr$recall)) * pr$precision),
          failure_aupr_vec(d$score, d$loss, case_weights = weights),
          tolerance = 1e-12
        )
        ww <- if (is.null(weights)) rep(1, n) else weights
        expect_equal(attr(roc, "summary")$auroc,
          literal_failure_auroc(d$score, d$loss, ww),
          tolerance = 1e-12
        )
        expect_equal(attr(pr, "summary")$aupr,
          literal_failure_aupr(d$score, d$loss, ww),
          tolerance = 1e-12
        )
      }
    }
  }
})

test_that("ties form one point; the curves do not depend on row order", {
  score <- c(1, 1, 1, 2, 2, 3, -0, 0)
  failure <- c(1, 0, 1, 0, 1, 0, 1, 0)
  roc <- failure_roc_curve_vec(score, failure)
  # distinct scores 0 (= -0), 1, 2, 3 and the start
  expect_equal(nrow(roc), 5)
  expect_equal(roc$n_flagged, c(0, 2, 5, 7, 8))
  pr <- failure_pr_curve_vec(score, failure)
  expect_equal(nrow(pr), 4)
  expect_equal(pr$precision, c(1 / 2, 3 / 5, 4 / 7, 4 / 8))
  o <- c(8, 3, 5, 1, 7, 2, 6, 4)
  expect_equal(failure_roc_curve_vec(score[o], failure[o]), roc)
  expect_equal(failure_pr_curve_vec(score[o], failure[o]), pr)
  # Inf scores are ordered normally
  roc <- failure_roc_curve_vec(c(-Inf, 0, Inf), c(1, 0, 0))
  expect_equal(roc$threshold, c(-Inf, -Inf, 0, Inf))
  expect_equal(roc$true_positive_rate, c(0, 1, 1, 1))
})

test_that("missing values: an error, or dropped with na_rm", {
  score <- c(0.9, NA, 0.5, 0.4, 0.2)
  failure <- c(0, 1, 1, NA, 0)
  expect_error(failure_roc_curve_vec(score, failure),
    class = "aurc_error_missing"
  )
  expect_error(failure_pr_curve_vec(score, failure),
    class = "aurc_error_missing"
  )
  keep <- c(1, 3, 5)
  expect_equal(
    failure_roc_curve_vec(score, failure, na_rm = TRUE),
    failure_roc_curve_vec(score[keep], failure[keep])
  )
  expect_equal(
    failure_pr_curve_vec(score, failure, na_rm = TRUE),
    failure_pr_curve_vec(score[keep], failure[keep])
  )
})

test_that("integer case weights are repeated rows", {
  set.seed(163)
  d <- random_tied_data(40, grid = 0.5, binary = TRUE)
  d$loss[1:2] <- c(0, 1)
  w <- sample(0:3, 40, replace = TRUE)
  w[1:2] <- 1
  rows <- rep(seq_len(40), w)
  for (fn in list(failure_roc_curve_vec, failure_pr_curve_vec)) {
    expect_equal(
      fn(d$score, d$loss, case_weights = w),
      fn(d$score[rows], d$loss[rows]),
      tolerance = 1e-12
    )
  }
  # logical failures are accepted
  expect_equal(
    failure_roc_curve_vec(d$score, d$loss == 1),
    failure_roc_curve_vec(d$score, d$loss)
  )
})

test_that("the ROC points agree with pROC", {
  skip_if_not_installed("pROC")
  set.seed(164)
  d <- random_tied_data(300, grid = 0.2, binary = TRUE)
  # failures are the cases (level 1); they have the lower scores
  r <- pROC::roc(
    response = d$loss, predictor = d$score, levels = c(0, 1),
    direction = ">", quiet = TRUE
  )
  ours <- failure_roc_curve_vec(d$score, d$loss)
  theirs <- unique(data.frame(
    fpr = 1 - r$specificities, tpr = r$sensitivities
  ))
  theirs <- theirs[order(theirs$fpr, theirs$tpr), ]
  expect_equal(nrow(theirs), nrow(ours))
  expect_equal(ours$false_positive_rate, theirs$fpr, tolerance = 1e-12,
    ignore_attr = TRUE
  )
  expect_equal(ours$true_positive_rate, theirs$tpr, tolerance = 1e-12,
    ignore_attr = TRUE
  )
  expect_equal(attr(ours, "summary")$auroc, as.numeric(pROC::auc(r)),
    tolerance = 1e-12
  )
})

test_that("grouped data frames give one curve per group", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    m = rep(c("b", "a"), each = 5),
    s = c(5, 4, 3, 2, 1, 1, 1, 2, 2, 3),
    f = c(0, 1, 0, 1, 1, 1, 0, 0, 1, 0)
  )
  grouped <- dplyr::group_by(df, m)
  roc <- failure_roc_curve(grouped, s, f)
  expect_s3_class(roc, "aurc_failure_roc_curve")
  expect_named(roc, c(
    "m", "threshold", "n_flagged", "false_positive_rate",
    "true_positive_rate"
  ))
  expect_identical(attr(roc, "group_vars"), "m")
  for (g in c("a", "b")) {
    sub <- df[df$m == g, ]
    expect_equal(
      roc[roc$m == g, -1],
      failure_roc_curve_vec(sub$s, sub$f),
      ignore_attr = TRUE
    )
  }
  expect_equal(attr(roc, "summary")$m, c("a", "b"))
  expect_equal(attr(roc, "summary")$auroc, c(
    failure_auroc_vec(df$s[6:10], df$f[6:10]),
    failure_auroc_vec(df$s[1:5], df$f[1:5])
  ))
  pr <- failure_pr_curve(grouped, s, f)
  expect_named(pr, c("m", "threshold", "n_flagged", "recall", "precision"))
  expect_equal(attr(pr, "summary")$aupr, c(
    failure_aupr_vec(df$s[6:10], df$f[6:10]),
    failure_aupr_vec(df$s[1:5], df$f[1:5])
  ))
  # ungrouped: one curve; columns by name or expression; case weights
  expect_equal(
    failure_pr_curve(df, s, f),
    failure_pr_curve_vec(df$s, df$f)
  )
  expect_equal(
    failure_roc_curve(df, "s", f, case_weights = rep(2, 10)),
    failure_roc_curve_vec(df$s, df$f, case_weights = rep(2, 10))
  )
})

test_that("bad input gives classed errors", {
  expect_error(failure_roc_curve_vec("a", 1), class = "aurc_error_type")
  expect_error(failure_roc_curve_vec(1:3, c(0, 1)),
    class = "aurc_error_length"
  )
  expect_error(failure_pr_curve_vec(1:3, c(0, 0.5, 1)),
    class = "aurc_error_value"
  )
  expect_error(failure_roc_curve_vec(1:3, c(0, 0, 0)),
    class = "aurc_error_one_class"
  )
  expect_error(failure_pr_curve_vec(1:3, c(1, 1, 1)),
    class = "aurc_error_one_class"
  )
  expect_error(failure_roc_curve_vec(numeric(), numeric()),
    class = "aurc_error_no_data"
  )
  expect_error(failure_pr_curve_vec(1:2, 0:1, case_weights = c(0, 0)),
    class = "aurc_error_no_data"
  )
  expect_error(failure_roc_curve_vec(1:2, 0:1, case_weights = c(1e308, 1e308)),
    class = "aurc_error_value"
  )
  expect_error(failure_roc_curve_vec(1:2, 0:1, extra = 1),
    class = "aurc_error_dots"
  )
  expect_error(failure_roc_curve(1:2, s, f), class = "aurc_error_type")
  expect_snapshot(error = TRUE, {
    failure_roc_curve_vec(c(1, NA), c(0, 1))
    failure_roc_curve_vec(1:3, c(0, 0, 0))
    failure_pr_curve_vec(1:3, c(0, 2, 1))
    failure_pr_curve_vec(1:2, 0:1, case_weights = c(-1, 1))
    failure_roc_curve(data.frame(s = 1:2), s, nope)
  })
  skip_if_not_installed("dplyr")
  df <- data.frame(g = c(1, 1, 2, 2), s = 1:4, f = c(0, 1, 0, 0))
  expect_snapshot(error = TRUE, {
    failure_pr_curve(dplyr::group_by(df, g), s, f)
  })
})
