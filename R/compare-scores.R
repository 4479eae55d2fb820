#' Paired comparison of confidence scores on the same cases
#'
#' Is one confidence score really better than another? For two or more
#' score columns evaluated on the same rows (same cases, same losses),
#' `compare_scores()` estimates the metric of every score and, for every
#' pair, the difference with its confidence interval and a two-sided
#' p-value, adjusted over all pairs. Models can also be given in long form,
#' one row per model and case (see "Long form").
#'
#' @section Methods:
#' * `method = "analytic"` (default): the difference `T(a) - T(b)` has the
#'   influence function `IF_a - IF_b` on the same cases
#'   ([influence_functions]), so its standard error takes the correlation of
#'   the two scores into account. The test is the Wald test
#'   `z = difference / SE`, `p = 2 pnorm(-|z|)`. For the failure AUROC this
#'   is DeLong's paired test, the same as `pROC::roc.test(method =
#'   "delong", paired = TRUE)`.
#' * `method = "bootstrap"`: the same replicate draws for every score; the
#'   interval of the difference is of the chosen `type`, and the p-value is
#'   the bootstrap's (see [selective_ci()]).
#'
#' @section Case weights:
#' Plain numbers and [hardhat::frequency_weights()] count cases;
#' with [hardhat::importance_weights()] the standard errors are the
#' weighted sandwich over the cases observed and the bootstrap resamples
#' cases (see [selective_ci()], section "Case weights"); the estimates are
#' the same.
#'
#' @section Comparing models:
#' Two models evaluated on the same cases each have their own confidence
#' and their own loss: give `loss = c(loss_a, loss_b)`, one column per
#' score. The influence function of each model's metric is computed with
#' its own loss, and the difference's standard error comes from the
#' difference of the influence values on the same cases, so the
#' correlation of the two models is taken into account. For the failure
#' AUROC of models with the same failures this is DeLong's paired test
#' (stratified by the failure label); when their failures differ the
#' labels are not a design stratum, and the variance of the difference is
#' the plain (unstratified) influence-function variance, which pROC cannot
#' compute (its paired test needs one response). The bootstrap draws the
#' same cases for both models. Two identical inputs (same score and same
#' loss) give a difference of 0 with `p = 1`, as `pROC::roc.test()` does.
#'
#' The p-values are adjusted over the `K (K - 1) / 2` pairs (per group) with
#' [stats::p.adjust()] (`p_adjust = "holm"` by default; `"none"` keeps them).
#' The hypothesis of each pair is "no difference in the metric", two-sided:
#' unlike the one-sided tests of [bootstrap_ranking()] it does not presume
#' a direction.
#'
#' @section Long form:
#' The predictions of several models are often stacked, one row per model
#' and case: the `augment()` output of each model (tidymodels) on the
#' same test set, bound together with a column naming the model. Give that
#' column as `model =`; `scores` then selects the one score column, and
#' `loss` (or `correct`, `quality`) the one loss column, whose values on a
#' model's rows are that model's losses. The rows are paired across
#' models:
#'
#' * without `case`, by their position within each model: the k-th row of
#'   every model is the same case, as stacking the predictions of one test
#'   set in the same order gives. Every model must then have as many rows.
#' * with `case =` (a column of case ids), by the case id: every model must
#'   have every case, and each once.
#'
#' Of a grouped data frame the rows are paired within each group. The long
#' data are reshaped to the wide form (one score column per model), so
#' every metric, method and option works as there; the scores of the result
#' are named by the models, sorted (a factor in the order of its levels),
#' and the cases are in the order of their position or id, as
#' [bootstrap_ranking()] orders them. The columns of a case
#' (`case_weights`, `strata`, `cluster`, `truth`) must hold the same value
#' on the rows of every model; a case with a missing score or loss of any
#' model is dropped for every model when `na_rm = TRUE`. More models than
#' rows per model is an error (most often `model` and `case` swapped).
#'
#' @inheritParams selective_ci
#' @param data A data frame (grouped data frames give one set of pairs per
#'   group).
#' @param scores Two or more score columns: unquoted names combined with
#'   `c()` (e.g. `c(msp, margin)`), a range (`msp:margin`), or a character
#'   vector of column names. With `model`: the one score column.
#' @param loss The per-sample loss (0/1 failure for the binary metrics):
#'   one unquoted column shared by every score, or one column per score
#'   (`c(loss_a, loss_b)`, in the order of `scores`) to compare **models**,
#'   each with its own confidence and its own loss on the same cases. With
#'   `model`: one column, each row the loss of its model.
#' @param model For data in long form (one row per model and case, see
#'   "Long form"): the unquoted column naming the model of each row.
#' @param case With `model`: optional unquoted column of case ids, by
#'   which the rows of the models are paired. Without it the k-th row of
#'   each model is the same case.
#' @param correct Instead of `loss`: the unquoted column of whether each
#'   prediction was right (as [ece()] and every metric take it); the loss
#'   is `1 - correct`. As `loss`, one column per score is a model's own.
#' @param quality Instead of `loss`: the unquoted column of a quality in
#'   `[0, 1]` (higher is better, as [prr()] and [auarc()] take it); the
#'   loss is `1 - quality`. As `loss`, one column per score is a model's
#'   own.
#' @param truth For `metric = "aurc_ba"` or `"augrc_ba"`: the unquoted
#'   column of the true class of each case (see [selective_ci()]).
#' @param metric One metric name (see [selective_ci()]). With `"ause"` the
#'   scores are two or more uncertainty measures (each given as a
#'   confidence, `-uncertainty`) of the same errors; with the LLM metrics
#'   (`"spearman"`, `"kendall"`, `"rank_calibration_error"`,
#'   `"quality_auroc"`, `"quality_aupr"`) two or more uncertainty measures
#'   of the same outputs and one `quality =` column: the difference, its
#'   interval and p-value are paired.
#' @param p_adjust Method of [stats::p.adjust()], or `"none"`.
#' @param na_rm If `TRUE`, rows with a missing value in any score or in the
#'   loss are dropped (so every score is evaluated on the same rows); if
#'   `FALSE` (the default) a missing value makes every result `NA`.
#' @return An object of class `aurc_comparison`: a list with `tests` (a
#'   tibble, one row per pair: grouping columns, `score_a`, `score_b`,
#'   `estimate_a`, `estimate_b`, `difference` (a - b), `lower`, `upper`,
#'   `std_error`, `statistic` (z), `p_value`, `p_adjusted`), `estimates`
#'   (one row per score: `score`, `estimate`, `lower`, `upper`,
#'   `std_error`) and the settings. It has `print()` and `autoplot()`
#'   methods.
#' @seealso [selective_ci()], [bootstrap_ranking()] for rankings over many
#'   methods, [influence_functions].
#' @examples
#' set.seed(2)
#' n <- 800
#' latent <- rnorm(n)
#' df <- data.frame(
#'   failure = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
#'   good = latent + rnorm(n, sd = 0.5),
#'   poor = latent + rnorm(n, sd = 1.5),
#'   noise = rnorm(n)
#' )
#' cmp <- compare_scores(df, c(good, poor, noise), failure)
#' cmp
#' # two models, each with its own confidence and its own failures
#' df$failure_b <- rbinom(n, 1, plogis(-0.5 - 1.5 * latent))
#' compare_scores(df, c(good, poor), c(failure, failure_b))
#' compare_scores(df, c("good", "poor"), failure, metric = "failure_auroc")
#' autoplot(cmp)
#' # the same two models in long form: one row per model and case, as the
#' # stacked augment() output of two models on the same test set
#' long <- rbind(
#'   data.frame(model = "good", confidence = df$good, failure = df$failure),
#'   data.frame(model = "poor", confidence = df$poor, failure = df$failure_b)
#' )
#' compare_scores(long, confidence, failure, model = model)
#' @export
compare_scores <- function(data, scores, loss, ..., model = NULL,
                           case = NULL, correct = NULL,
                           quality = NULL, truth = NULL, metric = "aurc",
                           method = c("analytic", "bootstrap"),
                           p_adjust = "holm", conf_level = 0.95,
                           type = "percentile", times = 2000, strata = NULL,
                           cluster = NULL, indices = NULL,
                           estimator = "alpha", augrc_method = "trapezoid",
                           optimum = "exact", coverage = NULL, risk = NULL,
                           n_bins = 10, max_rejection = 1,
                           coverage_range = NULL, rule = "tie_closed",
                           tpr = 0.95, binning = "adaptive", span = 0.75,
                           smoother = "loess", eps = 1e-8,
                           definition = "ilg", p = 1, threshold = NULL,
                           na_rm = FALSE, case_weights = NULL,
                           threads = 1) {
  check_dots(...)
  bound <- ci_with_bound_metrics(metric, arg = "metric")
  if (!is.null(bound)) return(bound)
  call <- rlang::current_env()
  quos <- list(
    scores = rlang::enquo(scores),
    loss = if (missing(loss)) rlang::quo(NULL) else rlang::enquo(loss),
    correct = rlang::enquo(correct), quality = rlang::enquo(quality),
    case_weights = rlang::enquo(case_weights),
    strata = rlang::enquo(strata), cluster = rlang::enquo(cluster),
    truth = rlang::enquo(truth)
  )
  model_quo <- rlang::enquo(model)
  case_quo <- rlang::enquo(case)
  long <- NULL
  if (!rlang::quo_is_null(model_quo)) {
    # the long form, reshaped to the wide one (R/compare-long.R)
    long <- compare_long_data(data, quos, model_quo, case_quo, call)
    data <- long$data
    quos <- long$quos
  } else if (!rlang::quo_is_null(case_quo)) {
    abort_aurc(
      c(
        "{.arg case} pairs the rows of the long form; give {.arg model} too.",
        i = paste(
          "Without {.arg model} every score is a column on the same rows,",
          "each row one case."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  res <- compare_scores_run(
    data,
    quos = quos, groups = long$groups,
    metric = metric, method = method, p_adjust = p_adjust,
    conf_level = conf_level, type = type, times = times, indices = indices,
    estimator = estimator, augrc_method = augrc_method, optimum = optimum,
    coverage = coverage, risk = risk, n_bins = n_bins, binning = binning,
    na_rm = na_rm, threads = threads,
    ignored = ci_ignored(missing(type), missing(times), missing(threads)),
    n_bins_given = !missing(n_bins), call = call,
    max_rejection = max_rejection, coverage_range = coverage_range,
    rule = rule, tpr = tpr, span = span, eps = eps,
    smoother = smoother, span_given = !missing(span),
    more = list(definition = definition, p = p, threshold = threshold)
  )
  if (is.null(long)) res else compare_long_names(res, long)
}

# The work of compare_scores() on the captured column selections `quos`
# (scores, loss, correct, case_weights, strata, cluster); `call` is the
# function the user called (compare_scores() or selective_power());
# `groups` those of `data` (data_groups()) unless given.
compare_scores_run <- function(data, quos, metric, method, p_adjust,
                               conf_level, type, times, indices, estimator,
                               augrc_method, optimum, coverage, risk, n_bins,
                               binning, na_rm, threads, ignored, n_bins_given,
                               call, max_rejection = 1,
                               coverage_range = NULL, rule = "tie_closed",
                               tpr = 0.95, span = 0.75, eps = 1e-8,
                               groups = NULL, smoother = "loess",
                               span_given = FALSE, more = list()) {
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
    ignored = ignored,
    calibration = c(list(binning = binning, n_bins_given = n_bins_given,
      span = span, eps = eps, smoother = smoother, span_given = span_given
    ), more),
    call = call, max_rejection = max_rejection,
    coverage_range = coverage_range, rule = rule, tpr = tpr,
    metrics_arg = "metric"
  )
  p_adjust <- check_choice(p_adjust, stats::p.adjust.methods, call = call)
  check_bool(na_rm, call = call)
  check_local_data(data, call)
  cols <- select_score_columns(data, quos$scores, call)
  if (is.null(quos$truth)) quos$truth <- rlang::quo(NULL)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos[c("case_weights", "strata", "cluster", "truth")],
    c("case_weights", "strata", "cluster", "truth")
  )
  values$truth <- ci_check_truth(spec, values$truth, call)
  spec$importance <- weights_kind(values$case_weights) == "importance"
  for (col in cols) check_numeric_vector(data[[col]], col, call = call)
  losses <- compare_losses(data, spec, cols, quos$loss, quos$correct,
    quality_quo = quos$quality %||% rlang::quo(NULL),
    values$case_weights, call
  )
  # the quality as given (one column for every score), for the LLM
  # metrics (R/ci-llm-regression.R)
  values$quality <- ci_kept_quality(spec, losses$quality)
  groups <- groups %||% data_groups(data)
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    v$losses <- lapply(losses$values, function(x) x[rows])
    s <- lapply(cols, function(col) data[[col]][rows])
    res <- compare_group(spec, s, cols, v, indices, na_rm, p_adjust, call)
    if (!is.null(groups$keys)) {
      for (nm in c("tests", "estimates")) {
        key <- groups$keys[rep(g, nrow(res[[nm]])), , drop = FALSE]
        res[[nm]] <- tibble::as_tibble(c(key, res[[nm]]))
      }
    }
    res
  })
  warn_if_rough_test(spec$metrics, call) # R/ci-llm-regression.R
  new_aurc_comparison(
    tests = do.call(rbind, lapply(parts, `[[`, "tests")),
    estimates = do.call(rbind, lapply(parts, `[[`, "estimates")),
    settings = list(
      metric = spec$metrics, estimator = spec$labels,
      method = spec$ci_method, type = spec$type, times = spec$times,
      conf_level = spec$conf_level, p_adjust = p_adjust, scores = cols,
      losses = losses$names,
      n = vapply(parts, `[[`, numeric(1), "n"),
      n_failures = vapply(parts, `[[`, numeric(1), "n_failures"),
      strata = !is.null(values$strata), cluster = !is.null(values$cluster),
      groups = names(groups$keys)
    )
  )
}

