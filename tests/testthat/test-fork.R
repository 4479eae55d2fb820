# Forked workers after a threaded call in the parent (issue 32): GNU
# OpenMP's thread pool does not survive fork(), so a forked child that
# started a parallel region of two threads waited for ever. Every threaded
# entry point now runs on one thread in a forked child (src/core/
# threads.h). Each case forks with parallel::mcparallel() and collects with
# a timeout, so a regression fails here instead of hanging the suite.

skip_on_os("windows") # no fork()
skip_on_cran()

# Runs `expr` in a forked child and returns its value; fails (and kills
# the child) when the child has not answered within `timeout` seconds.
in_fork <- function(expr, timeout = 60) {
  job <- parallel::mcparallel(expr, silent = TRUE)
  out <- parallel::mccollect(job, wait = FALSE, timeout = timeout)
  if (is.null(out)) {
    tools::pskill(job$pid, tools::SIGKILL)
    suppressWarnings(parallel::mccollect(job, wait = FALSE, timeout = 1))
    fail(sprintf("the forked child did not answer within %d s", timeout))
    return(NULL)
  }
  out[[1]]
}

fork_data <- function(n = 2^17) {
  set.seed(32)
  data.frame(
    a = round(stats::runif(n), 3), b = round(stats::runif(n), 3),
    loss = stats::rbinom(n, 1, 0.3)
  )
}

# The parent starts OpenMP's pool first: a sort on two threads (n >= 2^16)
# and a bootstrap on two threads.
start_pool <- function(d) {
  withr::local_options(aurc.threads = 2)
  aurc_vec(d$a, d$loss)
  suppressMessages(selective_ci_vec(d$a[1:500], d$loss[1:500],
    method = "bootstrap", times = 50, threads = 2
  ))
  invisible()
}

test_that("the parent knows it is not a forked child; its child does", {
  expect_false(aurc:::in_forked_child_impl())
  expect_true(in_fork(aurc:::in_forked_child_impl()))
})

test_that("the threaded sort answers in a forked child, with the same values", {
  skip_if(aurc:::available_cores() < 2, "needs 2 cores")
  d <- fork_data()
  start_pool(d)
  withr::local_options(aurc.threads = 2)
  expected <- list(
    aurc_vec(d$a, d$loss), augrc_vec(d$a, d$loss),
    ece_vec(d$a, 1 - d$loss, binning = "equal_mass"),
    selective_ci_vec(d$a, d$loss, metrics = c("aurc", "augrc"))
  )
  got <- in_fork(list(
    aurc_vec(d$a, d$loss), augrc_vec(d$a, d$loss),
    ece_vec(d$a, 1 - d$loss, binning = "equal_mass"),
    selective_ci_vec(d$a, d$loss, metrics = c("aurc", "augrc"))
  ))
  expect_identical(got, expected)
  # the parent's threads still work after the fork
  expect_identical(aurc_vec(d$a, d$loss), expected[[1]])
})

test_that("bootstrap intervals, comparisons, rankings and power answer in a forked child", {
  skip_if(aurc:::available_cores() < 2, "needs 2 cores")
  d <- fork_data()
  start_pool(d)
  small <- d[1:2000, ]
  small$case <- seq_len(nrow(small))
  long <- rbind(
    data.frame(method = "a", case = small$case, score = small$a,
               loss = small$loss),
    data.frame(method = "b", case = small$case, score = small$b,
               loss = small$loss)
  )
  run <- function() {
    withr::local_options(aurc.threads = 2)
    set.seed(1)
    ci <- selective_ci_vec(small$a, small$loss,
      method = "bootstrap", times = 200, threads = 2
    )
    set.seed(2)
    cmp <- compare_scores(small, c(a, b), loss,
      method = "bootstrap", times = 200, threads = 2
    )
    set.seed(3)
    rk <- bootstrap_ranking(long, method, case, score, loss,
      times = 50, threads = 2
    )
    pw <- selective_power(d, c(a, b), loss, n = 1000)
    list(ci = ci, cmp = as.data.frame(cmp), rk = as.data.frame(rk), pw = pw)
  }
  expected <- run()
  got <- in_fork(suppressMessages(run()))
  expect_identical(got, expected)
})

test_that("a forked child says once that it runs on one thread", {
  d <- fork_data(200)
  msgs <- in_fork({
    seen <- character()
    withCallingHandlers(
      for (i in 1:3) {
        selective_ci_vec(d$a, d$loss, method = "bootstrap", times = 20,
                         threads = 2)
      },
      aurc_message_threads = function(m) {
        seen <<- c(seen, conditionMessage(m))
        invokeRestart("muffleMessage")
      }
    )
    seen
  })
  if (aurc:::available_cores() >= 2) {
    expect_length(msgs, 1)
    expect_match(msgs, "forked process")
  }
})
