#' Curves, intervals, comparisons, bins and rankings from class probabilities
#'
#' The truth + class-probability forms of every family, in the style of
#' yardstick: a factor `truth` and the class-probability columns a
#' tidymodels model predicts (`.pred_<level>`, matched to the levels by
#' their names; see [selective_prob_metrics] for the rules, `event_level`
#' and the warnings). From the probabilities each row gets the confidence
#' score `score_type` (the largest probability by default, see
#' [confidence_score()]) and the top-label 0/1 loss (1 when the class of
#' the largest probability, the first of tied maxima, is not `truth`); then
#'
#' * `rc_curve_prob()` is [rc_curve()], `failure_roc_curve_prob()` and
#'   `failure_pr_curve_prob()` are [failure_roc_curve()] and
#'   [failure_pr_curve()];
#' * `selective_ci_prob()` is [selective_ci()] (the calibration errors take
#'   the largest probability as the confidence, so they need `score_type =
#'   "msp"`);
#' * `calibration_bins_prob()` is [calibration_bins()] of the top-label
#'   confidence and correctness (the reliability diagram of the model);
#' * `compare_scores_prob()` is [compare_scores()] of several confidence
#'   scores of the same model (`score_types`, e.g. the largest
#'   probability against the margin and the negative entropy);
#' * `bootstrap_ranking_prob()` is [bootstrap_ranking()] of a long data
#'   frame with one row per model (`method`) and case, e.g. the collected
#'   predictions of several tidymodels workflows. Without `case`, the case
#'   id is the position of the row within its method (and run): the k-th
#'   row of every method is the same case, as stacking the `augment()`
#'   output of several models on one test set gives; every method (and
#'   run) must then have as many rows. The position is taken before rows
#'   with a missing value are dropped.
#'
#' Grouped data frames give one result per group, as the underlying
#' function does.
#'
#' @param data A data frame with the truth and probability columns (grouped
#'   or not).
#' @param truth The unquoted column of the true class, a factor.
#' @param ... The class-probability columns (unquoted names or tidyselect
#'   helpers such as `starts_with(".pred_")`), then named options passed on
#'   to the underlying function (e.g. `metrics =`, `method =`, `binning =`,
#'   `times =`; see its help page).
#' @param event_level `"first"` or `"second"`: the level of a single
#'   probability column of a two-level `truth` whose name does not say.
#' @param score_type The confidence score computed from the probabilities:
#'   `"msp"` (the default), `"margin"`, `"neg_entropy"` or `"neg_gini"`.
#' @param score_types For `compare_scores_prob()`: two or more of those.
#' @param method,case,run For `bootstrap_ranking_prob()`: the unquoted
#'   columns of the model, the case id and (optionally) the training run,
#'   as in [bootstrap_ranking()]. `case` is optional: without it (or with
#'   `case = NULL`) the k-th row of each method (and run) is case k. As
#'   unnamed arguments fill `case` before `truth`, write `case = NULL` or
#'   leave its place empty: `bootstrap_ranking_prob(data, model, , truth,
#'   ...)`.
#' @param na_rm If `TRUE` (the default, as in yardstick) rows with a
#'   missing truth or probability are dropped.
#' @param case_weights Optional unquoted column of non-negative frequency
#'   weights (not for the ranking).
#' @return What the underlying function returns.
#' @seealso [selective_prob_metrics] for the metrics themselves.
#' @examples
#' set.seed(1)
#' n <- 400
#' p <- runif(n)
#' df <- data.frame(
#'   truth = factor(ifelse(runif(n) < p, "yes", "no"), c("no", "yes")),
#'   .pred_no = 1 - p, .pred_yes = p
#' )
#' rc_curve_prob(df, truth, .pred_no, .pred_yes)
#' selective_ci_prob(df, truth, starts_with(".pred_"),
#'   metrics = c("aurc", "ece")
#' )
#' calibration_bins_prob(df, truth, .pred_no, .pred_yes)
#' compare_scores_prob(df, truth, .pred_no, .pred_yes,
#'   score_types = c("msp", "neg_entropy"), metric = "failure_auroc"
#' )
#' @name selective_prob_forms
NULL

#' @rdname selective_prob_forms
#' @export
rc_curve_prob <- function(data, truth, ..., event_level = "first",
                          score_type = "msp", na_rm = TRUE,
                          case_weights = NULL) {
  prob_form_call(rc_curve, prob_form_args(rlang::current_env(), ...),
    ".score", ".loss"
  )
}

#' @rdname selective_prob_forms
#' @export
failure_roc_curve_prob <- function(data, truth, ..., event_level = "first",
                                   score_type = "msp", na_rm = TRUE,
                                   case_weights = NULL) {
  prob_form_call(failure_roc_curve,
    prob_form_args(rlang::current_env(), ...), ".score", ".loss"
  )
}

#' @rdname selective_prob_forms
#' @export
failure_pr_curve_prob <- function(data, truth, ..., event_level = "first",
                                  score_type = "msp", na_rm = TRUE,
                                  case_weights = NULL) {
  prob_form_call(failure_pr_curve,
    prob_form_args(rlang::current_env(), ...), ".score", ".loss"
  )
}

