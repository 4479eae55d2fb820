# The metrics of DEFINITIONS Sec. 2 and 4 on a lazy database table (DEFINITIONS
# Sec. 12).
#
# Internal API (the one entry point, also for a metric registry):
#   metric_db(data, metrics, columns, options, call) -> values # nolint
# `data` a dbplyr `tbl_sql` (grouped or not) or an `aurc_score_table`;
# `metrics` names of `all_metrics`; `columns` a named list of quosures in
# the order score, loss (or failure), case_weights; `options` a list with
# `estimator`, `method`, `optimum`, `coverage`, `risk`, `na_rm` (missing
# entries take the in-memory defaults). Returns the values: a tibble with
# the grouping columns and one column per metric, plus `.coverage` (the
# coverage achieved by risk_at_coverage).
#
# The method: one GROUP BY of the distinct scores (weighted count, loss
# sum), running sums in descending score order (window sums), and one
# aggregate per group holding every metric's closed form over the tie
# groups g (count c_g, loss sum l_g, running count N_g and loss L_g, so
# P_g = N_g - c_g samples lie above the group, N the total):
#   alpha AURC        (1/N) sum_g c_g L_g / N_g
#   alpha_prime       (1/N) sum_g l_g [log(N + 1) - log(P_g + 1)]
#   sele, AUGRC step  (1/N^2) sum_g l_g (N - P_g)
#   trapezoid AURC    (1/N) sum_g c_g [L_g / N_g + (L_g - l_g) / P_g] / 2
#                     (the first group: c_g L_g / N_g, the flat extension)
#   trapezoid AUGRC   (1/N^2) sum_g c_g (2 L_g - l_g) / 2
#   failure AUROC     sum_g l_g [(N_g - L_g) - (c_g - l_g) / 2] / (F K)
#   failure AUPR      sum_g l_g (F - L_g + l_g) / (N - P_g) / F
#   risk at coverage  L_g / N_g at the first g with N_g / N >= coverage
#   coverage at risk  max N_g / N over g with L_g / N_g <= risk
# (F = K = the failures and correct predictions of a 0/1 loss). These are
# the in-memory C++ passes (src/core/aurc.h, augrc.h, failure.h, curve.h)
# written as sums. The exact optimum AURC* of E-AURC and NAURC needs the
# losses in order, so it comes from a second GROUP BY, of the distinct
# losses, whose (small for 0/1 or rounded losses) table is pulled into R.

metric_db <- function(data, metrics, columns, options = list(),
                      call = rlang::caller_env()) {
  options <- db_options(options)
  if (inherits(data, "aurc_score_table")) {
    return(score_table_metrics(data, metrics, columns, options, call))
  }
  if (db_needs_score_table(metrics, options) ||
    !db_has_windows(db_con(data), call)) {
    # not sums the engine can form, or an engine without window functions
    # (R/db-portable.R): the engine groups the rows by score (one row per
    # distinct score comes back), the kernels do the rest
    st <- score_table_db(data, columns, call,
      binary = db_needs_binary(metrics, options)
    )
    return(score_table_metrics(st, metrics, columns, options, call,
      warn_columns = FALSE
    ))
  }
  binary <- db_needs_binary(metrics, options)
  cols <- db_metric_columns(data, columns, call)
  if (any(c("aurc", "eaurc", "naurc", "auarc", "prr") %in% metrics) &&
    options$estimator == "alpha_prime") {
    check_db_log(cols$con, call)
  }
  done <- db_weighted_query(cols, function(cols) {
    db_collect(cols$con,
      db_metric_query(cols, metrics, db_loss_options(options, cols)),
      "the metrics", call,
      one_row = length(cols$groups) == 0
    )
  }, call)
  res <- done$res
  cols <- done$cols
  if (isTRUE(cols$scaled) && identical(options$estimator, "alpha_prime") &&
    any(metrics %in% c("aurc", "eaurc", "naurc", "auarc", "prr"))) {
    # the "alpha_prime" weights count cases, and the engine divided the
    # weights: the counts they stand for, from the score table
    st <- score_table_db(data, columns, call,
      binary = db_needs_binary(metrics, options)
    )
    return(score_table_metrics(st, metrics, columns, options, call,
      warn_columns = FALSE
    ))
  }
  # one row per group of the table, also one whose rows are all incomplete
  res <- db_sort_groups(res, cols$groups)
  db_check_values(res, cols, binary, call)
  optimum <- NULL
  if (("eaurc" %in% metrics && options$optimum == "exact") ||
    any(c("naurc", "prr") %in% metrics)) {
    optimum <- db_loss_table(cols, call)
  }
  values <- db_metric_values(res, metrics, db_loss_options(options, cols),
    cols$groups, optimum, call
  )
  # losses scaled in the engine (db_weighted_query()): the values back
  e <- cols$loss_exponent %||% 0
  if (e != 0) {
    values[metrics] <- as.data.frame(unscale_loss_values(
      as.matrix(values[metrics]), metrics, e, call
    ))
  }
  values
}

