# Building blocks of the database forms (SPEC Sec. 12). dbplyr translates
# the user's columns (names or expressions) into a query; the rest is SQL
# text written here (dbplyr's summarise() costs ~20 ms of R time per
# summarised column to render): the per-score table, with the input checks
# folded into the same GROUP BY so the table is read once, window sums and
# one aggregate. The metrics use only GROUP BY, window sums, LN, CASE and
# arithmetic on double-precision values (the equal-mass bins of ece() add
# FLOOR and LAG), so they run on every backend (SQLite, PostgreSQL, DuckDB,
# Spark SQL).

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

# Runs a query (SQL text, or a lazy query rendered here) and returns its
# rows through DBI::dbGetQuery(), one round trip (dplyr::collect() on
# dbplyr's older backend interface, e.g. RPostgreSQL, costs extra queries).
db_collect <- function(con, q) {
  if (!is.character(q)) q <- dbplyr::sql_render(q, con = con)
  tibble::as_tibble(DBI::dbGetQuery(con, as.character(q)))
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

# Quoted identifiers. The backend's quotes are found once per connection
# class (dbplyr's escaping builds S4 objects, ~1 ms a name), then names are
# quoted by doubling the closing quote, as every SQL dialect escapes it.
db_ident <- function(con, name) {
  if (length(name) == 0) return(character())
  key <- paste(class(con), collapse = "/")
  quotes <- db_quote_cache[[key]]
  if (is.null(quotes)) {
    x <- as.character(dbplyr::escape(dbplyr::ident("x"), con = con))
    quotes <- strsplit(x, "x", fixed = TRUE)[[1]]
    if (length(quotes) != 2 || !nzchar(quotes[2])) {
      return(as.character(
        dbplyr::escape(dbplyr::ident(name), collapse = NULL, con = con)
      ))
    }
    db_quote_cache[[key]] <- quotes
  }
  close <- quotes[2]
  paste0(
    quotes[1], gsub(close, strrep(close, 2), name, fixed = TRUE), close
  )
}

db_quote_cache <- new.env(parent = emptyenv())

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
  sql <- tryCatch(dbplyr::sql_render(out, con = con), error = function(e) {
    abort_aurc("Can't translate the columns of {.arg data} to SQL.",
      parent = e, class = "aurc_error_column", call = call
    )
  })
  if (!probe) {
    return(list(
      tbl = out, sql = sql, con = con, groups = groups, args = args,
      weighted = !is.null(exprs$.aurc_w), logical_loss = FALSE
    ))
  }
  probe <- db_probe_columns(out, sql, con, call)
  logical_loss <- FALSE
  if (!is.null(probe)) {
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
    tbl = out, sql = sql, con = con, groups = groups, args = args,
    weighted = !is.null(exprs$.aurc_w), logical_loss = logical_loss
  )
}

# The columns' types without reading the table: a query that returns no
# row (`WHERE 1 = 0`, as dbplyr asks for a query's fields). An engine that
# types results by their values (SQLite, for an expression) returns logical
# for an empty result; then the first complete row decides, as it would in
# memory. Two rows (of NA for the typed empty
# result), or NULL when no row is complete.
db_probe_columns <- function(out, sql, con, call) {
  run <- function(q) {
    tryCatch(db_collect(con, q), error = function(e) {
      abort_aurc("The engine can't evaluate the columns of {.arg data}.",
        parent = e, class = "aurc_error_column", call = call
      )
    })
  }
  probe <- run(paste0(
    "SELECT * FROM (\n", sql, "\n) ", db_ident(con, "q01"), " WHERE 1 = 0"
  ))
  typed <- intersect(c(".aurc_s", ".aurc_l", ".aurc_w"), names(probe))
  if (!any(vapply(probe[typed], is.logical, logical(1)))) {
    return(probe[c(NA_integer_, NA_integer_), , drop = FALSE])
  }
  probe <- run(utils::head(
    dplyr::filter(out, !is.na(.data$.aurc_s), !is.na(.data$.aurc_l)), 1
  ))
  if (nrow(probe) == 0) return(NULL) # no complete row: nothing to check
  # two copies of the row so the message says "a character vector"
  probe[c(1, 1), , drop = FALSE]
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
    w = if (cols$weighted) db_cast(con, db_ident(con, ".aurc_w")) else NULL
  )
}

# One SELECT level: `keys` (quoted columns, also the GROUP BY when
# `group`), then `exprs` (SQL expressions named by their result columns),
# from the query `from`.
db_select_sql <- function(con, keys, exprs, from, alias, where = NULL,
                          group = TRUE) {
  fields <- c(keys, paste0(exprs, " AS ", db_ident(con, names(exprs))))
  paste0(
    "SELECT\n  ", paste(fields, collapse = ",\n  "),
    "\nFROM (\n", from, "\n) ", db_ident(con, alias),
    if (length(where)) paste0("\nWHERE ", paste(where, collapse = " AND ")),
    if (group && length(keys)) {
      paste0("\nGROUP BY ", paste(keys, collapse = ", "))
    }
  )
}

