#' Risk-coverage curve
#'
#' The selective and generalized risk of a selective classifier at every
#' distinct threshold of its confidence score. Accepting the predictions
#' with `score >= t` gives, with `n` the (weighted) number of predictions:
#'
#' * `n_accepted = sum_i w_i 1(s_i >= t)`, `coverage = n_accepted / n`,
#' * `selective_risk = sum_i w_i loss_i 1(s_i >= t) / n_accepted`, the mean
#'   loss of the accepted predictions (the AURC integrates it),
#' * `generalized_risk = sum_i w_i loss_i 1(s_i >= t) / n`, the loss of the
#'   accepted predictions over all predictions (the AUGRC integrates it).
#'
#' Rows are the distinct thresholds in descending order (tied scores are
#' accepted together). The data-frame form on a grouped data frame gives
#' one curve per group (several models or scores), with the grouping columns
#' first; [ggplot2::autoplot()] draws them (see [autoplot.aurc_rc_curve()]).
#'
#' @inheritParams aurc
#' @return A tibble of class `aurc_rc_curve` with columns `threshold`,
#'   `n_accepted`, `coverage`, `selective_risk`, `generalized_risk` (after the
#'   grouping columns). It carries the oracle curve (the same losses sorted
#'   from the lowest, the best possible score), the mean loss (the
#'   expected selective risk of a random score) and the curve's AURC
#'   ([aurc_vec()], estimator `"alpha"`) and AUGRC ([augrc_vec()]) for the
#'   plot. A curve needs
#'   data: missing values with `na_rm = FALSE`, or no sample left, are an
#'   error.
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' rc_curve_vec(score, failure)
#'
#' df <- data.frame(
#'   model = rep(c("a", "b"), each = 6), score = c(score, rev(score)),
#'   failure = c(failure, failure)
#' )
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   curves <- rc_curve(dplyr::group_by(df, model), score, failure)
#'   curves
#'   ggplot2::autoplot(curves, type = "generalized")
#' }
#' @export
rc_curve <- function(data, score, loss, ..., na_rm = FALSE,
                     case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  if (is_remote_data(data)) {
    return(rc_curve_remote(data, list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ), na_rm, call))
  }
  check_data_frame(data, call = call)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ),
    c("score", "loss", "case_weights")
  )
  rc_curve_from_values(values, data_groups(data), na_rm, call)
}

#' @rdname rc_curve
#' @export
rc_curve_vec <- function(score, loss, ..., na_rm = FALSE,
                         case_weights = NULL) {
  check_dots(...)
  part <- rc_curve_groups(score, loss, case_weights, NULL, na_rm,
    rlang::current_env()
  )
  new_rc_curve(part$curve, part$oracle, part$random)
}

# The curves of evaluated columns `values` (score, loss, case_weights) in
# the groups of data_groups() (rows NULL: one curve of all values).
rc_curve_from_values <- function(values, groups, na_rm, call) {
  part <- rc_curve_groups(values$score, values$loss, values$case_weights,
    groups$rows, na_rm, call
  )
  if (!is.null(groups$keys)) {
    for (nm in c("curve", "oracle", "random")) {
      key <- groups$keys[part$group[[nm]], , drop = FALSE]
      part[[nm]] <- tibble::as_tibble(c(key, part[[nm]]))
    }
  }
  new_rc_curve(part$curve, part$oracle, part$random,
    group_vars = names(groups$keys)
  )
}

new_rc_curve <- function(curve, oracle, random, group_vars = NULL) {
  curve <- tibble::new_tibble(curve, class = "aurc_rc_curve")
  attr(curve, "oracle") <- oracle
  attr(curve, "random") <- random
  attr(curve, "group_vars") <- group_vars
  curve
}

