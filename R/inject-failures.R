#' Turn the least confident correct predictions into failures
#'
#' The construction of Ding et al. (2020, Sec. 4.1, "DenseNet-m"): a model
#' that makes the same predictions as the original one except that its `m`
#' least confident correct predictions are wrong. It is worse for selective
#' prediction at every threshold, yet the failure AUROC and AUPR usually
#' improve because the new failures sit where the score is lowest; the AURC
#' correctly gets worse. Use it to show that AUROC/AUPR cannot compare
#' models with different accuracies.
#'
#' Among correct predictions (`failure == 0`) with a known score, the `m`
#' with the lowest scores are chosen; among tied scores the ones that come
#' first in the input. Samples with a missing score or failure are never
#' chosen and are returned unchanged.
#'
#' @param score Confidence score, higher means more confident.
#' @param failure Failure indicator, 0/1 or logical (1 = wrong prediction).
#' @param m Number of correct predictions to turn into failures: a whole
#'   number from 0 to the number of correct predictions.
#'
#' @return `failure` with `m` more failures, of the same type (logical,
#'   integer or double).
#' @references
#' Ding, Liu, Xiong, Shi (2020). Revisiting the Evaluation of Uncertainty
#' Estimation and Its Application to Explore Model Complexity-Uncertainty
#' Trade-Off. CVPR Workshops 2020.
#' @examples
#' # Logistic regression on the Pima Indians diabetes data (MASS)
#' fit <- glm(type ~ ., data = MASS::Pima.tr, family = binomial)
#' p <- predict(fit, MASS::Pima.te, type = "response")
#' score <- pmax(p, 1 - p) # maximum class probability
#' failure <- as.integer((p > 0.5) != (MASS::Pima.te$type == "Yes"))
#' # failure AUROC: P(score of a correct > score of a failure), ties 1/2
#' auroc_f <- function(s, f) {
#'   r <- rank(s)
#'   (sum(r[f == 0]) - sum(f == 0) * (sum(f == 0) + 1) / 2) /
#'     (sum(f == 0) * sum(f == 1))
#' }
#' t(sapply(c(0, 5, 10, 20, 40), function(m) {
#'   f <- inject_failures(score, failure, m)
#'   c(m = m, accuracy = 1 - mean(f), auroc_f = auroc_f(score, f),
#'     aurc = aurc_vec(score, f))
#' }))
#' @export
inject_failures <- function(score, failure, m) {
  check_numeric_vector(score)
  n <- length(score)
  check_failure(failure, n)
  candidates <- which(!is.na(score) & !is.na(failure) & failure == 0)
  if (length(candidates) == 0) {
    check_number(m, lower = 0, whole = TRUE)
    if (m > 0) {
      abort_aurc(
        c(
          "There is no correct prediction to turn into a failure.",
          i = "Every sample is a failure or has a missing {.arg score} or
               {.arg failure}."
        ),
        class = "aurc_error_value"
      )
    }
  }
  check_number(m, lower = 0, upper = length(candidates), whole = TRUE)
  if (m == 0) return(failure)
  # order() is stable: among tied scores, the first in the input first
  chosen <- candidates[order(score[candidates])[seq_len(m)]]
  failure[chosen] <- if (is.logical(failure)) TRUE else 1L
  failure
}
