# Ctrl-C during a long call (issue 32): the call ends with an interrupt at
# any point of its work, including the first touch of its large buffers
# and the passes over the sorted scores, and the next call in the same
# session gives the right value. The latency itself is measured by
# inst/bench/bench-weights-interrupt.R, not asserted here.

skip_on_cran()
skip_if_not_installed("callr")

test_that("an interrupted call leaves the session correct", {
  rs <- callr::r_session$new()
  on.exit(rs$kill(), add = TRUE)
  rs$run(function() {
    library(aurc)
    set.seed(32)
    n <- 3e7
    x <<- stats::runif(n)
    l <<- as.double(stats::runif(n) < 1 - x)
    expected <<- aurc::aurc_vec(x, l)
    invisible()
  })
  for (delay in c(0.05, 0.2, 0.4)) {
    rs$call(function() {
      tryCatch(
        {
          aurc::aurc_vec(x, l, case_weights = rep(1, length(x)))
          "finished"
        },
        interrupt = function(e) "interrupted"
      )
    })
    Sys.sleep(delay)
    rs$interrupt()
    rs$poll_process(30000)
    res <- rs$read()
    expect_true(res$result %in% c("interrupted", "finished"))
    # the next calls are right, with and without weights
    expect_true(rs$run(function() {
      identical(aurc::aurc_vec(x, l), expected) &&
        isTRUE(all.equal(aurc::aurc_vec(x, l, case_weights = rep(2, length(x))),
                         expected, tolerance = 1e-12))
    }))
  }
})
