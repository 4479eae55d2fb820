# The input of the prediction-set metrics (R/sets-metrics.R): sets given as
# a logical n x K matrix (column k = class k) or as a list of label vectors,
# and the true classes. Everything is reduced to three per-case vectors,
# which is all any set metric reads:
#   covered  whether the true class is in the set (logical)
#   size     the number of classes in the set, 0 for an empty set (integer)
#   truth    the true class as a number 1..K (integer)
# plus the class names, K and the case weights.
#
# Internal API:
# * set_input(sets, truth, classes, case_weights, na_rm, call)
#     a list of the three vectors, k, the class names, the weights w and
#     count_scale; "missing" when na_rm = FALSE and a case is incomplete;
#     NULL when no case (of positive weight) is left.
# * set_cases() and set_input_weights(): its two steps, so that a paired
#     comparison (R/sets-compare.R) drops the same cases of every predictor.

set_input <- function(sets, truth, classes, case_weights, na_rm, call) {
  check_bool(na_rm, call = call)
  cases <- set_cases(sets, truth, classes, call)
  set_input_weights(cases, case_weights, na_rm, call)
}

# The per-case vectors of one set predictor before any case is dropped:
# covered, size, y (class numbers), k, classes, n and `incomplete` (the
# cases with a missing truth or set).
set_cases <- function(sets, truth, classes, call) {
  if (is.matrix(sets)) {
    if (!is.logical(sets)) {
      abort_set_type(sets, call)
    }
    k <- ncol(sets)
    n <- nrow(sets)
    if (is.null(classes)) classes <- colnames(sets)
    if (!is.null(classes)) check_set_classes(classes, k, call)
    if (k < 1) {
      abort_aurc(
        "{.arg sets} must have at least one column (class).",
        class = "aurc_error_value", call = call
      )
    }
    y <- set_truth_index(truth, n, k, classes, call)
    incomplete <- is.na(y) | rowSums(is.na(sets)) > 0
    size <- as.integer(rowSums(sets, na.rm = TRUE))
    covered <- logical(n)
    ok <- !is.na(y)
    covered[ok] <- sets[cbind(which(ok), y[ok])]
  } else if (is.list(sets) && !is.data.frame(sets) && is.null(dim(sets))) {
    n <- length(sets)
    classes <- set_list_classes(sets, truth, classes, call)
    k <- length(classes)
    y <- set_truth_index(truth, n, k, classes, call)
    ids <- set_list_ids(sets, classes, call)
    incomplete <- is.na(y) | ids$incomplete
    size <- ids$size
    covered <- ids$covered_by(y)
  } else {
    abort_set_type(sets, call)
  }
  list(
    covered = covered, size = size, y = y, k = k, classes = classes, n = n,
    incomplete = incomplete
  )
}

# set_input() from set_cases(): the weights checked and scaled, the
# incomplete cases dropped (`cases$incomplete`, which a paired comparison
# may widen to the cases incomplete in any predictor).
set_input_weights <- function(cases, case_weights, na_rm, call) {
  covered <- cases$covered
  size <- cases$size
  y <- cases$y
  k <- cases$k
  classes <- cases$classes
  n <- cases$n
  incomplete <- cases$incomplete
  case_weights <- plain_weights(case_weights)
  check_case_weights(case_weights, n, call = call)
  importance <- !is.null(case_weights) &&
    weights_kind(case_weights) == "importance"
  w <- if (is.null(case_weights)) rep(1, n) else as.double(case_weights)
  if (any(incomplete)) {
    if (!na_rm) return("missing")
    keep <- !incomplete
    covered <- covered[keep]
    size <- size[keep]
    y <- y[keep]
    w <- w[keep]
  }
  if (!length(w) || !(max(w) > 0)) return(NULL)
  # weights far from 1 are scaled by a power of 2 (exact; R/weights-
  # scale.R): `w * count_scale` are the counts of cases again
  e <- scale_free_exponent(max(w))
  w <- if (e == 0) w else times_pow2(w, e)
  # importance weights (hardhat::importance_weights()) are not counts: the
  # intervals take Kish's effective number of cases, (sum w)^2 / sum w^2,
  # as the weighted sandwich over the observed cases does for a mean
  count_scale <- if (importance) sum(w) / sum(w^2) else 2^-e
  list(
    covered = as.logical(covered), size = as.integer(size),
    truth = as.integer(y), k = k,
    classes = if (is.null(classes)) as.character(seq_len(k)) else
      as.character(classes),
    w = w, count_scale = count_scale, importance = importance
  )
}

# The case weights of rows `rows` (a group of a data frame): subsetting
# drops the attribute that marks importance weights (plain_weights()), so
# it is put back.
set_weights_rows <- function(case_weights, rows) {
  if (is.null(case_weights)) return(NULL)
  out <- case_weights[rows]
  if (weights_kind(case_weights) == "importance") {
    attr(out, "aurc_weights") <- "importance"
  }
  out
}

abort_set_type <- function(sets, call) {
  abort_aurc(
    c(
      paste(
        "{.arg sets} must be a logical matrix (one column per class) or a",
        "list of label vectors, not {.obj_type_friendly {sets}}."
      ),
      i = "For 0/1 numbers, give {.code sets == 1}."
    ),
    class = "aurc_error_type", call = call
  )
}

