#' Selective-classification metrics for yardstick and tune
#'
#' Class-probability metrics in the form of the yardstick package: they take
#' a factor `truth` and the class-probability columns a tidymodels model
#' predicts (`.pred_<level>`), so they can sit in
#' [yardstick::metric_set()] next to `roc_auc` and select models in
#' `tune::tune_grid()`. From the probabilities each row gets
#'
#' * a confidence score, `score_type` of [confidence_score()] computed
#'   `from = "probs"`: `"msp"` (the largest probability, default),
#'   `"margin"`, `"neg_entropy"` or `"neg_gini"`;
#' * a 0/1 loss: 1 when the class of the largest probability (the first of
#'   tied maxima, i.e. the first factor level among them) is not `truth`.
#'
#' and the metric is the package's own metric of that score and loss:
#' `aurc_prob()` is [aurc()], `augrc_prob()` [augrc()], `eaurc_prob()`
#' [eaurc()], `naurc_prob()` [naurc()], `eaugrc_prob()` [eaugrc()],
#' `failure_auroc_prob()` [failure_auroc()], `failure_aupr_prob()`
#' [failure_aupr()], `success_aupr_prob()` [success_aupr()],
#' `partial_aurc_prob()` and `partial_augrc_prob()`
#' [partial_aurc()] (with `coverage_range`), `fpr_at_tpr_prob()`
#' [fpr_at_tpr()] (with `tpr`), `achievable_aurc_prob()`
#' [achievable_aurc()], and `aurc_ba_prob()` and `augrc_ba_prob()`
#' [aurc_ba()], whose classes are `truth`. The names end in `_prob` so they
#' neither clash with
#' those functions (which take a score and a loss) nor with yardstick's
#' metrics. Each carries yardstick's `direction` (`"minimize"` for the
#' AURC family, `"maximize"` for the failure AUROC and AUPR), so tuning
#' picks the right end. They exist whether or not yardstick is installed;
#' [yardstick::metric_set()] needs yardstick.
#'
#' @section Estimators and options:
#' yardstick's `estimator` argument picks the variant: the AURC estimator
#' of [aurc_vec()] for `aurc_prob()`, `eaurc_prob()` and `naurc_prob()`
#' (default `"alpha"`), the method of [augrc_vec()] for `augrc_prob()`
#' (default `"trapezoid"`). The failure metrics and `eaugrc_prob()` have
#' one variant. yardstick's own averaging estimators (`"binary"`,
#' `"macro"`, `"macro_weighted"`, `"micro"`, `"hand_till"`) do not apply to
#' a top-label metric; given to a metric set for `roc_auc`, they are
#' ignored here with a warning of class `aurc_warning_ignored`. In a metric
#' set, fix a variant with `yardstick::metric_tweak()`, e.g.
#' `metric_tweak("aurc_sele", aurc_prob, estimator = "sele")`; the
#' confidence score likewise with `score_type =`.
#'
#' @section Probability columns:
#' Give one column per level of `truth`. Columns are matched to the levels
#' **by name**, in any order: names as tidymodels gives them,
#' `.pred_<level>`, the levels themselves, or the levels with a prefix and
#' a suffix that every column shares (`p_yes`, `p_no`; `prob.a.hat`, ...).
#' A name that is no level, a level given twice or a level without a column
#' is an error of class `aurc_error_column`: a named column is never taken
#' by its position. Only a matrix without column names is read in the order
#' of the levels. Each row must sum to 1.
#'
#' For a two-level `truth` a single column is enough. Its name decides
#' which level it is the probability of (`.pred_yes` is the probability of
#' `"yes"`); an unnamed column is the probability of the `event_level`
#' class (`"first"` level by default, yardstick's convention), the other
#' class getting one minus it. When the name and `event_level` disagree,
#' the name is used and a warning of class `aurc_warning_event_level` says
#' so (yardstick's own metrics in the same metric set, such as `roc_auc`,
#' follow `event_level` and are then wrong). A two-level metric whose
#' top-label error rate is above 0.5 warns with the same class: such a
#' model is worse than always predicting one class, which nearly always
#' means the probabilities belong to the other level.
#'
#' Rows with a missing truth or probability are dropped when `na_rm =
#' TRUE` (yardstick's default); with `na_rm = FALSE` they make the result
#' `NA`.
#'
#' @param data A data frame; a grouped data frame gives one row per group.
#' @param truth The true class: an unquoted column name of `data` (a
#'   factor). For the `_vec` forms the factor itself.
#' @param ... For the data-frame form, the class-probability columns
#'   (unquoted names or tidyselect helpers such as `starts_with(".pred_")`).
#'   For the `_vec` forms not used, must be empty.
#' @param estimate For the `_vec` forms: a numeric matrix of class
#'   probabilities (one column per level), or for a two-level `truth` a
#'   vector with the probability of the `event_level` class.
#' @param estimator The variant (see Estimators and options); `NULL` for
#'   the default.
#' @param na_rm If `TRUE` (default, as in yardstick) rows with a missing
#'   value are dropped; if `FALSE` they make the result `NA`.
#' @param event_level `"first"` or `"second"`: which level the single
#'   probability column of a two-level `truth` belongs to when its name
#'   does not say (see Probability columns). Unused with one column per
#'   level.
#' @param case_weights Optional non-negative frequency weights, an
#'   unquoted column name (for the `_vec` forms a vector); hardhat's
#'   frequency and importance weights are used as numbers.
#' @param score_type The confidence score computed from the
#'   probabilities: `"msp"`, `"margin"`, `"neg_entropy"` or `"neg_gini"`.
#' @param optimum For `eaurc_prob()`: `"exact"` (default) or
#'   `"asymptotic"`, as in [eaurc()].
#' @param coverage_range For `partial_aurc_prob()` and
#'   `partial_augrc_prob()`: the coverage range `c(c1, c2)` (required; in a
#'   metric set fix it with `yardstick::metric_tweak()`).
#' @param tpr For `fpr_at_tpr_prob()`: the true positive rate (0.95).
#' @return The data-frame form: a tibble with the grouping columns, then
#'   `.metric` (the function's name, e.g. `"aurc_prob"`), `.estimator` (the
#'   variant, as the package's own metric reports it) and `.estimate`. The
#'   `_vec` forms: a single number.
#' @seealso [aurc()], [selective_metrics()], [confidence_score()].
#' @examples
#' set.seed(1)
#' n <- 300
#' p1 <- runif(n)
#' truth <- factor(ifelse(runif(n) < p1, "yes", "no"), c("yes", "no"))
#' df <- data.frame(
#'   truth = truth, .pred_yes = p1, .pred_no = 1 - p1,
#'   model = rep(c("a", "b"), length.out = n)
#' )
#' aurc_prob(df, truth, .pred_yes, .pred_no)
#' failure_auroc_prob(df, truth, .pred_yes) # one column: the first level
#' aurc_prob_vec(df$truth, cbind(df$.pred_yes, df$.pred_no),
#'   estimator = "sele"
#' )
#' if (requireNamespace("yardstick", quietly = TRUE) &&
#'   requireNamespace("dplyr", quietly = TRUE)) {
#'   metrics <- yardstick::metric_set(
#'     yardstick::roc_auc, aurc_prob, augrc_prob, failure_auroc_prob
#'   )
#'   metrics(dplyr::group_by(df, model), truth, .pred_yes)
#' }
#' @name selective_prob_metrics
NULL

