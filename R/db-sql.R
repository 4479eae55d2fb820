# Building blocks of the database forms (SPEC Sec. 12): the per-score
# table of a lazy table, built with dbplyr verbs and a few SQL fragments so
# that it translates on every backend (SQLite, PostgreSQL, DuckDB, Spark
# SQL). Every fragment uses only GROUP BY, window sums, LN, CASE and
# arithmetic on double-precision values.

is_db_table <- function(x) inherits(x, "tbl_sql")

check_db_packages <- function(call) {
  for (pkg in c("dbplyr", "dplyr", "DBI")) {
    if (!requireNamespace(pkg, quietly = TRUE)) {
      abort_aurc(
        "Package {.pkg {pkg}} is needed for a lazy database table.",
        class = "aurc_error_package", call = call
      )
    }
  }
}

db_con <- function(tbl) dbplyr::remote_con(tbl)

# Runs a lazy query and returns its rows: the rendered SQL through
# DBI::dbGetQuery(), one round trip (dplyr::collect() on dbplyr's older
# backend interface, e.g. RPostgreSQL, costs extra queries).
db_collect <- function(q) {
  con <- dbplyr::remote_con(q)
  tibble::as_tibble(DBI::dbGetQuery(con, dbplyr::sql_render(q, con = con)))
}

# The double-precision type name of a backend (dbplyr 2.3.0 casts
# `as.double()` to NUMERIC on PostgreSQL, which is exact decimal arithmetic
# and slow).
db_double_type <- function(con) {
  cls <- class(con)
  if (any(grepl("SQLite", cls))) return("REAL")
  if (any(grepl("Postgre|Pq|Redshift", cls))) return("DOUBLE PRECISION")
  "DOUBLE"
}

db_ident <- function(con, name) {
  as.character(dbplyr::escape(dbplyr::ident(name), con = con))
}

db_cast <- function(con, x) {
  paste0("CAST(", x, " AS ", db_double_type(con), ")")
}

# SQLite has no standard natural logarithm: RSQLite's built-in LOG() is
# natural, SQLite's own math functions make LOG() base 10. Check once per
# connection rather than trust either.
check_db_log <- function(con, call) {
  if (!any(grepl("SQLite", class(con)))) return(invisible())
  value <- tryCatch(
    DBI::dbGetQuery(con, "SELECT LOG(2.0) AS x")$x,
    error = function(e) NA_real_
  )
  if (!isTRUE(abs(value - log(2)) < 1e-12)) {
    abort_aurc(
      c(
        "This SQLite connection has no natural logarithm {.code LOG()}.",
        i = paste(
          "The {.val alpha_prime} estimator needs it; use another",
          "estimator, or {.fn RSQLite::initExtension} on the connection."
        )
      ),
      class = "aurc_error_engine", call = call
    )
  }
  invisible()
}

# The columns of a metric as a lazy table with `.aurc_s` (score), `.aurc_l`
# (loss) and `.aurc_w` (weight, 1 when not given), after the grouping
# columns. `columns`: named list of quosures (score, loss, case_weights, in
# that order, whatever their names). Checks that bare names exist and that
# the types are those the in-memory form accepts, from one row (`probe =
# FALSE` skips that query: a simulated connection cannot run it).
db_metric_columns <- function(tbl, columns, call, probe = TRUE) {
  check_db_packages(call)
  con <- db_con(tbl)
  args <- names(columns)
  vars <- colnames(tbl)
  groups <- dplyr::group_vars(tbl)
  exprs <- list()
  for (j in seq_along(columns)) {
    quo <- columns[[j]]
    if (rlang::quo_is_null(quo) || rlang::quo_is_missing(quo)) {
      if (j < 3) {
        abort_aurc("{.arg {args[j]}} is missing.",
          class = "aurc_error_column", call = call
        )
      }
      next
    }
    expr <- rlang::quo_get_expr(quo)
    if (rlang::is_string(expr)) {
      quo <- rlang::quo_set_expr(quo, rlang::sym(expr))
    }
    expr <- rlang::quo_get_expr(quo)
    if (rlang::is_symbol(expr) && !rlang::as_string(expr) %in% vars) {
      abort_aurc(
        c(
          "Can't find {.arg {args[j]}} in {.arg data}.",
          x = "The table has no column {.field {rlang::as_string(expr)}}.",
          i = paste(
            "Give a column name of {.arg data} or an expression of its",
            "columns."
          )
        ),
        class = "aurc_error_column", call = call
      )
    }
    exprs[[c(".aurc_s", ".aurc_l", ".aurc_w")[j]]] <- quo
  }
  out <- tryCatch(
    dplyr::transmute(dplyr::ungroup(tbl), !!!rlang::syms(groups), !!!exprs),
    error = function(e) {
      abort_aurc("Can't translate the columns of {.arg data} to SQL.",
        parent = e, class = "aurc_error_column", call = call
      )
    }
  )
  if (!probe) {
    return(list(
      tbl = out, con = con, groups = groups, args = args,
      weighted = !is.null(exprs$.aurc_w), logical_loss = FALSE
    ))
  }
  probe <- tryCatch(
    db_collect(utils::head(
      dplyr::filter(out, !is.na(.data$.aurc_s), !is.na(.data$.aurc_l)), 1
    )),
    error = function(e) {
      abort_aurc("The engine can't evaluate the columns of {.arg data}.",
        parent = e, class = "aurc_error_column", call = call
      )
    }
  )
  logical_loss <- FALSE
  if (nrow(probe) > 0) {
    # two copies of the row so the message says "a character vector"
    probe <- probe[c(1, 1), , drop = FALSE]
    check_numeric_vector(probe$.aurc_s, args[1], call = call)
    check_numeric_vector(probe$.aurc_l, args[2], allow_logical = TRUE,
      call = call
    )
    logical_loss <- is.logical(probe$.aurc_l)
    if (".aurc_w" %in% names(probe)) {
      check_numeric_vector(probe$.aurc_w, args[3], call = call)
    }
  }
  list(
    tbl = out, con = con, groups = groups, args = args,
    weighted = !is.null(exprs$.aurc_w), logical_loss = logical_loss
  )
}

