# The Hosmer-Lemeshow goodness-of-fit test (issue 36), grouped by the
# deciles (or g-quantiles) of the confidence as ResourceSelection's
# hoslem.test() groups them, for a confidence in [0, 1] and a 0/1
# correctness. One sort of the confidences (for the quantiles), then
# linear passes.

#' Hosmer-Lemeshow test of calibration
#'
#' The classical grouped chi-square test of the null hypothesis that the
#' confidences are calibrated, `P(correct = 1 | confidence = p) = p`
#' (Hosmer & Lemeshow 1980), with the groups of
#' `ResourceSelection::hoslem.test()`, whose result it equals.
#'
#' @section Definition:
#' With confidences `p_i`, outcomes `y_i` (`correct`, 1 = the prediction
#' was right) and `g = n_groups`:
#' 1. The cut points are the distinct values among R's default (type 7)
#'    quantiles of the confidences at probabilities `0, 1/g, ..., 1`
#'    (`unique(quantile(p, seq(0, 1, 1 / g)))`).
#' 2. The groups are the intervals between consecutive cut points, closed
#'    on the right, the first also on the left (`cut(p, breaks,
#'    include.lowest = TRUE)`): tied confidences always fall in the same
#'    group, so there can be fewer than `g` groups.
#' 3. In group `k`, the observed counts of right and wrong predictions
#'    `O1_k = sum y_i`, `O0_k = sum (1 - y_i)` and the expected ones `E1_k
#'    = sum p_i`, `E0_k = sum (1 - p_i)`; the statistic is
#'    `C = sum_k (O1_k - E1_k)^2 / E1_k + (O0_k - E0_k)^2 / E0_k`
#'    (Hosmer and Lemeshow's C-hat).
#' 4. Under calibration `C` is taken as chi-square with `df` degrees of
#'    freedom and the p-value is `P(chi^2_df >= C)`, where `G` is the
#'    number of non-empty groups and
#'    * `df = G - 2` with `fitted = TRUE` (`hoslem.test()`'s): Hosmer
#'      and Lemeshow's distribution when the
#'      confidences come from a logistic model fitted to these same
#'      outcomes (two parameters estimated);
#'    * `df = G` with `fitted = FALSE` (the default): when the
#'      confidences were fixed
#'      before these outcomes were seen, as for a classifier evaluated on
#'      held-out data (Hosmer, Lemeshow and Sturdivant 2013, ch. 5, on
#'      external validation: no parameter is estimated).
#'
#' The default is `fitted = FALSE` because this package evaluates
#' held-out confidences; there `df = G - 2` rejects calibrated
#' confidences too often. `fitted = TRUE` reproduces `hoslem.test()`.
#' Simulated rejection rates at 5% (confidences uniform on `[0.05,
#' 0.95]` and calibrated, 10 groups, 2000 data sets each,
#' `studies/calibration-classic-level.R`): at
#' `n = 100`, 500, 2000, 11.1%, 11.4%, 10.6% with `fitted = TRUE` and
#' 5.3%, 5.4%, 5.1% with `fitted = FALSE` (with every confidence
#' rounded to 0.05, 4.2% to 5.2%). Against overconfidence (true
#' logit 0.8 times the stated one) its power with `fitted = FALSE` was
#' 16%, 35%, 89%, against 14%, 49%, 98% for [unreliability_index()]'s
#' test.
#'
#' @section Weights:
#' Case weights are frequencies: sample `i` counts `w_i` times in the
#' quantiles (the weighted type 7 quantile of [ici()]: position `(W - 1) q +
#' 1` among the `W = sum w` cases) and in every sum above, so integer
#' weights give exactly `hoslem.test()` of the rows repeated. `n` is `W`;
#' weights totalling less than one case give `NA` with a warning of class
#' `aurc_warning_weights_scale`.
#'
#' @section Known weaknesses:
#' The test is widely used and widely criticised; read it with these in
#' mind.
#' * It depends on the grouping: the result changes with `g` and with how
#'   the cut points fall among tied confidences, and different software
#'   (other quantile types, groups of equal size that split ties) gives
#'   different p-values on the same data (Hosmer et al. 1997; Bertolini et
#'   al. 2000). Here ties are never split, so many tied confidences give
#'   fewer groups (a warning of class `aurc_warning_groups` says so).
#' * Its power is low at moderate `n`, against many kinds of
#'   miscalibration (Hosmer et al. 1997), while at large `n` it rejects
#'   miscalibration too small to matter (Kramer & Zimmerman 2007).
#' * It tests fit; it does not measure how large the miscalibration is. A
#'   small p-value says the data are unlikely under perfect calibration,
#'   not that the miscalibration is large: report a size ([ici()],
#'   [calibration_slope()], [ece()]) beside it.
#' * The chi-square distribution is approximate; it needs expected counts
#'   that are not small in every group.
#'
#' [calibration_test()] has tests without groups, and
#' [unreliability_index()] Harrell's likelihood-ratio test of the logistic
#' recalibration.
#'
#' A group whose confidences are all 1 (or all 0) has an expected count of
#' 0 of wrong (right) predictions; its term `(O - E)^2 / E` is taken at
#' its limit, 0 when the observed count is 0 too and `Inf` otherwise (a
#' confidence of 1 that was wrong: p-value 0). `hoslem.test()` gives `NaN`
#' there. Undefined cases give `NA` with a warning of class
#' `aurc_warning_undefined`: every confidence the same (one group), or
#' fewer than 3 groups with `fitted = TRUE` (`df < 1`).
#'
#' @inheritParams calibration_test
#' @param n_groups The number `g` of groups asked for (10, deciles, by
#'   default), a whole number of at least 3 (`hoslem.test()`'s `g`).
#' @param fitted `FALSE` (the default): the confidences were fixed in
#'   advance (held-out data), `df = G`. `TRUE` (as `hoslem.test()`): they
#'   come from a model fitted to these outcomes, `df = G - 2`.
#' @return A tibble with one row (per group of `data`, grouping columns
#'   first): `method` (`"hosmer_lemeshow"`), `statistic` (C), `df` (`G -
#'   2`, or `G`), `p_value`, `groups` (`G`, the non-empty groups), `n` (the
#'   number of samples, or the sum of the weights).
#' @references
#' Hosmer, D. W., Lemeshow, S. (1980). Goodness of fit tests for the
#' multiple logistic regression model. Communications in Statistics -
#' Theory and Methods 9(10), 1043-1069.
#'
#' Hosmer, D. W., Hosmer, T., Le Cessie, S., Lemeshow, S. (1997). A
#' comparison of goodness-of-fit tests for the logistic regression model.
#' Statistics in Medicine 16(9), 965-980.
#'
#' Bertolini, G., D'Amico, R., Nardi, D., Tinazzi, A., Apolone, G. (2000).
#' One model, several results: the paradox of the Hosmer-Lemeshow
#' goodness-of-fit test for the logistic regression model. Journal of
#' Epidemiology and Biostatistics 5(4), 251-253.
#'
#' Hosmer, D. W., Lemeshow, S., Sturdivant, R. X. (2013). Applied Logistic
#' Regression, 3rd edition. Wiley. Chapter 5.
#'
#' Kramer, A. A., Zimmerman, J. E. (2007). Assessing the calibration of
#' mortality benchmarks in critical care: the Hosmer-Lemeshow test
#' revisited. Critical Care Medicine 35(9), 2052-2056.
#'
#' Lele, S. R., Keim, J. L., Solymos, P. ResourceSelection: Resource
#' Selection (Probability) Functions for Use-Availability Data. R package
#' (version 0.3-6 checked), function `hoslem.test()`.
#' @seealso [calibration_test()], [unreliability_index()], [ici()].
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 1)
#' hosmer_lemeshow_test_vec(confidence, rbinom(1000, 1, confidence))
#' # overconfident: right less often than the confidence says
#' hosmer_lemeshow_test_vec(confidence, rbinom(1000, 1, confidence^2))
#' df <- data.frame(confidence, correct = rbinom(1000, 1, confidence))
#' hosmer_lemeshow_test(df, confidence, correct, n_groups = 5)
#' @export
hosmer_lemeshow_test <- function(data, confidence, correct, ...,
                                 n_groups = 10, fitted = FALSE, loss = NULL,
                                 na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  n_groups <- check_hl_groups(n_groups, call)
  check_bool(fitted, arg = "fitted", call = call)
  calibration_df_rows(
    data,
    list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    function(confidence, correct, case_weights) {
      hosmer_lemeshow_compute(confidence, correct, case_weights, n_groups,
        fitted, na_rm, call
      )
    },
    empty = hl_row(NA_real_, NA_real_, NA_real_, NA_real_, NA_real_)[0, ],
    call = call
  )
}

