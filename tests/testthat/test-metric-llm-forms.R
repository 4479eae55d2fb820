# The data-frame forms of the LLM rank metrics (issue 36):
# rank_calibration_error(), uncertainty_correlation(), quality_auroc(),
# quality_aupr(): one row per group, equal to the vector forms.

llm_form_data <- function(n = 90) {
  set.seed(36)
  entropy <- round(stats::rexp(n), 1)
  data.frame(
    model = rep(c("a", "b", "c"), length.out = n),
    entropy = entropy,
    rouge = round(pmin(1, pmax(0, 0.9 - 0.3 * entropy +
      stats::rnorm(n, sd = 0.2))), 1),
    w = rep(c(1, 2, 0.5), length.out = n)
  )
}

test_that("hand cases", {
  d <- data.frame(s = c(1, 1, 2, 3), q = c(1, 2, 2, 3))
  # pairs: (1,2) tied in s, (2,3) tied in q, the other 4 concordant:
  # tau-b = 4 / sqrt((6 - 1) (6 - 1))
  k <- uncertainty_correlation(d, s, q, method = "kendall")
  expect_equal(k$.estimate, 0.8)
  expect_identical(k$.metric, "kendall")
  expect_identical(k$.estimator, "tau_b")
  # Spearman: mid-ranks (1.5, 1.5, 3, 4) and (1, 2.5, 2.5, 4)
  rx <- c(1.5, 1.5, 3, 4) - 2.5
  ry <- c(1, 2.5, 2.5, 4) - 2.5
  expect_equal(uncertainty_correlation(d, s, q)$.estimate,
    sum(rx * ry) / sqrt(sum(rx^2) * sum(ry^2)))
  # AUROC of the correct outputs (rouge >= 0.5: rows 1, 2, 4) over the
  # incorrect: 0.9 beats 3, 0.8 beats 2 and ties 1, 0.6 beats 2
  d <- data.frame(
    score = c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3),
    rouge = c(0.7, 0.5, 0.1, 0.6, 0.2, 0.3)
  )
  a <- quality_auroc(d, score, rouge, threshold = 0.5)
  expect_equal(a$.estimate, (3 + 2.5 + 2) / 9)
  expect_identical(names(a), c(".metric", ".estimator", ".estimate"))
  # AP of the correct outputs: ranks 1, 2 (precision 1, 1), the tie at
  # 0.8 counts together; the vector form is tested by hand elsewhere
  expect_equal(quality_aupr(d, score, rouge, 0.5)$.estimate,
    quality_aupr_vec(d$score, d$rouge, 0.5))
  # a perfectly rank-calibrated order of 4 outputs in 4 bins: every bin
  # holds one output, D_b = u_b, RCE = 0
  d <- data.frame(s = 4:1, q = 4:1)
  expect_equal(rank_calibration_error(d, s, q, n_bins = 4)$.estimate, 0)
  # backwards: u = (0, 1/3, 2/3, 1), D = (1, 2/3, 1/3, 0)
  expect_equal(rank_calibration_error(d, -s, q, n_bins = 4)$.estimate,
    mean(abs(c(1, 1 / 3, -1 / 3, -1))))
})

test_that("grouped forms equal the vector forms on each group", {
  skip_if_not_installed("dplyr")
  d <- llm_form_data()
  g <- dplyr::group_by(d, model)
  parts <- split(d, d$model)
  rce <- rank_calibration_error(g, -entropy, rouge, n_bins = 5, p = 2)
  expect_identical(rce$model, c("a", "b", "c"))
  expect_identical(unique(rce$.estimator), "n_bins=5/p=2")
  expect_equal(rce$.estimate, vapply(parts, function(x) {
    rank_calibration_error_vec(-x$entropy, x$rouge, n_bins = 5, p = 2)
  }, 0), ignore_attr = TRUE)
  for (m in c("spearman", "kendall")) {
    uc <- uncertainty_correlation(g, -entropy, rouge, method = m)
    expect_equal(uc$.estimate, vapply(parts, function(x) {
      uncertainty_correlation_vec(-x$entropy, x$rouge, method = m)
    }, 0), ignore_attr = TRUE)
  }
  au <- quality_auroc(g, -entropy, rouge, 0.6, case_weights = w)
  expect_equal(au$.estimate, vapply(parts, function(x) {
    quality_auroc_vec(-x$entropy, x$rouge, 0.6, case_weights = x$w)
  }, 0), ignore_attr = TRUE)
  for (pos in c("correct", "incorrect")) {
    ap <- quality_aupr(g, -entropy, rouge, 0.6, positive = pos,
      case_weights = w)
    expect_identical(unique(ap$.estimator), pos)
    expect_equal(ap$.estimate, vapply(parts, function(x) {
      quality_aupr_vec(-x$entropy, x$rouge, 0.6, positive = pos,
        case_weights = x$w)
    }, 0), ignore_attr = TRUE)
  }
  # two grouping columns, and an ungrouped frame gives one row
  d$half <- rep(1:2, each = 45)
  g2 <- dplyr::group_by(d, model, half)
  expect_identical(nrow(uncertainty_correlation(g2, entropy, rouge)), 6L)
  expect_identical(names(uncertainty_correlation(g2, entropy, rouge))[1:2],
    c("model", "half"))
  expect_equal(uncertainty_correlation(d, entropy, rouge)$.estimate,
    uncertainty_correlation_vec(d$entropy, d$rouge))
})

