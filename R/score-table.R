#' Per-score sufficient tables: summarise shards, merge them, evaluate
#'
#' Every metric of this package depends on the data only through two small
#' tables per group: the **per-score table** (for each distinct score, the
#' weighted count `n` and loss sum `loss_sum` of its samples) and the
#' **per-loss table** (for each distinct loss, its weighted count), the
#' second needed only by the exact optimum of [eaurc()] and [naurc()] and by
#' the oracle curve of [rc_curve()]. Tied scores are accepted or rejected
#' together, so nothing else about the samples matters.
#'
#' `score_table()` computes both from a data frame or from a lazy database
#' table (`dbplyr`; the two `GROUP BY` queries run in the engine and only the
#' tables come back to R), grouped or not. `combine_score_tables()` merges
#' tables computed separately, on shards (several files, partitions,
#' connections or days), by summing counts and loss sums per group and
#' score (and per loss): the result is exactly the table of the union of
#' the shards. Every metric's data-frame form accepts a score table in place
#' of `data` (the column arguments are then left out) and gives the same
#' result as on the raw rows, to rounding: [aurc()], [augrc()],
#' [failure_auroc()], [failure_aupr()], [eaurc()], [eaugrc()], [naurc()],
#' [risk_at_coverage()], [coverage_at_risk()], [selective_metrics()],
#' [rc_curve()], and [ece()]/[mce()] (see below).
#'
#' @section Why it is exact:
#' Each metric is a sum over the distinct thresholds of terms in the
#' thresholds' counts and loss sums (see `vignette("databases")`), so a
#' score table evaluated with its counts as case weights and `loss_sum / n`
#' as loss gives the metric of the raw rows. The exact optimum `AURC*`
#' sorts the individual losses, which the loss sums cannot give: it comes
#' from the per-loss table. For 0/1 failures that table has two rows per
#' group; for a continuous loss it can be as long as the data.
#'
#' @section Missing values:
#' Incomplete rows (missing score or loss) are left out of both tables and
#' counted per group in the attribute `missing`. A metric on the score
#' table with `na_rm = FALSE` (the default) is then `NA` for that group, as
#' on the raw data; with `na_rm = TRUE` the complete rows are used.
#'
#' @section Binned tables:
#' With continuous scores the exact table has as many rows as there are
#' distinct scores, that is about as many as the data. `bins = B` cuts the
#' complete scores into `B` equal-width bins over their range
#' `[lo, hi]` (of the whole table, all groups): the bin of a score `s` is
#' `floor((s - lo) B / (hi - lo))` (the top score in the last bin), each
#' bin one tie group whose score is the bin's midpoint; the engine groups
#' by the bin, so at most `B` rows per group come back. It is
#' approximate and never the default (Spark's
#' `BinaryClassificationEvaluator` bins to 1000 by default, without a
#' bound). Binning merges the distinct scores of a bin into one tie group
#' and loses only the order of the samples inside a bin; every metric of
#' the binned table is that metric for some order of the samples within
#' their bins. That bounds the change. Per group, with the bins `b` in
#' descending score order, `c_b` the weight of bin `b`, `N_b` the weight of
#' bins `b` and above, `N` the total, `M` the largest loss, `F_b`, `K_b`
#' the failures and correct predictions of bin `b` (0/1 losses) and `F`,
#' `K` their totals:
#' \deqn{|AURC_{binned} - AURC| \le \frac{M}{N} \sum_b \frac{c_b^2}{N_b}}{
#' |AURC_binned - AURC| <= (M / N) sum_b c_b^2 / N_b}
#' for the `"alpha"` and `"trapezoid"` estimators (a sample of bin `b`
#' accepted with a weight `k` above it, `N_b - c_b < k <= N_b`, has the
#' selective risk `L(k) / k`; the binned one is `L(N_b) / N_b`, and the two
#' differ by `(N_b - k) / N_b` times a difference of two risks in
#' `[0, M]`, at most `M c_b / N_b`),
#' \deqn{|AUGRC_{binned} - AUGRC| \le M \sum_b c_b^2 / N^2}{
#' |AUGRC_binned - AUGRC| <= M sum_b c_b^2 / N^2}
#' (the generalized risk `L(k) / N` moves by at most `M c_b / N` within a
#' bin), and for the failure AUROC
#' \deqn{|AUROC_{binned} - AUROC| \le \sum_b F_b K_b / (2 F K)}{
#' |AUROC_binned - AUROC| <= sum_b F_b K_b / (2 F K)}
#' (only the pairs of a failure and a correct prediction in the same bin
#' change, each by at most 1/2). With scores spread evenly over `B` bins
#' the AURC bound is about `M (log(B) + 0.58) / B` (0.0075 `M` for
#' `B = 1000`) and the AUGRC bound `M / B`. The table's attribute
#' `bin_error` holds the three bounds per group (`failure_auroc` is `NA`
#' unless the losses are 0/1), and `bins` the range and number of bins.
#' Calibration errors of a binned table read the midpoints as the
#' confidences (each moved by at most half a bin width, which can also move
#' it across an edge of the calibration bins); no bound is stated for
#' them. Binned
#' tables merge with [combine_score_tables()] only when their bins (range
#' and number) are the same; the bounds are then those of the merged
#' table.
#'
#' @section Calibration:
#' For [ece()] and [mce()] the score is read as the confidence and the loss
#' as the failure indicator (`correct = 1 - failure`), so build the table as
#' `score_table(data, confidence, 1 - correct)` (or from a failure column).
#'
#' @param data A data frame (grouped data frames give one table per group)
#'   or a `dbplyr` lazy table (grouped or not).
#' @param score,loss,case_weights Unquoted columns of `data` (or
#'   expressions of its columns), as for [aurc()].
#' @param quality,correct Instead of `loss`, by name: a quality in `[0, 1]`
#'   (higher is better, as [prr()] takes it) or a 0/1 correctness. A table
#'   holds losses, so either is stored as the loss `1 - quality` or `1 -
#'   correct`; [prr()], [auarc()] and the calibration errors then read the
#'   table as they read those columns.
#' @param bins `NULL` (the default): the exact table, one row per distinct
#'   score. A whole number `B` of at least 2: an approximate, **binned**
#'   table with at most `B` rows per group (see the section "Binned
#'   tables"); never needed for exact results.
#' @param ... For `score_table()` not used (must be empty); for
#'   `combine_score_tables()` the score tables to merge (or one list of
#'   them).
#' @return A tibble of class `aurc_score_table`: the grouping columns, then
#'   `score`, `n` (weighted count of the complete rows with that score) and
#'   `loss_sum` (their weighted loss sum), one row per group and distinct
#'   score in ascending order. Attributes: `losses` (grouping columns,
#'   `loss`, `n`), `missing` (grouping columns, `n_missing`, the number of
#'   incomplete rows) and `group_vars`.
#' @examples
#' set.seed(1)
#' df <- data.frame(
#'   score = round(runif(1000), 2), failure = rbinom(1000, 1, 0.2),
#'   model = rep(c("a", "b"), 500)
#' )
#' st <- score_table(df, score, failure)
#' st
#' aurc(st)
#' aurc(df, score, failure)
#'
#' # two shards summarised separately, merged: the single-table result
#' s1 <- score_table(df[1:600, ], score, failure)
#' s2 <- score_table(df[601:1000, ], score, failure)
#' selective_metrics(combine_score_tables(s1, s2))
#' selective_metrics(df, score, failure)
#' @export
score_table <- function(data, score, loss, ..., quality = NULL,
                        correct = NULL, case_weights = NULL, bins = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  bins <- check_bins(bins, call)
  columns <- list(
    score = rlang::enquo(score), loss = rlang::enquo(loss),
    case_weights = rlang::enquo(case_weights)
  )
  # a table holds losses: a quality or a correctness is stored as the loss
  # 1 - x, which every metric reads as its engine does
  other <- list(
    quality = rlang::enquo(quality), correct = rlang::enquo(correct)
  )
  given <- c(
    loss = !rlang::quo_is_missing(columns$loss),
    vapply(other, function(q) !rlang::quo_is_null(q), logical(1))
  )
  if (!inherits(data, "aurc_score_table") && sum(given) != 1) {
    abort_aurc(
      c(
        if (sum(given) == 0) {
          "{.arg loss} is missing."
        } else {
          "Give one of {.arg {names(given)[given]}}, not several."
        },
        i = "A table holds losses: give {.arg loss}, or by name
             {.arg quality} (PRR, AUARC) or {.arg correct}, stored as
             {.code 1 - quality} or {.code 1 - correct}."
      ),
      class = c("aurc_error_missing", "aurc_error_value"), call = call
    )
  }
  for (arg in names(other)) {
    if (given[[arg]]) {
      if (arg == "correct" && !is_db_table(data)) {
        ok <- eval_column(data, other[[arg]], arg, call = call)
        check_failure(ok, length(ok), "correct", call = call)
      }
      columns$loss <- rlang::quo(1 - !!other[[arg]])
    }
  }
  if (inherits(data, "aurc_score_table")) return(data)
  if (is_db_table(data)) {
    return(score_table_db(data, columns, call, bins = bins))
  }
  check_data_frame(data, call = call)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    columns, names(columns)
  )
  check_numeric_vector(values$score, "score", call = call)
  check_loss(values$loss, length(values$score), call = call)
  check_case_weights(values$case_weights, length(values$score), call = call)
  check_table_weights(values$case_weights, call)
  edges <- NULL
  if (!is.null(bins)) {
    s <- as.double(values$score)
    ok <- !is.na(s) & !is.na(values$loss)
    edges <- bin_edges(
      if (any(ok)) min(s[ok]) else 0, if (any(ok)) max(s[ok]) else 0,
      bins, call
    )
    values$score <- bin_midpoint(bin_index(s, edges), edges)
  }
  groups <- check_some_groups(data_groups(data), call)
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    s <- as.double(values$score[rows])
    l <- as.double(values$loss[rows])
    w <- if (is.null(values$case_weights)) {
      rep(1, length(rows))
    } else {
      as.double(values$case_weights[rows])
    }
    ok <- !is.na(s) & !is.na(l)
    list(
      scores = sum_by_keys(
        tibble::tibble(score = s[ok], n = w[ok], loss_sum = w[ok] * l[ok]),
        "score", c("n", "loss_sum")
      ),
      losses = sum_by_keys(
        tibble::tibble(loss = l[ok], n = w[ok]), "loss", "n"
      ),
      missing = tibble::tibble(n_missing = sum(!ok))
    )
  })
  keyed <- function(nm) {
    do.call(rbind, lapply(seq_along(parts), function(g) {
      part <- parts[[g]][[nm]]
      if (is.null(groups$keys)) return(part)
      key <- groups$keys[rep(g, nrow(part)), , drop = FALSE]
      tibble::as_tibble(c(key, part))
    }))
  }
  gv <- names(groups$keys) %||% character()
  scores <- keyed("scores")
  check_loss_sums(scores$loss_sum, call)
  st <- new_score_table(
    drop_empty_scores(scores), keyed("losses"), keyed("missing"), gv
  )
  if (is.null(edges)) st else binned_score_table(st, edges)
}

