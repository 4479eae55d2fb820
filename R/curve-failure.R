#' Failure ROC and precision-recall curves
#'
#' The curves under the failure AUROC and the failure AUPR: the confidence
#' score used as a detector of failures. Failures are the positive class and
#' a LOW score flags them: at a threshold `t` the flagged (rejected)
#' predictions are those with `score <= t`, the complement of the accepted
#' set of [rc_curve()]. With `w_i` the case weights (1 by default), `F` the
#' weighted number of failures and `C` that of correct predictions:
#'
#' * `n_flagged = sum_i w_i 1(s_i <= t)`;
#' * ROC: `true_positive_rate = sum_i w_i failure_i 1(s_i <= t) / F` (the
#'   share of failures flagged) against `false_positive_rate =
#'   sum_i w_i (1 - failure_i) 1(s_i <= t) / C` (the share of correct
#'   predictions flagged). The trapezoid rule over the curve's points is
#'   exactly [failure_auroc_vec()].
#' * PR: `recall` (= the true positive rate) and `precision = sum_i w_i
#'   failure_i 1(s_i <= t) / n_flagged` (the share of failures among the
#'   flagged). [failure_aupr_vec()] is the average precision
#'   `sum_k (recall_k - recall_{k-1}) precision_k` over the rows, with
#'   `recall_0 = 0`: the area under the curve drawn as a step function (the
#'   precision of a row holds from the previous row's recall to its own),
#'   not the trapezoid rule, which overestimates the area of a PR curve.
#'
#' Rows are the distinct thresholds in ascending order (tied scores are
#' flagged together, so they make one point), from the lowest score (only
#' it flagged) to the highest (everything flagged). The ROC curve starts
#' with an extra row, threshold `-Inf` and nothing flagged, at `(0, 0)`.
#' Samples with case weight 0 do not make a point. A precision-recall curve
#' has no point at recall 0: the precision of flagging nothing is undefined.
#'
#' The data-frame form on a grouped data frame gives one curve per group
#' (several models or scores), with the grouping columns first;
#' [ggplot2::autoplot()] draws them (see [autoplot.aurc_failure_roc_curve()]).
#' The names avoid `roc_curve()` and `pr_curve()` of yardstick and
#' `roc()` of pROC, which take the positive class's probability, not a
#' confidence that is low for it.
#'
#' @inheritParams failure_auroc
#' @return A tibble of class `aurc_failure_roc_curve` (columns `threshold`,
#'   `n_flagged`, `false_positive_rate`, `true_positive_rate`) or
#'   `aurc_failure_pr_curve` (columns `threshold`, `n_flagged`, `recall`,
#'   `precision`), after the grouping columns. Its attribute `"summary"`
#'   holds, per curve, the weighted number of predictions `n`, the
#'   `failure_rate` (the precision of a random score) and the area `auroc`
#'   ([failure_auroc_vec()]) or `aupr` ([failure_aupr_vec()]). A curve needs
#'   data and both classes: missing values with `na_rm = FALSE`, no sample
#'   left, or only failures or only correct predictions (in any group) are
#'   an error.
#' @seealso [failure_auroc()] for the areas, [rc_curve()] for the
#'   risk-coverage view, which, unlike these curves, changes when the model
#'   makes more errors ([inject_failures()]).
#' @references
#' Ding, Liu, Xiong, Shi (2020). Revisiting the Evaluation of Uncertainty
#' Estimation and Its Application to Explore Model Complexity-Uncertainty
#' Trade-Off. CVPR Workshops. (Fig. 1: ROC, PR and risk-coverage curves.)
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' roc <- failure_roc_curve_vec(score, failure)
#' roc
#' # the trapezoid area is the failure AUROC
#' with(roc, sum(diff(false_positive_rate) *
#'   (head(true_positive_rate, -1) + tail(true_positive_rate, -1)) / 2))
#' failure_auroc_vec(score, failure)
#'
#' pr <- failure_pr_curve_vec(score, failure)
#' pr
#' # the step-wise area is the failure AUPR (average precision)
#' sum(diff(c(0, pr$recall)) * pr$precision)
#' failure_aupr_vec(score, failure)
#'
#' df <- data.frame(
#'   model = rep(c("a", "b"), each = 6), score = c(score, rev(score)),
#'   failure = c(failure, failure)
#' )
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   curves <- failure_roc_curve(dplyr::group_by(df, model), score, failure)
#'   ggplot2::autoplot(curves)
#' }
#' @export
failure_roc_curve <- function(data, score, failure, ..., na_rm = FALSE,
                              case_weights = NULL) {
  check_dots(...)
  failure_curve_df(
    data, rlang::enquo(score), rlang::enquo(failure),
    rlang::enquo(case_weights), na_rm, "roc", rlang::current_env()
  )
}

