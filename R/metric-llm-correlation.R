#' Rank correlation between an uncertainty measure and output quality
#'
#' Spearman's rho or Kendall's tau between a confidence score and the
#' quality of the outputs, with a confidence interval: the summary of
#' Fadeeva et al. (2023) and Huang et al. (2024) when the quality is a
#' number (a ROUGE, a judged score) rather than right or wrong. The score
#' is a **confidence** (higher = more confident); give an uncertainty as
#' its negative (the correlation changes sign).
#'
#' @section Definitions:
#' * `method = "spearman"`: Pearson's correlation of the mid-ranks of
#'   `score` and `quality`, `stats::cor(score, quality, method =
#'   "spearman")`;
#' * `method = "kendall"`: Kendall's tau-b,
#'   `(n_c - n_d) / sqrt((n_0 - n_1)(n_0 - n_2))` over all pairs (`n_c`
#'   concordant, `n_d` discordant, `n_0 = n (n - 1) / 2`, `n_1`, `n_2` the
#'   pairs tied in the score and in the quality), `stats::cor(score,
#'   quality, method = "kendall")`.
#'
#' Both equal the estimates of [stats::cor.test()]. The interval is Fisher's
#' `z = atanh(r)` with the standard errors of Bonett and Wright (2000):
#' `sqrt((1 + r^2 / 2) / (n - 3))` for Spearman's rho and
#' `sqrt(0.437 / (n - 4))` for Kendall's tau (Fieller, Hartley and Pearson
#' 1957), back-transformed with `tanh()`. Bonett and Wright derived them
#' for continuous data; in simulations (`inst/scripts/
#' llm-rank-coverage.R`) the 95% intervals covered 0.943 to 0.961 of the
#' time for bivariate normal data (n = 30 to 400, rho = 0 to 0.6), and with
#' heavy ties (score and quality in tenths, n = 200) 0.954 for Spearman but
#' only 0.919 for Kendall. It needs `n > 3` (rho) or
#' `n > 4` (tau): `NA` bounds otherwise, and `NA` with a warning of class
#' `aurc_warning_undefined` when either column is constant. Case weights
#' are not taken (a weighted rank correlation has no single definition).
#'
#' @inheritParams rank_calibration_error_vec
#' @param method `"spearman"` or `"kendall"`.
#' @param conf_level The confidence level of the interval.
#' @return `uncertainty_correlation_vec()`: a single number.
#'   `uncertainty_correlation_ci()`: a tibble with `.metric`
#'   (`"spearman"` or `"kendall"`), `.estimator` (`"fisher_z"`),
#'   `.estimate`, `.lower`, `.upper`, `.std_error` (of `z`),
#'   `.conf_level`, `.method`.
#' @references Bonett, Wright (2000). Sample size requirements for
#'   estimating Pearson, Kendall and Spearman correlations. Psychometrika
#'   65, 23-28.
#'
#'   Fieller, Hartley, Pearson (1957). Tests for rank correlation
#'   coefficients. I. Biometrika 44, 470-481.
#'
#'   Huang et al. (2024), see [rank_calibration_error_vec()].
#' @examples
#' set.seed(1)
#' n <- 200
#' entropy <- rexp(n)
#' rouge <- pmin(1, pmax(0, 0.9 - 0.3 * entropy + rnorm(n, sd = 0.2)))
#' uncertainty_correlation_vec(-entropy, rouge)
#' uncertainty_correlation_ci(-entropy, rouge, method = "kendall")
#' @export
uncertainty_correlation_vec <- function(score, quality, ...,
                                        method = "spearman",
                                        na_rm = FALSE) {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  x <- llm_rank_input(score, quality, na_rm, call)
  method <- check_choice(method, c("spearman", "kendall"), call = call)
  if (is.null(x)) return(NA_real_)
  rank_correlation(x, method, call)
}

#' @rdname uncertainty_correlation_vec
#' @export
uncertainty_correlation_ci <- function(score, quality, ...,
                                       method = "spearman", na_rm = FALSE,
                                       conf_level = 0.95) {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  x <- llm_rank_input(score, quality, na_rm, call)
  method <- check_choice(method, c("spearman", "kendall"), call = call)
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  if (is.null(x)) {
    return(llm_ci_row(method, "fisher_z", NA_real_, NA_real_, NA_real_,
      NA_real_, conf_level, "analytic"
    ))
  }
  r <- rank_correlation(x, method, call)
  n <- length(x$score)
  se <- if (method == "spearman") {
    if (n > 3) sqrt((1 + r^2 / 2) / (n - 3)) else NA_real_
  } else {
    if (n > 4) sqrt(0.437 / (n - 4)) else NA_real_
  }
  half <- stats::qnorm(1 - (1 - conf_level) / 2) * se
  llm_ci_row(method, "fisher_z", r, tanh(atanh(r) - half),
    tanh(atanh(r) + half), se, conf_level, "analytic"
  )
}