# The registry metrics offered to yardstick, and the option that yardstick's
# `estimator` argument sets for each (NULL: one variant only).
prob_metric_variant <- list(
  aurc = "estimator", augrc = "method", eaurc = "estimator",
  naurc = "estimator", eaugrc = NULL, failure_auroc = NULL,
  failure_aupr = NULL, success_aupr = NULL, partial_aurc = NULL,
  partial_augrc = NULL,
  fpr_at_tpr = NULL, achievable_aurc = NULL
)

# Options of a prob metric given as arguments of their own (the variant
# is `estimator`; `optimum` has its own argument too).
prob_metric_own_options <- function(info) {
  setdiff(info$options, c("estimator", "method", "optimum"))
}

# yardstick's averaging estimators: ignored with a warning.
yardstick_estimators <- c(
  "binary", "macro", "macro_weighted", "micro", "hand_till", "multiclass"
)

prob_score_types <- c("msp", "margin", "neg_entropy", "neg_gini")

# Makes the data-frame form (a yardstick prob metric) or the `_vec` form of
# a registry metric. The body only forwards to prob_metric_eval(), which
# reads the arguments from the frame.
new_prob_metric_form <- function(name, vec = FALSE) {
  info <- metric_entry(name)
  first <- if (vec) c("truth", "estimate") else c("data", "truth")
  args <- rep(list(rlang::missing_arg()), 3)
  names(args) <- c(first, "...")
  args <- c(args, list(
    estimator = NULL, na_rm = TRUE, event_level = "first",
    case_weights = NULL, score_type = "msp"
  ))
  if ("optimum" %in% info$options) args$optimum <- "exact"
  for (o in prob_metric_own_options(info)) {
    args[o] <- list(metric_option_info(o)$default)
  }
  body <- rlang::call2("prob_metric_eval", name, vec, quote(...))
  fn <- rlang::new_function(args, body, env = topenv())
  if (vec) return(fn)
  structure(fn,
    direction = info$direction, range = info$range,
    class = c("prob_metric", "metric", "function")
  )
}

