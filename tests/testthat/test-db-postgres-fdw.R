# A sharded PostgreSQL layout (issue 37; DEFINITIONS Sec. 12): a table
# partitioned by the list of `model`, model "a" in a local partition and
# models "b" and "c" in a postgres_fdw foreign partition whose rows live
# on a second server (helper-db-fdw.R starts it as helper-db.R starts the
# first). Every metric on the partitioned table equals the in-memory one;
# with enable_partitionwise_aggregate, each GROUP BY the package sends for
# a table grouped by the shard key runs on the shard (EXPLAIN VERBOSE
# shows the foreign partition's Remote SQL with its GROUP BY).
#
# What PostgreSQL cannot push down: a GROUP BY without the partition key
# (the ungrouped metrics group by the score alone). Rows of one score then
# lie on both servers, so the shard could only return partial aggregates,
# and postgres_fdw pushes down only full ones (partitionwise aggregation
# of PostgreSQL 15 makes it PARTITIONWISE_AGGREGATE_PARTIAL, which
# postgres_fdw declines); it ships the rows and the first server groups
# them. The results are the same. To have every shard group its own rows,
# compute a score table per shard on its own server and merge them
# (combine_score_tables(); tested below).

shard_data <- function(seed) {
  df <- db_test_data(seed = seed)
  withr::with_seed(seed, {
    df$quality <- round(stats::runif(nrow(df)), 1)
  })
  df
}

shard_same <- function(a, b, tol = 1e-10) {
  expect_equal(as.data.frame(a), as.data.frame(b), tolerance = tol)
}

test_that("the sharded table holds its rows on both servers", {
  cons <- pg_fdw_cons()
  df <- shard_data(5)
  t <- pg_sharded_copy(cons, df, "preds_sharded", "model", "a")
  n_far <- DBI::dbGetQuery(cons$con2,
    'SELECT COUNT(*) AS n FROM "preds_sharded_far"'
  )$n
  n_local <- DBI::dbGetQuery(cons$con,
    'SELECT COUNT(*) AS n FROM ONLY "preds_sharded_local"'
  )$n
  expect_equal(as.numeric(n_far), sum(df$model != "a"))
  expect_equal(as.numeric(n_local), sum(df$model == "a"))
  kinds <- DBI::dbGetQuery(cons$con, paste(
    "SELECT c.relname, c.relkind::text AS kind FROM pg_inherits i",
    "JOIN pg_class c ON c.oid = i.inhrelid",
    "WHERE i.inhparent = 'preds_sharded'::regclass ORDER BY c.relname"
  ))
  # the foreign table ("f") and the table ("r")
  expect_equal(kinds$relname, c("preds_sharded_far", "preds_sharded_local"))
  expect_equal(kinds$kind, c("f", "r"))
  expect_equal(as.numeric(dplyr::collect(dplyr::count(t))$n), nrow(df))
})

test_that("every metric on the sharded table equals the in-memory form", {
  cons <- pg_fdw_cons()
  df <- shard_data(5)
  t <- pg_sharded_copy(cons, df, "preds_sharded", "model", "a")
  DBI::dbExecute(cons$con, "SET enable_partitionwise_aggregate = on")
  expect_db_matches_memory(t, df, tol = 1e-10)
  expect_db_curves_match_memory(t, df, tol = 1e-10)
})

