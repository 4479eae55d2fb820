# A real distributed engine: two ClickHouse servers with a Distributed
# table over both (half of the rows on each), started by
# helper-clickhouse.R. ClickHouse 18.16 (Debian 12) has no window
# functions, so this is also the portable path (R/db-portable.R): the
# engine computes the GROUP BY score table, R finishes exactly.

# Every metric family on `t` (grouped and not) equals the in-memory value
# on `df` to 1e-10.
expect_ch_matches_memory <- function(t, df) {
  same <- function(a, b) {
    expect_equal(as.data.frame(a), as.data.frame(b), tolerance = 1e-10)
  }
  for (grouped in c(FALSE, TRUE)) {
    td <- if (grouped) dplyr::group_by(t, model) else t
    dd <- if (grouped) dplyr::group_by(df, model) else df
    for (est in c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")) {
      same(
        aurc(td, score, loss, estimator = est, na_rm = TRUE, case_weights = w),
        aurc(dd, score, loss, estimator = est, na_rm = TRUE, case_weights = w)
      )
    }
    same(
      selective_metrics(td, score, failure, coverage = 0.37, risk = 0.25,
        na_rm = TRUE, case_weights = fw
      ),
      selective_metrics(dd, score, failure, coverage = 0.37, risk = 0.25,
        na_rm = TRUE, case_weights = fw
      )
    )
    same(
      augrc(td, score, loss, method = "step", na_rm = TRUE, case_weights = w),
      augrc(dd, score, loss, method = "step", na_rm = TRUE, case_weights = w)
    )
    same(augrc(td, score, loss, na_rm = TRUE), augrc(dd, score, loss,
      na_rm = TRUE
    ))
    same(
      failure_auroc(td, score, failure, case_weights = fw),
      failure_auroc(dd, score, failure, case_weights = fw)
    )
    same(
      eaurc(td, score, loss, na_rm = TRUE, case_weights = w),
      eaurc(dd, score, loss, na_rm = TRUE, case_weights = w)
    )
    same(
      eaurc(td, score, failure, optimum = "asymptotic", na_rm = TRUE),
      eaurc(dd, score, failure, optimum = "asymptotic", na_rm = TRUE)
    )
    same(
      naurc(td, score, loss, na_rm = TRUE, case_weights = fw),
      naurc(dd, score, loss, na_rm = TRUE, case_weights = fw)
    )
    same(
      prr(td, score, conf, na_rm = TRUE, case_weights = w),
      prr(dd, score, conf, na_rm = TRUE, case_weights = w)
    )
    same(
      auarc(td, score, conf, na_rm = TRUE),
      auarc(dd, score, conf, na_rm = TRUE)
    )
    calib <- function(data, bn) {
      if (bn == "adaptive") {
        ece(data, conf, correct, na_rm = TRUE, case_weights = fw)
      } else {
        ece(data, conf, correct, binning = bn, n_bins = 7, na_rm = TRUE,
          case_weights = fw
        )
      }
    }
    for (bn in c("equal_width", "equal_mass", "adaptive")) {
      same(calib(td, bn), calib(dd, bn))
    }
    same(
      mce(td, conf, correct, binning = "equal_mass", n_bins = 5),
      mce(dd, conf, correct, binning = "equal_mass", n_bins = 5)
    )
    # the risk-coverage curve (its points and areas)
    ca <- rc_curve(td, score, loss, na_rm = TRUE, case_weights = w)
    cb <- rc_curve(dd, score, loss, na_rm = TRUE, case_weights = w)
    same(ca, cb)
    same(attr(ca, "random"), attr(cb, "random"))
    # na_rm = FALSE: NA where a group has a missing value
    same(aurc(td, score, loss), aurc(dd, score, loss))
    # the score table of the engine is the in-memory one
    a <- score_table(td, score, loss, case_weights = w)
    b <- score_table(dd, score, loss, case_weights = w)
    same(a, b)
    same(attr(a, "losses"), attr(b, "losses"))
    same(attr(a, "missing"), attr(b, "missing"))
  }
}

test_that("every metric on a ClickHouse Distributed table equals memory", {
  con <- ch_con()
  df <- db_test_data(n = 600, seed = 7)
  t <- ch_distributed(con, df, types = c(w = "UInt8", correct = "Int8"))
  # the rows really are split over the two servers
  n1 <- DBI::dbGetQuery(con, "SELECT count() AS n FROM preds_local")$n
  expect_equal(as.double(n1), 300)
  expect_equal(as.double(dplyr::pull(dplyr::count(t), n)), 600)
  expect_false(aurc:::db_has_windows(con))
  expect_ch_matches_memory(t, df)
})

