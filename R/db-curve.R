# rc_curve(), ece() and mce() on lazy database tables and score tables
# (DEFINITIONS Sec. 12).
#
# rc_curve(): the curve has one point per distinct score, so the per-score
# table is the result: it is computed in the engine, and the points (and the
# oracle curve from the per-loss table) are built in R by the in-memory
# code, so they are the in-memory curve.
#
# ece()/mce(): equal-width (and custom-break) bins are a CASE over the
# edges; equal-mass bins place each boundary b on the tie-group edge
# nearest to b W / k (as src/core/binning.h), found from running sums in
# ascending confidence; one GROUP BY of the bins returns the bin sums.
# Adaptive bins grow sequentially from the top, which no set-based query
# expresses: their per-confidence table is pulled into R (with a message
# when it is large). `ding2020` needs the individual samples in input order
# and is not available for database tables.

rc_curve_remote <- function(data, columns, na_rm, call) {
  check_bool(na_rm, call = call)
  st <- if (inherits(data, "aurc_score_table")) {
    warn_ignored_columns(columns, call)
    data
  } else {
    score_table_db(data, columns, call)
  }
  gv <- attr(st, "group_vars")
  keys <- score_table_keys(st)
  losses <- attr(st, "losses")
  missing <- attr(st, "missing")
  parts <- lapply(seq_len(nrow(keys)), function(i) {
    if (!na_rm &&
      sum(missing$n_missing[rows_of_group(missing, keys, i, gv)]) > 0) {
      abort_aurc(
        c(
          "{.arg score} and {.arg loss} must not have missing values.",
          i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
        ),
        class = "aurc_error_missing", call = call
      )
    }
    rows <- rows_of_group(st, keys, i, gv)
    n <- st$n[rows]
    if (!(sum(n) > 0)) {
      abort_aurc(
        c(
          "Can't compute a curve without data.",
          i = paste(
            "No sample is left (after dropping missing values), or every",
            "case weight is 0."
          )
        ),
        class = "aurc_error_no_data", call = call
      )
    }
    res <- rc_curve_impl(st$score[rows], st$loss_sum[rows] / n, n)
    # the areas for the plot's legend: exact from the tie groups (a tie
    # group enters every metric through its count and loss sum only)
    # weights and losses at any scale (R/weights-scale.R)
    loss <- st$loss_sum[rows] / n
    e <- loss_scale_exponent(loss)
    areas <- times_pow2(metrics_impl(st$score[rows], times_pow2(loss, -e),
      scale_group_weights(n)$w,
      c("aurc", "augrc"), "alpha", "trapezoid", "exact", 0.5, 0.5
    )$values, e)
    lr <- rows_of_group(losses, keys, i, gv)
    part <- list(
      curve = tibble::tibble(
        threshold = res$threshold, n_accepted = res$n_accepted,
        coverage = res$n_accepted / res$n,
        selective_risk = res$loss_accepted / res$n_accepted,
        generalized_risk = res$loss_accepted / res$n
      ),
      oracle = oracle_curves(losses$loss[lr], losses$n[lr],
        rep(1L, length(losses$loss[lr])), res$n
      )$curve,
      random = tibble::tibble(
        mean_loss = res$loss_accepted[length(res$loss_accepted)] / res$n,
        aurc = areas[1], augrc = areas[2]
      )
    )
    if (length(gv)) {
      for (nm in names(part)) {
        key <- keys[rep(i, nrow(part[[nm]])), gv, drop = FALSE]
        part[[nm]] <- tibble::as_tibble(c(key, part[[nm]]))
      }
    }
    part
  })
  if (length(parts) == 0) {
    abort_aurc("Can't compute a curve without data.",
      class = "aurc_error_no_data", call = call
    )
  }
  bind <- function(nm) do.call(rbind, lapply(parts, `[[`, nm))
  new_rc_curve(bind("curve"), bind("oracle"), bind("random"),
    group_vars = if (length(gv)) gv else NULL
  )
}

