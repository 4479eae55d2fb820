#' Paired comparison of prediction-set predictors on the same cases
#'
#' Is one conformal set predictor (APS against RAPS, or two models) really
#' better than another? For two or more set predictors evaluated on the
#' same cases, `compare_sets()` gives, for every metric of [set_metrics()]
#' and every pair of predictors, the difference `a - b` with a paired
#' confidence interval and a two-sided p-value, adjusted over the pairs.
#'
#' @details
#' Both predictors are evaluated on the same cases, with the same truth and
#' case weights: a case with a missing truth or a missing set in any
#' predictor is dropped for every predictor (`na_rm = TRUE`). The estimates
#' `estimate_a` and `estimate_b` are those of [set_metrics_vec()] on those
#' cases, and `difference = estimate_a - estimate_b`.
#'
#' **Decomposable metrics** (means over the cases of a per-case value
#' `x_i`): `coverage` (`x_i = C_i`), `singleton_rate`, `empty_rate`,
#' `singleton_hit_ratio` (0/1 values) and `mean_size` (`x_i = |S_i|`). The
#' difference is the weighted mean of the paired differences
#' `d_i = x_ai - x_bi`, `dbar = sum w_i d_i / W`, and `std_error` is that of
#' a paired mean, `s_d / sqrt(W)` with
#' `s_d^2 = sum w_i (d_i - dbar)^2 / (W - 1)` (without weights the standard
#' error of `t.test(x_a, x_b, paired = TRUE)`).
#' * For the four rates, with `n_10 = sum_{d_i = 1} w_i` and
#'   `n_01 = sum_{d_i = -1} w_i` the (weighted) discordant cases, the test
#'   is McNemar's without continuity correction,
#'   `z = (n_10 - n_01) / sqrt(n_10 + n_01)`, `p = 2 pnorm(-|z|)`
#'   (`stats::mcnemar.test(table(x_a, x_b), correct = FALSE)$p.value`;
#'   `p = 1` when no case is discordant), and the interval is Tango's
#'   score interval, the differences `D` with `|T(D)| <= z_{1 - a/2}`,
#'   `T(D) = (n_10 - n_01 - W D) / sqrt(W (2 q_D + D (1 - D)))`, `q_D` the
#'   maximum-likelihood probability of a case counted in `n_01` given the
#'   difference `D` (`PropCIs::scoreci.mp()`). `T(0)` is McNemar's `z`, so
#'   the interval holds 0 exactly when the test does not reject at level
#'   `1 - conf_level`; unlike the Wald interval `dbar -/+ z s_d / sqrt(W)`
#'   it does not shrink to a point with few discordant cases (in
#'   simulations, `studies/sets-compare-coverage.R`, the Wald interval
#'   covered 0.90 with about 6 discordant cases in 150).
#' * For `mean_size`, the paired z test `z = dbar / (s_d / sqrt(W))` and
#'   the Wald interval `dbar -/+ z_{1 - a/2} s_d / sqrt(W)` (`a = 1 -
#'   conf_level`), kept within `[-K, K]`.
#'
#' **Summaries over classes or size strata** (`class_coverage_gap`,
#' `covgap`, `macro_coverage`, `ssc_min`, `sscv`) are not means over the
#' cases: a paired bootstrap. Each replicate is a vector of counts over the
#' cases (the same counts for every predictor, never a re-sort), drawn by
#' the engine of [selective_ci()] (`set.seed()` reproduces it; `indices`
#' gives the draws instead, as `boot::boot.array(b, indices = TRUE)`); the
#' metric of each predictor is computed with the counts as case weights,
#' and the interval of the difference is of the chosen `type` (percentile,
#' basic or normal) over the replicate differences, with `std_error` their
#' standard deviation. The p-value of the percentile type is
#' `min(1, 2 min(1 + #{d* <= 0}, 1 + #{d* >= 0}) / (B + 1))`, as
#' [compare_scores()] (see there for the other types). Classes and strata
#' without cases in a replicate are left out of it, as of the estimate.
#' The maxima and minima over groups are not smooth in the data, and their
#' bootstrap is only approximate where groups nearly tie for the extreme.
#'
#' **Simulations** (`studies/sets-compare-coverage.R`, 1000 data sets of
#' 150 and of 500 cases, 3 classes, level 0.95): the intervals of the rates
#' and the size covered 0.93 to 0.97 and their tests rejected 0.04 to 0.07
#' of the time under the null; the bootstrap intervals covered 0.93 to 1.00
#' (the gaps conservatively), except `sscv` at 150 cases (0.84) and 500
#' cases (0.93).
#'
#' **Case weights.** Frequency weights (plain numbers,
#' [hardhat::frequency_weights()]) count as that many cases: `W` and the
#' discordant counts are sums of weights, and a bootstrap replicate draws
#' `round(W)` rows, case `i` with probability `w_i / W`. With
#' [hardhat::importance_weights()] the estimates are weighted the same,
#' while the intervals take Kish's effective number of cases
#' `W^2 / sum w_i^2` as [set_metrics()] does: `W` in `s_d / sqrt(W)` and
#' the discordant counts are scaled by `W / sum w_i^2`, and a replicate
#' resamples the cases of positive weight (uniformly), each drawn case
#' entering with its weight times its count.
#'
#' **Several predictors.** All `P (P - 1) / 2` pairs are compared, the
#' p-values of each metric adjusted over the pairs (within each group)
#' with [stats::p.adjust()] (`p_adjust = "holm"` by default, `"none"`
#' keeps them).
#'
#' @inheritParams set_metrics
#' @param data A data frame (grouped data frames give one set of pairs per
#'   group).
#' @param sets Two or more set predictors. In `compare_sets()`: columns of
#'   `data` (each a logical matrix column or a list column of label
#'   vectors), unquoted names combined with `c()` (`c(aps, raps)`), a range
#'   or a character vector of column names. In `compare_sets_vec()`: a list
#'   of predictors, each a logical matrix or a list of label vectors, named
#'   (the names label the pairs; default `set1`, `set2`, ...).
#' @param classes The class names (one per column of a matrix). When not
#'   given, the column names of the matrices (which must agree), else the
#'   levels of a factor `truth`, else the labels seen in every predictor
#'   and the truth: every predictor is read with the same classes.
#' @param metrics Names of the metrics (default: all of [set_metrics()]).
#' @param size_strata The size strata of `ssc_min` and `sscv`, as in
#'   [set_metrics()] (`NULL`: one per size).
#' @param p_adjust Method of [stats::p.adjust()], or `"none"`.
#' @param type The interval of the bootstrap: `"percentile"` (default),
#'   `"basic"` or `"normal"`.
#' @param times Number of bootstrap replicates (whole, >= 2); ignored with
#'   `indices`.
#' @param indices `NULL`, or a `times x m` matrix of 1-based row positions
#'   of the complete cases, one replicate per row (`m` the number of cases,
#'   or `round(W)` with frequency weights).
#' @return A tibble with the grouping columns (data-frame form), one row
#'   per metric and pair: `.metric`, `set_a`, `set_b`, `estimate_a`,
#'   `estimate_b`, `difference` (a - b), `lower`, `upper`, `std_error`,
#'   `statistic` (the z of the test; `NA` for the bootstrap), `p_value`,
#'   `p_adjusted`, `.conf_level`, `.method` (`"mcnemar"`, `"paired_z"` or
#'   `"paired_bootstrap_<type>"`) and `n` (the number of cases, weighted).
#' @references
#' McNemar, Q. (1947). Note on the sampling error of the difference
#' between correlated proportions or percentages. Psychometrika 12(2),
#' 153-157.
#'
#' Tango, T. (1998). Equivalence test and confidence interval for the
#' difference in proportions for the paired-sample design. Statistics in
#' Medicine 17(8), 891-908.
#'
#' Efron, B. and Tibshirani, R. J. (1993). An Introduction to the
#' Bootstrap. Chapman and Hall.
#'
#' Angelopoulos, A. N., Bates, S., Malik, J. and Jordan, M. I. (2021).
#' Uncertainty sets for image classifiers using conformal prediction.
#' ICLR 2021.
#' @seealso [set_metrics()], [compare_scores()] for confidence scores.
#' @examples
#' set.seed(1)
#' n <- 300
#' truth <- sample(c("a", "b", "c"), n, replace = TRUE)
#' classes <- c("a", "b", "c")
#' # a sharper and a vaguer predictor, each holding the truth 90% of the
#' # time
#' sharp <- outer(truth, classes, `==`) | matrix(runif(3 * n) < 0.1, n)
#' vague <- outer(truth, classes, `==`) | matrix(runif(3 * n) < 0.4, n)
#' sharp[runif(n) < 0.1, ] <- FALSE
#' vague[runif(n) < 0.1, ] <- FALSE
#' colnames(sharp) <- colnames(vague) <- classes
#' compare_sets_vec(list(sharp = sharp, vague = vague), truth,
#'   metrics = c("coverage", "mean_size", "covgap"), times = 500
#' )
#' # data-frame form: matrix columns
#' df <- data.frame(truth = truth)
#' df$sharp <- sharp
#' df$vague <- vague
#' compare_sets(df, c(sharp, vague), truth, metrics = "singleton_rate")
#' @name compare_sets
NULL

