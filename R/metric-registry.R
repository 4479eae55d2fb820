# The metric registry: one entry per selective-classification metric, from
# which every form of the metric is made (the `_vec` form, the data-frame
# form with groups, selective_metrics(), the yardstick metrics of
# metric-yardstick.R, and later forms such as intervals or database tables).
# A metric is described once here; its forms read the entry.
#
# Internal API (for the forms, present and future):
# * metric_names()                      all metric names, in registry order
# * metric_entry(name)                   the entry of one metric (see below)
# * metric_option_info(option)          default and validator of an option
# * check_metric_options(names, values, call)
#                                       validates the options the metrics use
# * metric_estimator_label(name, opts)  the `.estimator` of a result row
# * metric_needs_failure(name, opts)    TRUE when the metric needs a 0/1 loss
# * metrics_by_group(score, loss, case_weights, rows, metrics, opts, na_rm,
#                    loss_arg, call)    evaluates any set of metrics on any
#                                       number of groups in one C++ call
# * group_columns(cols, rows, na_rm)    rows ordered by group, NA rule applied
# * metric_vec_form(), metric_df_form() the bodies of the exported forms
# * metric_form_formals(name, data)     the formals those forms must have
#                                       (checked by test-metric-registry.R)
#
# Adding a metric: a kernel in metrics_impl()/metrics_grouped_impl()
# (src/rcpp_metrics.cpp), an entry below, and two exported functions whose
# body is `metric_vec_form("name", ...)` / `metric_df_form("name", ...)`
# with the formals of metric_form_formals(); a yardstick form is an entry
# in prob_metric_variant and one line in metric-yardstick.R.
#
# An entry holds:
# * name       the metric's name
# * kernel     its name in the C++ engine, the metrics_impl() and
#              metrics_grouped_impl() of src/rcpp_metrics.cpp, or a
#              function of the options giving it with its parameters
#              ("prr@0.5"; src/core/metric_name.h)
# * title      a short title for documentation and messages
# * direction  "minimize" or "maximize" (as yardstick's)
# * input      "loss" (any finite non-negative loss), "failure" (0/1) or
#              "quality" (in [0, 1], higher better, as an LLM answer's
#              ROUGE; the engine reads 1 - quality)
# * options    the names of the options it takes (see metric_option_info())
# * binary_if  NULL, or a function of the options that is TRUE when they
#              make the metric need a 0/1 loss (E-AURC's asymptotic optimum)
# * label      a function of the options giving `.estimator`
# * range      the range of values for 0/1 losses (yardstick's `range`)
# * coverage   TRUE when the data-frame form reports `.coverage`
# * undefined  what makes the value NA with a classed warning
#              (warn_metric_undefined()): "ratio" (a constant loss: the
#              denominator of NAURC and PRR is 0), "one_class" (the default
#              of "failure" metrics: no failure or no correct prediction),
#              "no_data" (the default of the others: no row left)
# * counts     NULL (scale-free: the value is unchanged when every weight
#              is multiplied by one number), TRUE, or a function of the
#              options that is TRUE when the metric reads the weights as
#              counts of cases (R/weights-scale.R: NA below one case)
# * loss_degree  1 when the metric is homogeneous of degree 1 in the loss
#              (multiplying every loss by c multiplies it by c; the default
#              for "loss" metrics), 0 when it does not change (a ratio, a
#              coverage, and the default for 0/1 and quality inputs): how
#              losses near the largest double are scaled back
#              (R/weights-scale.R)
# * influence  TRUE (the C++ influence kernel of the same name), FALSE
#              when the metric has no influence function (its intervals and
#              comparisons are bootstrap only: method = "analytic" is a
#              classed error that says so), or a function of the options
#              giving either of these, an influence_kernel() of another
#              metric, or an R influence function (metric_influence_plan(),
#              R/ci-influence.R)
# * sql        TRUE (or a function of the options that is TRUE) when the
#              SQL of db_aggregate() computes the metric in one aggregate;
#              else a lazy table's metric comes from the engine's score
#              table (R/db-metrics.R)
# * power      TRUE when selective_power() plans for it