#' @rdname hosmer_lemeshow_test
#' @export
hosmer_lemeshow_test_vec <- function(confidence, correct, ...,
                                     n_groups = 10, fitted = FALSE,
                                     loss = NULL, na_rm = FALSE,
                                     case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  n_groups <- check_hl_groups(n_groups, call)
  check_bool(fitted, arg = "fitted", call = call)
  hosmer_lemeshow_compute(confidence, correct, case_weights, n_groups,
    fitted, na_rm, call
  )
}

check_hl_groups <- function(n_groups, call) {
  check_number(n_groups, 3, 1e6, whole = TRUE, arg = "n_groups",
    call = call
  )
}

hl_row <- function(statistic, df, p_value, groups, n) {
  tibble::tibble(
    method = "hosmer_lemeshow", statistic = statistic, df = df,
    p_value = p_value, groups = groups, n = n
  )
}

hosmer_lemeshow_compute <- function(confidence, correct, case_weights,
                                    n_groups, fitted, na_rm, call) {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call
  )
  if (identical(input, "missing")) {
    return(hl_row(NA_real_, NA_real_, NA_real_, NA_real_, NA_real_))
  }
  if (is.null(input)) {
    warn_no_data(call = call)
    return(hl_row(NA_real_, NA_real_, NA_real_, NA_real_, NA_real_))
  }
  n <- as.double(input$total)
  res <- hosmer_lemeshow_stat(input$confidence, input$correct,
    input$case_weights, n_groups, fitted, call
  )
  hl_row(res$statistic, res$df, res$p_value, res$groups, n)
}

