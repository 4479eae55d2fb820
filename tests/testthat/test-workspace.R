# The option aurc.workspace: large sort buffers kept for the next call
# (src/core/memory.h), the same results whether kept or fresh.

kept_mb <- function() aurc:::workspace_kept_impl() / 2^20

test_that("large buffers are kept up to the limit and freed with 0", {
  withr::local_options(aurc.workspace = NULL)
  set.seed(11)
  n <- 1e6 # buffers of 8 MB, above the 4 MiB threshold
  score <- round(runif(n), 3)
  loss <- rbinom(n, 1, 0.3)
  fresh <- withr::with_options(list(aurc.workspace = 0), {
    a <- aurc_vec(score, loss)
    expect_equal(kept_mb(), 0)
    a
  })
  kept <- aurc_vec(score, loss)
  expect_gt(kept_mb(), 8)
  expect_lte(kept_mb(), 512)
  again <- aurc_vec(score, loss) # the kept buffers, reused
  expect_identical(kept, fresh)
  expect_identical(again, fresh)
  w <- runif(n)
  expect_identical(
    aurc_vec(score, loss, case_weights = w),
    withr::with_options(list(aurc.workspace = 0),
                        aurc_vec(score, loss, case_weights = w))
  )
  expect_identical(
    ece_vec(score, 1 - loss),
    withr::with_options(list(aurc.workspace = 0), ece_vec(score, 1 - loss))
  )
  # a limit below one buffer keeps nothing; Inf keeps all
  withr::with_options(list(aurc.workspace = 2^20), {
    aurc_vec(score, loss)
    expect_equal(kept_mb(), 0)
  })
  withr::with_options(list(aurc.workspace = Inf), {
    aurc_vec(score, loss)
    expect_gt(kept_mb(), 8)
  })
  # the default again (the option unset)
  aurc_vec(score, loss)
  expect_gt(kept_mb(), 8)
})

test_that("a bad aurc.workspace is a classed error naming the option", {
  for (bad in list("1e9", -1, NA_real_, c(1, 2), TRUE)) {
    withr::with_options(list(aurc.workspace = bad), {
      expect_error(aurc_vec(c(0.2, 0.8), c(0, 1)), class = "aurc_error_value")
      err <- tryCatch(aurc_vec(c(0.2, 0.8), c(0, 1)), error = identity)
      expect_match(conditionMessage(err), "aurc.workspace", fixed = TRUE)
    })
  }
  # unset again: the default, no error
  expect_equal(aurc_vec(c(0.2, 0.8), c(0, 1)), 0.75) # (1/1 + 1/2) / 2
})

test_that("kept buffers go back at a garbage collection after a rest, and at once on request", {
  set.seed(32)
  n <- 1e6
  score <- runif(n)
  loss <- rbinom(n, 1, 0.3)
  value <- aurc_vec(score, loss)
  expect_gt(kept_mb(), 8)
  # a collection right after the call keeps them (a loop of calls stays fast)
  gc()
  expect_gt(kept_mb(), 8)
  # after three seconds of rest a collection frees them (R runs a
  # finalizer after the collection that found its object unreachable,
  # sometimes one collection later: two collections)
  Sys.sleep(3.2)
  gc()
  gc()
  expect_equal(kept_mb(), 0)
  # and the next call is the same, on fresh buffers
  expect_identical(aurc_vec(score, loss), value)
  expect_gt(kept_mb(), 8)
  freed <- release_workspace()
  expect_gt(freed / 2^20, 8)
  expect_equal(kept_mb(), 0)
  expect_equal(release_workspace(), 0)
  expect_identical(aurc_vec(score, loss), value)
})