new_metric_entry <- function(name, title, direction, input, options = NULL,
                             label, range, binary_if = NULL,
                             coverage = FALSE, kernel = name,
                             undefined = NULL, influence = TRUE,
                             counts = NULL, loss_degree = NULL,
                             sql = FALSE, power = FALSE) {
  if (is.null(loss_degree)) loss_degree <- if (input == "loss") 1 else 0
  if (is.null(undefined)) {
    undefined <- if (input == "failure") "one_class" else "no_data"
  }
  list(
    name = name, kernel = kernel, title = title, family = "selective",
    direction = direction, input = input,
    options = as.character(options), label = label, range = range,
    binary_if = binary_if, coverage = coverage, undefined = undefined,
    influence = influence, counts = counts, loss_degree = loss_degree,
    sql = sql, power = power
  )
}

metric_registry <- list(
  aurc = new_metric_entry(
    "aurc", "AURC",
    direction = "minimize", input = "loss", options = "estimator",
    label = function(o) o$estimator, range = c(0, 1),
    counts = function(o) identical(o$estimator, "alpha_prime"),
    sql = TRUE, power = TRUE
  ),
  augrc = new_metric_entry(
    "augrc", "AUGRC",
    direction = "minimize", input = "loss", options = "method",
    label = function(o) o$method, range = c(0, 0.5),
    sql = TRUE, power = TRUE
  ),
  failure_auroc = new_metric_entry(
    "failure_auroc", "failure AUROC",
    direction = "maximize", input = "failure",
    label = function(o) "binary", range = c(0, 1),
    sql = TRUE, power = TRUE
  ),
  failure_aupr = new_metric_entry(
    "failure_aupr", "failure AUPR",
    direction = "maximize", input = "failure",
    label = function(o) "binary", range = c(0, 1),
    sql = TRUE
  ),
  success_aupr = new_metric_entry(
    "success_aupr", "success AUPR",
    direction = "maximize", input = "failure",
    label = function(o) "binary", range = c(0, 1), influence = FALSE
  ),
  eaurc = new_metric_entry(
    "eaurc", "E-AURC",
    direction = "minimize", input = "loss",
    options = c("estimator", "optimum"),
    label = function(o) paste0(o$estimator, "/", o$optimum),
    range = c(-1, 1), binary_if = function(o) o$optimum == "asymptotic",
    counts = function(o) {
      !identical(o$optimum, "asymptotic") ||
        identical(o$estimator, "alpha_prime")
    },
    sql = TRUE
  ),
  eaugrc = new_metric_entry(
    "eaugrc", "E-AUGRC",
    direction = "minimize", input = "failure",
    label = function(o) "trapezoid", range = c(0, 0.5),
    sql = TRUE
  ),
  naurc = new_metric_entry(
    "naurc", "NAURC",
    direction = "minimize", input = "loss", options = "estimator",
    label = function(o) o$estimator, range = c(-Inf, Inf),
    undefined = "ratio", counts = TRUE, loss_degree = 0,
    sql = TRUE
  ),
  risk_at_coverage = new_metric_entry(
    "risk_at_coverage", "risk at coverage",
    direction = "minimize", input = "loss", options = c("coverage", "rule"),
    label = function(o) {
      paste0("coverage=", o$coverage,
        if (identical(o$rule, "lowest_risk")) "/lowest_risk"
      )
    },
    range = c(0, 1), coverage = TRUE,
    influence = function(o) {
      # fd-shifts' working point: R/ci-influence-lowest-risk.R
      if (identical(o$rule, "lowest_risk")) lowest_risk_influence else TRUE
    },
    kernel = function(o) {
      if (identical(o$rule, "lowest_risk")) {
        "risk_at_coverage@1"
      } else {
        "risk_at_coverage"
      }
    },
    sql = function(o) !identical(o$rule, "lowest_risk")
  ),
  coverage_at_risk = new_metric_entry(
    "coverage_at_risk", "coverage at risk",
    direction = "maximize", input = "loss", options = "risk",
    label = function(o) paste0("risk=", o$risk), range = c(0, 1),
    loss_degree = 0,
    sql = TRUE
  ),
  partial_aurc = new_metric_entry(
    "partial_aurc", "partial AURC",
    direction = "minimize", input = "loss", options = "coverage_range",
    label = function(o) coverage_range_label(o$coverage_range),
    range = c(0, 1), influence = function(o) {
      partial_influence_of("partial_aurc") # R/ci-influence-partial.R
    },
    kernel = function(o) kernel_name("partial_aurc", o$coverage_range)
  ),
  partial_augrc = new_metric_entry(
    "partial_augrc", "partial AUGRC",
    direction = "minimize", input = "loss", options = "coverage_range",
    label = function(o) coverage_range_label(o$coverage_range),
    range = c(0, 0.5), influence = function(o) {
      partial_influence_of("partial_augrc")
    },
    kernel = function(o) kernel_name("partial_augrc", o$coverage_range)
  ),
  fpr_at_tpr = new_metric_entry(
    "fpr_at_tpr", "FPR at TPR",
    direction = "minimize", input = "failure", options = "tpr",
    label = function(o) paste0("tpr=", format(o$tpr)), range = c(0, 1),
    influence = function(o) {
      function(score, loss, case_weights, o) { # R/ci-influence-fpr.R
        fpr_at_tpr_influence(as.double(score), as.double(loss),
          case_weights, o$tpr %||% 0.95
        )
      }
    },
    kernel = function(o) kernel_name("fpr_at_tpr", o$tpr)
  ),
  achievable_aurc = new_metric_entry(
    "achievable_aurc", "achievable AURC",
    direction = "minimize", input = "failure",
    label = function(o) "convex_hull", range = c(0, 1), influence = FALSE
  ),
  auarc = new_metric_entry(
    "auarc", "AUARC",
    direction = "maximize", input = "quality", options = "estimator",
    label = function(o) o$estimator, range = c(0, 1),
    counts = function(o) identical(o$estimator, "alpha_prime"),
    influence = function(o) influence_kernel("aurc", o$estimator, flip = TRUE),
    sql = TRUE, power = TRUE
  ),
  prr = new_metric_entry(
    "prr", "PRR",
    direction = "maximize", input = "quality",
    options = c("max_rejection", "ties"),
    label = function(o) {
      paste0("max_rejection=", format(o$max_rejection),
        if (!identical(o$ties %||% "group", "group")) paste0("/ties=", o$ties)
      )
    },
    range = c(-Inf, 1), undefined = "ratio", counts = TRUE,
    influence = function(o) {
      # the other tie rules have no influence function (bootstrap only)
      if (!identical(o$ties %||% "group", "group")) return(FALSE)
      if ((o$max_rejection %||% 1) == 1) {
        return(influence_kernel("naurc", "alpha", flip = TRUE))
      }
      function(score, loss, case_weights, o) { # R/ci-influence-prr.R
        prr_window_influence(as.double(score), as.double(loss),
          case_weights, o$max_rejection
        )
      }
    },
    kernel = function(o) prr_kernel_name(o),
    power = TRUE,
    # 1 - NAURC of the "alpha" estimator
    sql = function(o) {
      (o$max_rejection %||% 1) == 1 && identical(o$estimator %||% "alpha",
        "alpha") && identical(o$ties %||% "group", "group")
    }
  )
)

