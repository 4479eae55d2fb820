#' Paired comparison of the selective-curve areas of several scores
#'
#' Is one confidence score better than another for a metric that is not a
#' mean of a per-row loss (balanced accuracy, F1, MCC, AUROC, or a function
#' of your own)? For two or more score columns on the same rows,
#' `compare_selective_curves()` estimates the area of each score's
#' selective curve ([selective_curve()]) and, for every pair, the
#' difference with a bootstrap interval and a two-sided p-value, adjusted
#' over the pairs; the columns of the result are those of
#' [compare_scores()].
#'
#' @section Definition:
#' Every replicate is one vector of case counts, the same for every score
#' (drawn as [selective_curve_ci()] draws them, from the first score's
#' rows), so the difference `area(a) - area(b)` of a replicate is paired
#' and its spread takes the correlation of the two scores into account.
#' The interval of the difference is of the chosen `type`, and the p-value
#' is its inversion, as for `compare_scores(method = "bootstrap")`:
#' percentile `min(1, 2 min(1 + #(d <= 0), 1 + #(d >= 0)) / (B + 1))`,
#' basic the same with the replicates reflected around the estimate,
#' normal `2 pnorm(-|estimate| / sd(d))`, BCa its own inversion (see
#' [selective_ci()]). `statistic` is `difference / std_error`. Two
#' identical scores give a difference of 0 with `p = 1`.
#'
#' The oracle depends on `truth`, `estimate` and `oracle_loss` only, the
#' same for every score: the difference of two scores' excesses is the
#' difference of their areas (with the sign of the metric's direction), so
#' the areas alone are compared.
#'
#' @inheritParams selective_curve_ci
#' @inheritParams compare_scores
#' @param scores Two or more score columns: unquoted names combined with
#'   `c()`, a range, or a character vector of column names.
#' @param na_rm If `TRUE`, rows with a missing value in any score or any
#'   other column are dropped (every score is evaluated on the same rows);
#'   else a missing value is an error.
#' @return An object of class `aurc_curve_comparison`: a list with `tests`
#'   (one row per pair: grouping columns, `score_a`, `score_b`,
#'   `estimate_a`, `estimate_b`, `difference` (a - b), `lower`, `upper`,
#'   `std_error`, `statistic`, `p_value`, `p_adjusted`), `estimates` (one
#'   row per score: `score`, `estimate` (the area), `lower`, `upper`,
#'   `std_error`) and `settings`. It has a `print()` method.
#' @seealso [selective_curve_ci()], [compare_scores()] for the metrics of
#'   the registry.
#' @examples
#' set.seed(3)
#' n <- 400
#' truth <- factor(sample(c("a", "b"), n, TRUE))
#' skill <- runif(n)
#' right <- runif(n) < 0.5 + 0.45 * skill
#' df <- data.frame(
#'   truth = truth,
#'   estimate = factor(ifelse(right, as.character(truth),
#'     ifelse(truth == "a", "b", "a")
#'   ), levels = c("a", "b")),
#'   good = skill + rnorm(n, sd = 0.1),
#'   poor = skill + rnorm(n, sd = 0.5)
#' )
#' compare_selective_curves(df, c(good, poor), truth, estimate,
#'   metric = "f1", min_coverage = 0.1, times = 200
#' )
#' @export
compare_selective_curves <- function(data, scores, truth, estimate = NULL,
                                     ..., metric = "accuracy",
                                     oracle_loss = NULL, direction = NULL,
                                     min_coverage = 0, p_adjust = "holm",
                                     type = "percentile", conf_level = 0.95,
                                     times = 2000, strata = NULL,
                                     cluster = NULL, indices = NULL,
                                     na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  check_data_frame(data, call = call)
  set <- curve_ci_settings(metric, direction, min_coverage, type,
    conf_level, times, na_rm, call
  )
  p_adjust <- check_choice(p_adjust, stats::p.adjust.methods, call = call)
  cols <- select_score_columns(data, rlang::enquo(scores), call)
  quos <- list(
    truth = rlang::enquo(truth), estimate = rlang::enquo(estimate),
    oracle_loss = rlang::enquo(oracle_loss),
    case_weights = rlang::enquo(case_weights),
    strata = rlang::enquo(strata), cluster = rlang::enquo(cluster)
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  for (col in cols) check_numeric_vector(data[[col]], col, call = call)
  groups <- data_groups(data)
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    s <- lapply(cols, function(col) data[[col]][rows])
    res <- compare_curves_group(s, cols, v, set, indices, p_adjust, call)
    if (!is.null(groups$keys)) {
      for (nm in c("tests", "estimates")) {
        key <- groups$keys[rep(g, nrow(res[[nm]])), , drop = FALSE]
        res[[nm]] <- tibble::as_tibble(c(key, res[[nm]]))
      }
    }
    res
  })
  structure(
    list(
      tests = do.call(rbind, lapply(parts, `[[`, "tests")),
      estimates = do.call(rbind, lapply(parts, `[[`, "estimates")),
      settings = list(
        metric = if (is.function(metric)) "user" else metric,
        min_coverage = set$min_coverage, type = set$type,
        times = parts[[1]]$times, conf_level = set$conf_level,
        p_adjust = p_adjust, scores = cols,
        n = vapply(parts, `[[`, numeric(1), "n"),
        strata = !is.null(values$strata), cluster = !is.null(values$cluster),
        groups = names(groups$keys)
      )
    ),
    class = "aurc_curve_comparison"
  )
}

