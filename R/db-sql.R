# Building blocks of the database forms (DEFINITIONS Sec. 12). dbplyr translates
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

# Runs a query (SQL text, or a lazy query rendered here) and returns all
# its rows: one round trip through DBI::dbSendQuery() and dbFetch()
# (dplyr::collect() on dbplyr's older backend interface, e.g. RPostgreSQL,
# costs extra queries). Nothing the engine does wrong passes silently:
# RPostgreSQL's dbGetQuery() turns a failed query into a warning and NULL
# (a backend terminated mid-query gave a 0-row result), so the statement
# is sent here and every failure, an unfinished fetch or a result that is
# not a table is a classed `aurc_error_database` that keeps the engine's
# message and says whether the connection was lost. `what` names the
# result in the message; `one_row`: an aggregate without GROUP BY, which
# returns exactly one row on every engine.
db_collect <- function(con, q, what = "the query", call = rlang::caller_env(),
                       one_row = FALSE) {
  if (!is.character(q)) q <- dbplyr::sql_render(q, con = con)
  out <- tryCatch(
    withCallingHandlers(db_fetch_all(con, as.character(q)),
      # RSQLite's note on a column of mixed types: the checks of
      # db_check_values() name the argument instead
      # and RClickhouse's note on each unsigned column it returns as a
      # double
      warning = function(w) {
        if (grepl("mixed type|converted from UInt", conditionMessage(w))) {
          invokeRestart("muffleWarning")
        }
      }
    ),
    error = function(e) db_abort(con, what, e, call)
  )
  if (!is.data.frame(out)) {
    db_abort(con, what, simpleError("the driver returned no table"), call)
  }
  # 64-bit integers (RClickhouse's UInt64 and Int64, through bit64, whose
  # as.double() method is then registered) as doubles, as the other
  # drivers return them
  for (j in which(vapply(out, inherits, logical(1), "integer64"))) {
    out[[j]] <- as.double(out[[j]])
  }
  # (RClickhouse adds the engine's column types as an attribute)
  out <- structure(out, data.type = NULL)
  if (one_row && nrow(out) != 1) {
    db_abort(con, what, simpleError(sprintf(
      "an aggregate returned %d rows instead of 1", nrow(out)
    )), call)
  }
  tibble::as_tibble(out)
}

db_fetch_all <- function(con, sql) {
  rs <- DBI::dbSendQuery(con, sql)
  cleared <- FALSE
  on.exit(if (!cleared) try(DBI::dbClearResult(rs), silent = TRUE))
  out <- DBI::dbFetch(rs, n = -1)
  if (!isTRUE(DBI::dbHasCompleted(rs))) {
    stop("the engine returned only part of the rows", call. = FALSE)
  }
  cleared <- TRUE
  DBI::dbClearResult(rs)
  out
}

# The classed error of a failed query: `aurc_error_database_connection`
# when the connection no longer answers (backend terminated, server
# stopped), else `aurc_error_database_query`; both `aurc_error_database`
# (and `aurc_error_engine`, the class of the engine's errors before 0.1.0).
db_abort <- function(con, what, e, call) {
  # RPostgres reconnects by itself, so a lost connection is also told by
  # the engine's message (PostgreSQL's admin shutdown, libpq's lost
  # connection)
  msg <- conditionMessage(e)
  # a query the engine rejected says so in its own words (ClickHouse's
  # "Code: 62. DB::Exception: Syntax error"), also when the driver then
  # drops the connection (RClickhouse does after a server exception): it
  # is the query's error, not a lost server
  rejected <- grepl("DB::Exception|SQLSTATE|syntax error", msg,
    ignore.case = TRUE
  )
  lost <- grepl(paste(
    "terminating connection|server closed the connection|lost connection",
    "connection to server|no connection to the server|connection.*closed",
    "connection reset|connection refused|broken pipe|socket is not",
    sep = "|"
  ), msg, ignore.case = TRUE) || (!rejected && !db_alive(con))
  abort_aurc(
    c(
      if (lost) {
        "Lost the database connection while computing {what}."
      } else {
        "The database engine failed to compute {what}."
      },
      i = if (lost) {
        paste(
          "The server closed the connection (backend terminated or",
          "server stopped); reconnect if the driver has not, and call",
          "again."
        )
      }
    ),
    parent = e,
    class = c(
      if (lost) "aurc_error_database_connection" else
        "aurc_error_database_query",
      "aurc_error_database", "aurc_error_engine"
    ),
    call = call
  )
}