# ECE or MCE per group: `values` as db_metric_values() (grouping columns,
# a column `ece`/`mce`, `.coverage`).
calibration_db <- function(data, columns, settings, na_rm, metric, call) {
  if (settings$binning == "ding2020") {
    abort_aurc(
      c(
        paste(
          "{.code binning = \"ding2020\"} is not available for database",
          "tables and score tables."
        ),
        i = paste(
          "It takes tied samples one at a time in input order; use",
          "{.code binning = \"adaptive\"}, which keeps ties together."
        )
      ),
      class = "aurc_error_ding2020", call = call
    )
  }
  if (inherits(data, "aurc_score_table")) {
    warn_ignored_columns(columns, call)
    return(calibration_pulled(data, settings, na_rm, metric, call,
      from_failure = TRUE
    ))
  }
  if (settings$binning == "adaptive" || (settings$binning == "equal_mass" &&
    !db_has_windows(db_con(data), call))) {
    # (equal-mass boundaries need running sums: without window functions
    # they are placed in R on the per-confidence table, R/db-portable.R)
    st <- score_table_db(data, columns, call, binary = TRUE, range = TRUE)
    return(calibration_pulled(st, settings, na_rm, metric, call,
      from_failure = FALSE
    ))
  }
  cols <- db_metric_columns(data, columns, call)
  bins <- db_weighted_query(cols, function(cols) {
    out <- db_collect(cols$con, db_calibration_bins(cols, settings),
      "the bins", call
    )
    names(out) <- sub("^\\.o\\.", ".", names(out))
    out
  }, call)$res
  gv <- cols$groups
  checks <- db_group_checks(bins, gv)
  db_check_values(checks, cols, TRUE, call, range = TRUE)
  value <- vapply(seq_len(nrow(checks)), function(i) {
    if (!na_rm && isTRUE(as.double(checks$.miss[i]) > 0)) return(NA_real_)
    rows <- rows_of_group(bins, checks, i, gv)
    n <- as.double(bins$.bn[rows])
    keep <- !is.na(n) & n > 0
    if (!any(keep)) return(NaN)
    n <- n[keep]
    gap <- as.double(bins$.bc[rows][keep]) / n -
      as.double(bins$.bs[rows][keep]) / n
    if (metric == "ece") sum(n * abs(gap)) / sum(n) else max(abs(gap))
  }, numeric(1))
  if (any(is.nan(value))) {
    warn_no_data(call = call)
    value[is.nan(value)] <- NA_real_
  }
  values <- stats::setNames(
    tibble::tibble(value, .coverage = NA_real_), c(metric, ".coverage")
  )
  if (length(gv)) values <- tibble::as_tibble(c(checks[gv], values))
  attr(values, "group_vars") <- gv
  values
}

# Bin sums in the engine, one pass over the table: `.bn` (weight), `.bs`
# (confidence sum), `.bc` (correct sum) per group and bin, with the checks
# of the per-score rows summed per bin (`.m`, `.minl`, `.maxl`, `.bad`,
# `.minw`, `.nullw`; the score range as `.aurc_s`, the minimum, and
# `.maxs`). Every score row stays in, the missing score and zero weights
# with `.n` = 0 (no bin boundary falls on them; an empty bin is dropped in
# R), so every group of the table has a row.
db_calibration_bins <- function(cols, settings) {
  con <- cols$con
  id <- function(x) db_ident(con, x)
  gv <- cols$groups
  s <- id(".aurc_s")
  n <- id(".n")
  q <- db_score_sql(cols, binary = TRUE)
  level <- 1
  add <- function(q, exprs) {
    level <<- level + 1
    db_select_sql(con, "*", exprs, q, paste0("b", level), group = FALSE)
  }
  if (settings$binning == "equal_mass") {
    k <- settings$n_bins
    partition <- if (length(gv)) {
      paste0("PARTITION BY ", paste(id(gv), collapse = ", "), " ")
    } else {
      ""
    }
    whole <- paste0("OVER (", trimws(partition), ")")
    ordered <- paste0("OVER (", partition, "ORDER BY ", s, ")")
    running <- paste0(
      "OVER (", partition, "ORDER BY ", s, " ROWS UNBOUNDED PRECEDING)"
    )
    one <- paste0("CASE WHEN ", n, " > 0 THEN 1 ELSE 0 END")
    # the boundaries: bin of the lower end, the upper end and the middle of
    # each tie group's weight interval (k - 1 at most)
    q <- add(q, c(
      .W = paste0("SUM(", n, ") ", whole),
      .cnt = paste0("SUM(", one, ") ", whole),
      .hi = paste0("SUM(", n, ") ", running),
      .rk = paste0("SUM(", one, ") ", running)
    ))
    w <- paste0("CASE WHEN ", id(".W"), " > 0 THEN ", id(".W"), " ELSE 1.0 END")
    top <- sprintf("%.0f", k - 1) # never in scientific notation
    bin_of <- function(x) {
      f <- paste0("FLOOR(", sprintf("%.1f", k), " * ", x, " / (", w, "))")
      paste0("CASE WHEN ", f, " > ", top, " THEN ", top, " ELSE ", f, " END")
    }
    lo <- paste0("(", id(".hi"), " - ", n, ")")
    q <- add(q, c(
      .mlo = bin_of(lo), .mhi = bin_of(id(".hi")),
      .mmid = bin_of(paste0("0.5 * (", lo, " + ", id(".hi"), ")"))
    ))
    q <- add(q, c(
      .begin = paste0(
        "CASE WHEN ", id(".mmid"), " > ", id(".mlo"), " AND ", id(".rk"),
        " > 1 THEN 1 ELSE 0 END"
      ),
      .end = paste0(
        "CASE WHEN ", id(".mhi"), " > ", id(".mmid"), " AND ", id(".rk"),
        " < ", id(".cnt"), " THEN 1 ELSE 0 END"
      )
    ))
    q <- add(q, c(.lend = paste0("LAG(", id(".end"), ", 1, 0) ", ordered)))
    q <- add(q, c(.bin = paste0(
      "SUM(CASE WHEN ", id(".begin"), " > 0 OR ", id(".lend"),
      " > 0 THEN 1 ELSE 0 END) ", running
    )))
  } else {
    edges <- settings$breaks
    inner <- edges[-c(1, length(edges))]
    case <- if (length(inner) == 0) {
      "1"
    } else {
      paste0(
        "CASE ", paste0(
          "WHEN ", s, " <= ", format(inner, digits = 17), " THEN ",
          seq_along(inner),
          collapse = " "
        ), " ELSE ", length(inner) + 1, " END"
      )
    }
    q <- add(q, c(.bin = case))
  }
  exprs <- c(
    .bn = paste0("SUM(", n, ")"),
    .bs = paste0("SUM(", n, " * ", s, ")"),
    .bc = paste0("SUM(", id(".l"), ")"),
    .aurc_s = paste0("MIN(", s, ")"),
    .maxs = paste0("MAX(", s, ")")
  )
  how <- db_check_columns(cols, binary = TRUE)
  exprs <- c(exprs, stats::setNames(
    paste0(how, "(", id(names(how)), ")"), names(how)
  ))
  # output names that are no input column: ClickHouse reads an alias
  # anywhere in its SELECT, so MIN(s) AS s would nest in SUM(n * s)
  names(exprs) <- paste0(".o", names(exprs))
  db_select_sql(con, id(c(gv, ".bin")), exprs, q, "b9")
}

