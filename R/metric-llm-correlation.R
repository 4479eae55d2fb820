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
#' Both equal the estimates of [stats::cor.test()] (tau-b is counted in
#' `O(n log n)`, from one sort and a Fenwick tree, where [stats::cor()]
#' counts the `n^2` pairs). It is `NA` with a warning of class
#' `aurc_warning_undefined` when either column is constant. Case weights
#' are not taken (a weighted rank correlation has no single definition).
#'
#' @section Intervals:
#' The interval is Fisher's `z = atanh(r)`, `atanh(r) +- q SE_z`
#' back-transformed with `tanh()` (`q` the normal quantile), with one of
#' two standard errors (`se`):
#' * `"bonett_wright"`: Bonett and Wright (2000),
#'   `SE_z = sqrt((1 + r^2 / 2) / (n - 3))` for Spearman's rho and
#'   `sqrt(0.437 / (n - 4))` for Kendall's tau (Fieller, Hartley and
#'   Pearson 1957), derived for continuous data and blind to ties.
#' * `"influence"`: the delta method on the influence values of the
#'   estimate (Hoeffding 1948), which count ties exactly. With
#'   `s_ij = sign(x_i - x_j)` for the score and `t_ij` the same for the
#'   quality, tau-b is `A / sqrt(B C)` for the V-statistics
#'   `A = (1 / n^2) sum_ij s_ij t_ij`, `B = (1 / n^2) sum_ij s_ij^2`,
#'   `C = (1 / n^2) sum_ij t_ij^2`, whose influence values are
#'   `IF_A(i) = 2 ((1 / n) sum_j s_ij t_ij - A)` (likewise `B`, `C`); then
#'   `IF(i) = IF_A / sqrt(B C) - (tau / 2) (IF_B / B + IF_C / C)`.
#'   Spearman's rho is `N / sqrt(D_x D_y)` with `U_i = (1 / (2 n)) sum_j
#'   s_ij` (the centred mid-rank over `n`), `V_i` the same for the quality,
#'   `N = mean(U V)`, `D_x = mean(U^2)`, `D_y = mean(V^2)`, and
#'   `IF_N(i) = U_i V_i + m_i(V) + k_i(U) - 3 N`,
#'   `IF_Dx(i) = U_i^2 + 2 m_i(U) - 3 D_x` (`D_y` likewise), where
#'   `m_i(v) = (1 / (2 n)) sum_j s_ji v_j` and `k_i(v)` the same with
#'   `t`; then `IF(i) = IF_N / sqrt(D_x D_y) - (rho / 2) (IF_Dx / D_x +
#'   IF_Dy / D_y)`. `SE_r = sqrt(sum_i IF(i)^2 / (n (n - 1)))` and
#'   `SE_z = SE_r / (1 - r^2)`. Computed in `O(n log n)` time and `O(n)`
#'   memory (about 0.1 s for `n = 10^5`).
#'
#' The default is `"influence"`, by the coverage of 95% intervals in
#' `studies/llm-rank-coverage.R` (1000 samples per cell, n = 30, 100 and
#' 400, four designs: bivariate normal, score and quality in tenths, a
#' five-step score with a 0/1 quality, a skewed score in tenths): the
#' influence intervals covered 0.940 to 0.962 for tau and 0.934 to 0.963
#' for rho in every cell. Fieller's tau interval covered 0.854 to 0.868
#' with the five-step score and 0.92 in tenths, whatever `n`; Bonett and
#' Wright's rho interval 0.942 to 0.973, and 0.967 to 0.973 for the skewed
#' score at every `n` (too wide by a factor that does not vanish). The
#' intervals need `n > 3` (rho) or `n > 4` (tau): `NA`
#' bounds otherwise. At `|r| = 1` the influence values are all 0 and the
#' interval is the point.
#'
#' @inheritParams rank_calibration_error_vec
#' @param method `"spearman"` or `"kendall"`.
#' @param conf_level The confidence level of the interval. For
#'   `uncertainty_correlation()`, `NULL` (the default: estimates only) or
#'   a level, which gives each group's row of
#'   `uncertainty_correlation_ci()`.
#' @param se The standard error of the interval: `"influence"` (the
#'   default) or `"bonett_wright"` (section Intervals).
#' @return `uncertainty_correlation_vec()`: a single number.
#'   `uncertainty_correlation_ci()`: a tibble with `.metric`
#'   (`"spearman"` or `"kendall"`), `.estimator` (`"fisher_z"`),
#'   `.estimate`, `.lower`, `.upper`, `.std_error` (of `z`),
#'   `.conf_level`, `.method` (`"analytic/influence"` or
#'   `"analytic/bonett_wright"`). `uncertainty_correlation()`: a tibble
#'   with the grouping columns, `.metric`, `.estimator` (`"mid_rank"` or
#'   `"tau_b"`) and `.estimate`, one row per group; with `conf_level`, the
#'   grouping columns and each group's row of
#'   `uncertainty_correlation_ci()`.
#' @references Bonett, Wright (2000). Sample size requirements for
#'   estimating Pearson, Kendall and Spearman correlations. Psychometrika
#'   65, 23-28.
#'
#'   Fieller, Hartley, Pearson (1957). Tests for rank correlation
#'   coefficients. I. Biometrika 44, 470-481.
#'
#'   Huang et al. (2024), see [rank_calibration_error_vec()].
#'
#'   Hoeffding (1948). A class of statistics with asymptotically normal
#'   distribution. Annals of Mathematical Statistics 19, 293-325.
#' @examples
#' set.seed(1)
#' n <- 200
#' entropy <- rexp(n)
#' rouge <- pmin(1, pmax(0, 0.9 - 0.3 * entropy + rnorm(n, sd = 0.2)))
#' uncertainty_correlation_vec(-entropy, rouge)
#' uncertainty_correlation_ci(-entropy, rouge, method = "kendall")
#' # heavy ties: the tie-aware standard error (the default) and Fieller's
#' verbal <- round(3 - entropy)
#' correct <- as.numeric(rouge > 0.5)
#' uncertainty_correlation_ci(verbal, correct, method = "kendall")
#' uncertainty_correlation_ci(verbal, correct, method = "kendall",
#'   se = "bonett_wright")
#' # by group
#' d <- data.frame(model = rep(c("a", "b"), each = 100), entropy, rouge)
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   by_model <- dplyr::group_by(d, model)
#'   print(uncertainty_correlation(by_model, -entropy, rouge))
#'   uncertainty_correlation(by_model, -entropy, rouge,
#'     method = "kendall", conf_level = 0.9)
#' }
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
                                       conf_level = 0.95,
                                       se = "influence") {
  call <- rlang::current_env()
  rlang::check_dots_empty(call = call)
  x <- llm_rank_input(score, quality, na_rm, call)
  method <- check_choice(method, c("spearman", "kendall"), call = call)
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  se <- check_correlation_se(se, call)
  correlation_interval(x, method, conf_level, se, call)
}