# The metrics selective_power() plans for.
power_metrics <- names(Filter(function(e) e$power, metric_registry))

# Whether the SQL of db_aggregate() computes metric `name` with the options
# `o` in one aggregate (its entry's `sql`).
metric_has_sql <- function(name, o) {
  sql <- metric_registry[[name]]$sql
  if (is.function(sql)) isTRUE(sql(o)) else isTRUE(sql)
}

# The metrics defined only for 0/1 failures (input "failure").
binary_metrics <- names(Filter(
  function(e) e$input == "failure", metric_registry
))

# "name@p1,p2": a kernel name with its parameters, written so that the C++
# side reads back the same doubles (src/core/metric_name.h).
kernel_name <- function(name, params) {
  paste0(name, "@", paste(formatC(params, digits = 17, format = "g"),
    collapse = ","
  ))
}

coverage_range_label <- function(range) {
  paste0("coverage=", format(range[1]), "-", format(range[2]))
}

# The kernel names of `metrics` with the options `opts`.
metric_kernels <- function(metrics, opts) {
  vapply(metrics, function(m) {
    info <- metric_registry[[m]]
    if (is.null(info)) return(m) # names only the engine knows (mean_loss)
    k <- info$kernel
    if (is.function(k)) k(opts) else k
  }, character(1), USE.NAMES = FALSE)
}

