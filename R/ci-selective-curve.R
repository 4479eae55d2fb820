#' Bootstrap intervals for the area of a selective curve
#'
#' Intervals for the area of the selective curve of any metric
#' ([selective_curve()]: accuracy, balanced accuracy, F1, MCC, AUROC,
#' Brier score, RMSE, MAE or a function of your own) and for its excess
#' over the oracle, by the bootstrap. Most of these metrics are not means
#' of a per-row loss, so the influence-function intervals of
#' [selective_ci()] do not apply; the bootstrap does for every metric.
#'
#' @section Definition:
#' The estimates are `area` and `excess` of [selective_curve_area()],
#' exactly. A bootstrap replicate draws the cases with replacement
#' (`times` replicates; within `strata`; whole clusters with `cluster`; or
#' the rows of `indices`), with the generator, the seed and the plan of
#' `selective_ci(method = "bootstrap")`: `set.seed()` reproduces the draws,
#' and with the same `score`, `case_weights`, `strata` and `cluster` the
#' draws are those of [selective_ci()] and [compare_scores()].
#'
#' A replicate is a vector of case counts `c_i` (the times case `i` was
#' drawn). Its value is the area (and excess) of the curve with the counts
#' as case weights: the rows are sorted by the score (and by the oracle's
#' loss) once, and a replicate keeps the rows with `c_i > 0` in that order,
#' so no replicate sorts anything. Tied scores enter together as in
#' [selective_curve()], so the value of the score's curve is exactly that
#' of the resampled rows (each case repeated `c_i` times), and so is that
#' of the oracle of `oracle_loss` (tied losses enter together). The strict
#' oracle of `"accuracy"`, `"brier"`, `"rmse"` and `"mae"` counts a case
#' drawn `c_i` times as one step of weight `c_i` (as [selective_curve()]
#' counts a weighted row), where the repeated rows would be `c_i` steps: the
#' two oracle areas differ by `O(log(n) / n)`, far below the standard
#' error. A function `metric` gets the counts as `case_weights` (it must
#' honour them as frequency weights, as yardstick's metrics do).
#'
#' Case weights are frequency weights, as in [selective_ci()]: a replicate
#' draws `round(sum(case_weights))` rows, case `i` with probability
#' `w_i / sum(w)`, and its counts are its weights.
#' [hardhat::importance_weights()] resample the cases, each entering with
#' its weight times its count (the estimate is the same).
#'
#' Intervals (`type`), from the replicate values `t` (replicates where the
#' area is undefined, e.g. F1 without the event, are left out with a
#' warning of class `aurc_warning_bootstrap_undefined`):
#' `"percentile"` the type-7 quantiles of `t`; `"basic"` the percentile
#' interval reflected around the estimate; `"normal"` the estimate
#' `-/+ qnorm((1 + conf_level) / 2) sd(t)`; `"bca"` Efron's bias-corrected
#' and accelerated interval with the jackknife acceleration (one curve per
#' deleted case or cluster, at most 5000 of them), exactly as for
#' [selective_ci()]. `.std_error` is `sd(t)`.
#'
#' @section Coverage:
#' In `studies/selective-curve-ci-coverage.R` (a binary classifier whose
#' correctness rises with a tied score; accuracy, balanced accuracy, F1 and
#' MCC, their areas and excesses) the 95% percentile intervals covered
#' 91.2-94.5% at `n = 200` (600 data sets; the analytic AURC interval of
#' [selective_ci()] covered the accuracy area 91.2% on the same data) and
#' 93-95% at `n = 1000` (200 data sets); the paired test of two equally
#' good scores rejected 4.0% and 3.5% at the 5% level.
#'
#' @section Cost:
#' One sort of the score (and one of the oracle's loss), then per replicate
#' one pass over the rows (`O(n)`; `"auroc"` `O(n log n)`, with Fenwick
#' trees over the ranks of `estimate` found once). Measured on one core
#' (`studies/selective-curve-ci-coverage.R`, per second of CPU time): at
#' `n = 1e4` about 1200 replicates for accuracy, 700 for F1 (with an
#' `oracle_loss`) and 1700 for AUROC; at `n = 1e5` about 140, 80 and 160.
#' A function `metric` is called once per distinct score of every
#' replicate (`O(n)` calls, each on the rows kept: about `n^2` work per
#' replicate), affordable only for small `n`.
#'
#' @inheritParams selective_curve
#' @param type Bootstrap interval: `"percentile"` (default), `"bca"`,
#'   `"normal"` or `"basic"` (see Definition).
#' @param conf_level Confidence level, strictly between 0 and 1.
#' @param times Number of bootstrap replicates, a whole number from 2 to
#'   1e6 (ignored with `indices`).
#' @param strata,cluster Optional stratum or cluster of each row (at least
#'   two distinct values, no `NA`): cases are resampled within strata;
#'   whole clusters are resampled. Unquoted columns in the data-frame form.
#' @param indices Optional `times x m` integer matrix of drawn row
#'   positions (`m` the number of rows, or `round(sum(case_weights))`),
#'   one replicate per row, instead of new draws.
#' @return A tibble with the grouping columns, then `.metric` (the metric's
#'   name, `"user"` for a function), `.estimator` (`"area"` or `"excess"`),
#'   `.estimate`, `.lower`, `.upper`, `.std_error`, `.conf_level` and
#'   `.method` (`"bootstrap_<type>"`): two rows per group. Without an
#'   oracle (see [selective_curve()]) the `"excess"` row is `NA`. The
#'   result of `selective_curve_ci_vec()` carries the replicate values as
#'   the attribute `"replicates"` (a `times x 2` matrix, columns `area` and
#'   `excess`).
#' @references
#' Efron, Tibshirani (1993). An Introduction to the Bootstrap. Chapman &
#' Hall.
#'
#' Davison, Hinkley (1997). Bootstrap Methods and their Application.
#' Cambridge University Press.
#' @seealso [selective_curve()], [compare_selective_curves()] for paired
#'   differences of scores, [selective_ci()].
#' @examples
#' set.seed(1)
#' n <- 300
#' truth <- factor(sample(c("a", "b"), n, TRUE))
#' score <- runif(n)
#' right <- runif(n) < 0.5 + 0.45 * score
#' estimate <- factor(ifelse(right, as.character(truth),
#'   ifelse(truth == "a", "b", "a")
#' ), levels = c("a", "b"))
#' selective_curve_ci_vec(score, truth, estimate,
#'   metric = "balanced_accuracy", oracle_loss = truth != estimate,
#'   min_coverage = 0.1, times = 200
#' )
#' df <- data.frame(score, truth, estimate)
#' selective_curve_ci(df, score, truth, estimate, metric = "accuracy",
#'   type = "normal", times = 200
#' )
#' @export
selective_curve_ci <- function(data, score, truth, estimate = NULL, ...,
                               metric = "accuracy", oracle_loss = NULL,
                               direction = NULL, min_coverage = 0,
                               type = "percentile", conf_level = 0.95,
                               times = 2000, strata = NULL, cluster = NULL,
                               indices = NULL, na_rm = FALSE,
                               case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  set <- curve_ci_settings(metric, direction, min_coverage, type,
    conf_level, times, na_rm, call
  )
  quos <- list(
    score = rlang::enquo(score), truth = rlang::enquo(truth),
    estimate = rlang::enquo(estimate),
    oracle_loss = rlang::enquo(oracle_loss),
    case_weights = rlang::enquo(case_weights),
    strata = rlang::enquo(strata), cluster = rlang::enquo(cluster)
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    curve_ci_one(v, set, indices, call)
  })
  out <- do.call(rbind, parts)
  if (is.null(groups$keys)) return(out)
  keys <- groups$keys[rep(seq_along(parts), vapply(parts, nrow, 1L)), ,
    drop = FALSE
  ]
  attr(out, "replicates") <- NULL
  tibble::as_tibble(c(keys, out))
}