check_set_classes <- function(classes, k, call) {
  ok <- (is.character(classes) || is.numeric(classes) ||
    is.factor(classes)) && !anyNA(classes) &&
    !anyDuplicated(as.character(classes))
  if (!ok || length(classes) != k) {
    abort_aurc(
      c(
        "{.arg classes} must be {k} distinct class name{?s}, one per column.",
        x = "It has length {length(classes)}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(classes)
}

# The classes of list-form sets: `classes` when given, else the levels of a
# factor truth, else the sorted labels seen in the truth and the sets.
set_list_classes <- function(sets, truth, classes, call) {
  if (!is.null(classes)) {
    check_set_classes(classes, length(classes), call)
    if (!length(classes)) {
      abort_aurc("{.arg classes} must not be empty.",
        class = "aurc_error_value", call = call
      )
    }
    return(as.character(classes))
  }
  if (is.factor(truth)) return(levels(truth))
  seen <- unique(c(as.character(truth), as.character(unlist(sets))))
  seen <- seen[!is.na(seen)]
  # numbers in numeric order (labels 2 and 10), anything else as text
  num <- suppressWarnings(as.numeric(seen))
  seen <- if (anyNA(num)) sort(seen) else seen[order(num)]
  if (!length(seen)) seen <- "1"
  seen
}

# Truth as class numbers 1..k: a factor or character matched to the class
# names (a factor with k levels by position when there are none), or whole
# numbers 1..k (matched to numeric class names when given).
set_truth_index <- function(truth, n, k, classes, call) {
  check_set_truth_type(truth, call)
  check_same_length(truth, n, "truth", arg_n = "sets", call = call)
  positional <- is.null(classes) ||
    identical(as.character(classes), as.character(seq_len(k)))
  idx <- if (is.numeric(truth) && positional) {
    truth
  } else if (is.factor(truth) && is.null(classes) && nlevels(truth) == k) {
    as.integer(truth)
  } else {
    if (is.null(classes) && !is.numeric(truth) && !is.logical(truth)) {
      abort_aurc(
        c(
          "{.arg truth} gives class names, but {.arg sets} has none.",
          i = "Give {.arg sets} column names or {.arg classes}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    match(as.character(truth), as.character(classes))
  }
  bad <- which(!is.na(truth) &
    (is.na(idx) | idx < 1 | idx > k | idx != round(idx)))
  if (length(bad)) abort_set_truth(truth, bad[1], k, classes, call)
  as.integer(idx)
}

check_set_truth_type <- function(truth, call) {
  if (is.null(truth) || !(is.atomic(truth) || is.factor(truth)) ||
    !is.null(dim(truth))) {
    abort_aurc(
      paste(
        "{.arg truth} must be a vector of classes (factor, character or",
        "class numbers), not {.obj_type_friendly {truth}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  invisible(truth)
}

abort_set_truth <- function(truth, row, k, classes, call) {
  shown <- if (is.null(classes)) "class numbers in 1..{k}" else
    "one of the classes {.val {classes}}"
  abort_aurc(
    c(
      paste0("{.arg truth} must be ", shown, "."),
      x = "Row {row} has {.val {as.character(truth[row])}}."
    ),
    class = "aurc_error_value", call = call
  )
}

# List-form sets: each element a vector of labels (NULL or empty = the
# empty set). A label counts once; NA in an element makes the case
# incomplete; a label outside the classes is an error naming the row.
set_list_ids <- function(sets, classes, call) {
  n <- length(sets)
  len <- lengths(sets)
  flat <- unlist(lapply(sets, function(s) {
    if (is.factor(s)) as.character(s) else s
  }), use.names = FALSE)
  ok_type <- vapply(sets, function(s) {
    is.null(s) || (is.atomic(s) && is.null(dim(s))) || is.factor(s)
  }, logical(1))
  if (!all(ok_type)) {
    bad <- which(!ok_type)[1]
    abort_aurc(
      c(
        "Each element of {.arg sets} must be a vector of class labels.",
        x = "Element {bad} is {.obj_type_friendly {sets[[bad]]}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  row <- rep.int(seq_len(n), len)
  id <- match(as.character(flat), as.character(classes))
  miss <- is.na(flat)
  bad <- which(!miss & is.na(id))
  if (length(bad)) {
    abort_aurc(
      c(
        "{.arg sets} holds a label that is not a class.",
        x = "Element {row[bad[1]]} has {.val {as.character(flat[bad[1]])}}.",
        i = "Classes: {.val {classes}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  incomplete <- logical(n)
  incomplete[row[miss]] <- TRUE
  keep <- !miss
  row <- row[keep]
  id <- id[keep]
  dup <- duplicated((row - 1) * length(classes) + id)
  if (any(dup)) {
    warn_aurc(
      c(
        "A set of {.arg sets} names a class twice; it counts once.",
        i = "First in element {row[dup][1]}."
      ),
      class = "aurc_warning_duplicate_labels", call = call
    )
    row <- row[!dup]
    id <- id[!dup]
  }
  size <- tabulate(row, nbins = n)
  list(
    incomplete = incomplete, size = as.integer(size),
    covered_by = function(y) {
      hit <- logical(n)
      y_row <- y[row]
      hit[row[!is.na(y_row) & id == y_row]] <- TRUE
      hit
    }
  )
}