#' @rdname selective_prob_forms
#' @export
selective_ci_prob <- function(data, truth, ..., event_level = "first",
                              score_type = "msp", na_rm = TRUE,
                              case_weights = NULL) {
  a <- prob_form_args(rlang::current_env(), ...)
  # (selective_ci() judges metrics that are no names)
  cal <- if (is.character(a$options$metrics)) {
    intersect(a$options$metrics, ci_calibration_metrics)
  }
  if (length(cal) && a$score_types != "msp") {
    abort_aurc(
      c(
        paste(
          "{.val {cal}} take{?s/} the largest probability as the",
          "confidence; {.arg score_type} must be {.val msp}."
        ),
        x = "It is {.val {a$score_types}}."
      ),
      class = "aurc_error_value", call = a$call
    )
  }
  prob_form_call(selective_ci, a, ".score", ".loss")
}

#' @rdname selective_prob_forms
#' @export
calibration_bins_prob <- function(data, truth, ..., event_level = "first",
                                  na_rm = TRUE, case_weights = NULL) {
  prob_form_call(calibration_bins,
    prob_form_args(rlang::current_env(), ...), ".confidence", ".correct"
  )
}

#' @rdname selective_prob_forms
#' @export
compare_scores_prob <- function(data, truth, ...,
                                score_types = c("msp", "margin",
                                  "neg_entropy"),
                                event_level = "first", na_rm = TRUE,
                                case_weights = NULL) {
  a <- prob_form_args(rlang::current_env(), ..., types = score_types)
  prob_form_call(compare_scores, a, paste0(".", a$score_types), ".loss")
}

#' @rdname selective_prob_forms
#' @export
bootstrap_ranking_prob <- function(data, method, case = NULL, truth, ...,
                                   run = NULL, event_level = "first",
                                   score_type = "msp", na_rm = TRUE) {
  call <- rlang::current_env()
  cols <- list(
    method = rlang::enquo(method), case = rlang::enquo(case),
    run = rlang::enquo(run)
  )
  if (rlang::quo_is_null(cols$case) && !rlang::quo_is_missing(cols$method)) {
    # the position within each method and run, taken before prob_form_args()
    # drops the rows with a missing value
    check_data_frame(data, call = call)
    data[[".case"]] <- ranking_row_case(
      eval_column(data, cols$method, "method", call = call),
      eval_column(data, cols$run, "run", call = call),
      call
    )
    cols$case <- rlang::quo(!!rlang::sym(".case"))
  } else if (!rlang::quo_is_missing(cols$case)) {
    warn_case_not_id(data, cols$case, call)
  }
  a <- prob_form_args(call, ...)
  args <- c(
    list(a$data),
    lapply(cols[c("method", "case")], rlang::quo_get_expr),
    list(".score", ".loss"),
    if (!rlang::quo_is_null(cols$run)) {
      list(run = rlang::quo_get_expr(cols$run))
    },
    a$options
  )
  do.call(bootstrap_ranking, args)
}

# The case id of bootstrap_ranking_prob() without `case`: the position of
# each row within its method (and run), every method (and run) with as
# many rows.
ranking_row_case <- function(method, run, call) {
  check_key_column(method, "method", call)
  if (!is.null(run)) check_key_column(run, "run", call)
  key <- match(method, unique(method))
  if (!is.null(run)) {
    r <- match(run, unique(run))
    both <- (key - 1) * as.double(max(r, 0L)) + r
    key <- match(both, unique(both))
  }
  at <- positions_within(key, max(key, 0L))
  if (any(at$count != at$count[1])) {
    first <- match(seq_along(at$count), key)
    labels <- paste0("\"", method[first], "\"",
      if (!is.null(run)) paste0(", run ", run[first])
    )
    check_equal_rows(at$count, labels, "method", "method", "", call,
      each = if (is.null(run)) "method" else "method and run"
    )
  }
  at$pos
}

# A classed warning when `case` holds numbers that are not whole: a
# probability column, most often, that took the place of `case` (unnamed
# arguments fill it before `truth`).
warn_case_not_id <- function(data, case_quo, call) {
  if (!is.data.frame(data)) return(invisible())
  case <- tryCatch(eval_column(data, case_quo, "case", call = call),
    error = function(e) NULL
  )
  if (!is.double(case) || is.object(case)) return(invisible())
  odd <- which(is.finite(case) & case != round(case))
  if (length(odd) == 0) return(invisible())
  warn_aurc(
    c(
      paste(
        "{.arg case} holds numbers that are not whole (row {odd[1]} is",
        "{.val {case[odd[1]]}}): is it a probability column?"
      ),
      i = paste(
        "Unnamed arguments fill {.arg case} before {.arg truth}; to number",
        "the cases by their rows, write {.code case = NULL}."
      )
    ),
    class = "aurc_warning_swapped", call = call
  )
}