#' @rdname selective_curve_ci
#' @export
selective_curve_ci_vec <- function(score, truth, estimate = NULL, ...,
                                   metric = "accuracy", oracle_loss = NULL,
                                   direction = NULL, min_coverage = 0,
                                   type = "percentile", conf_level = 0.95,
                                   times = 2000, strata = NULL,
                                   cluster = NULL, indices = NULL,
                                   na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  set <- curve_ci_settings(metric, direction, min_coverage, type,
    conf_level, times, na_rm, call
  )
  v <- list(
    score = score, truth = truth, estimate = estimate,
    oracle_loss = oracle_loss, case_weights = case_weights,
    strata = strata, cluster = cluster
  )
  curve_ci_one(v, set, indices, call)
}

# The options of the interval, checked once.
curve_ci_settings <- function(metric, direction, min_coverage, type,
                              conf_level, times, na_rm, call) {
  list(
    metric = metric,
    spec = selective_metric_spec(metric, direction, call),
    min_coverage = check_number(min_coverage, 0, 1, call = call),
    type = check_choice(type, ci_types, call = call),
    conf_level = check_number(conf_level, 0, 1, open = TRUE, call = call),
    times = check_number(times, 2, ci_max_times, whole = TRUE, call = call),
    na_rm = check_bool(na_rm, call = call)
  )
}