test_that("estimators, E-AURC, PRR/AUARC and score tables when sharded", {
  cons <- pg_fdw_cons()
  df <- shard_data(6)
  t <- pg_sharded_copy(cons, df, "preds_sharded", "model", "a")
  DBI::dbExecute(cons$con, "SET enable_partitionwise_aggregate = on")
  estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")
  for (grouped in c(FALSE, TRUE)) {
    td <- if (grouped) dplyr::group_by(t, model) else t
    dd <- if (grouped) dplyr::group_by(df, model) else df
    for (est in estimators) {
      shard_same(
        aurc(td, score, loss, estimator = est, na_rm = TRUE, case_weights = fw),
        aurc(dd, score, loss, estimator = est, na_rm = TRUE, case_weights = fw)
      )
    }
    # (every estimator on CI, AURC_SLOW_TESTS=true)
    for (est in test_grid(c("alpha_prime", "trapezoid"), estimators)) {
      shard_same(
        eaurc(td, score, loss, estimator = est, na_rm = TRUE),
        eaurc(dd, score, loss, estimator = est, na_rm = TRUE)
      )
      shard_same(
        naurc(td, score, failure, estimator = est, na_rm = TRUE,
          case_weights = w
        ),
        naurc(dd, score, failure, estimator = est, na_rm = TRUE,
          case_weights = w
        )
      )
      shard_same(
        auarc(td, score, quality, estimator = est, na_rm = TRUE),
        auarc(dd, score, quality, estimator = est, na_rm = TRUE)
      )
    }
    for (method in c("trapezoid", "step")) {
      shard_same(
        augrc(td, score, loss, method = method, na_rm = TRUE,
          case_weights = fw
        ),
        augrc(dd, score, loss, method = method, na_rm = TRUE,
          case_weights = fw
        )
      )
    }
    shard_same(
      eaugrc(td, score, failure, na_rm = TRUE, case_weights = w),
      eaugrc(dd, score, failure, na_rm = TRUE, case_weights = w)
    )
    shard_same(
      failure_auroc(td, score, failure, na_rm = TRUE),
      failure_auroc(dd, score, failure, na_rm = TRUE)
    )
    shard_same(
      failure_aupr(td, score, failure, na_rm = TRUE, case_weights = fw),
      failure_aupr(dd, score, failure, na_rm = TRUE, case_weights = fw)
    )
    for (r in c(1, 0.4)) {
      shard_same(
        prr(td, score, quality, max_rejection = r, na_rm = TRUE,
          case_weights = fw
        ),
        prr(dd, score, quality, max_rejection = r, na_rm = TRUE,
          case_weights = fw
        )
      )
    }
    for (fn in list(ece, mce)) {
      for (bn in c("equal_width", "equal_mass")) {
        shard_same(
          fn(td, conf, correct, binning = bn, n_bins = 5, na_rm = TRUE,
            case_weights = w
          ),
          fn(dd, conf, correct, binning = bn, n_bins = 5, na_rm = TRUE,
            case_weights = w
          )
        )
      }
      shard_same(
        fn(td, conf, correct, binning = "adaptive", na_rm = TRUE),
        fn(dd, conf, correct, binning = "adaptive", na_rm = TRUE)
      )
    }
    # score tables: the same table, and the same metrics from it
    st <- score_table(td, score, loss, case_weights = fw)
    sm <- score_table(dd, score, loss, case_weights = fw)
    shard_same(st, sm)
    shard_same(attr(st, "losses"), attr(sm, "losses"))
    shard_same(attr(st, "missing"), attr(sm, "missing"))
    shard_same(
      selective_metrics(st,
        metrics = c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage"),
        coverage = 0.6, na_rm = TRUE
      ),
      selective_metrics(dd, score, loss,
        metrics = c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage"),
        coverage = 0.6, na_rm = TRUE, case_weights = fw
      )
    )
    sq <- score_table(td, score, quality = quality)
    shard_same(
      selective_metrics(sq, metrics = c("prr", "auarc"), na_rm = TRUE),
      selective_metrics(dd, score, 1 - quality, metrics = c("prr", "auarc"),
        na_rm = TRUE
      )
    )
  }
})

test_that("grouped by the shard key, every GROUP BY runs on the shard", {
  cons <- pg_fdw_cons()
  con <- cons$con
  df <- shard_data(7)
  t <- pg_sharded_copy(cons, df, "preds_pushed", "model", "a")
  DBI::dbExecute(con, "SET enable_partitionwise_aggregate = on")
  tg <- dplyr::group_by(t, model)
  sql <- pg_traced_statements({
    selective_metrics(tg, score, failure,
      metrics = c("aurc", "augrc", "failure_auroc", "eaurc", "naurc"),
      na_rm = TRUE, case_weights = w
    )
    ece(tg, conf, correct, binning = "equal_width", na_rm = TRUE)
    ece(tg, conf, correct, binning = "equal_mass", na_rm = TRUE)
    mce(tg, conf, correct, binning = "adaptive", na_rm = TRUE)
    prr(tg, score, quality, na_rm = TRUE)
    score_table(tg, score, loss)
    rc_curve(tg, score, loss, na_rm = TRUE)
  })
  # the statements that aggregate (the others read no row: WHERE 1 = 0)
  agg <- sql[grepl("GROUP BY", sql, fixed = TRUE)]
  expect_gte(length(agg), 9)
  for (s in agg) {
    remote <- pg_remote_sql(pg_explain(con, s))
    # one foreign scan, of the far partition, grouping there by the key
    # and the score (or the loss, for the per-loss table)
    expect_length(remote, 1)
    expect_match(remote, "FROM public.preds_pushed_far", fixed = TRUE)
    expect_match(remote, "GROUP BY 1, 2", fixed = TRUE)
  }
  # the window sums and the final aggregate run on the first server, over
  # the shard's per-score rows
  plan <- pg_explain(con, agg[[1]])
  expect_match(plan, "Relations: Aggregate on (public.preds_pushed_far",
    fixed = TRUE
  )
  expect_match(plan, "WindowAgg", fixed = TRUE)
  # ungrouped, the GROUP BY of the scores lacks the partition key: the
  # shard could only aggregate partially, postgres_fdw pushes down full
  # aggregates only, so the shard sends its rows and the first server
  # groups them (same values: tested above). Checked on PostgreSQL 15.
  version <- as.numeric(DBI::dbGetQuery(con, "SHOW server_version_num")[[1]])
  flat <- pg_traced_statements({
    selective_metrics(t, score, failure,
      metrics = c("aurc", "failure_auroc", "naurc"), na_rm = TRUE
    )
  })
  flat <- flat[grepl("GROUP BY", flat, fixed = TRUE)]
  expect_gte(length(flat), 2)
  for (s in flat) {
    remote <- pg_remote_sql(pg_explain(con, s))
    expect_length(remote, 1)
    if (version < 160000) {
      expect_false(grepl("GROUP BY", remote, fixed = TRUE))
    }
  }
  # without partitionwise aggregation the shard sends its rows also when
  # grouped
  DBI::dbExecute(con, "SET enable_partitionwise_aggregate = off")
  for (s in agg) {
    remote <- pg_remote_sql(pg_explain(con, s))
    expect_false(any(grepl("GROUP BY", remote, fixed = TRUE)))
  }
})

