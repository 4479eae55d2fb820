# The conformance matrix (issue 33): every metric of the registry x every
# form metric_info() claims for it x edge inputs. A cell passes when it
#   * equals the metric's `_vec` form (to 1e-12 relative), or
#   * is NA with a classed warning (class aurc_warning) where the `_vec`
#     form is NA with one, or
#   * is a classed error (class aurc_error) that names an argument.
# Nothing unclassed, nothing Inf or NaN silently. The matrix is generated
# from metric_info(), so a metric added to the registry is checked here
# without a line of this file changing.

# The options every form gets (the targets some metrics need).
conformance_options <- list(
  coverage = 0.5, risk = 0.3, coverage_range = c(0.2, 0.9)
)

# Edge inputs: score, loss (as the metric reads it: a loss, a 0/1 failure
# or a quality), case weights, and whether NA rows are to be removed.
conformance_inputs <- function(input) {
  set.seed(33)
  n <- 40
  s <- round(stats::runif(n), 1) # ties
  f <- stats::rbinom(n, 1, 0.2 + 0.6 * (1 - s))
  l <- f * round(stats::rexp(n), 1)
  # weights of few bits, so that every power of 2 below keeps them exact
  w <- round(stats::runif(n, 0.5, 3) * 4) / 4
  as_input <- function(failure, loss) {
    switch(input, failure = failure, quality = pmin(1, pmax(0, 1 - loss)),
      loss
    )
  }
  na_s <- replace(s, c(3, 17), NA)
  list(
    ties = list(score = s, loss = as_input(f, l)),
    weights = list(score = s, loss = as_input(f, l), case_weights = w),
    na_removed = list(score = na_s, loss = as_input(f, l), na_rm = TRUE),
    na_kept = list(score = na_s, loss = as_input(f, l)),
    one_row = list(score = 0.7, loss = as_input(1, 1)),
    one_class = list(score = s, loss = as_input(rep(0, n), rep(0, n))),
    constant = list(score = s, loss = as_input(rep(1, n), rep(0.7, n))),
    constant_score = list(score = rep(0.5, n), loss = as_input(f, l)),
    zero_weight = list(score = s, loss = as_input(f, l),
      case_weights = replace(w, 1:10, 0)
    ),
    # weights at the ends of the double range (exact powers of 2 apart
    # from `weights`): subnormal, tiny, huge
    weights_subnormal = list(score = s, loss = as_input(f, l),
      case_weights = w * 2^-1064
    ),
    weights_tiny = list(score = s, loss = as_input(f, l),
      case_weights = w * 2^-997
    ),
    weights_huge = list(score = s, loss = as_input(f, l),
      case_weights = w * 2^664
    ),
    weights_largest = list(score = s, loss = as_input(f, l),
      case_weights = w * 2^996
    ),
    # losses near the largest double (a loss metric only)
    losses_huge = if (input == "loss") {
      list(score = s, loss = l * 2^1018)
    }
  )
}

# The weight edges and their scale against `weights`.
conformance_weight_scales <- c(
  weights_subnormal = 2^-1064, weights_tiny = 2^-997, weights_huge = 2^664,
  weights_largest = 2^996
)

# Runs `expr`, recording its value, the classes of its warnings and its
# error (muffled).
conformance_run <- function(expr) {
  warnings <- list()
  value <- withCallingHandlers(
    tryCatch(expr, error = function(e) e),
    warning = function(w) {
      warnings[[length(warnings) + 1]] <<- w
      invokeRestart("muffleWarning")
    },
    message = function(m) invokeRestart("muffleMessage")
  )
  list(value = value, warnings = warnings)
}