prob_metric_eval <- function(.name, .vec, ..., .env = rlang::caller_env()) {
  call <- .env
  info <- metric_entry(.name)
  metric <- paste0(.name, "_prob")
  cols <- prob_metric_columns(.vec, .env, ..., call = call)
  opts <- prob_metric_options(info, .env, call)
  input <- prob_metric_score_loss(cols, .env, call)
  res <- metrics_by_group(
    input$score, input$loss, cols$case_weights, cols$rows, .name, opts,
    .env$na_rm,
    call = call, suspicious = FALSE
  )
  if (.vec) return(res$values[[1]])
  metric_tibble(cols$keys, metric, metric_estimator_label(.name, opts),
    res$values
  )
}

# The score and top-label loss of a prob metric's columns, with the
# options `event_level` and `score_type` read from its frame `env`.
prob_metric_score_loss <- function(cols, env, call) {
  event_level <- check_choice(env$event_level, c("first", "second"),
    arg = "event_level", call = call
  )
  score_type <- check_choice(env$score_type, prob_score_types,
    arg = "score_type", call = call
  )
  prob_metric_input(cols$truth, cols$estimate, event_level, score_type,
    call,
    names = cols$names, case_weights = cols$case_weights
  )
}

# The truth, the probabilities, the case weights and the groups of a prob
# metric: from the arguments of a `_vec` form, or selected in `data` (the
# probability columns are the `...` of the data-frame form).
prob_metric_columns <- function(vec, env, ..., call) {
  if (vec) {
    check_dots(..., call = call)
    cw <- prob_case_weights(env$case_weights, call)
    est <- env$estimate
    return(list(
      truth = env$truth, estimate = est, case_weights = cw,
      rows = NULL, keys = NULL,
      names = if (is.matrix(est) || is.data.frame(est)) colnames(est)
    ))
  }
  data <- env$data
  check_data_frame(data, call = call)
  truth_quo <- rlang::eval_bare(quote(rlang::enquo(truth)), env)
  truth <- data[[select_columns(data, list(truth_quo), "truth", call)]]
  cols <- select_columns(data, rlang::enquos(...), "...", call)
  estimate <- if (length(cols) == 1) {
    data[[cols]]
  } else {
    as.matrix(as.data.frame(data)[cols])
  }
  cw_quo <- rlang::eval_bare(quote(rlang::enquo(case_weights)), env)
  cw <- prob_case_weights(
    eval_column(data, cw_quo, "case_weights", call = call), call
  )
  groups <- data_groups(data)
  list(
    truth = truth, estimate = estimate, case_weights = cw,
    rows = groups$rows, keys = groups$keys, names = cols
  )
}