# The arguments of a prob form (its frame `env`): the probability columns
# (the unnamed `...`) and the options for the underlying function (the
# named ones); `data` with the columns .score (or one .<type> per type of
# `types`), .confidence (the largest probability), .correct, .loss and
# .case_weights, and the NA rule applied (rows with a missing value
# dropped when `na_rm`).
prob_form_args <- function(env, ..., types = NULL) {
  call <- env
  data <- env$data
  check_data_frame(data, call = call)
  dots <- rlang::enquos(...)
  named <- names(dots) != ""
  cols <- select_columns(data, dots[!named], "...", call)
  options <- prob_form_options(dots[named], call)
  truth_quo <- rlang::eval_bare(quote(rlang::enquo(truth)), env)
  truth <- data[[select_columns(data, list(truth_quo), "truth", call)]]
  estimate <- if (length(cols) == 1) {
    data[[cols]]
  } else {
    as.matrix(as.data.frame(data)[cols])
  }
  cw <- NULL
  if (exists("case_weights", envir = env, inherits = FALSE)) {
    cw_quo <- rlang::eval_bare(quote(rlang::enquo(case_weights)), env)
    cw <- prob_case_weights(
      eval_column(data, cw_quo, "case_weights", call = call), call
    )
  }
  event_level <- check_choice(env$event_level, c("first", "second"),
    arg = "event_level", call = call
  )
  if (is.null(types)) types <- env$score_type %||% "msp"
  if (!is.character(types) || length(types) == 0 ||
    !all(types %in% prob_score_types)) {
    abort_aurc(
      c(
        paste0(
          "{.arg ",
          if (exists("score_types", envir = env, inherits = FALSE)) {
            "score_types"
          } else {
            "score_type"
          },
          "} must be among {.or {.val {prob_score_types}}}."
        ),
        # (a function has no value to show, and cli took seconds to
        # format a vector of 1e5 numbers)
        x = if (is.character(types) && length(types) <= 5) {
          "It is {.val {types}}."
        } else {
          "It is {.obj_type_friendly {types}}."
        }
      ),
      class = "aurc_error_value", call = call
    )
  }
  types <- unique(types)
  check_bool(env$na_rm, arg = "na_rm", call = call)
  input <- prob_metric_input(truth, estimate, event_level, types[1], call,
    names = cols, case_weights = cw
  )
  msp <- rep(NA_real_, length(truth))
  p <- input$probs[input$ok, , drop = FALSE]
  if (any(input$ok)) msp[input$ok] <- apply_score(p, "msp")
  data[[".confidence"]] <- msp
  data[[".loss"]] <- input$loss
  data[[".correct"]] <- 1 - input$loss
  data[[".case_weights"]] <- cw
  if (exists("score_types", envir = env, inherits = FALSE)) {
    for (t in types) {
      sc <- rep(NA_real_, length(truth))
      if (any(input$ok)) sc[input$ok] <- apply_score(p, t)
      data[[paste0(".", t)]] <- sc
    }
  } else {
    data[[".score"]] <- input$score
  }
  if (isTRUE(env$na_rm)) {
    keep <- input$ok
    if (!is.null(cw)) keep <- keep & !is.na(cw)
    if (!all(keep)) data <- data_rows(data, keep)
  }
  list(
    data = data, options = options, call = call, score_types = types,
    weighted = !is.null(cw)
  )
}

apply_score <- function(p, type) scores_impl(p, type, FALSE, 1, 2)

# The named options of a prob form, evaluated where the call was written.
# A column of `data` named unquoted (`strata = g`) is not found there: a
# classed error that says to give its name as a string, which the
# underlying function looks up in `data`. Options whose value is a
# language object (a symbol, a call) are quoted, so do.call() passes the
# object instead of evaluating it a second time.
prob_form_options <- function(quos, call) {
  out <- lapply(names(quos), function(arg) {
    quo <- quos[[arg]]
    value <- tryCatch(rlang::eval_tidy(quo), error = function(e) {
      name <- if (rlang::quo_is_symbol(quo)) rlang::as_label(quo)
      abort_aurc(
        c(
          "Can't evaluate the option {.arg {arg}}.",
          i = paste0(
            "The named options after the probability columns are values; ",
            "give a column of {.arg data} by its name as a string",
            if (!is.null(name)) " ({.code {arg} = {.str {name}}})", "."
          )
        ),
        parent = e, class = "aurc_error_column", call = call
      )
    })
    if (is.language(value)) rlang::call2("quote", value) else value
  })
  stats::setNames(out, names(quos))
}

# Rows of a data frame, grouped data frames regrouped.
data_rows <- function(data, keep) {
  if (inherits(data, "grouped_df") && requireNamespace("dplyr", quietly = TRUE)) {
    vars <- dplyr::group_vars(data)
    return(dplyr::group_by(dplyr::ungroup(data)[keep, , drop = FALSE],
      dplyr::across(dplyr::all_of(vars))
    ))
  }
  data[keep, , drop = FALSE]
}

# Calls the underlying function `fn(data, <columns>, <options>)`.
prob_form_call <- function(fn, a, first, second) {
  args <- c(list(a$data, first, second), a$options)
  if (a$weighted) args$case_weights <- ".case_weights"
  do.call(fn, args)
}