#' @rdname compare_sets
#' @export
compare_sets <- function(data, sets, truth, ..., alpha = 0.1,
                         metrics = NULL, classes = NULL, size_strata = NULL,
                         p_adjust = "holm", conf_level = 0.95,
                         type = "percentile", times = 2000, indices = NULL,
                         case_weights = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  cols <- select_score_columns(data, rlang::enquo(sets), call, arg = "sets")
  truth <- set_column(data, rlang::enquo(truth), "truth", call)
  case_weights <- set_column(data, rlang::enquo(case_weights),
    "case_weights", call
  )
  opts <- set_compare_options(alpha, metrics, size_strata, p_adjust,
    conf_level, type, times, call
  )
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    s <- lapply(cols, function(col) {
      x <- data[[col]]
      if (is.matrix(x)) x[rows, , drop = FALSE] else x[rows]
    })
    names(s) <- cols
    set_compare_table(s, truth[rows], set_weights_rows(case_weights, rows),
      classes, opts, indices, na_rm, call
    )
  })
  out <- do.call(rbind, parts)
  if (!is.null(groups$keys)) {
    keys <- groups$keys[rep(seq_along(parts), vapply(parts, nrow, 1L)), ,
      drop = FALSE
    ]
    out <- tibble::as_tibble(c(keys, out))
  }
  out
}