# The statistic on validated samples (weights w or double()).
hosmer_lemeshow_stat <- function(p, y, w, g, fitted, call) {
  na <- list(statistic = NA_real_, df = NA_real_, p_value = NA_real_,
    groups = NA_real_)
  probs <- seq(0, 1, 1 / g)
  if (length(w)) {
    counts <- scale_group_weights(w, count = TRUE)
    if (counts$too_few) {
      warn_weights_scale("The Hosmer-Lemeshow test",
        "Its groups are quantiles among W cases.", "{.fn calibration_test}",
        call = call
      )
      return(na)
    }
    keep <- w > 0
    p <- p[keep]
    y <- y[keep]
    w <- w[keep]
    o <- order(p, method = "radix")
    ps <- p[o]
    cw <- cumsum(w[o])
    # the weighted type 7 quantile (weighted_quantile7()) at every
    # probability, on one sort
    cuts <- vapply(probs, function(q) {
      weighted_quantile7_sorted(ps, cw, q)
    }, numeric(1))
  } else {
    cuts <- stats::quantile(p, probs, names = FALSE)
    w <- rep(1, length(p))
  }
  cuts <- unique(cuts)
  if (length(cuts) < 2) {
    warn_hl_undefined("every confidence is the same (one group)", call)
    return(na)
  }
  # cut(p, cuts, include.lowest = TRUE): (c_k, c_{k + 1}], the first
  # closed on the left too
  grp <- pmax(findInterval(p, cuts, left.open = TRUE), 1L)
  k <- length(cuts) - 1L
  o1 <- tabulate_weighted(grp, w * y, k)
  o0 <- tabulate_weighted(grp, w * (1 - y), k)
  e1 <- tabulate_weighted(grp, w * p, k)
  e0 <- tabulate_weighted(grp, w * (1 - p), k)
  live <- tabulate_weighted(grp, w, k) > 0
  groups <- sum(live)
  if (groups < g) warn_hl_groups(g, groups, call)
  df <- if (fitted) groups - 2 else groups
  if (df < 1) {
    warn_hl_undefined(
      "fewer than 3 groups are left, so df = G - 2 is below 1", call
    )
    return(na)
  }
  stat <- sum(hl_cell(o1[live], e1[live]) + hl_cell(o0[live], e0[live]))
  list(
    statistic = stat, df = as.double(df),
    p_value = stats::pchisq(stat, df, lower.tail = FALSE),
    groups = as.double(groups)
  )
}

# (O - E)^2 / E, at E = 0 its limit: 0 when O = 0 too, else Inf.
hl_cell <- function(o, e) {
  ifelse(e > 0, (o - e)^2 / pmax(e, .Machine$double.xmin),
    ifelse(o > 0, Inf, 0)
  )
}

# Sum of v by group 1..k.
tabulate_weighted <- function(grp, v, k) {
  out <- numeric(k)
  s <- rowsum(v, grp, reorder = TRUE)
  out[as.integer(rownames(s))] <- s[, 1]
  out
}

warn_hl_groups <- function(g, groups, call) {
  warn_aurc(
    c(
      "The Hosmer-Lemeshow test has {groups} group{?s}, not {g}.",
      i = paste(
        "Tied confidences fall in the same group, so their quantiles",
        "coincide; the degrees of freedom count the groups there are."
      )
    ),
    class = "aurc_warning_groups", call = call
  )
}

warn_hl_undefined <- function(why, call) {
  warn_aurc(
    c(
      "The Hosmer-Lemeshow test is undefined here; returning {.val {NA}}.",
      i = "{why}."
    ),
    class = "aurc_warning_undefined", call = call
  )
}