#' @rdname failure_roc_curve
#' @export
failure_roc_curve_vec <- function(score, failure, ..., na_rm = FALSE,
                                  case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  table <- failure_curve_table(score, failure, case_weights, NULL, na_rm, call)
  new_failure_curve(failure_roc_points(table), table, "roc")
}

#' @rdname failure_roc_curve
#' @export
failure_pr_curve <- function(data, score, failure, ..., na_rm = FALSE,
                             case_weights = NULL) {
  check_dots(...)
  failure_curve_df(
    data, rlang::enquo(score), rlang::enquo(failure),
    rlang::enquo(case_weights), na_rm, "pr", rlang::current_env()
  )
}

#' @rdname failure_roc_curve
#' @export
failure_pr_curve_vec <- function(score, failure, ..., na_rm = FALSE,
                                 case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  table <- failure_curve_table(score, failure, case_weights, NULL, na_rm, call)
  new_failure_curve(failure_pr_points(table), table, "pr")
}

# The data-frame form of both curves: columns by tidy evaluation, one curve
# per group of a grouped data frame.
failure_curve_df <- function(data, score, failure, case_weights, na_rm,
                             type, call) {
  values <- memory_columns(data,
    list(score = score, failure = failure, case_weights = case_weights),
    "Failure ROC and PR curves are", call
  )
  groups <- check_some_groups(data_groups(data), call)
  table <- failure_curve_table(
    values$score, values$failure, values$case_weights, groups$rows, na_rm,
    call,
    keys = groups$keys
  )
  points <- if (type == "roc") {
    failure_roc_points(table)
  } else {
    failure_pr_points(table)
  }
  new_failure_curve(points, table, type, groups$keys)
}

