#' Selective curve of any metric
#'
#' The value of a metric on the predictions a score accepts, at every
#' coverage: the risk-coverage curve of [rc_curve()] with the selective risk
#' replaced by any metric of the rows kept (balanced accuracy, F1, MCC,
#' AUROC, Brier score, RMSE, MAE, or a function of your own), its area and
#' its shortfall from the oracle ordering.
#'
#' @section Definition:
#' Accepting the rows with `score >= t` keeps, for each distinct score `t`
#' (descending), the rows `K(t) = {i : s_i >= t}`: tied scores are accepted
#' together, so no value depends on the order of the rows. With weights
#' `w_i` (1 without case weights) and `W = sum_i w_i`:
#'
#' * `coverage(t) = sum_{i in K(t)} w_i / W`;
#' * `value(t) = M(K(t))`, the metric of the rows kept, with their weights;
#' * the area is the step rule over coverage, the convention of the
#'   `"alpha"` estimator of [aurc_vec()]:
#'   `area = sum_t (coverage(t) - coverage(t+)) value(t)`, with `t+` the
#'   next higher distinct score (coverage 0 above the highest). With the
#'   mean loss as the metric, the area is the AURC (`"alpha"`). With
#'   `min_coverage = a`, only coverage in `[a, 1]` counts:
#'   `sum_t max(0, coverage(t) - max(coverage(t+), a)) value(t)` (a
#'   partial area, not rescaled), for metrics undefined on the first few
#'   rows (F1, MCC, AUROC need both classes).
#'
#' The built-in metrics (`metric =` a name) take `truth` and `estimate`:
#'
#' * `"accuracy"`: the weighted share of `estimate == truth`;
#' * `"balanced_accuracy"`: the mean over the classes present among the
#'   rows kept of their recall (weight of class `k` predicted `k` over
#'   weight of class `k`); yardstick's `bal_accuracy()` ("macro") when
#'   every class is present;
#' * `"f1"`: `2 TP / (2 TP + FP + FN)` for the event, the first level of
#'   a factor `truth` (yardstick's `event_level = "first"`; for a truth
#'   that is not a factor, its smallest value); `NA` when the event is
#'   neither true nor predicted among the rows kept;
#' * `"mcc"`: Matthews' correlation, for `K` classes Gorodkin's
#'   `(c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2))`
#'   (`s` weight kept, `c` weight correct, `t_k`, `p_k` weights true and
#'   predicted in class `k`), the usual MCC for two classes; `NA` when a
#'   factor of the denominator is 0;
#' * `"auroc"`: the AUROC of `estimate` (a probability or any score) for
#'   the event, `truth` 0/1 (1 the event), logical, or a factor (the first
#'   level the event); ties count one half; `NA` without both classes;
#' * `"brier"`: the mean of `(estimate - truth)^2`, `truth` as for
#'   `"auroc"` and `estimate` the event's probability;
#' * `"rmse"`, `"mae"`: `sqrt(mean((estimate - truth)^2))` and
#'   `mean(abs(estimate - truth))`, numeric `truth` and `estimate`.
#'
#' A function `metric(truth, estimate)` (called with `case_weights =` the
#' weights kept when case weights are given, so yardstick's `_vec`
#' functions work as they are) returns one number; it is called once per
#' distinct score, on the rows kept (cost: the number of tie groups times
#' one call). The built-in metrics other than `"auroc"` are running sums:
#' one sort of the score and one pass; `"auroc"` is one pass too, with two
#' Fenwick trees over the ranks of `estimate` (`O(n log n)`).
#' [selective_curve_ci()] gives bootstrap intervals of the area and the
#' excess, and [compare_selective_curves()] compares the areas of scores.
#'
#' @section The oracle:
#' The oracle is the ordering by a per-row loss `l_i`, lowest first.
#' * For `"accuracy"` (`l_i = 1(estimate_i != truth_i)`), `"brier"`
#'   (`(estimate_i - truth_i)^2`), `"mae"` (`|estimate_i - truth_i|`) and
#'   `"rmse"` (`(estimate_i - truth_i)^2`), the metric is a monotone
#'   function of the mean of `l`, the oracle order is the best of all
#'   orderings at every coverage, and it is strict: every row its own cut
#'   (ties in `l` do not change any value). For `"brier"` and `"mae"` its
#'   area is the `AURC*` of [eaurc()] (`optimum = "exact"`), for
#'   `"accuracy"` `1 - AURC*`; without case weights (a weighted row is one
#'   step here, where [eaurc()] counts its weight as copies) `excess`
#'   equals `eaurc_vec(score, l)` for these three.
#' * For the other metrics the value is not a mean of a per-row loss and no
#'   ordering is best at every coverage in general. Their oracle is the
#'   ordering by `oracle_loss`, a per-row loss you give (for example
#'   `truth != estimate` for `"balanced_accuracy"`, `"f1"`, `"mcc"`), with
#'   tied losses entering together (so it is exact); it is a reference
#'   ordering, not a bound. Without `oracle_loss` they have no oracle and
#'   `oracle_area` and `excess` are `NA`.
#'
#' `excess` is the area's shortfall from the oracle's: `area - oracle_area`
#' for a metric to minimise, `oracle_area - area` for one to maximise, so
#' it is never negative for the decomposable metrics.
#'
#' @param data A data frame; a grouped data frame gives one curve per group.
#' @param score Confidence score, higher means more confident (accepted
#'   first). An unquoted column of `data` in `selective_curve()`.
#' @param truth,estimate The true value and the prediction of each row
#'   (see the metrics above). Unquoted columns in `selective_curve()`.
#' @param metric A built-in metric name (see Definition) or a function
#'   `function(truth, estimate, case_weights)` returning one number.
#' @param oracle_loss `NULL` or a non-negative per-row loss (a column in
#'   `selective_curve()`) defining the oracle ordering of a metric that is
#'   not a mean of a per-row loss (see The oracle). Not allowed for the
#'   decomposable built-in metrics, whose loss is fixed.
#' @param direction For a function `metric`: `"minimize"` or `"maximize"`,
#'   needed for `excess`.
#' @param min_coverage The areas count coverage from `min_coverage` to 1
#'   (default 0, the whole curve); see Definition.
#' @param ... Not used; must be empty.
#' @param na_rm If `TRUE`, rows with a missing value are dropped; else
#'   missing values are an error.
#' @param case_weights Non-negative case weights, or `NULL`.
#' @return A tibble of class `aurc_selective_curve` with `threshold`,
#'   `n_accepted`, `coverage`, `value` (after the grouping columns), one
#'   row per distinct score. Its attribute `oracle` holds the oracle curve
#'   (`coverage`, `value`) and `areas` a tibble with `metric`, `area`,
#'   `oracle_area`, `excess` per group; [selective_curve_area()] returns it.
#'   An area over a curve with an undefined (`NA`) value is `NA` with a
#'   warning of class `aurc_warning_undefined`.
#' @references
#' Geifman, Uziel, El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for
#' Deep Neural Classifiers. ICLR.
#'
#' Gorodkin (2004). Comparing two K-category assignments by a K-category
#' correlation coefficient. Computational Biology and Chemistry 28, 367-374.
#' @seealso [rc_curve()], [sparsification_curve()],
#'   [autoplot.aurc_selective_curve()], [selective_curve_ci()]
#' @examples
#' set.seed(1)
#' n <- 200
#' truth <- factor(sample(c("a", "b"), n, TRUE))
#' score <- runif(n)
#' right <- runif(n) < 0.5 + 0.45 * score
#' estimate <- factor(ifelse(right, as.character(truth),
#'   ifelse(truth == "a", "b", "a")
#' ), levels = c("a", "b"))
#' curve <- selective_curve_vec(score, truth, estimate,
#'   metric = "balanced_accuracy", oracle_loss = truth != estimate
#' )
#' curve
#' selective_curve_area(curve)
#' ggplot2::autoplot(curve)
#'
#' # regression: RMSE of the kept predictions, uncertainty as -score
#' sigma <- runif(n, 0.2, 2)
#' y <- rnorm(n)
#' y_hat <- y + rnorm(n, sd = sigma)
#' selective_curve_area(selective_curve_vec(-sigma, y, y_hat, metric = "rmse"))
#'
#' # any function of the rows kept
#' med_ae <- function(truth, estimate) stats::median(abs(truth - estimate))
#' selective_curve_vec(-sigma, y, y_hat, metric = med_ae)
#' @export
selective_curve <- function(data, score, truth, estimate = NULL, ...,
                            metric = "accuracy", oracle_loss = NULL,
                            direction = NULL, min_coverage = 0,
                            na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  quos <- list(
    score = rlang::enquo(score), truth = rlang::enquo(truth),
    estimate = rlang::enquo(estimate),
    oracle_loss = rlang::enquo(oracle_loss),
    case_weights = rlang::enquo(case_weights)
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    selective_curve_one(v$score, v$truth, v$estimate, metric,
      v$oracle_loss, direction, min_coverage, na_rm, v$case_weights, call
    )
  })
  selective_curve_bind(parts, groups$keys)
}