# The per-score table of a prepared lazy table (`db_metric_columns()`) with
# the input checks folded into the same GROUP BY, so the table is read
# once: one row per group and distinct score, the missing score one of
# them. Columns: `.aurc_s`; `.n`, `.l` (weighted count and loss sum of the
# complete rows; 0 for the missing score and for a score without a
# complete row); `.m` (rows with a missing score or loss); `.minl`, `.maxl`
# (loss range); for 0/1 losses (`binary`) `.bad` (other values); with
# weights `.minw`, `.nullw` (weight range, missing weights). Counts are
# COUNT(), not sums of ones, and every check is an aggregate of the same
# pass.
db_score_sql <- function(cols, binary = FALSE) {
  con <- cols$con
  v <- db_value_sql(cols)
  id <- function(x) db_ident(con, x)
  # 0 for the missing score and for scores without a complete row
  zero_if_null <- function(x) {
    paste0(
      "CASE WHEN ", v$s, " IS NULL OR COUNT(", v$l, ") = 0 THEN 0.0 ELSE ",
      x, " END"
    )
  }
  if (is.null(v$w)) {
    n <- db_cast(con, paste0("COUNT(", v$l, ")"))
    l <- paste0("SUM(", v$lv, ")")
  } else {
    n <- paste0("SUM(CASE WHEN ", v$l, " IS NULL THEN 0.0 ELSE ", v$w,
      " END)"
    )
    l <- paste0("SUM(", v$w, " * ", v$lv, ")")
  }
  exprs <- c(
    .n = zero_if_null(n), .l = zero_if_null(l),
    .m = paste0(
      "CASE WHEN ", v$s, " IS NULL THEN COUNT(*) ELSE COUNT(*) - COUNT(",
      v$l, ") END"
    ),
    .minl = paste0("MIN(", v$lv, ")"), .maxl = paste0("MAX(", v$lv, ")")
  )
  if (binary) {
    exprs[[".bad"]] <- paste0(
      "SUM(CASE WHEN ", v$lv, " = 0.0 OR ", v$lv, " = 1.0 OR ", v$l,
      " IS NULL THEN 0 ELSE 1 END)"
    )
  }
  if (!is.null(v$w)) {
    exprs[[".minw"]] <- paste0("MIN(", v$w, ")")
    exprs[[".nullw"]] <- paste0("COUNT(*) - COUNT(", v$w, ")")
  }
  db_select_sql(con, c(id(cols$groups), v$s), exprs,
    cols$sql, "q01"
  )
}

# The check columns of db_score_sql() summed over the score rows of a
# group (`.miss` the incomplete rows), as SQL aggregates.
db_check_aggregates <- function(cols, binary = FALSE) {
  id <- function(x) db_ident(cols$con, x)
  out <- c(
    .miss = paste0("SUM(", id(".m"), ")"),
    .minl = paste0("MIN(", id(".minl"), ")"),
    .maxl = paste0("MAX(", id(".maxl"), ")")
  )
  if (binary) out[[".bad"]] <- paste0("SUM(", id(".bad"), ")")
  if (cols$weighted) {
    out[[".minw"]] <- paste0("MIN(", id(".minw"), ")")
    out[[".nullw"]] <- paste0("SUM(", id(".nullw"), ")")
  }
  out
}

# Adds, per group, the running sums in descending score order to the
# per-score SQL: `.nc` (weighted count with score >= this one), `.lc`
# (their loss); with `totals`, also `.nt` and `.lt`, the group's totals.
# The missing score adds 0 wherever it sorts.
db_running_sql <- function(cols, score_sql, totals = FALSE) {
  id <- function(x) db_ident(cols$con, x)
  partition <- if (length(cols$groups)) {
    paste0("PARTITION BY ", paste(id(cols$groups), collapse = ", "))
  }
  win <- paste0(
    "OVER (", paste(c(partition, "ORDER BY"), collapse = " "), " ",
    id(".aurc_s"), " DESC ROWS UNBOUNDED PRECEDING)"
  )
  exprs <- c(
    .nc = paste0("SUM(", id(".n"), ") ", win),
    .lc = paste0("SUM(", id(".l"), ") ", win)
  )
  if (totals) {
    whole <- paste0("OVER (", paste(partition, collapse = ""), ")")
    exprs <- c(exprs,
      .nt = paste0("SUM(", id(".n"), ") ", whole),
      .lt = paste0("SUM(", id(".l"), ") ", whole)
    )
  }
  db_select_sql(cols$con, "*", exprs, score_sql, "q02", group = FALSE)
}

# Sorts a result by its grouping columns (one row of NA for an empty
# ungrouped result).
db_sort_groups <- function(res, groups) {
  if (length(groups) == 0) {
    if (nrow(res) == 0) res <- res[NA_integer_, ]
    return(res)
  }
  res[do.call(order, unname(as.list(res[groups]))), , drop = FALSE]
}