# Case weights of a prob metric: numbers, or hardhat's frequency and
# importance weights (R/weights.R). Any other object (a factor, a Date,
# an integer64, a data frame) is an error: its numbers are not weights.
prob_case_weights <- function(cw, call) {
  if (is.null(cw)) return(NULL)
  if (inherits(cw, "hardhat_case_weights")) return(plain_weights(cw))
  if (is.object(cw) || !(is.numeric(cw) || is.logical(cw)) ||
    !is.null(dim(cw))) {
    abort_aurc(
      c(
        paste(
          "{.arg case_weights} must be a numeric vector or hardhat case",
          "weights, not {.obj_type_friendly {cw}}."
        ),
        i = if (inherits(cw, "integer64")) {
          "Convert integer64 weights with {.code as.numeric()} first."
        }
      ),
      class = "aurc_error_type", call = call
    )
  }
  cw
}

# Column names selected by `quos` (tidyselect when installed; otherwise
# names, strings or positions only). At least one column; `truth` exactly
# one.
select_columns <- function(data, quos, arg, call,
                           tidyselect = requireNamespace("tidyselect",
                             quietly = TRUE
                           )) {
  if (tidyselect) {
    pos <- tryCatch(
      tidyselect::eval_select(
        rlang::expr(c(!!!quos)), data,
        allow_rename = FALSE, error_call = call
      ),
      error = function(e) {
        abort_aurc(
          "{.arg {arg}} must select columns of {.arg data}.",
          parent = e, class = "aurc_error_column", call = call
        )
      }
    )
    cols <- names(data)[pos]
  } else {
    cols <- unlist(lapply(unname(quos), function(q) {
      expr <- rlang::quo_get_expr(q)
      if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
        rlang::as_string(expr)
      } else {
        names(data)[rlang::eval_tidy(q)]
      }
    }))
  }
  unknown <- setdiff(cols, names(data))
  want_one <- arg == "truth"
  if (length(unknown) > 0 || length(cols) == 0 ||
    (want_one && length(cols) != 1)) {
    what <- if (want_one) {
      "one column of {.arg data}"
    } else {
      "the class-probability columns of {.arg data}"
    }
    abort_aurc(
      c(
        paste0("{.arg {arg}} must select ", what, "."),
        x = if (length(cols) == 0) {
          "It selects none."
        } else {
          "It selects {.val {cols}}."
        }
      ),
      class = "aurc_error_column", call = call
    )
  }
  cols
}

# The options of a prob metric: yardstick's `estimator` sets the variant.
prob_metric_options <- function(info, env, call) {
  variant <- prob_metric_variant[[info$name]]
  estimator <- env$estimator
  values <- list()
  if (!is.null(estimator)) {
    if (rlang::is_string(estimator) && estimator %in% yardstick_estimators) {
      choices <- if (is.null(variant)) {
        "this metric has one variant"
      } else {
        "{.or {.val {metric_option_choices(variant)}}}"
      }
      warn_aurc(
        c(
          paste(
            "{.fn {info$name}_prob} ignores {.code estimator = {.val",
            "{estimator}}}, a yardstick averaging estimator."
          ),
          i = paste(
            "A selective metric is computed on the top-label loss of all",
            "classes at once."
          ),
          i = paste0("Its variants: ", choices, ".")
        ),
        class = c("aurc_warning_ignored"), call = call
      )
    } else if (is.null(variant)) {
      abort_aurc(
        c(
          paste(
            "{.fn {info$name}_prob} has one variant; {.arg estimator} must",
            "be {.code NULL}."
          ),
          x = "It is {.val {estimator}}."
        ),
        class = "aurc_error_value", call = call
      )
    } else {
      values[[variant]] <- check_choice(estimator,
        metric_option_choices(variant),
        arg = "estimator", call = call
      )
    }
  }
  if ("optimum" %in% info$options) values$optimum <- env$optimum
  for (o in prob_metric_own_options(info)) values[o] <- list(env[[o]])
  check_metric_options(info$name, values, call)
}

