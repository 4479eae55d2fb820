# aurc_ba() and augrc_ba() on a lazy database table (R/metric-balanced.R
# has the definitions). The engine does the one pass over the rows: the
# class is added to the table's groups, and the GROUP BY of the score
# table (R/score-table.R, with every input check of the other database
# forms) returns one row per group, class and distinct score, with its
# weighted count and failures. The balanced metric of each group is then
# computed from those rows, as in memory with the counts as case weights.

balanced_remote <- function(metric, data, score, failure, truth,
                            case_weights, na_rm, call) {
  check_bool(na_rm, call = call)
  if (rlang::quo_is_null(truth) || rlang::quo_is_missing(truth)) {
    abort_aurc("{.arg truth} is missing.",
      class = "aurc_error_column", call = call
    )
  }
  gv <- dplyr::group_vars(data)
  classed <- tryCatch(
    dplyr::group_by(data, .aurc_t = !!truth, .add = TRUE),
    error = function(e) {
      abort_aurc(
        "Can't find or translate {.arg truth} in {.arg data}.",
        parent = e, class = "aurc_error_column", call = call
      )
    }
  )
  st <- score_table_db(classed,
    list(score = score, failure = failure, case_weights = case_weights),
    call,
    binary = TRUE
  )
  scores <- tibble::as_tibble(st)
  missing <- attr(st, "missing")
  keys <- if (length(gv)) sum_by_keys(missing[gv], gv, character()) else NULL
  n_groups <- if (is.null(keys)) 1L else nrow(keys)
  values <- vapply(seq_len(n_groups), function(i) {
    rows <- if (is.null(keys)) rep(TRUE, nrow(scores)) else
      rows_of_group(scores, keys, i, gv)
    miss <- if (is.null(keys)) missing else
      missing[rows_of_group(missing, keys, i, gv), , drop = FALSE]
    s <- scores[rows, , drop = FALSE]
    # a missing score, failure or class (a NULL class is a key of its own
    # in the engine's GROUP BY): NA, or dropped with na_rm
    incomplete <- sum(miss$n_missing) > 0 || anyNA(miss$.aurc_t) ||
      anyNA(s$.aurc_t)
    if (incomplete && !na_rm) return(NA_real_)
    s <- s[!is.na(s$.aurc_t) & s$n > 0, , drop = FALSE]
    if (nrow(s) == 0) return(NA_real_)
    cls <- match(s$.aurc_t, unique(s$.aurc_t))
    loss <- s$loss_sum / s$n
    # counts at any scale (R/weights-scale.R)
    n <- scale_group_weights(s$n)$w
    if (metric == "augrc_ba") {
      augrc_ba_value(s$score, loss, cls, n)
    } else {
      aurc_ba_value(s$score, loss, cls, n)
    }
  }, numeric(1))
  metric_tibble(keys, metric, "balanced", matrix(values, ncol = 1))
}