# Scores whose samples all have weight 0 hold nothing (every metric skips
# them); the tables leave them out.
drop_empty_scores <- function(scores) scores[scores$n > 0, , drop = FALSE]

# The per-score table of a lazy table: one GROUP BY (with the input
# checks; `binary` and `range` add those of calibration), then the per-loss
# table.
score_table_db <- function(data, columns, call, binary = FALSE,
                           range = FALSE, bins = NULL) {
  cols <- db_metric_columns(data, columns, call)
  if (!is.null(bins)) cols <- db_binned_columns(cols, bins, call)
  done <- db_weighted_query(cols, function(cols) {
    db_collect(cols$con, db_score_sql(cols, binary), "the score table", call)
  }, call)
  res <- done$res
  cols <- done$cols
  gv <- cols$groups
  checks <- db_group_checks(res, gv)
  db_check_values(checks, cols, binary, call, range = range)
  if (cols$weighted && !is.null(checks$.maxw)) {
    # the table's sums at the weights' own scale (see check_table_weights())
    check_table_weights(suppressWarnings(as.double(checks$.maxw)), call)
  }
  missing <- tibble::as_tibble(c(
    checks[gv], list(n_missing = as.double(checks$.miss))
  ))
  res <- res[!is.na(res$.aurc_s), , drop = FALSE]
  scores <- tibble::as_tibble(c(res[gv], list(
    score = as.double(res$.aurc_s), n = as.double(res$.n),
    loss_sum = as.double(res$.l)
  )))
  scores <- sum_by_keys(scores, c(gv, "score"), c("n", "loss_sum"))
  losses <- db_loss_table(cols, call)
  losses$loss <- as.double(losses$loss)
  losses$n <- as.double(losses$n)
  losses <- sum_by_keys(losses, c(gv, "loss"), "n")
  if (cols$weighted) {
    # the counts the weights as given stand for (the engine divided the
    # weights of a group far from 1 by their largest: db_relative_weights())
    scale <- db_weight_scale(checks$.maxw)
    back <- function(df, columns) {
      for (i in seq_len(nrow(checks))) {
        rows <- rows_of_group(df, checks, i, gv)
        for (nm in columns) {
          df[[nm]][rows] <- times_pow2(df[[nm]][rows] * scale$mult[i],
            scale$shift[i]
          )
        }
      }
      df
    }
    if (any(scale$shift != 0)) {
      scores <- back(scores, c("n", "loss_sum"))
      losses <- back(losses, "n")
    }
  }
  e <- cols$loss_exponent %||% 0
  if (e != 0) {
    # losses the engine scaled by 2^-e (db_weighted_query()), back
    scores$loss_sum <- times_pow2(scores$loss_sum, e)
    losses$loss <- times_pow2(losses$loss, e)
  }
  check_loss_sums(scores$loss_sum, call)
  if (!is.null(bins)) {
    scores$score <- bin_midpoint(scores$score, cols$edges)
    st <- new_score_table(drop_empty_scores(scores), losses, missing, gv)
    return(binned_score_table(st, cols$edges))
  }
  new_score_table(drop_empty_scores(scores), losses, missing, gv)
}

