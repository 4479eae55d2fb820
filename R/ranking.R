#' Bootstrap ranking of methods with paired signed-rank tests
#'
#' Ranks methods (for example confidence scores) by one or more metrics over
#' bootstrap replicates of the test cases, as in Traub et al. (2024, Sec.
#' 4.1): each replicate's metric values give a ranking; the rankings are
#' aggregated by mean rank ("rank-then-aggregate"), and every ordered pair of
#' methods is compared with a one-sided Wilcoxon signed-rank test on the
#' paired replicate values, with a correction for multiple testing.
#'
#' @section Procedure:
#' 1. **Cases.** Within a group, the cases are the sorted unique values of
#'    `case`; position 1 is the first of them. Every combination of method
#'    and run must hold every case exactly once (the data are paired);
#'    otherwise an error names what is missing.
#' 2. **Replicates.** Replicate `b` draws `n` case positions with
#'    replacement, `n` the number of cases: `sample.int(n, n, replace =
#'    TRUE)`, for `b = 1, ..., times` in turn (groups in sorted order, each
#'    drawing its `times` replicates before the next). With `strata`, each
#'    stratum (sorted levels) draws as many cases as it holds, in turn:
#'    `pos[sample.int(length(pos), length(pos), replace = TRUE)]` with `pos`
#'    the stratum's case positions. All draws use R's random number
#'    generator on the main thread, so `set.seed()` reproduces them whatever
#'    `threads` is. The same replicate is used for every method and run.
#'    `indices` replaces the draws: a `times x n` integer matrix whose row
#'    `b` holds the case positions of replicate `b` (for several groups, a
#'    list of such matrices named by group). Replicate `b` of a method and
#'    run is therefore exactly `data[rows[idx], ]`, with `rows` that
#'    method's and run's rows ordered by case and `idx = indices[b, ]`:
#'    duplicated cases count twice, ties in the score are one threshold.
#' 3. **Values.** Per replicate, each metric is computed for every method and
#'    run and averaged over the runs.
#' 4. **Ranks.** Per replicate, the methods are ranked, 1 = best, respecting
#'    each metric's direction; tied values share a rank (`ties`). The
#'    ranking orders methods by mean rank, then median rank. The result also
#'    holds the metric on the full data (`full_value`), how often each
#'    method took each rank, and Kendall's tau-b between each replicate's
#'    ranking and the full-data ranking.
#' 5. **Tests.** For every ordered pair of methods (i, j), i != j, a
#'    one-sided Wilcoxon signed-rank test on the paired replicate values
#'    with H1 "i is better than j": `stats::wilcox.test(x = values of i,
#'    y = values of j, paired = TRUE, alternative = "less", correct =
#'    correct)` for a metric where lower is better (`"greater"` where higher
#'    is better). Zero differences are dropped; the exact null distribution
#'    is used when fewer than 50 differences remain and there are no ties
#'    among their absolute values and no zeros were dropped (the rule of
#'    `stats::wilcox.test()`), the normal approximation with tie correction
#'    otherwise; when every difference is zero, p = 1. The p-values of the
#'    K(K-1) ordered pairs of each metric (and group) are adjusted with
#'    `p_adjust` (Holm by default), and `significant = p_adjusted <= alpha`.
#'
#' @section Interpreting the p-values:
#' The tests treat the bootstrap replicates as the sample. Their p-values
#' therefore shrink as `times` grows, for the same data: with enough
#' replicates any consistent difference becomes "significant". Read a
#' significant pair as a statement about the stability of the ordering under
#' resampling of the test cases (how consistently i beats j), not as a test
#' over cases or a statement about the population of cases.
#'
#' @section Metrics:
#' Every named metric is computed by the C++ kernel: one sort per method and
#' run (and, for `"eaurc"` and `"naurc"` with a loss that is not 0/1, one
#' sort of the loss), then linear passes per replicate.
#' * `"aurc"` (lower is better): [aurc_vec()] with the default estimator
#'   `"alpha"`; `"aurc_alpha_prime"`, `"aurc_sele"`, `"aurc_2sele"`,
#'   `"aurc_trapezoid"`: the other estimators of [aurc_vec()], named
#'   `"aurc_<estimator>"`.
#' * `"augrc"` (lower is better): the area under the generalized
#'   risk-coverage curve by the trapezoid rule, `(1/n^2) sum_i (mid_i - 1/2)
#'   loss_i`; `"augrc_step"`: the step rule, `(1/n^2) sum_i r_i loss_i`.
#' * `"failure_auroc"` (higher is better; the loss must be 0/1):
#'   `P(s_correct > s_failure) + P(s_correct = s_failure) / 2`.
#' * `"failure_aupr"` (higher is better; the loss must be 0/1):
#'   [failure_aupr_vec()], average precision with failures as the positive
#'   class.
#' * `"eaurc"` (lower is better): [eaurc_vec()] with its defaults, `AURC -
#'   AURC*` with the estimator `"alpha"` and the exact optimum (`AURC*`: the
#'   same estimator on the replicate's samples sorted by loss).
#' * `"eaugrc"` (lower is better; the loss must be 0/1): [eaugrc_vec()],
#'   the trapezoid AUGRC minus `err^2 / 2`, `err` the replicate's failure
#'   rate.
#' * `"naurc"` (lower is better): [naurc_vec()] with its defaults, `(AURC -
#'   AURC*) / (mean(loss) - AURC*)` with the estimator `"alpha"`; missing
#'   when every loss of the replicate is the same.
#'
#' Each replicate value equals the package's `_vec` function on the
#' resampled data (duplicated cases repeated). A metric of your own is a
#' named element of a list, either a function `f(score, loss)` returning
#' one number (lower is better), or `list(fn = f, direction = "higher")`;
#' for example `metrics = list("aurc", top = my_fn)`. It is computed in R on
#' each resampled data set (slower).
#'
#' @param data A data frame in long form: one row per method, run and case.
#' @param method,case,score,loss Columns of `data` (unquoted names): the
#'   method compared (e.g. a confidence score function), the case id, the
#'   confidence score (higher = more confident) and the loss (finite,
#'   non-negative; 0/1 for binary metrics). Missing values are an error.
#' @param run Optional column: the run (e.g. training seed). Metric values
#'   are averaged over runs within each replicate.
#' @param group Optional column: independent rankings per group (e.g.
#'   dataset), each with its own cases, replicates and correction.
#' @param metrics Metric names (see Metrics), or a list of names and
#'   functions.
#' @param times Number of bootstrap replicates (ignored when `indices` is
#'   given). `times` x cases and `times` x methods x runs x metrics must not
#'   exceed the option `aurc.max_cells` (`2^28` by default), checked before
#'   anything is allocated.
#' @param indices Optional replicate draws: a `times x n` integer matrix of
#'   case positions (see Procedure), or a named list of them per group.
#' @param strata Optional column: a stratum per case (constant over methods
#'   and runs); cases are drawn within each stratum.
#' @param ties How tied metric values are ranked: `"min"` (default),
#'   `"average"` or `"max"` (as [base::rank()]).
#' @param correct Instead of `loss`, by name: an unquoted column of the
#'   correctness of each prediction (0/1 or logical, 1 = right), read as
#'   the loss `1 - correct`, as in every function of the package. (It was
#'   the continuity correction, now `continuity`; `correct = TRUE` or
#'   `FALSE` still sets it, with a warning of class
#'   `aurc_warning_deprecated`.)
#' @param continuity Continuity correction in the normal approximation
#'   (`FALSE` by default, as in the code of Traub et al.).
#' @param p_adjust Correction for multiple testing over the K(K-1) ordered
#'   pairs: `"holm"` (default), any method of [stats::p.adjust()], or
#'   `"none"`.
#' @param alpha Significance level for `significant`.
#' @param threads Number of threads for the replicates (default 1). Capped,
#'   with a message of class `aurc_message_threads`, at the cores available,
#'   the option `aurc.threads` and the environment variable
#'   `OMP_THREAD_LIMIT` when set. Results do not depend on it.
#'
#' @section Progress:
#' In an interactive session a progress bar appears when the work takes
#' more than two seconds; `options(aurc.progress = FALSE)` turns it off
#' (see [aurc-package]).
#' @return An object of class `aurc_ranking`, a list with tibbles
#'   * `ranking`: `metric, method, rank, mean_rank, median_rank, full_value`;
#'   * `tests`: `metric, method, versus, statistic, p_value, p_adjusted,
#'     significant` (H1: `method` is better than `versus`; `statistic` is
#'     the signed-rank statistic V of the differences `method - versus`);
#'   * `replicates`: `replicate, method, metric, value`;
#'   * `rank_frequencies`: `metric, method, rank, n, proportion`;
#'   * `kendall`: `metric, replicate, tau` (Kendall's tau-b between each
#'     replicate's ranking and the full-data ranking);
#'
#'   each with a first column `group` when `group` is given; and `settings`.
#'   Methods: `print()`, `summary()`, `as.data.frame()` and
#'   [autoplot()][autoplot.aurc_ranking].
#'
#' @references
#' Traub, Bungert, Lueth, Baumgartner, Maier-Hein, Maier-Hein, Jaeger (2024).
#' Overcoming Common Flaws in the Evaluation of Selective Classification
#' Systems. NeurIPS 2024.
#'
#' Wiesenfarth, Reinke, Landman, et al. (2021). Methods and open-source
#' toolkit for analyzing and visualizing challenge results. Scientific
#' Reports 11, 2369.
#'
#' @seealso [rank_replicates()] for replicate values computed elsewhere.
#' @examples
#' set.seed(1)
#' n <- 300
#' truth <- rbinom(n, 1, 0.25)
#' df <- do.call(rbind, lapply(c("good", "fair", "noisy"), function(m) {
#'   noise <- c(good = 0.5, fair = 1, noisy = 3)[[m]]
#'   data.frame(
#'     method = m, case = seq_len(n),
#'     score = -truth + rnorm(n, sd = noise), loss = truth
#'   )
#' }))
#' rk <- bootstrap_ranking(df, method, case, score, loss, times = 100)
#' rk
#' rk$tests
#' autoplot(rk)
#' @export
bootstrap_ranking <- function(data, method, case, score, loss, run = NULL,
                              group = NULL, metrics = c("aurc", "augrc"),
                              times = 500, indices = NULL, strata = NULL,
                              ties = "min", correct = NULL,
                              continuity = FALSE,
                              p_adjust = "holm", alpha = 0.05,
                              threads = 1) {
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  quos <- list(
    method = rlang::enquo(method), case = rlang::enquo(case),
    score = rlang::enquo(score), loss = rlang::enquo(loss),
    run = rlang::enquo(run), group = rlang::enquo(group),
    strata = rlang::enquo(strata)
  )
  correct_quo <- rlang::enquo(correct)
  if (is_continuity_flag(correct_quo)) {
    continuity <- deprecated_continuity(rlang::quo_get_expr(correct_quo),
      call
    )
  } else if (!rlang::quo_is_null(correct_quo)) {
    if (!rlang::quo_is_missing(quos$loss)) {
      abort_aurc(
        c(
          "Give {.arg loss} or {.arg correct}, not both.",
          i = "{.arg correct} (1 = right) is read as {.code loss = 1 -
               correct}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    quos$loss <- correct_quo
  }
  for (arg in c("method", "case", "score", "loss")) {
    if (rlang::quo_is_missing(quos[[arg]])) {
      abort_aurc("{.arg {arg}} is absent but must be supplied.",
        class = "aurc_error_missing_arg", call = call
      )
    }
  }
  cols <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  if (!is_continuity_flag(correct_quo) && !rlang::quo_is_null(correct_quo)) {
    cols$loss <- 1 - as.double(check_failure(cols$loss, length(cols$loss),
      "correct",
      call = call
    ))
  }
  specs <- ranking_metric_specs(metrics, call = call)
  opts <- ranking_options(ties, continuity, p_adjust, alpha, call = call)
  threads <- check_threads(threads, call = call)
  check_ranking_columns(cols, specs, call = call)
  if (is.null(indices)) {
    times <- check_number(times, 1, whole = TRUE, call = call)
  } else if (!missing(times)) {
    abort_aurc(
      c(
        "Give either {.arg times} or {.arg indices}, not both.",
        i = "The number of replicates is the number of rows of {.arg indices}."
      ),
      class = "aurc_error_value", call = call
    )
  }

  group_keys <- if (is.null(cols$group)) list(NULL) else
    as.list(sort(unique(cols$group)))
  index_list <- ranking_index_list(indices, group_keys, call = call)
  # a progress bar over all replicates of all groups (interactive only)
  n_reps_all <- if (is.null(index_list)) times * length(group_keys) else
    sum(vapply(index_list, NROW, numeric(1)))
  # passes over the replicates: drawing them (unless given), the metrics
  passes <- is.null(index_list) + ranking_passes(specs)
  bar <- progress_bar(n_reps_all * passes, "Bootstrap ranking")
  done <- 0
  parts <- vector("list", length(group_keys))
  info <- NULL
  for (g in seq_along(group_keys)) {
    key <- group_keys[[g]]
    rows <- if (is.null(key)) seq_len(nrow(data)) else
      which(cols$group == key)
    sub <- if (is.null(key)) cols else
      lapply(cols, function(v) if (is.null(v)) NULL else v[rows])
    problem <- ranking_problem(sub, key, call = call)
    idx <- if (is.null(index_list)) {
      check_ranking_size(problem, times, length(specs), call = call)
      draw_indices(problem$n, times, problem$strata_pos, bar, done)
    } else {
      given <- check_indices(index_list[[g]], problem$n, key, call = call)
      check_ranking_size(problem, nrow(given), length(specs), call = call)
      given
    }
    done <- done + nrow(idx) * is.null(index_list)
    values <- ranking_values(problem, specs, idx, threads, bar, done)
    done <- done + nrow(idx) * ranking_passes(specs)
    parts[[g]] <- rank_metric_set(
      values$replicates, values$full, specs, opts, group = key
    )
    info <- rbind(info, data.frame(
      n_cases = problem$n, n_methods = length(problem$methods),
      n_runs = length(problem$runs), times = nrow(idx)
    ))
  }
  settings <- c(
    ranking_settings(specs, opts),
    list(
      times = info$times[1], n_cases = info$n_cases,
      n_methods = info$n_methods, n_runs = info$n_runs,
      stratified = !is.null(cols$strata), indices_given = !is.null(indices),
      grouped = !is.null(cols$group), group_name = ranking_label(quos$group),
      kendall_reference = "full data", threads = threads, source = "bootstrap"
    )
  )
  new_aurc_ranking(parts, settings)
}

#' Rank methods from replicate values you already have
#'
#' The aggregation and tests of [bootstrap_ranking()] (steps 4 and 5 of its
#' Procedure) for metric values per replicate and method computed
#' elsewhere, for instance by another toolkit or an earlier analysis.
#'
#' @param values A numeric matrix, one row per replicate and one column per
#'   method (column names are the method names), or a data frame in long
#'   form with columns `replicate`, `method`, `value` and optionally
#'   `metric` and `group` (every method must have a value for every
#'   replicate).
#' @param ... Not used; must be empty.
#' @param direction `"lower"` (default) when a lower value is better,
#'   `"higher"` otherwise; a named vector gives one per metric.
#' @param metric The metric's name when `values` is a matrix.
#' @param full_values Optional metric values on the full data: a named
#'   numeric vector (by method) for a matrix, or a data frame with columns
#'   `method`, `value` (and `metric`, `group` where `values` has them).
#'   Kendall's tau-b then compares each replicate's ranking with the
#'   full-data ranking; without them it compares with the consensus
#'   ranking (by mean rank), and `full_value` is `NA`.
#' @param correct Deprecated: the old name of `continuity`.
#' @inheritParams bootstrap_ranking
#'
#' @return An object of class `aurc_ranking` (see [bootstrap_ranking()]).
#' @examples
#' set.seed(2)
#' values <- cbind(a = rnorm(200, 0.10, 0.01), b = rnorm(200, 0.11, 0.01),
#'                 c = rnorm(200, 0.11, 0.01))
#' rk <- rank_replicates(values, metric = "aurc")
#' rk$ranking
#' rk$tests
#' @export
rank_replicates <- function(values, ..., direction = "lower",
                            metric = "value", full_values = NULL,
                            ties = "min", continuity = FALSE,
                            p_adjust = "holm", alpha = 0.05, correct) {
  check_dots(...)
  call <- rlang::current_env()
  if (!missing(correct)) continuity <- deprecated_continuity(correct, call)
  opts <- ranking_options(ties, continuity, p_adjust, alpha, call = call)
  long <- replicate_table(values, metric, call = call)
  metric_names <- unique(long$metric)
  higher <- direction_per_metric(direction, metric_names, call = call)
  specs <- lapply(metric_names, function(m) {
    list(name = m, higher_better = higher[[m]])
  })
  full <- full_value_table(full_values, long, call = call)
  group_keys <- if (is.null(long$group)) list(NULL) else
    as.list(sort(unique(long$group)))
  parts <- vector("list", length(group_keys))
  for (g in seq_along(group_keys)) {
    key <- group_keys[[g]]
    in_group <- if (is.null(key)) rep(TRUE, nrow(long)) else
      long$group == key
    reps <- list()
    fulls <- list()
    for (m in metric_names) {
      sub <- long[in_group & long$metric == m, , drop = FALSE]
      reps[[m]] <- replicate_matrix(sub, m, key, call = call)
      fulls[[m]] <- full_vector(full, m, key, colnames(reps[[m]]))
    }
    parts[[g]] <- rank_metric_set(reps, fulls, specs, opts, group = key)
  }
  times <- vapply(parts, function(p) max(p$replicates$replicate), numeric(1))
  settings <- c(
    ranking_settings(specs, opts),
    list(
      times = times[1], n_cases = NA, n_methods = NA, n_runs = NA,
      stratified = FALSE, indices_given = FALSE,
      grouped = !is.null(long$group), group_name = "group",
      kendall_reference = if (is.null(full_values)) "consensus" else
        "full data",
      threads = 1L, source = "replicates"
    )
  )
  new_aurc_ranking(parts, settings)
}

# `correct = TRUE` or `FALSE` in a ranking: the continuity correction's
# old name (a literal logical, not a column).
is_continuity_flag <- function(quo) {
  x <- rlang::quo_get_expr(quo)
  is.logical(x) && length(x) == 1 && !is.na(x)
}

deprecated_continuity <- function(value, call) {
  warn_aurc(
    c(
      "{.arg correct} as the continuity correction is deprecated; use
       {.arg continuity}.",
      i = "{.arg correct} now names the correctness column (1 = right), as
           in every function of aurc."
    ),
    class = "aurc_warning_deprecated", call = call
  )
  value
}
