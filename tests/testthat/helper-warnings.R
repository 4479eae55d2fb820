# Evaluates `expr`, expecting an aurc_warning_ignored (an option the chosen
# variant does not use) exactly when `ignored` is TRUE, and muffling it:
# loops over variants pass the same options to all of them.
with_ignored <- function(expr, ignored) {
  seen <- 0L
  out <- withCallingHandlers(expr, aurc_warning_ignored = function(w) {
    seen <<- seen + 1L
    invokeRestart("muffleWarning")
  })
  testthat::expect(
    (seen > 0) == ignored,
    if (ignored) {
      "no aurc_warning_ignored"
    } else {
      "an unexpected aurc_warning_ignored"
    }
  )
  out
}