# The options of the engine's query when it scaled the losses by 2^-e:
# the risk of coverage at risk is a loss and scales with them.
db_loss_options <- function(options, cols) {
  e <- cols$loss_exponent %||% 0
  if (e != 0 && !is.null(options$risk)) {
    options$risk <- times_pow2(options$risk, -e)
  }
  options
}

# Whether the metrics are computed from the score table of the engine's
# GROUP BY (one row per distinct score, with the in-memory kernels) rather
# than by one aggregate: those whose registry entry has no SQL of its own
# with these options (metric_has_sql()).
db_needs_score_table <- function(metrics, options) {
  !all(vapply(metrics, metric_has_sql, logical(1), options))
}

# Whether the metrics need 0/1 losses.
db_needs_binary <- function(metrics, options) {
  any(metrics %in% binary_metrics) ||
    ("eaurc" %in% metrics && options$optimum == "asymptotic")
}

# The SQL of the metrics, one statement and one pass over the table:
# GROUP BY score (with the input checks), window sums, aggregate.
db_metric_query <- function(cols, metrics, options) {
  binary <- db_needs_binary(metrics, options)
  totals <- any(c("failure_aupr", "risk_at_coverage", "coverage_at_risk") %in%
    metrics)
  running <- db_running_sql(cols, db_score_sql(cols, binary), totals = totals)
  exprs <- c(
    db_aggregate(metrics, options, cols$con),
    db_check_aggregates(cols, binary)
  )
  dbplyr::sql(db_select_sql(cols$con, db_ident(cols$con, cols$groups),
    exprs, running, "q03"
  ))
}

db_options <- function(options) {
  defaults <- list(
    estimator = "alpha", method = "trapezoid", optimum = "exact",
    coverage = 0.5, risk = 0.5, na_rm = FALSE
  )
  options <- options[!vapply(options, is.null, logical(1))]
  utils::modifyList(defaults, options)
}

