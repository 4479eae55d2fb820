#' Evaluate conformal prediction sets
#'
#' Coverage, size and conditional coverage of prediction sets (the output of
#' a conformal classifier), each with a confidence interval (issue 36).
#' The sets are a logical `n x K` matrix (`TRUE` where class `k` is in the
#' set of case `i`, as the boolean sets of MAPIE and TorchCP) or a list of
#' label vectors (one per case; `NULL` or `character(0)` is the empty set).
#'
#' @details
#' With `C_i = 1[y_i in S_i]`, `|S_i|` the size of the set (0 for an empty
#' one), case weights `w_i` (frequency weights; all 1 by default),
#' `W = sum w_i`, `t = 1 - alpha` the target coverage, and the
#' class-conditional coverage `c_k = sum_{y_i = k} w_i C_i / sum_{y_i = k}
#' w_i` over the classes that occur (`K'` of them):
#' * `coverage`: `sum w_i C_i / W` (MAPIE `classification_coverage_score`,
#'   TorchCP `coverage_rate`);
#' * `mean_size`: `sum w_i |S_i| / W` (MAPIE
#'   `classification_mean_width_score`, TorchCP `average_size`);
#' * `singleton_rate`: `sum w_i 1[|S_i| = 1] / W`, the share of sets that
#'   name one class;
#' * `empty_rate`: `sum w_i 1[|S_i| = 0] / W`;
#' * `singleton_hit_ratio`: `sum w_i 1[|S_i| = 1] C_i / W`, singletons that
#'   hold the true class, over all cases (TorchCP `singleton_hit_ratio`);
#' * `class_coverage_gap`: the largest class-conditional gap
#'   `max_k |c_k - t|`;
#' * `covgap`: `100 mean_k |c_k - t|`, the average gap in percent (TorchCP
#'   `CovGap`, Ding et al. 2023);
#' * `macro_coverage`: `mean_k c_k` (TorchCP `coverage_rate(coverage_type =
#'   "macro")`);
#' * `ssc_min`: the smallest size-stratified coverage `min_s cov_s` over the
#'   size strata that hold cases, `cov_s` the coverage of the cases whose
#'   set size lies in stratum `s` (MAPIE `classification_ssc_score`,
#'   Angelopoulos and Bates 2021);
#' * `sscv`: `max_s |cov_s - t|`, the size-stratified coverage violation
#'   (TorchCP `SSCV`, Angelopoulos et al. 2021).
#'
#' **Size strata** (`size_strata`): `NULL` (default) gives one stratum per
#' size `0, 1, ..., K` (MAPIE's `num_bins = None`); a whole number `m` splits
#' the sizes `0..K` into `m` consecutive groups as MAPIE's `num_bins = m`
#' does (`numpy.array_split`: the first `(K + 1) mod m` groups one size
#' larger); a list of `c(lower, upper)` pairs gives the strata directly
#' (TorchCP's `stratified_size`; its default is
#' `list(c(0, 1), c(2, 3), c(4, 10), c(11, 100), c(101, 1000))`). Strata
#' without cases are left out, as both peers do. MAPIE refuses `m` at or
#' above the number of distinct sizes seen; here such an `m` is allowed.
#'
#' **Classes that do not occur.** Classes without cases have no
#' class-conditional coverage and are left out of `class_coverage_gap`,
#' `covgap` and `macro_coverage`. TorchCP (version 1) counts them as
#' coverage 0 when `num_classes` exceeds the classes present (and older
#' versions returned `NaN`), so its values differ there.
#'
#' **Intervals** (level `conf_level`):
#' * the proportions `coverage`, `singleton_rate`, `empty_rate`,
#'   `singleton_hit_ratio`: the Wilson score interval
#'   (`interval = "wilson"`) or the Clopper-Pearson interval
#'   (`"clopper_pearson"`), with `W` cases (weights as counts);
#' * `mean_size`: the normal interval `mean -/+ z sd / sqrt(W)`, `sd` the
#'   weighted standard deviation of the sizes (divisor `W - 1`), kept within
#'   `[0, K]`;
#' * `macro_coverage`, the mean of `K'` independent class coverages: the
#'   normal interval `mean_k c_k -/+ z sqrt(sum_k v_k) / K'` with the
#'   Agresti-Coull variances `v_k = a_k (1 - a_k) / (n_k + z^2)`,
#'   `a_k = (n_k c_k + z^2 / 2) / (n_k + z^2)` (so a class covered always
#'   still counts), kept within `[0, 1]`;
#' * the other summaries over classes or size strata (`class_coverage_gap`,
#'   `covgap`, `ssc_min`, `sscv`): the projection of a simultaneous box.
#'   Each group's coverage gets an interval `[l_g, u_g]` of the chosen kind
#'   at level `1 - (1 - conf_level) / G` (Bonferroni over the `G` groups),
#'   so that with probability at least about `conf_level` every group's
#'   coverage lies in its interval at once; the interval of the summary is
#'   the smallest and largest value it takes over that box: for the largest
#'   gap (and `sscv`) `[max_g d_g, max_g e_g]` with
#'   `d_g = max(0, l_g - t, t - u_g)` (0 when `t` is inside) and
#'   `e_g = max(t - l_g, u_g - t)`; for `covgap` the means of the same
#'   (times 100); `[min l_g, min u_g]` for `ssc_min`. These intervals are
#'   conservative: the box holds every coverage at once, not only the
#'   extreme one (in simulations, `studies/sets-interval-coverage.R`,
#'   the largest gap covered 0.94 to 1.00 at level 0.95, `covgap` 0.94 to
#'   1.00).
#'
#' To compare two or more set predictors on the same cases (a paired
#' difference of each metric with its interval and p-value), see
#' [compare_sets()].
#'
#' @param data A data frame (grouped data frames give one result per group).
#' @param sets The prediction sets: a logical matrix (one column per class;
#'   in the data-frame form a matrix column) or a list of label vectors (a
#'   list column).
#' @param truth The true classes: a factor or character vector (matched to
#'   the column names of the matrix, or to `classes`), or class numbers
#'   `1..K` (matched to the columns by position when the matrix has no
#'   column names, else by name, so the 0-based labels of Python match
#'   column names `"0"`, `"1"`, ...). `NA` marks a missing case.
#' @param ... Not used; the options after it must be named.
#' @param alpha The miscoverage level the sets were built for; the target
#'   coverage of the gap metrics is `1 - alpha`.
#' @param metrics Names of the metrics (default: all, in the order above).
#' @param classes The class names, one per column of a matrix or, for list
#'   sets, all classes (default: the levels of a factor `truth`, else the
#'   labels seen).
#' @param size_strata The size strata (see Details).
#' @param interval `"wilson"` or `"clopper_pearson"`: the interval of a
#'   proportion.
#' @param conf_level The confidence level of the intervals.
#' @param case_weights Optional non-negative weights, one per case (in the
#'   data-frame form a column): frequency weights (plain numbers or
#'   `hardhat::frequency_weights()`) count as that many cases;
#'   `hardhat::importance_weights()` give the same estimates, and the
#'   intervals take Kish's effective number of cases, `(sum w)^2 / sum
#'   w^2`, in place of `W`.
#' @param na_rm When `FALSE` (default), a missing truth or a missing entry
#'   of a set makes every estimate `NA`; when `TRUE` such cases are dropped.
#' @return `set_metrics()` and `set_metrics_vec()`: a tibble with the
#'   grouping columns (data-frame form), `.metric`, `.estimator` (`"set"`),
#'   `.estimate`, `.lower`, `.upper`, `.conf_level` and `.method` (the kind
#'   of interval). `set_class_coverage()`: one row per class, with `class`,
#'   `n` (weighted count), `coverage`, `.lower`, `.upper` (pointwise
#'   intervals) and `mean_size`. `set_size_coverage()`: one row per size
#'   stratum with cases, with `stratum`, `min_size`, `max_size`, `n`,
#'   `coverage`, `.lower`, `.upper`.
#' @references
#' Angelopoulos, A. N., Bates, S., Malik, J. and Jordan, M. I. (2021).
#' Uncertainty sets for image classifiers using conformal prediction.
#' ICLR 2021.
#'
#' Angelopoulos, A. N. and Bates, S. (2021). A gentle introduction to
#' conformal prediction and distribution-free uncertainty quantification.
#' arXiv:2107.07511.
#'
#' Ding, T., Angelopoulos, A. N., Bates, S., Jordan, M. I. and Tibshirani,
#' R. J. (2023). Class-conditional conformal prediction with many classes.
#' NeurIPS 2023.
#'
#' Wilson, E. B. (1927). Probable inference, the law of succession, and
#' statistical inference. JASA 22(158), 209-212.
#' @examples
#' # the sets of MAPIE's classification_ssc example (0-based labels)
#' sets <- matrix(c(
#'   TRUE, TRUE, TRUE, TRUE,
#'   FALSE, TRUE, FALSE, TRUE,
#'   TRUE, TRUE, TRUE, FALSE,
#'   FALSE, FALSE, TRUE, TRUE,
#'   TRUE, TRUE, FALSE, TRUE
#' ), 5, byrow = TRUE, dimnames = list(NULL, 0:3))
#' truth <- c(3, 3, 1, 2, 2)
#' set_metrics_vec(sets, truth, size_strata = 2)
#' set_size_coverage(sets, truth, size_strata = 2)
#' # list form
#' s <- list("a", c("a", "b"), character(0), c("b", "c"))
#' set_metrics_vec(s, c("a", "b", "c", "c"),
#'   metrics = c("coverage", "mean_size", "singleton_rate")
#' )
#' @name set_metrics
NULL