# One group: the same rows for every score (a row missing in any score is
# missing for all), the same count vectors, then the tables.
compare_curves_group <- function(s, cols, v, set, indices, p_adjust, call) {
  complete <- Reduce(`&`, lapply(s, function(x) !is.na(x)),
    curve_complete_rows(c(list(score = s[[1]]), v))
  )
  if (!all(complete) && set$na_rm) {
    s <- lapply(s, function(x) x[complete])
    v <- lapply(v, function(x) if (is.null(x)) NULL else x[complete])
    complete <- rep(TRUE, length(s[[1]]))
  }
  ds <- lapply(s, function(score) {
    curve_boot_data(c(list(score = score), v), set, call, complete)
  })
  res <- curve_boot_run(ds, ds[[1]], set, indices, call)
  est <- res$estimate[, 1]
  reps <- matrix(res$replicates[, , 1], ncol = length(ds))
  lv_of <- function(j) if (set$type == "bca") res$influence[[j]][[1]]
  ivs <- lapply(seq_along(ds), function(j) {
    if (!is.na(est[j])) {
      ci_warn_undefined_replicates(reps[, j], cols[j], set$spec$name, call)
    }
    ci_interval(reps[, j], est[j], set$type, set$conf_level, lv_of(j), call)
  })
  pairs <- utils::combn(length(ds), 2)
  diffs <- lapply(seq_len(ncol(pairs)), function(k) {
    a <- pairs[1, k]
    b <- pairs[2, k]
    d <- reps[, a] - reps[, b]
    d0 <- est[a] - est[b]
    lv <- if (set$type == "bca") {
      list(L = lv_of(a)$L - lv_of(b)$L, w = lv_of(a)$w)
    }
    iv <- suppressWarnings(
      ci_interval(d, d0, set$type, set$conf_level, lv, call)
    )
    same <- identical(s[[a]], s[[b]])
    p <- if (same) 1 else ci_p_value(d, d0, set$type, iv)
    c(iv, p_value = p, same = same)
  })
  pick <- function(x, what) vapply(x, `[[`, 1, what)
  if (res$no_rows) {
    ivs <- lapply(ivs, function(iv) {
      iv[c("lower", "upper", "std_error")] <- NA_real_
      iv
    })
    diffs <- lapply(diffs, function(iv) {
      iv[c("lower", "upper", "std_error", "p_value")] <- NA_real_
      iv
    })
  }
  diff <- est[pairs[1, ]] - est[pairs[2, ]]
  se_d <- pick(diffs, "std_error")
  same <- pick(diffs, "same") == 1
  out <- compare_tables(cols, pairs, est, pick(ivs, "lower"),
    pick(ivs, "upper"), pick(ivs, "std_error"), diff, pick(diffs, "lower"),
    pick(diffs, "upper"), se_d, pick(diffs, "p_value"), p_adjust,
    n_cases = sum(ds[[1]]$w), n_failures = NA_real_,
    statistic = ifelse(same, 0, diff / se_d)
  )
  out$times <- dim(res$replicates)[1]
  out
}

#' @export
print.aurc_curve_comparison <- function(x, digits = 4, ...) {
  s <- x$settings
  cat("\n\tPaired comparison of", length(s$scores),
    "selective-curve areas\n\n"
  )
  cat(sprintf("data:  the area of the %s curve of %s on the same %s cases\n",
    s$metric, paste(s$scores, collapse = ", "),
    paste(format(unique(s$n)), collapse = "/")
  ))
  if (s$min_coverage > 0) {
    cat(sprintf("coverage:  from %s to 1\n", format(s$min_coverage)))
  }
  cat(sprintf(
    "method:  bootstrap (%s, %d %sreplicates, the same draws for every %s)\n",
    s$type, as.integer(s$times), if (s$strata) "stratified " else "",
    "score"
  ))
  cat("alternative hypothesis: true difference in area is not equal to 0\n")
  n_pairs <- length(s$scores) * (length(s$scores) - 1) / 2
  cat(sprintf("p-values adjusted over %d pair%s: %s\n", n_pairs,
    if (n_pairs == 1) "" else "s", adjust_label(s$p_adjust)
  ))
  lev <- paste0(format(100 * s$conf_level), "%")
  cat(sprintf("\nareas (%s CI):\n", lev))
  print(as.data.frame(x$estimates), digits = digits, row.names = FALSE)
  cat(sprintf("\ndifferences a - b (%s CI):\n", lev))
  tab <- as.data.frame(x$tests)
  tab$estimate_a <- NULL
  tab$estimate_b <- NULL
  print(tab, digits = digits, row.names = FALSE)
  invisible(x)
}