# Options shared by the metrics: default (NULL for a required option, which
# has no default in the forms) and validator. A validator returns the
# validated value and fails with a classed error naming the option.
metric_option_registry <- list(
  estimator = list(
    default = "alpha",
    check = function(x, call) {
      check_choice(x, aurc_estimators, arg = "estimator", call = call)
    }
  ),
  method = list(
    default = "trapezoid",
    check = function(x, call) {
      check_choice(x, augrc_methods, arg = "method", call = call)
    }
  ),
  optimum = list(
    default = "exact",
    check = function(x, call) {
      check_choice(x, eaurc_optima, arg = "optimum", call = call)
    }
  ),
  coverage = list(
    default = NULL,
    check = function(x, call) {
      check_number(x, 0, 1, arg = "coverage", call = call)
    }
  ),
  risk = list(
    default = NULL,
    check = function(x, call) check_number(x, 0, arg = "risk", call = call)
  ),
  rule = list(
    default = "tie_closed",
    check = function(x, call) {
      check_choice(x, c("tie_closed", "lowest_risk"), arg = "rule",
        call = call
      )
    }
  ),
  tpr = list(
    default = 0.95,
    check = function(x, call) {
      check_number(x, 0, 1, open = TRUE, arg = "tpr", call = call)
    }
  ),
  max_rejection = list(
    default = 1,
    check = function(x, call) check_max_rejection(x, call)
  ),
  coverage_range = list(
    default = NULL,
    check = function(x, call) check_coverage_range(x, call)
  ),
  ties = list(
    default = "group",
    check = function(x, call) {
      check_choice(x, prr_ties, arg = "ties", call = call)
    }
  )
)

metric_names <- function() names(metric_registry)

metric_option_info <- function(option) metric_option_registry[[option]]

# Validates the options that `names` use. `values` is a named list; an
# option absent from it takes its default (a required option, whose default
# is NULL, then fails its validator as missing). Returns a list with every
# option (unused ones as given or at their defaults). Options named in
# `always` are validated even when no metric uses them.
check_metric_options <- function(names, values, call, always = NULL) {
  used <- c(always, if (length(names) == 1) {
    metric_entry(names)$options
  } else {
    unlist(lapply(names, function(m) metric_entry(m)$options))
  })
  # every option at its default as checked once per session; then the
  # options a metric uses, and the options given, checked now (a given
  # option is checked even when no metric uses it, so that a malformed
  # value never reaches C++; an explicit NULL is checked where the option
  # is used). Checking every default on every call was a third of
  # aurc_vec()'s time at n = 1e3.
  out <- checked_option_defaults()
  # (in registry order, so that the first bad option is the one named;
  # `%in%` rather than intersect(), a tenth of a call at n = 1e3)
  opts <- names(out)
  for (opt in opts[opts %in% c(used, names(values))]) {
    info <- metric_option_info(opt)
    value <- if (opt %in% names(values)) values[[opt]] else info$default
    # a default, as checked once per session, needs no second check
    if (!is.null(value) && identical(value, info$default)) next
    if (opt %in% used || !is.null(value)) {
      out[opt] <- list(info$check(value, call))
    }
  }
  out
}

# Every option's default as its check returns it, in registry order,
# computed once.
option_defaults <- new.env(parent = emptyenv())
checked_option_defaults <- function() {
  if (is.null(option_defaults$all)) {
    out <- list()
    for (opt in names(metric_option_registry)) {
      info <- metric_option_info(opt)
      value <- info$default
      if (!is.null(value)) value <- info$check(value, rlang::caller_env())
      out[opt] <- list(value)
    }
    option_defaults$all <- out
  }
  option_defaults$all
}

