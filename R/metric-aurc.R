#' Area under the risk-coverage curve (AURC) and its estimators
#'
#' The AURC of a confidence score is the risk of a selective classifier
#' averaged over all coverages. Zhou et al. (2025) show it is a rank-weighted
#' risk, `AURC = (1/n) sum_i w_i loss_i`, where the weight `w_i` depends only
#' on the rank of sample `i`'s score; the estimators differ in that weight.
#'
#' @section Estimators:
#' With `n` samples, `r_i = #{k : s_k <= s_i}` the (max) rank of sample `i`
#' and `up_j = #{k : s_k >= s_j}`:
#'
#' * `"alpha"` (default): `w_i = sum_{j : s_j <= s_i} 1 / up_j`. This is the
#'   empirical AURC, Eq. 10 of Zhou et al.: the selective risk averaged over
#'   the `n` thresholds `s_j`,
#'   `(1/n) sum_j [sum_i loss_i 1(s_i >= s_j) / sum_k 1(s_k >= s_j)]`.
#'   Without ties `w_i = H_n - H_{n - r_i}` (harmonic numbers), the
#'   paper's plug-in estimator; with ties the literal sum is used (it is not
#'   `H_n - H_{n - r_i}`). The weights average exactly 1, ties or not. On a
#'   full test set this is what the paper calls the population AURC.
#' * `"alpha_prime"`: `w_i = -log(1 - r_i / (n + 1))` (Eq. 18), the
#'   asymptotic form; never above `"alpha"` when there are no ties. Its
#'   `+ 1` counts a case, so with case weights it depends on their scale
#'   (as repeating rows changes it): weights that total less than one case
#'   give `NA` with a warning of class `aurc_warning_weights_scale`, and
#'   totals above `2^53` are brought into `[2^52, 2^53)` by a power of 2.
#'   Every other estimator is free of the weights' scale, from `1e-320` to
#'   `1e308`.
#' * `"sele"`: `w_i = r_i / n`, the selective classifier loss of Franc et al.
#'   (Eqs. 32-33), `(1/n^2) sum_i sum_j loss_i 1(s_i >= s_j)`. It equals the
#'   step-rule area under the generalized risk-coverage curve.
#' * `"2sele"`: twice `"sele"`. It is not an upper bound of the AURC; see the
#'   examples for the counterexample of Zhou et al., App. A.2.
#' * `"trapezoid"`: not a rank weight. The trapezoid rule over the selective
#'   risk curve at every distinct threshold, extended flat from the smallest
#'   coverage down to coverage 0. This is the convention of the public code of
#'   Traub et al. (2024), kept so their numbers can be reproduced.
#'
#' Ties share one threshold: tied samples are accepted or rejected together,
#' so no estimator depends on the order of the rows.
#'
#' @section Arguments that look wrong:
#' The score comes first, then the loss (unlike yardstick's truth-first
#' order). Every selective metric of this package, [selective_metrics()],
#' [rc_curve()] and [selective_ci()] check a sample of at most 16384
#' evenly spread rows (a few microseconds) and warn when the input looks
#' like a mistake:
#'
#' * a score of only 0s and 1s with a loss that is not 0/1, or a loss in
#'   `(0, 1]` that is never 0 and mostly above 0.5 (a confidence, e.g.
#'   `aurc_vec(cross_entropy, msp)`): swapped arguments, class
#'   `aurc_warning_swapped`;
#' * a score in `[0, 1]` whose loss falls towards both 0 and 1: the
#'   probability of one class of a binary classifier, whose confidence is
#'   `max(p, 1 - p)`; class `aurc_warning_class_probability`;
#' * a loss that clearly rises with the score (correlation above 0.1 with
#'   a Fisher z above 4): an uncertainty given as the score (use its
#'   negative) or a correctness given as the loss (use `1 - correct`);
#'   class `aurc_warning_direction`.
#'
#' All three also have class `aurc_warning_direction` (but the 0/1 swap),
#' so a study of deliberately poor scores silences them with
#' `suppressWarnings(..., classes = "aurc_warning_direction")`. For
#' yardstick's argument order and class probabilities use [aurc_prob()].
#'
#' @param data A data frame (grouped data frames give one row per group),
#'   a `dbplyr` lazy database table (grouped or not; computed in the engine,
#'   see `vignette("databases")`), or a score table of [score_table()]
#'   (then the column arguments are left out).
#' @param score Confidence score, higher means more confident (accepted
#'   first). Any real number; `Inf` is ordered normally. For `aurc()` an
#'   unquoted column name of `data` (or an expression of its columns).
#' @param loss Per-sample loss, finite and non-negative (e.g. 0/1 error,
#'   cross-entropy). Logical losses count `TRUE` as 1. For `aurc()` an
#'   unquoted column name.
#' @param ... Not used; must be empty.
#' @param estimator One of `"alpha"`, `"alpha_prime"`, `"sele"`, `"2sele"`,
#'   `"trapezoid"` (see Estimators).
#' @param correct Instead of the loss (or failure, or quality), by name: the
#'   correctness of each prediction, 0/1 or logical (1 = right), read as
#'   the loss or failure `1 - correct` (as the quality `correct` by
#'   [prr()] and [auarc()]). The same name means the same in every function
#'   of the package, calibration's included; give one of the two, never
#'   both. For `aurc()` an unquoted column name.
#' @param na_rm If `FALSE` (the default) a missing score or loss makes the
#'   result `NA`; if `TRUE` incomplete pairs are dropped first.
#' @param case_weights Optional non-negative frequency weights, one per
#'   sample (for `aurc()` an unquoted column name). Sample `i` counts
#'   `case_weights[i]` times, so integer weights give exactly the result of
#'   the data with rows repeated. [hardhat::frequency_weights()] and
#'   [hardhat::importance_weights()] (as yardstick and tune pass them) are
#'   accepted too and give the same estimate; for what they change in
#'   intervals, tests and power see [selective_ci()], section "Case
#'   weights".
#'
#' @return `aurc_vec()`: a single number, `NA` when a value is missing and
#'   `na_rm = FALSE`, or (with a warning of class `aurc_warning_no_data`)
#'   when no sample is left. `aurc()`: a tibble with columns `.metric`
#'   (`"aurc"`), `.estimator` and `.estimate`, after the grouping columns of a
#'   grouped data frame.
#'
#' @references
#' Zhou, Van Landeghem, Popordanoska, Blaschko (2025). A Novel
#' Characterization of the Population Area Under the Risk Coverage Curve
#' (AURC) and Rates of Finite Sample Estimators. ICML 2025.
#'
#' Traub, Bungert, Lueth, Baumgartner, Maier-Hein, Maier-Hein, Jaeger (2024).
#' Overcoming Common Flaws in the Evaluation of Selective Classification
#' Systems. NeurIPS 2024.
#'
#' @seealso [aurc_weights()] for the weights themselves.
#' @examples
#' score <- c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)
#' failure <- c(0, 1, 0, 0, 1, 0, 1, 1, 0, 1)
#' aurc_vec(score, failure)
#' aurc_vec(score, failure, estimator = "alpha_prime")
#' aurc_vec(score, failure, estimator = "trapezoid")
#'
#' # 2 x SELE is not an upper bound (Zhou et al., App. A.2): five samples,
#' # only the most confident one wrong
#' s <- 5:1
#' l <- c(1, 0, 0, 0, 0)
#' aurc_vec(s, l) > aurc_vec(s, l, estimator = "2sele")
#'
#' # data-frame form
#' df <- data.frame(score = score, failure = failure, model = rep(1:2, 5))
#' aurc(df, score, failure)
#' aurc(df, score, failure, estimator = "sele")
#' @export
aurc <- function(data, score, loss, ..., estimator = "alpha",
                 correct = NULL, na_rm = FALSE,
                 case_weights = NULL) {
  metric_df_form("aurc", ...)
}

