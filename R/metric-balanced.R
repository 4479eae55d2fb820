#' Balanced-accuracy AURC and AUGRC (fd-shifts)
#'
#' The AURC and AUGRC of Traub et al. (2024) with the risk measured by
#' balanced accuracy, so that a rare class counts as much as a common one.
#' They need the true class of every prediction (`truth`) beside its score
#' and its 0/1 failure.
#'
#' @section Definitions:
#' Let the classes of `truth` be `1..K` (all classes of the data), `n_c`
#' the (weighted) count of class `c` and `n` the total. At every distinct
#' threshold `t` (tie-closed: the accepted set is `{score >= t}`), with
#' `a_c(t)` the accepted count of class `c` and `e_c(t)` its accepted
#' failures:
#'
#' * `aurc_ba()`: the selective balanced risk
#'   `R_BA(t) = (1/K) sum_{c : a_c(t) > 0} e_c(t) / a_c(t)` (one minus the
#'   mean per-class accuracy of the accepted predictions; a class with no
#'   accepted prediction adds 0, as in fd-shifts), integrated by the
#'   trapezoid rule over the points `(coverage_t, R_BA(t))` and extended
#'   flat from the smallest coverage down to 0: fd-shifts' `aurc_ba`
#'   (`evaluate_auc(risk = "selective-risk-ba")`, linear interpolation),
#'   the convention of the `"trapezoid"` estimator of [aurc()].
#' * `augrc_ba()`: the trapezoid AUGRC ([augrc()]) of the failures
#'   reweighted by the class prevalences, `failure_i n / (K n_{c_i})`
#'   (fd-shifts' `augrc_ba`): the generalized risk of a balanced data set.
#'
#' `augrc_ba()` equals [augrc()] when every class has the same count;
#' `aurc_ba()` equals the `"trapezoid"` AURC when there is one class. One
#' sort of the scores, then a pass that updates one class's term per
#' prediction.
#'
#' `data` may also be a lazy database table (dbplyr, as for [aurc()]): the
#' engine groups the rows by class and distinct score in one pass (with the
#' input checks of the other database forms), and the metric is computed
#' from those rows, equal to the in-memory value (`truth` may be a column
#' or an expression of the columns).
#'
#' @section Intervals and comparisons:
#' `selective_ci(metrics = c("aurc_ba", "augrc_ba"), truth = )` gives their
#' intervals and `compare_scores(metric = "aurc_ba", truth = )` paired
#' comparisons of scores or of models (each with its own failures).
#' * `method = "analytic"`: from their influence functions (derived per tie
#'   group and class; `?influence_functions` gives the recipe), checked
#'   against numerical derivatives. The Wald interval needs enough cases of
#'   every class: with three classes of 60/30/10%, simulated, it covered
#'   the population value in 91% (AURC_BA) and 93.5% (AUGRC_BA) of 600
#'   samples of n = 400, 92.5% and 94.5% at n = 1000, and 93.9% and 95.3%
#'   of 1000 samples at n = 2000 (the estimate's distribution is skewed when
#'   a class has few cases).
#' * `method = "bootstrap"`: a replicate resamples the cases with their
#'   classes (counts over the presorted cases, as for every metric;
#'   src/core/balanced.h), and `K` is the number of classes drawn into it.
#'   Its percentile interval covered 94.3% and 94.7% at n = 400 in the same
#'   setting: prefer it when a class has fewer than a few hundred cases.
#'
#' @inheritParams failure_auroc
#' @param truth The true class of each prediction (a factor, character,
#'   integer or logical vector; for the data-frame form an unquoted
#'   column). No missing values unless `na_rm = TRUE`.
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator` (`"balanced"`), `.estimate`, and the grouping
#'   columns.
#' @references Traub, Bungert, Lüth, Baumgartner, Maier-Hein, Maier-Hein,
#'   Jaeger (2024). Overcoming common flaws in the evaluation of selective
#'   classification systems. NeurIPS 2024 (and its code, fd-shifts).
#' @examples
#' set.seed(1)
#' truth <- sample(c("a", "b", "c"), 300, replace = TRUE, prob = c(.7, .2, .1))
#' score <- runif(300)
#' failure <- rbinom(300, 1, ifelse(truth == "a", 0.1, 0.4) * (1.5 - score))
#' aurc_ba_vec(score, failure, truth)
#' aurc_vec(score, failure, estimator = "trapezoid")
#' augrc_ba_vec(score, failure, truth)
#' augrc(data.frame(score, failure, truth), score, failure)
#' augrc_ba(data.frame(score, failure, truth), score, failure, truth)
#' @export
aurc_ba <- function(data, score, failure, truth, ..., na_rm = FALSE,
                    case_weights = NULL) {
  check_dots(...)
  balanced_df("aurc_ba", data, rlang::enquo(score), rlang::enquo(failure),
    rlang::enquo(truth), rlang::enquo(case_weights), na_rm,
    call = rlang::current_env()
  )
}

#' @rdname aurc_ba
#' @export
aurc_ba_vec <- function(score, failure, truth, ..., na_rm = FALSE,
                        case_weights = NULL) {
  check_dots(...)
  balanced_value("aurc_ba", score, failure, truth, case_weights, na_rm,
    call = rlang::current_env()
  )
}

#' @rdname aurc_ba
#' @export
augrc_ba <- function(data, score, failure, truth, ..., na_rm = FALSE,
                     case_weights = NULL) {
  check_dots(...)
  balanced_df("augrc_ba", data, rlang::enquo(score), rlang::enquo(failure),
    rlang::enquo(truth), rlang::enquo(case_weights), na_rm,
    call = rlang::current_env()
  )
}

#' @rdname aurc_ba
#' @export
augrc_ba_vec <- function(score, failure, truth, ..., na_rm = FALSE,
                         case_weights = NULL) {
  check_dots(...)
  balanced_value("augrc_ba", score, failure, truth, case_weights, na_rm,
    call = rlang::current_env()
  )
}

balanced_df <- function(metric, data, score, failure, truth, case_weights,
                        na_rm, call) {
  if (is_db_table(data)) {
    return(balanced_remote(metric, data, score, failure, truth,
      case_weights, na_rm, call
    ))
  }
  check_data_frame(data, call = call)
  cols <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    list(
      score = score, failure = failure, truth = truth,
      case_weights = case_weights
    ),
    c("score", "failure", "truth", "case_weights")
  )
  groups <- data_groups(data)
  rows <- if (is.null(groups$rows)) list(seq_len(nrow(data))) else groups$rows
  values <- vapply(rows, function(i) {
    pick <- function(x) if (is.null(x)) NULL else x[i]
    balanced_value(metric, pick(cols$score), pick(cols$failure),
      pick(cols$truth), pick(cols$case_weights), na_rm, call
    )
  }, numeric(1))
  metric_tibble(groups$keys, metric, "balanced", matrix(values, ncol = 1))
}

# Validates, applies the NA rule (a missing score, failure or class), and
# computes one balanced metric.
balanced_value <- function(metric, score, failure, truth, case_weights,
                           na_rm, call) {
  case_weights <- plain_weights(case_weights)
  check_bool(na_rm, call = call)
  n <- length(score)
  if (!is.atomic(truth) || is.null(truth) || !is.null(dim(truth)) ||
    is.raw(truth) || is.complex(truth) || is.list(truth)) {
    abort_aurc(
      c(
        "{.arg truth} must be a vector of class labels.",
        x = "It is {.obj_type_friendly {truth}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  check_same_length(truth, n, "truth", call = call)
  miss <- is.na(truth)
  if (any(miss)) {
    if (!na_rm) return(NA_real_)
    keep <- !miss
    score <- score[keep]
    failure <- failure[keep]
    truth <- truth[keep]
    if (!is.null(case_weights) && length(case_weights) == n) {
      case_weights <- case_weights[keep]
    }
  }
  check_metric_columns(score, failure, case_weights, na_rm, "failure",
    binary = TRUE, call = call
  )
  # the checks every selective metric runs (swapped arguments, a loss that
  # looks like a confidence, a score that ranks the failures backwards)
  warn_if_suspicious(score, failure, "failure", call = call)
  cls <- match(truth, unique(truth))
  bad <- is.na(score) | is.na(failure)
  if (any(bad)) {
    if (!na_rm) return(NA_real_)
    score <- score[!bad]
    failure <- failure[!bad]
    cls <- cls[!bad]
    if (!is.null(case_weights)) case_weights <- case_weights[!bad]
  }
  input <- prepare_metric_input(score, failure, case_weights, FALSE,
    loss_arg = "failure", binary = TRUE, call = call
  )
  if (is.null(input)) return(NA_real_)
  w <- if (length(input$case_weights)) input$case_weights else
    rep(1, length(input$score))
  # rows of weight 0 are not there (nor are their classes)
  keep <- w > 0
  if (metric == "augrc_ba") {
    return(augrc_ba_value(input$score[keep], input$loss[keep], cls[keep],
      w[keep]))
  }
  aurc_ba_value(input$score[keep], input$loss[keep], cls[keep], w[keep])
}

# The balanced metrics in C++ (src/core/balanced.h, the kernel of the
# bootstrap replicates): one sort of the scores, then one pass. `cls`:
# integer classes; rows of weight 0 are already gone.
augrc_ba_value <- function(score, loss, cls, w) {
  balanced_metric(score, loss, cls, w, "augrc_ba")
}

aurc_ba_value <- function(score, loss, cls, w) {
  balanced_metric(score, loss, cls, w, "aurc_ba")
}

balanced_metric <- function(score, loss, cls, w, metric) {
  ids <- match(cls, unique(cls))
  balanced_metric_impl(as.double(score), as.double(loss), ids - 1L,
    length(unique(ids)), if (all(w == 1)) double() else as.double(w),
    metric, sort_threads()
  )
}