# The interval rows of one group.
curve_ci_one <- function(v, set, indices, call) {
  d <- curve_boot_data(v, set, call)
  res <- curve_boot_run(list(d), d, set, indices, call)
  reps <- res$replicates[, 1, , drop = TRUE]
  if (!is.matrix(reps)) reps <- matrix(reps, ncol = 2)
  colnames(reps) <- c("area", "excess")
  name <- if (is.function(set$metric)) "user" else set$metric
  rows <- lapply(1:2, function(k) {
    t <- reps[, k]
    t0 <- res$estimate[1, k]
    if (!is.na(t0) && !(k == 2 && is.null(d$oracle))) {
      ci_warn_undefined_replicates(t, "score", name, call)
    }
    lv <- if (set$type == "bca") res$influence[[1]][[k]]
    iv <- ci_interval(t, t0, set$type, set$conf_level, lv, call)
    if (res$no_rows) iv[c("lower", "upper", "std_error")] <- NA_real_
    iv
  })
  out <- tibble::tibble(
    .metric = name, .estimator = c("area", "excess"),
    .estimate = res$estimate[1, ],
    .lower = vapply(rows, `[[`, 1, "lower"),
    .upper = vapply(rows, `[[`, 1, "upper"),
    .std_error = vapply(rows, `[[`, 1, "std_error"),
    .conf_level = set$conf_level,
    .method = paste0("bootstrap_", set$type)
  )
  attr(out, "replicates") <- reps
  out
}

# Rows complete in every column of `v` that selective_curve_input() reads.
curve_complete_rows <- function(v) {
  cols <- list(v$score, v$truth, v$estimate, v$oracle_loss,
    plain_weights(v$case_weights)
  )
  Reduce(`&`, lapply(cols, function(x) if (is.null(x)) TRUE else !is.na(x)),
    rep(TRUE, length(v$score))
  )
}

