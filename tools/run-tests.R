# Runs the testthat suite against the installed package and writes the totals
# to .test-totals as "N passed, N failed[, N skipped]" (an erroring test
# counts as failed). Exits non-zero when anything failed.
#
#   Rscript tools/run-tests.R [DIR]
#
# DIR is the folder of test files, tests/testthat by default; tools/suite.sh
# passes the one of the unpacked tarball. The suite runs on two processes
# (Config/testthat/parallel in the installed DESCRIPTION).
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[[1]] else "tests/testthat"
res <- testthat::test_dir(
  dir,
  package = "aurc", load_package = "installed",
  reporter = testthat::SummaryReporter$new(show_praise = FALSE),
  stop_on_failure = FALSE, stop_on_warning = FALSE
)
df <- as.data.frame(res)
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
skipped <- sum(df$skipped)
line <- sprintf("%d passed, %d failed", passed, failed)
if (skipped > 0) line <- sprintf("%s, %d skipped", line, skipped)
writeLines(line, ".test-totals")
cat(line, "\n", sep = "")
if (failed > 0) quit(status = 1)
