# Special values inside the engine give the in-memory outcome (issue 25):
# PostgreSQL's 'NaN' and 'Infinity' (NaN is a number there, sorting above
# every other one), SQLite's text and blob values in a numeric column.

# A table of literal SQL values (character vectors, one per column) on
# `con`, as a lazy table: INSERT keeps 'NaN' and 'Infinity' exactly.
sql_values_table <- function(con, name, cols, type) {
  if (DBI::dbExistsTable(con, name)) DBI::dbRemoveTable(con, name)
  DBI::dbExecute(con, paste0(
    "CREATE TABLE ", name, " (",
    paste(names(cols), type, collapse = ", "), ")"
  ))
  rows <- do.call(paste, c(unname(cols), sep = ", "))
  DBI::dbExecute(con, paste0(
    "INSERT INTO ", name, " VALUES ", paste0("(", rows, ")", collapse = ", ")
  ))
  suppressWarnings(dplyr::tbl(con, name))
}

special_base <- function() {
  withr::with_seed(5, {
    n <- 40
    list(
      s = round(stats::runif(n), 2), l = stats::rbinom(n, 1, 0.4),
      w = sample(1:3, n, replace = TRUE), c = round(stats::runif(n, .3, 1), 2)
    )
  })
}

# The value of every metric family on the database table equals the
# in-memory one on `df` (values or the same NA rule).
expect_special_matches <- function(t, df, info) {
  same <- function(a, b) {
    expect_equal(as.data.frame(a), as.data.frame(b), tolerance = 1e-10,
      info = info
    )
  }
  for (na_rm in c(FALSE, TRUE)) {
    m <- c("aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc")
    same(
      suppressWarnings(selective_metrics(t, s, l, metrics = m, na_rm = na_rm,
        case_weights = w
      )),
      suppressWarnings(selective_metrics(df, s, l, metrics = m,
        na_rm = na_rm, case_weights = w
      ))
    )
    for (bn in c("adaptive", "equal_width")) {
      same(
        suppressWarnings(ece(t, c, k, binning = bn, na_rm = na_rm)),
        suppressWarnings(ece(df, c, k, binning = bn, na_rm = na_rm))
      )
    }
  }
  a <- rc_curve(t, s, l, na_rm = TRUE)
  b <- rc_curve(df, s, l, na_rm = TRUE)
  expect_equal(a$selective_risk, b$selective_risk, tolerance = 1e-12,
    info = info
  )
  expect_equal(a$threshold, b$threshold, info = info)
}

test_that("PostgreSQL 'NaN' and 'Infinity' behave as NaN and Inf in memory", {
  con <- pg_con()
  b <- special_base()
  lit <- function(x) format(x, digits = 17)
  cases <- list(
    score_nan = list(s = c(3, 17), v = "'NaN'", r = NaN),
    loss_nan = list(l = c(2, 30), v = "'NaN'", r = NaN),
    conf_nan = list(c = c(4, 9), v = "'NaN'", r = NaN),
    score_inf = list(s = c(1, 8), v = c("'Infinity'", "'-Infinity'"),
      r = c(Inf, -Inf)
    )
  )
  for (nm in names(cases)) {
    cs <- cases[[nm]]
    col <- intersect(names(cs), c("s", "l", "c"))
    df <- data.frame(b)
    df[[col]][cs[[col]]] <- cs$r
    df$k <- 1 - df$l
    cols <- lapply(b, lit)
    cols[[col]][cs[[col]]] <- cs$v
    cols$k <- lit(1 - b$l)
    if (col == "l") cols$k[cs$l] <- cs$v
    t <- sql_values_table(con, "special", cols, "DOUBLE PRECISION")
    expect_special_matches(t, df, nm)
  }
  # weights: Inf and NaN are the in-memory error
  for (v in c("'Infinity'", "'NaN'")) {
    cols <- lapply(b, lit)
    cols$k <- lit(1 - b$l)
    cols$w[7] <- v
    t <- sql_values_table(con, "special", cols, "DOUBLE PRECISION")
    df <- data.frame(b)
    df$w[7] <- if (v == "'NaN'") NaN else Inf
    for (f in list(aurc, failure_auroc, augrc)) {
      expect_error(f(df, s, l, case_weights = w), class = "aurc_error_value")
      err <- expect_error(f(t, s, l, case_weights = w),
        class = "aurc_error_value"
      )
      expect_match(conditionMessage(err), "case_weights")
      expect_match(conditionMessage(err), if (v == "'NaN'") "NaN" else "Inf")
    }
    expect_error(ece(t, c, k, case_weights = w), class = "aurc_error_value")
    expect_error(rc_curve(t, s, l, case_weights = w),
      class = "aurc_error_value"
    )
  }
})

test_that("SQLite text and blob values in a numeric column are type errors", {
  con <- sqlite_con()
  b <- special_base()
  lit <- function(x) format(x, digits = 17)
  for (col in c("s", "l", "w")) {
    for (v in c("'high'", "x'00ff'")) {
      cols <- lapply(b, lit)
      cols$k <- lit(1 - b$l)
      cols[[col]][5] <- v
      t <- sql_values_table(con, "special", cols, "REAL")
      arg <- c(s = "score", l = "loss", w = "case_weights")[[col]]
      for (f in list(aurc, failure_auroc)) {
        err <- expect_error(f(t, s, l, case_weights = w),
          class = "aurc_error_type", info = paste(col, v)
        )
        expect_match(conditionMessage(err), "text or blob")
      }
      expect_error(rc_curve(t, s, l, case_weights = w),
        class = "aurc_error_type"
      )
      # in memory: a character column is the same classed error
      df <- data.frame(b, k = 1 - b$l)
      df[[col]] <- as.character(df[[col]])
      expect_error(aurc(df, s, l, case_weights = w),
        class = "aurc_error_type"
      )
    }
  }
  # confidences for ece()
  cols <- lapply(b, lit)
  cols$k <- lit(1 - b$l)
  cols$c[3] <- "'x'"
  t <- sql_values_table(con, "special", cols, "REAL")
  for (bn in c("adaptive", "equal_width", "equal_mass")) {
    expect_error(ece(t, c, k, binning = bn), class = "aurc_error_type")
  }
  # infinite scores stored by SQLite rank as in memory
  cols <- lapply(b, lit)
  cols$k <- lit(1 - b$l)
  cols$s[c(2, 9)] <- c("9e999", "-9e999")
  t <- sql_values_table(con, "special", cols, "REAL")
  df <- data.frame(b, k = 1 - b$l)
  df$s[c(2, 9)] <- c(Inf, -Inf)
  expect_special_matches(t, df, "sqlite inf")
})