# Column names selected by `scores`: c(a, b), a:b, or a character vector.
select_score_columns <- function(data, quo, call, arg = "scores", min = 2) {
  pos <- stats::setNames(as.list(seq_along(data)), names(data))
  idx <- tryCatch(
    rlang::eval_tidy(quo, pos),
    error = function(e) {
      abort_aurc(
        "Can't select {.arg {arg}} in {.arg data}.",
        parent = e, class = "aurc_error_column", call = call
      )
    }
  )
  if (is.character(idx)) {
    bad <- setdiff(idx, names(data))
    if (length(bad) > 0) {
      abort_aurc(
        "{.arg {arg}} must name columns of {.arg data}; unknown:
         {.val {bad}}.",
        class = "aurc_error_column", call = call
      )
    }
    cols <- idx
  } else {
    # (NA or NaN, as `scores = NA_real_`, failed in all() before)
    bad <- if (is.numeric(idx)) {
      which(is.na(idx) | idx < 1 | idx > length(data) | idx != round(idx))
    }
    if (!is.numeric(idx) || length(bad) > 0) {
      abort_aurc(
        c(
          paste(
            "{.arg {arg}} must select columns of {.arg data}: unquoted",
            "names, a character vector or column numbers from 1 to",
            "{length(data)}."
          ),
          x = if (is.numeric(idx)) {
            "Element {bad[1]} is {.val {idx[bad[1]]}}."
          } else {
            "It is {.obj_type_friendly {idx}}."
          }
        ),
        class = "aurc_error_column", call = call
      )
    }
    cols <- names(data)[idx]
  }
  cols <- unique(cols)
  if (length(cols) < min) {
    abort_aurc(
      c(
        "{.arg {arg}} must select at least {min} column{?s}.",
        x = "It selects {length(cols)}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  cols
}

# The loss of every score: one column (or `correct =`, `quality =`) for
# all, or one per score (models compared on the same cases, each with its
# own loss). Returns the loss vectors (one, or one per score) and their
# names.
compare_losses <- function(data, spec, cols, loss_quo, correct_quo,
                           case_weights, call,
                           quality_quo = rlang::quo(NULL)) {
  quos <- list(loss = loss_quo, correct = correct_quo, quality = quality_quo)
  given <- !vapply(quos, rlang::quo_is_null, logical(1))
  several <- given & vapply(quos, loss_is_selection, logical(1), data)
  if (any(several)) {
    if (sum(given) > 1) {
      abort_aurc(
        "Give one of {.arg loss}, {.arg correct} and {.arg quality}.",
        class = "aurc_error_value", call = call
      )
    }
    arg <- names(quos)[several]
    names <- select_score_columns(data, quos[[arg]], call,
      arg = arg, min = 1
    )
    if (!length(names) %in% c(1L, length(cols))) {
      abort_aurc(
        c(
          "{.arg {arg}} must select one column or one per score.",
          x = "It selects {length(names)} for {length(cols)} scores."
        ),
        class = "aurc_error_value", call = call
      )
    }
    # (each checked and turned into a loss as a single column is, with
    # the warnings of its own score)
    values <- lapply(seq_along(names), function(j) {
      x <- data[[names[j]]]
      ci_loss(spec, data[[cols[j]]],
        loss = if (arg == "loss") x,
        correct = if (arg == "correct") x,
        case_weights = case_weights, call = call,
        quality = if (arg == "quality") x
      )
    })
    if (arg != "loss") names <- paste("1 -", names)
    return(list(values = values, names = names))
  }
  loss <- eval_column(data, loss_quo, "loss", call = call)
  correct <- eval_column(data, correct_quo, "correct", call = call)
  quality <- eval_column(data, quality_quo, "quality", call = call)
  label <- if (!is.null(correct)) {
    paste("1 -", rlang::as_label(correct_quo))
  } else if (!is.null(quality)) {
    paste("1 -", rlang::as_label(quality_quo))
  } else {
    rlang::as_label(loss_quo)
  }
  loss <- ci_loss(spec, data[[cols[1]]], loss, correct, case_weights, call,
    quality = quality
  )
  list(values = list(loss), names = label, quality = quality)
}

# Whether `loss` selects several columns: c(a, b), a:b, or a character
# vector of more than one name.
loss_is_selection <- function(quo, data) {
  expr <- rlang::quo_get_expr(quo)
  if (rlang::is_call(expr, c("c", ":"))) return(TRUE)
  is.character(expr) && length(expr) > 1
}

# One group: the estimates of every score and the tests of every pair.
# `v$losses`: one loss for all scores or one per score.
compare_group <- function(spec, scores, cols, v, indices, na_rm, p_adjust,
                          call) {
  n_scores <- length(scores)
  pairs <- utils::combn(n_scores, 2)
  na_result <- function(n_cases, n_failures) {
    est <- rep(NA_real_, n_scores)
    na <- rep(NA_real_, ncol(pairs))
    compare_tables(cols, pairs, est, est, est, est, na, na, na, na, na,
      p_adjust, n_cases, n_failures
    )
  }
  losses <- v$losses
  missing_any <- Reduce(`|`, lapply(c(scores, losses), is.na))
  if (any(missing_any)) {
    if (!na_rm) return(na_result(NA_real_, NA_real_))
    keep <- !missing_any
    scores <- lapply(scores, function(s) s[keep])
    losses <- lapply(losses, function(l) l[keep])
    v <- lapply(v, function(x) if (is.null(x) || is.list(x)) x else x[keep])
  }
  loss_of <- function(j) losses[[min(j, length(losses))]]
  # losses near the largest double (R/weights-scale.R): the comparison of
  # the losses times 2^-e, scaled back (p-values do not change)
  e <- loss_scale_exponent(unlist(losses, use.names = FALSE))
  if (e != 0) {
    v$losses <- lapply(losses, times_pow2, -e)
    if (!is.null(spec$risk)) spec$risk <- times_pow2(spec$risk, -e)
    out <- compare_group(spec, scores, cols, v, indices, na_rm, p_adjust,
      call
    )
    back <- function(df, columns) {
      x <- unscale_loss_values(as.numeric(as.matrix(df[columns])),
        rep(spec$metrics, length(columns) * nrow(df)), e, call,
        options = ci_options(spec)
      )
      df[columns] <- as.data.frame(matrix(x, ncol = length(columns)))
      df
    }
    out$tests <- back(out$tests, c(
      "estimate_a", "estimate_b", "difference", "lower", "upper", "std_error"
    ))
    out$estimates <- back(out$estimates, c("estimate", "lower", "upper",
      "std_error"))
    return(out)
  }
  # a loss shared by every score is checked once (its 0/1 check is an O(n)
  # pass of R)
  spec_checked <- spec
  spec_checked$binary <- FALSE
  inputs <- lapply(seq_len(n_scores), function(j) {
    ci_input(if (j > 1 && length(losses) == 1) spec_checked else spec,
      scores[[j]], loss_of(j), v$case_weights, v$strata, v$cluster, na_rm,
      call,
      truth = v$truth, quality = v$quality
    )
  })
  if (any(vapply(inputs, is.null, logical(1)))) {
    return(na_result(NA_real_, NA_real_))
  }
  input <- inputs[[1]]
  w <- input$case_weights
  # a metric that counts cases on weights totalling less than one case
  # (R/weights-scale.R): NA with a classed warning
  count <- any(ci_count_metrics(spec))
  if (count && !is.null(w) &&
    scale_group_weights(w, count = TRUE)$too_few) {
    warn_ci_scale(spec$metrics, call)
    return(na_result(NA_real_, NA_real_))
  }
  # (importance weights: the cases observed; frequency weights: the cases
  # they stand for)
  n_cases <- if (is.null(w)) {
    length(input$loss)
  } else if (isTRUE(input$importance)) {
    sum(w > 0)
  } else {
    sum(w)
  }
  l_in <- lapply(inputs, `[[`, "loss")
  shared <- all(vapply(l_in, identical, logical(1), l_in[[1]]))
  # (binary metrics have checked their 0/1 loss already)
  n_failures <- if (shared && (spec$binary ||
    all(input$loss == 0 | input$loss == 1))) {
    sum(if (is.null(w)) input$loss else w * input$loss)
  } else {
    NA_real_
  }
  s_list <- lapply(inputs, `[[`, "score")
  # weights at any scale, as in selective_ci(): computed on weights
  # scaled by a power of 2 (as counts for the metrics that count cases),
  # the standard errors scaled back; the bootstrap draws the rows the
  # weights given stand for
  scale <- 1
  if (!is.null(w)) {
    sc <- scale_group_weights(w, count = count)
    w <- sc$w
    scale <- times_pow2(1, -sc$exponent)
  }
  # the data-driven bins (adaptive, equal-mass) of each score
  edges <- lapply(seq_len(n_scores), function(j) {
    ci_bin_edges(spec, s_list[[j]], l_in[[j]], w, call)
  })
  if (!is.null(edges[[1]])) spec$edges <- edges
  z <- stats::qnorm((1 + spec$conf_level) / 2)
  if (spec$ci_method == "bootstrap") {
    res <- ci_bootstrap_rows(spec, input, indices, call,
      scores = stats::setNames(s_list, cols),
      losses = if (shared) NULL else l_in
    )
    est <- as.numeric(res$estimate[, 1])
    d <- as.data.frame(res$diff)
    d <- d[d$metric == spec$metrics, , drop = FALSE]
    row <- match(
      paste(cols[pairs[1, ]], cols[pairs[2, ]], sep = "\r"),
      paste(d$score_a, d$score_b, sep = "\r")
    )
    diff <- est[pairs[1, ]] - est[pairs[2, ]]
    se_d <- d$std_error[row]
    p <- d$p_value[row]
    same <- compare_identical(s_list, l_in, pairs)
    p[same] <- 1
    return(compare_tables(cols, pairs, est, as.numeric(res$lower[, 1]),
      as.numeric(res$upper[, 1]), as.numeric(res$std_error[, 1]), diff,
      d$lower[row], d$upper[row], se_d, p, p_adjust, n_cases,
      n_failures,
      statistic = ifelse(same, 0, diff / se_d)
    ))
  }
  res <- lapply(seq_len(n_scores), function(j) {
    opt <- ci_options(spec)
    opt$edges <- edges[[j]]
    opt$truth <- input$truth
    opt$quality <- input$quality
    opt$call <- call
    metric_influence_many(s_list[[j]], l_in[[j]], w, spec$metrics, opt)
  })
  est <- vapply(res, function(r) unname(r$estimate[1]), numeric(1))
  if (anyNA(est)) {
    ci_undefined(spec$metrics, est[is.na(est)][1], call)
    return(na_result(n_cases, n_failures))
  }
  # DeLong: the failure AUROC's variance is stratified by the failure
  # label; for two models with their own losses the labels differ, and the
  # difference is not stratified (the class counts vary with the cases)
  strata_of <- function(j) {
    if (!is.null(input$strata) || isTRUE(input$importance) ||
      !spec$metrics %in% c("failure_auroc", "quality_auroc")) {
      return(input$strata)
    }
    if (is.null(j)) return(NULL)
    # (the AUROC of a thresholded quality: its failures, R/ci-llm-regression.R)
    if (spec$metrics == "quality_auroc") {
      return(quality_failures(l_in[[j]], input$quality, spec$threshold))
    }
    l_in[[j]]
  }
  se_of <- function(x, strata) {
    if (isTRUE(input$importance)) {
      return(influence_std_error(x, w, strata, input$cluster,
        importance = TRUE
      ))
    }
    if (scale != 1) {
      return(influence_std_error(x, w, strata, input$cluster, scale = scale))
    }
    if (is.null(strata) && is.null(input$cluster)) {
      ww <- if (is.null(w)) 1 else w
      return(sqrt(sum(ww * x^2) * n_cases / (n_cases - 1)) / n_cases)
    }
    # DeLong's two classes without user strata or clusters: one C++ pass
    if (is.null(input$strata) && is.null(input$cluster)) {
      return(influence_se_impl(x, if (is.null(w)) double() else
        as.double(w), as.double(strata)))
    }
    influence_std_error(x, w, strata, input$cluster)
  }
  se <- vapply(seq_len(n_scores), function(j) {
    se_of(res[[j]]$influence[, 1], strata_of(j))
  }, numeric(1))
  diff <- est[pairs[1, ]] - est[pairs[2, ]]
  se_d <- vapply(seq_len(ncol(pairs)), function(k) {
    a <- pairs[1, k]
    b <- pairs[2, k]
    same_labels <- identical(l_in[[a]], l_in[[b]])
    se_of(
      res[[a]]$influence[, 1] - res[[b]]$influence[, 1],
      strata_of(if (same_labels) a else NULL)
    )
  }, numeric(1))
  if (any(is.na(c(se, se_d)))) {
    # (e.g. weights standing for fewer than two cases)
    warn_aurc(
      c(
        paste(
          "No analytic standard error here; the intervals and tests are",
          "{.val {NA}}."
        ),
        i = "There are fewer than two cases (or clusters) to estimate it from."
      ),
      class = "aurc_warning_no_interval", call = call
    )
  }
  stat <- diff / se_d
  # identical inputs: no difference, p = 1 (as pROC::roc.test)
  same <- compare_identical(s_list, l_in, pairs) | (diff == 0 & se_d == 0)
  stat[same] <- 0
  p <- 2 * stats::pnorm(-abs(stat))
  compare_tables(cols, pairs, est, est - z * se, est + z * se, se, diff,
    diff - z * se_d, diff + z * se_d, se_d, p, p_adjust, n_cases, n_failures,
    statistic = stat
  )
}

# Pairs whose scores and losses are identical.
compare_identical <- function(scores, losses, pairs) {
  loss_of <- function(j) losses[[min(j, length(losses))]]
  vapply(seq_len(ncol(pairs)), function(k) {
    a <- pairs[1, k]
    b <- pairs[2, k]
    identical(scores[[a]], scores[[b]]) && identical(loss_of(a), loss_of(b))
  }, logical(1))
}

compare_tables <- function(cols, pairs, est, lower, upper, se, diff, d_lower,
                           d_upper, se_d, p, p_adjust, n_cases, n_failures,
                           statistic = diff / se_d) {
  p_adj <- if (all(is.na(p))) p else stats::p.adjust(p, method = p_adjust)
  list(
    tests = tibble::tibble(
      score_a = cols[pairs[1, ]], score_b = cols[pairs[2, ]],
      estimate_a = est[pairs[1, ]], estimate_b = est[pairs[2, ]],
      difference = diff, lower = d_lower, upper = d_upper,
      std_error = se_d, statistic = statistic, p_value = p,
      p_adjusted = p_adj
    ),
    estimates = tibble::tibble(
      score = cols, estimate = est, lower = lower, upper = upper,
      std_error = se
    ),
    n = n_cases, n_failures = n_failures
  )
}

new_aurc_comparison <- function(tests, estimates, settings) {
  structure(
    list(tests = tests, estimates = estimates, settings = settings),
    class = "aurc_comparison"
  )
}

comparison_method_text <- function(s) {
  if (s$method == "analytic") {
    extra <- if (s$metric == "failure_auroc") "; DeLong's test" else ""
    design <- if (s$cluster) {
      ", cluster-robust"
    } else if (s$strata) {
      ", stratified"
    } else {
      ""
    }
    paste0("analytic (influence functions", extra, design, ")")
  } else {
    sprintf(
      "bootstrap (%s, %d %sreplicates, the same draws for every score)",
      s$type, as.integer(s$times), if (s$strata) "stratified " else ""
    )
  }
}

#' @export
print.aurc_comparison <- function(x, digits = 4, ...) {
  s <- x$settings
  label <- metric_label(s$metric)
  cat("\n\tPaired comparison of", length(s$scores), "confidence scores\n\n")
  n_txt <- paste(format(unique(s$n)), collapse = "/")
  fail_txt <- if (all(is.na(s$n_failures))) {
    ""
  } else {
    sprintf(" (%s failures)", paste(format(unique(s$n_failures)),
      collapse = "/"
    ))
  }
  cat(sprintf("data:  %s of %s on the same %s cases%s\n", label,
    paste(s$scores, collapse = ", "), n_txt, fail_txt
  ))
  if (length(s$losses) > 1) {
    cat(sprintf("losses:  one per score: %s\n",
      paste(s$losses, collapse = ", ")
    ))
  }
  cat(sprintf("metric:  %s, estimator %s\n", s$metric, s$estimator))
  cat(sprintf("method:  %s\n", comparison_method_text(s)))
  cat(sprintf(
    "alternative hypothesis: true difference in %s is not equal to 0\n",
    label
  ))
  n_pairs <- length(s$scores) * (length(s$scores) - 1) / 2
  cat(sprintf(
    "p-values adjusted over %d pair%s: %s\n", n_pairs,
    if (n_pairs == 1) "" else "s", adjust_label(s$p_adjust)
  ))
  lev <- paste0(format(100 * s$conf_level), "%")
  cat(sprintf("\nestimates (%s CI):\n", lev))
  est <- as.data.frame(x$estimates)
  print(est, digits = digits, row.names = FALSE)
  cat(sprintf("\ndifferences a - b (%s CI):\n", lev))
  tab <- as.data.frame(x$tests)
  tab$estimate_a <- NULL
  tab$estimate_b <- NULL
  print(tab, digits = digits, row.names = FALSE)
  invisible(x)
}

# The metric's title in the catalog (R/metric-catalog.R).
metric_label <- function(metric) metric_entry(metric)$title

#' Plot a paired comparison of confidence scores
#'
#' One line per pair of scores: the difference of the metric (score a minus
#' score b) with its confidence interval and a dashed line at no difference;
#' the adjusted p-value is printed under each pair's name. Grouped
#' comparisons get one panel per group.
#'
#' @param object An `aurc_comparison` from [compare_scores()].
#' @param ... Not used; must be empty.
#' @return A ggplot object.
#' @examples
#' set.seed(2)
#' n <- 500
#' latent <- rnorm(n)
#' df <- data.frame(
#'   failure = rbinom(n, 1, plogis(-1 - 1.5 * latent)),
#'   good = latent + rnorm(n, sd = 0.5), poor = latent + rnorm(n, sd = 1.5)
#' )
#' autoplot(compare_scores(df, c(good, poor), failure))
#' @export
autoplot.aurc_comparison <- function(object, ...) {
  check_dots(...)
  s <- object$settings
  tab <- as.data.frame(object$tests)
  pv <- vapply(tab$p_adjusted, format.pval, character(1),
    digits = 2, eps = 1e-4
  )
  p_text <- ifelse(
    is.na(tab$p_adjusted), "p = NA",
    ifelse(startsWith(pv, "<"), paste("p <", substring(pv, 2)),
      paste("p =", pv)
    )
  )
  tab$pair <- paste0(tab$score_a, " - ", tab$score_b, "\n(", p_text, ")")
  key <- paste(tab$score_a, tab$score_b)
  rank <- match(key, unique(key))
  tab$pair <- factor(tab$pair, levels = unique(tab$pair[order(-rank)]))
  label <- metric_label(s$metric)
  better <- if (metric_direction(s$metric) == "maximize") {
    "higher is better: a positive difference favours the first score"
  } else {
    "lower is better: a negative difference favours the first score"
  }
  lev <- paste0(format(100 * s$conf_level), "%")
  method <- if (s$method == "analytic") "analytic" else
    paste(s$type, "bootstrap")
  p <- ggplot2::ggplot(tab, ggplot2::aes(
    x = .data$difference, y = .data$pair,
    xmin = .data$lower, xmax = .data$upper
  )) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed",
      colour = "grey40"
    ) +
    ggplot2::geom_errorbar(width = 0.2, orientation = "y") +
    ggplot2::geom_point(size = 2) +
    ggplot2::labs(
      x = sprintf("Difference in %s (first minus second score)", label),
      y = NULL,
      title = sprintf("Paired differences in %s", label),
      subtitle = sprintf(
        "%s intervals (%s); p-values adjusted: %s", lev, method,
        s$p_adjust
      ),
      caption = paste0(label, ": ", better)
    ) +
    ggplot2::theme_bw()
  if (length(s$groups)) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(!!!rlang::syms(s$groups)),
      labeller = ggplot2::label_both, scales = "free_y"
    )
  }
  p
}

