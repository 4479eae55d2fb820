# The bootstrap engine of selective_ci(), selective_ci_vec() and
# compare_scores() (DEFINITIONS Sec. 11): draws replicates as vectors of case
# counts in C++ (src/core/ci_bootstrap.h), evaluates every metric on them
# without re-sorting, and turns the replicate values into intervals
# (R/ci-bootstrap-intervals.R).
#
# What a replicate is. The cases are resampled with replacement, `times`
# times, from one seed drawn from R's RNG (so set.seed() reproduces every
# replicate, whatever `threads` is): each replicate has its own stream of a
# xoshiro256++ generator (src/core/rng.h). With `strata` the cases of each
# stratum are resampled within it, each stratum keeping its size; with
# `cluster` whole clusters are resampled (every case of a drawn cluster
# enters the replicate); with both, clusters within strata. `indices`
# replaces the draws by a `times x m` matrix of row positions (1 = the first
# row), one replicate per row, as in bootstrap_ranking().
#
# Case weights are frequency weights (DEFINITIONS Sec. 1): a case of weight w
# stands for w identical rows, for the estimate and for the interval. A
# replicate therefore resamples the rows the weights stand for: it draws
# round(sum(case_weights)) rows (per stratum), case i with probability
# w_i / sum(w), so integer weights give exactly the bootstrap distribution
# of the data with rows repeated; with `indices`, each of the m =
# round(sum(case_weights)) positions of a replicate is one such row (a
# position may repeat a case up to and beyond its weight, as a draw may).
# With `cluster`, clusters are drawn uniformly and a drawn cluster brings
# every case with its weight.

# Metrics the engine evaluates (DEFINITIONS Secs. 2, 4, and the calibration
# errors of Secs. 8 and 13): every metric of the registry
# (R/metric-registry.R), the balanced ones and the calibration errors.
ci_bootstrap_metrics <- function() {
  c(metric_names(), ci_balanced_metrics, ci_calibration_metrics,
    ci_regression_llm_metrics)
}


# Largest replicate array (times x scores x metrics doubles, 2 GB) and the
# largest jackknife (units x cases) computed without influence values.
ci_bootstrap_max_cells <- 2^28
ci_jackknife_max_work <- 2.5e8

