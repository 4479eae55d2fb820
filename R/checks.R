# Argument checks shared by every user-facing function. Each fails with a
# classed `aurc_error` that names the argument and says what was expected;
# `call` is passed down so the error names the function the user called.

# `...` only guards the options after it (they must be named).
check_dots <- function(..., call = rlang::caller_env()) {
  n <- ...length()
  if (n > 0) {
    nms <- ...names()
    if (is.null(nms)) nms <- rep("", n)
    shown <- ifelse(nms == "", paste0("..", seq_len(n)), nms)
    abort_aurc(
      c(
        "{.arg ...} must be empty.",
        x = "Problematic argument{?s}: {.arg {shown}}.",
        i = "Did you forget to name an argument, or misspell its name?"
      ),
      class = "aurc_error_dots", call = call
    )
  }
  invisible()
}

check_bool <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env()) {
  if (!rlang::is_bool(x)) {
    abort_aurc(
      "{.arg {arg}} must be {.code TRUE} or {.code FALSE}, not {.obj_type_friendly {x}}.",
      class = "aurc_error_type", call = call
    )
  }
  invisible(x)
}

# One of `values`; returns the chosen string.
check_choice <- function(x, values, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!rlang::is_string(x) || !x %in% values) {
    shown <- if (rlang::is_string(x)) "{.val {x}}" else "{.obj_type_friendly {x}}"
    abort_aurc(
      c(
        "{.arg {arg}} must be one of {.or {.val {values}}}.",
        x = paste0("It is ", shown, ".")
      ),
      class = "aurc_error_value", call = call
    )
  }
  x
}

check_numeric_vector <- function(x, arg = rlang::caller_arg(x),
                                 allow_logical = FALSE,
                                 call = rlang::caller_env()) {
  ok <- (is.numeric(x) || (allow_logical && is.logical(x))) &&
    !is.object(x) && is.null(dim(x))
  if (!ok) {
    what <- if (allow_logical) "a numeric or logical vector" else "a numeric vector"
    abort_aurc(
      "{.arg {arg}} must be {what}, not {.obj_type_friendly {x}}.",
      class = "aurc_error_type", call = call
    )
  }
  invisible(x)
}

check_same_length <- function(x, n, arg = rlang::caller_arg(x),
                              arg_n = "score", call = rlang::caller_env()) {
  if (length(x) != n) {
    abort_aurc(
      c(
        "{.arg {arg}} must have the same length as {.arg {arg_n}}.",
        x = "{.arg {arg}} has length {length(x)}; {.arg {arg_n}} has length {n}."
      ),
      class = "aurc_error_length", call = call
    )
  }
  invisible(x)
}

check_case_weights <- function(case_weights, n, call = rlang::caller_env()) {
  if (is.null(case_weights)) return(invisible(NULL))
  check_numeric_vector(case_weights, "case_weights", call = call)
  check_same_length(case_weights, n, "case_weights", call = call)
  bad <- which(is.na(case_weights) | !is.finite(case_weights) |
    case_weights < 0)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg case_weights} must be finite and non-negative.",
        x = "Element {bad[1]} is {.val {case_weights[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(case_weights)
}