test_that("score tables of the shards, each on its own server, merge", {
  cons <- pg_fdw_cons()
  df <- shard_data(8)
  t <- pg_sharded_copy(cons, df, "preds_merged", "model", "a")
  local <- suppressWarnings(dplyr::tbl(cons$con, "preds_merged_local"))
  far <- suppressWarnings(dplyr::tbl(cons$con2, "preds_merged_far"))
  merged <- combine_score_tables(
    score_table(local, score, loss, case_weights = fw),
    score_table(far, score, loss, case_weights = fw)
  )
  mem <- score_table(df, score, loss, case_weights = fw)
  shard_same(merged, mem)
  shard_same(attr(merged, "losses"), attr(mem, "losses"))
  shard_same(attr(merged, "missing"), attr(mem, "missing"))
  shard_same(merged, score_table(t, score, loss, case_weights = fw))
  m <- c("aurc", "augrc", "eaurc", "naurc", "coverage_at_risk")
  shard_same(
    selective_metrics(merged, metrics = m, risk = 0.8, na_rm = TRUE),
    selective_metrics(df, score, loss,
      metrics = m, risk = 0.8, na_rm = TRUE, case_weights = fw
    )
  )
  shard_same(
    rc_curve(merged, na_rm = TRUE),
    rc_curve(df, score, loss, na_rm = TRUE, case_weights = fw)
  )
})

test_that("bad values on the foreign partition are the classed errors", {
  cons <- pg_fdw_cons()
  df <- shard_data(9)
  df$txt <- as.character(df$score)
  far <- which(df$model != "a")[3]
  cases <- list(
    list(col = "loss", value = -2, class = "aurc_error_value",
      fn = function(d) aurc(d, score, loss)),
    list(col = "failure", value = 2L, class = "aurc_error_value",
      fn = function(d) failure_auroc(d, score, failure)),
    list(col = "w", value = -1L, class = "aurc_error_value",
      fn = function(d) augrc(d, score, loss, case_weights = w)),
    list(col = "quality", value = 1.5, class = "aurc_error_value",
      fn = function(d) prr(d, score, quality)),
    list(col = "conf", value = 1.5, class = "aurc_error_value",
      fn = function(d) ece(d, conf, correct, binning = "equal_width")),
    list(col = "correct", value = 0.5, class = "aurc_error_value",
      fn = function(d) mce(d, conf, correct, binning = "equal_mass"))
  )
  for (case in cases) {
    bad <- df
    bad[[case$col]][far] <- case$value
    t <- pg_sharded_copy(cons, bad, "preds_bad", "model", "a")
    # the bad value is on the second server only
    expect_equal(nrow(DBI::dbGetQuery(cons$con, paste0(
      "SELECT 1 FROM ONLY \"preds_bad_local\" WHERE \"", case$col, "\" = ",
      case$value
    ))), 0)
    for (grouped in c(FALSE, TRUE)) {
      td <- if (grouped) dplyr::group_by(t, model) else t
      dd <- if (grouped) dplyr::group_by(bad, model) else bad
      expect_error(case$fn(dd), class = case$class)
      expect_error(case$fn(td), class = case$class)
    }
  }
  t <- pg_sharded_copy(cons, df, "preds_bad", "model", "a")
  expect_error(aurc(t, txt, loss), class = "aurc_error_type")
  expect_error(aurc(df, txt, loss), class = "aurc_error_type")
  expect_error(aurc(t, score, nope), class = "aurc_error_column")
  expect_error(score_table(t, score, nope), class = "aurc_error_column")
})