#' Bootstrap intervals for the metrics of one or more scores (internal)
#'
#' The engine behind `method = "bootstrap"` of `selective_ci()`,
#' `selective_ci_vec()` and `compare_scores()`.
#'
#' @param scores A list of one or more numeric score vectors on the same
#'   rows (already NA-free), optionally named.
#' @param loss Numeric loss, finite and `>= 0` (0/1 for the binary metrics
#'   and ECE, where it is the failure indicator: correct = 1 - loss); or a
#'   list with one such loss per score (models compared on the same cases,
#'   each with its own loss).
#' @param case_weights `NULL` or non-negative frequency weights.
#' @param metrics Character vector of metric names from
#'   `ci_bootstrap_metrics`.
#' @param options Named list: `estimator` (aurc, eaurc, naurc; default
#'   `"alpha"`), `method` (augrc; `"trapezoid"`), `optimum` (eaurc;
#'   `"exact"`), `coverage`, `risk` (required for `risk_at_coverage`,
#'   `coverage_at_risk`), `n_bins` (ECE with equal-width bins; 10).
#' @param times Number of replicates (whole, >= 2); ignored when `indices`
#'   is given.
#' @param strata,cluster `NULL` or a vector with one value per row (at
#'   least two distinct values).
#' @param indices `NULL` or a `times x m` matrix of 1-based row positions,
#'   m = the number of rows (the rounded sum of the case weights with
#'   weights).
#' @param threads Number of threads (capped as in `bootstrap_ranking()`).
#' @param type `"percentile"`, `"bca"` or `"normal"`.
#' @param conf_level Confidence level in (0, 1).
#' @param influence `NULL`, or a list with one element per score, each a
#'   named list (by metric) of per-row influence values, used for the BCa
#'   acceleration. Metrics without influence values get the jackknife.
#' @param call The user's call, for error messages.
#' @param truth `NULL`, or the class of every row (no NA), for the balanced
#'   metrics.
#' @return A list: `estimate`, `lower`, `upper`, `std_error` (score x metric
#'   matrices), `replicates` (times x score x metric array), `diff` (a
#'   tibble, one row per unordered pair of scores and metric: `score_a`,
#'   `score_b`, `metric`, `estimate` (a - b), `lower`, `upper`, `std_error`,
#'   `p_value`), `acceleration` (score x metric, BCa only), `type`,
#'   `conf_level`, `times`, `seed` (the two 32-bit halves of the seed drawn
#'   from R's RNG; `NULL` with `indices`).
#' @noRd
ci_bootstrap <- function(scores, loss, case_weights, metrics, options, times,
                         strata, cluster, indices, threads, type, conf_level,
                         influence, call = rlang::caller_env(),
                         truth = NULL, quality = NULL) {
  input <- ci_bootstrap_input(
    scores, loss, case_weights, metrics, options, times, strata, cluster,
    indices, threads, type, conf_level, influence, call
  )
  # the quality of the LLM metrics as given (R/ci-llm-regression.R)
  input$quality <- quality
  # the class of every case, for the balanced metrics (R/ci-balanced.R)
  input$truth <- ci_truth_codes(truth)
  seed <- if (is.null(input$indices)) ci_bootstrap_seed() else NULL
  # the metrics evaluated in R on the same replicates (R/ci-bootstrap-r.R)
  r_metrics <- intersect(input$metrics, ci_r_metrics)
  engine <- input
  engine$metrics <- setdiff(input$metrics, r_metrics)
  res <- if (length(engine$metrics)) {
    ci_bootstrap_run(engine, seed, jackknife = FALSE)
  }
  if (length(r_metrics)) {
    r <- ci_bootstrap_r_run(input, r_metrics, seed, call)
    res <- ci_merge_results(input, engine$metrics, res, r_metrics, r)
    if (input$type == "bca") {
      input$influence <- ci_r_bca_influence(input, r_metrics, call)
    }
  }
  jack <- NULL
  if (input$type == "bca" && ci_needs_jackknife(input)) {
    ci_check_jackknife_size(engine, call)
    jack <- ci_bootstrap_run(engine, seed, jackknife = TRUE, times = 0)
    # the R metrics have their influence values: NA columns to index by
    full <- array(NA_real_, c(dim(jack$jackknife)[1:2], length(input$metrics)))
    full[, , match(engine$metrics, input$metrics)] <- jack$jackknife
    jack$jackknife <- full
  }
  ci_bootstrap_result(input, res, jack, seed, call)
}

# One seed from R's RNG: two uniform 32-bit halves.
ci_bootstrap_seed <- function() {
  floor(stats::runif(2) * 2^32)
}

# Runs the kernel; `times = 0` only evaluates the full data (and the
# jackknife).
ci_bootstrap_run <- function(input, seed, jackknife, times = input$times) {
  idx <- input$indices
  if (is.null(idx)) idx <- matrix(0L, 0, 0)
  if (times == 0) idx <- matrix(0L, 0, 0)
  opt <- input$options
  # a cli bar in interactive sessions when the replicates take over 2 s
  bar <- progress_bar(if (nrow(idx)) nrow(idx) else times,
    "Bootstrap intervals"
  )
  ci_bootstrap_impl(
    input$score, input$loss, input$case_weights,
    metric_kernels(input$metrics, opt),
    opt$estimator, opt$method, opt$optimum, opt$coverage, opt$risk,
    opt$n_bins, ci_calibration_options(opt), input$strata, input$n_strata,
    input$cluster,
    input$n_clusters, idx, times, if (is.null(seed)) c(0, 0) else seed,
    input$threads, jackknife,
    input$truth$codes %||% integer(), input$truth$n %||% 0L,
    progress_callback(bar)
  )
}