test_that("the window path and the portable path agree (SQLite)", {
  con <- sqlite_con()
  df <- db_test_data(seed = 8)
  t <- db_copy(con, df)
  for (windows in c(TRUE, FALSE)) {
    withr::local_options(aurc.db_windows = windows)
    expect_equal(
      as.data.frame(selective_metrics(dplyr::group_by(t, model), score, loss,
        na_rm = TRUE, case_weights = fw
      )),
      as.data.frame(selective_metrics(dplyr::group_by(df, model), score,
        loss, na_rm = TRUE, case_weights = fw
      )),
      tolerance = 1e-10
    )
    expect_equal(
      ece(t, conf, correct, binning = "equal_mass", na_rm = TRUE)$.estimate,
      ece(df, conf, correct, binning = "equal_mass", na_rm = TRUE)$.estimate,
      tolerance = 1e-10
    )
  }
  # far weights without windows: divided per group through a CASE
  withr::local_options(aurc.db_windows = FALSE)
  df2 <- df
  df2$fw <- df2$fw * 2^80
  df2$fw[df2$model == "b"] <- df2$fw[df2$model == "b"] * 2^-10
  t2 <- db_copy(con, df2, "far")
  expect_equal(
    as.data.frame(naurc(dplyr::group_by(t2, model), score, loss,
      na_rm = TRUE, case_weights = fw
    )),
    as.data.frame(naurc(dplyr::group_by(df2, model), score, loss,
      na_rm = TRUE, case_weights = fw
    )),
    tolerance = 1e-10
  )
  withr::local_options(aurc.db_windows = "sometimes")
  expect_error(aurc(t, score, loss), class = "aurc_error_value")
})

test_that("hand-computed case, integer and float types on ClickHouse", {
  con <- ch_con()
  # scores 3, 2, 2, 1 with losses 0, 1, 0, 1 (ties grouped): thresholds 3,
  # 2, 1 accept 1, 3, 4 samples with losses 0, 1, 2, so the alpha AURC is
  # (1 x 0 / 1 + 2 x 1 / 3 + 1 x 2 / 4) / 4 = 7 / 24; failure AUROC:
  # correct (3, 2) against failures (2, 1), pairs 1, 1, 1/2, 1: 3.5 / 4
  df <- data.frame(
    s = c(3L, 2L, 2L, 1L), l = c(0L, 1L, 0L, 1L), w = c(1L, 1L, 1L, 1L),
    model = "a"
  )
  for (types in list(
    c(s = "UInt64", l = "UInt8", w = "UInt32"),
    c(s = "Int16", l = "Int64", w = "Int8"),
    c(s = "Float32", l = "Float64", w = "Float32"),
    c(s = "Nullable(UInt32)", l = "Nullable(Int8)", w = "Nullable(Float32)")
  )) {
    t <- ch_distributed(con, df, "hand", types = types,
      split = c(TRUE, FALSE, TRUE, FALSE)
    )
    expect_equal(aurc(t, s, l)$.estimate, 7 / 24, tolerance = 1e-12)
    expect_equal(aurc(t, s, l, case_weights = w)$.estimate, 7 / 24,
      tolerance = 1e-12
    )
    expect_equal(failure_auroc(t, s, l)$.estimate, 3.5 / 4,
      tolerance = 1e-12
    )
    st <- score_table(t, s, l)
    expect_equal(st$score, c(1, 2, 3))
    expect_equal(st$n, c(1, 2, 1))
    expect_equal(st$loss_sum, c(1, 1, 0))
  }
})

test_that("NaN on ClickHouse is missing, as in memory", {
  con <- ch_con()
  # the hand case of above with a NaN score and a NaN loss added: NA, and
  # 7 / 24 once the incomplete rows are dropped
  df <- data.frame(
    s = c(3, 2, 2, 1, NaN, 2), l = c(0, 1, 0, 1, 0, NaN), model = "a"
  )
  for (types in list(
    c(s = "Float64", l = "Float64"),
    c(s = "Nullable(Float32)", l = "Float64")
  )) {
    t <- ch_distributed(con, df, "nans", types = types)
    expect_equal(aurc(t, s, l)$.estimate, NA_real_)
    expect_equal(aurc(t, s, l, na_rm = TRUE)$.estimate, 7 / 24,
      tolerance = 1e-12
    )
    expect_equal(
      as.data.frame(score_table(t, s, l)),
      as.data.frame(score_table(df, s, l))
    )
    expect_equal(attr(score_table(t, s, l), "missing")$n_missing, 2)
  }
})