# Checks one cell against the reference (the `_vec` form's run). `na_input`:
# the input holds NA and na_rm is FALSE, whose value is NA without a
# warning (DEFINITIONS Sec. 10, as yardstick and mean() do).
expect_conformant <- function(cell, ref, label, na_input = FALSE) {
  all_classed <- all(vapply(cell$warnings, inherits, logical(1),
    "aurc_warning"))
  expect(all_classed, paste0(label, ": an unclassed warning: ",
    paste(vapply(cell$warnings, conditionMessage, ""), collapse = " | ")))
  if (inherits(cell$value, "error")) {
    expect(inherits(cell$value, "aurc_error"),
      paste0(label, ": unclassed error: ", conditionMessage(cell$value)))
    return(invisible())
  }
  v <- cell$value
  expect(is.numeric(v) && length(v) == 1,
    paste0(label, ": not one number"))
  expect(!is.nan(v) && !is.infinite(v), paste0(label, ": ", v, " silently"))
  if (na_input) {
    expect(is.na(v), paste0(label, ": ", v, " from NA input with na_rm = FALSE"))
    return(invisible())
  }
  if (is.na(v)) {
    expect(length(cell$warnings) > 0,
      paste0(label, ": NA without a classed warning"))
  }
  r <- ref$value
  if (inherits(r, "error") || is.na(r)) {
    expect(is.na(v) || inherits(r, "error"),
      paste0(label, ": ", v, " where the _vec form is NA"))
    return(invisible())
  }
  expect(!is.na(v), paste0(label, ": NA where the _vec form is ", r))
  if (!is.na(v)) {
    expect(abs(v - r) <= 1e-12 * max(1, abs(r)),
      paste0(label, ": ", format(v, digits = 17), " differs from the _vec form ",
        format(r, digits = 17))
    )
  }
}