#' @rdname selective_curve
#' @export
selective_curve_vec <- function(score, truth, estimate = NULL, ...,
                                metric = "accuracy", oracle_loss = NULL,
                                direction = NULL, min_coverage = 0,
                                na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  part <- selective_curve_one(score, truth, estimate, metric, oracle_loss,
    direction, min_coverage, na_rm, case_weights, rlang::current_env()
  )
  selective_curve_bind(list(part), NULL)
}

#' The areas of a selective curve
#'
#' @param curve An `aurc_selective_curve` of [selective_curve()].
#' @return A tibble with the grouping columns, `metric`, `area`,
#'   `oracle_area` and `excess` (see [selective_curve()]).
#' @examples
#' curve <- selective_curve_vec(c(3, 2, 2, 1), c(1, 0, 1, 1), c(1, 1, 1, 0))
#' selective_curve_area(curve)
#' @export
selective_curve_area <- function(curve) {
  if (!inherits(curve, "aurc_selective_curve")) {
    abort_aurc(
      paste(
        "{.arg curve} must be an {.cls aurc_selective_curve}, not",
        "{.obj_type_friendly {curve}}."
      ),
      class = "aurc_error_type"
    )
  }
  attr(curve, "areas")
}

selective_curve_bind <- function(parts, keys) {
  with_keys <- function(what, g) {
    x <- parts[[g]][[what]]
    if (is.null(keys)) return(x)
    tibble::as_tibble(c(keys[rep(g, nrow(x)), , drop = FALSE], x))
  }
  stack <- function(what) {
    do.call(rbind, lapply(seq_along(parts), function(g) with_keys(what, g)))
  }
  curve <- tibble::new_tibble(stack("curve"), class = "aurc_selective_curve")
  attr(curve, "oracle") <- stack("oracle")
  attr(curve, "areas") <- stack("areas")
  attr(curve, "metric") <- parts[[1]]$areas$metric
  attr(curve, "direction") <- parts[[1]]$direction
  attr(curve, "group_vars") <- names(keys)
  curve
}

