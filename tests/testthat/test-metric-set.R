test_that("selective_metrics equals the single metrics", {
  set.seed(71)
  d <- random_tied_data(300, binary = TRUE)
  w <- stats::runif(300)
  res <- selective_metrics_vec(d$score, d$loss,
    metrics = aurc:::all_metrics, estimator = "alpha_prime",
    method = "step", optimum = "asymptotic", coverage = 0.6, risk = 0.25,
    coverage_range = c(0.1, 0.8), max_rejection = 0.5, tpr = 0.9,
    case_weights = w
  )
  expect_named(res, c(".metric", ".estimator", ".estimate"))
  expect_identical(res$.metric, aurc:::all_metrics)
  one <- function(f, ...) f(d$score, d$loss, ..., case_weights = w)
  expect_identical(res$.estimate, c(
    one(aurc_vec, estimator = "alpha_prime"),
    one(augrc_vec, method = "step"),
    one(failure_auroc_vec), one(failure_aupr_vec), one(success_aupr_vec),
    one(eaurc_vec, estimator = "alpha_prime", optimum = "asymptotic"),
    one(eaugrc_vec), one(naurc_vec, estimator = "alpha_prime"),
    one(risk_at_coverage_vec, coverage = 0.6),
    one(coverage_at_risk_vec, risk = 0.25),
    one(partial_aurc_vec, coverage_range = c(0.1, 0.8)),
    one(partial_augrc_vec, coverage_range = c(0.1, 0.8)),
    one(fpr_at_tpr_vec, tpr = 0.9), one(achievable_aurc_vec),
    auarc_vec(d$score, 1 - d$loss, estimator = "alpha_prime",
      case_weights = w
    ),
    prr_vec(d$score, 1 - d$loss, max_rejection = 0.5, case_weights = w)
  ))
  expect_identical(res$.estimator, c(
    "alpha_prime", "step", "binary", "binary", "binary",
    "alpha_prime/asymptotic",
    "trapezoid", "alpha_prime", "coverage=0.6", "risk=0.25",
    "coverage=0.1-0.8", "coverage=0.1-0.8", "tpr=0.9", "convex_hull",
    "alpha_prime",
    "max_rejection=0.5"
  ))
  # any loss for the default set
  l <- stats::rexp(300)
  res <- selective_metrics_vec(d$score, l)
  expect_identical(res$.metric, c("aurc", "augrc", "eaurc", "naurc"))
  expect_identical(res$.estimate[3], eaurc_vec(d$score, l))
})

test_that("the data-frame form keeps groups", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    s = c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4), f = c(0, 1, 0, 1, 0, 1),
    g = rep(c("a", "b"), each = 3)
  )
  res <- selective_metrics(dplyr::group_by(df, g), s, f,
    metrics = c("augrc", "failure_auroc")
  )
  expect_named(res, c("g", ".metric", ".estimator", ".estimate"))
  expect_identical(res$g, c("a", "a", "b", "b"))
  expect_equal(res$.estimate[4], failure_auroc_vec(df$s[4:6], df$f[4:6]))
})