# Loss: finite and >= 0 where present (NA is handled by `na_rm`).
check_loss <- function(loss, n, arg = "loss", call = rlang::caller_env()) {
  check_numeric_vector(loss, arg, allow_logical = TRUE, call = call)
  check_same_length(loss, n, arg, call = call)
  bad <- first_invalid_loss_impl(loss)
  if (bad > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must be finite and non-negative.",
        x = "Element {bad} is {.val {loss[bad]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(loss)
}

# Failure: 0/1 or logical where present.
check_failure <- function(failure, n, arg = "failure",
                          call = rlang::caller_env()) {
  check_numeric_vector(failure, arg, allow_logical = TRUE, call = call)
  check_same_length(failure, n, arg, call = call)
  bad <- which(!is.na(failure) & failure != 0 & failure != 1)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must contain only 0 and 1 (or {.code FALSE}/{.code TRUE}).",
        x = "Element {bad[1]} is {.val {failure[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(failure)
}

# Validates a (score, loss, case_weights) triple and applies the NA rule of
# SPEC Sec. 10. Returns a list with double vectors `score`, `loss` and
# `case_weights` (numeric(0) for none), or NULL when the metric is NA: an
# incomplete pair with `na_rm = FALSE` (silently), or nothing left to compute
# on (with a classed warning).
prepare_metric_input <- function(score, loss, case_weights = NULL,
                                 na_rm = FALSE, loss_arg = "loss",
                                 binary = FALSE, call = rlang::caller_env()) {
  check_numeric_vector(score, "score", call = call)
  n <- length(score)
  if (binary) {
    check_failure(loss, n, loss_arg, call = call)
  } else {
    check_loss(loss, n, loss_arg, call = call)
  }
  check_case_weights(case_weights, n, call = call)
  check_bool(na_rm, call = call)

  score <- as.double(score)
  loss <- as.double(loss)
  if (anyNA(score) || anyNA(loss)) {
    if (!na_rm) return(NULL)
    keep <- !(is.na(score) | is.na(loss))
    score <- score[keep]
    loss <- loss[keep]
    if (!is.null(case_weights)) case_weights <- case_weights[keep]
  }
  case_weights <- if (is.null(case_weights)) double() else as.double(case_weights)
  total <- if (length(case_weights)) sum(case_weights) else length(score)
  if (!(total > 0)) {
    warn_no_data(call = call)
    return(NULL)
  }
  list(score = score, loss = loss, case_weights = case_weights)
}

# --- estimator statistics and batch study (issue 4) ------------------------

# Numeric vector of whole numbers >= `min` (no NA); returns it as double.
check_whole_numbers <- function(x, arg = rlang::caller_arg(x), min = 1,
                                call = rlang::caller_env()) {
  check_numeric_vector(x, arg, call = call)
  bad <- which(is.na(x) | !is.finite(x) | x != round(x) | x < min)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must contain whole numbers of at least {min}.",
        x = "Element {bad[1]} is {.val {x[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.double(x)
}

# Numeric vector in [0, 1) (or [0, 1] with `upper_closed`), no NA.
check_percentile <- function(x, arg = rlang::caller_arg(x),
                             upper_closed = FALSE,
                             call = rlang::caller_env()) {
  check_numeric_vector(x, arg, call = call)
  above <- if (upper_closed) x > 1 else x >= 1
  bad <- which(is.na(x) | x < 0 | above)
  if (length(bad) > 0) {
    range <- if (upper_closed) "[0, 1]" else "[0, 1)"
    abort_aurc(
      c(
        "{.arg {arg}} must contain numbers in {range}.",
        x = "Element {bad[1]} is {.val {x[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.double(x)
}

# Recycles named vectors to a common length: each must have length 1 or the
# common length (a length-0 argument gives length 0 if the others have
# length 0 or 1).
recycle_common <- function(args, call = rlang::caller_env()) {
  lens <- lengths(args)
  size <- if (any(lens == 0)) 0L else max(lens)
  bad <- which(lens != 1 & lens != size)
  if (any(lens == 0) && any(lens > 1)) bad <- which(lens > 1)
  if (length(bad) > 0) {
    shown <- paste0("{.arg ", names(args), "} has length ", lens, ".")
    names(shown) <- rep("*", length(shown))
    abort_aurc(
      c(
        "{.arg {names(args)}} must have length 1 or a common length.",
        shown
      ),
      class = "aurc_error_length", call = call
    )
  }
  lapply(args, function(x) if (length(x) == size) x else rep(x, size))
}

# A non-empty character vector of distinct values from `values`.
check_estimator_set <- function(x, values, arg = rlang::caller_arg(x),
                                call = rlang::caller_env()) {
  ok <- is.character(x) && length(x) > 0 && !anyNA(x)
  if (!ok) {
    abort_aurc(
      paste(
        "{.arg {arg}} must be a character vector of estimator names,",
        "not {.obj_type_friendly {x}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  bad <- setdiff(x, values)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must contain only {.or {.val {values}}}.",
        x = "Unknown: {.val {bad}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (anyDuplicated(x)) {
    abort_aurc(
      c(
        "{.arg {arg}} must not repeat an estimator.",
        x = "Repeated: {.val {unique(x[duplicated(x)])}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  x
}