metric_estimator_label <- function(name, opts) metric_entry(name)$label(opts)

metric_needs_failure <- function(name, opts) {
  info <- metric_entry(name)
  info$input == "failure" ||
    (!is.null(info$binary_if) && isTRUE(info$binary_if(opts)))
}

# ---- evaluation -------------------------------------------------------------

# Evaluates the metrics `metrics` on every group in one C++ call
# (metrics_grouped_impl()). `rows`: NULL for one group of all rows, or a list
# of row indices per group (as data_groups() gives). Columns are validated
# once, as prepare_metric_input() does for one vector; the NA rule of
# DEFINITIONS
# Sec. 10 applies per group. Returns `values` (groups x metrics) and
# `coverage` (the coverage risk_at_coverage achieved, per group). Warnings
# (no data, one class, NAURC undefined) are raised per group, as the `_vec`
# form raises them; that of weights totalling less than one case for a
# count-dependent metric (R/weights-scale.R) once per call.
metrics_by_group <- function(score, loss, case_weights, rows, metrics, opts,
                             na_rm, loss_arg = "loss",
                             call = rlang::caller_env(), suspicious = TRUE) {
  case_weights <- plain_weights(case_weights)
  binary <- if (length(metrics) == 1) {
    metric_needs_failure(metrics, opts)
  } else {
    any(vapply(metrics, metric_needs_failure, logical(1), opts))
  }
  threads <- sort_threads(call)
  quality <- identical(loss_arg, "quality")
  if (quality) loss <- quality_as_loss(loss, call)
  huge <- check_metric_columns(score, loss, case_weights, na_rm, loss_arg,
    binary,
    call = call, threads = threads
  )
  if (suspicious && quality) {
    warn_if_quality_backwards(score, loss, call)
  } else if (suspicious) {
    warn_if_suspicious(score, loss, loss_arg, call = call)
  }

  g <- group_columns(
    list(score = score, loss = loss, case_weights = case_weights), rows, na_rm,
    as_double = FALSE, need_gid = FALSE, threads = threads
  )
  na_group <- g$na_group
  # weights at any scale, per group (R/weights-scale.R): scale-free
  # metrics get weights brought into range by a power of 2; with a
  # count-dependent metric (the exact optimum), totals above 2^53 are
  # brought to [2^52, 2^53) and totals below one case flagged
  # (without weights nothing is counted: the common call skips the lookup)
  count <- if (length(g$cols$case_weights)) {
    count_metrics(metrics, opts$optimum, opts$estimator)
  } else {
    logical(length(metrics))
  }
  sc <- scale_group_weights(g$cols$case_weights, g$sizes, count = any(count))
  g$cols$case_weights <- sc$w
  # losses near the largest double, scaled by a power of 2 (and the risk
  # of coverage at risk with them); the values scaled back below
  risk <- if (is.null(opts$risk)) 0.5 else opts$risk
  e <- if (huge) loss_scale_exponent(g$cols$loss) else 0
  if (e != 0) {
    g$cols$loss <- times_pow2(as.double(g$cols$loss), -e)
    risk <- times_pow2(risk, -e)
  }
  res <- metrics_grouped_impl(
    g$cols$score, g$cols$loss, g$cols$case_weights,
    c(0, cumsum(as.double(g$sizes))),
    metric_kernels(metrics, opts),
    opts$estimator, opts$method, opts$optimum,
    if (is.null(opts$coverage)) 0.5 else opts$coverage,
    risk,
    threads
  )
  values <- unscale_loss_values(res$values, metrics, e, call)
  values[na_group, ] <- NA_real_
  coverage <- res$achieved_coverage
  coverage[na_group] <- NA_real_
  for (k in which(res$empty & !na_group)) warn_no_data(call = call)
  few <- sc$too_few & !na_group & !res$empty
  if (any(few)) {
    values[few, count] <- NA_real_
    warn_oracle_scale(metrics[count], opts$estimator, call = call)
  }
  # (anyNA() first: which(arr.ind = TRUE) costs 5% of a call at n = 1e3)
  undefined <- if (anyNA(values)) which(is.nan(values), arr.ind = TRUE)
  if (!is.null(undefined) && nrow(undefined) > 0) {
    undefined <- undefined[order(undefined[, 1], undefined[, 2]), ,
      drop = FALSE
    ]
    for (k in seq_len(nrow(undefined))) {
      # (a group with no data has had its warning above)
      warn_metric_undefined(metrics[undefined[k, 2]], call = call,
        no_data = FALSE
      )
    }
    values[is.nan(values)] <- NA_real_
  }
  list(values = values, coverage = coverage)
}