# Checks the columns of one curve and drops incomplete rows.
selective_curve_input <- function(score, truth, estimate, spec, oracle_loss,
                                  na_rm, case_weights, call) {
  case_weights <- plain_weights(case_weights)
  check_numeric_vector(score, "score", call = call)
  n <- length(score)
  check_same_length(truth, n, "truth", call = call)
  if (is.null(estimate) && spec$name != "user") {
    abort_aurc(
      "{.arg estimate} is needed for the metric {.val {spec$name}}.",
      class = "aurc_error_missing_argument", call = call
    )
  }
  if (!is.null(estimate)) {
    check_same_length(estimate, n, "estimate", call = call)
  }
  check_case_weights(case_weights, n, call = call)
  check_bool(na_rm, call = call)
  if (!is.null(oracle_loss)) {
    if (spec$decomposable) {
      abort_aurc(
        c(
          paste(
            "{.arg oracle_loss} can't be given for the metric",
            "{.val {spec$name}}."
          ),
          i = "Its oracle orders the rows by its own per-row loss."
        ),
        class = "aurc_error_value", call = call
      )
    }
    check_loss(oracle_loss, n, arg = "oracle_loss", call = call)
  }
  cols <- list(score, truth, estimate, oracle_loss, case_weights)
  incomplete <- Reduce(`|`, lapply(cols, function(x) {
    if (is.null(x)) rep(FALSE, n) else is.na(x)
  }), rep(FALSE, n))
  if (any(incomplete)) {
    if (!na_rm) {
      abort_aurc(
        c(
          "The columns must not have missing values.",
          i = "Set {.code na_rm = TRUE} to drop incomplete rows."
        ),
        class = "aurc_error_missing", call = call
      )
    }
    keep <- !incomplete
    score <- score[keep]
    truth <- truth[keep]
    if (!is.null(estimate)) estimate <- estimate[keep]
    if (!is.null(oracle_loss)) oracle_loss <- oracle_loss[keep]
    if (length(case_weights)) case_weights <- case_weights[keep]
  }
  w <- if (length(case_weights)) {
    as.double(case_weights)
  } else {
    rep(1, length(score))
  }
  if (!length(score) || sum(w) <= 0) {
    abort_aurc(
      c(
        "Can't compute a curve without data.",
        i = "No row is left, or every case weight is 0."
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  if (spec$input == "prob") truth <- event_indicator(truth, call)
  if (spec$input %in% c("prob", "numeric")) {
    check_numeric_vector(estimate, "estimate", call = call)
    if (spec$input == "numeric") {
      check_numeric_vector(truth, "truth", call = call)
    }
  }
  list(
    score = as.double(score), truth = truth, estimate = estimate,
    oracle_loss = oracle_loss, w = w, weighted = length(case_weights) > 0
  )
}

# 0/1 (1 = the event) from 0/1 numbers, a logical or a two-level factor
# (the first level the event, as yardstick's event_level = "first").
event_indicator <- function(truth, call) {
  if (is.factor(truth)) {
    if (nlevels(truth) != 2) {
      abort_aurc(
        "{.arg truth} must have two levels, not {nlevels(truth)}.",
        class = "aurc_error_value", call = call
      )
    }
    return(as.double(truth == levels(truth)[1]))
  }
  if (is.logical(truth)) return(as.double(truth))
  if (!is.numeric(truth) || !all(truth %in% c(0, 1))) {
    abort_aurc(
      "{.arg truth} must be 0/1, logical or a two-level factor.",
      class = "aurc_error_value", call = call
    )
  }
  as.double(truth)
}

# The curve, oracle and areas of one group.
selective_curve_one <- function(score, truth, estimate, metric, oracle_loss,
                                direction, min_coverage, na_rm,
                                case_weights, call) {
  spec <- selective_metric_spec(metric, direction, call)
  min_coverage <- check_number(min_coverage, 0, 1, call = call)
  x <- selective_curve_input(score, truth, estimate, spec, oracle_loss,
    na_rm, case_weights, call
  )
  keep <- x$w > 0
  o <- order(x$score, decreasing = TRUE)
  o <- o[keep[o]]
  s <- x$score[o]
  ends <- c(which(diff(s) != 0), length(s))
  sub <- function(v) if (is.null(v)) NULL else v[o]
  w <- x$w[o]
  total <- sum(w)
  value <- selective_metric_values(spec, sub(x$truth), sub(x$estimate), w,
    ends, x$weighted, call
  )
  accepted <- cumsum(w)[ends]
  curve <- tibble::tibble(
    threshold = s[ends], n_accepted = accepted,
    coverage = accepted / total, value = value
  )
  oracle <- selective_oracle(spec, x, keep, call)
  area <- step_area(curve$coverage, curve$value, min_coverage, call)
  oracle_area <- if (is.null(oracle)) {
    NA_real_
  } else {
    step_area(oracle$coverage, oracle$value, min_coverage, call)
  }
  excess <- if (is.null(spec$direction)) {
    NA_real_
  } else if (spec$direction == "minimize") {
    area - oracle_area
  } else {
    oracle_area - area
  }
  list(
    curve = curve,
    oracle = oracle %||% tibble::tibble(coverage = double(), value = double()),
    areas = tibble::tibble(
      metric = if (is.function(metric)) "user" else metric,
      area = area, oracle_area = oracle_area, excess = excess
    ),
    direction = spec$direction
  )
}

# The step-rule area over coverages in [min_coverage, 1]: each cut's value
# times the coverage it adds there.
step_area <- function(coverage, value, min_coverage, call) {
  added <- pmax(0, coverage - pmax(c(0, coverage[-length(coverage)]),
    min_coverage
  ))
  value <- value[added > 0]
  added <- added[added > 0]
  if (anyNA(value)) {
    warn_aurc(
      c(
        paste(
          "The metric is undefined at {sum(is.na(value))} of",
          "{length(value)} coverage{?s}; its area is {.val {NA}}."
        ),
        i = paste(
          "At a low coverage a metric may lack a class it needs;",
          "{.arg min_coverage} leaves the lowest coverages out."
        )
      ),
      class = "aurc_warning_undefined", call = call
    )
    return(NA_real_)
  }
  sum(added * value)
}

# The oracle curve: the rows ordered by their loss, lowest first; strict
# (every row a cut) for a decomposable metric, tied losses together for
# the ordering by `oracle_loss`.
selective_oracle <- function(spec, x, keep, call) {
  loss <- if (spec$decomposable) {
    selective_metric_row_loss(spec, x$truth, x$estimate)
  } else {
    x$oracle_loss
  }
  if (is.null(loss)) return(NULL)
  o <- order(loss)
  o <- o[keep[o]]
  w <- x$w[o]
  ends <- if (spec$decomposable) {
    seq_along(o)
  } else {
    c(which(diff(loss[o]) != 0), length(o))
  }
  sub <- function(v) if (is.null(v)) NULL else v[o]
  value <- selective_metric_values(spec, sub(x$truth), sub(x$estimate), w,
    ends, x$weighted, call
  )
  tibble::tibble(coverage = cumsum(w)[ends] / sum(w), value = value)
}
