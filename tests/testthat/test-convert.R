# Every result class converts to a plain data frame and tibble with all of
# its columns, and has a tidy() method.
all_results <- function() {
  set.seed(3)
  n <- 300
  df <- data.frame(
    failure = stats::rbinom(n, 1, 0.3), a = round(stats::runif(n), 2),
    b = stats::runif(n), conf = stats::runif(n, 0.5, 1)
  )
  df$correct <- stats::rbinom(n, 1, df$conf)
  long <- data.frame(
    method = rep(c("x", "y"), each = n), case = rep(seq_len(n), 2),
    score = c(df$a, df$b), loss = rep(df$failure, 2)
  )
  list(
    comparison = compare_scores(df, c(a, b), failure),
    curve_comparison = compare_selective_curves(df, c(a, b), correct,
      1 - failure, times = 20
    ),
    ranking = bootstrap_ranking(long, method, case, score, loss, times = 20),
    corp = corp_reliability(df$conf, df$correct, times = 0),
    batch = aurc_batch_study(df$a, df$failure, batch_sizes = c(50, 100),
      times = 2
    ),
    bins = calibration_bins(df, conf, correct),
    smooth = smooth_calibration(df$conf, df$correct),
    rc = rc_curve(df, a, failure),
    roc = failure_roc_curve(df, a, failure),
    pr = failure_pr_curve(df, a, failure),
    contribution = contribution_curve(20),
    scores = score_table(df, a, failure),
    certificate = certify_threshold(df, a, failure, 0.5, delta = 0.1),
    certificate_groups = certify_threshold(df, a, failure, 0.05,
      method = "crc", group = correct
    )
  )
}

test_that("as.data.frame() and as_tibble() keep every column, plainly", {
  res <- all_results()
  for (nm in names(res)) {
    x <- res[[nm]]
    cls <- class(x)[1]
    tables <- result_tables[[cls]]
    whats <- if (is.null(tables)) list(NULL) else as.list(tables)
    for (what in whats) {
      src <- if (is.null(what)) x else x[[what]]
      d <- if (is.null(what)) as.data.frame(x) else as.data.frame(x, what = what)
      tb <- if (is.null(what)) {
        tibble::as_tibble(x)
      } else {
        tibble::as_tibble(x, what = what)
      }
      expect_identical(class(d), "data.frame", info = paste(nm, what))
      expect_identical(class(tb), c("tbl_df", "tbl", "data.frame"),
        info = paste(nm, what)
      )
      expect_identical(names(d), names(src), info = paste(nm, what))
      expect_identical(nrow(d), nrow(src), info = paste(nm, what))
      for (col in names(src)) {
        expect_identical(d[[col]], src[[col]], info = paste(nm, what, col))
        expect_identical(tb[[col]], src[[col]], info = paste(nm, what, col))
      }
      expect_setequal(names(attributes(d)), c("names", "row.names", "class"))
    }
  }
})

test_that("tidy() is registered for generics without a dependency", {
  skip_if_not_installed("generics")
  res <- all_results()
  for (nm in names(res)) {
    tb <- generics::tidy(res[[nm]])
    expect_s3_class(tb, "tbl_df")
    expect_identical(tb, tibble::as_tibble(res[[nm]]), info = nm)
  }
  expect_identical(generics::tidy(res$comparison, what = "estimates"),
    tibble::as_tibble(res$comparison$estimates)
  )
})

test_that("what = must name a table", {
  res <- all_results()
  expect_snapshot(error = TRUE, as.data.frame(res$comparison, what = "nope"))
  expect_error(tibble::as_tibble(res$corp, what = 1), class = "aurc_error")
})
