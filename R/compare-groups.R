#' Compare one metric across independent groups
#'
#' Is the model as good on every subgroup (site, scanner, sex, age band)?
#' For the same score and loss in two or more **independent samples** (the
#' rows of each level of `group`), `compare_groups()` estimates the metric
#' in every group with its interval, tests every pairwise difference, and
#' names the worst group and its gap to the best with simultaneous
#' intervals and a test that all groups are equal.
#'
#' @section Per-group estimates:
#' The estimate, interval and standard error of each group are exactly
#' those of [selective_ci_vec()] on that group's rows, with the same metric
#' options, `method`, `type` and `conf_level`; every metric with an
#' interval works (see [selective_ci()], section "Which methods for which
#' metric"). A metric without an influence function has no analytic
#' interval here either (an error of class `aurc_error_method`).
#'
#' @section Pairwise differences:
#' For every pair of groups `a`, `b` (in the order of the groups, `a`
#' first) the difference `T(a) - T(b)`:
#' * `method = "analytic"`: the groups are independent, so the variance of
#'   the difference is the sum of the groups' variances,
#'   `SE = sqrt(SE_a^2 + SE_b^2)`, each from its own influence function.
#'   The statistic is `t = difference / SE`, referred to Student's t with
#'   the Welch-Satterthwaite degrees of freedom
#'   `df = (v_a + v_b)^2 / (v_a^2 / (n_a - 1) + v_b^2 / (n_b - 1))`
#'   (`v = SE^2`, `n` the cases of a group, or its clusters), and the
#'   interval is `difference +- qt(1 - alpha / 2, df) SE`. For large groups
#'   this is the z test. For the failure AUROC it is DeLong's unpaired test
#'   as `pROC::roc.test(paired = FALSE, method = "delong")` computes it
#'   (the same statistic, degrees of freedom and p-value).
#' * `method = "bootstrap"`: every group is resampled separately (its own
#'   draws, in the order of the groups, each as [selective_ci_vec()] draws
#'   them, within `strata` and by `cluster` if given); replicate `r` of the
#'   difference is replicate `r` of group `a` minus replicate `r` of group
#'   `b`. Its interval is of the chosen `type` and its p-value the
#'   inversion of that interval, as in [compare_scores()]. For `"bca"` the
#'   acceleration of the difference is
#'   `(a_a SE_a^3 - a_b SE_b^3) / (SE_a^2 + SE_b^2)^(3/2)` from the groups'
#'   own accelerations and bootstrap standard errors (third cumulants add
#'   over independent samples).
#'
#' The p-values are adjusted over the `K (K - 1) / 2` pairs with
#' [stats::p.adjust()] (`p_adjust`, `"holm"` by default).
#'
#' @section The largest gap and simultaneous intervals (max-t):
#' The worst group is the one with the worst estimate in the metric's
#' direction (the highest AURC, the lowest failure AUROC; for the
#' calibration slope and intercept the farthest from 1 and 0), the best
#' group the one with the best; the gap is the absolute difference of
#' their estimates. Which two groups these are is read from the data, so
#' the gap's interval must hold whichever pair is picked: it is the
#' **simultaneous** interval of that pair, from the single-step max-t
#' method (Hothorn, Bretz & Westfall, 2008). All pairwise intervals
#' `difference +- c SE` hold together with probability `conf_level`, where
#' `c` is the `conf_level` quantile of `max |t_ab|` over all pairs when no
#' group differs:
#' * analytic: the `t_ab = (X_a - X_b) / sqrt(v_a + v_b)` of independent
#'   normal group estimates `X_g` with variances `v_g` (the exact
#'   correlation of the pairs, which share groups), divided by one
#'   `sqrt(chi^2_df / df)` with the smallest Welch `df` of the pairs (a
#'   multivariate t). Its distribution is computed from 10^5 draws with a
#'   fixed internal seed (the user's random numbers are left as they
#'   were), so `c` is known to about 0.01 and the p-values to about 0.002
#'   (each kept within its exact bounds: at least the largest single-pair
#'   p-value, at most Bonferroni's). With two groups it is exact: the
#'   pairwise t test.
#' * bootstrap: `max |(d*_ab - d_ab) / SE_ab|` over the replicates (the
#'   studentized maximum of the bootstrap, as in Westfall & Young's
#'   resampling), `SE_ab` the standard deviation of the replicate
#'   differences.
#'
#' The gap test has the null hypothesis that every group has the same
#' value of the metric; its statistic is `max |t_ab|` over all pairs and
#' its p-value `P(max |t| >= observed)` under that distribution. The
#' column `p_max_t` of `tests` is the single-step max-t adjusted p-value of
#' each pair, which is below `1 - conf_level` exactly when its simultaneous
#' interval excludes 0.
#'
#' @section Groups and missing values:
#' `group` is a column of `data` (a factor, character, logical or whole
#' numbers) with at least two levels present; the groups are in the order
#' of the factor's levels (levels without rows are dropped), otherwise
#' sorted. A missing `group` is an error, or its rows are dropped with
#' `na_rm = TRUE` (as rows with a missing score or loss are). A group whose
#' metric is undefined (for example a failure AUROC without failures) is
#' `NA` with the metric's warning; its pairs, the gap and the simultaneous
#' intervals are then `NA`. A grouped data frame is an error (class
#' `aurc_error_value`): the comparison is across the levels of `group`;
#' to compare groups within each model, filter the model first.
#'
#' @references
#' DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
#' Comparing the areas under two or more correlated receiver operating
#' characteristic curves: a nonparametric approach. *Biometrics*, 44(3),
#' 837-845.
#'
#' Hothorn, T., Bretz, F. and Westfall, P. (2008). Simultaneous inference
#' in general parametric models. *Biometrical Journal*, 50(3), 346-363.
#'
#' Westfall, P. H. and Young, S. S. (1993). *Resampling-Based Multiple
#' Testing*. Wiley.
#'
#' @inheritParams compare_scores
#' @param data A data frame (not grouped; see "Groups and missing values").
#' @param score The unquoted score column (higher = more confident).
#' @param loss The unquoted per-sample loss column (0/1 failure for the
#'   binary metrics).
#' @param group The unquoted column of the groups to compare (at least two
#'   levels).
#' @param correct,quality Instead of `loss`: the unquoted column of the
#'   correctness (`loss = 1 - correct`) or of a quality in `[0, 1]`
#'   (`loss = 1 - quality`).
#' @param strata,cluster Optional unquoted columns: the strata and clusters
#'   of [selective_ci()], used within each group (each group must have at
#'   least two strata or clusters).
#' @param na_rm If `TRUE`, rows with a missing score, loss or group are
#'   dropped; if `FALSE` (the default) a missing score or loss makes its
#'   group `NA` and a missing group is an error.
#' @return An object of class `aurc_group_comparison`: a list with
#' * `groups`: one row per group: `group`, `n` (cases; the cases frequency
#'   weights stand for), `n_failures` (`NA` unless the loss is 0/1),
#'   `estimate`, `lower`, `upper`, `std_error`;
#' * `tests`: one row per pair: `group_a`, `group_b`, `estimate_a`,
#'   `estimate_b`, `difference` (a - b), `lower`, `upper` (the pair's own
#'   interval), `lower_simultaneous`, `upper_simultaneous` (max-t),
#'   `std_error`, `statistic` (t), `df` (Welch's; `NA` for the bootstrap),
#'   `p_value`, `p_adjusted` (`p_adjust`), `p_max_t`;
#' * `gap`: one row: `worst`, `best`, `estimate_worst`, `estimate_best`,
#'   `gap` (>= 0), `lower`, `upper` (its simultaneous interval, the
#'   difference of those two groups), `statistic` (max |t|) and `p_value`
#'   (the max-t test that all groups are equal);
#' * `settings`.
#'
#' It has `print()`, `autoplot()`, `as.data.frame()`, `as_tibble()` and
#' `tidy()` methods (`what = "groups"`, `"tests"` or `"gap"`).
#' @seealso [compare_scores()] for scores on the same cases (paired),
#'   [selective_ci()].
#' @examples
#' set.seed(3)
#' n <- 600
#' site <- rep(c("north", "south", "east"), each = n / 3)
#' score <- rnorm(n)
#' shift <- c(north = 0, south = 0, east = 0.8)[site]
#' df <- data.frame(
#'   site = site, score = score,
#'   failure = rbinom(n, 1, plogis(-1.5 - 1.5 * score + shift))
#' )
#' cmp <- compare_groups(df, score, failure, group = site,
#'   metric = "failure_auroc"
#' )
#' cmp
#' cmp$gap
#' compare_groups(df, score, failure, group = site, metric = "augrc")
#' autoplot(cmp)
#' @export
compare_groups <- function(data, score, loss, ..., group, correct = NULL,
                           quality = NULL, truth = NULL, metric = "aurc",
                           method = c("analytic", "bootstrap"),
                           p_adjust = "holm", conf_level = 0.95,
                           type = "percentile", times = 2000, strata = NULL,
                           cluster = NULL, estimator = "alpha",
                           augrc_method = "trapezoid", optimum = "exact",
                           coverage = NULL, risk = NULL, n_bins = 10,
                           max_rejection = 1, coverage_range = NULL,
                           rule = "tie_closed", tpr = 0.95,
                           binning = "adaptive", span = 0.75,
                           smoother = "loess", eps = 1e-8,
                           definition = "ilg", p = 1, threshold = NULL,
                           na_rm = FALSE, case_weights = NULL,
                           threads = 1) {
  check_dots(...)
  bound <- ci_with_bound_metrics(metric, arg = "metric")
  if (!is.null(bound)) return(bound)
  call <- rlang::current_env()
  if (!rlang::is_string(metric)) {
    abort_aurc(
      "{.arg metric} must be a single metric name, not
       {.obj_type_friendly {metric}}.",
      class = "aurc_error_type", call = call
    )
  }
  spec <- ci_spec(
    metric, method, type, conf_level, times, estimator, augrc_method,
    optimum, coverage, risk, n_bins, threads,
    ignored = ci_ignored(missing(type), missing(times), missing(threads)),
    calibration = list(binning = binning, n_bins_given = !missing(n_bins),
      span = span, eps = eps, smoother = smoother,
      span_given = !missing(span), definition = definition, p = p,
      threshold = threshold
    ),
    call = call, max_rejection = max_rejection,
    coverage_range = coverage_range, rule = rule, tpr = tpr,
    metrics_arg = "metric"
  )
  p_adjust <- check_choice(p_adjust, stats::p.adjust.methods, call = call)
  check_bool(na_rm, call = call)
  check_local_data(data, call)
  if (inherits(data, "grouped_df")) {
    abort_aurc(
      c(
        "{.arg data} must not be a grouped data frame.",
        i = paste(
          "{.fn compare_groups} compares the levels of {.arg group};",
          "ungroup the data, or filter one model first."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  group_quo <- rlang::enquo(group)
  if (rlang::quo_is_missing(group_quo) || rlang::quo_is_null(group_quo)) {
    abort_aurc(
      c(
        "{.arg group} is missing.",
        i = "Give the unquoted column of the groups to compare."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  score_quo <- rlang::enquo(score)
  if (rlang::quo_is_missing(score_quo)) {
    abort_aurc("{.arg score} is missing.",
      class = "aurc_error_missing", call = call
    )
  }
  quos <- list(
    score = score_quo,
    loss = if (missing(loss)) rlang::quo(NULL) else rlang::enquo(loss),
    correct = rlang::enquo(correct), quality = rlang::enquo(quality),
    case_weights = rlang::enquo(case_weights),
    strata = rlang::enquo(strata), cluster = rlang::enquo(cluster),
    truth = rlang::enquo(truth), group = group_quo
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  values$truth <- ci_check_truth(spec, values$truth, call)
  spec$importance <- weights_kind(values$case_weights) == "importance"
  check_numeric_vector(values$score, "score", call = call)
  values$loss <- ci_loss(spec, values$score, values$loss, values$correct,
    values$case_weights, call,
    quality = values$quality
  )
  # the quality as given, for the LLM metrics (R/ci-llm-regression.R)
  values$kept_quality <- ci_kept_quality(spec, values$quality)
  labels <- list(
    score = rlang::as_label(score_quo),
    loss = if (!is.null(values$correct)) {
      paste("1 -", rlang::as_label(quos$correct))
    } else if (!is.null(values$quality)) {
      paste("1 -", rlang::as_label(quos$quality))
    } else {
      rlang::as_label(quos$loss)
    },
    group = rlang::as_label(group_quo)
  )
  groups <- groups_split(values$group, na_rm, call)
  # the BCa acceleration of each group, for the differences' intervals
  spec$keep_acceleration <- TRUE
  fits <- lapply(groups$rows, function(rows) {
    groups_fit(spec, values, rows, na_rm, call)
  })
  res <- groups_compare(spec, fits, groups$levels, p_adjust, call)
  warn_if_rough_test(spec$metrics, call) # R/ci-llm-regression.R
  new_aurc_group_comparison(
    groups = res$groups, tests = res$tests, gap = res$gap,
    settings = list(
      metric = spec$metrics, estimator = spec$labels,
      method = spec$ci_method, type = spec$type, times = spec$times,
      conf_level = spec$conf_level, p_adjust = p_adjust,
      groups = groups$levels, group = labels$group, score = labels$score,
      loss = labels$loss, direction = metric_entry(spec$metrics)$direction,
      max_t = res$max_t,
      strata = !is.null(values$strata), cluster = !is.null(values$cluster)
    )
  )
}

# The levels of `group` and the rows of each, in the order of the factor's
# levels (those with rows) or sorted.
groups_split <- function(group, na_rm, call) {
  if (!is.atomic(group) || is.matrix(group) || is.raw(group) ||
    is.complex(group) || is.null(group)) {
    abort_aurc(
      c(
        "{.arg group} must be a factor, character, logical or whole-number
         column.",
        x = "It is {.obj_type_friendly {group}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  if (is.double(group) && !is.factor(group)) {
    bad <- which(!is.na(group) & (!is.finite(group) | group != round(group)))
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg group} must hold group labels, not measurements.",
          x = "Element {bad[1]} is {.val {group[bad[1]]}}, not a whole
               number.",
          i = "Give a factor, character or whole-number column."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  missing <- is.na(group)
  if (any(missing) && !na_rm) {
    abort_aurc(
      c(
        "{.arg group} must not contain missing values.",
        x = "Element {which(missing)[1]} is {.val {NA}}.",
        i = "Use {.code na_rm = TRUE} to drop the rows without a group."
      ),
      class = "aurc_error_value", call = call
    )
  }
  levels <- if (is.factor(group)) {
    lv <- levels(group)
    lv[lv %in% as.character(group[!missing])]
  } else {
    as.character(sort(unique(group[!missing])))
  }
  if (length(levels) < 2) {
    abort_aurc(
      c(
        "{.arg group} must have at least two groups.",
        x = "It has {length(levels)}{cli::qty(length(levels))}{?: /}
             {.val {levels}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  key <- factor(as.character(group), levels = levels)
  rows <- unname(split(seq_along(key), key))
  list(levels = levels, rows = rows)
}

# One group: the table of selective_ci_vec() on its rows, its replicates
# and acceleration (bootstrap), and its counts.
groups_fit <- function(spec, values, rows, na_rm, call) {
  sub <- function(x) if (is.null(x)) NULL else x[rows]
  score <- values$score[rows]
  loss <- values$loss[rows]
  w <- sub(values$case_weights)
  truth <- sub(values$truth)
  cluster <- sub(values$cluster)
  out <- ci_compute(spec, score, loss, w, sub(values$strata), cluster,
    NULL, na_rm, call,
    truth = truth, quality = sub(values$kept_quality)
  )
  keep <- rep(TRUE, length(score))
  if (na_rm) {
    keep <- !is.na(score) & !is.na(loss)
    if (!is.null(truth)) keep <- keep & !is.na(truth)
  }
  l <- loss[keep]
  wk <- if (is.null(w)) NULL else w[keep]
  n <- if (is.null(wk)) {
    length(l)
  } else if (isTRUE(spec$importance)) {
    sum(wk > 0)
  } else {
    sum(wk)
  }
  binary <- !anyNA(l) && all(l == 0 | l == 1)
  n_failures <- if (binary) sum(if (is.null(wk)) l else wk * l) else NA_real_
  # the independent units of the group (its clusters), for Welch's df
  units <- if (is.null(cluster)) n else length(unique(cluster[keep]))
  reps <- attr(out, "replicates")
  list(
    estimate = out$.estimate[1], lower = out$.lower[1],
    upper = out$.upper[1], std_error = out$.std_error[1],
    n = as.numeric(n), n_failures = as.numeric(n_failures),
    units = as.numeric(units),
    replicates = if (!is.null(reps)) as.numeric(reps[, 1]),
    acceleration = attr(out, "acceleration")[1]
  )
}

# The tables of the comparison from the groups' fits.
groups_compare <- function(spec, fits, levels, p_adjust, call) {
  k <- length(fits)
  pairs <- utils::combn(k, 2)
  a <- pairs[1, ]
  b <- pairs[2, ]
  get <- function(name) vapply(fits, function(f) f[[name]], numeric(1))
  est <- get("estimate")
  se <- get("std_error")
  groups <- tibble::tibble(
    group = levels, n = get("n"), n_failures = get("n_failures"),
    estimate = est, lower = get("lower"), upper = get("upper"),
    std_error = se
  )
  diff <- est[a] - est[b]
  alpha <- 1 - spec$conf_level
  if (spec$ci_method == "analytic") {
    pw <- groups_pairs_analytic(est, se, get("units"), pairs, alpha)
    mt <- groups_max_t_analytic(pw, se, pairs, spec$conf_level)
  } else {
    pw <- groups_pairs_bootstrap(spec, fits, est, pairs, call)
    mt <- groups_max_t_bootstrap(pw, spec$conf_level)
  }
  p_adj <- if (all(is.na(pw$p))) pw$p else
    stats::p.adjust(pw$p, method = p_adjust)
  tests <- tibble::tibble(
    group_a = levels[a], group_b = levels[b],
    estimate_a = est[a], estimate_b = est[b], difference = diff,
    lower = pw$lower, upper = pw$upper,
    lower_simultaneous = diff - mt$crit * pw$se,
    upper_simultaneous = diff + mt$crit * pw$se,
    std_error = pw$se, statistic = pw$stat, df = pw$df,
    p_value = pw$p, p_adjusted = p_adj, p_max_t = mt$p_pairs
  )
  list(
    groups = groups, tests = tests,
    gap = groups_gap(spec$metrics, est, levels, tests, mt),
    max_t = list(critical = mt$crit, draws = mt$draws)
  )
}

# Analytic differences of independent groups: SE from the sum of the
# variances, Welch's t (pROC's unpaired DeLong test for the failure AUROC).
groups_pairs_analytic <- function(est, se, units, pairs, alpha) {
  a <- pairs[1, ]
  b <- pairs[2, ]
  va <- se[a]^2
  vb <- se[b]^2
  se_d <- sqrt(va + vb)
  df <- (va + vb)^2 / (va^2 / (units[a] - 1) + vb^2 / (units[b] - 1))
  df[units[a] < 2 | units[b] < 2] <- NA_real_
  df[!is.na(se_d) & se_d == 0] <- Inf
  diff <- est[a] - est[b]
  stat <- diff / se_d
  stat[!is.na(diff) & diff == 0 & !is.na(se_d) & se_d == 0] <- 0
  p <- 2 * stats::pt(-abs(stat), df)
  q <- stats::qt(1 - alpha / 2, df)
  list(
    se = se_d, df = df, stat = stat, p = p,
    lower = diff - q * se_d, upper = diff + q * se_d
  )
}

# Bootstrap differences: replicate r of group a minus replicate r of group
# b (each group resampled separately), intervals and p-values as in
# compare_scores() (R/ci-bootstrap-intervals.R).
groups_pairs_bootstrap <- function(spec, fits, est, pairs, call) {
  n_pairs <- ncol(pairs)
  times <- spec$times
  reps <- lapply(fits, function(f) {
    f$replicates %||% rep(NA_real_, times)
  })
  boot_se <- vapply(reps, function(r) {
    r <- r[is.finite(r)]
    if (length(r) < 2) NA_real_ else stats::sd(r)
  }, numeric(1))
  d_reps <- matrix(NA_real_, times, n_pairs)
  out <- list(
    se = rep(NA_real_, n_pairs), df = rep(NA_real_, n_pairs),
    stat = rep(NA_real_, n_pairs), p = rep(NA_real_, n_pairs),
    lower = rep(NA_real_, n_pairs), upper = rep(NA_real_, n_pairs)
  )
  for (k in seq_len(n_pairs)) {
    a <- pairs[1, k]
    b <- pairs[2, k]
    d <- reps[[a]] - reps[[b]]
    d_reps[, k] <- d
    d0 <- est[a] - est[b]
    acc <- NULL
    if (spec$type == "bca") {
      acc <- groups_acceleration(
        fits[[a]]$acceleration %||% NA_real_, boot_se[a],
        fits[[b]]$acceleration %||% NA_real_, boot_se[b]
      )
    }
    iv <- suppressWarnings(ci_interval(d, d0, spec$type, spec$conf_level,
      NULL, call,
      acceleration = acc
    ))
    out$lower[k] <- iv[["lower"]]
    out$upper[k] <- iv[["upper"]]
    out$se[k] <- iv[["std_error"]]
    out$p[k] <- ci_p_value(d, d0, spec$type, iv)
    out$stat[k] <- if (!is.na(d0) && d0 == 0) 0 else d0 / out$se[k]
  }
  out$replicates <- d_reps
  out$diff <- est[pairs[1, ]] - est[pairs[2, ]]
  out
}

# The BCa acceleration of the difference of two independent statistics
# from their own: a ~ k3 / (6 sd^3), and third cumulants and variances add
# over independent samples (the sign of b's is reversed).
groups_acceleration <- function(acc_a, se_a, acc_b, se_b) {
  (acc_a * se_a^3 - acc_b * se_b^3) / (se_a^2 + se_b^2)^1.5
}

# Draws of max |t| over the pairs under "all groups equal".
groups_max_t_draws <- 1e5
groups_max_t_seed <- 20080346L

# The analytic max-t: independent normal group estimates with the groups'
# variances (the exact correlation of the pairs), one chi-square for the
# multivariate t (the smallest Welch df); 10^5 draws with a fixed seed,
# the user's random numbers untouched. Two groups: exact.
groups_max_t_analytic <- function(pw, se, pairs, conf_level) {
  n_pairs <- ncol(pairs)
  stat <- abs(pw$stat)
  na <- list(
    crit = NA_real_, p_pairs = rep(NA_real_, n_pairs), p_gap = NA_real_,
    stat = NA_real_, draws = NA_real_
  )
  if (anyNA(c(stat, pw$df, pw$se, se)) || any(pw$se == 0)) return(na)
  df <- min(pw$df)
  m_obs <- max(stat)
  if (n_pairs == 1) {
    return(list(
      crit = stats::qt((1 + conf_level) / 2, df), p_pairs = pw$p,
      p_gap = pw$p, stat = m_obs, draws = 0
    ))
  }
  draws <- groups_max_t_draws
  z <- groups_normal_draws(length(se), draws)
  m <- numeric(draws)
  for (k in seq_len(n_pairs)) {
    a <- pairs[1, k]
    b <- pairs[2, k]
    m <- pmax(m, abs(z[, a] * se[a] - z[, b] * se[b]) / pw$se[k])
  }
  if (is.finite(df)) {
    m <- m / with_internal_seed(groups_max_t_seed + 1L, {
      sqrt(stats::rchisq(draws, df) / df)
    })
  }
  crit <- stats::quantile(m, conf_level, type = 7, names = FALSE)
  # within the exact bounds: the largest single-pair p-value and
  # Bonferroni's
  tail_p <- function(x) {
    single <- 2 * stats::pt(-x, df)
    min(max(mean(m >= x), single), min(1, n_pairs * single))
  }
  list(
    crit = crit, p_pairs = vapply(stat, tail_p, numeric(1)),
    p_gap = tail_p(m_obs), stat = m_obs, draws = draws
  )
}

# The bootstrap max-t: the studentized maximum over the pairs of the
# centred replicate differences.
groups_max_t_bootstrap <- function(pw, conf_level) {
  n_pairs <- length(pw$se)
  na <- list(
    crit = NA_real_, p_pairs = rep(NA_real_, n_pairs), p_gap = NA_real_,
    stat = NA_real_, draws = NA_real_
  )
  if (anyNA(c(pw$diff, pw$se)) || any(pw$se == 0)) return(na)
  z <- abs(sweep(sweep(pw$replicates, 2, pw$diff), 2, pw$se, "/"))
  z <- z[stats::complete.cases(z), , drop = FALSE]
  if (nrow(z) < 2) return(na)
  m <- apply(z, 1, max)
  stat <- abs(pw$diff / pw$se)
  tail_p <- function(x) min(1, (1 + sum(m >= x)) / (length(m) + 1))
  list(
    crit = stats::quantile(m, conf_level, type = 7, names = FALSE),
    p_pairs = vapply(stat, tail_p, numeric(1)), p_gap = tail_p(max(stat)),
    stat = max(stat), draws = length(m)
  )
}

# The standard normal draws of the max-t for `k` groups (draws x k), from
# the fixed internal seed; kept for the session, as they do not depend on
# the data.
groups_draws_cache <- new.env(parent = emptyenv())
groups_normal_draws <- function(k, draws) {
  key <- paste(k, draws)
  z <- groups_draws_cache[[key]]
  if (is.null(z)) {
    z <- with_internal_seed(groups_max_t_seed, {
      matrix(stats::rnorm(draws * k), draws)
    })
    groups_draws_cache[[key]] <- z
  }
  z
}

# Evaluates `code` with R's default generator seeded by `seed`, then puts
# the user's generator and its state back as they were.
with_internal_seed <- function(seed, code) {
  env <- globalenv()
  had <- exists(".Random.seed", envir = env, inherits = FALSE)
  old <- if (had) get(".Random.seed", envir = env, inherits = FALSE)
  kind <- RNGkind()
  on.exit({
    # (a "Rounding" sampler warns when set; it was the user's)
    suppressWarnings(do.call(RNGkind, as.list(kind)))
    if (had) {
      assign(".Random.seed", old, envir = env)
    } else if (exists(".Random.seed", envir = env, inherits = FALSE)) {
      rm(".Random.seed", envir = env)
    }
  })
  RNGkind("Mersenne-Twister", "Inversion", "Rejection")
  set.seed(seed)
  code
}

# How bad each estimate is in the metric's direction (higher is worse).
groups_badness <- function(metric, est) {
  switch(metric_entry(metric)$direction,
    maximize = -est,
    target_1 = abs(est - 1),
    target_0 = abs(est),
    est
  )
}

# The worst and best groups, their gap and its simultaneous interval, and
# the max-t test that all groups are equal.
groups_gap <- function(metric, est, levels, tests, mt) {
  na <- tibble::tibble(
    worst = NA_character_, best = NA_character_,
    estimate_worst = NA_real_, estimate_best = NA_real_, gap = NA_real_,
    lower = NA_real_, upper = NA_real_, statistic = NA_real_,
    p_value = NA_real_
  )
  if (anyNA(est)) return(na)
  bad <- groups_badness(metric, est)
  w <- which.max(bad)
  b <- which.min(bad)
  if (w == b) b <- setdiff(seq_along(est), w)[1]
  k <- which(tests$group_a == levels[min(w, b)] &
    tests$group_b == levels[max(w, b)])
  # the pair's difference as worst minus best, then made positive
  flip <- if (w < b) 1 else -1
  d <- flip * tests$difference[k]
  bounds <- flip * c(tests$lower_simultaneous[k], tests$upper_simultaneous[k])
  s <- if (d < 0) -1 else 1
  bounds <- sort(s * bounds)
  tibble::tibble(
    worst = levels[w], best = levels[b],
    estimate_worst = est[w], estimate_best = est[b], gap = s * d,
    lower = bounds[1], upper = bounds[2], statistic = mt$stat,
    p_value = mt$p_gap
  )
}

new_aurc_group_comparison <- function(groups, tests, gap, settings) {
  structure(
    list(groups = groups, tests = tests, gap = gap, settings = settings),
    class = "aurc_group_comparison"
  )
}

# The method line of the print: compare_scores()'s, with what differs for
# independent groups.
groups_method_text <- function(s) {
  if (s$method == "analytic") {
    text <- comparison_method_text(s)
    return(paste0(sub("\\)$", "", text), "; Welch's t for the differences)"))
  }
  sprintf(
    "bootstrap (%s, %d %sreplicates, each group resampled separately)",
    s$type, as.integer(s$times), if (s$strata) "stratified " else ""
  )
}

groups_format_p <- function(p) {
  if (is.na(p)) return("p = NA")
  pv <- format.pval(p, digits = 2, eps = 1e-4)
  if (startsWith(pv, "<")) paste("p <", substring(pv, 2)) else
    paste("p =", pv)
}

#' @export
print.aurc_group_comparison <- function(x, digits = 4, ...) {
  s <- x$settings
  label <- metric_label(s$metric)
  g <- x$gap
  lev <- paste0(format(100 * s$conf_level), "%")
  cat(sprintf("\n\t%s across %d independent groups of %s\n\n",
    label, length(s$groups), s$group
  ))
  f <- function(v) format(signif(v, digits))
  if (is.na(g$gap)) {
    cat("worst group: NA (a group's estimate or interval is undefined)\n")
  } else {
    cat(sprintf("worst group: %s (%s %s; best: %s, %s)\n", g$worst,
      label, f(g$estimate_worst), g$best, f(g$estimate_best)
    ))
    cat(sprintf(
      "gap: %s, %s simultaneous CI %s to %s; all groups equal: %s\n",
      f(g$gap), lev, f(g$lower), f(g$upper),
      paste0("max |t| = ", f(g$statistic), ", ", groups_format_p(g$p_value))
    ))
  }
  cat(sprintf("\ndata:  %s of %s by %s, loss %s\n", label, s$score,
    s$group, s$loss
  ))
  cat(sprintf("metric:  %s, estimator %s\n", s$metric, s$estimator))
  cat(sprintf("method:  %s\n", groups_method_text(s)))
  n_pairs <- nrow(x$tests)
  cat(sprintf(
    "p-values adjusted over %d pair%s: %s; simultaneous: max-t\n", n_pairs,
    if (n_pairs == 1) "" else "s", adjust_label(s$p_adjust)
  ))
  cat(sprintf("\ngroups (%s CI):\n", lev))
  gr <- as.data.frame(x$groups)
  if (all(is.na(gr$n_failures))) gr$n_failures <- NULL
  print(gr, digits = digits, row.names = FALSE)
  cat(sprintf("\ndifferences a - b (%s CI):\n", lev))
  tab <- as.data.frame(x$tests)
  tab <- tab[c("group_a", "group_b", "difference", "lower", "upper",
    "lower_simultaneous", "upper_simultaneous", "p_value", "p_adjusted",
    "p_max_t")]
  names(tab)[6:7] <- c("lower_sim", "upper_sim")
  print(tab, digits = digits, row.names = FALSE)
  invisible(x)
}

#' Plot a comparison of one metric across groups
#'
#' `what = "groups"` (the default): one line per group (labelled with its
#' size), its estimate with its interval, the worst group in red, the best
#' in blue with a dotted line at its estimate; the subtitle gives the gap
#' with its simultaneous interval and the p-value of the max-t test that
#' all groups are equal.
#' `what = "differences"`: one line per pair, the difference with its own
#' interval (thick) and its simultaneous max-t interval (thin), a dashed
#' line at no difference.
#'
#' @param object An `aurc_group_comparison` from [compare_groups()].
#' @param what `"groups"` or `"differences"`.
#' @param ... Not used; must be empty.
#' @return A ggplot object.
#' @examples
#' set.seed(3)
#' n <- 600
#' df <- data.frame(site = rep(c("a", "b", "c"), each = n / 3),
#'   score = rnorm(n))
#' df$failure <- rbinom(n, 1, plogis(-1.5 - 1.5 * df$score +
#'   0.8 * (df$site == "c")))
#' cmp <- compare_groups(df, score, failure, group = site)
#' autoplot(cmp)
#' autoplot(cmp, what = "differences")
#' @export
autoplot.aurc_group_comparison <- function(object, what = "groups", ...) {
  check_dots(...)
  what <- check_choice(what, c("groups", "differences"))
  s <- object$settings
  label <- metric_label(s$metric)
  lev <- paste0(format(100 * s$conf_level), "%")
  method <- if (s$method == "analytic") "analytic" else
    paste(s$type, "bootstrap")
  g <- object$gap
  f <- function(v) format(signif(v, 3))
  if (what == "differences") {
    return(groups_plot_differences(object, label, lev, method))
  }
  tab <- as.data.frame(object$groups)
  tab$group <- factor(tab$group, levels = rev(s$groups))
  tab$role <- ifelse(!is.na(g$worst) & tab$group == g$worst, "worst",
    ifelse(!is.na(g$best) & tab$group == g$best, "best", "other")
  )
  tab$role <- factor(tab$role, levels = c("worst", "best", "other"))
  subtitle <- if (is.na(g$gap)) {
    "The gap is undefined (a group's estimate or interval is NA)."
  } else {
    sprintf(
      paste0(
        "Worst: %s; gap to the best (%s): %s\n",
        "%s simultaneous CI %s to %s (max-t)\n",
        "All groups equal: %s (max-t test)"
      ),
      g$worst, g$best, f(g$gap), lev, f(g$lower), f(g$upper),
      groups_format_p(g$p_value)
    )
  }
  better <- if (metric_direction(s$metric) == "maximize") {
    "higher is better"
  } else if (s$direction %in% c("target_1", "target_0")) {
    sprintf("best at %s", if (s$direction == "target_1") 1 else 0)
  } else {
    "lower is better"
  }
  # the size of each group in its label
  shown <- paste0(tab$group, " (n = ", format(tab$n, big.mark = ",",
    trim = TRUE), ")")
  tab$group <- factor(shown, levels = rev(shown))
  p <- ggplot2::ggplot(tab, ggplot2::aes(
    x = .data$estimate, y = .data$group, xmin = .data$lower,
    xmax = .data$upper, colour = .data$role
  ))
  if (!is.na(g$best)) {
    p <- p + ggplot2::geom_vline(
      xintercept = g$estimate_best, linetype = "dotted", colour = "grey40"
    )
  }
  p +
    ggplot2::geom_errorbar(width = 0.25, orientation = "y") +
    ggplot2::geom_point(size = 2.5) +
    ggplot2::scale_colour_manual(
      values = c(worst = "#C0392B", best = "#1F618D", other = "grey25"),
      guide = "none"
    ) +
    ggplot2::labs(
      x = sprintf("%s (%s intervals, %s)", label, lev, method), y = NULL,
      title = sprintf("%s by %s", label, s$group), subtitle = subtitle,
      caption = sprintf(
        "Red: the worst group; blue: the best (dotted line). %s: %s.",
        label, better
      )
    ) +
    ggplot2::theme_bw() +
    ggplot2::theme(plot.subtitle = ggplot2::element_text(size = 9.5))
}

groups_plot_differences <- function(object, label, lev, method) {
  s <- object$settings
  tab <- as.data.frame(object$tests)
  p_text <- vapply(tab$p_max_t, groups_format_p, character(1))
  many <- nrow(tab) > 6
  # one line per pair when there are many
  tab$pair <- paste0(tab$group_a, " - ", tab$group_b,
    if (many) "  (" else "\n(", p_text, ")"
  )
  tab$pair <- factor(tab$pair, levels = rev(unique(tab$pair)))
  ggplot2::ggplot(tab, ggplot2::aes(x = .data$difference, y = .data$pair)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed",
      colour = "grey40"
    ) +
    ggplot2::geom_errorbar(ggplot2::aes(
      xmin = .data$lower_simultaneous, xmax = .data$upper_simultaneous
    ), width = if (many) 0.4 else 0.25, orientation = "y",
    colour = "grey45") +
    ggplot2::geom_linerange(ggplot2::aes(
      xmin = .data$lower, xmax = .data$upper
    ), linewidth = if (many) 0.9 else 1.2, orientation = "y") +
    ggplot2::geom_point(size = if (many) 1.6 else 2.2) +
    ggplot2::labs(
      x = sprintf("Difference in %s (first minus second)", label),
      y = NULL,
      title = sprintf("Differences in %s by %s", label, s$group),
      subtitle = sprintf(
        paste0(
          "%s intervals (%s): thick, each pair's own;\n",
          "thin, simultaneous (max-t). p-values: max-t adjusted."
        ),
        lev, method
      )
    ) +
    ggplot2::theme_bw() +
    ggplot2::theme(
      plot.subtitle = ggplot2::element_text(size = 9.5),
      axis.text.y = ggplot2::element_text(size = if (many) 7.5 else 9)
    )
}