metric_option_choices <- function(option) {
  switch(option,
    estimator = aurc_estimators,
    method = augrc_methods,
    optimum = eaurc_optima
  )
}

# Score and top-label 0/1 loss from a factor truth and class probabilities.
# Rows with a missing value get NA in both (the NA rule applies later).
# `names`: the names of the probability columns (NULL when unnamed): columns
# named by the levels (see prob_column_levels()) are matched to the
# levels of `truth` by name (see match_prob_columns()). A two-level truth
# whose top-label error rate is above 0.5 gets a classed warning: the
# probabilities most likely belong to the other level.
prob_metric_input <- function(truth, estimate, event_level, score_type,
                              call, names = NULL, case_weights = NULL) {
  if (!is.factor(truth)) {
    abort_aurc(
      c(
        "{.arg truth} must be a factor, not {.obj_type_friendly {truth}}.",
        i = "Convert the class column with {.fn factor}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  lev <- levels(truth)
  k <- length(lev)
  if (is.data.frame(estimate)) estimate <- as.matrix(estimate)
  # the sizes before anything is copied (estimate = 1:3e9 would be 24 GB)
  rows <- if (is.null(dim(estimate))) length(estimate) else nrow(estimate)
  if (rows != length(truth)) {
    abort_aurc(
      c(
        "The probabilities must have one row per element of {.arg truth}.",
        x = paste(
          "They have {format(rows, big.mark = ',', scientific = FALSE)}",
          "rows; {.arg truth} has {length(truth)}."
        )
      ),
      class = "aurc_error_column", call = call
    )
  }
  estimate <- match_prob_columns(estimate, names, lev, event_level, call)
  if (!is.numeric(estimate) || ncol(estimate) != k ||
    nrow(estimate) != length(truth)) {
    abort_aurc(
      c(
        paste(
          "Give one probability column per level of {.arg truth}",
          "({k}), in the order of the levels."
        ),
        x = if (nrow(estimate) != length(truth)) {
          paste(
            "The probabilities have {nrow(estimate)} row{?s};",
            "{.arg truth} has {length(truth)}."
          )
        } else {
          "There are {ncol(estimate)} numeric column{?s} for {k} level{?s}."
        }
      ),
      class = "aurc_error_column", call = call
    )
  }
  storage.mode(estimate) <- "double"
  n <- length(truth)
  score <- rep(NA_real_, n)
  loss <- rep(NA_real_, n)
  ok <- stats::complete.cases(estimate) & !is.na(truth)
  if (any(ok)) {
    p <- estimate[ok, , drop = FALSE]
    check_probs(p, arg = "...", call = call)
    score[ok] <- scores_impl(p, score_type, FALSE, 1, 2)
    top <- max.col(p, ties.method = "first")
    loss[ok] <- as.double(top != as.integer(truth[ok]))
    if (k == 2) warn_if_event_level(loss, case_weights, lev, call)
  }
  list(score = score, loss = loss, probs = estimate, ok = ok)
}

# The probability matrix with its columns in the order of the levels.
# Named columns are matched by name (prob_column_levels()); a name that is
# no level, or a level with no column, is an error. Unnamed columns are
# taken in the order of the levels. A single column of a two-level truth is
# the probability of the level its name gives, else of `event_level`.
match_prob_columns <- function(estimate, names, lev, event_level, call) {
  k <- length(lev)
  single <- is.null(dim(estimate)) || ncol(estimate) == 1
  named <- prob_column_levels(names, lev)
  if (!is.null(named)) {
    unknown <- named[!named %in% lev]
    if (length(unknown) > 0 || anyDuplicated(named) ||
      (!single && length(named) != k)) {
      abort_aurc(
        c(
          paste(
            "The names of the probability columns must match the levels",
            "of {.arg truth}: {.val {lev}}."
          ),
          x = if (length(unknown)) {
            "No level {.val {unknown}} (from column{?s} {.val {names[match(unknown, named)]}})."
          } else if (anyDuplicated(named)) {
            "Level {.val {named[duplicated(named)]}} has several columns."
          } else {
            "No column for level{?s} {.val {setdiff(lev, named)}}."
          },
          i = "Columns are matched to the levels by their names
               ({.code .pred_<level>}, the level, or the level with a prefix
               and suffix all columns share); rename them, or give an
               unnamed matrix whose columns are in the order of the levels."
        ),
        class = "aurc_error_column", call = call
      )
    }
  }
  if (!single) {
    if (!is.null(named)) estimate <- estimate[, match(lev, named), drop = FALSE]
    return(estimate)
  }
  if (!is.numeric(estimate) || k != 2) {
    abort_aurc(
      c(
        paste(
          "Give one probability column per level of {.arg truth}",
          "({k}), in the order of the levels."
        ),
        x = if (k != 2) {
          "A single column is enough only for two levels."
        } else {
          "The probability column must be numeric."
        }
      ),
      class = "aurc_error_column", call = call
    )
  }
  event <- lev[if (event_level == "first") 1 else 2]
  of <- if (is.null(named)) event else named
  if (!identical(of, event)) {
    other <- if (event_level == "first") "second" else "first"
    warn_aurc(
      c(
        paste(
          "{.val {names}} is the probability of {.val {of}} (by its name),",
          "but {.code event_level = {.val {event_level}}} is {.val {event}}."
        ),
        i = "It is used as the probability of {.val {of}}.",
        i = paste(
          "yardstick's own metrics (e.g. {.fn roc_auc}) in the same metric",
          "set take it as the probability of {.val {event}}: set",
          "{.code event_level = {.val {other}}}."
        )
      ),
      class = "aurc_warning_event_level", call = call
    )
  }
  p <- as.double(estimate)
  if (identical(of, lev[1])) cbind(p, 1 - p) else cbind(1 - p, p)
}

# The levels that column names give: `.pred_<level>` names stripped of the
# prefix, the names when they all are levels, or, for several columns, the
# names stripped of a prefix and a suffix they share when that leaves
# exactly the levels (`p_yes`, `p_no`; `prob.a.hat`, ...). NULL for no
# names (the columns are then in the order of the levels, by convention)
# and for a single column not named by a level;
# other names are returned as they are, for match_prob_columns() to refuse:
# a column is never assigned to a level by its position when its name says
# something else.
prob_column_levels <- function(names, lev) {
  if (is.null(names) || all(names == "")) return(NULL)
  if (anyNA(names)) return(names)
  if (all(startsWith(names, ".pred_"))) return(substring(names, 7))
  if (all(names %in% lev)) return(names)
  # one column of a two-level truth named otherwise: the probability of
  # `event_level` (the convention of yardstick's binary metrics)
  if (length(names) < 2) return(NULL)
  stripped <- strip_shared_affixes(names, lev)
  if (!is.null(stripped)) return(stripped)
  names
}

# `names` without a prefix and a suffix they all share, such that exactly
# the levels are left; NULL when no such prefix and suffix exist.
strip_shared_affixes <- function(names, lev) {
  if (length(names) != length(lev)) return(NULL)
  shared <- function(x) {
    n <- min(nchar(x))
    k <- 0
    while (k < n && length(unique(substr(x, 1, k + 1))) == 1) k <- k + 1
    k
  }
  rev_str <- function(x) {
    vapply(strsplit(x, NULL), function(ch) paste(rev(ch), collapse = ""), "")
  }
  max_pre <- shared(names)
  max_suf <- shared(rev_str(names))
  for (pre in rev(seq(0, max_pre))) {
    for (suf in rev(seq(0, max_suf))) {
      keep <- nchar(names) - pre - suf
      if (any(keep < 1)) next
      core <- substr(names, pre + 1, pre + keep)
      if (!anyDuplicated(core) && setequal(core, lev)) return(core)
    }
  }
  NULL
}

# A two-level truth with a top-label error rate above 0.5: worse than
# predicting the other class every time, which nearly always means the
# probabilities belong to the other level.
warn_if_event_level <- function(loss, case_weights, lev, call) {
  ok <- !is.na(loss)
  w <- if (length(case_weights)) as.double(case_weights)[ok] else NULL
  l <- loss[ok]
  err <- if (is.null(w)) mean(l) else sum(w * l) / sum(w)
  if (!is.finite(err) || err <= 0.5) return(invisible())
  warn_aurc(
    c(
      paste(
        "The top-label error rate is {format(round(err, 3), nsmall = 3)},",
        "above 0.5 for a two-level {.arg truth}."
      ),
      i = paste(
        "Is the probability column of the other level? For the levels",
        "{.val {lev}}, name the columns {.code .pred_<level>} (matched by",
        "name) or set {.arg event_level}."
      )
    ),
    class = "aurc_warning_event_level", call = call
  )
}

#' @rdname selective_prob_metrics
#' @export
aurc_prob <- new_prob_metric_form("aurc")

#' @rdname selective_prob_metrics
#' @export
aurc_prob_vec <- new_prob_metric_form("aurc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
augrc_prob <- new_prob_metric_form("augrc")

#' @rdname selective_prob_metrics
#' @export
augrc_prob_vec <- new_prob_metric_form("augrc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
eaurc_prob <- new_prob_metric_form("eaurc")

#' @rdname selective_prob_metrics
#' @export
eaurc_prob_vec <- new_prob_metric_form("eaurc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
naurc_prob <- new_prob_metric_form("naurc")

#' @rdname selective_prob_metrics
#' @export
naurc_prob_vec <- new_prob_metric_form("naurc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
eaugrc_prob <- new_prob_metric_form("eaugrc")

#' @rdname selective_prob_metrics
#' @export
eaugrc_prob_vec <- new_prob_metric_form("eaugrc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
failure_auroc_prob <- new_prob_metric_form("failure_auroc")

#' @rdname selective_prob_metrics
#' @export
failure_auroc_prob_vec <- new_prob_metric_form("failure_auroc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
failure_aupr_prob <- new_prob_metric_form("failure_aupr")

#' @rdname selective_prob_metrics
#' @export
failure_aupr_prob_vec <- new_prob_metric_form("failure_aupr", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
success_aupr_prob <- new_prob_metric_form("success_aupr")

#' @rdname selective_prob_metrics
#' @export
success_aupr_prob_vec <- new_prob_metric_form("success_aupr", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
partial_aurc_prob <- new_prob_metric_form("partial_aurc")

#' @rdname selective_prob_metrics
#' @export
partial_aurc_prob_vec <- new_prob_metric_form("partial_aurc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
partial_augrc_prob <- new_prob_metric_form("partial_augrc")

#' @rdname selective_prob_metrics
#' @export
partial_augrc_prob_vec <- new_prob_metric_form("partial_augrc", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
fpr_at_tpr_prob <- new_prob_metric_form("fpr_at_tpr")

#' @rdname selective_prob_metrics
#' @export
fpr_at_tpr_prob_vec <- new_prob_metric_form("fpr_at_tpr", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
achievable_aurc_prob <- new_prob_metric_form("achievable_aurc")

#' @rdname selective_prob_metrics
#' @export
achievable_aurc_prob_vec <- new_prob_metric_form("achievable_aurc",
  vec = TRUE
)
