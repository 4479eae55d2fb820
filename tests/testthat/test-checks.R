test_that("check_threads caps at the cores, the option and OMP_THREAD_LIMIT", {
  cores <- parallel::detectCores()
  expect_identical(check_threads(1), 1L)
  expect_message(
    n <- check_threads(1e9),
    class = "aurc_message_threads"
  )
  expect_lte(n, cores)
  expect_gte(n, 1L)
  withr::with_options(list(aurc.threads = 1), {
    expect_message(n <- check_threads(2), "option aurc.threads",
      class = "aurc_message_threads"
    )
    expect_identical(n, 1L)
  })
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), {
    expect_message(n <- check_threads(2), "OMP_THREAD_LIMIT",
      class = "aurc_message_threads"
    )
    expect_identical(n, 1L)
  })
  # a cap that is not a positive number is ignored
  withr::with_options(list(aurc.threads = "a lot"), {
    expect_identical(check_threads(1), 1L)
  })
})

test_that("check_threads rejects what is not a thread count", {
  for (bad in list(0, -1, 1.5, NA, NA_real_, Inf, "2", c(1, 2), NULL)) {
    expect_error(check_threads(bad), class = "aurc_error")
  }
  f <- function(threads) check_threads(threads)
  expect_snapshot(error = TRUE, {
    f(0)
    f(Inf)
    f("2")
  })
})

test_that("check_cells fails before allocation, and the option raises it", {
  expect_silent(check_cells(100, "n", "a table"))
  expect_error(check_cells(2^40, "n", "a table"), class = "aurc_error_size")
  expect_error(check_cells(NA, "n", "a table"), class = "aurc_error_size")
  withr::with_options(list(aurc.max_cells = 10), {
    expect_error(check_cells(11, "n", "a table"), class = "aurc_error_size")
  })
  expect_snapshot(error = TRUE, check_cells(2^40, "times", "the table"))
})

test_that("check_whole_numbers bounds values at 2^53", {
  expect_identical(check_whole_numbers(2^53), 2^53)
  expect_error(check_whole_numbers(2^53 + 2), class = "aurc_error_size")
  expect_error(check_whole_numbers(1e308), class = "aurc_error_size")
})

test_that("sizes are validated before allocation, naming the argument", {
  d <- data.frame(
    method = rep(c("a", "b"), each = 20), case = rep(1:20, 2),
    score = stats::runif(40), loss = rep(c(0, 1), 20)
  )
  for (times in c(1e9, 1e308, 2^31)) {
    expect_error(
      bootstrap_ranking(d, method, case, score, loss, times = times),
      "times", class = "aurc_error_size"
    )
    expect_error(
      aurc_batch_study(d$score, d$loss, batch_sizes = 4, times = times),
      "times", class = "aurc_error"
    )
  }
  expect_error(contribution_curve(1e308), "n", class = "aurc_error_size")
  expect_error(contribution_curve(1e12), "n", class = "aurc_error_size")
  expect_error(
    calibration_bins_vec(stats::runif(20), rep(0:1, 10), binning = "equal_width",
      n_bins = 1e9
    ),
    "n_bins", class = "aurc_error"
  )
  expect_error(weight_mse(3, 1e16), "n", class = "aurc_error_size")
  expect_error(weight_bias(0.5, 1e16), "n", class = "aurc_error_size")
  expect_error(plot_weight_bias(n = 1e308), "n", class = "aurc_error_size")
  expect_error(mean_weight_mse(1e9, "sele"), "n", class = "aurc_error_size")
})

test_that("empty and degenerate input is a classed error", {
  d0 <- data.frame(
    method = character(), case = integer(), score = numeric(),
    loss = numeric()
  )
  expect_error(bootstrap_ranking(d0, method, case, score, loss),
    class = "aurc_error_length"
  )
  m0 <- matrix(numeric(), 0, 2, dimnames = list(NULL, c("a", "b")))
  expect_error(rank_replicates(m0), class = "aurc_error_length")
  expect_error(plot_weight_bias(n = numeric(0)), class = "aurc_error_length")
  expect_error(plot_weight_mse_bound(beta = 0), class = "aurc_error_value")
  expect_error(plot_weight_mse_bound(beta = numeric()),
    class = "aurc_error_value"
  )
  expect_error(confidence_score(matrix(1:4, 2), temperature = Inf),
    "temperature", class = "aurc_error_value"
  )
  expect_error(inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 1),
    "no correct prediction", class = "aurc_error_value"
  )
  expect_identical(inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 0),
    c(0, 0))
  expect_snapshot(error = TRUE, {
    bootstrap_ranking(d0, method, case, score, loss)
    rank_replicates(m0)
    inject_failures(c(NA_real_, NA_real_), c(0, 0), m = 1)
  })
})
