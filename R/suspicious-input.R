# Input that is valid but very likely not what the user meant: a classed
# warning (class `aurc_warning` plus a specific subclass) that says what to
# do, so that nothing is silently wrong (DEFINITIONS Sec. 14).

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
  invisible(TRUE)
}

is_zero_one <- function(x) all(x == 0 | x == 1, na.rm = TRUE)

# Every check of a score and a loss that a selective metric gets (the
# vector and data-frame forms, the curves, the intervals): arguments that
# look swapped, a class probability used as the confidence, and a score
# that ranks the losses backwards. At most one warning. The checks read a
# sample of at most 16384 evenly spread rows in one C++ pass
# (src/core/input_checks.h), so they cost a few microseconds on any data.
# Silence one with `suppressWarnings(..., classes =
# "aurc_warning_direction")`.
warn_if_suspicious <- function(score, loss, loss_arg = "loss",
                               call = rlang::caller_env()) {
  if (isTRUE(warn_if_swapped(score, loss, loss_arg, call = call))) {
    return(invisible())
  }
  if (!is_plain_numeric(score) || !is_plain_numeric(loss)) {
    return(invisible())
  }
  st <- input_summary(score, loss)
  if (st[["rows"]] < 20) return(invisible())
  if (warn_if_loss_looks_like_confidence(st, loss_arg, call)) {
    return(invisible())
  }
  if (warn_if_class_probability(st, loss_arg, call)) return(invisible())
  warn_if_backwards(st, loss_arg, call)
  invisible()
}

is_plain_numeric <- function(x) {
  (is.double(x) || is.integer(x) || is.logical(x)) && is.null(dim(x))
}

# The summary of src/core/input_checks.h on at most 16384 spread rows.
input_summary <- function(x, y, rows = 16384) {
  input_summary_impl(x, y, rows)
}

# Strong evidence of a positive correlation: r > 0.1 and a Fisher z above
# 4 over `m` pairs.
rises <- function(r, m) {
  !is.na(r) && m > 3 && r > 0.1 &&
    atanh(min(r, 0.999999)) * sqrt(m - 3) > 4
}

# A loss in (0, 1], never 0, not 0/1, mostly above 0.5: a confidence (a
# largest class probability), e.g. `aurc_vec(cross_entropy, msp)` with the
# two swapped. A loss of a real model is 0 for many samples or is small on
# average.
warn_if_loss_looks_like_confidence <- function(st, loss_arg, call) {
  if (!(st[["loss_min"]] > 0) || st[["loss_max"]] > 1 ||
    st[["loss_zero_one"]] == 1 || st[["loss_above_half"]] <= 0.5) {
    return(FALSE)
  }
  warn_aurc(
    c(
      paste(
        "{.arg {loss_arg}} looks like a confidence, not a loss: every value",
        "lies in (0, 1] and most are above 0.5."
      ),
      i = "Were {.arg score} and {.arg {loss_arg}} swapped?",
      i = paste(
        "{.arg score} comes first (higher = more confident), then the",
        "per-sample {.arg {loss_arg}} (0 = no loss)."
      )
    ),
    class = c("aurc_warning_swapped", "aurc_warning_direction"), call = call
  )
  TRUE
}

# A score in [0, 1] whose loss falls towards both ends: the probability of
# one class of a binary classifier, whose confidence is max(p, 1 - p). The
# evidence of the two halves is pooled (Stouffer's z of their Fisher z
# values, both of the tent's sign, above 4): a sound confidence has a loss
# that falls across the whole range, and each half alone missed the
# pattern at n = 100.
warn_if_class_probability <- function(st, loss_arg, call) {
  if (!looks_like_class_probability(st)) return(FALSE)
  warn_aurc(
    c(
      paste(
        "{.arg score} looks like the probability of one class: the",
        "{.arg {loss_arg}} is lowest towards both 0 and 1."
      ),
      i = paste(
        "The confidence of a binary classifier is {.code max(p, 1 - p)},",
        "not {.code p}: use {.code confidence_score(cbind(1 - p, p), from",
        "= \"probs\")}, or the class-probability form {.fn aurc_prob}."
      )
    ),
    class = c("aurc_warning_class_probability", "aurc_warning_direction"),
    call = call
  )
  TRUE
}

# Whether the sample summary `st` (input_summary(score, loss)) shows a
# loss that rises with the score below 0.5 and falls above it.
looks_like_class_probability <- function(st) {
  m_low <- st[["m_low"]]
  m_high <- st[["m_high"]]
  if (st[["score_min"]] < 0 || st[["score_max"]] > 1 ||
    m_low < 20 || m_high < 20) {
    return(FALSE)
  }
  r_low <- st[["r_low"]]
  r_high <- -st[["r_high"]]
  if (is.na(r_low) || is.na(r_high) || !(r_low > 0.1) || !(r_high > 0.1)) {
    return(FALSE)
  }
  z <- function(r, m) atanh(min(r, 0.999999)) * sqrt(m - 3)
  (z(r_low, m_low) + z(r_high, m_high)) / sqrt(2) > 3
}