# A score table holds the weighted loss sum of every score: sums of losses
# near the largest double do not fit in a double. A classed error says so
# (the metrics of a table scale with the loss).
check_loss_sums <- function(loss_sum, call) {
  if (!any(is.infinite(loss_sum))) return(invisible())
  abort_aurc(
    c(
      "The loss sums of a score table exceed the largest double.",
      i = paste(
        "Divide {.arg loss} by a constant: every metric but NAURC and PRR",
        "scales with it, and those two do not change."
      )
    ),
    class = c("aurc_error_overflow", "aurc_error_value"), call = call
  )
}

# The checks of the rows of db_score_sql() (per group and score), per
# group: `.miss`, `.minl`, `.maxl`, `.bad`, `.minw`, `.nullw` as there, and
# the score range `.mins`, `.maxs`; sorted by the groups.
db_group_checks <- function(res, gv) {
  num <- function(x) suppressWarnings(as.double(x))
  res$.mins <- num(res$.aurc_s)
  if (!".maxs" %in% names(res)) res$.maxs <- res$.mins
  rules <- list(
    .m = sum, .minl = min, .maxl = max, .bad = sum, .minw = min,
    .maxw = max_keep_nan, .nullw = sum, .txt_s = sum, .txt_l = sum, .txt_w = sum,
    .mins = min, .maxs = max
  )
  rules <- rules[names(rules) %in% names(res)]
  reduce <- function(rows) {
    lapply(names(rules), function(nm) {
      x <- num(res[[nm]][rows])
      if (all(is.na(x))) NA_real_ else rules[[nm]](x, na.rm = TRUE)
    })
  }
  if (length(gv) == 0) {
    out <- tibble::as_tibble(stats::setNames(reduce(seq_len(nrow(res))),
      names(rules)
    ))
  } else {
    keys <- sum_by_keys(res[gv], gv, character())
    vals <- lapply(seq_len(nrow(keys)), function(i) {
      reduce(which(rows_of_group(res, keys, i, gv)))
    })
    out <- tibble::as_tibble(c(keys, stats::setNames(
      lapply(seq_along(rules), function(j) {
        vapply(vals, `[[`, numeric(1), j)
      }),
      names(rules)
    )))
  }
  names(out)[names(out) == ".m"] <- ".miss"
  out
}

