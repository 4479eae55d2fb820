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
      paste(
        "{.arg {arg}} must be {.code TRUE} or {.code FALSE},",
        "not {.obj_type_friendly {x}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  invisible(x)
}

# One of `values`; returns the chosen string.
check_choice <- function(x, values, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!rlang::is_string(x) || !x %in% values) {
    shown <- if (rlang::is_string(x)) {
      "{.val {x}}"
    } else {
      "{.obj_type_friendly {x}}"
    }
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
    what <- if (allow_logical) {
      "a numeric or logical vector"
    } else {
      "a numeric vector"
    }
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
        x = paste(
          "{.arg {arg}} has length {length(x)};",
          "{.arg {arg_n}} has length {n}."
        )
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
  # one scan in C++ (at n = 1e8 the four vectorised passes in R took 1.2 s
  # in which Ctrl-C was not answered)
  bad <- first_invalid_weight_impl(case_weights, sort_threads(call))
  if (bad > 0) {
    abort_aurc(
      c(
        "{.arg case_weights} must be finite and non-negative.",
        x = "Element {bad} is {.val {case_weights[bad]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(case_weights)
}

# Loss: finite and >= 0 where present (NA is handled by `na_rm`). Returns
# (invisibly) whether some loss exceeds huge_loss (R/weights-scale.R),
# found by the same scan.
check_loss <- function(loss, n, arg = "loss", call = rlang::caller_env(),
                       threads = 1L) {
  check_numeric_vector(loss, arg, allow_logical = TRUE, call = call)
  check_same_length(loss, n, arg, call = call)
  bad <- first_invalid_loss_impl(loss, threads, huge_loss)
  huge <- bad > 0 && is.finite(loss[bad]) && loss[bad] >= 0
  if (huge) bad <- first_invalid_loss_impl(loss, threads, Inf)
  if (bad > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must be finite and non-negative.",
        x = "Element {bad} is {.val {loss[bad]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(huge)
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
        paste(
          "{.arg {arg}} must contain only 0 and 1",
          "(or {.code FALSE}/{.code TRUE})."
        ),
        x = "Element {bad[1]} is {.val {failure[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(failure)
}

# The argument checks of a metric: a numeric score, a loss (or a 0/1
# failure when `binary`) as long as it, case weights, `na_rm`.
check_metric_columns <- function(score, loss, case_weights, na_rm,
                                 loss_arg = "loss", binary = FALSE,
                                 call = rlang::caller_env(), threads = 1L) {
  check_numeric_vector(score, "score", call = call)
  n <- length(score)
  huge <- FALSE
  if (binary) {
    check_failure(loss, n, loss_arg, call = call)
  } else {
    huge <- check_loss(loss, n, loss_arg, call = call, threads = threads)
  }
  check_case_weights(case_weights, n, call = call)
  check_bool(na_rm, call = call)
  # whether some loss exceeds huge_loss (R/weights-scale.R)
  invisible(huge)
}

# Validates a (score, loss, case_weights) triple and applies the NA rule of
# DEFINITIONS Sec. 10. Returns a list with double vectors `score`, `loss` and
# `case_weights` (numeric(0) for none), or NULL when the metric is NA: an
# incomplete pair with `na_rm = FALSE` (silently), or nothing left to compute
# on (with a classed warning).
prepare_metric_input <- function(score, loss, case_weights = NULL,
                                 na_rm = FALSE, loss_arg = "loss",
                                 binary = FALSE, call = rlang::caller_env(),
                                 rescale = TRUE) {
  case_weights <- plain_weights(case_weights)
  check_metric_columns(score, loss, case_weights, na_rm, loss_arg, binary,
    call = call
  )

  score <- as.double(score)
  loss <- as.double(loss)
  if (anyNA(score) || anyNA(loss)) {
    if (!na_rm) return(NULL)
    keep <- !(is.na(score) | is.na(loss))
    score <- score[keep]
    loss <- loss[keep]
    if (!is.null(case_weights)) case_weights <- case_weights[keep]
  }
  # NULL becomes double(0): none
  case_weights <- as.double(case_weights)
  if (rescale) case_weights <- rescale_weights(case_weights)
  total <- if (length(case_weights)) sum(case_weights) else length(score)
  if (!(total > 0)) {
    warn_no_data(call = call)
    return(NULL)
  }
  list(score = score, loss = loss, case_weights = case_weights)
}

# ---- metrics of Traub et al. (issue 3) ----

# A numeric matrix of model outputs (n x K), or with `members = TRUE` also an
# S x n x K array; all values finite. Returns the dims.
check_outputs <- function(x, arg = rlang::caller_arg(x), members = FALSE,
                          call = rlang::caller_env()) {
  d <- dim(x)
  ok_dim <- length(d) == 2 || (members && length(d) == 3)
  if (!is.numeric(x) || !ok_dim || any(d == 0)) {
    what <- if (members) {
      paste(
        "a numeric matrix (samples x classes) or a numeric array (members x",
        "samples x classes)"
      )
    } else {
      "a numeric matrix (samples x classes)"
    }
    abort_aurc(
      "{.arg {arg}} must be {what}, not {.obj_type_friendly {x}}.",
      class = "aurc_error_type", call = call
    )
  }
  if (!all(is.finite(x))) {
    pos <- arrayInd(which(!is.finite(x))[1], d)
    abort_aurc(
      c(
        "{.arg {arg}} must have finite values only.",
        x = "{position_text(pos, d)} is {.val {x[which(!is.finite(x))[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(d)
}

# "Row 3, column 2" or "Member 1, row 3, column 2"
position_text <- function(pos, d) {
  if (length(d) == 3) {
    sprintf("Member %d, row %d, column %d", pos[1], pos[2], pos[3])
  } else {
    sprintf("Row %d, column %d", pos[1], pos[2])
  }
}

# Probabilities: non-negative and every row summing to 1 (tolerance 1e-6).
# The error names the first bad row (and member of an array).
check_probs <- function(x, arg = rlang::caller_arg(x),
                        call = rlang::caller_env()) {
  d <- dim(x)
  neg <- which(x < 0)
  if (length(neg) > 0) {
    pos <- arrayInd(neg[1], d)
    abort_aurc(
      c(
        "{.arg {arg}} must hold probabilities: no negative values.",
        x = "{position_text(pos, d)} is {.val {x[neg[1]]}}."
      ),
      class = "aurc_error_probs", call = call
    )
  }
  sums <- if (length(d) == 3) rowSums(x, dims = 2) else rowSums(x)
  bad <- which(abs(sums - 1) > 1e-6)
  if (length(bad) > 0) {
    pos <- arrayInd(bad[1], dim(as.matrix(sums)))
    where <- if (length(d) == 3) {
      sprintf("Member %d, row %d", pos[1], pos[2])
    } else {
      sprintf("Row %d", pos[1])
    }
    abort_aurc(
      c(
        "Each row of {.arg {arg}} must sum to 1.",
        x = paste(
          "{where} of {.arg {arg}} sums to",
          "{format(sums[bad[1]], digits = 6)}, not 1."
        )
      ),
      class = "aurc_error_probs", call = call
    )
  }
  invisible(x)
}

# Labels: whole numbers in 1..K, or a factor whose levels match the columns
# (by name when the matrix has column names, else by number). Returns
# 0-based integer class indices for the C++ kernels.
check_labels <- function(labels, n, n_classes, col_names = NULL, arg = "labels",
                         call = rlang::caller_env(), labels_from = 1) {
  if (is.factor(labels)) {
    lev <- levels(labels)
    if (!is.null(col_names) && !identical(lev, col_names)) {
      abort_aurc(
        c(
          "The levels of {.arg {arg}} must match the columns.",
          x = "Levels: {.val {lev}}; columns: {.val {col_names}}."
        ),
        class = "aurc_error_labels", call = call
      )
    }
    if (is.null(col_names) && length(lev) != n_classes) {
      abort_aurc(
        c(
          "{.arg {arg}} must have one level per column ({n_classes}).",
          x = "It has {length(lev)} level{?s}."
        ),
        class = "aurc_error_labels", call = call
      )
    }
    labels <- as.integer(labels)
  } else if (!is.numeric(labels) || !is.null(dim(labels))) {
    abort_aurc(
      paste(
        "{.arg {arg}} must be class numbers (1 to {n_classes}) or a factor,",
        "not {.obj_type_friendly {labels}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  if (length(labels) != n) {
    abort_aurc(
      c(
        "{.arg {arg}} must have one label per row.",
        x = "{.arg {arg}} has length {length(labels)}; there are {n} row{?s}."
      ),
      class = "aurc_error_length", call = call
    )
  }
  given <- labels
  if (!is.factor(given)) labels <- labels - labels_from + 1
  bad <- which(is.na(labels) | labels < 1 | labels > n_classes |
    labels != floor(labels))
  if (length(bad) > 0) {
    first <- labels_from
    abort_aurc(
      c(
        paste(
          "{.arg {arg}} must be class numbers from {first} to",
          "{n_classes + first - 1} (the columns)."
        ),
        x = "Element {bad[1]} (row {bad[1]}) is {.val {given[bad[1]]}}.",
        labels_from_hint(given, labels_from)
      ),
      class = "aurc_error_labels", call = call
    )
  }
  as.integer(labels) - 1L
}

# The hint for labels 0..K-1 given with labels_from = 1.
labels_from_hint <- function(labels, labels_from) {
  if (labels_from == 1 && is.numeric(labels) && any(labels == 0, na.rm = TRUE)) {
    c(i = paste(
      "Labels from 0 (Python, PyTorch)? Set {.code labels_from = 0}."
    ))
  }
}

# `labels_from`: the number of the first class, 1 (R) or 0 (Python).
check_labels_from <- function(labels_from, call = rlang::caller_env()) {
  if (!(is.numeric(labels_from) && length(labels_from) == 1 &&
    !is.na(labels_from) && labels_from %in% c(0, 1))) {
    abort_aurc(
      c(
        "{.arg labels_from} must be 1 (classes 1..K) or 0 (classes 0..K-1).",
        x = if (is.numeric(labels_from) && length(labels_from) == 1) {
          "It is {.val {labels_from}}."
        } else {
          "It is {.obj_type_friendly {labels_from}}."
        }
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.integer(labels_from)
}

# Model outputs given as a data frame of numeric columns: the matrix.
# Anything else is returned as it is (the checks that follow judge it).
as_output_matrix <- function(x, arg = rlang::caller_arg(x),
                             call = rlang::caller_env()) {
  if (!is.data.frame(x)) return(x)
  if (ncol(x) == 0) {
    # (unlist() of no columns is NULL, which matrix() refuses)
    abort_aurc(
      c(
        "{.arg {arg}} must have one numeric column per class.",
        x = "It is a data frame with no columns."
      ),
      class = "aurc_error_type", call = call
    )
  }
  bad <- which(!vapply(x, function(col) is.numeric(col) && is.null(dim(col)),
    logical(1)
  ))
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "The columns of {.arg {arg}} must be numeric.",
        x = "Column {.val {names(x)[bad[1]]}} is {.obj_type_friendly {x[[bad[1]]]}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  out <- matrix(unlist(x, use.names = FALSE), nrow(x), ncol(x))
  colnames(out) <- names(x)
  out
}

# A grouped data frame of zero rows has no groups: the functions that
# cannot return a table of zero rows (curves, score tables) say so.
check_some_groups <- function(groups, call = rlang::caller_env()) {
  if (length(groups$rows) > 0) return(invisible(groups))
  abort_aurc(
    c(
      "{.arg data} has no rows.",
      i = "A grouped data frame of zero rows has no groups to compute on."
    ),
    class = "aurc_error_no_data", call = call
  )
}

# The first element of an argument whose default lists the choices (as
# match.arg() takes it); anything else as it is, for check_choice() to judge
# (a function, say, is not subsettable).
first_choice <- function(x) {
  if (is.atomic(x) && length(x) > 1) x[1] else x
}

# A single positive finite number.
check_positive_number <- function(x, arg = rlang::caller_arg(x),
                                  call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !(x > 0) ||
    !is.finite(x)) {
    shown <- if (is.numeric(x) && length(x) == 1) {
      "It is {.val {x}}."
    } else {
      "It is {.obj_type_friendly {x}}."
    }
    abort_aurc(
      c("{.arg {arg}} must be a single positive finite number.", x = shown),
      class = "aurc_error_value", call = call
    )
  }
  invisible(as.double(x))
}

# ---- Calibration and probability matrices (issue 6) -----------------------

# A single finite number in an interval: `lower < x < upper` (open) or
# `lower <= x <= upper` (closed), optionally whole. Missing or NULL is an
# error too. Returns the number as a double.
check_number <- function(x, lower = -Inf, upper = Inf, open = FALSE,
                         whole = FALSE, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  expected <- describe_number(lower, upper, open, whole)
  if (rlang::is_missing(x) || is.null(x)) {
    abort_aurc(
      "{.arg {arg}} is missing; give {expected}.",
      class = "aurc_error_type", call = call
    )
  }
  if (!is_number_in(x, lower, upper, open, whole)) {
    shown <- if (is.numeric(x) && length(x) == 1) {
      "{.val {x}}"
    } else {
      "{.obj_type_friendly {x}}"
    }
    abort_aurc(
      c(
        "{.arg {arg}} must be {expected}.",
        x = paste0("It is ", shown, ".")
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(as.double(x))
}

is_number_in <- function(x, lower, upper, open, whole) {
  if (!is.numeric(x) || length(x) != 1 || !is.finite(x)) return(FALSE)
  inside <- if (open) x > lower && x < upper else x >= lower && x <= upper
  inside && (!whole || x == round(x))
}

describe_number <- function(lower, upper, open, whole) {
  range <- if (open) {
    paste0("strictly between ", lower, " and ", upper)
  } else if (is.finite(upper)) {
    paste0("between ", lower, " and ", upper)
  } else {
    paste0("of at least ", lower)
  }
  paste(if (whole) "a whole number" else "a number", range)
}

# Confidences for calibration: numeric, in [0, 1] where present.
check_confidence <- function(confidence, arg = "confidence",
                             call = rlang::caller_env()) {
  check_numeric_vector(confidence, arg, call = call)
  bad <- which(!is.na(confidence) & (confidence < 0 | confidence > 1))
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must lie in [0, 1].",
        x = "Element {bad[1]} is {.val {confidence[bad[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(confidence)
}

# A probability matrix: numeric, non-negative, rows summing to 1 within
# `tol`. Rows with a missing value are skipped (they give NA downstream).
# The error names the first bad row.
check_prob_matrix <- function(probs, arg = "probs", tol = 1e-6,
                              call = rlang::caller_env()) {
  if (!is.matrix(probs) || !is.numeric(probs) || ncol(probs) < 1) {
    abort_aurc(
      paste(
        "{.arg {arg}} must be a numeric matrix (one row per sample, one",
        "column per class), not {.obj_type_friendly {probs}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  complete <- stats::complete.cases(probs)
  negative <- complete & rowSums(probs < 0 | !is.finite(probs)) > 0
  sums <- rowSums(probs)
  off <- complete & !negative & abs(sums - 1) > tol
  bad <- which(negative | off)
  if (length(bad) > 0) {
    row <- bad[1]
    why <- if (negative[row]) {
      "Row {row} has a negative or infinite value."
    } else {
      "Row {row} sums to {format(sums[row], digits = 10)}."
    }
    abort_aurc(
      c(
        paste(
          "Each row of {.arg {arg}} must be non-negative and sum to 1 (within",
          "{tol})."
        ),
        x = why
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(probs)
}

# Class labels for a probability matrix with `k` columns: whole numbers in
# 1..k, or a factor whose levels are the columns (matched by name when the
# matrix has column names). Returns integer column indices (NA kept).
check_class_labels <- function(labels, n, k, col_names = NULL,
                               arg = "labels", call = rlang::caller_env(),
                               labels_from = 1) {
  if (is.factor(labels)) {
    lev <- levels(labels)
    if (!is.null(col_names)) {
      if (!setequal(lev, col_names) || length(lev) != k) {
        abort_aurc(
          c(
            paste(
              "The levels of {.arg {arg}} must be the column names of",
              "{.arg probs}."
            ),
            x = "Levels: {.val {lev}}; columns: {.val {col_names}}."
          ),
          class = "aurc_error_value", call = call
        )
      }
      idx <- match(as.character(labels), col_names)
    } else {
      if (length(lev) != k) {
        abort_aurc(
          c(
            "{.arg {arg}} must have one level per column of {.arg probs}.",
            x = paste(
              "It has {length(lev)} level{?s}; {.arg probs} has {k}",
              "column{?s}."
            )
          ),
          class = "aurc_error_value", call = call
        )
      }
      idx <- as.integer(labels)
    }
  } else {
    check_numeric_vector(labels, arg, call = call)
    idx <- labels - labels_from + 1
  }
  check_same_length(idx, n, arg, arg_n = "probs", call = call)
  bad <- which(!is.na(idx) & (idx < 1 | idx > k | idx != round(idx)))
  if (length(bad) > 0) {
    first <- labels_from
    abort_aurc(
      c(
        paste(
          "{.arg {arg}} must be class numbers in {first}..{k + first - 1}",
          "(or a factor)."
        ),
        x = "Row {bad[1]} has label {.val {labels[bad[1]]}}.",
        labels_from_hint(labels, labels_from)
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.integer(idx)
}

# --- estimator statistics and batch study (issue 4) ------------------------

# Numeric vector of whole numbers >= `min` (no NA); returns it as double.
# Above `max` (2^53 by default, the largest whole number a double holds
# exactly) is a classed `aurc_error_size`.
check_whole_numbers <- function(x, arg = rlang::caller_arg(x), min = 1,
                                max = max_whole,
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
  big <- which(x > max)
  if (length(big) > 0) {
    abort_aurc(
      c(
        "{.arg {arg}} must contain whole numbers of at most
         {format(max, big.mark = ',', scientific = 6)}.",
        x = "Element {big[1]} is {.val {x[big[1]]}}."
      ),
      class = "aurc_error_size", call = call
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

# Names chosen from `values` (metric names and the like): a non-empty
# character vector without NA (`aurc_error_type`), every element known
# (`aurc_error_value`). `what` says what the names are; `hint`, when
# given, replaces the list of the known names (long lists are cut).
check_names_in <- function(x, values, what = "metric names",
                           arg = rlang::caller_arg(x),
                           call = rlang::caller_env(), hint = NULL) {
  if (!is.character(x) || length(x) == 0 || anyNA(x)) {
    abort_aurc(
      paste(
        "{.arg {arg}} must be a character vector of {what}, not",
        "{.obj_type_friendly {x}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  bad <- setdiff(x, values)
  if (length(bad) > 0) {
    msg <- if (is.null(hint)) {
      c("{.arg {arg}} must be among {.or {.val {values}}}.",
        x = "Unknown: {.val {bad}}.")
    } else {
      c("{.arg {arg}} must be {what}.", x = "Unknown: {.val {bad}}.",
        i = hint)
    }
    abort_aurc(msg, class = "aurc_error_value", call = call)
  }
  invisible(x)
}

# A non-empty character vector of distinct values from `values`.
check_estimator_set <- function(x, values, arg = rlang::caller_arg(x),
                                call = rlang::caller_env()) {
  check_names_in(x, values, "estimator names", arg = arg, call = call)
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

# ---- sizes and threads (issue 15) -----------------------------------------

# The largest whole number a double holds exactly (2^53): sizes and counts
# above it cannot be told apart from their neighbours.
max_whole <- 2^53

# The most cells (vector or matrix elements) one result or work table may
# have: the option `aurc.max_cells`, 2^28 (2 GB of doubles) by default.
max_cells <- function() {
  cap <- getOption("aurc.max_cells")
  ok <- is.numeric(cap) && length(cap) == 1 && !is.na(cap) && cap >= 1
  if (ok) as.double(cap) else 2^28
}

# Fails before anything is allocated when `cells` (the size a request
# implies) exceeds max_cells(). `what` says what would be built.
check_cells <- function(cells, arg, what, call = rlang::caller_env()) {
  limit <- max_cells()
  if (!isTRUE(cells <= limit)) {
    abort_aurc(
      c(
        "{.arg {arg}} is too large: {what} would have
         {format(cells, big.mark = ',', scientific = 6)} cells.",
        i = "The limit is {format(limit, big.mark = ',', scientific = 6)}
             cells; raise it with {.code options(aurc.max_cells = )}."
      ),
      class = "aurc_error_size", call = call
    )
  }
  invisible(cells)
}

# The number of threads to use: a whole number of at least 1, capped at
# the cores available (parallel::detectCores()), the option `aurc.threads`
# and the environment variable OMP_THREAD_LIMIT, and at 1 in a process
# forked from the one that loaded the package, with a classed message
# (`aurc_message_threads`) when a cap applies. Returns an integer.
check_threads <- function(threads, arg = rlang::caller_arg(threads),
                          call = rlang::caller_env()) {
  threads <- check_number(threads, 1, whole = TRUE, arg = arg, call = call)
  caps <- c(
    "available cores" = available_cores(),
    "option aurc.threads" = positive_or_na(getOption("aurc.threads")),
    "variable OMP_THREAD_LIMIT" = positive_or_na(
      suppressWarnings(as.numeric(Sys.getenv("OMP_THREAD_LIMIT")))
    )
  )
  caps <- floor(caps[!is.na(caps) & caps >= 1])
  # a forked child (parallel::mclapply() and the like) has no OpenMP
  # workers: the C++ core runs on one thread there (src/core/threads.h);
  # said once per child, not once per call of a loop
  if (threads > 1 && in_forked_child_impl()) {
    if (!identical(aurc_state$fork_told, Sys.getpid())) {
      aurc_state$fork_told <- Sys.getpid()
      inform_aurc(
        c(
          "Using 1 thread instead of {threads} in this forked process.",
          i = "OpenMP threads do not survive {.fn fork}; the results are the
               same on one thread. Said once per process."
        ),
        class = "aurc_message_threads", .envir = environment()
      )
    }
    return(1L)
  }
  if (length(caps) && threads > min(caps)) {
    cap <- min(caps)
    why <- names(caps)[which.min(caps)]
    inform_aurc(
      "Using {cap} thread{?s} instead of {threads}: capped by the {why}.",
      class = "aurc_message_threads", .envir = environment()
    )
    threads <- cap
  }
  as.integer(threads)
}

# The threads of the one sort behind every metric: the option
# `aurc.threads` (unset: 1), capped silently at the cores available and
# OMP_THREAD_LIMIT. Only inputs of 2^16 values or more are sorted on more
# than one thread; the result never depends on it. Every call that sorts
# comes here, so it also applies the option `aurc.workspace`.
sort_threads <- function(call = rlang::caller_env()) {
  apply_workspace_option(call)
  opt <- getOption("aurc.threads")
  if (is.null(opt)) {
    return(1L)
  }
  ok <- is.numeric(opt) && length(opt) == 1 && !is.na(opt) && opt >= 1 &&
    opt == floor(opt)
  if (!ok) {
    abort_aurc(
      c(
        "The option {.code aurc.threads} must be a whole number of at least 1.",
        i = "It is {.obj_type_friendly {opt}}; set it with
             {.code options(aurc.threads = 2)} or unset it with
             {.code options(aurc.threads = NULL)}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  caps <- c(
    available_cores(),
    positive_or_na(suppressWarnings(as.numeric(Sys.getenv("OMP_THREAD_LIMIT"))))
  )
  caps <- caps[!is.na(caps) & caps >= 1]
  as.integer(min(c(opt, floor(caps)), 1024))
}

# The cores of the machine, found once per session: parallel::detectCores()
# reads /proc and costs about 2 ms, which was paid on every call once a
# thread option was set (issue 25).
aurc_state <- new.env(parent = emptyenv())
available_cores <- function() {
  if (!exists("cores", envir = aurc_state, inherits = FALSE)) {
    aurc_state$cores <- parallel::detectCores() # NA: no cap, as before
  }
  aurc_state$cores
}

positive_or_na <- function(x) {
  ok <- is.numeric(x) && length(x) == 1 && !is.na(x) && x >= 1
  if (ok) as.double(x) else NA_real_
}

# At least one element (for grids that make one panel or cell each).
check_nonempty <- function(x, arg = rlang::caller_arg(x),
                           call = rlang::caller_env()) {
  if (length(x) == 0) {
    abort_aurc(
      "{.arg {arg}} must have at least one element.",
      class = "aurc_error_length", call = call
    )
  }
  invisible(x)
}
