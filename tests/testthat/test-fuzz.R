# Hostile input for every exported function (issue 15): no crash, no hang,
# and no condition other than aurc_error / aurc_warning / aurc_message.
# The calls are generated from fuzz_table() in helper-fuzz.R: adding an
# export means adding one line there. The quick set always runs, in four
# child processes, two at a time: about 1000 of its 2800 calls (every third
# hostile value per argument), all of them with AURC_SLOW_TESTS=true.
# AURC_FUZZ_FULL=true runs the full set, one child process per function,
# two at a time.

test_that("every export has fuzz cases", {
  exports <- getNamespaceExports("aurc")
  covered <- c(names(fuzz_table()), names(fuzz_exempt))
  missing <- setdiff(exports, covered)
  expect(
    length(missing) == 0,
    paste0(
      "Exports without fuzz cases (add a line to fuzz_table() in ",
      "helper-fuzz.R): ", paste(missing, collapse = ", ")
    )
  )
  # and no stale entries
  expect_setequal(intersect(covered, exports), covered)
})

test_that("the valid call of every table entry succeeds quietly", {
  fixtures <- fuzz_fixtures()
  for (fn in names(fuzz_table())) {
    call <- as.call(c(
      call("::", as.name("aurc"), as.name(fn)), fuzz_table()[[fn]]
    ))
    expect_no_error(suppressWarnings(suppressMessages(eval(call, fixtures))))
  }
})

test_that("hostile input never crashes, hangs or gives an unclassed error", {
  skip_on_cran()
  skip_if_not_installed("callr")
  full <- identical(Sys.getenv("AURC_FUZZ_FULL"), "true")
  # `make test` runs a third of the quick set; CI (AURC_SLOW_TESTS=true)
  # all of it
  calls <- fuzz_calls(full = full, thin = if (full || slow_tests()) 1L else 3L)
  problems <- fuzz_run(calls,
    n_proc = 2, n_chunks = if (full) length(fuzz_table()) else 4,
    limit = 10, timeout = if (full) 1200 else 300
  )
  shown <- if (is.null(problems)) character() else
    utils::head(paste0(problems$call, ": ", problems$problem), 40)
  expect(
    is.null(problems) || nrow(problems) == 0,
    paste0(
      NROW(problems), " of ", length(calls), " hostile calls misbehaved:\n",
      paste(shown, collapse = "\n")
    )
  )
})

test_that("the runner reports crashes, hangs and foreign conditions", {
  skip_on_cran()
  skip_if_not_installed("callr")
  calls <- list(
    list(label = "fine", call = quote(aurc::aurc_vec(c(.9, .1), c(0, 1)))),
    list(label = "warns", call = quote(warning("not ours"))),
    list(label = "errs", call = quote(stop("not ours"))),
    list(label = "classed", call = quote(aurc::aurc_vec("a", 1))),
    list(label = "dies", call = quote(tools::pskill(Sys.getpid()))),
    list(label = "after death", call = quote(stop("still run"))),
    list(label = "sleeps", call = quote(Sys.sleep(60))),
    list(label = "after sleep", call = quote(message("still run")))
  )
  problems <- fuzz_run(calls, n_proc = 2, n_chunks = 2, limit = 1,
    timeout = 8)
  expect_setequal(
    problems$call,
    c("warns", "errs", "dies", "after death", "sleeps", "after sleep")
  )
  expect_match(problems$problem[problems$call == "dies"], "died or hung")
  problem_of <- function(call) problems$problem[problems$call == call]
  expect_match(problem_of("sleeps"), "died or hung|time limit")
  expect_match(problems$problem[problems$call == "warns"], "^warning: not ours")
  expect_match(problem_of("errs"), "not of class aurc_error")
})
