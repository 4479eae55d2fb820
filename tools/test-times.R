# The slowest tests of the suite, against the installed package: a list to
# decide what goes behind AURC_SLOW_TESTS=true (see
# tests/testthat/helper-skip.R). Usage: Rscript tools/test-times.R [N]
n <- as.integer(commandArgs(TRUE)[1])
if (is.na(n)) n <- 25L
res <- testthat::test_dir(
  "tests/testthat",
  package = "aurc", load_package = "installed",
  reporter = testthat::SilentReporter$new(),
  stop_on_failure = FALSE, stop_on_warning = FALSE
)
df <- as.data.frame(res)
by_file <- sort(tapply(df$real, df$file, sum), decreasing = TRUE)
cat(sprintf("total %.0f s\n\nby file:\n", sum(df$real)))
print(round(utils::head(by_file, 15), 1))
df <- df[order(-df$real), c("file", "test", "real", "skipped")]
df$real <- round(df$real, 1)
cat("\nslowest tests:\n")
print(utils::head(df, n), row.names = FALSE, right = FALSE)