# Adaptive (and every binning of a score table): the per-confidence table in
# R, binned by the in-memory code with the counts as case weights.
# `from_failure`: the table's loss is the failure (score tables); otherwise
# it is the correct indicator.
calibration_pulled <- function(st, settings, na_rm, metric, call,
                               from_failure) {
  gv <- attr(st, "group_vars")
  keys <- score_table_keys(st)
  losses <- attr(st, "losses")
  missing <- attr(st, "missing")
  if (any(!losses$loss %in% c(0, 1))) {
    abort_aurc(
      c(
        "Calibration needs 0/1 outcomes.",
        x = "The table holds {.val {setdiff(losses$loss, c(0, 1))[1]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (any(st$score < 0 | st$score > 1)) {
    abort_aurc(
      c(
        "The confidences must lie in [0, 1].",
        x = "The table holds {.val {st$score[st$score < 0 | st$score > 1][1]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (nrow(st) > db_pull_limit && !from_failure) {
    why <- if (settings$binning == "adaptive") {
      "Adaptive binning is sequential"
    } else {
      "The engine has no window functions"
    }
    cli::cli_inform(c(
      i = paste(
        "{why}: pulled",
        "{format(nrow(st), big.mark = ',')} distinct confidences into R."
      )
    ), class = "aurc_message_pull")
  }
  no_data <- FALSE
  few <- FALSE
  value <- vapply(seq_len(nrow(keys)), function(i) {
    if (!na_rm &&
      sum(missing$n_missing[rows_of_group(missing, keys, i, gv)]) > 0) {
      return(NA_real_)
    }
    rows <- rows_of_group(st, keys, i, gv)
    n <- st$n[rows]
    keep <- n > 0
    if (!any(keep)) {
      no_data <<- TRUE
      return(NA_real_)
    }
    frac <- st$loss_sum[rows][keep] / n[keep]
    # weights at any scale; adaptive bins count cases (R/weights-scale.R),
    # as in memory
    sc <- scale_group_weights(n[keep],
      count = calibration_counts_cases(settings)
    )
    if (sc$too_few) {
      few <<- TRUE
      return(NA_real_)
    }
    input <- list(
      confidence = st$score[rows][keep],
      correct = if (from_failure) 1 - frac else frac,
      case_weights = sc$w, weight_exponent = sc$exponent
    )
    attr(calibration_table(input, settings, call), metric)
  }, numeric(1))
  if (no_data) warn_no_data(call = call)
  if (few) warn_calibration_scale(settings, metric, call = call)
  values <- stats::setNames(
    tibble::tibble(value, .coverage = NA_real_), c(metric, ".coverage")
  )
  if (length(gv)) values <- tibble::as_tibble(c(keys[gv], values))
  attr(values, "group_vars") <- gv
  values
}