# A loss that clearly rises with the score: an uncertainty given as the
# score (higher = less confident), or a correctness given as the loss.
warn_if_backwards <- function(st, loss_arg, call) {
  r <- st[["r"]]
  if (!rises(r, st[["rows"]])) return(FALSE)
  warn_aurc(
    c(
      paste(
        "Higher {.arg score} goes with higher {.arg {loss_arg}}",
        "(correlation {format(round(r, 2), nsmall = 2)}): the score ranks",
        "the losses backwards."
      ),
      i = paste(
        "{.arg score} must be a confidence (higher = more confident,",
        "accepted first): give an uncertainty as its negative."
      ),
      i = paste(
        "{.arg {loss_arg}} is the loss (1 = failure); a correctness",
        "{.code correct} is given as {.code 1 - correct}."
      ),
      i = paste(
        "If the score really is this poor, silence this with",
        "{.code suppressWarnings(..., classes = \"aurc_warning_direction\")}."
      )
    ),
    class = "aurc_warning_direction", call = call
  )
  TRUE
}

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

# Calibration takes the correctness of each prediction (1 = correct); the
# selective metrics take the loss (1 = failure). A mean correctness below
# 0.5 next to a mean confidence above 0.5, with a correctness that falls
# as the confidence rises, is what the failure indicator looks like when
# given as `correct` (or a correctness given as `loss` to a
# calibration metric of selective_ci()). `correct` here is the correctness
# as the function will use it; `arg` the argument the user gave, and
# `from_loss` whether it was given as a loss.
# `values`: the correctness, or with `values_are_loss` the loss (1 -
# correctness; read as it is, so no column is copied).
warn_calibration_convention <- function(confidence, values, case_weights,
                                        arg = "correct", from_loss = FALSE,
                                        call = rlang::caller_env(),
                                        values_are_loss = from_loss) {
  if (!is_plain_numeric(confidence) || !is_plain_numeric(values)) {
    return(invisible())
  }
  # the sample's means and correlation, unweighted (a heuristic)
  st <- input_summary(confidence, values)
  if (st[["rows"]] < 20) return(invisible())
  # the probability of one class of a binary model given as the confidence:
  # the correctness is highest towards both 0 and 1
  st_loss <- if (values_are_loss) st else input_summary(confidence, 1 - values)
  if (looks_like_class_probability(st_loss)) {
    warn_aurc(
      c(
        paste(
          "{.arg confidence} looks like the probability of one class: the",
          "predictions are most often right towards both 0 and 1."
        ),
        i = paste(
          "The confidence of a binary model is {.code max(p, 1 - p)}, not",
          "{.code p}: use {.code confidence_score(cbind(1 - p, p), from =",
          "\"probs\")}, or the class-probability form (e.g. {.fn ece_prob})."
        )
      ),
      class = c("aurc_warning_class_probability", "aurc_warning_convention"),
      call = call
    )
    return(invisible())
  }
  flip <- if (values_are_loss) -1 else 1
  acc <- if (values_are_loss) 1 - st[["loss_mean"]] else st[["loss_mean"]]
  conf <- st[["score_mean"]]
  if (!(acc < 0.5 && conf > 0.5)) return(invisible())
  # and a correctness that clearly falls as the confidence rises: what a
  # failure indicator does (an honest model that is right less often than
  # not, or one whose labels are noise, has a correctness that rises with
  # its confidence, or none at all)
  if (!rises(-flip * st[["r"]], st[["rows"]])) return(invisible())
  fmt <- function(v) format(round(v, 3), nsmall = 3)
  msg <- if (from_loss) {
    c(
      paste(
        "{.arg {arg}} looks like a correctness, not a loss: the accuracy",
        "it implies is {fmt(acc)} while the mean confidence is {fmt(conf)}."
      ),
      i = paste(
        "Here {.arg {arg}} is the failure indicator (1 = wrong); give the",
        "correctness as {.code correct = }, as {.fn ece} takes it."
      )
    )
  } else {
    c(
      paste(
        "{.arg {arg}} looks like a failure indicator, not a correctness:",
        "its mean is {fmt(acc)} while the mean confidence is {fmt(conf)}."
      ),
      i = paste(
        "Calibration takes {.arg correct} (1 = the prediction was right);",
        "a loss or failure indicator is given as {.code 1 - failure}."
      )
    )
  }
  warn_aurc(
    c(msg, i = paste(
      "If the model really is this overconfident, silence this with",
      "{.code suppressWarnings(..., classes = \"aurc_warning_convention\")}."
    )),
    class = "aurc_warning_convention", call = call
  )
}
