#' Importance weights for a label shift
#'
#' Under a **label shift** the classes occur with other frequencies where
#' the model is deployed (the target) than in the data at hand (the source),
#' while the inputs of each class look the same: `p_target(x | y) =
#' p_source(x | y)`. Every metric of the package then estimates its value
#' on the target from the source data with the importance weights
#' `w_i = pi_target(y_i) / pi_source(y_i)`, the ratio of the class's
#' frequencies (Saerens, Latinne and Decaestecker 2002; Lipton, Wang and
#' Smola 2018).
#'
#' Give the weights to any metric as `case_weights`. They are importance
#' weights, not counts: [selective_ci()] and [compare_scores()] then use the
#' weighted sandwich variance over the cases observed (see the section
#' "Case weights: counts or importance" of [selective_ci()]), so the
#' intervals widen as the weights vary. The result is
#' [hardhat::importance_weights()] when hardhat is installed, which keeps
#' its class in a data frame and under subsetting; otherwise a numeric
#' vector marked with the attribute `aurc_weights = "importance"`, which
#' subsetting drops (then give it to the `_vec` forms whole).
#'
#' @param truth The class of every case of the source data (a factor,
#'   character or integer vector; no `NA`).
#' @param target The class frequencies of the target: a named numeric
#'   vector (names the classes of `truth`; non-negative, summing to 1
#'   within 1e-8), or a vector of class labels observed on the target
#'   (character, factor or integer), whose frequencies are then used.
#'   Unnamed doubles are an error: they could be either.
#' @param source `NULL` (the default: the frequencies of `truth`), or the
#'   class frequencies of the source as `target`.
#' @return One weight per case: `target[y] / source[y]`, with mean 1 over
#'   the source cases when `source` is their own frequencies.
#' @references
#' Saerens, M., Latinne, P., Decaestecker, C. (2002). Adjusting the outputs
#' of a classifier to new a priori probabilities: a simple procedure.
#' Neural Computation 14(1), 21-41.
#'
#' Lipton, Z. C., Wang, Y.-X., Smola, A. J. (2018). Detecting and
#' correcting for label shift with black box predictors. ICML.
#' @seealso [selective_ci()] for the variance of importance weights.
#' @examples
#' set.seed(1)
#' truth <- factor(sample(c("a", "b"), 1000, TRUE, prob = c(0.8, 0.2)))
#' score <- rnorm(1000, ifelse(truth == "a", 1, 0))
#' failure <- rbinom(1000, 1, plogis(-1 - score))
#' # deployed where the classes are half and half
#' w <- label_shift_weights(truth, c(a = 0.5, b = 0.5))
#' aurc_vec(score, failure, case_weights = w)
#' selective_ci_vec(score, failure, case_weights = w)
#' @export
label_shift_weights <- function(truth, target, source = NULL) {
  call <- rlang::current_env()
  if (!is.atomic(truth) || !is.null(dim(truth)) || is.raw(truth) ||
    is.complex(truth) || is.double(truth) && !is.factor(truth) &&
      any(truth != round(truth), na.rm = TRUE)) {
    abort_aurc(
      c(
        "{.arg truth} must be a vector of class labels.",
        x = "It is {.obj_type_friendly {truth}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  if (!length(truth)) {
    abort_aurc("{.arg truth} must not be empty.",
      class = "aurc_error_value", call = call
    )
  }
  if (anyNA(truth)) {
    abort_aurc("{.arg truth} must not contain missing values.",
      class = "aurc_error_value", call = call
    )
  }
  labels <- as.character(truth)
  classes <- if (is.factor(truth)) levels(truth) else sort(unique(labels))
  seen <- table(factor(labels, levels = classes))
  target <- label_shift_priors(target, classes, "target", call)
  source <- if (is.null(source)) {
    c(seen) / length(labels)
  } else {
    label_shift_priors(source, classes, "source", call)
  }
  bad <- classes[seen > 0 & !(source[classes] > 0)]
  if (length(bad)) {
    abort_aurc(
      c(
        "{.arg source} gives no weight to class{?es} {.val {bad}}, which
         {.arg truth} holds.",
        i = "A class seen in the data needs a positive source frequency."
      ),
      class = "aurc_error_value", call = call
    )
  }
  w <- unname(target[labels] / source[labels])
  if (requireNamespace("hardhat", quietly = TRUE)) {
    return(hardhat::importance_weights(w))
  }
  attr(w, "aurc_weights") <- "importance"
  w
}

# Class frequencies named by `classes` from a named numeric vector or from
# labels.
label_shift_priors <- function(x, classes, arg, call) {
  if (is.numeric(x) && !is.null(names(x))) {
    unknown <- setdiff(names(x), classes)
    missing <- setdiff(classes, names(x))
    if (length(unknown) || length(missing) || anyDuplicated(names(x)) ||
      anyNA(x) || any(x < 0) || abs(sum(x) - 1) > 1e-8) {
      abort_aurc(
        c(
          "{.arg {arg}} must give a frequency to every class, summing to
           1.",
          x = if (length(unknown)) {
            "No class {.val {unknown}} in {.arg truth}."
          } else if (length(missing)) {
            "No frequency for {.val {missing}}."
          } else {
            "The frequencies are {.val {format(x)}}."
          },
          i = "Classes: {.val {classes}}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    return(x[classes])
  }
  if (is.double(x)) {
    # unnamed doubles could be frequencies or labels: never guessed
    abort_aurc(
      c(
        "{.arg {arg}} must be frequencies named by the classes, or class
         labels (character, factor or integer).",
        i = "For example {.code c(\"{classes[1]}\" = 0.5, ...)}, or labels
             as {.code as.integer()}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (!is.atomic(x) || !length(x) || anyNA(x)) {
    abort_aurc(
      "{.arg {arg}} must be named frequencies or class labels without
       {.val {NA}}.",
      class = "aurc_error_type", call = call
    )
  }
  labels <- as.character(x)
  unknown <- setdiff(unique(labels), classes)
  if (length(unknown)) {
    abort_aurc(
      c(
        "{.arg {arg}} holds label{?s} {.val {unknown}} that {.arg truth}
         does not.",
        i = "Classes: {.val {classes}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  c(table(factor(labels, levels = classes))) / length(labels)
}
