test_that("progress bars only in interactive sessions, and can be turned off", {
  rlang::local_interactive(FALSE)
  expect_false(progress_wanted())
  expect_null(progress_bar(10, "work"))
  expect_null(progress_callback(NULL))
  rlang::local_interactive(TRUE)
  expect_true(progress_wanted())
  withr::local_options(aurc.progress = FALSE)
  expect_false(progress_wanted())
  expect_null(progress_bar(10, "work"))
})

test_that("the ranking kernel reports every replicate, in order", {
  set.seed(5)
  n <- 30
  score <- matrix(round(stats::rnorm(2 * n), 1), n)
  loss <- matrix(stats::rbinom(2 * n, 1, 0.3), n)
  idx <- matrix(sample.int(n, n * 100, replace = TRUE), n)
  for (threads in 1:2) {
    seen <- numeric()
    aurc_spec <- ranking_metric_specs("aurc")
    with_bar <- ranking_kernel_values(
      score, loss, idx, aurc_spec, threads,
      function(done) seen <<- c(seen, done)
    )
    expect_identical(
      with_bar, ranking_kernel_values(score, loss, idx, aurc_spec, threads)
    )
    expect_true(length(seen) >= 2)
    expect_false(is.unsorted(seen, strictly = TRUE))
    expect_identical(seen[length(seen)], 100)
  }
})

test_that("the batch study reports each split", {
  set.seed(2)
  score <- stats::runif(200)
  loss <- stats::rbinom(200, 1, 0.3)
  seen <- numeric()
  set.seed(3)
  a <- batch_study_impl(score, loss, c(10, 20), "alpha", 4L,
    function(done) seen <<- c(seen, done)
  )
  set.seed(3)
  b <- batch_study_impl(score, loss, c(10, 20), "alpha", 4L)
  expect_identical(a, b)
  expect_identical(seen, c(1, 2, 3, 4))
})

test_that("a progress bar does not change results", {
  d <- withr::with_seed(4, ranking_data(n = 30))
  my_metric <- function(score, loss) mean(loss[score >= stats::median(score)])
  rank_it <- function() {
    withr::with_seed(9, bootstrap_ranking(
      d, method, case, score, loss,
      metrics = list("aurc", top_half = my_metric), times = 20
    ))
  }
  quiet <- rank_it()
  rlang::local_interactive(TRUE)
  withr::local_options(cli.progress_show_after = 0)
  # cli writes the bar to a non-dynamic terminal as messages; they are not
  # part of the result
  shown <- suppressMessages(rank_it())
  expect_identical(shown$replicates, quiet$replicates)
  expect_identical(shown$tests, quiet$tests)
  study <- function() {
    withr::with_seed(1, aurc_batch_study(d$score, d$loss, batch_sizes = 5))
  }
  expect_identical(suppressMessages(study())$estimates, {
    rlang::local_interactive(FALSE)
    study()$estimates
  })
})

test_that("bootstrap intervals report their replicates, results unchanged", {
  set.seed(5)
  s <- matrix(stats::runif(200))
  f <- stats::rbinom(200, 1, 1 - s)
  boot <- function(threads, progress = NULL) {
    ci_bootstrap_impl(
      score = s, loss = f, case_weights = double(),
      metrics = c("aurc", "augrc"), estimator = "alpha",
      method = "trapezoid", optimum = "exact", coverage = 0.5, risk = 0.5,
      n_bins = 10,
      calibration = ci_calibration_options(list(
        smooth_method = "fine", corp_score = "brier"
      )),
      strata = integer(), n_strata = 0L, cluster = integer(),
      n_clusters = 0L, indices = matrix(0L, 0, 0), times = 1000,
      seed = c(11, 12), threads = threads, jackknife = FALSE,
      truth = integer(), n_classes = 0L, progress = progress
    )
  }
  for (threads in 1:2) {
    seen <- numeric()
    shown <- boot(threads, function(done) seen <<- c(seen, done))
    expect_identical(shown, boot(threads))
    expect_true(length(seen) >= 2)
    expect_false(is.unsorted(seen, strictly = TRUE))
    expect_identical(seen[length(seen)], 1000)
  }
  # and through the user-facing function, in an interactive session
  run <- function() {
    withr::with_seed(8, selective_ci_vec(s[, 1], f,
      method = "bootstrap", times = 300
    ))
  }
  quiet <- run()
  rlang::local_interactive(TRUE)
  withr::local_options(cli.progress_show_after = 0)
  expect_identical(suppressMessages(run()), quiet)
})