# Validates like a metric, but a curve cannot be NA: missing values without
# na_rm, a group without data or with one class only are errors. `rows`:
# NULL (one curve) or the row indices of every group. Returns the tie
# groups of every curve (ascending score within each curve): `gid`,
# `threshold`, the weighted counts `n_flagged` and `failures_flagged` up to
# and including the tie group, and per curve `n`, `failures` and the two
# areas computed by the package's metrics.
failure_curve_table <- function(score, failure, case_weights, rows, na_rm,
                                call, keys = NULL) {
  case_weights <- plain_weights(case_weights)
  check_numeric_vector(score, "score", call = call)
  check_failure(failure, length(score), call = call)
  check_case_weights(case_weights, length(score), call = call)
  check_bool(na_rm, call = call)
  if (!na_rm && (anyNA(score) || anyNA(failure))) {
    abort_aurc(
      c(
        "{.arg score} and {.arg failure} must not have missing values.",
        i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  g <- group_columns(
    list(score = score, loss = failure, case_weights = case_weights), rows,
    na_rm = TRUE, drop_zero_weight = TRUE
  )
  n_groups <- length(g$sizes)
  s <- g$cols$score
  f <- g$cols$loss
  w <- g$cols$case_weights
  if (!length(w)) w <- rep(1, length(s))
  gid <- g$gid
  total <- group_sums(w, gid, n_groups)
  failures <- group_sums(w * f, gid, n_groups)
  if (!all(total > 0)) {
    abort_aurc(
      c(
        "Can't compute a curve without data.",
        i = paste(
          "No sample is left (after dropping missing values), or every case",
          "weight is 0."
        )
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  if (!all(is.finite(total))) {
    abort_aurc(
      c(
        "The sum of {.arg case_weights} must be finite.",
        x = "It overflows to {.val {Inf}}.",
        i = "Scale the weights down; only their ratios matter for a curve."
      ),
      class = "aurc_error_value", call = call
    )
  }
  one_class <- !(failures > 0) | !(total - failures > 0)
  if (any(one_class)) {
    bad <- which(one_class)[1]
    abort_aurc(
      c(
        paste(
          "A failure ROC or PR curve needs both failures and correct",
          "predictions."
        ),
        x = if (!is.null(keys)) {
          paste(
            "In the group {.val {group_label(keys, bad)}}, every sample left",
            "is a failure, or none is."
          )
        } else {
          "Every sample left is a failure, or none is."
        }
      ),
      class = "aurc_error_one_class", call = call
    )
  }
  # one sort: by group, then ascending score; a tie group is a run of equal
  # scores within a group (0 and -0 are equal)
  o <- order(gid, s)
  s <- s[o]
  gid <- gid[o]
  n <- length(s)
  first <- c(TRUE, gid[-1] != gid[-n] | s[-1] != s[-n])
  run <- cumsum(first)
  count <- as.numeric(rowsum(w[o], run, reorder = FALSE)[, 1])
  fail <- as.numeric(rowsum(w[o] * f[o], run, reorder = FALSE)[, 1])
  run_gid <- gid[first]
  cum_in_group <- function(x) {
    cs <- cumsum(x)
    last <- cumsum(tabulate(run_gid, n_groups))
    cs - c(0, cs[last])[run_gid]
  }
  offsets <- c(0, cumsum(as.double(g$sizes)))
  areas <- metrics_grouped_impl(
    g$cols$score, g$cols$loss, g$cols$case_weights, offsets,
    c("failure_auroc", "failure_aupr"), "alpha", "trapezoid", "exact", 0.5,
    0.5, sort_threads()
  )$values
  list(
    gid = run_gid, threshold = s[first],
    n_flagged = cum_in_group(count), failures_flagged = cum_in_group(fail),
    n = total, failures = failures,
    auroc = areas[, 1], aupr = areas[, 2]
  )
}

# ROC points of every curve: a start row (threshold -Inf, nothing flagged)
# and one row per tie group. Returns the points and the curve of each row.
failure_roc_points <- function(table) {
  n_groups <- length(table$n)
  gid <- c(seq_len(n_groups), table$gid)
  o <- order(gid) # stable: each curve's start row comes first
  gid <- gid[o]
  n_flagged <- c(rep(0, n_groups), table$n_flagged)[o]
  fail <- c(rep(0, n_groups), table$failures_flagged)[o]
  correct <- table$n - table$failures
  list(
    points = tibble::tibble(
      threshold = c(rep(-Inf, n_groups), table$threshold)[o],
      n_flagged = n_flagged,
      false_positive_rate = (n_flagged - fail) / correct[gid],
      true_positive_rate = fail / table$failures[gid]
    ),
    gid = gid
  )
}

# PR points of every curve: one row per tie group.
failure_pr_points <- function(table) {
  list(
    points = tibble::tibble(
      threshold = table$threshold,
      n_flagged = table$n_flagged,
      recall = table$failures_flagged / table$failures[table$gid],
      precision = table$failures_flagged / table$n_flagged
    ),
    gid = table$gid
  )
}

new_failure_curve <- function(part, table, type, keys = NULL) {
  curve <- part$points
  summary <- tibble::tibble(
    n = table$n, failure_rate = table$failures / table$n
  )
  if (type == "roc") {
    summary$auroc <- table$auroc
  } else {
    summary$aupr <- table$aupr
  }
  if (!is.null(keys)) {
    curve <- tibble::as_tibble(c(keys[part$gid, , drop = FALSE], curve))
    summary <- tibble::as_tibble(c(keys, summary))
  }
  curve <- tibble::new_tibble(
    curve,
    class = if (type == "roc") "aurc_failure_roc_curve" else
      "aurc_failure_pr_curve"
  )
  attr(curve, "summary") <- summary
  attr(curve, "group_vars") <- names(keys)
  curve
}

# Sums of `x` by group `gid` (1..n_groups), 0 for a group without rows.
group_sums <- function(x, gid, n_groups) {
  out <- numeric(n_groups)
  if (length(x) == 0) return(out)
  sums <- rowsum(x, gid)
  out[as.integer(rownames(sums))] <- sums[, 1]
  out
}

# The grouping values of group `i` of `keys`, joined by " / ".
group_label <- function(keys, i) {
  paste(vapply(keys, function(k) as.character(k[i]), ""), collapse = " / ")
}
