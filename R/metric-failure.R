#' Failure AUROC, failure AUPR and success AUPR
#'
#' How well the confidence score separates failures from correct
#' predictions, ignoring how many failures there are.
#'
#' * `failure_auroc()`: `AUROC_f = P(s_correct > s_failure) +
#'   1/2 P(s_correct = s_failure)` over all (correct, failure) pairs: the
#'   area under the ROC curve of the score as a detector of correct
#'   predictions (Traub et al. 2024). Higher is better; 1/2 is random.
#' * `failure_aupr()`: average precision with failures as the positive class
#'   and `-score` as the ranking (Ding et al. 2020, Table 1, "AUPR-Error"):
#'   `sum_k (Rec_k - Rec_{k-1}) Prec_k` over the distinct thresholds `t_k`,
#'   taken from the lowest score up, where the flagged set is
#'   `{s <= t_k}`, `Rec_k` is the share of all failures flagged and `Prec_k`
#'   the share of failures among the flagged. Tied scores are flagged
#'   together. Higher is better; the failure rate is random.
#' * `success_aupr()`: average precision with the correct predictions as
#'   the positive class and `score` as the ranking ("AUPR-In" of Hendrycks
#'   and Gimpel 2017, "AUPR-Success" of Corbiere et al. 2019): the same sum
#'   over the distinct thresholds taken from the highest score down, where
#'   the accepted set is `{s >= t_k}`, `Rec_k` is the share of all correct
#'   predictions accepted and `Prec_k` the share of correct predictions
#'   among the accepted. Higher is better; the accuracy is random. It
#'   equals `failure_aupr_vec(-score, 1 - failure)`. Its intervals and
#'   comparisons are bootstrap only (no influence function yet).
#'
#' All three follow the conventions of scikit-learn's `roc_auc_score()` and
#' `average_precision_score()`, which the AUGRC authors' code uses.
#'
#' @inheritParams aurc
#' @param failure 0/1 (or logical) failure indicator: 1 (`TRUE`) where the
#'   prediction is wrong. For the data-frame form an unquoted column name.
#' @return `_vec`: a single number; `NA` with a warning of class
#'   `aurc_warning_one_class` when only failures or only correct predictions
#'   are left (and as for [aurc_vec()] for missing values). Data-frame form:
#'   a tibble with `.metric`, `.estimator` (`"binary"`) and `.estimate`.
#' @references
#' Ding, Liu, Xiong, Shi (2020). Revisiting the Evaluation of Uncertainty
#' Estimation and Its Application to Explore Model Complexity-Uncertainty
#' Trade-Off. CVPR Workshops.
#'
#' Hendrycks, Gimpel (2017). A Baseline for Detecting Misclassified and
#' Out-of-Distribution Examples in Neural Networks. ICLR.
#'
#' Corbiere, Thome, Bar-Hen, Cord, Perez (2019). Addressing Failure
#' Prediction by Learning Model Confidence. NeurIPS.
#'
#' Traub et al. (2024), see [augrc()].
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' failure_auroc_vec(score, failure)
#' failure_aupr_vec(score, failure)
#' success_aupr_vec(score, failure)
#' failure_auroc(data.frame(score, failure), score, failure)
#' @export
failure_auroc <- function(data, score, failure, ...,
                          correct = NULL, na_rm = FALSE,
                          case_weights = NULL) {
  metric_df_form("failure_auroc", ...)
}

#' @rdname failure_auroc
#' @export
failure_auroc_vec <- function(score, failure, ...,
                              correct = NULL, na_rm = FALSE,
                              case_weights = NULL) {
  metric_vec_form("failure_auroc", ...)
}

#' @rdname failure_auroc
#' @export
failure_aupr <- function(data, score, failure, ...,
                         correct = NULL, na_rm = FALSE,
                         case_weights = NULL) {
  metric_df_form("failure_aupr", ...)
}

#' @rdname failure_auroc
#' @export
failure_aupr_vec <- function(score, failure, ..., correct = NULL, na_rm = FALSE,
                             case_weights = NULL) {
  metric_vec_form("failure_aupr", ...)
}

#' @rdname failure_auroc
#' @export
success_aupr <- function(data, score, failure, ...,
                         correct = NULL, na_rm = FALSE,
                         case_weights = NULL) {
  metric_df_form("success_aupr", ...)
}

#' @rdname failure_auroc
#' @export
success_aupr_vec <- function(score, failure, ..., correct = NULL, na_rm = FALSE,
                             case_weights = NULL) {
  metric_vec_form("success_aupr", ...)
}