# Counts per row of replicates first + 1 .. first + times drawn from `seed`
# with the same settings as ci_bootstrap() (times x n).
ci_bootstrap_counts <- function(score, case_weights, strata, cluster, times,
                                seed, first = 0) {
  n <- length(score)
  s <- ci_codes(strata, n)
  k <- ci_codes(cluster, n)
  w <- if (is.null(case_weights)) double() else as.double(case_weights)
  ci_bootstrap_counts_impl(
    as.double(score), w, s$codes, s$n, k$codes, k$n, times, seed, first
  )
}

# 0-based integer codes of a grouping vector (integer(0) for NULL).
ci_codes <- function(x, n) {
  if (is.null(x)) return(list(codes = integer(), n = 0L))
  f <- factor(x, exclude = NULL)
  list(codes = as.integer(f) - 1L, n = nlevels(f))
}

# ---- checks -----------------------------------------------------------------

ci_bootstrap_input <- function(scores, loss, case_weights, metrics, options,
                               times, strata, cluster, indices, threads, type,
                               conf_level, influence, call) {
  type <- check_choice(type, ci_types, call = call)
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  sc <- ci_check_scores(scores, call)
  n <- sc$n
  metrics <- ci_check_metrics(metrics, call)
  # one loss for every score, or a list with one loss per score
  losses <- if (is.list(loss)) loss else list(loss)
  if (!length(losses) %in% c(1L, length(scores))) {
    abort_aurc(
      "{.arg loss} must be one loss or one per score.",
      class = "aurc_error_value", call = call
    )
  }
  for (l in losses[-1]) {
    ci_check_loss_weights(l, case_weights, metrics, options, n, call)
  }
  case_weights <- ci_check_loss_weights(losses[[1]], case_weights, metrics,
    options, n, call)
  options <- ci_check_options(options, metrics, call)
  if (any(metrics %in% ci_calibration_metrics)) {
    for (j in seq_along(scores)) {
      check_confidence(scores[[j]], paste0("scores[[", j, "]]"), call = call)
    }
  }
  threads <- check_threads(threads, call = call)
  strata_codes <- ci_check_groups(strata, n, "strata", call)
  cluster_codes <- ci_check_groups(cluster, n, "cluster", call)
  if (!is.null(strata) && !is.null(cluster)) {
    ci_check_nested(strata_codes$codes, cluster_codes$codes, call)
  }
  # (clusters are drawn whole: the rows weights stand for do not matter)
  size <- if (is.null(case_weights) || !is.null(cluster)) {
    n
  } else {
    max(1, round(sum(case_weights)))
  }
  ci_check_rows(size, call)
  draws <- ci_check_draws(times, indices, strata, cluster, n, size, call)
  ci_check_sizes(draws$times, length(scores), length(metrics), n, threads,
    call)
  influence <- ci_check_influence(influence, length(scores), metrics, n, call)
  score_mat <- matrix(0, n, length(scores))
  for (j in seq_along(scores)) score_mat[, j] <- as.double(scores[[j]])
  list(
    score = score_mat, score_names = sc$names, n = n,
    loss = as.double(unlist(losses, use.names = FALSE)),
    case_weights = if (is.null(case_weights)) double() else
      as.double(case_weights),
    metrics = metrics, options = options, times = draws$times,
    strata = strata_codes$codes, n_strata = strata_codes$n,
    cluster = cluster_codes$codes, n_clusters = cluster_codes$n,
    indices = draws$indices, threads = threads,
    type = type, conf_level = conf_level, influence = influence
  )
}

# A non-empty list of NA-free numeric vectors of one length; their names
# ("score<j>" where missing).
ci_check_scores <- function(scores, call) {
  if (!is.list(scores) || length(scores) == 0) {
    abort_aurc(
      "{.arg scores} must be a non-empty list of numeric score vectors.",
      class = "aurc_error_type", call = call
    )
  }
  n <- length(scores[[1]])
  for (j in seq_along(scores)) {
    arg <- paste0("scores[[", j, "]]")
    check_numeric_vector(scores[[j]], arg, call = call)
    check_same_length(scores[[j]], n, arg, call = call)
    if (anyNA(scores[[j]])) {
      abort_aurc(
        "{.arg {arg}} must not contain missing values.",
        class = "aurc_error_value", call = call
      )
    }
  }
  if (n == 0) {
    abort_aurc("{.arg scores} must not be empty.",
      class = "aurc_error_value", call = call
    )
  }
  nms <- names(scores)
  if (is.null(nms)) nms <- rep("", length(scores))
  blank <- is.na(nms) | nms == ""
  nms[blank] <- paste0("score", seq_along(scores))[blank]
  list(n = n, names = nms)
}

