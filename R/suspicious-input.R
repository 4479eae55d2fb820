# Input that is valid but very likely not what the user meant: a classed
# warning (class `aurc_warning` plus a specific subclass) that says what to
# do, so that nothing is silently wrong (SPEC Sec. 14).

# Arguments that look swapped: a `score` of only 0s and 1s (both present)
# with a loss that is not 0/1, e.g. `aurc(data, failure, confidence)` in
# yardstick's order (truth first). Checks a short prefix first, so the full
# scan runs only when the score starts out binary.
warn_if_swapped <- function(score, loss, loss_arg = "loss",
                            call = rlang::caller_env()) {
  n <- length(score)
  if (n < 2 || !is_zero_one(score[seq_len(min(n, 64))])) return(invisible())
  if (!is_zero_one(score) || !any(score == 0, na.rm = TRUE) ||
    !any(score == 1, na.rm = TRUE)) {
    return(invisible())
  }
  other <- which(!is.na(loss) & loss != 0 & loss != 1)
  if (length(other) == 0) return(invisible())
  warn_aurc(
    c(
      paste(
        "{.arg score} holds only 0 and 1, but {.arg {loss_arg}} has other",
        "values (element {other[1]} is {.val {loss[other[1]]}})."
      ),
      i = "Were {.arg score} and {.arg {loss_arg}} swapped?",
      i = paste(
        "{.arg score} is the confidence (higher = more confident), then",
        "comes the {.arg {loss_arg}}, e.g. {.code aurc(data, confidence,",
        "failure)}; the order of yardstick (truth first) does not apply."
      )
    ),
    class = "aurc_warning_swapped", call = call
  )
}

is_zero_one <- function(x) all(x == 0 | x == 1, na.rm = TRUE)

# A probability matrix (or members x samples x classes array) given where
# logits are expected: every value in [0, 1] and every row summing to 1.
warn_if_probs_as_logits <- function(x, arg = "x",
                                    call = rlang::caller_env()) {
  d <- dim(x)
  k <- d[length(d)]
  if (k < 2 || any(x < 0) || any(x > 1)) return(invisible())
  sums <- if (length(d) == 3) apply(x, c(1, 2), sum) else rowSums(x)
  if (any(abs(sums - 1) > 1e-6)) return(invisible())
  warn_aurc(
    c(
      paste(
        "{.arg {arg}} looks like probabilities, not logits: every value",
        "lies in [0, 1] and every row sums to 1."
      ),
      i = paste(
        "Set {.code from = \"probs\"} if it holds probabilities; as logits",
        "they are put through a softmax again, which changes the scores."
      )
    ),
    class = "aurc_warning_probs_as_logits", call = call
  )
}

# Options of calibration_bins(), ece() and mce() that the chosen binning
# does not use, when the user gave them. `env` is the frame of the function
# the user called (arguments it lacks count as not given).
warn_ignored_binning_options <- function(binning, env) {
  given <- function(arg) {
    !tryCatch(eval(call("missing", as.name(arg)), env),
      error = function(e) TRUE
    )
  }
  adaptive <- binning %in% c("adaptive", "ding2020")
  ignored <- if (adaptive) {
    "n_bins"
  } else {
    c(
      if (binning == "custom") "n_bins",
      "conf_level", "min_remaining", "min_range"
    )
  }
  ignored <- ignored[vapply(ignored, given, logical(1))]
  if (length(ignored) == 0) return(invisible())
  hint <- if (adaptive) {
    paste(
      "Adaptive bins take their number from the data; for a fixed number",
      "of bins use {.code binning = \"equal_width\"} or {.val equal_mass}."
    )
  } else if (binning == "custom") {
    paste(
      "{.arg breaks} fix the bins; {.arg n_bins} and the adaptive options do",
      "not apply."
    )
  } else {
    paste(
      "{.arg conf_level}, {.arg min_remaining} and {.arg min_range} set the",
      "adaptive binnings only."
    )
  }
  shown <- if (binning == "custom") {
    "{.arg breaks}"
  } else {
    "{.code binning = {.val {binning}}}"
  }
  warn_aurc(
    c(
      paste0("{.arg {ignored}} {?is/are} ignored with ", shown, "."),
      i = hint
    ),
    class = "aurc_warning_ignored", call = env
  )
}
