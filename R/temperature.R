#' Fit a softmax temperature
#'
#' Temperature scaling (Guo et al. 2017) divides the logits by one number
#' `T > 0` before the softmax. `fit_temperature()` finds the `T` that
#' minimises the mean negative log-likelihood
#' `-(1/n) sum_i log softmax(z_i / T)[y_i]` on a validation set, by a
#' one-dimensional search (`stats::optimize()`) over `log T` in
#' `log(interval)`. Use the result as `temperature =` of
#' [confidence_score()] and [selective_loss()] on the test set.
#'
#' @param logits A numeric matrix of logits, one row per sample, one column
#'   per class (or a data frame of numeric columns).
#' @inheritParams selective_loss
#' @param interval The range searched for `T`, two positive numbers.
#' @param tol Tolerance of the search on the `log T` scale.
#' @return The fitted temperature, a single positive number. When it lies
#'   at an end of `interval`, a warning of class `aurc_warning_boundary`
#'   says so.
#' @references
#' Guo, Pleiss, Sun, Weinberger (2017). On Calibration of Modern Neural
#' Networks. ICML.
#' @examples
#' set.seed(1)
#' labels <- sample(1:3, 200, replace = TRUE)
#' logits <- matrix(rnorm(600), 200, 3)
#' logits[cbind(1:200, labels)] <- logits[cbind(1:200, labels)] + 1
#' # over-confident logits: a temperature above 1 softens them
#' fit_temperature(5 * logits, labels)
#' @export
fit_temperature <- function(logits, labels, ..., interval = c(0.01, 100),
                            tol = 1e-8, labels_from = 1) {
  check_dots(...)
  logits <- as_output_matrix(logits)
  labels_from <- check_labels_from(labels_from)
  d <- check_outputs(logits)
  warn_if_probs_as_logits(logits, "logits")
  y <- check_labels(labels, d[1], d[2], colnames(logits),
    labels_from = labels_from
  )
  ok <- is.numeric(interval) && length(interval) == 2 &&
    all(is.finite(interval)) && all(interval > 0) && interval[1] < interval[2]
  if (!ok) {
    abort_aurc(
      "{.arg interval} must be two positive numbers, the smaller first.",
      class = "aurc_error_value"
    )
  }
  tol <- check_positive_number(tol)
  storage.mode(logits) <- "double"
  nll <- function(log_t) mean_nll_impl(logits, y, exp(log_t))
  fit <- stats::optimize(nll, log(interval), tol = tol)
  temperature <- exp(fit$minimum)
  edge <- abs(fit$minimum - log(interval)) < 1e-3
  if (any(edge)) {
    warn_aurc(
      c(
        paste(
          "The fitted temperature {signif(temperature, 4)} is at an end of",
          "{.arg interval}."
        ),
        i = "Widen {.arg interval}; the minimum may lie outside."
      ),
      class = "aurc_warning_boundary"
    )
  }
  temperature
}
