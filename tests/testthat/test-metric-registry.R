test_that("every exported form has the formals the registry gives", {
  for (name in aurc:::metric_names()) {
    vec <- getExportedValue("aurc", paste0(name, "_vec"))
    df <- getExportedValue("aurc", name)
    expect_identical(formals(vec), aurc:::metric_form_formals(name, FALSE),
      info = name
    )
    expect_identical(formals(df), aurc:::metric_form_formals(name), info = name)
  }
})

test_that("registry entries are complete and known to the C++ engine", {
  reg <- aurc:::metric_registry
  expect_identical(names(reg), aurc:::metric_names())
  for (name in names(reg)) {
    info <- aurc:::metric_entry(name)
    expect_true(info$direction %in% c("minimize", "maximize"))
    expect_true(info$input %in% c("loss", "failure", "quality"))
    expect_true(all(info$options %in% names(aurc:::metric_option_registry)))
    kernel <- aurc:::metric_kernels(name, list(
      max_rejection = 0.5, coverage_range = c(0.2, 0.9), tpr = 0.9
    ))
    res <- aurc:::metrics_impl(
      c(3, 2, 1), c(0, 1, 1), double(), kernel, "alpha", "trapezoid",
      "exact", 0.5, 0.5
    )
    expect_true(is.finite(res$values))
  }
  expect_error(aurc:::metric_entry("auc"), class = "aurc_error")
  lower_better <- c(
    "aurc", "augrc", "eaurc", "eaugrc", "naurc", "risk_at_coverage",
    "partial_aurc", "partial_augrc", "fpr_at_tpr", "achievable_aurc"
  )
  expect_identical(
    names(Filter(function(x) x$direction == "minimize", reg)), lower_better
  )
})

# Random grouped data with ties, missing values, case weights, a group of
# weight zero and a group with a single class.
grouped_test_data <- function(binary) {
  set.seed(if (binary) 5 else 6)
  sizes <- c(30, 1, 45, 12, 20, 8)
  g <- rep(seq_along(sizes), sizes)
  n <- length(g)
  d <- random_tied_data(n, grid = 0.5, binary = binary)
  w <- stats::runif(n)
  w[g == 2] <- 0
  d$loss[g == 6] <- if (binary) 1 else 0.5
  d$score[c(3, 50)] <- NA
  d$loss[c(40)] <- NA
  data.frame(g = g, score = d$score, loss = d$loss, w = w)
}

per_group <- function(df, fn) {
  vapply(split(df, df$g), function(x) fn(x), numeric(1), USE.NAMES = FALSE)
}

test_that("grouped evaluation equals the vector form group by group", {
  skip_if_not_installed("dplyr")
  for (binary in c(TRUE, FALSE)) {
    df <- grouped_test_data(binary)
    # shuffle the rows: grouped results must not depend on row order
    df <- df[sample(nrow(df)), ]
    # a quality must lie in [0, 1]
    df$loss <- pmin(df$loss, 1)
    gdf <- dplyr::group_by(df, g)
    names <- if (binary) aurc:::metric_names() else
      setdiff(aurc:::metric_names(), aurc:::binary_metrics)
    opts <- list(
      risk_at_coverage = list(coverage = 0.4),
      coverage_at_risk = list(risk = 0.3),
      partial_aurc = list(coverage_range = c(0.2, 0.7)),
      partial_augrc = list(coverage_range = c(0.3, 1)),
      prr = list(max_rejection = 0.6),
      fpr_at_tpr = list(tpr = 0.8)
    )
    for (name in names) {
      vec <- getExportedValue("aurc", paste0(name, "_vec"))
      dff <- getExportedValue("aurc", name)
      for (na_rm in c(FALSE, TRUE)) {
        extra <- c(opts[[name]], list(na_rm = na_rm))
        got <- suppressWarnings(do.call(dff, c(
          list(gdf, quote(score), quote(loss), case_weights = quote(w)), extra
        )))
        want <- suppressWarnings(per_group(df[order(df$g), ], function(x) {
          do.call(vec, c(list(x$score, x$loss, case_weights = x$w), extra))
        }))
        expect_identical(got$g, sort(unique(df$g)))
        expect_equal(got$.estimate, want, tolerance = 1e-14,
          info = paste(name, binary, na_rm)
        )
      }
    }
  }
})

