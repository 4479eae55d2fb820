# Progress bars for long work (bootstrap rankings, batch studies, ...).
#
# A bar is shown only in an interactive session (rlang::is_interactive(),
# which is FALSE while testthat or knitr run) and when the option
# `aurc.progress` is not FALSE; scripts, R CMD check, tests and vignettes
# stay silent.
# cli shows a bar only once the work has run for two seconds (its option
# `cli.progress_show_after`), so quick calls never flash one.
#
# Use: make the bar with progress_bar(total, name) in the function that
# does the work; move it on with progress_tick(bar, done) in an R loop, or
# hand progress_callback(bar) to a C++ entry point, which calls it between
# blocks of work on the master thread (see RProgress in src/glue.h).
#
# The bar closes when the function that made it returns (cli ties it to the
# caller's frame), also on error or interrupt.

# TRUE when long work should show a progress bar.
progress_wanted <- function() {
  rlang::is_interactive() && !isFALSE(getOption("aurc.progress", TRUE))
}

# A cli progress bar of `total` steps named `name`, owned by the calling
# function; NULL when no bar is wanted (see progress_wanted()).
progress_bar <- function(total, name, .envir = parent.frame()) {
  if (!progress_wanted() || total < 1) return(NULL)
  cli::cli_progress_bar(
    name = name, total = total, clear = TRUE, .envir = .envir
  )
}

# Sets the bar to `done` steps (a no-op without a bar).
progress_tick <- function(bar, done) {
  if (!is.null(bar)) cli::cli_progress_update(id = bar, set = done)
  invisible()
}

# For the C++ kernels: NULL without a bar, else a function(done) they call
# between blocks of work on the master thread, `offset` steps already done.
progress_callback <- function(bar, offset = 0) {
  if (is.null(bar)) return(NULL)
  force(offset)
  function(done) progress_tick(bar, offset + done)
}