test_that("bad input on ClickHouse gives the in-memory classed errors", {
  con <- ch_con()
  df <- data.frame(
    s = c(0.9, 0.5, 0.2, 0.1), l = c(0, -1, 1, 0), txt = c("a", "b", "c", "d"),
    f = c(0, 2, 1, 0), w = c(1, -1, 1, 1), ok = c(0, 1, 1, 0)
  )
  t <- ch_distributed(con, df, "bad")
  expect_error(aurc(t, s, l), class = "aurc_error_value")
  expect_error(aurc(df, s, l), class = "aurc_error_value")
  expect_error(aurc(t, txt, f), class = "aurc_error_type")
  expect_error(aurc(df, txt, f), class = "aurc_error_type")
  expect_error(aurc(t, nope, f), class = "aurc_error_column")
  expect_error(failure_auroc(t, s, f), class = "aurc_error_value")
  expect_error(failure_auroc(df, s, f), class = "aurc_error_value")
  expect_error(aurc(t, s, ok, case_weights = w), class = "aurc_error_value")
  expect_error(ece(t, s, f), class = "aurc_error_value")
})

test_that("a query ClickHouse rejects is a query error, a lost server not", {
  con <- ch_con()
  df <- data.frame(s = c(0.9, 0.5, 0.2, 0.1), l = c(0, 1, 1, 0))
  t <- ch_distributed(con, df, "errs")
  # the window path forced on an engine without window functions: the
  # engine rejects the syntax (and RClickhouse drops the connection)
  withr::with_options(list(aurc.db_windows = TRUE), {
    err <- expect_error(aurc(t, s, l), class = "aurc_error_database_query")
  })
  expect_match(conditionMessage(err$parent), "Syntax error")
  # a shard that is gone: the engine can't reach it, a connection error
  # that keeps the engine's message
  con2 <- ch_con()
  t2 <- dplyr::tbl(con2, "errs")
  on.exit(ch_restart(2), add = TRUE)
  ch_kill(2)
  err <- expect_error(aurc(t2, s, l),
    class = "aurc_error_database_connection"
  )
  expect_match(conditionMessage(err$parent), "Connection refused")
  ch_restart(2)
  expect_equal(aurc(t2, s, l)$.estimate, aurc(df, s, l)$.estimate)
  # the server R is connected to, gone: the connection error
  con3 <- ch_con()
  t3 <- dplyr::tbl(con3, "errs_local")
  on.exit(ch_restart(1), add = TRUE)
  ch_kill(1)
  expect_error(aurc(t3, s, l), class = "aurc_error_database_connection")
})

test_that("binned score tables stay within their stated error bound", {
  con <- ch_con()
  withr::local_seed(11)
  n <- 3000
  df <- data.frame(
    score = stats::rbeta(n, 2, 5), loss = round(stats::rexp(n), 3),
    model = sample(c("a", "b"), n, replace = TRUE)
  )
  df$failure <- stats::rbinom(n, 1, plogis(2 - 6 * df$score))
  t <- ch_distributed(con, df, "cont")
  for (bins in c(5, 20, 200)) {
    for (grouped in c(FALSE, TRUE)) {
      dd <- if (grouped) dplyr::group_by(df, model) else df
      td <- if (grouped) dplyr::group_by(t, model) else t
      for (loss in c("loss", "failure")) {
        lq <- rlang::sym(loss)
        sb <- score_table(td, score, !!lq, bins = bins)
        sm <- score_table(dd, score, !!lq, bins = bins)
        # the engine's bins are those of R
        expect_equal(as.data.frame(sb), as.data.frame(sm), tolerance = 1e-10)
        expect_lte(max(table(if (grouped) sb$model else rep(1, nrow(sb)))),
          bins
        )
        bound <- attr(sb, "bin_error")
        for (est in c("alpha", "trapezoid")) {
          exact <- aurc(dd, score, !!lq, estimator = est)$.estimate
          approx <- aurc(sb, estimator = est)$.estimate
          expect_true(all(abs(approx - exact) <= bound$aurc + 1e-12))
        }
        for (m in c("step", "trapezoid")) {
          exact <- augrc(dd, score, !!lq, method = m)$.estimate
          approx <- augrc(sb, method = m)$.estimate
          expect_true(all(abs(approx - exact) <= bound$augrc + 1e-12))
        }
        if (loss == "failure") {
          exact <- failure_auroc(dd, score, failure)$.estimate
          approx <- failure_auroc(sb)$.estimate
          expect_true(all(abs(approx - exact) <= bound$failure_auroc + 1e-12))
        } else {
          expect_true(all(is.na(bound$failure_auroc)))
        }
      }
    }
  }
})
