#' Per-sample losses from probabilities and labels
#'
#' The loss of each prediction, to pair with a confidence score in the
#' metrics (`loss = ` of [aurc()], [augrc()], ...). With `p` a row of
#' probabilities and `y` its label:
#'
#' * `"zero_one"`: `1` if the predicted class (the first column holding the
#'   row's maximum, so ties go to the first) is not `y`, else `0`.
#' * `"cross_entropy"`: `-log p_y`, with `p_y` clamped from below to the
#'   smallest positive normalised double (`.Machine$double.xmin`), so the
#'   loss is finite (at most about 708). From logits it is computed exactly
#'   in log space, `log(sum_k exp(z_k)) - z_y`, with no clamping.
#' * `"brier"`: `sum_k (p_k - 1(y = k))^2`, in `[0, 2]`.
#'
#' @param probs A numeric matrix of probabilities (rows summing to 1 within
#'   1e-6, no negative values), one row per sample and one column per
#'   class, or a data frame of numeric columns (taken in order); logits
#'   when `from = "logits"`.
#' @param labels The true classes: whole numbers `1..K` (column numbers;
#'   `0..K-1` with `labels_from = 0`) or a factor whose levels are the
#'   column names (or, without column names, one level per column in
#'   order). Errors name the first bad element.
#' @param labels_from The number of the first class: `1` (R's convention,
#'   the default) or `0` (labels `0..K-1` from Python or PyTorch). Never
#'   guessed: labels containing 0 with `labels_from = 1` are an error that
#'   suggests `labels_from = 0`.
#' @param type `"zero_one"` (default), `"cross_entropy"` or `"brier"`.
#' @param ... Not used; must be empty.
#' @param from `"probs"` (default) or `"logits"` (turned into probabilities
#'   by a stable softmax of `logits / temperature`).
#' @param temperature Softmax temperature for logits (see
#'   [fit_temperature()]).
#' @return A numeric vector with one loss per sample.
#' @examples
#' probs <- rbind(c(0.7, 0.2, 0.1), c(0.3, 0.3, 0.4), c(0.5, 0.5, 0))
#' labels <- c(1, 2, 2)
#' selective_loss(probs, labels, "zero_one")
#' selective_loss(probs, labels, "cross_entropy")
#' selective_loss(probs, labels, "brier")
#' @export
selective_loss <- function(probs, labels, type = "zero_one", ...,
                           from = "probs", temperature = 1,
                           labels_from = 1) {
  check_dots(...)
  probs <- as_output_matrix(probs)
  type <- check_choice(type, c("zero_one", "cross_entropy", "brier"))
  from <- check_choice(from, c("probs", "logits"))
  labels_from <- check_labels_from(labels_from)
  d <- check_outputs(probs)
  if (from == "probs") check_probs(probs)
  temperature <- check_positive_number(temperature)
  y <- check_labels(labels, d[1], d[2], colnames(probs),
    labels_from = labels_from
  )
  storage.mode(probs) <- "double"
  losses_impl(probs, y, type, from == "logits", temperature)
}