#' @rdname compare_sets
#' @export
compare_sets_vec <- function(sets, truth, ..., alpha = 0.1, metrics = NULL,
                             classes = NULL, size_strata = NULL,
                             p_adjust = "holm", conf_level = 0.95,
                             type = "percentile", times = 2000,
                             indices = NULL, case_weights = NULL,
                             na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  sets <- check_set_predictors(sets, call)
  opts <- set_compare_options(alpha, metrics, size_strata, p_adjust,
    conf_level, type, times, call
  )
  set_compare_table(sets, truth, case_weights, classes, opts, indices,
    na_rm, call
  )
}

# The options of set_metrics() and those of the comparison.
set_compare_options <- function(alpha, metrics, size_strata, p_adjust,
                                conf_level, type, times, call) {
  opts <- set_options(alpha, metrics, size_strata, "wilson", conf_level,
    call
  )
  opts$p_adjust <- check_choice(p_adjust, stats::p.adjust.methods,
    call = call
  )
  opts$type <- check_choice(type, c("percentile", "basic", "normal"),
    call = call
  )
  opts$times <- check_number(times, 2, whole = TRUE, call = call)
  opts
}

# `sets` of compare_sets_vec(): a list of two or more predictors, named.
check_set_predictors <- function(sets, call) {
  one <- function(s) {
    is.matrix(s) || (is.list(s) && !is.data.frame(s) && is.null(dim(s)))
  }
  ok <- is.list(sets) && !is.data.frame(sets) && is.null(dim(sets))
  if (!ok || length(sets) < 2 || !all(vapply(sets, one, logical(1)))) {
    abort_aurc(
      c(
        paste(
          "{.arg sets} must be a list of two or more set predictors, each a",
          "logical matrix or a list of label vectors."
        ),
        i = "For example {.code list(aps = sets_aps, raps = sets_raps)}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  nm <- names(sets)
  if (is.null(nm)) nm <- rep("", length(sets))
  nm[nm == ""] <- paste0("set", seq_along(sets))[nm == ""]
  if (anyDuplicated(nm)) {
    abort_aurc(
      "The names of {.arg sets} must be distinct.",
      class = "aurc_error_value", call = call
    )
  }
  names(sets) <- nm
  sets
}

# The classes shared by every predictor: `classes`, else the column names
# of the matrices (which must agree), else those of the list form read
# over every predictor (NULL: by position).
set_compare_classes <- function(sets, truth, classes, call) {
  if (!is.null(classes)) return(classes)
  is_mat <- vapply(sets, is.matrix, logical(1))
  cn <- lapply(sets[is_mat], colnames)
  if (length(cn)) {
    k <- vapply(sets[is_mat], ncol, 1L)
    same <- all(k == k[1]) &&
      all(vapply(cn, identical, logical(1), cn[[1]]))
    if (!same) {
      abort_aurc(
        c(
          "The matrices of {.arg sets} must have the same columns (classes).",
          i = "Give them the same column names, or give {.arg classes}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    if (!is.null(cn[[1]])) return(cn[[1]])
  }
  if (all(is_mat)) return(NULL)
  set_list_classes(do.call(c, unname(sets[!is_mat])), truth, NULL, call)
}

# One group: every metric of every pair.
set_compare_table <- function(sets, truth, case_weights, classes, opts,
                              indices, na_rm, call) {
  check_bool(na_rm, call = call)
  classes <- set_compare_classes(sets, truth, classes, call)
  cases <- lapply(sets, set_cases, truth = truth, classes = classes,
    call = call
  )
  k <- vapply(cases, `[[`, 1L, "k")
  if (any(k != k[1])) {
    abort_aurc(
      "Every predictor of {.arg sets} must have the same number of classes.",
      class = "aurc_error_value", call = call
    )
  }
  n <- vapply(cases, `[[`, 1L, "n")
  if (any(n != n[1])) {
    abort_aurc(
      c(
        "Every predictor of {.arg sets} must have a set for every case.",
        x = "They have {n} cases."
      ),
      class = "aurc_error_length", call = call
    )
  }
  incomplete <- Reduce(`|`, lapply(cases, `[[`, "incomplete"))
  inputs <- lapply(cases, function(cs) {
    cs$incomplete <- incomplete
    set_input_weights(cs, case_weights, na_rm, call)
  })
  pairs <- utils::combn(length(sets), 2)
  input <- inputs[[1]]
  if (is.null(input)) warn_no_data(call = call)
  res <- if (is.list(input)) {
    set_compare_pairs(inputs, pairs, opts, indices, call)
  } else {
    NULL
  }
  set_compare_result(names(sets), pairs, opts, res,
    n = if (is.list(input)) sum(input$w) * input$count_scale else NA_real_
  )
}

# The result tibble; `res` NULL gives NA everywhere.
set_compare_result <- function(nm, pairs, opts, res, n) {
  m <- opts$metrics
  n_p <- ncol(pairs)
  na <- rep(NA_real_, n_p * length(m))
  if (is.null(res)) {
    res <- list(
      estimate_a = na, estimate_b = na, difference = na, lower = na,
      upper = na, std_error = na, statistic = na, p_value = na
    )
  }
  p_adj <- res$p_value
  for (j in seq_along(m)) {
    at <- (j - 1) * n_p + seq_len(n_p)
    if (!all(is.na(p_adj[at]))) {
      p_adj[at] <- stats::p.adjust(p_adj[at], method = opts$p_adjust)
    }
  }
  tibble::tibble(
    .metric = rep(m, each = n_p),
    set_a = rep(nm[pairs[1, ]], length(m)),
    set_b = rep(nm[pairs[2, ]], length(m)),
    estimate_a = res$estimate_a, estimate_b = res$estimate_b,
    difference = res$difference, lower = res$lower, upper = res$upper,
    std_error = res$std_error, statistic = res$statistic,
    p_value = res$p_value, p_adjusted = p_adj,
    .conf_level = opts$conf_level,
    .method = rep(set_compare_method(m, opts$type), each = n_p),
    n = n
  )
}

set_compare_method <- function(metrics, type) {
  kind <- set_metric_kinds[metrics]
  out <- ifelse(kind == "proportion", "mcnemar", "paired_z")
  out[kind %in% c("class", "size")] <- paste0("paired_bootstrap_", type)
  unname(out)
}

# Estimates, differences, intervals and tests of every metric (outer) and
# pair (inner) on validated inputs with the same cases.
set_compare_pairs <- function(inputs, pairs, opts, indices, call) {
  m <- opts$metrics
  est <- vapply(inputs, function(inp) set_estimates(inp, opts)$estimate,
    numeric(length(m))
  )
  est <- matrix(est, nrow = length(m))
  boot_metrics <- m[set_metric_kinds[m] %in% c("class", "size")]
  # weights standing for fewer than two cases: no spread to estimate
  few <- set_counts(sum(inputs[[1]]$w), inputs[[1]]) < 2
  if (few) {
    warn_aurc(
      c(
        "No interval here; the intervals and tests are {.val {NA}}.",
        i = "There are fewer than two cases to estimate the spread from."
      ),
      class = "aurc_warning_no_interval", call = call
    )
  }
  boot <- if (length(boot_metrics) && !few) {
    set_compare_bootstrap(inputs, boot_metrics, opts, indices, call)
  } else if (length(boot_metrics)) {
    array(NA_real_, c(2, length(inputs), length(boot_metrics)),
      dimnames = list(NULL, NULL, boot_metrics)
    )
  }
  rows <- list()
  for (j in seq_along(m)) {
    for (p in seq_len(ncol(pairs))) {
      a <- pairs[1, p]
      b <- pairs[2, p]
      r <- if (m[j] %in% boot_metrics) {
        d <- boot[, a, m[j]] - boot[, b, m[j]]
        set_compare_boot_test(d, est[j, a] - est[j, b], opts, call)
      } else {
        set_compare_mean_test(inputs[[a]], inputs[[b]], m[j], opts)
      }
      rows[[length(rows) + 1]] <- c(
        estimate_a = est[j, a], estimate_b = est[j, b], r
      )
    }
  }
  v <- do.call(rbind, rows)
  lapply(as.data.frame(v), unname)
}

# The per-case value whose weighted mean is metric `m`.
set_case_values <- function(input, m) {
  switch(m,
    coverage = as.double(input$covered),
    mean_size = as.double(input$size),
    singleton_rate = as.double(input$size == 1L),
    empty_rate = as.double(input$size == 0L),
    singleton_hit_ratio = as.double(input$size == 1L & input$covered)
  )
}

# A decomposable metric: the paired mean difference with its Wald
# interval; McNemar's test for the rates, the paired z test for the size.
set_compare_mean_test <- function(ia, ib, m, opts) {
  w <- ia$w
  d <- set_case_values(ia, m) - set_case_values(ib, m)
  total <- sum(w)
  cases <- set_counts(total, ia)
  dbar <- sum(w * d) / total
  se <- if (cases > 1) {
    sqrt(sum(w * (d - dbar)^2) / total / (cases - 1))
  } else {
    NA_real_
  }
  z <- stats::qnorm(1 - (1 - opts$conf_level) / 2)
  if (m == "mean_size") {
    lower <- max(-ia$k, dbar - z * se)
    upper <- min(ia$k, dbar + z * se)
    stat <- if (identical(se, 0)) {
      if (dbar == 0) 0 else sign(dbar) * Inf
    } else {
      dbar / se
    }
  } else {
    # the discordant cases on the scale of cases
    n10 <- sum(w[d > 0]) / total * cases
    n01 <- sum(w[d < 0]) / total * cases
    stat <- if (n10 + n01 > 0) (n10 - n01) / sqrt(n10 + n01) else 0
    iv <- if (cases >= 2) tango_interval(n10, n01, cases, dbar, z) else
      c(NA_real_, NA_real_)
    lower <- iv[1]
    upper <- iv[2]
  }
  if (cases < 2) stat <- lower <- upper <- NA_real_
  c(
    difference = dbar, lower = lower, upper = upper, std_error = se,
    statistic = stat, p_value = 2 * stats::pnorm(-abs(stat))
  )
}

# Tango's (1998) score interval for the difference of paired proportions
# Delta = (n10 - n01) / n: the Delta whose score statistic
#   T(Delta) = (n10 - n01 - n Delta) / sqrt(n (2 q + Delta (1 - Delta)))
# lies within -/+ z, q the restricted maximum-likelihood estimate of the
# probability of the cell n01 given Delta (the root of a quadratic).
# T(0) is McNemar's statistic, so the interval holds 0 exactly when
# McNemar's test does not reject. T decreases in Delta.
tango_score <- function(delta, n10, n01, n) {
  b <- -n10 - n01 + (2 * n - n10 + n01) * delta
  cc <- -n01 * delta * (1 - delta)
  q <- (sqrt(b^2 - 8 * n * cc) - b) / (4 * n)
  (n10 - n01 - n * delta) / sqrt(n * (2 * q + delta * (1 - delta)))
}

tango_interval <- function(n10, n01, n, dhat, z) {
  end <- function(edge, target) {
    # the root of T = target between dhat and the edge (-1 or 1), or the
    # edge when T stays on the near side of the target up to it
    if (edge * dhat >= 1) return(edge)
    at <- edge * (1 - 1e-12)
    f <- function(x) tango_score(x, n10, n01, n) - target
    fe <- f(at)
    # (T(dhat) = 0, so f(dhat) = -target)
    if (!is.finite(fe) || sign(fe) == sign(-target)) return(edge)
    ends <- if (edge < 0) c(fe, -target) else c(-target, fe)
    stats::uniroot(f, sort(c(dhat, at)), f.lower = ends[1],
      f.upper = ends[2], tol = 1e-13
    )$root
  }
  c(end(-1, z), end(1, -z))
}

# A bootstrapped metric: the interval of the chosen type and the p-value
# from the replicate differences d.
set_compare_boot_test <- function(d, d0, opts, call) {
  iv <- ci_interval(d, d0, opts$type, opts$conf_level, NULL, call)
  c(
    difference = d0, lower = iv[["lower"]], upper = iv[["upper"]],
    std_error = iv[["std_error"]], statistic = NA_real_,
    p_value = ci_p_value(d, d0, opts$type, iv)
  )
}

# The paired bootstrap: a times x predictors x metrics array of the
# replicate values, every predictor on the same counts of each replicate.
set_compare_bootstrap <- function(inputs, metrics, opts, indices, call) {
  input <- inputs[[1]]
  n <- length(input$w)
  freq <- !isTRUE(input$importance)
  # frequency weights: the rows they stand for are drawn; otherwise the
  # cases, each drawn case entering with its weight
  rows_w <- if (freq) input$w * input$count_scale else NULL
  size <- if (freq) round(sum(rows_w)) else n
  drawn <- which(input$w > 0)
  draws <- ci_check_draws(opts$times, indices, NULL, NULL, n, size, call)
  if (is.null(draws$indices)) ci_check_rows(size, call)
  times <- draws$times
  ci_check_sizes(times, length(inputs), length(metrics), n, 1, call)
  seed <- if (is.null(draws$indices)) ci_bootstrap_seed() else NULL
  out <- array(NA_real_, c(times, length(inputs), length(metrics)),
    dimnames = list(NULL, NULL, metrics)
  )
  t <- 1 - opts$alpha
  strata <- set_strata(opts$size_strata, input$k)
  block <- max(1, floor(ci_r_block_cells / n))
  first <- 0
  while (first < times) {
    bsize <- min(block, times - first)
    counts <- if (!is.null(draws$indices)) {
      idx <- draws$indices[first + seq_len(bsize), , drop = FALSE]
      t(apply(idx, 1, tabulate, nbins = n))
    } else if (freq) {
      ci_bootstrap_counts(double(n), rows_w, NULL, NULL, bsize, seed, first)
    } else {
      # importance weights: the cases of positive weight are the sample
      cnt <- matrix(0, bsize, n)
      cnt[, drawn] <- ci_bootstrap_counts(double(length(drawn)), NULL, NULL,
        NULL, bsize, seed, first
      )
      cnt
    }
    # replicate weights, cases x replicates
    v <- t(counts)
    if (!freq) v <- v * input$w
    rows <- first + seq_len(bsize)
    for (j in seq_along(inputs)) {
      out[rows, j, ] <- set_replicate_values(inputs[[j]], v, metrics, t,
        strata
      )
    }
    first <- first + bsize
  }
  out
}

# The metrics of one predictor on replicate weights v (cases x replicates):
# a replicates x metrics matrix, by group sums (rowsum) over the cases.
set_replicate_values <- function(input, v, metrics, t, strata) {
  hits <- v * input$covered
  # the coverage of each group with cases (groups x replicates; NA where a
  # replicate drew none of its cases)
  group_cov <- function(g) {
    keep <- !is.na(g)
    n <- rowsum(v[keep, , drop = FALSE], g[keep])
    h <- rowsum(hits[keep, , drop = FALSE], g[keep])
    ifelse(n > 0, h / n, NA_real_)
  }
  summary_of <- function(x, f) {
    r <- suppressWarnings(apply(x, 2, f, na.rm = TRUE))
    ifelse(is.finite(r), r, NA_real_)
  }
  out <- matrix(NA_real_, ncol(v), length(metrics),
    dimnames = list(NULL, metrics)
  )
  kinds <- set_metric_kinds[metrics]
  if (any(kinds == "class")) {
    cc <- group_cov(input$truth)
    gap <- abs(cc - t)
    for (m in metrics[kinds == "class"]) {
      out[, m] <- switch(m,
        class_coverage_gap = summary_of(gap, max),
        covgap = 100 * summary_of(gap, mean),
        macro_coverage = summary_of(cc, mean)
      )
    }
  }
  if (any(kinds == "size")) {
    g <- set_stratum_of(input$size, strata)
    sc <- group_cov(g)
    for (m in metrics[kinds == "size"]) {
      out[, m] <- switch(m,
        ssc_min = summary_of(sc, min),
        sscv = summary_of(abs(sc - t), max)
      )
    }
  }
  out
}