check_correlation_se <- function(se, call) {
  check_choice(se, c("influence", "bonett_wright"), call = call)
}

# The row of uncertainty_correlation_ci() for complete data `x` (NULL: a
# missing value without na_rm).
correlation_interval <- function(x, method, conf_level, se, call) {
  label <- paste0("analytic/", se)
  if (is.null(x)) {
    return(llm_ci_row(method, "fisher_z", NA_real_, NA_real_, NA_real_,
      NA_real_, conf_level, label
    ))
  }
  r <- rank_correlation(x, method, call)
  n <- length(x$score)
  enough <- n > if (method == "spearman") 3 else 4
  se_z <- if (is.na(r) || !enough) {
    NA_real_
  } else if (se == "bonett_wright") {
    if (method == "spearman") {
      sqrt((1 + r^2 / 2) / (n - 3))
    } else {
      sqrt(0.437 / (n - 4))
    }
  } else if (abs(r) < 1) {
    inf <- if (method == "spearman") {
      spearman_rho_influence(x$score, x$quality)
    } else {
      kendall_tau_b_influence(x$score, x$quality)
    }
    # the delta method through z = atanh(r): dz / dr = 1 / (1 - r^2)
    correlation_influence_se(inf$influence) / (1 - r^2)
  } else {
    0 # a perfect rank agreement: the influence values are all 0
  }
  half <- stats::qnorm(1 - (1 - conf_level) / 2) * se_z
  llm_ci_row(method, "fisher_z", r, tanh(atanh(r) - half),
    tanh(atanh(r) + half), se_z, conf_level, label
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
  if (method == "kendall") {
    # O(n log n) (R/ci-influence-llm-correlation.R); stats::cor() counts
    # the n^2 pairs
    return(kendall_tau_b_influence(x$score, x$quality)$estimate)
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
#' those functions read them. `quality_auroc()` and `quality_aupr()` take
#' the columns of a data frame (one row per group of a grouped one);
#' their `.estimator` is `"binary"` (AUROC) or the positive class (AUPR).
#' Intervals and comparisons: [selective_ci()]
#' and [compare_scores()] with `metrics = "failure_auroc"` (analytic or
#' bootstrap) and the failure indicator as the loss (see the examples).
#'
#' @inheritParams failure_auroc
#' @param quality The quality of each output (any numeric scale). For the
#'   data-frame forms an unquoted column.
#' @param threshold The quality from which an output is correct.
#' @param positive For `quality_aupr_vec()`: which outputs are the
#'   positive class, `"correct"` or `"incorrect"`.
#' @return `_vec`: a single number (`NA` with a warning of class
#'   `aurc_warning_one_class` when every output is on one side of the
#'   threshold). Data-frame forms: a tibble with the grouping columns,
#'   `.metric`, `.estimator` and `.estimate`, one row per group.
#' @examples
#' set.seed(1)
#' n <- 200
#' conf <- runif(n)
#' rouge <- pmin(1, pmax(0, 0.2 + 0.6 * conf + rnorm(n, sd = 0.2)))
#' quality_auroc_vec(conf, rouge, threshold = 0.5)
#' quality_aupr_vec(conf, rouge, threshold = 0.5)
#' quality_auroc(data.frame(conf, rouge), conf, rouge, threshold = 0.5)
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