test_that("with conf_level, each group's row is that of the _ci() form", {
  skip_if_not_installed("dplyr")
  d <- llm_form_data()
  g <- dplyr::group_by(d, model)
  parts <- split(d, d$model)
  for (m in c("spearman", "kendall")) {
    for (se in c("influence", "bonett_wright")) {
      got <- uncertainty_correlation(g, -entropy, rouge, method = m,
        conf_level = 0.9, se = se)
      want <- do.call(rbind, lapply(parts, function(x) {
        uncertainty_correlation_ci(-x$entropy, x$rouge, method = m,
          conf_level = 0.9, se = se)
      }))
      expect_equal(got[-1], want, ignore_attr = TRUE)
    }
  }
  set.seed(5)
  got <- rank_calibration_error(g, -entropy, rouge, n_bins = 5,
    conf_level = 0.8, times = 30, type = "normal")
  set.seed(5)
  want <- do.call(rbind, lapply(parts, function(x) {
    rank_calibration_error_ci(-x$entropy, x$rouge, n_bins = 5,
      conf_level = 0.8, times = 30, type = "normal")
  }))
  expect_equal(got[-1], want, ignore_attr = TRUE)
  expect_identical(got$model, c("a", "b", "c"))
})

test_that("missing values, na_rm and empty groups", {
  d <- llm_form_data(30)
  d$rouge[3] <- NA
  expect_true(is.na(uncertainty_correlation(d, entropy, rouge)$.estimate))
  expect_true(is.na(rank_calibration_error(d, entropy, rouge)$.estimate))
  expect_true(is.na(quality_auroc(d, -entropy, rouge, 0.5)$.estimate))
  keep <- !is.na(d$rouge)
  expect_equal(
    uncertainty_correlation(d, entropy, rouge, method = "kendall",
      na_rm = TRUE)$.estimate,
    uncertainty_correlation_vec(d$entropy[keep], d$rouge[keep],
      method = "kendall")
  )
  expect_equal(
    rank_calibration_error(d, entropy, rouge, na_rm = TRUE)$.estimate,
    rank_calibration_error_vec(d$entropy[keep], d$rouge[keep])
  )
  expect_equal(
    quality_aupr(d, -entropy, rouge, 0.5, na_rm = TRUE)$.estimate,
    quality_aupr_vec(-d$entropy[keep], d$rouge[keep], 0.5)
  )
  ci <- uncertainty_correlation(d, entropy, rouge, conf_level = 0.95)
  expect_true(is.na(ci$.lower))
  skip_if_not_installed("dplyr")
  g <- dplyr::group_by(d, model)[0, ]
  out <- uncertainty_correlation(g, entropy, rouge)
  expect_identical(nrow(out), 0L)
  expect_identical(names(out), c("model", ".metric", ".estimator",
    ".estimate"))
})

test_that("classed errors and warnings name the argument", {
  d <- llm_form_data(30)
  expect_error(uncertainty_correlation(d$entropy, entropy, rouge),
    class = "aurc_error_type")
  expect_error(rank_calibration_error(d, nope, rouge),
    class = "aurc_error_column")
  expect_error(uncertainty_correlation(d, entropy, rouge,
    method = "pearson"), class = "aurc_error_value")
  expect_error(uncertainty_correlation(d, entropy, rouge, conf_level = 0.9,
    se = "jackknife"), "se", class = "aurc_error_value")
  expect_error(rank_calibration_error(d, entropy, rouge, p = 3), "`p`",
    class = "aurc_error_value")
  expect_error(rank_calibration_error(d, entropy, rouge, conf_level = 2),
    "conf_level", class = "aurc_error")
  expect_error(quality_auroc(d, entropy, rouge, threshold = "a"),
    "threshold", class = "aurc_error")
  expect_error(quality_aupr(d, entropy, rouge, 0.5, positive = "both"),
    "positive", class = "aurc_error_value")
  expect_error(uncertainty_correlation(d, entropy, model),
    "quality", class = "aurc_error")
  expect_error(uncertainty_correlation(d, entropy, rouge, 3))
  expect_warning(rank_calibration_error(d, entropy, rouge, times = 10),
    class = "aurc_warning_ignored")
  expect_warning(uncertainty_correlation(d, entropy, rouge, se = "influence"),
    class = "aurc_warning_ignored")
  expect_warning(uncertainty_correlation(transform(d, rouge = 1), entropy,
    rouge), class = "aurc_warning_undefined")
})

test_that("a lazy database table asks to collect first", {
  skip_if_not_installed("dbplyr")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("DBI")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", llm_form_data(30))
  tb <- dplyr::tbl(con, "t")
  for (f in list(
    function() rank_calibration_error(tb, entropy, rouge),
    function() uncertainty_correlation(tb, entropy, rouge),
    function() quality_auroc(tb, entropy, rouge, 0.5),
    function() quality_aupr(tb, entropy, rouge, 0.5)
  )) {
    expect_error(f(), "collect", class = "aurc_error_type")
  }
})