# Rows ordered by group, with the NA rule of DEFINITIONS Sec. 10 applied per
# group.
# `cols`: a named list of equal-length vectors (converted to double unless
# `as_double = FALSE`; an empty `case_weights` means none); `rows`: NULL
# (one group of all rows) or the row indices of every group. A row missing a
# value in its first two columns is dropped when `na_rm`; otherwise its
# whole group is dropped and flagged in `na_group`. `drop_zero_weight`: also
# drop rows of weight 0. `threads`: for the scan for missing values. Returns
# the columns, the group sizes, the group of each row and `na_group`.
group_columns <- function(cols, rows, na_rm, drop_zero_weight = FALSE,
                          as_double = TRUE, need_gid = TRUE, threads = 1L) {
  # metrics_grouped_impl() reads integer and logical columns itself
  # (DoubleColumn, src/glue.h): as.double() on 1e7 rows costs a fresh R
  # vector whose page faults take longer than the sort
  cols <- lapply(cols, function(x) {
    if (!as_double && (is.integer(x) || is.logical(x))) x else as.double(x)
  })
  pick <- function(i) lapply(cols, function(x) if (length(x)) x[i] else x)
  n <- length(cols[[1]])
  sizes <- n
  if (!is.null(rows)) {
    idx <- unlist(rows, use.names = FALSE)
    sizes <- lengths(rows)
    if (!identical(idx, seq_len(n))) cols <- pick(idx)
  }
  n_groups <- length(sizes)
  # one group: no group id per row unless the caller needs it (a vector
  # of n integers costs a fresh allocation)
  gid <- if (n_groups > 1 || need_gid) rep.int(seq_len(n_groups), sizes)
  na <- na_rule(cols, gid, n_groups, na_rm, threads)
  na_group <- na$na_group
  keep <- na$keep
  w <- cols$case_weights
  if (drop_zero_weight && length(w) && any(w == 0)) {
    keep <- (if (is.null(keep)) TRUE else keep) & w > 0
  }
  if (!is.null(keep)) {
    cols <- pick(keep)
    if (!is.null(gid)) gid <- gid[keep]
  }
  list(
    cols = cols,
    sizes = if (is.null(gid)) length(cols[[1]]) else tabulate(gid, n_groups),
    gid = gid, na_group = na_group
  )
}

# The NA rule of group_columns(): `na_group` flags the groups with a
# missing value when `!na_rm`; `keep` (NULL when nothing is missing) the
# rows left. `gid` NULL means one group.
na_rule <- function(cols, gid, n_groups, na_rm, threads = 1L) {
  na_group <- logical(n_groups)
  if (!any_na(cols[[1]], threads) && !any_na(cols[[2]], threads)) {
    return(list(na_group = na_group, keep = NULL))
  }
  bad <- is.na(cols[[1]]) | is.na(cols[[2]])
  if (is.null(gid)) {
    na_group <- !na_rm
    return(list(na_group = na_group, keep = !bad & !na_group))
  }
  if (!na_rm) na_group[unique(gid[bad])] <- TRUE
  list(na_group = na_group, keep = !bad & !na_group[gid])
}

# anyNA() of a numeric or logical vector, on `threads` threads when long
# (src/core/scan.h).
any_na <- function(x, threads = 1L) {
  if (is.double(x) || is.integer(x) || is.logical(x)) {
    any_na_impl(x, threads)
  } else {
    anyNA(x)
  }
}

# ---- the forms --------------------------------------------------------------