# One score's data, sorted once: the rows in the order of the score (most
# confident first) and in the order of the oracle's loss, with what a
# replicate needs to recompute both areas from counts alone.
curve_boot_data <- function(v, set, call, complete = NULL) {
  spec <- set$spec
  importance <- weights_kind(v$case_weights) == "importance"
  x <- selective_curve_input(v$score, v$truth, v$estimate, spec,
    v$oracle_loss, set$na_rm, v$case_weights, call
  )
  n0 <- length(v$score)
  strata <- check_grouping(v$strata, n0, "strata", call)
  cluster <- check_grouping(v$cluster, n0, "cluster", call)
  complete <- complete %||% curve_complete_rows(v)
  if (!all(complete)) {
    if (!is.null(strata)) strata <- strata[complete]
    if (!is.null(cluster)) cluster <- cluster[complete]
  }
  truth <- x$truth
  if (spec$input == "class") {
    # the classes of all rows (the event of F1 is the same in every
    # replicate, even one without it)
    truth <- factor(as.character(truth),
      levels = class_levels(truth, x$estimate)
    )
  }
  ranks <- if (spec$name == "auroc") {
    match(x$estimate, sort(unique(x$estimate)))
  }
  # a decomposable metric's per-row loss, once (its running mean is the
  # metric, as in selective_metric_values())
  row_loss <- if (spec$decomposable) {
    selective_metric_row_loss(spec, x$truth, x$estimate)
  }
  sorted <- function(o, strict, key) {
    sub <- function(z) if (is.null(z)) NULL else z[o]
    list(order = o, key = key[o], truth = sub(truth),
      estimate = sub(x$estimate), ranks = sub(ranks), strict = strict,
      row_loss = sub(row_loss)
    )
  }
  loss <- if (spec$decomposable) row_loss else x$oracle_loss
  list(
    spec = spec, n = length(x$score), score = x$score, w = x$w,
    weighted = x$weighted, importance = importance && x$weighted,
    strata = strata, cluster = cluster,
    curve = sorted(order(x$score, decreasing = TRUE), FALSE, x$score),
    oracle = if (!is.null(loss)) {
      sorted(order(loss), spec$decomposable, as.double(loss))
    }
  )
}

# The step area of the curve of the sorted rows `s` with case weights `w`
# (input order; 0 drops a row): the rows kept stay in their order.
curve_sorted_area <- function(spec, s, w, weighted, min_coverage, call) {
  w <- w[s$order]
  keep <- which(w > 0)
  if (!length(keep)) return(NA_real_)
  sub <- function(z) if (is.null(z)) NULL else z[keep]
  key <- s$key[keep]
  w <- w[keep]
  ends <- if (s$strict) {
    seq_along(w)
  } else {
    c(which(diff(key) != 0), length(key))
  }
  value <- if (is.null(s$row_loss)) {
    selective_metric_values(spec, sub(s$truth), sub(s$estimate), w,
      ends, weighted, call,
      ranks = sub(s$ranks)
    )
  } else {
    selective_metric_from_mean(spec,
      cumsum(w * s$row_loss[keep])[ends] / cumsum(w)[ends]
    )
  }
  step_area(cumsum(w)[ends] / sum(w), value, min_coverage, call)
}

# Area and excess of the data `d` with case weights `w`.
curve_boot_value <- function(d, w, weighted, min_coverage, call) {
  area <- curve_sorted_area(d$spec, d$curve, w, weighted, min_coverage, call)
  if (is.null(d$oracle) || is.null(d$spec$direction)) {
    return(c(area, NA_real_))
  }
  best <- curve_sorted_area(d$spec, d$oracle, w, weighted, min_coverage,
    call
  )
  excess <- if (d$spec$direction == "minimize") area - best else best - area
  c(area, excess)
}

# The same, with the warnings of undefined values muffled (a replicate
# where the area is undefined is NA; the caller counts them).
curve_boot_value_quiet <- function(d, w, weighted, min_coverage) {
  withCallingHandlers(
    curve_boot_value(d, w, weighted, min_coverage, call = NULL),
    aurc_warning = function(cnd) invokeRestart("muffleWarning")
  )
}