# The loss (0/1 where a metric needs failures) and the case weights;
# returns the weights, NULL when none or all 1.
ci_check_loss_weights <- function(loss, case_weights, metrics, options, n,
                                  call) {
  binary <- any(metrics %in% c(
    binary_metrics, ci_calibration_metrics, ci_balanced_metrics
  )) ||
    ("eaurc" %in% metrics && identical(options$optimum, "asymptotic"))
  if (binary) check_failure(loss, n, "loss", call = call)
  check_loss(loss, n, "loss", call = call)
  if (anyNA(loss)) {
    abort_aurc("{.arg loss} must not contain missing values.",
      class = "aurc_error_value", call = call
    )
  }
  check_case_weights(case_weights, n, call = call)
  if (is.null(case_weights)) return(NULL)
  if (!(sum(case_weights) > 0)) {
    abort_aurc("{.arg case_weights} must have a positive sum.",
      class = "aurc_error_value", call = call
    )
  }
  if (all(case_weights == 1)) NULL else case_weights
}

# `times`, or `indices` (then its number of rows).
ci_check_draws <- function(times, indices, strata, cluster, n, size, call) {
  if (is.null(indices)) {
    return(list(
      times = check_number(times, 2, whole = TRUE, call = call),
      indices = NULL
    ))
  }
  if (!is.null(strata) || !is.null(cluster)) {
    abort_aurc(
      c(
        paste(
          "{.arg indices} cannot be combined with {.arg strata} or",
          "{.arg cluster}."
        ),
        i = "{.arg indices} are the draws: stratify or cluster when drawing."
      ),
      class = "aurc_error_value", call = call
    )
  }
  indices <- ci_check_indices(indices, n, size, call)
  list(times = nrow(indices), indices = indices)
}

# Case weights are frequency weights: a replicate resamples the rows they
# stand for, and its counts are doubles. Beyond 2^80 rows a replicate's
# relative fluctuation (1 / sqrt(rows) < 1e-12) drowns in the rounding of
# its counts, so the bootstrap would report a spread of 0: an error that
# says so. (The draws cost the same for any number of rows: ci_bootstrap.h.)
ci_check_rows <- function(size, call) {
  if (size <= 2^80) return(invisible())
  abort_aurc(
    c(
      "{.arg case_weights} stand for too many rows for a bootstrap.",
      x = paste(
        "They sum to {format(size, digits = 3)}; a bootstrap of more than",
        "2^80 rows resolves no spread in double precision."
      ),
      i = paste(
        "Case weights are frequency weights (a weight of 1e6 is 1e6",
        "identical rows); use {.code method = \"analytic\"}, or weights",
        "that count rows."
      )
    ),
    class = "aurc_error_value", call = call
  )
}

# Every size is checked before anything is allocated.
ci_check_sizes <- function(times, n_scores, n_metrics, n, threads, call) {
  cells <- times * n_scores * n_metrics
  if (cells > ci_bootstrap_max_cells || times > .Machine$integer.max) {
    shown <- format(times, big.mark = ",", scientific = FALSE)
    abort_aurc(
      c(
        "{.arg times} is too large: {shown} replicates.",
        x = paste(
          "{shown} x {n_scores} score{?s} x {n_metrics} metric{?s} values",
          "exceed the limit of",
          "{format(ci_bootstrap_max_cells, big.mark = ',')}."
        )
      ),
      class = c("aurc_error_size", "aurc_error_value"), call = call
    )
  }
  if (n * 64 * threads > 2^34) {
    abort_aurc(
      c(
        "Too many rows for the bootstrap with {threads} thread{?s}.",
        i = "Each thread keeps 64 bytes per row; use fewer {.arg threads}."
      ),
      class = c("aurc_error_size", "aurc_error_value"), call = call
    )
  }
  invisible()
}