# max() that keeps a NaN (a NaN weight must reach the check) and drops NA.
max_keep_nan <- function(x, na.rm = TRUE) { # nolint: object_name_linter.
  if (any(is.nan(x))) NaN else max(x, na.rm = na.rm)
}

new_score_table <- function(scores, losses, missing, group_vars) {
  scores <- tibble::new_tibble(scores, class = "aurc_score_table")
  attr(scores, "losses") <- tibble::as_tibble(losses)
  attr(scores, "missing") <- tibble::as_tibble(missing)
  attr(scores, "group_vars") <- group_vars
  scores
}

# Sums `values` over the rows sharing `keys`, sorted by the keys (missing
# keys last). Works for any column types and never formats the keys
# (`rowsum()` on the scores themselves would round them to 15 digits).
sum_by_keys <- function(df, keys, values) {
  df <- tibble::as_tibble(df)
  if (nrow(df) == 0) return(df[c(keys, values)])
  if (length(keys) == 0) {
    out <- tibble::as_tibble(lapply(df[values], sum))
    return(out)
  }
  o <- do.call(order, c(unname(as.list(df[keys])), list(na.last = TRUE)))
  df <- df[o, , drop = FALSE]
  m <- nrow(df)
  new <- rep(FALSE, m)
  new[1] <- TRUE
  if (m > 1) {
    for (k in keys) {
      a <- df[[k]][-1]
      b <- df[[k]][-m]
      same <- (a == b & !is.na(a) & !is.na(b)) | (is.na(a) & is.na(b))
      new[-1] <- new[-1] | !same
    }
  }
  out <- df[new, keys, drop = FALSE]
  if (length(values) == 0) return(out)
  id <- cumsum(new)
  sums <- rowsum(as.matrix(df[values]), id, reorder = TRUE)
  for (j in seq_along(values)) out[[values[j]]] <- unname(sums[, j])
  out
}

