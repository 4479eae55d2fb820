# The portable path of the database forms (DEFINITIONS Sec. 12): engines
# without window functions (ClickHouse before 21.x, MySQL before 8.0,
# MariaDB before 10.2, Druid, ...). There the engine computes only GROUP BY
# aggregates, the per-score table with the input checks (db_score_sql())
# and the per-loss table, and every metric is finished in R from that
# score table by the in-memory kernels, which is exact (R/score-table.R).
# The window path (one aggregate over running sums) stays wherever the
# engine has window functions: only one row per group comes back.
#
# Which path: the option `aurc.db_windows` (TRUE, FALSE, or "auto", the
# default); "auto" asks the backends known to lack window functions in
# some versions for their version (one cheap query per connection,
# remembered), and takes the window path on every other backend.

# Whether the window path is used on `con`.
db_has_windows <- function(con, call = rlang::caller_env()) {
  opt <- getOption("aurc.db_windows", "auto")
  if (isTRUE(opt) || isFALSE(opt)) return(opt)
  if (!identical(opt, "auto")) {
    abort_aurc(
      c(
        paste(
          "The option {.code aurc.db_windows} must be {.code TRUE},",
          "{.code FALSE} or {.val auto}."
        ),
        i = "It is {.obj_type_friendly {opt}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  kind <- db_window_kind(con)
  if (is.null(kind)) return(TRUE)
  key <- paste(c(class(con), rlang::obj_address(con)), collapse = "/")
  known <- db_window_cache[[key]]
  if (!is.null(known)) return(known)
  version <- tryCatch(
    as.character(db_collect(con, kind$sql, "the engine's version", call,
      one_row = TRUE
    )[[1]]),
    aurc_error_database_query = function(e) ""
  )
  has <- kind$has(version)
  db_window_cache[[key]] <- has
  has
}

db_window_cache <- new.env(parent = emptyenv())

# The backends whose older versions have no window functions: the query
# that asks for the version and the rule on its answer (NULL: any other
# backend, which has them).
db_window_kind <- function(con) {
  cls <- paste(class(con), collapse = " ")
  if (grepl("Clickhouse", cls, ignore.case = TRUE)) {
    # window functions came with 21.3 (experimental) and were on by
    # default from 21.9; 18.16 (Debian 12) has none
    return(list(sql = "SELECT version() AS v", has = function(v) {
      db_version_at_least(v, c(21, 9))
    }))
  }
  if (grepl("MariaDB|MySQL", cls, ignore.case = TRUE)) {
    return(list(sql = "SELECT VERSION() AS v", has = function(v) {
      if (grepl("mariadb", v, ignore.case = TRUE)) {
        db_version_at_least(v, c(10, 2))
      } else {
        db_version_at_least(v, c(8, 0))
      }
    }))
  }
  NULL
}

# Whether a version string ("18.16.1", "10.6.12-MariaDB") is at least
# `min` (major, minor); an unreadable version counts as old.
db_version_at_least <- function(v, min) {
  parts <- suppressWarnings(as.integer(
    strsplit(sub("^[^0-9]*([0-9.]+).*$", "\\1", v), ".", fixed = TRUE)[[1]]
  ))
  if (length(parts) < 2 || anyNA(parts[1:2])) return(FALSE)
  parts[1] > min[1] || (parts[1] == min[1] && parts[2] >= min[2])
}

# Weights relative to each group's largest without a window MAX
# (db_relative_weights() on the window path): R has the largest weight of
# each group from db_max_values(), and the engine divides by it through a
# CASE over the groups (a group's key as a literal of the backend).
db_relative_weights_portable <- function(con, sql, groups, maxw) {
  id <- function(x) db_ident(con, x)
  w0 <- db_cast(con, id(".aurc_w0"))
  far <- function(m) {
    m <- suppressWarnings(as.double(m))
    !is.na(m) & m > 0 & (m > 2^64 | m < 2^-64)
  }
  mx <- suppressWarnings(as.double(maxw[[".maxw"]]))
  hit <- which(far(mx))
  div <- if (length(hit) == 0) {
    w0
  } else if (length(groups) == 0) {
    paste0(w0, " / ", sprintf("%.17e", mx[hit[1]]))
  } else {
    whens <- vapply(hit, function(i) {
      cond <- vapply(groups, function(g) {
        value <- maxw[[g]][i]
        if (is.na(value)) return(paste(id(g), "IS NULL"))
        paste0(id(g), " = ", as.character(dbplyr::escape(value, con = con)))
      }, character(1))
      paste0(
        "WHEN ", paste(cond, collapse = " AND "), " THEN ", w0, " / ",
        sprintf("%.17e", mx[i])
      )
    }, character(1))
    paste0("CASE ", paste(whens, collapse = " "), " ELSE ", w0, " END")
  }
  keys <- c(id(groups), id(".aurc_s"), id(".aurc_l"))
  inner <- paste0(
    "SELECT ", paste(c(keys, paste0(id(".aurc_w"), " AS ", id(".aurc_w0"))),
      collapse = ", "
    ), "\nFROM (\n", sql, "\n) ", id("q00w")
  )
  paste0(
    "SELECT ", paste(c(keys, id(".aurc_w0"), paste0(div, " AS ",
      id(".aurc_w"))), collapse = ", "),
    "\nFROM (\n", inner, "\n) ", id("q00x")
  )
}