# The metrics in their order, with the kind of interval each gets.
set_metric_kinds <- c(
  coverage = "proportion", mean_size = "mean",
  singleton_rate = "proportion", empty_rate = "proportion",
  singleton_hit_ratio = "proportion", class_coverage_gap = "class",
  covgap = "class", macro_coverage = "class", ssc_min = "size",
  sscv = "size"
)

#' @rdname set_metrics
#' @export
set_metrics <- function(data, sets, truth, ..., alpha = 0.1, metrics = NULL,
                        classes = NULL, size_strata = NULL,
                        interval = "wilson", conf_level = 0.95,
                        case_weights = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  quos <- list(
    sets = rlang::enquo(sets), truth = rlang::enquo(truth),
    case_weights = rlang::enquo(case_weights)
  )
  values <- lapply(names(quos), function(a) {
    set_column(data, quos[[a]], a, call)
  })
  names(values) <- names(quos)
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    s <- values$sets
    s <- if (is.matrix(s)) s[rows, , drop = FALSE] else s[rows]
    set_metrics_table(s, values$truth[rows],
      set_weights_rows(values$case_weights, rows),
      alpha, metrics, classes, size_strata, interval, conf_level, na_rm,
      call
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

# A column of `data` for set_metrics(): a matrix or list column by name,
# else evaluated like the other forms' columns.
set_column <- function(data, quo, arg, call) {
  if (rlang::quo_is_null(quo)) return(NULL)
  expr <- rlang::quo_get_expr(quo)
  if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
    name <- rlang::as_string(expr)
    if (name %in% names(data)) {
      v <- data[[name]]
      if (identical(arg, "case_weights")) v <- plain_weights(v)
      return(v)
    }
  }
  eval_column(data, quo, arg, call)
}

#' @rdname set_metrics
#' @export
set_metrics_vec <- function(sets, truth, ..., alpha = 0.1, metrics = NULL,
                            classes = NULL, size_strata = NULL,
                            interval = "wilson", conf_level = 0.95,
                            case_weights = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  set_metrics_table(sets, truth, case_weights, alpha, metrics, classes,
    size_strata, interval, conf_level, na_rm, call
  )
}

set_metrics_table <- function(sets, truth, case_weights, alpha, metrics,
                              classes, size_strata, interval, conf_level,
                              na_rm, call) {
  opts <- set_options(alpha, metrics, size_strata, interval, conf_level,
    call
  )
  input <- set_input(sets, truth, classes, case_weights, na_rm, call)
  m <- opts$metrics
  na <- rep(NA_real_, length(m))
  res <- list(estimate = na, lower = na, upper = na)
  if (is.null(input)) warn_no_data(call = call)
  if (is.list(input)) res <- set_estimates(input, opts)
  tibble::tibble(
    .metric = m, .estimator = "set", .estimate = res$estimate,
    .lower = res$lower, .upper = res$upper, .conf_level = conf_level,
    .method = set_interval_label(m, opts$interval)
  )
}

set_interval_label <- function(metrics, interval) {
  kind <- set_metric_kinds[metrics]
  out <- ifelse(kind == "mean", "normal", interval)
  grouped <- kind %in% c("class", "size")
  out[grouped] <- paste0("bonferroni_", interval)
  out[metrics == "macro_coverage"] <- "normal"
  unname(out)
}

set_options <- function(alpha, metrics, size_strata, interval, conf_level,
                        call) {
  alpha <- check_number(alpha, 0, 1, open = TRUE, call = call)
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  interval <- check_choice(interval, c("wilson", "clopper_pearson"),
    call = call
  )
  if (is.null(metrics)) {
    metrics <- names(set_metric_kinds)
  } else {
    check_names_in(metrics, names(set_metric_kinds), call = call)
    metrics <- unique(metrics)
  }
  check_size_strata(size_strata, call)
  list(
    alpha = alpha, metrics = metrics, size_strata = size_strata,
    interval = interval, conf_level = conf_level
  )
}

check_size_strata <- function(size_strata, call) {
  if (is.null(size_strata)) return(invisible())
  if (is.numeric(size_strata) && length(size_strata) == 1) {
    check_number(size_strata, 1, Inf, whole = TRUE, call = call)
    return(invisible())
  }
  if (!size_ranges_ok(size_strata)) {
    abort_aurc(
      c(
        paste(
          "{.arg size_strata} must be {.code NULL}, a whole number of",
          "strata, or a list of {.code c(lower, upper)} size ranges."
        ),
        i = paste(
          "Ranges are whole numbers from 0 with lower <= upper and do not",
          "overlap."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible()
}

# A list of c(lower, upper) whole-number size ranges that do not overlap.
size_ranges_ok <- function(x) {
  ok <- is.list(x) && length(x) > 0 &&
    all(vapply(x, function(s) {
      is.numeric(s) && length(s) == 2 && all(is.finite(s)) &&
        all(s == round(s)) && s[1] >= 0 && s[1] <= s[2]
    }, logical(1)))
  if (!ok) return(FALSE)
  lo <- vapply(x, `[`, 1, 1)
  hi <- vapply(x, `[`, 1, 2)
  o <- order(lo)
  all(lo[o][-1] > hi[o][-length(o)])
}

# The strata of the sizes 0..k as a two-column matrix (lower, upper).
set_strata <- function(size_strata, k) {
  if (is.null(size_strata)) return(cbind(0:k, 0:k) + 0)
  if (is.numeric(size_strata)) {
    # more strata than sizes: one size each (also keeps m an integer)
    m <- as.integer(min(size_strata, k + 1))
    len <- (k + 1) %/% m + (seq_len(m) <= (k + 1) %% m)
    len <- len[len > 0]
    hi <- cumsum(len) - 1
    return(cbind(hi - len + 1, hi))
  }
  s <- do.call(rbind, lapply(size_strata, as.double))
  s[order(s[, 1]), , drop = FALSE]
}

# The stratum (row of `strata`) of each size; NA outside every stratum.
set_stratum_of <- function(size, strata) {
  g <- findInterval(size, strata[, 1])
  g[g == 0 | size > strata[pmax(g, 1), 2]] <- NA
  g
}

# Weighted coverage per group (g: an integer group per case, 1..G): the
# groups with cases, their weighted counts and coverages.
set_group_coverage <- function(input, g, n_groups) {
  n <- set_group_sum(input$w, g, n_groups)
  hit <- set_group_sum(input$w * input$covered, g, n_groups)
  list(n = n, hit = hit, coverage = ifelse(n > 0, hit / n, NA_real_))
}

# Sums of x per group 1..n_groups (cases of group NA left out).
set_group_sum <- function(x, g, n_groups) {
  vapply(split(x, factor(g, seq_len(n_groups))), sum, numeric(1),
    USE.NAMES = FALSE
  )
}

# The case counts of the intervals: weighted counts `n` of scaled weights
# back on the scale of cases, at most 1e15 (beyond it an interval is
# narrower than 1e-7; the cap keeps qbeta() in its range and only widens).
set_counts <- function(n, input) pmin(n * input$count_scale, 1e15)

# An interval for proportions p of n cases at `level`.
set_prop_interval <- function(p, n, level, interval) {
  if (interval == "wilson") return(wilson_interval(p, n, level))
  a <- (1 - level) / 2
  x <- p * n
  lower <- rep(0, length(x))
  upper <- rep(1, length(x))
  lo <- which(x > 0 & x < n)
  lower[lo] <- stats::qbeta(a, x[lo], n[lo] - x[lo] + 1)
  upper[lo] <- stats::qbeta(1 - a, x[lo] + 1, n[lo] - x[lo])
  # all or none covered: the closed forms a^(1/n), 1 - a^(1/n)
  all <- which(x > 0 & x >= n)
  lower[all] <- exp(log(a) / n[all])
  none <- which(x <= 0 & n > 0)
  upper[none] <- -expm1(log(a) / n[none])
  lower[!(n > 0)] <- NA_real_
  upper[!(n > 0)] <- NA_real_
  cbind(lower, upper)
}

# Estimates and intervals of every metric of `opts` on validated input.
set_estimates <- function(input, opts) {
  w <- input$w
  total <- sum(w)
  cases <- set_counts(total, input)
  t <- 1 - opts$alpha
  level <- opts$conf_level
  z <- stats::qnorm(1 - (1 - level) / 2)
  single <- input$size == 1L
  props <- c(
    coverage = sum(w * input$covered),
    singleton_rate = sum(w * single),
    empty_rate = sum(w * (input$size == 0L)),
    singleton_hit_ratio = sum(w * (single & input$covered))
  ) / total
  out <- list()
  for (m in opts$metrics) {
    kind <- set_metric_kinds[[m]]
    out[[m]] <- switch(kind,
      proportion = c(props[[m]],
        set_prop_interval(props[[m]], cases, level, opts$interval)
      ),
      mean = {
        mu <- sum(w * input$size) / total
        sd <- if (cases > 1) {
          sqrt(sum(w * (input$size - mu)^2) / total * cases / (cases - 1))
        } else {
          NA_real_
        }
        half <- z * sd / sqrt(cases)
        c(mu, max(0, mu - half), min(input$k, mu + half))
      },
      class = set_group_summary(
        set_group_coverage(input, input$truth, input$k), m, t, opts, input
      ),
      size = {
        strata <- set_strata(opts$size_strata, input$k)
        g <- set_stratum_of(input$size, strata)
        set_group_summary(
          set_group_coverage(input, g, nrow(strata)), m, t, opts, input
        )
      }
    )
  }
  v <- do.call(rbind, out)
  list(
    estimate = unname(v[, 1]), lower = unname(v[, 2]),
    upper = unname(v[, 3])
  )
}

# A summary over groups (classes or size strata) with the projection of
# the Bonferroni box as its interval.
set_group_summary <- function(gc, metric, t, opts, input) {
  keep <- gc$n > 0
  cov <- gc$coverage[keep]
  if (!length(cov)) return(c(NA_real_, NA_real_, NA_real_))
  cases <- set_counts(gc$n[keep], input)
  if (metric == "macro_coverage") {
    return(set_macro_interval(cov, cases, opts$conf_level))
  }
  level <- 1 - (1 - opts$conf_level) / length(cov)
  iv <- set_prop_interval(cov, cases, level, opts$interval)
  l <- iv[, 1]
  u <- iv[, 2]
  near <- pmax(0, l - t, t - u)
  far <- pmax(t - l, u - t)
  gap <- abs(cov - t)
  switch(metric,
    class_coverage_gap = , sscv = c(max(gap), max(near), max(far)),
    covgap = 100 * c(mean(gap), mean(near), mean(far)),
    ssc_min = c(min(cov), min(l), min(u))
  )
}

# The mean of independent class coverages: a normal interval whose
# variance sums the per-class Agresti-Coull variances c~ (1 - c~) / (n + z^2),
# c~ = (c n + z^2 / 2) / (n + z^2), so a class covered always (or never)
# still adds its uncertainty; kept within [0, 1].
set_macro_interval <- function(cov, cases, conf_level) {
  z <- stats::qnorm(1 - (1 - conf_level) / 2)
  ct <- (cov * cases + z^2 / 2) / (cases + z^2)
  half <- z * sqrt(sum(ct * (1 - ct) / (cases + z^2))) / length(cov)
  m <- mean(cov)
  c(m, max(0, m - half), min(1, m + half))
}

#' @rdname set_metrics
#' @export
set_class_coverage <- function(sets, truth, ..., classes = NULL,
                               interval = "wilson", conf_level = 0.95,
                               case_weights = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  opts <- set_options(0.1, NULL, NULL, interval, conf_level, call)
  input <- set_input(sets, truth, classes, case_weights, na_rm, call)
  input <- set_table_input(input, call)
  gc <- set_group_coverage(input, input$truth, input$k)
  size <- set_group_sum(input$w * input$size, input$truth, input$k)
  iv <- set_prop_interval(gc$coverage, set_counts(gc$n, input), conf_level,
    opts$interval
  )
  tibble::tibble(
    class = input$classes, n = gc$n * input$count_scale,
    coverage = gc$coverage,
    .lower = iv[, 1], .upper = iv[, 2],
    mean_size = ifelse(gc$n > 0, size / gc$n, NA_real_)
  )
}

#' @rdname set_metrics
#' @export
set_size_coverage <- function(sets, truth, ..., classes = NULL,
                              size_strata = NULL, interval = "wilson",
                              conf_level = 0.95, case_weights = NULL,
                              na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  opts <- set_options(0.1, NULL, size_strata, interval, conf_level, call)
  input <- set_input(sets, truth, classes, case_weights, na_rm, call)
  input <- set_table_input(input, call)
  strata <- set_strata(size_strata, input$k)
  g <- set_stratum_of(input$size, strata)
  gc <- set_group_coverage(input, g, nrow(strata))
  keep <- gc$n > 0
  iv <- set_prop_interval(gc$coverage[keep], set_counts(gc$n[keep], input),
    conf_level, opts$interval
  )
  tibble::tibble(
    stratum = which(keep), min_size = as.integer(strata[keep, 1]),
    max_size = as.integer(strata[keep, 2]), n = gc$n[keep] * input$count_scale,
    coverage = gc$coverage[keep], .lower = iv[, 1], .upper = iv[, 2]
  )
}

# The tables need complete cases: an error saying so, rather than a table
# of NA.
set_table_input <- function(input, call) {
  if (identical(input, "missing")) {
    abort_aurc(
      c(
        "{.arg truth} or {.arg sets} has missing values.",
        i = "Use {.code na_rm = TRUE} to drop those cases."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (is.null(input)) {
    abort_aurc(
      "No cases left to compute on.",
      class = "aurc_error_no_data", call = call
    )
  }
  input
}
