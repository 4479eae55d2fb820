# Bootstrap ranking (DEFINITIONS Sec. 7): ranks per replicate, their
# aggregation,
# the one-sided signed-rank tests with their adjustment, and the
# aurc_ranking object.

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
  if (is.null(full)) {
    full <- rep(NA_real_, n_methods)
  } else if (any(is.nan(full) | is.na(full))) {
    # undefined on the data itself (one class, a constant loss): NA, said
    full[is.nan(full)] <- NA_real_
    warn_aurc(
      c(
        "Metric {.val {metric}} is undefined on the full data of
         {.val {methods[is.na(full)]}}; its {.field full_value} is
         {.val {NA}}.",
        i = why
      ),
      class = "aurc_warning_ranking_missing"
    )
  }
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

# Why a metric can be missing in a replicate (the hint of the warning),
# from the registry's `undefined`.
missing_hint <- function(kernel_id) {
  undefined <- if (rlang::is_string(kernel_id) &&
    kernel_id %in% metric_catalog_names()) {
    metric_entry(kernel_id)$undefined
  } else {
    "one_class"
  }
  if (identical(undefined, "ratio")) {
    paste(
      metric_entry(kernel_id)$title,
      "is missing when every loss of a replicate is the same."
    )
  } else if (identical(undefined, "one_class")) {
    "A binary metric is missing when a replicate holds only one class."
  } else {
    "A metric is missing when a replicate leaves it undefined."
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
  adjusted <- adjust_family(p, opts$p_adjust)
  out <- tibble::tibble(
    metric = metric, method = methods[i], versus = methods[j],
    statistic = res$statistic, p_value = p, p_adjusted = adjusted,
    significant = adjusted <= opts$alpha
  )
  out[order(position[i], position[j]), ]
}

# The adjusted p-values of one family (one metric of one group).
adjust_family <- function(p, method) {
  switch(method,
    holm = holm_impl(p),
    none = p,
    stats::p.adjust(p, method = method)
  )
}

#' Adjust the p-values of a ranking for multiple testing again
#'
#' Recomputes the adjusted p-values and the significance of every pairwise
#' test of a ranking with another correction or significance level, from
#' the raw p-values it keeps; the replicates and the tests are not redone.
#' The family of a correction is, as in [bootstrap_ranking()], the K(K-1)
#' ordered pairs of the K methods under one metric (and one group). With
#' `p_adjust = "none"` each test is judged on its own at level `alpha`, the
#' significance maps of Traub et al. (2024, Fig. 7); the default, Holm's
#' correction, gives those of their Fig. 3.
#'
#' @param x An `aurc_ranking` ([bootstrap_ranking()] or
#'   [rank_replicates()]).
#' @param ... Not used; must be empty.
#' @param p_adjust `"holm"` (default), any method of [stats::p.adjust()],
#'   or `"none"`.
#' @param alpha Significance level: a test is significant when its adjusted
#'   p-value is at most `alpha`.
#' @return `x` with the columns `p_adjusted` and `significant` of
#'   `x$tests` recomputed and the settings `p_adjust` and `alpha` replaced
#'   (so `print()`, `summary()` and [autoplot()][autoplot.aurc_ranking]
#'   report the new correction). `p_adjusted` equals
#'   `stats::p.adjust(p_value, p_adjust)` within each metric (and group).
#' @seealso [autoplot()][autoplot.aurc_ranking], whose arguments `p_adjust`
#'   and `alpha` call this function.
#' @examples
#' set.seed(4)
#' values <- cbind(a = rnorm(60, 0.100, 0.01), b = rnorm(60, 0.103, 0.01),
#'                 c = rnorm(60, 0.106, 0.01))
#' rk <- rank_replicates(values, metric = "aurc")
#' rk$tests
#' adjust_p_values(rk, p_adjust = "none")$tests
#' @export
adjust_p_values <- function(x, ..., p_adjust = "holm", alpha = 0.05) {
  check_dots(...)
  call <- rlang::current_env()
  if (!inherits(x, "aurc_ranking")) {
    abort_aurc(
      c(
        "{.arg x} must be a ranking (class {.cls aurc_ranking}).",
        x = "It is {.obj_type_friendly {x}}.",
        i = "Make one with {.fn bootstrap_ranking} or
             {.fn rank_replicates}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  readjust_ranking(x, p_adjust, alpha, call = call)
}

# adjust_p_values() without the check of `x`; errors name `call`.
readjust_ranking <- function(x, p_adjust, alpha, call) {
  opts <- ranking_options(
    x$settings$ties, x$settings$correct, p_adjust, alpha, call = call
  )
  tests <- x$tests
  family <- row_key(tests, c("group", "metric"))
  adjusted <- tests$p_value
  for (f in unique(family)) {
    rows <- which(family == f)
    adjusted[rows] <- adjust_family(tests$p_value[rows], opts$p_adjust)
  }
  tests$p_adjusted <- adjusted
  tests$significant <- adjusted <= opts$alpha
  x$tests <- tests
  x$settings$p_adjust <- opts$p_adjust
  x$settings$alpha <- opts$alpha
  x
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