rank_correlation <- function(x, method, call) {
  n <- length(x$score)
  if (n < 2 || stats::var(x$score) == 0 || stats::var(x$quality) == 0) {
    warn_aurc(
      c(
        "The {method} correlation is undefined: it is NA.",
        i = "It needs two outputs and neither column constant."
      ),
      class = "aurc_warning_undefined", call = call
    )
    return(NA_real_)
  }
  stats::cor(x$score, x$quality, method = method)
}

#' AUROC and AUPR of a thresholded quality
#'
#' An output is correct when its quality reaches a threshold
#' (`quality >= threshold`, e.g. a ROUGE-L of at least 0.3, LM-Polygraph's
#' and Kuhn et al.'s convention); the score's power to tell correct from
#' incorrect outputs is then the failure AUROC or an AUPR of the failure
#' indicator `quality < threshold` ([failure_auroc()]).
#'
#' `quality_auroc_vec(score, quality, threshold)` is
#' `failure_auroc_vec(score, quality < threshold)`: `P(s_correct >
#' s_incorrect) + P(tie) / 2`, which is `pROC::auc()` with the correct
#' outputs as cases. `quality_aupr_vec()` is the average precision with the
#' correct outputs as positives (`positive = "correct"`, [success_aupr()])
#' or with the incorrect ones as positives and `-score` as the ranking
#' (`positive = "incorrect"`, [failure_aupr()]). Case weights are read as
#' those functions read them. Intervals and comparisons: [selective_ci()]
#' and [compare_scores()] with `metrics = "failure_auroc"` (analytic or
#' bootstrap) and the failure indicator as the loss (see the examples).
#'
#' @inheritParams failure_auroc
#' @param quality The quality of each output (any numeric scale).
#' @param threshold The quality from which an output is correct.
#' @param positive For `quality_aupr_vec()`: which outputs are the
#'   positive class, `"correct"` or `"incorrect"`.
#' @return A single number (`NA` with a warning of class
#'   `aurc_warning_one_class` when every output is on one side of the
#'   threshold).
#' @examples
#' set.seed(1)
#' n <- 200
#' conf <- runif(n)
#' rouge <- pmin(1, pmax(0, 0.2 + 0.6 * conf + rnorm(n, sd = 0.2)))
#' quality_auroc_vec(conf, rouge, threshold = 0.5)
#' quality_aupr_vec(conf, rouge, threshold = 0.5)
#' # its interval
#' selective_ci_vec(conf, as.numeric(rouge < 0.5),
#'   metrics = "failure_auroc"
#' )
#' @export
quality_auroc_vec <- function(score, quality, threshold, ..., na_rm = FALSE,
                              case_weights = NULL) {
  call <- rlang::current_env()
  failure <- quality_failure(quality, threshold, call)
  withr_call_failure(failure_auroc_vec, score, failure, na_rm,
    case_weights, call, ...
  )
}

#' @rdname quality_auroc_vec
#' @export
quality_aupr_vec <- function(score, quality, threshold, ...,
                             positive = "correct", na_rm = FALSE,
                             case_weights = NULL) {
  call <- rlang::current_env()
  positive <- check_choice(positive, c("correct", "incorrect"), call = call)
  failure <- quality_failure(quality, threshold, call)
  fn <- if (positive == "correct") success_aupr_vec else failure_aupr_vec
  withr_call_failure(fn, score, failure, na_rm, case_weights, call, ...)
}

# The failure indicator quality < threshold (NA kept).
quality_failure <- function(quality, threshold, call) {
  check_numeric_vector(quality, "quality", allow_logical = TRUE,
    call = call
  )
  threshold <- check_number(threshold, arg = "threshold", call = call)
  as.numeric(as.double(quality) < threshold)
}

# Calls a failure metric's vector form on the failure indicator.
withr_call_failure <- function(fn, score, failure, na_rm, case_weights,
                               call, ...) {
  rlang::check_dots_empty(call = call)
  fn(score, failure, na_rm = na_rm, case_weights = case_weights)
}