#' @rdname aurc
#' @export
aurc_vec <- function(score, loss, ..., estimator = "alpha",
                     correct = NULL, na_rm = FALSE,
                     case_weights = NULL) {
  metric_vec_form("aurc", ...)
}

aurc_estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")

#' Rank weights of the AURC estimators
#'
#' The AURC estimators of [aurc_vec()] (all but the trapezoid rule) are
#' rank-weighted risks `(1/n) sum_i w_i loss_i`. `aurc_weights()` returns the
#' `w_i`: for fixed ranks they are also the derivative of the AURC with
#' respect to each sample's loss, so they can re-weight a training loss.
#'
#' @inheritParams aurc
#' @param estimator One of `"alpha"`, `"alpha_prime"`, `"sele"`, `"2sele"`.
#' @param case_weights Optional non-negative frequency weights (see
#'   [aurc_vec()]). The returned weight is per unit of case weight:
#'   `aurc_vec(score, loss, case_weights = cw)` equals
#'   `sum(cw * aurc_weights(score, case_weights = cw) * loss) / sum(cw)`.
#'
#' @return A numeric vector as long as `score`: the weight of every sample,
#'   computed over the samples whose score (and case weight) is not missing;
#'   `NA` where the score is missing. Tied scores get the same weight.
#' @examples
#' s <- c(0.9, 0.8, 0.8, 0.3, 0.1)
#' w <- aurc_weights(s)
#' w
#' mean(w) # exactly 1, ties included
#' aurc_weights(s, estimator = "sele")
#' @export
aurc_weights <- function(score, estimator = "alpha", case_weights = NULL) {
  case_weights <- plain_weights(case_weights)
  check_numeric_vector(score)
  estimator <- check_choice(estimator, setdiff(aurc_estimators, "trapezoid"))
  check_case_weights(case_weights, length(score))
  out <- rep(NA_real_, length(score))
  keep <- !is.na(score)
  cw <- if (is.null(case_weights)) double() else as.double(case_weights[keep])
  if (!any(keep) || (length(cw) && !(sum(cw) > 0))) {
    warn_no_data()
    return(out)
  }
  # weights at any scale (R/weights-scale.R): the "alpha_prime" weights of
  # less than one case are NA; beyond 2^53 cases they are those of the
  # counts given (log(n + 1) stays finite), the others are ratios
  if (length(cw)) {
    counted <- estimator == "alpha_prime"
    sc <- scale_group_weights(cw, count = counted)
    if (sc$too_few && counted) {
      warn_oracle_scale("aurc", estimator)
      return(out)
    }
    if (!counted) cw <- sc$w
  }
  out[keep] <- aurc_weights_impl(as.double(score[keep]), cw, estimator)
  out
}