# The `_vec` form of a registry metric. Called as the whole body of the
# exported function, `metric_vec_form("aurc", ...)`: reads the arguments
# from the caller's frame (score, the loss argument, the options, na_rm,
# case_weights), so the exported function only declares its formals.
metric_vec_form <- function(.name, ..., .env = rlang::caller_env()) {
  check_dots(..., call = .env)
  info <- metric_entry(.name)
  opts <- form_options(info, .env)
  loss_arg <- form_loss_arg(info)
  outcome <- form_outcome(info, loss_arg, .env)
  res <- metrics_by_group(
    .env$score, outcome$value, .env$case_weights, NULL, .name, opts,
    .env$na_rm,
    loss_arg = outcome$arg, call = .env
  )
  res$values[[1]]
}

# The outcome a form was given: its loss argument (`loss`, `failure` or
# `quality`, by position or name) or, by name, `correct` (1 = the
# prediction was right), never both and never neither. A correctness is
# turned into the metric's input: the loss or failure `1 - correct`, or
# the quality `correct` itself. Returns the values and the argument name
# the checks and messages use.
form_outcome <- function(info, loss_arg, env) {
  given <- !eval(missing_calls[[loss_arg]], env)
  correct <- env$correct
  check_outcome_given(given, !is.null(correct), info, loss_arg, env)
  if (is.null(correct)) return(list(value = env[[loss_arg]], arg = loss_arg))
  list(value = correct_as_input(correct, info, env), arg = "correct")
}

# `missing(loss)` and the like, built once (a call built per call cost a
# few microseconds of aurc_vec()'s 120).
missing_calls <- list(
  loss = quote(missing(loss)), failure = quote(missing(failure)),
  quality = quote(missing(quality))
)

