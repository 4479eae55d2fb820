test_that("a score table by hand", {
  df <- data.frame(s = c(3, 2, 2, 1, NA), l = c(0, 1, 0.5, 1, 1))
  st <- score_table(df, s, l)
  expect_s3_class(st, "aurc_score_table")
  expect_equal(st$score, c(1, 2, 3))
  expect_equal(st$n, c(1, 2, 1))
  expect_equal(st$loss_sum, c(1, 1.5, 0))
  expect_equal(attr(st, "losses")$loss, c(0, 0.5, 1))
  expect_equal(attr(st, "losses")$n, c(1, 1, 2))
  expect_equal(attr(st, "missing")$n_missing, 1)
  # the incomplete row makes the metric NA unless na_rm = TRUE
  expect_true(is.na(aurc(st)$.estimate))
  expect_equal(aurc(st, na_rm = TRUE), aurc(df, s, l, na_rm = TRUE))
  expect_snapshot(print(st))
})

test_that("every metric of a score table equals the raw data's", {
  df <- db_test_data(seed = 5)
  m <- c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage",
    "coverage_at_risk")
  mb <- c(m, "failure_auroc", "failure_aupr", "eaugrc")
  for (grouped in c(FALSE, TRUE)) {
    dd <- if (grouped) dplyr::group_by(df, model) else df
    for (cw in list(NULL, quote(w), quote(fw))) {
      st <- score_table(dd, score, loss, case_weights = !!cw)
      sf <- score_table(dd, score, failure, case_weights = !!cw)
      for (est in c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")) {
        expect_equal(
          selective_metrics(st, metrics = m, estimator = est, coverage = 0.3,
            risk = 0.4, na_rm = TRUE),
          selective_metrics(dd, score, loss, metrics = m, estimator = est,
            coverage = 0.3, risk = 0.4, na_rm = TRUE, case_weights = !!cw),
          tolerance = 1e-9
        )
      }
      expect_equal(
        selective_metrics(sf, metrics = mb, optimum = "asymptotic",
          coverage = 0.6, risk = 0.2, na_rm = TRUE),
        selective_metrics(dd, score, failure, metrics = mb,
          optimum = "asymptotic", coverage = 0.6, risk = 0.2, na_rm = TRUE,
          case_weights = !!cw),
        tolerance = 1e-9
      )
      expect_equal(
        risk_at_coverage(st, coverage = 0.7, na_rm = TRUE),
        risk_at_coverage(dd, score, loss, coverage = 0.7, na_rm = TRUE,
          case_weights = !!cw),
        tolerance = 1e-9
      )
      expect_equal(augrc(st, method = "step"),
        augrc(dd, score, loss, method = "step", case_weights = !!cw),
        tolerance = 1e-9
      )
      a <- rc_curve(st, na_rm = TRUE)
      b <- rc_curve(dd, score, loss, na_rm = TRUE, case_weights = !!cw)
      expect_equal(tibble::as_tibble(unclass(a)), tibble::as_tibble(unclass(b)),
        tolerance = 1e-9, ignore_attr = TRUE
      )
      sc <- score_table(dd, conf, 1 - correct, case_weights = !!cw)
      for (bn in c("equal_width", "equal_mass", "adaptive")) {
        ign <- bn == "adaptive"
        expect_equal(
          with_ignored(ece(sc, binning = bn, n_bins = 7, na_rm = TRUE), ign),
          with_ignored(ece(dd, conf, correct, binning = bn, n_bins = 7,
            na_rm = TRUE, case_weights = !!cw), ign),
          tolerance = 1e-9
        )
        expect_equal(
          with_ignored(mce(sc, binning = bn, n_bins = 7), ign),
          with_ignored(mce(dd, conf, correct, binning = bn, n_bins = 7,
            case_weights = !!cw), ign),
          tolerance = 1e-9
        )
      }
    }
  }
})

test_that("shards summarised separately merge into the single table", {
  con <- sqlite_con()
  df <- db_test_data(seed = 6)
  shard <- rep(1:3, length.out = nrow(df))
  tables <- lapply(1:3, function(k) {
    part <- df[shard == k, ]
    if (k == 1) {
      # one shard from a database, the others from data frames
      score_table(dplyr::group_by(db_copy(con, part), model), score, loss,
        case_weights = fw
      )
    } else {
      score_table(dplyr::group_by(part, model), score, loss, case_weights = fw)
    }
  })
  merged <- combine_score_tables(tables)
  whole <- score_table(dplyr::group_by(df, model), score, loss,
    case_weights = fw
  )
  expect_equal(merged, whole, tolerance = 1e-12)
  expect_equal(combine_score_tables(tables[[1]], tables[[2]], tables[[3]]),
    merged
  )
  m <- c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage")
  expect_equal(
    selective_metrics(merged, metrics = m, coverage = 0.5, na_rm = TRUE),
    selective_metrics(dplyr::group_by(df, model), score, loss, metrics = m,
      coverage = 0.5, na_rm = TRUE, case_weights = fw
    ),
    tolerance = 1e-9
  )
  # with the missing rows of every shard counted: NA without na_rm
  expect_equal(
    aurc(merged),
    aurc(dplyr::group_by(df, model), score, loss, case_weights = fw)
  )
})

test_that("a score table from SQLite equals the one from the data frame", {
  con <- sqlite_con()
  df <- db_test_data(seed = 7)
  t <- db_copy(con, df)
  expect_equal(
    score_table(dplyr::group_by(t, model), score, loss, case_weights = w),
    score_table(dplyr::group_by(df, model), score, loss, case_weights = w),
    tolerance = 1e-12
  )
  expect_equal(score_table(t, score, failure),
    score_table(df, score, failure),
    tolerance = 1e-12
  )
})

test_that("score tables: bad input and ignored columns", {
  df <- data.frame(s = c(0.2, 0.4), l = c(0.5, 1), g = c("a", "b"))
  st <- score_table(df, s, l)
  expect_error(failure_auroc(st), class = "aurc_error_value")
  expect_error(score_table(data.frame(s = 1, l = -1), s, l),
    class = "aurc_error_value"
  )
  expect_error(combine_score_tables(df), class = "aurc_error_type")
  expect_error(
    combine_score_tables(st, score_table(dplyr::group_by(df, g), s, l)),
    class = "aurc_error_value"
  )
  expect_warning(aurc(st, s, l), class = "aurc_warning_ignored")
  expect_error(ece(st, binning = "ding2020"), class = "aurc_error_ding2020")
  expect_snapshot(error = TRUE, {
    failure_auroc(st)
    combine_score_tables(df)
    ece(st, binning = "ding2020")
  })
})
