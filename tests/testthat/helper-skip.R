# Slow tests (long simulations, large data) run only when asked, as pROC
# does: AURC_SLOW_TESTS=true. `make test` keeps them off so the whole check
# stays within its time budget on a 2-core machine; run them with
#   AURC_SLOW_TESTS=true Rscript tools/run-tests.R
skip_if_not_slow <- function() {
  if (!identical(tolower(Sys.getenv("AURC_SLOW_TESTS")), "true")) {
    testthat::skip("slow test: set AURC_SLOW_TESTS=true to run it")
  }
  invisible(TRUE)
}

# Grids of cases: the quick grid always, the full grid with
# AURC_SLOW_TESTS=true (e.g. every estimator x weighting on a database
# instead of a covering subset).
slow_tests <- function() {
  identical(tolower(Sys.getenv("AURC_SLOW_TESTS")), "true")
}
test_grid <- function(quick, full) {
  if (slow_tests()) full else quick
}