test_that("grouped forms warn once per group left without data or class", {
  skip_if_not_installed("dplyr")
  df <- grouped_test_data(TRUE)
  gdf <- dplyr::group_by(df, g)
  seen <- list()
  res <- withCallingHandlers(
    failure_auroc(gdf, score, loss, na_rm = TRUE, case_weights = w),
    warning = function(cnd) {
      seen[[length(seen) + 1]] <<- class(cnd)[1]
      invokeRestart("muffleWarning")
    }
  )
  expect_identical(
    unlist(seen), c("aurc_warning_no_data", "aurc_warning_one_class")
  )
  expect_identical(
    is.na(res$.estimate), c(FALSE, TRUE, FALSE, FALSE, FALSE, TRUE)
  )
})

test_that("selective_metrics() on groups equals it group by group", {
  skip_if_not_installed("dplyr")
  df <- grouped_test_data(TRUE)
  df <- df[stats::complete.cases(df) & df$g != 2, ]
  gdf <- dplyr::group_by(df, g)
  metrics <- aurc:::all_metrics
  got <- suppressWarnings(selective_metrics(gdf, score, loss,
    metrics = metrics, coverage = 0.5, risk = 0.2, case_weights = w,
    estimator = "sele", optimum = "asymptotic", coverage_range = c(0.1, 0.6),
    max_rejection = 0.7
  ))
  want <- do.call(rbind, lapply(split(df, df$g), function(x) {
    suppressWarnings(selective_metrics_vec(x$score, x$loss,
      metrics = metrics, coverage = 0.5, risk = 0.2, case_weights = x$w,
      estimator = "sele", optimum = "asymptotic",
      coverage_range = c(0.1, 0.6), max_rejection = 0.7
    ))
  }))
  expect_identical(got$g, rep(sort(unique(df$g)), each = length(metrics)))
  expect_identical(got$.metric, want$.metric)
  expect_identical(got$.estimator, want$.estimator)
  expect_equal(got$.estimate, want$.estimate, tolerance = 1e-14)
})

test_that("integer case weights equal repeated rows in grouped forms", {
  skip_if_not_installed("dplyr")
  set.seed(9)
  df <- data.frame(
    g = rep(1:3, each = 15), score = round(stats::rnorm(45), 1),
    loss = stats::rbinom(45, 1, 0.4), w = sample(0:3, 45, TRUE)
  )
  rep_df <- df[rep(seq_len(nrow(df)), df$w), ]
  a <- selective_metrics(dplyr::group_by(df, g), score, loss,
    case_weights = w
  )
  b <- selective_metrics(dplyr::group_by(rep_df, g), score, loss)
  expect_equal(a$.estimate, b$.estimate, tolerance = 1e-14)
})

test_that("rc_curve() on groups equals one curve per group", {
  skip_if_not_installed("dplyr")
  set.seed(11)
  sizes <- c(2500, 40, 7)
  g <- rep(1:3, sizes)
  d <- random_tied_data(sum(sizes), grid = 0.01)
  df <- data.frame(g = g, score = d$score, loss = d$loss,
    w = stats::runif(length(g))
  )
  df$score[5] <- NA
  df <- df[sample(nrow(df)), ]
  cur <- rc_curve(dplyr::group_by(df, g), score, loss,
    case_weights = w, na_rm = TRUE
  )
  for (k in 1:3) {
    x <- df[df$g == k, ]
    one <- rc_curve_vec(x$score, x$loss, case_weights = x$w, na_rm = TRUE)
    expect_equal(as.data.frame(cur[cur$g == k, -1]), as.data.frame(one),
      tolerance = 1e-14, ignore_attr = TRUE
    )
    ora <- attr(cur, "oracle")
    expect_equal(as.data.frame(ora[ora$g == k, -1]),
      as.data.frame(attr(one, "oracle")),
      tolerance = 1e-12
    )
    ran <- attr(cur, "random")
    expect_equal(ran$mean_loss[ran$g == k], attr(one, "random")$mean_loss,
      tolerance = 1e-14
    )
  }
  expect_identical(nrow(attr(cur, "oracle")[attr(cur, "oracle")$g == 1, ]),
    2000L
  )
  expect_identical(attr(cur, "group_vars"), "g")
})