ci_check_metrics <- function(metrics, call) {
  check_names_in(metrics, ci_bootstrap_metrics(), "names of metrics of aurc",
    call = call,
    hint = "{.code metric_info()} lists the metrics and their forms."
  )
  unique(metrics)
}

ci_check_options <- function(options, metrics, call) {
  if (is.null(options)) options <- list()
  if (!is.list(options) || (length(options) > 0 && is.null(names(options)))) {
    abort_aurc("{.arg options} must be a named list.",
      class = "aurc_error_type", call = call
    )
  }
  known <- c(
    "estimator", "method", "optimum", "coverage", "risk", "n_bins", "sigma",
    "smooth_method", "corp_score", "edges", "max_rejection", "coverage_range",
    "rule", "tpr", "span", "smoother", "eps", "definition", "p",
    "threshold", "rce_bins"
  )
  unknown <- setdiff(names(options), known)
  if (length(unknown) > 0) {
    abort_aurc(
      c(
        "{.arg options} has unknown entr{?y/ies} {.val {unknown}}.",
        i = "Known: {.val {known}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  out <- list(
    estimator = "alpha", method = "trapezoid", optimum = "exact",
    coverage = 0.5, risk = 0.5, n_bins = 10, sigma = NULL,
    smooth_method = "fine", corp_score = "brier", max_rejection = 1,
    rule = "tie_closed", tpr = 0.95, span = 0.75, smoother = "loess",
    eps = 1e-8, definition = "ilg", p = 1, threshold = NULL, rce_bins = 20
  )
  out[names(options)] <- options
  # an option a metric requires (no default in the registry) must be given
  for (m in intersect(metrics, metric_names())) {
    for (opt in metric_entry(m)$options) {
      if (is.null(metric_option_info(opt)$default) && is.null(options[[opt]])) {
        abort_aurc(
          "{.val {m}} needs {.arg options${opt}}.",
          class = "aurc_error_type", call = call
        )
      }
    }
  }
  # the registry's options through the registry's validators
  for (opt in intersect(names(out), names(metric_option_registry))) {
    if (!is.null(out[[opt]])) {
      out[opt] <- list(metric_option_info(opt)$check(out[[opt]], call))
    }
  }
  out$n_bins <- check_number(out$n_bins, 1, 1e6,
    whole = TRUE,
    arg = "options$n_bins", call = call
  )
  smooth <- smooth_options(out$sigma, out$smooth_method, call,
    method_arg = "options$smooth_method"
  )
  out$sigma <- smooth$sigma
  out$smooth_method <- smooth$method
  out$corp_score <- check_choice(out$corp_score, c("brier", "log"),
    arg = "options$corp_score", call = call
  )
  check_span(out$span, call)
  # (a span given with lowess is warned about where the user gives it)
  out$smoother <- check_smoother(out$smoother, FALSE, call,
    arg = "options$smoother"
  )
  out$eps <- check_eps(out$eps, call)
  out
}

# strata / cluster: NULL or one value per row, no NA, >= 2 distinct values.
ci_check_groups <- function(x, n, arg, call) {
  if (is.null(x)) return(list(codes = integer(), n = 0L))
  if (!is.atomic(x) || is.raw(x) || is.complex(x) || length(x) != n) {
    abort_aurc(
      c(
        "{.arg {arg}} must be a vector with one value per row ({n}).",
        x = "It has length {length(x)}."
      ),
      class = "aurc_error_length", call = call
    )
  }
  if (anyNA(x)) {
    abort_aurc("{.arg {arg}} must not contain missing values.",
      class = "aurc_error_value", call = call
    )
  }
  codes <- ci_codes(x, n)
  if (codes$n < 2) {
    abort_aurc(
      c(
        "{.arg {arg}} must have at least two distinct values.",
        x = "It has a single level, {.val {as.character(x[1])}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  codes
}

ci_check_nested <- function(strata, cluster, call) {
  per <- tapply(strata, cluster, function(s) length(unique(s)))
  bad <- which(per > 1)
  if (length(bad) > 0) {
    abort_aurc(
      c(
        "Each cluster must lie within one stratum.",
        x = "{length(bad)} cluster{?s} span{?s/} several strata."
      ),
      class = "aurc_error_value", call = call
    )
  }
}

ci_check_indices <- function(indices, n, size, call) {
  if (!is.matrix(indices) || !is.numeric(indices)) {
    abort_aurc(
      "{.arg indices} must be a numeric matrix (replicates x rows).",
      class = "aurc_error_type", call = call
    )
  }
  if (ncol(indices) != size || nrow(indices) < 2) {
    abort_aurc(
      c(
        paste(
          "{.arg indices} must have at least 2 rows (replicates) and",
          "{size} columns (one per row drawn)."
        ),
        x = "It is {nrow(indices)} x {ncol(indices)}."
      ),
      class = "aurc_error_length", call = call
    )
  }
  bad <- is.na(indices) | indices < 1 | indices > n | indices != round(indices)
  if (any(bad)) {
    abort_aurc(
      c(
        "{.arg indices} must hold row positions, whole numbers in 1..{n}.",
        x = "Element {which(bad)[1]} is {.val {indices[which(bad)[1]]}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  storage.mode(indices) <- "integer"
  indices
}

ci_check_influence <- function(influence, n_scores, metrics, n, call) {
  if (is.null(influence)) return(NULL)
  if (!is.list(influence) || length(influence) != n_scores) {
    abort_aurc(
      paste(
        "{.arg influence} must be a list with one element per score",
        "({n_scores})."
      ),
      class = "aurc_error_type", call = call
    )
  }
  for (j in seq_len(n_scores)) {
    ci_check_influence_one(influence[[j]], j, metrics, n, call)
  }
  influence
}

ci_check_influence_one <- function(el, j, metrics, n, call) {
  if (is.null(el)) return(invisible())
  if (!is.list(el) || (length(el) > 0 && is.null(names(el)))) {
    abort_aurc(
      "{.arg influence[[{j}]]} must be a list named by metric.",
      class = "aurc_error_type", call = call
    )
  }
  for (m in intersect(names(el), metrics)) {
    v <- el[[m]]
    # NA/NaN: the influence function is undefined there (the BCa interval
    # is NA, with a classed warning); infinite values are an error
    if (!is.numeric(v) || length(v) != n || any(is.infinite(v))) {
      abort_aurc(
        "{.arg influence[[{j}]]${m}} must be {n} finite numbers or NA.",
        class = "aurc_error_value", call = call
      )
    }
  }
  invisible()
}

# ---- the jackknife (BCa without influence values) ----------------------------

ci_needs_jackknife <- function(input) {
  for (j in seq_len(ncol(input$score))) {
    given <- names(input$influence[[j]])
    if (!all(input$metrics %in% given)) return(TRUE)
  }
  FALSE
}

# Whether the jackknife (one deletion per unit, each over all rows) is
# within ci_jackknife_max_work. `input`: the list of ci_bootstrap_input()
# or of ci_input() (rows `n`, or the length of `score`; `cluster`).
ci_jackknife_affordable <- function(input) {
  n <- if (!is.null(input$n)) input$n else length(input$score)
  units <- if (!is.null(input$n_clusters) && input$n_clusters > 0) {
    input$n_clusters
  } else if (length(input$cluster) && is.null(input$n_clusters)) {
    length(unique(input$cluster))
  } else {
    n
  }
  units * n <= ci_jackknife_max_work
}

ci_check_jackknife_size <- function(input, call) {
  units <- if (input$n_clusters > 0) input$n_clusters else input$n
  if (!ci_jackknife_affordable(input)) {
    abort_aurc(
      c(
        "{.code type = \"bca\"} needs influence values for data this large.",
        x = paste(
          "Without {.arg influence}, the acceleration comes from the",
          "jackknife: {units} deletions of {input$n} rows each."
        ),
        i = "Give {.arg influence}, or use another {.arg type}."
      ),
      class = c("aurc_error_influence", "aurc_error_size"), call = call
    )
  }
}