# The final aggregate: the sums of the closed forms, as SQL expressions
# over the rows of db_running_sql() (named by their result columns).
db_aggregate <- function(metrics, options, con) {
  id <- function(x) db_ident(con, x)
  n <- id(".n")
  l <- id(".l")
  nc <- id(".nc")
  lc <- id(".lc")
  prev <- paste0("(", nc, " - ", n, ")")
  pos <- function(x, otherwise = "0.0") {
    paste0("CASE WHEN ", n, " > 0 THEN ", x, " ELSE ", otherwise, " END")
  }
  need <- function(...) any(c(...) %in% metrics)
  est <- options$estimator
  exprs <- list(
    .N = paste0("SUM(", n, ")"), .L = paste0("SUM(", l, ")")
  )
  if (need("aurc", "eaurc", "naurc", "auarc", "prr")) {
    exprs$.aurc <- paste0("SUM(", switch(est,
      alpha = pos(paste0(n, " * ", lc, " / ", nc)),
      alpha_prime = "0.0", # replaced below
      sele = ,
      `2sele` = paste0(l, " * ", prev),
      trapezoid = pos(paste0(
        n, " * CASE WHEN ", prev, " > 0 THEN 0.5 * (", lc, " / ", nc,
        " + (", lc, " - ", l, ") / ", prev, ") ELSE ", lc, " / ", nc, " END"
      ))
    ), ")")
    if (est == "alpha_prime") {
      # dbplyr writes the natural logarithm of each backend
      exprs$.aurc <- paste0(
        "SUM(", l, " * ", db_log(con, paste0(prev, " + 1.0")), ")"
      )
    }
  }
  if (need("augrc", "eaugrc")) {
    if (options$method == "step" && !"eaugrc" %in% metrics) {
      exprs$.augrc <- paste0("SUM(", l, " * ", prev, ")")
    } else {
      exprs$.augrc <- paste0("SUM(", n, " * (2.0 * ", lc, " - ", l, "))")
      if (options$method == "step") {
        exprs$.augrc_step <- paste0("SUM(", l, " * ", prev, ")")
      }
    }
  }
  if (need("failure_auroc")) {
    exprs$.auroc <- paste0(
      "SUM(", l, " * ((", nc, " - ", lc, ") - 0.5 * (", n, " - ", l, ")))"
    )
  }
  if (need("failure_aupr")) {
    exprs$.aupr <- paste0(
      "SUM(CASE WHEN ", n, " > 0 AND ", l, " > 0 THEN ", l, " * (",
      id(".lt"), " - ", lc, " + ", l, ") / (", id(".nt"), " - ", prev,
      ") ELSE 0.0 END)"
    )
  }
  if (need("risk_at_coverage")) {
    cv <- format(options$coverage, digits = 17)
    first <- paste0(
      n, " > 0 AND ", nc, " / ", id(".nt"), " >= ", cv, " AND NOT (",
      prev, " / ", id(".nt"), " >= ", cv, ")"
    )
    exprs$.rac <- paste0(
      "MAX(CASE WHEN ", first, " THEN ", lc, " / ", nc, " END)"
    )
    exprs$.achieved <- paste0(
      "MAX(CASE WHEN ", first, " THEN ", nc, " / ", id(".nt"), " END)"
    )
  }
  if (need("coverage_at_risk")) {
    rk <- format(options$risk, digits = 17)
    exprs$.car <- paste0(
      "MAX(CASE WHEN ", n, " > 0 AND ", lc, " / ", nc, " <= ", rk, " THEN ",
      nc, " / ", id(".nt"), " ELSE 0.0 END)"
    )
  }
  unlist(exprs)
}

# The natural logarithm of a backend (dbplyr writes LN or LOG).
db_log <- function(con, x) {
  fn <- as.character(
    dbplyr::translate_sql(log(!!dbplyr::sql("<x>")), con = con)
  )
  sub("<x>", x, fn, fixed = TRUE)
}