test_that("every registry form takes the outcome as `correct =`, never both", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.5, 0.3, 0.2)
  ok <- c(1, 1, 0, 1, 0, 0, 1)
  d <- data.frame(s = s, ok = ok, f = 1 - ok)
  opts <- list(coverage = 0.5, risk = 0.3, coverage_range = c(0.2, 0.9))
  for (name in aurc:::metric_names()) {
    vec <- getExportedValue("aurc", paste0(name, "_vec"))
    df <- getExportedValue("aurc", name)
    takes <- intersect(names(opts), names(formals(vec)))
    quality <- aurc:::metric_entry(name)$input == "quality"
    outcome <- if (quality) ok else 1 - ok
    want <- do.call(vec, c(list(s, outcome), opts[takes]))
    expect_identical(do.call(vec, c(list(s), opts[takes], list(correct = ok))),
      want, info = name)
    expect_identical(
      do.call(vec, c(list(s), opts[takes], list(correct = ok == 1))),
      want, info = name
    )
    got <- do.call(df, c(list(d, quote(s)), opts[takes],
      list(correct = quote(ok))))
    expect_identical(got$.estimate, want, info = name)
    expect_error(do.call(vec, c(list(s, outcome), opts[takes],
      list(correct = ok))), class = "aurc_error_value", info = name)
    expect_error(do.call(vec, c(list(s), opts[takes])),
      class = "aurc_error_missing", info = name)
    expect_error(do.call(df, c(list(d, quote(s)), opts[takes])),
      class = "aurc_error_missing", info = name)
    expect_error(do.call(vec, c(list(s), opts[takes],
      list(correct = replace(ok, 2, 0.5)))), class = "aurc_error", info = name)
  }
  err <- tryCatch(aurc_vec(s, 1 - ok, correct = ok), error = identity)
  expect_match(conditionMessage(err), "`loss` or `correct`")
})

test_that("the catalog's regression and LLM entries are complete", {
  more <- aurc:::metric_catalog_more
  fam <- Filter(function(e) e$family %in% c("regression", "llm"), more)
  expect_setequal(names(fam), c("ause", "rank_calibration_error",
    "spearman", "kendall", "quality_auroc", "quality_aupr"))
  ci_args <- names(formals(selective_ci))
  for (name in names(fam)) {
    e <- fam[[name]]
    expect_true(e$direction %in% c("minimize", "maximize"), info = name)
    expect_identical(e$input, if (e$family == "llm") "quality" else "loss")
    # evaluated on the data by an R kernel and on the replicates' counts
    expect_true(e$replicate %in% names(aurc:::ci_r_kernels), info = name)
    expect_true(e$replicate %in% names(aurc:::ci_r_count_kernels))
    # every option is an argument of the forms that take the metric
    expect_true(all(e$options %in% ci_args), info = name)
    for (f in list(compare_scores, compare_groups)) {
      expect_true(all(e$options %in% names(formals(f))), info = name)
    }
    plan <- aurc:::metric_influence_plan(name, aurc:::influence_options())
    expect_true(plan$kind %in% c("none", "r"), info = name)
    expect_identical(plan$kind == "r",
      isTRUE(metric_info(name)$analytic_interval), info = name)
  }
  # the metrics whose vector forms take no case weights say so
  expect_identical(sort(aurc:::ci_unweighted_metrics),
    sort(c("kendall", "rank_calibration_error", "spearman")))
  for (m in aurc:::ci_unweighted_metrics) {
    vec <- switch(m, rank_calibration_error = rank_calibration_error_vec,
      uncertainty_correlation_vec)
    expect_false("case_weights" %in% names(formals(vec)), info = m)
  }
})
