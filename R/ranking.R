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
#' @param correct Continuity correction in the normal approximation
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
                              ties = "min", correct = FALSE,
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
  specs <- ranking_metric_specs(metrics, call = call)
  opts <- ranking_options(ties, correct, p_adjust, alpha, call = call)
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
                            ties = "min", correct = FALSE,
                            p_adjust = "holm", alpha = 0.05) {
  check_dots(...)
  call <- rlang::current_env()
  opts <- ranking_options(ties, correct, p_adjust, alpha, call = call)
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

# ---- metrics ----------------------------------------------------------------

# A list of specs: name, higher_better, binary, kernel (TRUE: computed in
# C++), fn (R function(score, loss) otherwise). Every named metric is in the
# C++ registry (metric_registry() in src/core/bootstrap.h), which is the one
# table of directions and binary flags.
ranking_metric_specs <- function(metrics, call = rlang::caller_env()) {
  kernel <- ranking_kernel_metrics_impl()
  known <- kernel$name
  if (is.character(metrics)) metrics <- as.list(metrics)
  if (!is.list(metrics) || length(metrics) == 0) {
    abort_aurc(
      c(
        "{.arg metrics} must be a character vector or a list of metric names
         and functions.",
        x = "It is {.obj_type_friendly {metrics}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  nms <- names(metrics)
  if (is.null(nms)) nms <- rep("", length(metrics))
  specs <- vector("list", length(metrics))
  for (k in seq_along(metrics)) {
    m <- metrics[[k]]
    if (rlang::is_string(m)) {
      if (m %in% kernel$name) {
        row <- kernel[kernel$name == m, ]
        specs[[k]] <- list(
          name = m, higher_better = row$higher_better, binary = row$binary,
          kernel = TRUE, kernel_id = m, fn = NULL
        )
      } else {
        abort_aurc(
          c(
            "{.arg metrics} must name metrics of aurc.",
            x = "Unknown metric: {.val {m}}.",
            i = "Known metrics: {.val {known}}.",
            i = "Give a metric of your own as a named function in a list."
          ),
          class = "aurc_error_value", call = call
        )
      }
    } else {
      specs[[k]] <- custom_metric_spec(m, nms[k], call = call)
    }
    if (nzchar(nms[k])) specs[[k]]$name <- nms[k]
  }
  names_all <- vapply(specs, function(s) s$name, character(1))
  if (anyDuplicated(names_all)) {
    abort_aurc(
      c(
        "{.arg metrics} must not repeat a metric.",
        x = "Repeated: {.val {unique(names_all[duplicated(names_all)])}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  specs
}

custom_metric_spec <- function(m, name, call) {
  direction <- "lower"
  if (is.list(m) && !is.function(m)) {
    if (!is.null(m$direction)) direction <- m$direction
    m <- m$fn
  }
  if (!is.function(m) || !nzchar(name)) {
    abort_aurc(
      c(
        "Each element of {.arg metrics} must be a metric name or a named
         function {.code f(score, loss)}.",
        i = "A function of your own needs a name:
             {.code metrics = list(mine = f)}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  direction <- check_choice(direction, c("lower", "higher"),
    arg = "direction", call = call
  )
  list(
    name = name, higher_better = direction == "higher", binary = FALSE,
    kernel = FALSE, fn = m
  )
}

# ---- options ----------------------------------------------------------------

ranking_options <- function(ties, correct, p_adjust, alpha, call) {
  ties <- check_choice(ties, c("min", "average", "max"), call = call)
  check_bool(correct, call = call)
  p_adjust <- check_choice(p_adjust, stats::p.adjust.methods, call = call)
  if (!is.numeric(alpha) || length(alpha) != 1 || is.na(alpha) ||
    alpha <= 0 || alpha >= 1) {
    abort_aurc(
      "{.arg alpha} must be a single number between 0 and 1.",
      class = "aurc_error_value", call = call
    )
  }
  list(ties = ties, correct = correct, p_adjust = p_adjust, alpha = alpha)
}

ranking_settings <- function(specs, opts) {
  c(
    list(
      metrics = vapply(specs, function(s) s$name, character(1)),
      higher_better = vapply(specs, function(s) s$higher_better, logical(1))
    ),
    opts
  )
}

ranking_label <- function(quo) {
  if (rlang::quo_is_null(quo)) return(NULL)
  expr <- rlang::quo_get_expr(quo)
  if (rlang::is_symbol(expr) || rlang::is_string(expr)) {
    rlang::as_string(expr)
  } else {
    rlang::as_label(expr)
  }
}

# ---- data -------------------------------------------------------------------

check_ranking_columns <- function(cols, specs, call) {
  for (arg in c("method", "case")) {
    if (is.null(cols[[arg]])) {
      abort_aurc("{.arg {arg}} must be a column of {.arg data}, not NULL.",
        class = "aurc_error_type", call = call
      )
    }
  }
  n <- length(cols$method)
  if (n == 0) {
    abort_aurc("{.arg data} must have at least one row.",
      class = "aurc_error_length", call = call
    )
  }
  check_numeric_vector(cols$score, "score", call = call)
  check_loss(cols$loss, n, call = call)
  for (arg in c("method", "case", "run", "group", "strata")) {
    v <- cols[[arg]]
    if (is.null(v)) next
    if (!is.null(dim(v)) || !is.atomic(v)) {
      abort_aurc(
        "{.arg {arg}} must be a vector column, not {.obj_type_friendly {v}}.",
        class = "aurc_error_type", call = call
      )
    }
    if (anyNA(v)) {
      abort_aurc(
        c(
          "{.arg {arg}} must not have missing values.",
          x = "Row {which(is.na(v))[1]} is missing."
        ),
        class = "aurc_error_missing", call = call
      )
    }
  }
  for (arg in c("score", "loss")) {
    v <- cols[[arg]]
    if (anyNA(v)) {
      abort_aurc(
        c(
          "{.arg {arg}} must not have missing values.",
          x = "{sum(is.na(v))} row{?s} missing, the first is row
               {which(is.na(v))[1]}.",
          i = "Every method must have a score and loss for every case:
               drop or impute the cases first."
        ),
        class = "aurc_error_missing", call = call
      )
    }
  }
  binary <- vapply(specs, function(s) isTRUE(s$binary), logical(1))
  if (any(binary)) {
    bad <- which(cols$loss != 0 & cols$loss != 1)
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg loss} must be 0 or 1 for the metric{?s}
           {.val {vapply(specs[binary], function(s) s$name, '')}}.",
          x = "Row {bad[1]} has loss {.val {cols$loss[bad[1]]}}."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  invisible()
}

# sorted_levels(x) and the position of each element in them, without
# hashing where possible: factors by their codes, whole numbers over a
# compact range by counting.
level_index <- function(x) {
  if (is.factor(x)) {
    used <- tabulate(as.integer(x), nlevels(x)) > 0
    return(list(
      levels = levels(x)[used], index = cumsum(used)[as.integer(x)]
    ))
  }
  if (is.integer(x) && length(x) > 0) {
    lo <- min(x)
    span <- max(x) - lo + 1
    if (span <= 2 * length(x) + 1e4) {
      k <- x - (lo - 1L)
      present <- tabulate(k, span) > 0
      return(list(
        levels = seq(lo, length.out = span)[present],
        index = cumsum(present)[k]
      ))
    }
  }
  levels <- sorted_levels(x)
  list(levels = levels, index = match(x, levels))
}

sorted_levels <- function(x) {
  if (is.factor(x)) {
    levels(droplevels(x))
  } else {
    sort(unique(x))
  }
}

# One group's data as an n x C score and loss matrix (cases in sorted order,
# columns method-major with the run fastest), after checking pairing.
ranking_problem <- function(cols, key, call) {
  m_idx <- level_index(cols$method)
  methods <- m_idx$levels
  mi <- m_idx$index
  runs <- 1L
  ri <- rep(1L, length(mi))
  if (!is.null(cols$run)) {
    r_idx <- level_index(cols$run)
    runs <- r_idx$levels
    ri <- r_idx$index
  }
  c_idx <- level_index(cols$case)
  cases <- c_idx$levels
  pos <- c_idx$index
  n <- length(cases)
  n_runs <- length(runs)
  col <- (mi - 1L) * n_runs + ri
  n_col <- length(methods) * n_runs
  slot <- (col - 1) * n + pos
  where <- if (is.null(key)) "" else paste0(" in group ", format(key))
  label <- function(c) {
    m <- methods[(c - 1L) %/% n_runs + 1L]
    r <- runs[(c - 1L) %% n_runs + 1L]
    if (is.null(cols$run)) paste0("Method \"", m, "\"") else
      paste0("Method \"", m, "\", run ", format(r))
  }
  # counting is much cheaper than hashing; duplicated() only on error
  no_dup <- n * n_col < .Machine$integer.max &&
    !any(tabulate(slot, n * n_col) > 1L)
  dup <- if (no_dup) integer() else which(duplicated(slot))
  if (length(dup)) {
    abort_aurc(
      c(
        "Each method and run must hold each case once.",
        x = "{label(col[dup[1]])}{where} has case {.val {cols$case[dup[1]]}}
             more than once."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  per_col <- tabulate(col, n_col)
  short <- which(per_col < n)
  if (length(short)) {
    c1 <- short[1]
    missing_cases <- setdiff(seq_len(n), pos[col == c1])
    shown <- utils::head(cases[missing_cases], 5)
    abort_aurc(
      c(
        "Every method and run must hold the same cases (paired data).",
        x = "{label(c1)}{where} lacks {length(missing_cases)} of the {n}
             case{?s}{if (length(missing_cases) > 5) ', for example' else
             ':'} {.val {shown}}.",
        i = if (length(short) > 1) "{length(short) - 1} other method-run
             combination{?s} lack cases too."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  # every slot once (checked above): rows already in slot order need no
  # scatter (data sorted by method, run and case, as expand.grid() makes)
  if (!is.unsorted(slot)) {
    score <- matrix(as.double(cols$score), n, n_col)
    loss <- matrix(as.double(cols$loss), n, n_col)
  } else {
    score <- matrix(0, n, n_col)
    loss <- matrix(0, n, n_col)
    score[slot] <- as.double(cols$score)
    loss[slot] <- as.double(cols$loss)
  }
  strata_pos <- NULL
  if (!is.null(cols$strata)) {
    first <- match(seq_len(n), pos)
    case_stratum <- cols$strata[first]
    bad <- which(cols$strata != case_stratum[pos])
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg strata} must be constant within each case.",
          x = "Case {.val {cols$case[bad[1]]}} is in more than one stratum."
        ),
        class = "aurc_error_value", call = call
      )
    }
    levs <- sorted_levels(case_stratum)
    strata_pos <- lapply(levs, function(l) which(case_stratum == l))
  }
  list(
    score = score, loss = loss, n = n, methods = as.character(methods),
    runs = runs, cases = cases, strata_pos = strata_pos
  )
}

# The index table (cases x replicates) and the values (replicates x columns
# x metrics) must fit the cell budget (max_cells()) before either is built.
check_ranking_size <- function(problem, n_reps, n_metrics, call) {
  check_cells(problem$n * n_reps, "times",
    "the table of drawn cases (cases x replicates)",
    call = call
  )
  check_cells(n_reps * ncol(problem$score) * n_metrics, "times",
    "the replicate values (replicates x methods and runs x metrics)",
    call = call
  )
}

# times x n matrix of case positions (row b = replicate b), the layout of
# a user's `indices`, which the kernel reads directly; `bar`, at `done`
# steps: a progress bar or NULL.
draw_indices <- function(n, times, strata_pos = NULL, bar = NULL, done = 0) {
  out <- matrix(0L, times, n)
  for (b in seq_len(times)) {
    progress_tick(bar, done + b - 1)
    out[b, ] <- if (is.null(strata_pos)) {
      sample.int(n, n, replace = TRUE)
    } else {
      unlist(lapply(strata_pos, function(p) {
        p[sample.int(length(p), length(p), replace = TRUE)]
      }), use.names = FALSE)
    }
  }
  out
}

# `indices` as a list with one entry per group (NULL: draw).
ranking_index_list <- function(indices, group_keys, call) {
  if (is.null(indices)) return(NULL)
  if (is.matrix(indices)) {
    if (length(group_keys) > 1) {
      abort_aurc(
        c(
          "{.arg indices} must be a list of matrices named by group.",
          i = "Each group has its own cases."
        ),
        class = "aurc_error_type", call = call
      )
    }
    return(list(indices))
  }
  if (!is.list(indices) || is.null(names(indices)) ||
    is.null(group_keys[[1]])) {
    abort_aurc(
      "{.arg indices} must be an integer matrix (replicates x cases).",
      class = "aurc_error_type", call = call
    )
  }
  keys <- vapply(group_keys, function(k) as.character(k), character(1))
  absent <- setdiff(keys, names(indices))
  if (length(absent)) {
    abort_aurc(
      "{.arg indices} has no matrix for group{?s} {.val {absent}}.",
      class = "aurc_error_value", call = call
    )
  }
  indices[keys]
}

# times x n user matrix, checked; returned as an integer matrix.
check_indices <- function(m, n, key, call) {
  where <- if (is.null(key)) "" else paste0(" for group ", format(key))
  if (!is.matrix(m) || !is.numeric(m)) {
    abort_aurc(
      "{.arg indices}{where} must be a numeric matrix, not
       {.obj_type_friendly {m}}.",
      class = "aurc_error_type", call = call
    )
  }
  if (ncol(m) != n || nrow(m) < 1) {
    abort_aurc(
      c(
        "{.arg indices}{where} must have one column per case and at least
         one row.",
        x = "It is {nrow(m)} x {ncol(m)}; there are {n} cases."
      ),
      class = "aurc_error_value", call = call
    )
  }
  # min() and max() are NA when any element is: no copy, no extra pass
  rng <- c(min(m), max(m))
  if (anyNA(rng) || rng[1] < 1 || rng[2] > n ||
    (!is.integer(m) && any(m != trunc(m)))) {
    abort_aurc(
      "{.arg indices}{where} must hold case positions, whole numbers from 1
       to {n}.",
      class = "aurc_error_value", call = call
    )
  }
  if (!is.integer(m)) storage.mode(m) <- "integer"
  m
}

# Passes over the replicates, for the progress bar: one for all kernel
# metrics, one per metric given as an R function.
ranking_passes <- function(specs) {
  kernel <- vapply(specs, function(s) s$kernel, logical(1))
  any(kernel) + sum(!kernel)
}

# Replicate values (list by metric of times x K matrices, averaged over
# runs) and full-data values (list by metric of K vectors). `bar`: a
# progress bar (progress_bar()) at `done` steps, or NULL.
ranking_values <- function(problem, specs, idx, threads, bar = NULL,
                           done = 0) {
  n_runs <- length(problem$runs)
  n_methods <- length(problem$methods)
  n_reps <- nrow(idx)
  kernel <- vapply(specs, function(s) s$kernel, logical(1))
  names_all <- vapply(specs, function(s) s$name, character(1))
  per_col <- stats::setNames(vector("list", length(specs)), names_all)
  full_col <- per_col
  if (any(kernel)) {
    kn <- names_all[kernel]
    kernel_names <- vapply(specs[kernel], function(s) s$kernel_id,
      character(1))
    reps <- ranking_metrics_impl(
      problem$score, problem$loss, idx, kernel_names, threads,
      progress_callback(bar, done), replicate_rows = TRUE
    )
    done <- done + n_reps
    full <- ranking_metrics_impl(
      problem$score, problem$loss, matrix(seq_len(problem$n)),
      kernel_names, 1L
    )
    for (k in seq_along(kn)) {
      per_col[[kn[k]]] <- matrix(reps[, , k], n_reps)
      full_col[[kn[k]]] <- full[1, , k]
    }
  }
  for (s in specs[!kernel]) {
    n_cols <- ncol(problem$score)
    vals <- matrix(NA_real_, n_reps, n_cols)
    for (b in seq_len(n_reps)) {
      i <- idx[b, ]
      for (c in seq_len(n_cols)) {
        vals[b, c] <- s$fn(problem$score[i, c], problem$loss[i, c])
      }
      progress_tick(bar, done + b)
    }
    done <- done + n_reps
    per_col[[s$name]] <- vals
    full_col[[s$name]] <- vapply(seq_len(n_cols), function(c) {
      s$fn(problem$score[, c], problem$loss[, c])
    }, numeric(1))
  }
  average_runs <- function(v, nrow) {
    a <- array(v, c(nrow, n_runs, n_methods))
    out <- a[, 1, , drop = TRUE]
    if (n_runs > 1) {
      for (r in 2:n_runs) out <- out + a[, r, ]
      out <- out / n_runs
    }
    matrix(out, nrow, n_methods, dimnames = list(NULL, problem$methods))
  }
  list(
    replicates = lapply(per_col, average_runs, nrow = n_reps),
    full = lapply(full_col, function(v) average_runs(v, 1)[1, ])
  )
}

# ---- aggregation and tests --------------------------------------------------

# One metric: times x K replicate values -> ranks, ranking, tests.
rank_one_metric <- function(values, higher_better, full, opts, metric,
                            why = missing_hint(NULL)) {
  methods <- colnames(values)
  n_methods <- ncol(values)
  n_reps <- nrow(values)
  signed <- if (higher_better) -values else values
  ranks <- matrix(
    t(apply(signed, 1, rank, ties.method = opts$ties, na.last = "keep")),
    n_reps, n_methods
  )
  if (anyNA(values)) {
    warn_aurc(
      c(
        "Metric {.val {metric}} is missing in {sum(is.na(values))} of
         {length(values)} replicate values; they are left out of the ranks
         and tests.",
        i = why
      ),
      class = "aurc_warning_ranking_missing"
    )
  }
  mean_rank <- colMeans(ranks, na.rm = TRUE)
  median_rank <- apply(ranks, 2, stats::median, na.rm = TRUE)
  ord <- order(mean_rank, median_rank)
  position <- integer(n_methods)
  position[ord] <- seq_len(n_methods)
  if (is.null(full)) full <- rep(NA_real_, n_methods)
  ranking <- tibble::tibble(
    metric = metric, method = methods[ord], rank = seq_len(n_methods),
    mean_rank = mean_rank[ord], median_rank = median_rank[ord],
    full_value = unname(full[ord])
  )

  freq <- vapply(
    seq_len(n_methods), function(r) colSums(ranks == r, na.rm = TRUE),
    numeric(n_methods)
  )
  freq <- matrix(freq, n_methods, n_methods)
  rank_frequencies <- tibble::tibble(
    metric = metric,
    method = rep(methods[ord], times = n_methods),
    rank = rep(seq_len(n_methods), each = n_methods),
    n = as.vector(freq[ord, , drop = FALSE]),
    proportion = as.vector(freq[ord, , drop = FALSE]) /
      colSums(!is.na(ranks))[rep(ord, times = n_methods)]
  )
  reference <- if (all(is.na(full))) position else
    rank(if (higher_better) -full else full, ties.method = opts$ties,
      na.last = "keep")
  tau <- suppressWarnings(
    as.vector(stats::cor(t(ranks), reference,
      method = "kendall",
      use = "pairwise.complete.obs"
    ))
  )
  if (n_methods < 2) tau <- rep(NA_real_, n_reps)
  kendall <- tibble::tibble(metric = metric, replicate = seq_len(n_reps),
    tau = tau)

  tests <- rank_tests(values, higher_better, opts, metric, position)
  replicates <- tibble::tibble(
    replicate = rep(seq_len(n_reps), times = n_methods),
    method = rep(methods, each = n_reps),
    metric = metric, value = as.vector(values)
  )
  list(
    ranking = ranking, tests = tests, replicates = replicates,
    rank_frequencies = rank_frequencies, kendall = kendall
  )
}

# Why a metric can be missing in a replicate (the hint of the warning).
missing_hint <- function(kernel_id) {
  if (identical(kernel_id, "naurc")) {
    "NAURC is missing when every loss of a replicate is the same."
  } else {
    "A binary metric is missing when a replicate holds only one class."
  }
}

rank_tests <- function(values, higher_better, opts, metric, position) {
  methods <- colnames(values)
  n_methods <- ncol(values)
  if (n_methods < 2) {
    return(tibble::tibble(
      metric = character(), method = character(), versus = character(),
      statistic = numeric(), p_value = numeric(), p_adjusted = numeric(),
      significant = logical()
    ))
  }
  res <- signed_rank_pairs_impl(
    values, if (higher_better) "greater" else "less", opts$correct
  )
  i <- rep(seq_len(n_methods), each = n_methods)
  j <- rep(seq_len(n_methods), times = n_methods)
  keep <- i != j
  i <- i[keep]
  j <- j[keep]
  p <- res$p_value
  adjusted <- switch(opts$p_adjust,
    holm = holm_impl(p),
    none = p,
    stats::p.adjust(p, method = opts$p_adjust)
  )
  out <- tibble::tibble(
    metric = metric, method = methods[i], versus = methods[j],
    statistic = res$statistic, p_value = p, p_adjusted = adjusted,
    significant = adjusted <= opts$alpha
  )
  out[order(position[i], position[j]), ]
}

# Every metric of one group; adds the group column.
rank_metric_set <- function(replicates, full, specs, opts, group = NULL) {
  parts <- lapply(specs, function(s) {
    rank_one_metric(replicates[[s$name]], s$higher_better, full[[s$name]],
      opts,
      metric = s$name, why = missing_hint(s$kernel_id)
    )
  })
  out <- lapply(stats::setNames(nm = names(parts[[1]])), function(tab) {
    do.call(rbind, lapply(parts, function(p) p[[tab]]))
  })
  if (!is.null(group)) {
    out <- lapply(out, function(tab) {
      tibble::add_column(tab, group = rep(group, nrow(tab)), .before = 1)
    })
  }
  out
}

new_aurc_ranking <- function(parts, settings) {
  tabs <- names(parts[[1]])
  out <- lapply(stats::setNames(nm = tabs), function(tab) {
    do.call(rbind, lapply(parts, function(p) p[[tab]]))
  })
  out$settings <- settings
  structure(out, class = "aurc_ranking")
}

# ---- rank_replicates input --------------------------------------------------

replicate_table <- function(values, metric, call) {
  if (is.matrix(values) || is.data.frame(values)) {
    if (NROW(values) == 0 || NCOL(values) == 0) {
      abort_aurc(
        "{.arg values} must have at least one row and one column.",
        class = "aurc_error_length", call = call
      )
    }
  }
  if (is.matrix(values)) {
    if (!is.numeric(values)) {
      abort_aurc(
        "{.arg values} must be a numeric matrix, not
         {.obj_type_friendly {values}}.",
        class = "aurc_error_type", call = call
      )
    }
    if (is.null(colnames(values)) || anyDuplicated(colnames(values)) ||
      anyNA(colnames(values))) {
      abort_aurc(
        c(
          "{.arg values} must have distinct column names: the methods.",
          i = "Set them with {.code colnames(values) <- ...}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    if (!rlang::is_string(metric)) {
      abort_aurc("{.arg metric} must be a single string.",
        class = "aurc_error_type", call = call
      )
    }
    return(data.frame(
      replicate = rep(seq_len(nrow(values)), times = ncol(values)),
      method = rep(colnames(values), each = nrow(values)),
      value = as.vector(values), metric = metric, stringsAsFactors = FALSE
    ))
  }
  if (!is.data.frame(values)) {
    abort_aurc(
      "{.arg values} must be a numeric matrix or a data frame, not
       {.obj_type_friendly {values}}.",
      class = "aurc_error_type", call = call
    )
  }
  need <- c("replicate", "method", "value")
  absent <- setdiff(need, names(values))
  if (length(absent)) {
    abort_aurc(
      c(
        "{.arg values} must have columns {.field {need}}.",
        x = "Missing: {.field {absent}}."
      ),
      class = "aurc_error_column", call = call
    )
  }
  if (!is.numeric(values$value)) {
    abort_aurc("Column {.field value} of {.arg values} must be numeric.",
      class = "aurc_error_type", call = call
    )
  }
  out <- data.frame(
    replicate = values$replicate, method = as.character(values$method),
    value = as.double(values$value),
    metric = if (is.null(values$metric)) metric else
      as.character(values$metric),
    stringsAsFactors = FALSE
  )
  if (!is.null(values$group)) out$group <- values$group
  out
}

direction_per_metric <- function(direction, metric_names, call) {
  ok <- is.character(direction) && all(direction %in% c("lower", "higher"))
  if (ok && length(direction) == 1 && is.null(names(direction))) {
    return(stats::setNames(as.list(rep(direction == "higher",
      length(metric_names))), metric_names))
  }
  if (!ok || is.null(names(direction)) ||
    !all(metric_names %in% names(direction))) {
    abort_aurc(
      c(
        "{.arg direction} must be {.val lower} or {.val higher}, one value
         or one per metric (named).",
        i = "Metrics: {.val {metric_names}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.list(direction[metric_names] == "higher")
}

replicate_matrix <- function(sub, metric, key, call) {
  methods <- sorted_levels(sub$method)
  reps <- sort(unique(sub$replicate))
  where <- if (is.null(key)) "" else paste0(" in group ", format(key))
  slot <- (match(sub$method, methods) - 1) * length(reps) +
    match(sub$replicate, reps)
  if (anyDuplicated(slot) || length(slot) != length(reps) * length(methods)) {
    abort_aurc(
      c(
        "{.arg values} must hold one value per replicate and method.",
        x = "Metric {.val {metric}}{where} has {length(slot)} rows for
             {length(reps)} replicates and {length(methods)} methods."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  out <- matrix(NA_real_, length(reps), length(methods),
    dimnames = list(NULL, methods)
  )
  out[slot] <- sub$value
  out
}

full_value_table <- function(full_values, long, call) {
  if (is.null(full_values)) return(NULL)
  if (is.numeric(full_values) && !is.null(names(full_values)) &&
    is.null(dim(full_values))) {
    return(data.frame(
      method = names(full_values), value = unname(full_values),
      stringsAsFactors = FALSE
    ))
  }
  if (!is.data.frame(full_values) ||
    !all(c("method", "value") %in% names(full_values))) {
    abort_aurc(
      "{.arg full_values} must be a named numeric vector or a data frame
       with columns {.field method} and {.field value}.",
      class = "aurc_error_type", call = call
    )
  }
  full_values
}

full_vector <- function(full, metric, key, methods) {
  if (is.null(full)) return(NULL)
  sel <- rep(TRUE, nrow(full))
  if (!is.null(full$metric)) sel <- sel & full$metric == metric
  if (!is.null(full$group) && !is.null(key)) sel <- sel & full$group == key
  sub <- full[sel, , drop = FALSE]
  unname(as.double(sub$value[match(methods, as.character(sub$method))]))
}

# ---- methods ----------------------------------------------------------------

# One string per row from the columns of `d` that exist.
row_key <- function(d, cols) {
  cols <- intersect(cols, names(d))
  do.call(paste, c(lapply(cols, function(k) as.character(d[[k]])),
    sep = "\r"
  ))
}

#' @export
print.aurc_ranking <- function(x, ...) {
  s <- x$settings
  dirs <- ifelse(s$higher_better, "higher is better", "lower is better")
  cat("<aurc_ranking>\n")
  cat(sprintf("Metrics: %s\n", paste0(s$metrics, " (", dirs, ")",
    collapse = ", "
  )))
  if (identical(s$source, "bootstrap")) {
    runs <- if (max(s$n_runs) > 1) {
      sprintf("; metric averaged over %s runs", paste(unique(s$n_runs),
        collapse = "/"
      ))
    } else {
      ""
    }
    cat(sprintf(
      "Replicates: %d %sbootstrap replicates of %s cases%s%s\n", s$times,
      if (s$stratified) "stratified " else "",
      paste(unique(s$n_cases), collapse = "/"),
      if (s$indices_given) " (indices given)" else "", runs
    ))
  } else {
    cat(sprintf("Replicates: %d (values given)\n", s$times))
  }
  cat(sprintf(
    "Test: one-sided Wilcoxon signed-rank test over replicates (%s)\n",
    if (s$correct) "with continuity correction" else
      "no continuity correction"
  ))
  cat(sprintf(
    "Correction: %s over the K(K-1) ordered pairs; alpha = %s\n",
    adjust_label(s$p_adjust), format(s$alpha)
  ))
  cat("Ranking by mean rank, then median rank:\n")
  tab <- as.data.frame(x$ranking)
  beats <- x$tests[x$tests$significant %in% TRUE, ]
  key <- function(d) row_key(d, c("group", "metric", "method"))
  tab$beats <- as.integer(table(factor(key(beats), levels = key(tab))))
  print(tab, digits = 4, row.names = FALSE)
  cat("(beats: number of methods it is significantly better than)\n")
  invisible(x)
}

#' @export
summary.aurc_ranking <- function(object, ...) {
  tab <- object$ranking
  freq <- object$rank_frequencies
  tests <- object$tests
  key <- function(d) row_key(d, c("group", "metric", "method"))
  k_tab <- key(tab)
  first <- freq[freq$rank == 1, ]
  tab$p_first <- first$proportion[match(k_tab, key(first))]
  sig <- tests[tests$significant %in% TRUE, ]
  tab$beats <- as.integer(table(factor(key(sig), levels = k_tab)))
  beaten <- sig
  beaten$method <- beaten$versus
  tab$beaten_by <- as.integer(table(factor(key(beaten), levels = k_tab)))
  kd <- object$kendall
  kkey <- row_key(kd, c("group", "metric"))
  tau <- tapply(kd$tau, kkey, mean, na.rm = TRUE)
  tab$mean_kendall_tau <- as.vector(tau[row_key(tab, c("group", "metric"))])
  tab
}

#' Tidy tables of a bootstrap ranking
#'
#' @param x An `aurc_ranking` from [bootstrap_ranking()] or
#'   [rank_replicates()].
#' @param row.names,optional Not used.
#' @param ... Not used.
#' @param what Which table: `"ranking"`, `"tests"` or `"replicates"`
#'   (also `"rank_frequencies"`, `"kendall"`).
#' @return A data frame: see the Value section of [bootstrap_ranking()].
#' @examples
#' values <- cbind(a = c(1, 2, 3, 2), b = c(2, 3, 4, 4))
#' rk <- rank_replicates(values)
#' as.data.frame(rk, what = "tests")
#' @export
as.data.frame.aurc_ranking <- function(x, row.names = NULL, optional = FALSE, # nolint: object_name_linter, line_length_linter. S3 generic's names
                                       ...,
                                       what = c("ranking", "tests",
                                                "replicates",
                                                "rank_frequencies",
                                                "kendall")) {
  what <- check_choice(what[1], c(
    "ranking", "tests", "replicates", "rank_frequencies", "kendall"
  ), arg = "what")
  as.data.frame(x[[what]])
}