#' @rdname score_table
#' @export
combine_score_tables <- function(...) {
  tables <- list(...)
  if (length(tables) == 1 && is.list(tables[[1]]) &&
    !is.data.frame(tables[[1]])) {
    tables <- tables[[1]]
  }
  call <- rlang::current_env()
  ok <- length(tables) > 0 &&
    all(vapply(tables, inherits, logical(1), "aurc_score_table"))
  if (!ok) {
    abort_aurc(
      c(
        "{.arg ...} must be score tables made by {.fn score_table}.",
        i = "Summarise every shard with {.fn score_table} first."
      ),
      class = "aurc_error_type", call = call
    )
  }
  gv <- attr(tables[[1]], "group_vars")
  same <- vapply(tables, function(t) identical(attr(t, "group_vars"), gv),
    logical(1)
  )
  if (!all(same)) {
    abort_aurc(
      c(
        "Every score table must have the same grouping columns.",
        x = "The first has {.val {gv}}; table {which(!same)[1]} differs."
      ),
      class = "aurc_error_value", call = call
    )
  }
  edges <- lapply(tables, attr, "bins", exact = TRUE)
  if (!all(vapply(edges, identical, logical(1), edges[[1]]))) {
    abort_aurc(
      c(
        "Binned and exact score tables, or tables with different bins,
         can't be merged.",
        i = "Give every shard the same {.arg bins} and score range, or
             merge exact tables."
      ),
      class = "aurc_error_value", call = call
    )
  }
  bind <- function(get) {
    do.call(rbind, lapply(tables, function(t) tibble::as_tibble(get(t))))
  }
  scores <- bind(function(t) {
    x <- unclass(t)
    attributes(x) <- list(names = names(t))
    tibble::new_tibble(x, nrow = nrow(t))
  })
  st <- new_score_table(
    sum_by_keys(scores, c(gv, "score"), c("n", "loss_sum")),
    sum_by_keys(bind(function(t) attr(t, "losses")), c(gv, "loss"), "n"),
    sum_by_keys(bind(function(t) attr(t, "missing")), gv, "n_missing"),
    gv
  )
  if (is.null(edges[[1]])) st else binned_score_table(st, edges[[1]])
}