test_that("Traub et al. Fig. 2 b-f: AURC ranks against acc and AUROC_f", {
  # The toy example of Traub et al. (2024, Fig. 2 b-d): three confidence
  # scores rank 20 predictions. The caption fixes what must hold: CSF-1 and
  # CSF-2 have equal accuracy and equal AUROC_f, yet the AURC of CSF-2 is
  # better; CSF-3 has lower accuracy and lower AUROC_f than CSF-1, yet its
  # AURC is better too; the cause is a high-confidence failure of CSF-1.
  # The figure's exact data are not in the text, so we construct data that
  # match it, by failure positions in descending confidence (1 = most
  # confident):
  # * CSF-1: 4 failures at 2, 17, 18, 19 (acc 0.8, the failure at 2 is the
  #   high-confidence one).
  # * CSF-2: 4 failures at 11, 14, 15, 16: same accuracy and the same sum of
  #   positions (56), hence the same number of (correct above failure) pairs
  #   and the same AUROC_f (46 / 64); no high-confidence failure.
  # * CSF-3: 5 failures at 10, 12, 14, 15, 17 (acc 0.75); correct above
  #   failure: 9 + 10 + 11 + 11 + 12 = 53 of 75 pairs, AUROC_f 0.707 < 0.719.
  # AURC weighs a failure at t by (H_20 - H_{t-1}) / 20 (2.6 / 20 at t = 2,
  # about 0.2 / 20 near the bottom), so CSF-1's failure at 2 dominates:
  # AURC orders CSF-2 < CSF-3 < CSF-1. AUGRC weighs linearly, so by Eq. 7
  # it follows accuracy and AUROC_f: CSF-1 = CSF-2 < CSF-3.
  toy <- traub_toy_example()
  m <- lapply(split(toy, toy$csf), function(d) {
    c(
      acc = 1 - mean(d$failure),
      auroc = failure_auroc_vec(d$score, d$failure),
      aurc = aurc_vec(d$score, d$failure),
      augrc = augrc_vec(d$score, d$failure)
    )
  })
  expect_equal(m[["CSF-1"]][["acc"]], m[["CSF-2"]][["acc"]])
  expect_equal(m[["CSF-1"]][["auroc"]], 46 / 64)
  expect_equal(m[["CSF-2"]][["auroc"]], 46 / 64)
  expect_equal(m[["CSF-3"]][["auroc"]], 53 / 75)
  expect_lt(m[["CSF-3"]][["acc"]], m[["CSF-1"]][["acc"]])
  # AURC: CSF-2 and even CSF-3 beat CSF-1
  expect_lt(m[["CSF-2"]][["aurc"]], m[["CSF-1"]][["aurc"]])
  expect_lt(m[["CSF-3"]][["aurc"]], m[["CSF-1"]][["aurc"]])
  h <- function(k) sum(1 / seq_len(k))
  expect_equal(m[["CSF-1"]][["aurc"]],
    sum(vapply(c(2, 17, 18, 19), function(t) h(20) - h(t - 1), 1)) / 20)
  # AUGRC: CSF-1 = CSF-2 (trapezoid: sum (20 - t + 1/2) / 400 = 26 / 400),
  # CSF-3 worse (34.5 / 400)
  expect_equal(m[["CSF-1"]][["augrc"]], 26 / 400)
  expect_equal(m[["CSF-2"]][["augrc"]], 26 / 400)
  expect_equal(m[["CSF-3"]][["augrc"]], 34.5 / 400)
  skip_if_not_installed("dplyr")
  res <- selective_metrics(dplyr::group_by(toy, csf), score, failure,
    metrics = c("aurc", "augrc", "failure_auroc")
  )
  expect_equal(nrow(res), 9)
})

test_that("errors", {
  expect_snapshot(error = TRUE, {
    selective_metrics_vec(1:3, c(0, 1, 0), metrics = c("aurc", "auc"))
    selective_metrics_vec(1:3, c(0, 1, 0), metrics = 1)
    selective_metrics_vec(1:3, c(0, 1, 0), metrics = "risk_at_coverage")
    selective_metrics_vec(1:3, c(0, 0.5, 0), metrics = "failure_auroc")
    selective_metrics(data.frame(s = 1), s, l)
  })
})

test_that("selective_metrics() takes ECE and MCE beside the selective metrics", {
  set.seed(44)
  conf <- stats::runif(300, 0.5, 1)
  f <- stats::rbinom(300, 1, 1 - conf)
  w <- stats::runif(300)
  r <- selective_metrics_vec(conf, f, metrics = c("aurc", "ece", "mce"),
    case_weights = w
  )
  expect_identical(r$.metric, c("aurc", "ece", "mce"))
  expect_identical(r$.estimator, c("alpha", "adaptive", "adaptive"))
  expect_identical(r$.estimate, c(aurc_vec(conf, f, case_weights = w),
    ece_vec(conf, 1 - f, case_weights = w),
    mce_vec(conf, 1 - f, case_weights = w)))
  expect_identical(selective_metrics_vec(conf, f, metrics = "ece")$.estimate,
    ece_vec(conf, 1 - f))
  expect_identical(
    selective_metrics_vec(c(conf, NA), c(f, 0), metrics = "ece")$.estimate,
    NA_real_
  )
  expect_error(selective_metrics_vec(conf, f + 0.5, metrics = "ece"),
    class = "aurc_error_value"
  )
  expect_error(selective_metrics_vec(conf * 2, f, metrics = "ece"),
    class = "aurc_error"
  )
  skip_if_not_installed("dplyr")
  d <- data.frame(conf, f, g = rep(1:3, 100))
  r2 <- selective_metrics(dplyr::group_by(d, g), conf, f,
    metrics = c("ece", "aurc")
  )
  for (k in 1:3) {
    i <- d$g == k
    expect_identical(r2$.estimate[r2$g == k],
      c(ece_vec(conf[i], 1 - f[i]), aurc_vec(conf[i], f[i])))
  }
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", d)
  expect_error(selective_metrics(dplyr::tbl(con, "t"), conf, f,
    metrics = "ece"), class = "aurc_error_type")
})