# Exactly one of the loss argument and `correct`: a classed error naming
# both otherwise.
check_outcome_given <- function(given, has_correct, info, loss_arg, call) {
  read_as <- if (info$input == "quality") "correct" else "1 - correct"
  if (has_correct && given) {
    abort_aurc(
      c(
        "Give {.arg {loss_arg}} or {.arg correct}, not both.",
        i = "{.arg correct} (1 = right) is read as {.code {loss_arg} =
             {read_as}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (!has_correct && !given) {
    abort_aurc(
      c(
        "{.arg {loss_arg}} is missing.",
        i = "Give the {loss_arg} as the second argument, or the
             correctness by name: {.code correct = }."
      ),
      class = c("aurc_error_missing", "aurc_error_value"), call = call
    )
  }
  invisible()
}

# A correctness vector (0/1 or logical, NA kept) as what the engine reads,
# the loss `1 - correct` (for a quality metric too: the engine reads a
# quality q as the loss 1 - q, and a correctness is a 0/1 quality).
correct_as_input <- function(correct, info, call) {
  check_failure(correct, length(correct), "correct", call = call)
  1 - as.double(correct)
}

# The data-frame form: columns by tidy evaluation, every group of a grouped
# data frame in one C++ call, one tibble at the end.
metric_df_form <- function(.name, ..., .env = rlang::caller_env()) {
  check_dots(..., call = .env)
  info <- metric_entry(.name)
  opts <- form_options(info, .env)
  loss_arg <- form_loss_arg(info)
  data <- .env$data
  columns <- c("score", loss_arg, "case_weights")
  correct_quo <- rlang::eval_bare(quote(rlang::enquo(correct)), .env)
  given <- !eval(missing_calls[[loss_arg]], .env)
  # (a score table holds its columns: none is given)
  if (!inherits(data, "aurc_score_table")) {
    check_outcome_given(given, !rlang::quo_is_null(correct_quo), info,
      loss_arg, .env
    )
  }
  if (is_remote_data(data)) {
    # lazy database tables and score tables: R/db-dispatch.R
    quos <- lapply(columns, function(arg) {
      rlang::eval_bare(rlang::call2(rlang::enquo, rlang::sym(arg)), .env)
    })
    if (!rlang::quo_is_null(correct_quo)) {
      # the engine reads the loss: 1 - correct (a quality is correct)
      quos[[2]] <- if (info$input == "quality") {
        correct_quo
      } else {
        rlang::quo(1 - !!correct_quo)
      }
    }
    # the engine reads a quality as the loss 1 - quality
    if (info$input == "quality" && !rlang::quo_is_missing(quos[[2]])) {
      quos[[2]] <- rlang::quo(1 - !!quos[[2]])
    }
    return(metric_form_remote(data, .name, stats::setNames(quos, columns),
      opts, .env$na_rm,
      call = .env
    ))
  }
  check_data_frame(data, call = .env)
  if (!rlang::quo_is_null(correct_quo)) columns[2] <- "correct"
  values <- lapply(columns, function(arg) {
    quo <- rlang::eval_bare(
      rlang::call2(rlang::enquo, rlang::sym(arg)), .env
    )
    eval_column(data, quo, arg, call = .env)
  })
  if (!rlang::quo_is_null(correct_quo)) {
    values[[2]] <- correct_as_input(values[[2]], info, .env)
  }
  groups <- data_groups(data)
  res <- metrics_by_group(
    values[[1]], values[[2]], values[[3]], groups$rows, .name, opts,
    .env$na_rm,
    loss_arg = columns[2], call = .env
  )
  out <- metric_tibble(
    groups$keys, .name, metric_estimator_label(.name, opts), res$values
  )
  if (info$coverage) out$.coverage <- res$coverage
  out
}

# Failure metrics call their loss argument `failure`, quality metrics
# `quality`.
form_loss_arg <- function(info) {
  switch(info$input, failure = "failure", quality = "quality", "loss")
}

# The options of one metric read from a form's frame and validated. A
# required option left missing reaches its validator as missing.
form_options <- function(info, env) {
  values <- list()
  for (opt in info$options) {
    if (eval(call("missing", as.name(opt)), env)) {
      # a required option left missing fails its validator; another one
      # left missing is at its default (the formals of every form are the
      # registry's defaults: test-metric-registry.R), checked once per
      # session
      if (is.null(metric_option_info(opt)$default)) {
        metric_option_info(opt)$check(rlang::missing_arg(), env)
      }
      next
    }
    values[opt] <- list(env[[opt]])
  }
  # nothing given: every option at its default, as checked once per session
  if (length(values) == 0) return(checked_option_defaults())
  check_metric_options(info$name, values, env)
}

# The result tibble: grouping keys (each repeated once per metric), then
# `.metric`, `.estimator`, `.estimate`, group-major.
metric_tibble <- function(keys, metrics, labels, values) {
  # zero groups (a grouped data frame of zero rows): a table of zero rows
  if (!is.matrix(values) || (!is.null(keys) && nrow(keys) == 0)) {
    values <- matrix(as.double(values), ncol = length(metrics))
    if (!is.null(keys)) values <- values[seq_len(nrow(keys)), , drop = FALSE]
  }
  n_groups <- nrow(values)
  out <- tibble::tibble(
    .metric = rep(metrics, times = n_groups),
    .estimator = rep(labels, times = n_groups),
    .estimate = as.numeric(t(values))
  )
  if (!is.null(keys)) {
    keys <- keys[rep(seq_len(nrow(keys)), each = length(metrics)), ,
      drop = FALSE
    ]
    out <- tibble::as_tibble(c(keys, out))
  }
  out
}

# The formals a registry metric's forms have: `data` (data-frame form
# only), `score`, its loss argument, `...`, its options with their defaults
# (required ones without), `correct = NULL` (the outcome by name as a
# correctness instead), `na_rm = FALSE`, `case_weights = NULL`. The
# tests compare every exported form with these.
metric_form_formals <- function(name, data = TRUE) {
  info <- metric_entry(name)
  args <- list(score = rlang::missing_arg())
  args[[form_loss_arg(info)]] <- rlang::missing_arg()
  args["..."] <- list(rlang::missing_arg())
  for (opt in info$options) {
    default <- metric_option_info(opt)$default
    args[opt] <- list(if (is.null(default)) rlang::missing_arg() else default)
  }
  args <- c(args, list(correct = NULL, na_rm = FALSE, case_weights = NULL))
  if (data) args <- c(list(data = rlang::missing_arg()), args)
  as.pairlist(args)
}