# Estimates and replicates (times x scores x 2) of the scores `ds` (each
# from curve_boot_data() on the same rows), on the same count vectors,
# drawn as selective_ci() draws them for the first score `d`.
curve_boot_run <- function(ds, d, set, indices, call) {
  n <- d$n
  cluster <- d$cluster
  if (d$importance && is.null(cluster)) {
    if (!is.null(indices)) {
      abort_aurc(
        c(
          "{.arg indices} cannot be used with importance weights.",
          i = "With {.fn hardhat::importance_weights} the bootstrap draws
               cases itself (or give the weights as numbers to treat them
               as counts)."
        ),
        class = "aurc_error_value", call = call
      )
    }
    cluster <- seq_len(n)
  }
  w_given <- if (d$weighted) d$w else NULL
  size <- if (is.null(w_given) || !is.null(cluster)) {
    n
  } else {
    max(1, round(sum(w_given)))
  }
  ci_check_rows(size, call)
  draws <- ci_check_draws(set$times, indices, d$strata, cluster, n, size,
    call
  )
  s_codes <- ci_codes(d$strata, n)
  k_codes <- ci_codes(cluster, n)
  input <- list(
    n = n, score = matrix(d$score, ncol = 1),
    case_weights = if (is.null(w_given)) double() else w_given,
    strata = s_codes$codes, n_strata = s_codes$n,
    cluster = k_codes$codes, n_clusters = k_codes$n,
    indices = draws$indices
  )
  est <- t(vapply(ds, function(di) {
    curve_boot_value(di, di$w, di$weighted, set$min_coverage, call)
  }, numeric(2)))
  if (set$type == "bca") curve_jackknife_units(n, cluster, call)
  times <- draws$times
  seed <- if (is.null(draws$indices)) ci_bootstrap_seed() else NULL
  reps <- array(NA_real_, c(times, length(ds), 2))
  bar <- progress_bar(times, "Bootstrap intervals")
  block <- max(1, floor(ci_r_block_cells / n))
  first <- 0
  while (first < times) {
    size_b <- min(block, times - first)
    counts <- ci_r_counts(input, seed, first, size_b)
    for (b in seq_len(size_b)) {
      for (j in seq_along(ds)) {
        reps[first + b, j, ] <- curve_boot_value_quiet(ds[[j]], counts[b, ],
          TRUE, set$min_coverage
        )
      }
    }
    first <- first + size_b
    progress_tick(bar, first)
  }
  influence <- if (set$type == "bca") {
    lapply(ds, curve_jackknife, cluster = cluster, set = set, call = call)
  }
  no_rows <- !is.null(w_given) && is.null(cluster) && sum(w_given) < 1
  if (no_rows) {
    warn_no_row_to_draw(call)
  }
  list(estimate = est, replicates = reps, influence = influence,
    seed = seed, no_rows = no_rows
  )
}

curve_ci_jackknife_max_units <- 5000

# The unit of every row for the jackknife (cases, or clusters), checked
# against the limit before any replicate is drawn.
curve_jackknife_units <- function(n, cluster, call) {
  clustered <- !is.null(cluster)
  unit <- if (clustered) as.integer(factor(cluster)) else seq_len(n)
  n_units <- max(unit)
  if (n_units > curve_ci_jackknife_max_units) {
    abort_aurc(
      c(
        "{.code type = \"bca\"} is too costly here.",
        x = paste(
          "Its acceleration needs the jackknife: {n_units} curves, one per",
          "deleted {if (clustered) 'cluster' else 'case'} (at most",
          "{curve_ci_jackknife_max_units})."
        ),
        i = "Use {.code type = \"percentile\"} or {.code \"normal\"}."
      ),
      class = c("aurc_error_influence", "aurc_error_size"), call = call
    )
  }
  unit
}

# BCa: jackknife influence values of area and excess (deleting one case,
# or one cluster, at a time), as list(L, w) per quantity for ci_interval().
curve_jackknife <- function(d, cluster, set, call) {
  n <- d$n
  clustered <- !is.null(cluster)
  unit <- curve_jackknife_units(n, cluster, call)
  n_units <- max(unit)
  unit_w <- as.vector(rowsum(d$w, unit, reorder = TRUE))
  uw <- if (clustered) rep(1, n_units) else d$w
  tj <- matrix(NA_real_, n_units, 2)
  for (u in which(unit_w > 0)) {
    w <- d$w
    w[unit == u] <- 0
    tj[u, ] <- curve_boot_value_quiet(d, w, d$weighted, set$min_coverage)
  }
  live <- unit_w > 0
  total <- sum(uw[live])
  lapply(1:2, function(k) {
    t <- tj[live, k]
    list(L = (total - 1) * (sum(uw[live] * t) / total - t), w = uw[live])
  })
}