# Loss and weight values as SQL fragments of a prepared table.
db_value_sql <- function(cols) {
  con <- cols$con
  l <- db_ident(con, ".aurc_l")
  list(
    s = db_ident(con, ".aurc_s"), l = l,
    lv = if (cols$logical_loss) {
      paste0("CASE WHEN ", l, " THEN 1.0 WHEN NOT ", l, " THEN 0.0 END")
    } else {
      db_cast(con, l)
    },
    w = if (cols$weighted) db_cast(con, db_ident(con, ".aurc_w")) else "1.0"
  )
}

# Per-score table of a prepared lazy table (`db_metric_columns()`), grouped
# by the grouping columns: `.aurc_s`, `.n` (weighted count) and `.l`
# (weighted loss sum) of the complete rows. Only two sums, so the engine's
# hash aggregate stays as narrow as a plain `GROUP BY score`.
db_score_groups <- function(cols) {
  v <- db_value_sql(cols)
  q <- dplyr::filter(cols$tbl, !is.na(.data$.aurc_s), !is.na(.data$.aurc_l))
  q <- dplyr::group_by(q, !!!rlang::syms(c(cols$groups, ".aurc_s")))
  dplyr::summarise(q,
    .n = sum(!!dbplyr::sql(v$w), na.rm = TRUE),
    .l = sum(!!dbplyr::sql(paste0(v$w, " * ", v$lv)), na.rm = TRUE),
    .groups = "drop_last"
  )
}

# The checks of the in-memory forms in one aggregate per group (no GROUP BY
# of the scores): `.miss` (rows with a missing score or loss), `.minl`,
# `.maxl` (loss range); for 0/1 losses (`binary`) `.bad` (other values);
# with weights `.minw`, `.nullw` (weight range, missing weights); for
# calibration (`range`) `.mins`, `.maxs` (score range). Only what is
# needed, as every aggregate costs a pass over the rows.
db_check_query <- function(cols, binary = FALSE, range = FALSE) {
  v <- db_value_sql(cols)
  f <- function(x) dbplyr::sql(x)
  exprs <- list(
    .miss = f(paste0(
      "SUM(CASE WHEN ", v$s, " IS NOT NULL AND ", v$l, " IS NOT NULL ",
      "THEN 0 ELSE 1 END)"
    )),
    .minl = f(paste0("MIN(", v$lv, ")")),
    .maxl = f(paste0("MAX(", v$lv, ")"))
  )
  if (binary) {
    exprs$.bad <- f(paste0(
      "SUM(CASE WHEN ", v$lv, " = 0.0 OR ", v$lv, " = 1.0 OR ", v$l,
      " IS NULL THEN 0 ELSE 1 END)"
    ))
  }
  if (cols$weighted) {
    exprs$.minw <- f(paste0("MIN(", v$w, ")"))
    exprs$.nullw <- f(paste0(
      "SUM(CASE WHEN ", v$w, " IS NULL THEN 1 ELSE 0 END)"
    ))
  }
  if (range) {
    exprs$.mins <- f(paste0("MIN(", v$s, ")"))
    exprs$.maxs <- f(paste0("MAX(", v$s, ")"))
  }
  q <- dplyr::group_by(cols$tbl, !!!rlang::syms(cols$groups))
  dplyr::summarise(q, !!!exprs, .groups = "drop")
}

# Runs the checks: the per-group table (sorted by the groups), after the
# classed errors of the in-memory forms.
db_run_checks <- function(cols, binary, call, range = FALSE) {
  query <- db_check_query(cols, binary = binary, range = range)
  checks <- tryCatch(db_collect(query), error = function(e) {
    abort_aurc("The engine failed to check the columns.",
      parent = e, class = "aurc_error_engine", call = call
    )
  })
  checks <- db_sort_groups(tibble::as_tibble(checks), cols$groups)
  db_check_values(checks, cols, binary, call)
  checks
}

# Index in `res` of each group of `checks` (NA where `res` lacks it).
match_groups <- function(checks, res, gv) {
  if (length(gv) == 0) return(if (nrow(res)) 1L else NA_integer_)
  vapply(seq_len(nrow(checks)), function(i) {
    hit <- which(rows_of_group(res, checks, i, gv))
    if (length(hit)) hit[1] else NA_integer_
  }, integer(1))
}

# Adds, per group, the running sums in descending score order: `.nc`
# (weighted count with score >= this one), `.lc` (their loss); with
# `totals`, also `.nt` and `.lt`, the group's totals.
db_running_sums <- function(score_groups, totals = FALSE) {
  q <- score_groups
  if (totals) {
    q <- dplyr::mutate(q,
      .nt = sum(.data$.n, na.rm = TRUE), .lt = sum(.data$.l, na.rm = TRUE)
    )
  }
  q <- dbplyr::window_order(q, dplyr::desc(.data$.aurc_s))
  q <- dplyr::mutate(q, .nc = cumsum(.data$.n), .lc = cumsum(.data$.l))
  dbplyr::window_order(q)
}