# Validates like a metric, but a curve cannot be NA: missing values without
# na_rm and a group with no data are errors. `rows`: NULL (one curve) or the
# row indices of every group; all curves come from one C++ call
# (rc_curve_grouped_impl()). Returns the three tables and, in `group`, the
# group of each of their rows.
rc_curve_groups <- function(score, loss, case_weights, rows, na_rm, call) {
  case_weights <- plain_weights(case_weights)
  check_numeric_vector(score, "score", call = call)
  check_loss(loss, length(score), call = call)
  check_case_weights(case_weights, length(score), call = call)
  check_bool(na_rm, call = call)
  warn_if_suspicious(score, loss, call = call)
  if (!na_rm && (anyNA(score) || anyNA(loss))) {
    abort_aurc(
      c(
        "{.arg score} and {.arg loss} must not have missing values.",
        i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  g <- group_columns(
    list(score = score, loss = loss, case_weights = case_weights), rows,
    na_rm = TRUE
  )
  # weights and losses at any scale (R/weights-scale.R): weights scaled by
  # a power of 2 per group, losses near the largest double by one power of
  # 2; counts and risks are scaled back below
  sc <- scale_group_weights(g$cols$case_weights, g$sizes)
  case_weights <- sc$w
  e <- loss_scale_exponent(g$cols$loss)
  loss <- if (e != 0) times_pow2(g$cols$loss, -e) else g$cols$loss
  risk_back <- function(x) if (e != 0) times_pow2(x, e) else x
  n_groups <- length(g$sizes)
  offsets <- c(0, cumsum(as.double(g$sizes)))
  res <- rc_curve_grouped_impl(
    g$cols$score, loss, case_weights, offsets, sort_threads(call)
  )
  if (!all(res$n > 0)) {
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
  curve_group <- rep.int(seq_len(n_groups), res$size)
  total <- res$n[curve_group]
  curve <- tibble::tibble(
    threshold = res$threshold,
    # the counts of the weights as given
    n_accepted = times_pow2(res$n_accepted, -sc$exponent[curve_group]),
    coverage = res$n_accepted / total,
    selective_risk = risk_back(res$loss_accepted / res$n_accepted),
    generalized_risk = risk_back(res$loss_accepted / total)
  )
  last <- cumsum(res$size)
  oracle <- oracle_curves(loss, case_weights, g$gid, res$n)
  oracle$curve$selective_risk <- risk_back(oracle$curve$selective_risk)
  oracle$curve$generalized_risk <- risk_back(oracle$curve$generalized_risk)
  # the areas under both curves of every group, for the legend of the plot
  areas <- risk_back(metrics_grouped_impl(
    g$cols$score, loss, case_weights, offsets, c("aurc", "augrc"),
    "alpha", "trapezoid", "exact", 0.5, 0.5, sort_threads(call)
  )$values)
  list(
    curve = curve, oracle = oracle$curve,
    random = tibble::tibble(
      mean_loss = risk_back(res$loss_accepted[last] / res$n),
      aurc = areas[, 1], augrc = areas[, 2]
    ),
    group = list(
      curve = curve_group, oracle = oracle$group, random = seq_len(n_groups)
    )
  )
}

# The curve of the oracle order (lowest loss most confident, every sample
# its own threshold) of every group, each thinned to at most `max_points`
# points for plotting. `gid`: the group of each row (rows ordered by
# group); `n`: the total weight of each group.
oracle_curves <- function(loss, case_weights, gid, n, max_points = 2000) {
  w <- if (length(case_weights)) case_weights else rep(1, length(loss))
  o <- order(gid, loss)
  o <- o[w[o] > 0]
  group <- gid[o]
  per_group <- function(x) {
    if (length(n) == 1) return(cumsum(x))
    unlist(lapply(split(x, group), cumsum), use.names = FALSE)
  }
  accepted <- per_group(w[o])
  loss_accepted <- per_group(w[o] * loss[o])
  m <- tabulate(group, length(n))
  keep <- rep(TRUE, length(o))
  start <- cumsum(m) - m
  for (g in which(m > max_points)) {
    local <- unique(round(seq(1, m[g], length.out = max_points)))
    keep[start[g] + seq_len(m[g])] <- FALSE
    keep[start[g] + local] <- TRUE
  }
  group <- group[keep]
  list(
    curve = tibble::tibble(
      coverage = accepted[keep] / n[group],
      selective_risk = loss_accepted[keep] / accepted[keep],
      generalized_risk = loss_accepted[keep] / n[group]
    ),
    group = group
  )
}