# The forms of one metric, each a function of one edge input returning a
# number.
conformance_forms <- function(metric, info, pg = NULL) {
  opts <- conformance_options
  vec <- getExportedValue("aurc", paste0(metric, "_vec"))
  loss_arg <- names(formals(vec))[2]
  takes <- intersect(names(opts), names(formals(vec)))
  call_vec <- function(x) {
    args <- c(list(x$score, x$loss), opts[takes],
      list(na_rm = isTRUE(x$na_rm), case_weights = x$case_weights))
    do.call(vec, args)
  }
  frame <- function(x) {
    data.frame(s = x$score, l = x$loss,
      w = if (is.null(x$case_weights)) 1 else x$case_weights)
  }
  w_arg <- function(x) if (is.null(x$case_weights)) NULL else quote(w)
  df_call <- function(fn, data, x, extra = list()) {
    args <- c(list(data, quote(s), quote(l)), opts[takes], extra,
      list(na_rm = isTRUE(x$na_rm), case_weights = w_arg(x)))
    names(args)[3] <- loss_arg
    do.call(fn, args)
  }
  forms <- list(
    vec = call_vec,
    data_frame = function(x) {
      df_call(getExportedValue("aurc", metric), frame(x), x)$.estimate
    },
    grouped = function(x) {
      d <- frame(x)
      # the rows of a second group are those of the first: both equal
      d2 <- rbind(cbind(g = 1, d), cbind(g = 2, d))
      res <- df_call(getExportedValue("aurc", metric),
        dplyr::group_by(d2, g), x)
      stopifnot(identical(res$.estimate[1], res$.estimate[2]) ||
        all(is.na(res$.estimate)))
      res$.estimate[1]
    },
    selective_metrics = function(x) {
      loss <- if (info$input == "quality") 1 - x$loss else x$loss
      do.call(selective_metrics_vec, c(list(x$score, loss, metrics = metric),
        opts, list(na_rm = isTRUE(x$na_rm), case_weights = x$case_weights)
      ))$.estimate
    },
    correct = function(x) {
      # the outcome by name as a correctness (1 = right), where it is 0/1
      if (!all(x$loss %in% c(0, 1, NA))) stop("not a 0/1 outcome")
      ok <- if (info$input == "quality") x$loss else 1 - x$loss
      args <- c(list(x$score), opts[takes],
        list(correct = ok, na_rm = isTRUE(x$na_rm),
          case_weights = x$case_weights))
      do.call(vec, args)
    },
    correct_sqlite = function(x) {
      if (!all(x$loss %in% c(0, 1, NA))) stop("not a 0/1 outcome")
      d <- frame(x)
      d$ok <- if (info$input == "quality") d$l else 1 - d$l
      con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
      on.exit(DBI::dbDisconnect(con))
      DBI::dbWriteTable(con, "t", d)
      args <- c(list(dplyr::tbl(con, "t"), quote(s)), opts[takes],
        list(correct = quote(ok), na_rm = isTRUE(x$na_rm),
          case_weights = w_arg(x)))
      do.call(getExportedValue("aurc", metric), args)$.estimate
    },
    metric_with = function(x) {
      loss <- if (info$input == "quality") 1 - x$loss else x$loss
      bound <- do.call(metric_with, c(list(metric), opts[takes]))
      selective_metrics_vec(x$score, loss,
        metrics = list(bound, "aurc"), na_rm = isTRUE(x$na_rm),
        case_weights = x$case_weights
      )$.estimate[1]
    },
    sqlite = function(x) {
      con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
      on.exit(DBI::dbDisconnect(con))
      DBI::dbWriteTable(con, "t", frame(x))
      df_call(getExportedValue("aurc", metric), dplyr::tbl(con, "t"),
        x)$.estimate
    },
    score_table = function(x) {
      st <- if (info$input == "quality") {
        score_table(frame(x), s, quality = l,
          case_weights = if (is.null(x$case_weights)) NULL else w
        )
      } else {
        score_table(frame(x), s, l,
          case_weights = if (is.null(x$case_weights)) NULL else w
        )
      }
      args <- c(list(st), opts[takes], list(na_rm = isTRUE(x$na_rm)))
      do.call(getExportedValue("aurc", metric), args)$.estimate
    },
    postgres = function(x) {
      name <- paste0("conf_", metric)
      DBI::dbWriteTable(pg, name, frame(x), overwrite = TRUE,
        row.names = FALSE
      )
      # (dbplyr's own notice about RPostgreSQL's interface is not ours)
      withCallingHandlers(
        df_call(getExportedValue("aurc", metric), dplyr::tbl(pg, name),
          x)$.estimate,
        warning = function(w) {
          if (grepl("old dbplyr interface", conditionMessage(w))) {
            invokeRestart("muffleWarning")
          }
        }
      )
    },
    bootstrap_interval = function(x) {
      loss <- if (info$input == "quality") 1 - x$loss else x$loss
      args <- c(list(x$score, loss, metrics = metric, method = "bootstrap",
        times = 20), opts, list(na_rm = isTRUE(x$na_rm),
        case_weights = x$case_weights))
      do.call(selective_ci_vec, args)$.estimate
    },
    analytic_interval = function(x) {
      loss <- if (info$input == "quality") 1 - x$loss else x$loss
      args <- c(list(x$score, loss, metrics = metric, method = "analytic"),
        opts, list(na_rm = isTRUE(x$na_rm), case_weights = x$case_weights))
      do.call(selective_ci_vec, args)$.estimate
    },
    bootstrap_ranking = function(x) {
      loss <- if (info$input == "quality") 1 - x$loss else x$loss
      if (!is.null(x$case_weights) || isTRUE(x$na_rm)) {
        stop("no weights or NA rule") # not a form of the ranking
      }
      n <- length(x$score)
      d <- data.frame(method = rep(c("a", "b"), each = n),
        case = rep(seq_len(n), 2), score = c(x$score, rev(x$score)),
        loss = c(loss, loss))
      bound <- do.call(metric_with, c(list(metric), opts[takes]))
      rk <- bootstrap_ranking(d, method, case, score, loss,
        metrics = list(m = bound), times = 5)
      rk$ranking$full_value[rk$ranking$method == "a"]
    }
  )
  forms
}

