#' Area under the generalized risk-coverage curve (AUGRC)
#'
#' The generalized risk at a threshold `t` is the loss of the accepted
#' predictions divided by *all* `n` predictions,
#' `sum_i loss_i 1(s_i >= t) / n`: the rate of silent failures, before
#' anything is rejected (Traub et al. 2024, Eq. 3). The AUGRC is its area
#' over coverage, in `[0, 1/2]` for 0/1 losses; lower is better.
#'
#' @section Methods:
#' With `r_i = #{k : s_k <= s_i}` (max rank), `a_i = #{k : s_k < s_i} + 1`
#' (min rank) and `mid_i = (a_i + r_i) / 2`:
#'
#' * `"trapezoid"` (default): the trapezoid rule over the points `(0, 0)` and
#'   `(coverage_t, generalized_risk_t)` of [rc_curve()] at every distinct
#'   threshold. This equals `(1/n^2) sum_i (mid_i - 1/2) loss_i` and is the
#'   convention of the public code of Traub et al.
#' * `"step"`: `(1/n) sum_j generalized_risk(s_j) = (1/n^2) sum_i r_i loss_i`,
#'   the mean generalized risk over the `n` thresholds; exactly the `"sele"`
#'   estimator of [aurc_vec()].
#'
#' For 0/1 failures the trapezoid AUGRC is tied to the failure AUROC and the
#' accuracy `acc` (Eq. 7): `AUGRC = (1 - AUROC_f) acc (1 - acc) +
#' (1 - acc)^2 / 2`, exactly, ties included (see [augrc_identity()]).
#'
#' @inheritParams aurc
#' @param method `"trapezoid"` (default) or `"step"` (see Methods).
#'
#' @return `augrc_vec()`: a single number (`NA` as for [aurc_vec()]).
#'   `augrc()`: a tibble with `.metric` (`"augrc"`), `.estimator` (the
#'   method) and `.estimate`, after the grouping columns.
#' @references
#' Traub, Bungert, Lueth, Baumgartner, Maier-Hein, Maier-Hein, Jaeger (2024).
#' Overcoming Common Flaws in the Evaluation of Selective Classification
#' Systems. NeurIPS 2024.
#' @seealso [eaugrc()], [augrc_identity()], [rc_curve()].
#' @examples
#' # Traub et al.'s example: 100 evenly spaced confidences, every other
#' # prediction wrong
#' conf <- seq(0, 1, length.out = 100)
#' failure <- rep(c(1, 0), 50)
#' augrc_vec(conf, failure) # 0.2475
#' augrc_vec(conf, failure, method = "step")
#'
#' df <- data.frame(conf = conf, failure = failure, half = rep(1:2, 50))
#' augrc(df, conf, failure)
#'
#' # The toy example of Traub et al. (Fig. 2 b-d), rebuilt: three scores
#' # rank 20 predictions; failures at these positions (1 = most confident).
#' # CSF-1 and CSF-2 share accuracy and failure AUROC, CSF-3 is worse in
#' # both, yet AURC prefers CSF-2 and CSF-3 to CSF-1 because of CSF-1's
#' # high-confidence failure. AUGRC follows accuracy and AUROC_f.
#' failures <- list(
#'   "CSF-1" = c(2, 17, 18, 19), "CSF-2" = c(11, 14, 15, 16),
#'   "CSF-3" = c(10, 12, 14, 15, 17)
#' )
#' sapply(failures, function(pos) {
#'   score <- 20:1
#'   f <- as.numeric(1:20 %in% pos)
#'   c(
#'     accuracy = 1 - mean(f), failure_auroc = failure_auroc_vec(score, f),
#'     aurc = aurc_vec(score, f), augrc = augrc_vec(score, f)
#'   )
#' })
#' @export
augrc <- function(data, score, loss, ..., method = "trapezoid",
                  correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("augrc", ...)
}

#' @rdname augrc
#' @export
augrc_vec <- function(score, loss, ..., method = "trapezoid",
                      correct = NULL, na_rm = FALSE,
                      case_weights = NULL) {
  metric_vec_form("augrc", ...)
}

augrc_methods <- c("trapezoid", "step")

#' Excess AUGRC
#'
#' The trapezoid AUGRC ([augrc_vec()]) minus its value for the best possible
#' ordering of the same predictions: for 0/1 failures with error rate
#' `err = mean(failure)` that optimum is `err^2 / 2` (all failures least
#' confident), so `E-AUGRC = AUGRC - err^2 / 2`. It is never negative and, by
#' the identity of Traub et al. (Eq. 7), equals
#' `(1 - AUROC_f) acc (1 - acc)`: a pure ranking measure scaled by the
#' chance that a random pair holds one failure and one correct prediction.
#'
#' @inheritParams failure_auroc
#' @return `eaugrc_vec()`: a single number. `eaugrc()`: a tibble with
#'   `.metric` (`"eaugrc"`), `.estimator` (`"trapezoid"`) and `.estimate`.
#'   Unlike [failure_auroc()], E-AUGRC is defined (0) when only one class is
#'   present.
#' @references
#' Traub et al. (2024), see [augrc()].
#' @examples
#' conf <- seq(0, 1, length.out = 100)
#' failure <- rep(c(1, 0), 50)
#' eaugrc_vec(conf, failure) # 0.2475 - 0.5^2 / 2
#' eaugrc(data.frame(conf, failure), conf, failure)
#' @export
eaugrc <- function(data, score, failure, ..., correct = NULL, na_rm = FALSE,
                   case_weights = NULL) {
  metric_df_form("eaugrc", ...)
}

#' @rdname eaugrc
#' @export
eaugrc_vec <- function(score, failure, ..., correct = NULL, na_rm = FALSE,
                       case_weights = NULL) {
  metric_vec_form("eaugrc", ...)
}

#' The AUGRC identity of Traub et al. (Eq. 7)
#'
#' For 0/1 failures the trapezoid AUGRC equals
#' `(1 - AUROC_f) acc (1 - acc) + (1 - acc)^2 / 2`, exactly and ties
#' included, with `acc = 1 - mean(failure)` and `AUROC_f` the failure AUROC
#' ([failure_auroc_vec()]). `augrc_identity()` computes both sides, so the
#' identity can be checked on any data.
#'
#' @inheritParams failure_auroc
#' @return A one-row tibble with `augrc` (the trapezoid AUGRC, left side),
#'   `failure_auroc`, `accuracy`, `identity` (the right side) and
#'   `difference` (`augrc - identity`, zero up to rounding). With only one
#'   class the AUROC and the right side are `NA` (with a warning of class
#'   `aurc_warning_one_class`).
#' @examples
#' set.seed(1)
#' score <- round(runif(50), 1) # many ties
#' failure <- rbinom(50, 1, 0.3)
#' augrc_identity(score, failure)
#' @export
augrc_identity <- function(score, failure, ..., na_rm = FALSE,
                           case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  v <- compute_metrics(
    score, failure, c("augrc", "failure_auroc", "mean_loss"), na_rm,
    case_weights, call,
    binary = TRUE, loss_arg = "failure"
  )
  acc <- 1 - v[[3]]
  rhs <- (1 - v[[2]]) * acc * (1 - acc) + (1 - acc)^2 / 2
  tibble::tibble(
    augrc = v[[1]], failure_auroc = v[[2]], accuracy = acc,
    identity = rhs, difference = v[[1]] - rhs
  )
}