# Whether the connection still answers a trivial query (RPostgreSQL has
# no dbIsValid() method).
db_alive <- function(con) {
  valid <- tryCatch(isTRUE(DBI::dbIsValid(con)), error = function(e) TRUE)
  valid && tryCatch(
    {
      rs <- DBI::dbSendQuery(con, "SELECT 1")
      DBI::dbFetch(rs)
      DBI::dbClearResult(rs)
      TRUE
    },
    error = function(e) FALSE
  )
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
  # ClickHouse: CAST(NULL AS Float64) is an error (a Nullable column holds
  # NULL); toFloat64() keeps NULL and takes every integer and float type
  if (db_is_clickhouse(con)) return(paste0("toFloat64(", x, ")"))
  paste0("CAST(", x, " AS ", db_double_type(con), ")")
}

db_is_clickhouse <- function(con) {
  any(grepl("Clickhouse", class(con), ignore.case = TRUE))
}

# SQLite has no standard natural logarithm: RSQLite's built-in LOG() is
# natural, SQLite's own math functions make LOG() base 10. Check once per
# connection rather than trust either.
check_db_log <- function(con, call) {
  if (!db_is_sqlite(con)) return(invisible())
  value <- tryCatch(
    db_collect(con, "SELECT LOG(2.0) AS x", "LOG(2)", call, one_row = TRUE)$x,
    aurc_error_database_query = function(e) NA_real_
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
  # a driver that quotes through the connection (RPostgres) fails here
  # when the connection is gone: that is said as such
  untranslatable <- function(e) {
    if (probe && !db_alive(con)) db_abort(con, "the columns", e, call)
    abort_aurc("Can't translate the columns of {.arg data} to SQL.",
      parent = e, class = "aurc_error_column", call = call
    )
  }
  out <- tryCatch(
    dplyr::transmute(dplyr::ungroup(tbl), !!!rlang::syms(groups), !!!exprs),
    error = untranslatable
  )
  sql <- tryCatch(dbplyr::sql_render(out, con = con), error = untranslatable)
  weighted <- !is.null(exprs$.aurc_w)
  if (!probe) {
    return(list(
      tbl = out, sql = sql, con = con, groups = groups, args = args,
      weighted = weighted, logical_loss = FALSE, scaled = FALSE
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
    sql <- db_null_nan(con, sql, c(groups, names(exprs)), probe, call)
  }
  list(
    tbl = out, sql = sql, con = con, groups = groups, args = args,
    weighted = weighted, logical_loss = logical_loss, scaled = FALSE
  )
}

# Case weights and losses at any scale in the engine (R/weights-scale.R):
# sums of weights near 1e154 times counts overflow (to Inf in SQLite, to an
# error in PostgreSQL), products near 1e-160 underflow, and sums of losses
# near 1e308 overflow. db_weighted_query() runs a query on the values as
# given; where the largest weight of a group (the checks' `.maxw`) lies
# outside [2^-64, 2^64] or the largest loss (`.maxl`) exceeds huge_loss,
# or the query failed and a MAX() says so, it runs it again on the
# prepared columns of db_scaled_columns(): the engine divides the weights
# of such groups by their largest (a window MAX per group), and every loss
# is multiplied by the power of 2 of R/weights-scale.R (`loss_exponent`,
# whose values R scales back). The window costs 1.7 times the query on
# SQLite, so it is paid only then; values within range are used exactly
# as they are. `.aurc_w0` keeps the weight as given for the input checks;
# the largest weight of each group says by how much the weights were
# divided, so R recovers the counts they stand for where they matter
# (score tables, the exact optimum, adaptive bins: db_weight_scale()).
# Returns list(res, cols): the result of `run(cols)` and the prepared
# columns it ran on (for the queries that follow on the same columns).
db_weighted_query <- function(cols, run, call) {
  if (isTRUE(cols$scaled) || !is.null(cols$loss_exponent)) {
    return(list(res = run(cols), cols = cols))
  }
  res <- tryCatch(run(cols), aurc_error_database_query = function(e) e)
  m <- res
  if (inherits(res, "error")) {
    # the query's own error when the engine cannot even take the maxima
    # (a failing expression of the user's columns)
    m <- tryCatch(db_max_values(cols, call),
      aurc_error_database = function(e) rlang::cnd_signal(res)
    )
  }
  far <- cols$weighted && db_weights_far(m$.maxw)
  e <- loss_scale_exponent(suppressWarnings(as.double(m$.maxl)))
  if (!far && e == 0) {
    if (inherits(res, "error")) rlang::cnd_signal(res)
    return(list(res = res, cols = cols))
  }
  if (far) cols <- db_scaled_columns(cols, call)
  cols$loss_exponent <- e
  list(res = run(cols), cols = cols)
}

# Whether the largest weight of some group lies outside [2^-64, 2^64].
db_weights_far <- function(maxw) {
  maxw <- suppressWarnings(as.double(maxw))
  any(maxw > 0 & (maxw > 2^64 | maxw < 2^-64), na.rm = TRUE)
}

# The largest weight (`.maxw`) and loss (`.maxl`) of each group (one
# aggregate).
db_max_values <- function(cols, call) {
  con <- cols$con
  v <- db_value_sql(cols)
  exprs <- c(.maxl = paste0("MAX(", v$lv, ")"))
  if (cols$weighted) {
    exprs[[".maxw"]] <- paste0("MAX(", v$w, ")")
  }
  db_collect(con, db_select_sql(con, db_ident(con, cols$groups), exprs,
    cols$sql, "q01"
  ), "the largest values", call)
}

db_scaled_columns <- function(cols, call = rlang::caller_env()) {
  cols$sql <- if (db_has_windows(cols$con, call)) {
    db_relative_weights(cols$con, cols$sql, cols$groups)
  } else {
    db_relative_weights_portable(cols$con, cols$sql, cols$groups,
      db_max_values(cols, call)
    )
  }
  cols$scaled <- TRUE
  cols
}

db_relative_weights <- function(con, sql, groups) {
  id <- function(x) db_ident(con, x)
  w <- db_cast(con, id(".aurc_w"))
  over <- if (length(groups)) {
    paste0("OVER (PARTITION BY ", paste(id(groups), collapse = ", "), ")")
  } else {
    "OVER ()"
  }
  keys <- c(id(groups), id(".aurc_s"), id(".aurc_l"))
  inner <- paste0(
    "SELECT ", paste(c(keys, paste0(id(".aurc_w"), " AS ", id(".aurc_w0")),
      paste0("MAX(", w, ") ", over, " AS ", id(".aurc_wmax"))
    ), collapse = ", "),
    "\nFROM (\n", sql, "\n) ", id("q00w")
  )
  w0 <- db_cast(con, id(".aurc_w0"))
  mx <- id(".aurc_wmax")
  far <- paste0(
    mx, " > ", sprintf("%.17e", 2^64), " OR (", mx, " > 0.0 AND ", mx,
    " < ", sprintf("%.17e", 2^-64), ")"
  )
  fields <- c(keys, id(".aurc_w0"), paste0(
    "CASE WHEN ", far, " THEN ", w0, " / ", mx, " ELSE ", w0, " END AS ",
    id(".aurc_w")
  ))
  paste0(
    "SELECT ", paste(fields, collapse = ", "), "\nFROM (\n", inner,
    "\n) ", id("q00x")
  )
}

# NaN is a number in PostgreSQL, DuckDB and Spark SQL (it sorts above
# every other value and equals itself), NA in memory. A score or loss NaN
# becomes NULL, so it follows the NA rules (NA, or dropped by na_rm); a
# weight NaN stays, for the check of db_check_values(). `columns`: the
# output columns of `sql`; `probe`: their R types.
db_null_nan <- function(con, sql, columns, probe,
                        call = rlang::caller_env()) {
  cls <- paste(class(con), collapse = " ")
  is_nan <- if (grepl("Postgre|Pq|Redshift", cls)) {
    function(x) paste0(x, " = CAST('NaN' AS DOUBLE PRECISION)")
  } else if (grepl("duckdb|Spark|Hive", cls, ignore.case = TRUE)) {
    function(x) paste0("isnan(CAST(", x, " AS DOUBLE))")
  } else if (db_is_clickhouse(con)) {
    function(x) paste0("isNaN(toFloat64(", x, "))")
  }
  targets <- intersect(c(".aurc_s", ".aurc_l"), names(probe))
  targets <- targets[vapply(probe[targets], is.double, logical(1))]
  if (is.null(is_nan) || length(targets) == 0) return(sql)
  if (db_is_clickhouse(con)) {
    # ClickHouse groups a Nullable key several times slower (1e7 rows:
    # 6.8 s against 2.9 s): the columns are made Nullable only when one
    # NaN is there, which one aggregate finds (0.8 s)
    ids <- db_ident(con, targets)
    counts <- db_collect(con, db_select_sql(con, character(),
      stats::setNames(paste0("countIf(", is_nan(ids), ")"), targets),
      sql, "q00n", group = FALSE
    ), "the NaN values", call, one_row = TRUE)
    targets <- targets[suppressWarnings(as.double(unlist(counts))) > 0]
    if (length(targets) == 0) return(sql)
  }
  ids <- db_ident(con, columns)
  hit <- columns %in% targets
  ids[hit] <- paste0(
    "CASE WHEN ", is_nan(ids[hit]), " THEN NULL ELSE ", ids[hit], " END AS ",
    ids[hit]
  )
  paste0(
    "SELECT ", paste(ids, collapse = ", "), "\nFROM (\n", sql, "\n) ",
    db_ident(con, "q00")
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
    tryCatch(db_collect(con, q, "the columns", call),
      aurc_error_database_query = function(e) {
        abort_aurc("The engine can't evaluate the columns of {.arg data}.",
          parent = e, class = c("aurc_error_column", "aurc_error_database"),
          call = call
        )
      }
    )
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
    } else if (!is.null(cols$loss_exponent) && cols$loss_exponent != 0) {
      # losses near the largest double times 2^-e (db_weighted_query())
      paste0(db_cast(con, l), " * ", sprintf("%.17e", 2^-cols$loss_exponent))
    } else {
      db_cast(con, l)
    },
    w = if (cols$weighted) db_cast(con, db_ident(con, ".aurc_w")) else NULL,
    # the weight as given, for the checks (db_weighted_query())
    w0 = if (cols$weighted) {
      db_cast(con, db_ident(con, if (isTRUE(cols$scaled)) {
        ".aurc_w0"
      } else {
        ".aurc_w"
      }))
    }
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
  # ClickHouse's COUNT() is unsigned and a difference of counts signed: a
  # CASE over both has no common type there, so both are doubles
  count_as <- if (db_is_clickhouse(con)) {
    function(x) db_cast(con, x)
  } else {
    identity
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
      "CASE WHEN ", v$s, " IS NULL THEN ", count_as("COUNT(*)"),
      " ELSE ", count_as(paste0("COUNT(*) - COUNT(", v$l, ")")), " END"
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
    exprs[[".minw"]] <- paste0("MIN(", v$w0, ")")
    exprs[[".maxw"]] <- paste0("MAX(", v$w0, ")")
    exprs[[".nullw"]] <- paste0("COUNT(*) - COUNT(", v$w0, ")")
  }
  if (db_is_sqlite(con)) {
    # SQLite stores any value in any column: a text or blob where a number
    # belongs is the in-memory type error (it would rank above every number)
    raw <- c(.txt_s = v$s, .txt_l = v$l)
    if (!is.null(v$w)) {
      raw[[".txt_w"]] <- id(if (isTRUE(cols$scaled)) ".aurc_w0" else ".aurc_w")
    }
    exprs <- c(exprs, vapply(raw, function(x) {
      paste0(
        "SUM(CASE WHEN typeof(", x, ") IN ('text', 'blob') THEN 1 ELSE 0 END)"
      )
    }, character(1)))
  }
  db_select_sql(con, c(id(cols$groups), v$s), exprs,
    cols$sql, "q01"
  )
}

db_is_sqlite <- function(con) any(grepl("SQLite", class(con)))

# The check columns of db_score_sql() and how each combines over the score
# rows of a group (`.m`, the incomplete rows, is `.miss` once combined).
db_check_columns <- function(cols, binary = FALSE) {
  out <- c(.m = "SUM", .minl = "MIN", .maxl = "MAX")
  if (binary) out[[".bad"]] <- "SUM"
  if (cols$weighted) out <- c(out, .minw = "MIN", .maxw = "MAX", .nullw = "SUM")
  if (db_is_sqlite(cols$con)) {
    out <- c(out, .txt_s = "SUM", .txt_l = "SUM")
    if (cols$weighted) out[[".txt_w"]] <- "SUM"
  }
  out
}

# The check columns combined over the score rows of a group, as SQL
# aggregates.
db_check_aggregates <- function(cols, binary = FALSE) {
  how <- db_check_columns(cols, binary)
  out <- paste0(how, "(", db_ident(cols$con, names(how)), ")")
  names(out) <- names(how)
  names(out)[names(out) == ".m"] <- ".miss"
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