#' @export
print.aurc_score_table <- function(x, ...) {
  gv <- attr(x, "group_vars")
  losses <- attr(x, "losses")
  missing <- attr(x, "missing")
  cat(sprintf(
    "# Score table: %s distinct score%s, %s distinct loss%s, %s samples%s\n",
    format(nrow(x), big.mark = ","), if (nrow(x) == 1) "" else "s",
    format(nrow(losses), big.mark = ","), if (nrow(losses) == 1) "" else "es",
    format(sum(x$n), big.mark = ","),
    if (length(gv)) paste0(" (groups: ", toString(gv), ")") else ""
  ))
  if (sum(missing$n_missing) > 0) {
    cat(sprintf(
      "# %s incomplete row%s left out\n",
      format(sum(missing$n_missing), big.mark = ","),
      if (sum(missing$n_missing) == 1) "" else "s"
    ))
  }
  y <- unclass(x)
  attributes(y) <- list(names = names(x))
  print(tibble::new_tibble(y, nrow = nrow(x)), ...)
  invisible(x)
}

# The rows of group `i` of `keys` in `df` (all rows without groups).
rows_of_group <- function(df, keys, i, gv) {
  rows <- rep(TRUE, nrow(df))
  for (g in gv) {
    a <- df[[g]]
    b <- keys[[g]][i]
    rows <- rows & (if (is.na(b)) is.na(a) else (!is.na(a) & a == b))
  }
  rows
}

# The group keys of a score table (one row, no columns, without groups).
score_table_keys <- function(st) {
  gv <- attr(st, "group_vars")
  if (length(gv) == 0) return(tibble::tibble(.rows = 1))
  miss <- attr(st, "missing")
  keys <- sum_by_keys(
    rbind(
      tibble::as_tibble(miss[gv]),
      tibble::as_tibble(unclass(st)[gv])
    ),
    gv, character()
  )
  keys
}

warn_ignored_columns <- function(columns, call) {
  given <- !vapply(columns, function(q) {
    rlang::quo_is_missing(q) || rlang::quo_is_null(q)
  }, logical(1))
  if (any(given)) {
    warn_aurc(
      c(
        paste(
          "{.arg data} is a score table; {.arg {names(columns)[given]}}",
          "{?is/are} ignored."
        ),
        i = "A score table already holds the scores, losses and weights."
      ),
      class = "aurc_warning_ignored", call = call
    )
  }
}

