# Conditions signalled by aurc. Errors carry class `aurc_error`, warnings
# `aurc_warning`, plus a specific subclass, so callers can catch them.

abort_aurc <- function(message, ..., class = NULL,
                       call = rlang::caller_env(),
                       .envir = parent.frame()) {
  cli::cli_abort(
    message, ...,
    class = c(class, "aurc_error"), call = call, .envir = .envir
  )
}

warn_aurc <- function(message, ..., class = NULL, .envir = parent.frame()) {
  cli::cli_warn(message, ..., class = c(class, "aurc_warning"), .envir = .envir)
}

# NA with a classed warning: nothing left to compute on.
warn_no_data <- function(call = rlang::caller_env()) {
  warn_aurc(
    c(
      "No samples left to compute on; returning {.val {NA}}.",
      i = "Check for missing values or all-zero {.arg case_weights}."
    ),
    class = "aurc_warning_no_data",
    call = call
  )
}

# ---- metrics of Traub et al. (issue 3) ----

# NA with a classed warning: a binary metric needs failures and correct
# predictions.
warn_one_class <- function(metric, call = rlang::caller_env()) {
  warn_aurc(
    c(
      paste(
        "{.fn {metric}} needs both failures and correct predictions;",
        "returning {.val {NA}}."
      ),
      i = "Every sample left is a failure, or none is."
    ),
    class = "aurc_warning_one_class",
    call = call
  )
}

# NA with a classed warning: NAURC divides by mean(loss) - AURC*, which is 0
# when every loss is the same.
warn_naurc_undefined <- function(call = rlang::caller_env()) {
  warn_aurc(
    c(
      "NAURC is undefined when every loss is the same; returning {.val {NA}}.",
      i = "Its denominator, mean(loss) - AURC*, is 0."
    ),
    class = "aurc_warning_undefined",
    call = call
  )
}

# NA with a classed warning: PRR divides by mean(loss) - A*, which is 0
# when every quality is the same.
warn_prr_undefined <- function(call = rlang::caller_env()) {
  warn_aurc(
    c(
      "PRR is undefined when every quality is the same; returning {.val {NA}}.",
      i = "Its denominator, the oracle's gain over a random order, is 0."
    ),
    class = "aurc_warning_undefined",
    call = call
  )
}

# The warning of a ratio metric (NAURC, PRR) that is undefined; FALSE for
# other metrics.
warn_ratio_undefined <- function(metric, call = rlang::caller_env()) {
  switch(metric,
    naurc = warn_naurc_undefined(call = call),
    prr = warn_prr_undefined(call = call),
    return(FALSE)
  )
  TRUE
}

# A classed message (for instance: a thread count was capped).
inform_aurc <- function(message, ..., class = NULL, .envir = parent.frame()) {
  cli::cli_inform(message, ..., class = c(class, "aurc_message"),
    .envir = .envir
  )
}