test_that("the conformance matrix holds for every registry metric", {
  skip_on_cran()
  skip_if_not_installed("dplyr")
  # PostgreSQL where the test setup has a server (helper-db.R); on CI a
  # missing server fails there
  pg <- NULL
  params <- pg_start()
  if (!is.null(params)) {
    pg <- pg_connect(params)
    if (inherits(pg, "error")) pg <- NULL
  }
  if (!is.null(pg)) withr::defer(DBI::dbDisconnect(pg))
  use_pg <- !is.null(pg)
  info <- metric_info()
  info <- info[info$family == "selective", ]
  cells <- 0
  for (k in seq_len(nrow(info))) {
    metric <- info$metric[k]
    forms <- conformance_forms(metric, info[k, ], pg)
    # the forms every registry metric has, and those metric_info() claims
    claimed <- c("vec", "data_frame", "grouped", "metric_with", "correct",
      intersect(names(forms), names(info)[unlist(info[k, ]) %in% TRUE]))
    claimed <- unique(claimed)
    if (isTRUE(info$database[k])) {
      claimed <- c(claimed, "score_table")
      if (requireNamespace("RSQLite", quietly = TRUE)) {
        claimed <- c(claimed, "sqlite", "correct_sqlite")
      }
      if (use_pg) claimed <- c(claimed, "postgres")
    }
    inputs <- conformance_inputs(info$input[k])
    for (edge in names(inputs)) {
      x <- inputs[[edge]]
      if (is.null(x)) next
      ref <- conformance_run(forms$vec(x))
      if (edge %in% names(conformance_weight_scales)) {
        # the vector form at this scale: the value at `weights` for a
        # scale-free metric, that or NA with a classed warning for one
        # that counts cases
        base <- conformance_run(forms$vec(inputs$weights))
        label <- paste(metric, "vec", edge, "against weights", sep = " / ")
        # (with the options used here: the default estimator and optimum)
        if (!aurc:::count_metrics(metric)) {
          expect(info$weights[k] != "counts",
            paste(metric, "is scale-free but metric_info() says it counts"))
          expect_conformant(ref, base, label)
        } else {
          # counts: NA with a classed warning below one case, else a value
          expect_conformant(ref, ref, label)
        }
      }
      for (form in setdiff(claimed, "vec")) {
        if (form == "bootstrap_ranking" &&
          (!is.null(x$case_weights) || isTRUE(x$na_rm))) next
        if (form %in% c("correct", "correct_sqlite") &&
          !all(x$loss %in% c(0, 1, NA))) next
        cell <- conformance_run(forms[[form]](x))
        # an interval of one row or of one class has no spread, but its
        # estimate is the metric's
        expect_conformant(cell, ref, paste(metric, form, edge, sep = " / "),
          na_input = edge == "na_kept"
        )
        cells <- cells + 1
      }
    }
  }
  expect_gt(cells, 500)
})