# The checks of the in-memory forms, on the engine's aggregates.
db_check_values <- function(res, cols, binary, call, range = FALSE) {
  args <- cols$args
  num <- function(x) suppressWarnings(as.double(x))
  # text or blob values (SQLite): the in-memory type error
  for (j in seq_along(args)) {
    n_txt <- sum(num(res[[paste0(".txt_", c("s", "l", "w")[j])]]),
      na.rm = TRUE
    )
    if (n_txt > 0) {
      abort_aurc(
        c(
          "{.arg {args[j]}} must be a numeric column.",
          x = "The engine found {n_txt} text or blob value{?s} in it."
        ),
        class = "aurc_error_type", call = call
      )
    }
  }
  # an infinite or NaN weight is the largest (NaN sorts above every number
  # in PostgreSQL and DuckDB)
  maxw <- num(res[[".maxw"]])
  if (any(num(res[[".nullw"]]) > 0, na.rm = TRUE) ||
    any(num(res[[".minw"]]) < 0, na.rm = TRUE) ||
    any(is.infinite(maxw) | is.nan(maxw))) {
    bad <- if (any(num(res[[".nullw"]]) > 0, na.rm = TRUE)) {
      NA
    } else if (any(is.nan(maxw))) {
      NaN
    } else if (any(is.infinite(maxw))) {
      Inf
    } else {
      min(num(res[[".minw"]]), na.rm = TRUE)
    }
    abort_aurc(
      c(
        "{.arg case_weights} must be finite and non-negative.",
        x = "The engine found the value {.val {bad}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  minl <- suppressWarnings(min(num(res[[".minl"]]), na.rm = TRUE))
  maxl <- suppressWarnings(max(num(res[[".maxl"]]), na.rm = TRUE))
  # a quality (prr(), auarc()) reaches the engine as the loss 1 - quality
  if (identical(args[2], "quality") && (minl < 0 || maxl > 1)) {
    shown <- if (minl < 0) 1 - minl else 1 - maxl
    abort_aurc(
      c(
        "{.arg quality} must lie in [0, 1] (higher = better).",
        x = "The engine found the value {.val {shown}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (minl < 0 || (is.finite(minl) && is.infinite(maxl))) {
    shown <- if (minl < 0) minl else maxl
    abort_aurc(
      c(
        "{.arg {args[2]}} must be finite and non-negative.",
        x = "The engine found the value {.val {shown}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  n_bad <- sum(num(res[[".bad"]]), na.rm = TRUE)
  if (binary && n_bad > 0) {
    abort_aurc(
      c(
        paste(
          "{.arg {args[2]}} must contain only 0 and 1",
          "(or {.code FALSE}/{.code TRUE})."
        ),
        x = paste(
          "The engine found {n_bad} other",
          "value{?s}."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (range) {
    mins <- suppressWarnings(min(num(res[[".mins"]]), na.rm = TRUE))
    maxs <- suppressWarnings(max(num(res[[".maxs"]]), na.rm = TRUE))
    if (mins < 0 || maxs > 1) {
      shown <- if (mins < 0) mins else maxs
      abort_aurc(
        c(
          "{.arg {args[1]}} must lie in [0, 1].",
          x = "The engine found the value {.val {shown}}."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  invisible()
}

# Per-loss table (grouping columns, `loss`, `n`) of the complete rows,
# pulled into R for the exact optimum (a message when it is large).
db_loss_table <- function(cols, call) {
  con <- cols$con
  v <- db_value_sql(cols)
  n <- if (is.null(v$w)) db_cast(con, "COUNT(*)") else paste0("SUM(", v$w, ")")
  keys <- db_ident(con, cols$groups)
  sql <- db_select_sql(con, keys, c(loss = v$lv, n = n),
    cols$sql, "q01",
    where = paste(c(v$s, v$l), "IS NOT NULL"), group = FALSE
  )
  sql <- paste0(sql, "\nGROUP BY ", paste(c(keys, v$lv), collapse = ", "))
  out <- db_collect(con, sql, "the per-loss table", call)
  if (nrow(out) > db_pull_limit) {
    cli::cli_inform(c(
      i = paste(
        "Pulled {format(nrow(out), big.mark = ',')} distinct losses",
        "into R for the exact optimum of E-AURC/NAURC."
      )
    ), class = "aurc_message_pull")
  }
  out
}

# Tables with more rows than this are pulled with a message.
db_pull_limit <- 1e5

# AURC* of each group from its per-loss table (loss, n): the in-memory
# oracle, through the C++ engine with the counts as case weights. The
# counts are n * 2^shift cases (db_weight_scale()) and follow the count
# rule of R/weights-scale.R: NA with attribute `too_few` below one case.
oracle_from_losses <- function(loss, n, estimator, shift = 0) {
  keep <- n > 0
  loss <- as.double(loss[keep])
  n <- as.double(n[keep])
  if (length(loss) == 0) return(NA_real_)
  sc <- scale_group_weights(n, count = TRUE, shift = shift)
  if (sc$too_few) return(structure(NA_real_, too_few = TRUE))
  v <- metrics_impl(-loss, loss, sc$w, c("aurc", "eaurc"), estimator,
    "trapezoid", "exact", 0.5, 0.5
  )$values
  v[[1]] - v[[2]]
}

# One value per group and metric from the aggregates, with the NA rules
# and warnings of the in-memory forms.
db_metric_values <- function(res, metrics, options, groups, optimum, call) {
  num <- function(x) {
    x <- suppressWarnings(as.double(x))
    x[is.na(x)] <- 0
    x
  }
  N <- num(res$.N) # nolint: object_name_linter
  L <- num(res$.L) # nolint: object_name_linter
  na <- num(res$.miss) > 0 & !options$na_rm
  empty <- !na & !(N > 0)
  if (any(empty)) warn_no_data(call = call)
  est <- options$estimator
  aurc_value <- function() {
    s <- num(res$.aurc)
    switch(est,
      alpha = s / N,
      alpha_prime = (L * log(N + 1) - s) / N,
      sele = (N * L - s) / N^2,
      `2sele` = 2 * (N * L - s) / N^2,
      trapezoid = s / N
    )
  }
  group_rows <- function(i) {
    rows <- rep(TRUE, nrow(optimum))
    for (g in groups) {
      rows <- rows & vapply(optimum[[g]], identical, logical(1), res[[g]][i])
    }
    rows
  }
  # the counts the engine's weights stand for (db_relative_weights());
  # below one case the metrics that count cases are NA (R/weights-scale.R)
  scale <- db_weight_scale(res[[".maxw"]] %||% rep(0, nrow(res)))
  few <- N > 0 & log2(N * scale$mult) + scale$shift < log2(1 - 1e-9)
  oracle_value <- function() {
    vapply(seq_len(nrow(res)), function(i) {
      rows <- group_rows(i)
      v <- oracle_from_losses(optimum$loss[rows],
        as.double(optimum$n[rows]) * scale$mult[i], est, scale$shift[i]
      )
      if (isTRUE(attr(v, "too_few"))) few[i] <<- TRUE
      as.numeric(v)
    }, numeric(1))
  }
  # a constant loss leaves NAURC and PRR undefined; tested on the distinct
  # losses (the rows of the per-loss table), not on a denominator that
  # rounding leaves a hair above 0 (a loss of 0.7 everywhere)
  varying_loss <- function() {
    vapply(seq_len(nrow(res)), function(i) {
      rows <- group_rows(i)
      sum(num(optimum$n[rows]) > 0) > 1
    }, logical(1))
  }
  mean_loss <- L / N
  augrc_trap <- function() num(res$.augrc) / (2 * N^2)
  out <- list()
  for (m in metrics) {
    v <- switch(m,
      aurc = aurc_value(),
      augrc = if (options$method == "step") {
        nm <- if (".augrc_step" %in% names(res)) ".augrc_step" else ".augrc"
        step <- res[[nm]]
        (N * L - num(step)) / N^2
      } else {
        augrc_trap()
      },
      failure_auroc = num(res$.auroc) / (L * (N - L)),
      failure_aupr = num(res$.aupr) / L,
      eaurc = aurc_value() - if (options$optimum == "asymptotic") {
        err <- mean_loss
        ifelse(err == 1, 1, err + (1 - err) * log1p(-pmin(err, 1)))
      } else {
        oracle_value()
      },
      eaugrc = augrc_trap() - 0.5 * mean_loss^2,
      naurc = ,
      prr = {
        star <- oracle_value()
        denom <- mean_loss - star
        v <- ifelse(denom > 0 & varying_loss(),
          (aurc_value() - star) / denom, NaN
        )
        if (m == "prr") 1 - v else v
      },
      auarc = 1 - aurc_value(),
      risk_at_coverage = num(res$.rac),
      coverage_at_risk = num(res$.car)
    )
    v[na | empty] <- NA_real_
    if (count_metrics(m, options$optimum, est)) {
      # weights totalling less than one case (warned once below)
      v[few] <- NA_real_
      na_few <- few & !na & !empty
    } else {
      na_few <- FALSE
    }
    undefined <- (is.nan(v) | (!na & !empty & is.na(v))) & !na_few
    if (m %in% c("failure_auroc", "failure_aupr")) {
      undefined <- undefined | (!na & !empty & (!(L > 0) | !(N - L > 0)))
    }
    if (any(undefined)) {
      warn_metric_undefined(m, call = call, no_data = FALSE)
      v[undefined] <- NA_real_
    }
    out[[m]] <- v
  }
  counted <- count_metrics(metrics, options$optimum, est)
  if (any(few & !na & !empty) && any(counted)) {
    warn_oracle_scale(metrics[counted], est, call = call)
  }
  achieved <- if (".achieved" %in% names(res)) {
    num(res[[".achieved"]])
  } else {
    NA_real_
  }
  achieved[na | empty] <- NA_real_
  values <- tibble::as_tibble(out)
  values$.coverage <- rep_len(achieved, nrow(values))
  if (length(groups)) values <- tibble::as_tibble(c(res[groups], values))
  attr(values, "group_vars") <- groups
  values
}

# Long form (the data-frame forms): grouping columns, `.metric`,
# `.estimator`, `.estimate`, one row per group and metric in the order of
# `metrics`.
db_long <- function(values, metrics, labels, groups) {
  k <- length(metrics)
  rows <- rep(seq_len(nrow(values)), each = k)
  out <- tibble::tibble(
    .metric = rep(metrics, nrow(values)),
    .estimator = rep(labels, nrow(values)),
    .estimate = as.numeric(t(as.matrix(values[metrics])))
  )
  if (length(groups)) {
    out <- tibble::as_tibble(c(values[rows, groups, drop = FALSE], out))
  }
  out
}