# The metrics of a score table, in the form of `db_metric_values()`: the
# grouping columns, one column per metric, `.coverage`.
score_table_metrics <- function(st, metrics, columns, options, call, # nolint
                                warn_columns = TRUE) {
  if (warn_columns) warn_ignored_columns(columns, call)
  check_bool(options$na_rm, "na_rm", call = call)
  gv <- attr(st, "group_vars")
  keys <- score_table_keys(st)
  losses <- attr(st, "losses")
  missing <- attr(st, "missing")
  binary <- db_needs_binary(metrics, options)
  if (binary && any(!losses$loss %in% c(0, 1))) {
    abort_aurc(
      c(
        "The losses of {.arg data} must be only 0 and 1 for {.val {metrics}}.",
        x = "The score table holds {.val {setdiff(losses$loss, c(0, 1))[1]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  need_oracle <- "naurc" %in% metrics ||
    ("eaurc" %in% metrics && options$optimum == "exact")
  exact_eaurc <- "eaurc" %in% metrics && options$optimum == "exact"
  cpp <- setdiff(metrics, c("naurc", "prr", if (exact_eaurc) "eaurc"))
  if (need_oracle) cpp <- union(cpp, c("aurc", "mean_loss"))
  if (!length(cpp)) cpp <- "mean_loss"
  kernels <- metric_kernels(cpp, options)
  G <- nrow(keys) # nolint: object_name_linter
  vals <- matrix(NA_real_, G, length(metrics), dimnames = list(NULL, metrics))
  achieved <- rep(NA_real_, G)
  no_data <- FALSE
  counted <- count_metrics(metrics, options$optimum, options$estimator)
  few <- rep(FALSE, G)
  e <- rep(0, G)
  for (i in seq_len(G)) {
    if (!options$na_rm &&
      sum(missing$n_missing[rows_of_group(missing, keys, i, gv)]) > 0) {
      next
    }
    rows <- rows_of_group(st, keys, i, gv)
    n <- st$n[rows]
    if (!(sum(n) > 0)) {
      no_data <- TRUE
      next
    }
    s <- st$score[rows]
    ls <- st$loss_sum[rows]
    loss <- ifelse(n > 0, ls / n, 0)
    # losses near the largest double, times 2^-e (values scaled back below)
    lr <- rows_of_group(losses, keys, i, gv)
    lv <- losses$loss[lr]
    e[i] <- loss_scale_exponent(c(loss, lv))
    if (e[i] != 0) {
      loss <- times_pow2(loss, -e[i])
      ls <- times_pow2(ls, -e[i])
      lv <- times_pow2(lv, -e[i])
    }
    risk <- times_pow2(options$risk %||% 0.5, -e[i])
    # counts at any scale, as the weights of the in-memory forms
    # (R/weights-scale.R); the per-loss counts by the same power of 2
    sc <- scale_group_weights(n, count = any(counted))
    if (sc$too_few && any(counted)) few[i] <- TRUE
    n <- sc$w
    ls <- times_pow2(ls, sc$exponent)
    ln <- times_pow2(losses$n[lr], sc$exponent)
    res <- metrics_impl(s, loss, n, kernels, options$estimator,
      options$method, options$optimum, options$coverage, risk
    )
    v <- stats::setNames(res$values, cpp)
    if ("prr" %in% metrics) {
      o <- order(s)
      lo <- order(lv)
      v[["prr"]] <- prr_groups_impl(n[o], ls[o], ln[lo], (lv * ln)[lo],
        options$max_rejection %||% 1
      )
    }
    if (need_oracle) {
      star <- oracle_from_losses(lv, ln, options$estimator)
      if (exact_eaurc) v[["eaurc"]] <- v[["aurc"]] - star
      if ("naurc" %in% metrics) {
        denom <- v[["mean_loss"]] - star
        # undefined when every loss is the same (the denominator is then 0
        # only up to rounding: src/core/oracle.h, loss_is_constant())
        constant <- sum(ln > 0) <= 1
        v[["naurc"]] <- if (isTRUE(denom > 0) && !constant) {
          (v[["aurc"]] - star) / denom
        } else {
          NaN
        }
      }
    }
    vals[i, ] <- unscale_loss_values(v[metrics], metrics, e[i], call)
    achieved[i] <- res$achieved_coverage
  }
  if (no_data) warn_no_data(call = call)
  if (any(few)) {
    vals[few, counted] <- NA_real_
    warn_oracle_scale(metrics[counted], options$estimator, call = call)
  }
  for (m in metrics) {
    bad <- is.nan(vals[, m])
    if (any(bad)) {
      warn_metric_undefined(m, call = call, no_data = FALSE)
      vals[bad, m] <- NA_real_
    }
  }
  values <- tibble::as_tibble(as.data.frame(vals))
  values$.coverage <- achieved
  if (length(gv)) values <- tibble::as_tibble(c(keys[gv], values))
  attr(values, "group_vars") <- gv
  values
}

# A table holds sums of weights and of weighted losses as they are: weights
# whose largest is below 2^-1000 make those products subnormal, which keep
# only a few bits (the in-memory forms first bring such weights into range
# by a power of 2, which a table of sums cannot undo): a classed error that
# says what to do, not a table a little off.
check_table_weights <- function(w, call) {
  if (is.null(w) || !length(w)) return(invisible())
  m <- suppressWarnings(max(as.double(w), na.rm = TRUE))
  if (!is.finite(m) || !(m > 0) || m >= 2^-1000) return(invisible())
  abort_aurc(
    c(
      "{.arg case_weights} are too small for a score table: the largest is
       {format(m, digits = 3)}.",
      i = "The table's sums of weighted losses would keep only a few bits.",
      i = "Multiply {.arg case_weights} by a power of 2 (every metric but
           those that count cases is unchanged by it)."
    ),
    class = c("aurc_error_weights_scale", "aurc_error_value"), call = call
  )
}