test_that("a form metric_info() denies is a classed error", {
  skip_on_cran()
  info <- metric_info()
  s <- c(0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
  l <- c(0, 0, 1, 0, 1, 1)
  for (k in seq_len(nrow(info))) {
    m <- info$metric[k]
    if (!info$selective_metrics[k]) {
      expect_error(selective_metrics_vec(s, l, metrics = m),
        class = "aurc_error", info = m
      )
    }
    if (!info$bootstrap_interval[k]) {
      expect_error(selective_ci_vec(s, l, metrics = m, method = "bootstrap",
        times = 5), class = "aurc_error", info = m)
    }
    if (!info$analytic_interval[k] && info$bootstrap_interval[k]) {
      expect_error(selective_ci_vec(s, l, metrics = m, method = "analytic",
        coverage = 0.5, risk = 0.3), class = "aurc_error", info = m)
    }
    if (!info$bootstrap_ranking[k]) {
      d <- data.frame(method = rep(c("a", "b"), each = 6),
        case = rep(1:6, 2), score = c(s, rev(s)), loss = c(l, l))
      expect_error(bootstrap_ranking(d, method, case, score, loss,
        metrics = m, times = 5), class = "aurc_error", info = m)
    }
    if (!info$selective_power[k]) {
      expect_error(selective_power(
        data.frame(a = s, b = rev(s), l = l), c("a", "b"), l, metric = m,
        n = 100
      ), class = "aurc_error", info = m)
    }
  }
})

# The same matrix for the metrics outside the registry whose forms
# metric_info() claims beyond the vector form: the balanced metrics (with
# the classes, `truth`) and the binned calibration errors (confidence and
# correctness). Each form equals the vector form, or is NA with a classed
# warning, or a classed error.
test_that("the conformance matrix holds for the balanced and binned calibration metrics", {
  skip_on_cran()
  skip_if_not_installed("dplyr")
  skip_if_not_installed("RSQLite")
  info <- metric_info(c("aurc_ba", "augrc_ba", "ece", "mce"))
  set.seed(35)
  n <- 60
  conf <- round(stats::runif(n, 0.3, 1), 1)
  f <- stats::rbinom(n, 1, 1 - conf)
  y <- factor(sample(c("a", "b", "c"), n, replace = TRUE))
  w <- round(stats::runif(n, 0.5, 3) * 4) / 4
  edges <- list(
    ties = list(s = conf, f = f),
    weights = list(s = conf, f = f, w = w),
    na_removed = list(s = replace(conf, 4, NA), f = f, na_rm = TRUE),
    one_class = list(s = conf, f = rep(0, n)),
    one_row = list(s = 0.8, f = 1),
    weights_tiny = list(s = conf, f = f, w = w * 2^-997),
    weights_huge = list(s = conf, f = f, w = w * 2^664)
  )
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(DBI::dbDisconnect(con))
  cells <- 0
  for (k in seq_len(nrow(info))) {
    m <- info$metric[k]
    balanced <- info$family[k] == "balanced"
    vec <- getExportedValue("aurc", paste0(m, "_vec"))
    fn <- getExportedValue("aurc", m)
    for (edge in names(edges)) {
      x <- edges[[edge]]
      nn <- length(x$s)
      yy <- y[seq_len(nn)]
      d <- data.frame(s = x$s, f = x$f, ok = 1 - x$f, y = yy,
        w = if (is.null(x$w)) 1 else x$w, g = 1)
      cw <- if (is.null(x$w)) NULL else quote(w)
      nr <- isTRUE(x$na_rm)
      # equal-width bins: the adaptive ones count cases (metric_info())
      opts <- if (balanced) list() else list(binning = "equal_width")
      ref <- conformance_run(if (balanced) {
        vec(x$s, x$f, yy, na_rm = nr, case_weights = x$w)
      } else {
        do.call(vec, c(list(x$s, 1 - x$f), opts,
          list(na_rm = nr, case_weights = x$w)))
      })
      df_call <- function(data, by_loss = FALSE) {
        args <- if (balanced) {
          list(data, quote(s), quote(f), quote(y))
        } else if (by_loss) {
          c(list(data, quote(s), loss = quote(f)), opts)
        } else {
          c(list(data, quote(s), quote(ok)), opts)
        }
        do.call(fn, c(args, list(na_rm = nr, case_weights = cw)))$.estimate
      }
      forms <- list(
        data_frame = function() df_call(d),
        grouped = function() df_call(dplyr::group_by(d, g)),
        by_loss = if (!balanced) function() df_call(d, by_loss = TRUE),
        sqlite = function() {
          DBI::dbWriteTable(con, "t", d, overwrite = TRUE)
          df_call(dplyr::tbl(con, "t"))
        },
        bootstrap_interval = if (!nr) function() {
          args <- list(x$s, x$f, metrics = m, method = "bootstrap",
            times = 10, case_weights = x$w)
          if (balanced) args$truth <- yy else args$binning <- "equal_width"
          do.call(selective_ci_vec, args)$.estimate
        }
      )
      forms <- Filter(Negate(is.null), forms)
      for (form in names(forms)) {
        cell <- conformance_run(forms[[form]]())
        expect_conformant(cell, ref, paste(m, form, edge, sep = " / "))
        cells <- cells + 1
      }
      if (edge %in% c("weights_tiny", "weights_huge")) {
        base <- conformance_run(if (balanced) {
          vec(conf, f, y, case_weights = w)
        } else {
          do.call(vec, c(list(conf, 1 - f), opts, list(case_weights = w)))
        })
        expect_conformant(ref, base, paste(m, "vec", edge, "against weights",
          sep = " / "))
      }
    }
  }
  expect_gt(cells, 100)
})

# The same for the other calibration summaries with a vector form (the
# smooth ECE, CORP's miscalibration, ICI, E50, E90, Emax, the calibration
# slope and intercept): the data-frame, grouped and `loss =` forms, the
# bootstrap interval, the analytic interval where metric_info() claims one,
# and compare_scores(), over the edge inputs (weights at both ends of the
# double range included; the summaries that count cases are NA with a
# classed warning below one case, the others equal their value at
# ordinary weights).
test_that("the conformance matrix holds for the other calibration summaries", {
  skip_on_cran()
  skip_if_not_installed("dplyr")
  info <- metric_info()
  info <- info[info$family == "calibration" & info$vec &
    !info$metric %in% c("ece", "mce"), ]
  expect_true(all(c("ici", "calibration_slope", "smooth_ece") %in%
    info$metric))
  set.seed(36)
  n <- 60
  conf <- round(stats::runif(n, 0.5, 1), 2)
  ok <- stats::rbinom(n, 1, conf^1.5)
  w <- round(stats::runif(n, 0.5, 3) * 4) / 4
  edges <- list(
    ties = list(s = conf, ok = ok),
    weights = list(s = conf, ok = ok, w = w),
    na_removed = list(s = replace(conf, 4, NA), ok = ok, na_rm = TRUE),
    one_class = list(s = conf, ok = rep(1, n)),
    one_row = list(s = 0.8, ok = 1),
    constant_score = list(s = rep(0.7, n), ok = ok),
    weights_subnormal = list(s = conf, ok = ok, w = w * 2^-1064),
    weights_tiny = list(s = conf, ok = ok, w = w * 2^-997),
    weights_huge = list(s = conf, ok = ok, w = w * 2^664)
  )
  cells <- 0
  for (k in seq_len(nrow(info))) {
    m <- info$metric[k]
    vec <- getExportedValue("aurc", paste0(m, "_vec"))
    fn <- getExportedValue("aurc", m)
    for (edge in names(edges)) {
      x <- edges[[edge]]
      nr <- isTRUE(x$na_rm)
      d <- data.frame(s = x$s, s2 = x$s, ok = x$ok, f = 1 - x$ok,
        w = if (is.null(x$w)) 1 else x$w, g = 1)
      cw <- if (is.null(x$w)) NULL else quote(w)
      ref <- conformance_run(vec(x$s, x$ok, na_rm = nr, case_weights = x$w))
      df_call <- function(data, by_loss = FALSE) {
        args <- if (by_loss) {
          list(data, quote(s), loss = quote(f))
        } else {
          list(data, quote(s), quote(ok))
        }
        do.call(fn, c(args, list(na_rm = nr, case_weights = cw)))$.estimate
      }
      ci <- function(method) {
        function() {
          selective_ci_vec(x$s, correct = x$ok, metrics = m,
            method = method, times = 10, na_rm = nr, case_weights = x$w
          )$.estimate
        }
      }
      forms <- list(
        data_frame = function() df_call(d),
        grouped = function() df_call(dplyr::group_by(d, g)),
        by_loss = function() df_call(d, by_loss = TRUE),
        bootstrap_interval = ci("bootstrap"),
        analytic_interval = if (info$analytic_interval[k]) ci("analytic"),
        compare_scores = function() {
          cmp <- do.call(compare_scores, list(d, quote(c(s, s2)),
            correct = quote(ok), metric = m, method = "bootstrap",
            times = 10, na_rm = nr, case_weights = cw
          ))
          cmp$estimates$estimate[1]
        }
      )
      forms <- Filter(Negate(is.null), forms)
      for (form in names(forms)) {
        cell <- conformance_run(forms[[form]]())
        expect_conformant(cell, ref, paste(m, form, edge, sep = " / "))
        cells <- cells + 1
      }
      if (grepl("^weights_", edge) && info$weights[k] == "scale_free") {
        base <- conformance_run(vec(conf, ok, case_weights = w))
        expect_conformant(ref, base, paste(m, "vec", edge, "against weights",
          sep = " / "))
      }
    }
  }
  expect_gt(cells, 300)
})

# The same for the AUSE (family "regression") and the LLM metrics (family
# "llm"), whose vector forms have their own arguments (an uncertainty, a
# quality, a threshold): every form metric_info() claims (the intervals,
# compare_scores(), compare_groups() and the AUSE's data-frame forms) over
# the edge inputs. The grid's weights do not fit the metrics that take
# none (metric_info()$weights == "none"): there every weighted cell must
# be an error of class aurc_error_weights that names `case_weights`; and
# torch-uncertainty's AUSE counts rows, so its non-whole weights are a
# classed error in the vector form and every other.
test_that("the conformance matrix holds for the regression and LLM metrics", {
  skip_on_cran()
  skip_if_not_installed("dplyr")
  info <- metric_info()
  info <- info[info$family %in% c("regression", "llm"), ]
  expect_setequal(info$metric, c("ause", "rank_calibration_error",
    "spearman", "kendall", "quality_auroc", "quality_aupr"))
  set.seed(37)
  n <- 40
  s <- round(stats::runif(n), 1)
  q <- round(pmin(1, pmax(0, 0.4 + 0.4 * s + stats::rnorm(n, sd = 0.2))), 1)
  e <- round(abs(stats::rnorm(n, sd = 1.1 - s)), 1)
  w <- round(stats::runif(n, 0.5, 3) * 4) / 4
  edges <- function(y, is_error) {
    list(
      ties = list(s = s, y = y),
      weights = list(s = s, y = y, w = w),
      whole_weights = list(s = s, y = y, w = round(w + 0.5)),
      na_removed = list(s = replace(s, c(3, 17), NA), y = y, na_rm = TRUE),
      na_kept = list(s = replace(s, c(3, 17), NA), y = y),
      one_row = list(s = 0.7, y = y[1]),
      constant_score = list(s = rep(0.5, n), y = y),
      constant_outcome = list(s = s, y = rep(if (is_error) 0 else 0.8, n)),
      zero_weight = list(s = s, y = y, w = replace(w, 1:10, 0)),
      weights_subnormal = list(s = s, y = y, w = w * 2^-1064),
      weights_tiny = list(s = s, y = y, w = w * 2^-997),
      weights_huge = list(s = s, y = y, w = w * 2^664),
      losses_huge = if (is_error) list(s = s, y = e * 2^1018)
    )
  }
  # (metric, options) variants: the AUSE in both definitions
  variants <- list(
    list(m = "ause", o = list(definition = "ilg")),
    list(m = "ause", o = list(definition = "torch_uncertainty")),
    list(m = "rank_calibration_error", o = list()),
    list(m = "spearman", o = list()),
    list(m = "kendall", o = list()),
    list(m = "quality_auroc", o = list(threshold = 0.6)),
    list(m = "quality_aupr", o = list(threshold = 0.6))
  )
  vec <- function(m, o, x) {
    nr <- isTRUE(x$na_rm)
    switch(m,
      ause = ause_vec(-x$s, x$y, definition = o$definition, na_rm = nr,
        case_weights = x$w
      ),
      rank_calibration_error = rank_calibration_error_vec(x$s, x$y,
        na_rm = nr
      ),
      spearman = , kendall = uncertainty_correlation_vec(x$s, x$y,
        method = m, na_rm = nr
      ),
      quality_auroc = quality_auroc_vec(x$s, x$y, o$threshold, na_rm = nr,
        case_weights = x$w
      ),
      quality_aupr = quality_aupr_vec(x$s, x$y, o$threshold, na_rm = nr,
        case_weights = x$w
      )
    )
  }
  cells <- 0
  for (v in variants) {
    m <- v$m
    k <- match(m, info$metric)
    is_error <- info$input[k] == "loss"
    unweighted <- info$weights[k] == "none"
    for (edge in names(edges(if (is_error) e else q, is_error))) {
      x <- edges(if (is_error) e else q, is_error)[[edge]]
      if (is.null(x)) next
      nr <- isTRUE(x$na_rm)
      d <- data.frame(s = x$s, s2 = x$s, y = x$y,
        w = if (is.null(x$w)) 1 else x$w)
      cw <- if (is.null(x$w)) NULL else quote(w)
      outcome <- if (is_error) list(quote(y)) else list(quality = quote(y))
      ref <- conformance_run(if (unweighted && !is.null(x$w)) {
        stop("no weights") # (refused below)
      } else {
        vec(m, v$o, x)
      })
      ci <- function(method) {
        function() {
          do.call(selective_ci_vec, c(list(x$s),
            if (is_error) list(x$y) else list(quality = x$y),
            list(metrics = m, method = method, na_rm = nr,
              case_weights = x$w),
            if (method == "bootstrap") list(times = 10), v$o
          ))$.estimate
        }
      }
      forms <- list(
        bootstrap_interval = ci("bootstrap"),
        analytic_interval = if (info$analytic_interval[k]) ci("analytic"),
        data_frame_interval = function() {
          do.call(selective_ci, c(list(d, quote(s)), outcome,
            list(metrics = m, method = "bootstrap", times = 10, na_rm = nr,
              case_weights = cw), v$o))$.estimate
        },
        compare_scores = function() {
          do.call(compare_scores, c(list(d, quote(c(s, s2))), outcome,
            list(metric = m, method = "bootstrap", times = 10, na_rm = nr,
              case_weights = cw), v$o))$estimates$estimate[1]
        },
        compare_scores_analytic = if (info$analytic_interval[k]) function() {
          do.call(compare_scores, c(list(d, quote(c(s, s2))), outcome,
            list(metric = m, na_rm = nr, case_weights = cw),
            v$o))$estimates$estimate[1]
        },
        compare_groups = function() {
          d2 <- rbind(cbind(g = 1, d), cbind(g = 2, d))
          do.call(compare_groups, c(list(d2, quote(s)), outcome,
            list(group = quote(g), metric = m, method = "bootstrap",
              times = 10, na_rm = nr, case_weights = cw),
            v$o))$groups$estimate[1]
        },
        # the data-frame form with its own arguments (the AUSE takes the
        # uncertainty; a metric without weights has no `case_weights`)
        data_frame = if (info$data_frame[k] &&
          !(unweighted && !is.null(x$w))) function() {
          fn <- getExportedValue("aurc", m)
          args <- c(
            list(d, if (is_error) quote(s2) else quote(s), quote(y)),
            v$o, list(na_rm = nr),
            if (!unweighted) list(case_weights = cw)
          )
          if (is_error) d$s2 <- -d$s
          args[[1]] <- d
          do.call(fn, args)$.estimate
        }
      )
      forms <- Filter(Negate(is.null), forms)
      for (form in names(forms)) {
        cell <- conformance_run(forms[[form]]())
        label <- paste(m, v$o$definition, form, edge, sep = " / ")
        if (unweighted && !is.null(x$w)) {
          # refused: a classed error naming the argument
          expect(inherits(cell$value, "aurc_error_weights") &&
            grepl("case_weights", conditionMessage(cell$value)),
            paste(label, ": weights not refused"))
        } else {
          expect_conformant(cell, ref, label, na_input = edge == "na_kept")
        }
        cells <- cells + 1
      }
    }
  }
  expect_gt(cells, 400)
})
