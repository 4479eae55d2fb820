# The catalog of every metric: the selective metrics of the registry
# (R/metric-registry.R) and the metrics kept outside it, the balanced ones
# of fd-shifts and the calibration errors. It is the one place that says,
# for every metric, what it reads, in which direction it is better, what an
# undefined value gets, and which forms exist; `metric_info()` shows it to
# users, the forms read it (through the functions below), and
# test-conformance.R checks every cell it claims.
#
# Internal API:
# * metric_entry(name)            the catalog entry of any metric
# * metric_direction(name)        "minimize" or "maximize"
# * warn_metric_undefined(m, call)  the classed warning of an undefined value
# * metric_forms(name)            the forms of one metric (a named logical)

# Entries of the metrics outside the registry. Fields as in the registry
# (new_metric_entry()), with `family`:
#   "balanced"     the loss must be 0/1 and the classes are given (`truth`)
#   "calibration"  the score is a confidence in [0, 1] and the input is the
#                  correctness (1 = right); the engines read the failure
#                  indicator 1 - correct
#   "regression"   the score is a confidence (the negative of an
#                  uncertainty) and the input any non-negative error
#                  (the AUSE, R/metric-ause.R)
#   "llm"          the score is a confidence and the input a quality in
#                  [0, 1] (the LLM metrics, R/metric-llm-*.R); the forms
#                  carry the quality as given (R/ci-llm-regression.R)
# and, for the intervals and comparisons:
#   influence   as in the registry (metric_influence_plan(),
#               R/ci-influence.R): FALSE (bootstrap only), TRUE (the C++
#               influence kernel of the same name), or a function of the
#               options giving the R function that computes it
#   replicate   NULL when the C++ bootstrap engine evaluates the metric on
#               every replicate; else the name of the R kernel of
#               R/ci-bootstrap-r.R ("loess", "logistic") that evaluates it
#               and the other metrics of the same fit on each replicate's
#               counts. `undefined = "own"`: the metric's own function
#               says why a value is NA.
#   binned      TRUE for the binned calibration errors (binning, n_bins)
#   range       the values the metric can take: interval bounds outside it
#               are moved to it (ci_table(); an ECE is never below 0)
#   weights     FALSE when the metric takes no case weights (its vector
#               form has none): the intervals and comparisons refuse
#               weights other than 1 with a classed error
#   forms       the forms beyond the data-frame, vector and interval ones:
#               "selective_metrics" (a column of selective_metrics()),
#               "database" (the data-frame form computes on lazy tables)
new_catalog_entry <- function(name, title, family, direction, input,
                              options = NULL, undefined = "no_data",
                              counts = NULL, influence = FALSE,
                              replicate = NULL, binned = FALSE,
                              forms = character(), range = NULL,
                              weights = TRUE) {
  if (is.null(range)) {
    range <- if (family == "balanced") c(0, 1) else c(0, Inf)
  }
  list(
    name = name, title = title, family = family, direction = direction,
    input = input, options = as.character(options), undefined = undefined,
    counts = counts, influence = influence, replicate = replicate,
    binned = binned, forms = forms, range = range, weights = weights
  )
}

metric_catalog_more <- list(
  aurc_ba = new_catalog_entry("aurc_ba", "balanced AURC", "balanced",
    "minimize", "failure", undefined = "one_class",
    influence = function(o) balanced_influence_of("aurc_ba"),
    forms = "database"
  ),
  augrc_ba = new_catalog_entry("augrc_ba", "balanced AUGRC", "balanced",
    "minimize", "failure", undefined = "one_class",
    influence = function(o) balanced_influence_of("augrc_ba"),
    forms = "database"
  ),
  ece = new_catalog_entry("ece", "expected calibration error (ECE)",
    "calibration", "minimize", "correct",
    options = c("binning", "n_bins"), undefined = "one_class",
    counts = function(o) o$binning %in% c("adaptive", "kumar2019"),
    influence = TRUE, binned = TRUE,
    forms = c("selective_metrics", "database")
  ),
  mce = new_catalog_entry("mce", "maximum calibration error (MCE)",
    "calibration",
    "minimize", "correct", options = c("binning", "n_bins"),
    counts = function(o) o$binning %in% c("adaptive", "kumar2019"),
    binned = TRUE, forms = c("selective_metrics", "database")
  ),
  debiased_l2_ce = new_catalog_entry("debiased_l2_ce",
    "debiased l2 calibration error", "calibration", "minimize", "correct",
    options = c("binning", "n_bins"), counts = TRUE, binned = TRUE
  ),
  smooth_ece = new_catalog_entry("smooth_ece", "smooth ECE", "calibration",
    "minimize", "correct", options = c("sigma", "smooth_method"),
    counts = function(o) identical(o$smooth_method, "relplot")
  ),
  corp_mean_score = new_catalog_entry("corp_mean_score", "CORP mean score",
    "calibration", "minimize", "correct", options = "corp_score"
  ),
  corp_mcb = new_catalog_entry("corp_mcb", "CORP miscalibration (MCB)",
    "calibration", "minimize", "correct", options = "corp_score"
  ),
  corp_dsc = new_catalog_entry("corp_dsc", "CORP discrimination (DSC)",
    "calibration", "maximize", "correct", options = "corp_score"
  ),
  corp_unc = new_catalog_entry("corp_unc", "CORP uncertainty (UNC)",
    "calibration", "minimize", "correct", options = "corp_score"
  ),
  ici = new_catalog_entry("ici", "integrated calibration index (ICI)",
    "calibration", "minimize", "correct", options = c("span", "smoother"),
    undefined = "own", replicate = "loess"
  ),
  e50 = new_catalog_entry("e50", "median calibration error (E50)",
    "calibration", "minimize", "correct", options = c("span", "smoother"),
    counts = TRUE,
    undefined = "own", replicate = "loess"
  ),
  e90 = new_catalog_entry("e90", "90th percentile calibration error (E90)",
    "calibration", "minimize", "correct", options = c("span", "smoother"),
    counts = TRUE,
    undefined = "own", replicate = "loess"
  ),
  emax = new_catalog_entry("emax", "maximum smoothed calibration error (Emax)",
    "calibration", "minimize", "correct", options = c("span", "smoother"),
    undefined = "own", replicate = "loess"
  ),
  calibration_slope = new_catalog_entry("calibration_slope",
    "calibration slope", "calibration", "target_1", "correct",
    options = "eps", undefined = "own", replicate = "logistic",
    influence = function(o) recalibration_influence_of("slope"),
    range = c(-Inf, Inf)
  ),
  calibration_intercept = new_catalog_entry("calibration_intercept",
    "calibration intercept (calibration-in-the-large)", "calibration",
    "target_0", "correct", options = "eps", undefined = "own",
    replicate = "logistic",
    influence = function(o) recalibration_influence_of("intercept"),
    range = c(-Inf, Inf)
  ),
  brier_score = new_catalog_entry("brier_score", "Brier score",
    "calibration", "minimize", "correct", replicate = "proper",
    influence = function(o) proper_score_influence_of("brier_score"),
    range = c(0, 1)
  ),
  scaled_brier_score = new_catalog_entry("scaled_brier_score",
    "scaled Brier score", "calibration", "maximize", "correct",
    undefined = "own", replicate = "proper",
    influence = function(o) proper_score_influence_of("scaled_brier_score"),
    range = c(-Inf, 1)
  ),
  log_loss = new_catalog_entry("log_loss", "log loss", "calibration",
    "minimize", "correct", replicate = "proper",
    influence = function(o) proper_score_influence_of("log_loss")
  ),
  ause = new_catalog_entry("ause", "area under the sparsification error",
    "regression", "minimize", "loss", options = "definition",
    counts = TRUE, undefined = "own", replicate = "regression",
    influence = function(o) ause_influence_of(o$definition %||% "ilg")
  ),
  rank_calibration_error = new_catalog_entry("rank_calibration_error",
    "rank-calibration error", "llm", "minimize", "quality",
    options = c("n_bins", "p"), replicate = "llm", weights = FALSE,
    undefined = "own",
    range = c(0, 1)
  ),
  spearman = new_catalog_entry("spearman",
    "Spearman correlation of confidence and quality", "llm", "maximize",
    "quality", replicate = "llm", weights = FALSE, undefined = "own",
    influence = function(o) llm_influence_of("spearman"),
    range = c(-1, 1)
  ),
  kendall = new_catalog_entry("kendall",
    "Kendall tau-b of confidence and quality", "llm", "maximize",
    "quality", replicate = "llm", weights = FALSE, undefined = "own",
    influence = function(o) llm_influence_of("kendall"),
    range = c(-1, 1)
  ),
  quality_auroc = new_catalog_entry("quality_auroc",
    "AUROC of a thresholded quality", "llm", "maximize", "quality",
    options = "threshold", undefined = "one_class", replicate = "llm",
    influence = function(o) llm_influence_of("quality_auroc"),
    range = c(0, 1)
  ),
  quality_aupr = new_catalog_entry("quality_aupr",
    "AUPR of a thresholded quality (correct outputs positive)", "llm",
    "maximize", "quality", options = "threshold", undefined = "one_class",
    replicate = "llm", range = c(0, 1)
  )
)

# Lists the forms check against, read from the entries.
catalog_names_where <- function(keep) {
  names(Filter(keep, metric_catalog_more))
}

# The metrics of the intervals and comparisons outside the registry: the
# balanced ones (with `truth =`) and the calibration errors (the score is
# the confidence in [0, 1], the loss the 0/1 failure indicator).
ci_balanced_metrics <- catalog_names_where(function(e) {
  e$family == "balanced"
})
ci_calibration_metrics <- catalog_names_where(function(e) {
  e$family == "calibration"
})
# The AUSE and the LLM metrics (R/ci-llm-regression.R): the score is a
# confidence, the input an error or a quality.
ci_regression_llm_metrics <- catalog_names_where(function(e) {
  e$family %in% c("regression", "llm")
})
ci_llm_metrics <- catalog_names_where(function(e) e$family == "llm")
# Without case weights (their vector forms take none).
ci_unweighted_metrics <- catalog_names_where(function(e) isFALSE(e$weights))
# Evaluated in R on each replicate's counts (R/ci-bootstrap-r.R), not by
# the C++ engine.
ci_r_metrics <- catalog_names_where(function(e) !is.null(e$replicate))
# Without an influence function: bootstrap only.
ci_bootstrap_only <- catalog_names_where(function(e) isFALSE(e$influence))
# With bins found on the data or fixed (binning, n_bins).
ci_binned_metrics <- catalog_names_where(function(e) e$binned)
# The calibration errors selective_metrics() takes beside the registry's.
set_calibration_metrics <- catalog_names_where(function(e) {
  "selective_metrics" %in% e$forms
})

# The metrics outside the registry whose data-frame forms compute on lazy
# database tables: the balanced ones (balanced_remote(),
# R/metric-balanced-db.R) and two calibration errors
# (calibration_metric_remote(), R/db-dispatch.R); the others say to
# collect first.
db_more_metrics <- catalog_names_where(function(e) "database" %in% e$forms)

# Whether a metric reads case weights as counts of cases with the options
# `opts` (a list: estimator, optimum, binning, smooth_method, ...): its
# entry's `counts`, NULL (scale-free), TRUE, or a function of the options.
# R/weights-scale.R gives such a metric NA below one case.
metric_counts_cases <- function(name, opts) {
  entry <- metric_registry[[name]] %||% metric_catalog_more[[name]]
  counts <- entry$counts
  if (is.function(counts)) isTRUE(counts(opts)) else isTRUE(counts)
}

metric_catalog_names <- function() {
  c(metric_names(), names(metric_catalog_more))
}

# The entry of any metric of the catalog (a classed internal error for an
# unknown name: callers validate user input first).
metric_entry <- function(name) {
  info <- metric_registry[[name]]
  if (!is.null(info)) return(info)
  info <- metric_catalog_more[[name]]
  if (is.null(info)) {
    abort_aurc("Unknown metric {.val {name}}.", .internal = TRUE)
  }
  info
}

# "minimize" or "maximize": which way is better. The calibration slope and
# intercept have a target (1 and 0) rather than a direction; compared by
# their distance to it they are "minimize".
metric_direction <- function(name) {
  d <- metric_entry(name)$direction
  if (d %in% c("minimize", "maximize")) d else "minimize"
}

# The classed warning of a metric whose value is undefined on the data:
# NAURC and PRR of a constant loss (the ratio's denominator is 0), the
# metrics that need both failures and correct predictions when one class is
# missing, and otherwise "no data". Every form calls this one function, so
# a metric's undefined value reads the same everywhere. `no_data = FALSE`:
# no warning for the metrics whose only undefined case is "no data" (the
# caller has warned about empty groups already).
warn_metric_undefined <- function(metric, call = rlang::caller_env(),
                                  no_data = TRUE) {
  info <- if (metric %in% metric_catalog_names()) metric_entry(metric)
  undefined <- if (is.null(info)) "no_data" else info$undefined
  switch(undefined,
    ratio = warn_ratio_undefined(metric, call = call),
    one_class = warn_one_class(metric, call = call),
    own = NULL, # its own function said why
    if (no_data) warn_no_data(call = call)
  )
  invisible()
}

# The forms one metric has, as the functions that compute them dispatch:
# each cell is read from the list that form itself checks against, so the
# table cannot claim a form the code refuses (test-conformance.R runs
# every TRUE cell and checks that every FALSE one is a classed error).
metric_forms <- function(name) {
  exports <- getNamespaceExports("aurc")
  registry <- name %in% metric_names()
  c(
    vec = paste0(name, "_vec") %in% exports,
    data_frame = name %in% exports,
    prob = paste0(name, "_prob") %in% exports,
    selective_metrics = registry || name %in% set_calibration_metrics,
    analytic_interval = name %in% ci_metrics() &&
      !name %in% c(ci_bootstrap_only, without_influence(name, list())),
    bootstrap_interval = name %in% ci_metrics(),
    compare_scores = name %in% ci_metrics(),
    compare_groups = name %in% ci_metrics(),
    bootstrap_ranking = registry,
    selective_power = name %in% power_metrics,
    database = registry || name %in% db_more_metrics
  )
}

#' What every metric reads, its direction and its forms
#'
#' One row per metric of the package: what its input is, which way is
#' better, the options it takes, and which forms compute it. The table is
#' read from the lists the forms themselves check their `metrics` against,
#' so a form marked `TRUE` accepts the metric and one marked `FALSE` refuses
#' it with a classed error.
#'
#' @param metrics `NULL` (every metric) or a character vector of metric
#'   names.
#' @return A tibble with one row per metric:
#'   * `metric`, `title`;
#'   * `family`: `"selective"` (the registry of [selective_metrics()]),
#'     `"balanced"` (needs the classes, `truth`), `"calibration"` (the
#'     score is a confidence in `[0, 1]`), `"regression"` (the AUSE: the
#'     score is a confidence, the negative of an uncertainty, and the
#'     input an error) or `"llm"` (the score is a confidence, the input a
#'     quality in `[0, 1]`);
#'   * `input`: what the second column is: `"loss"` (any finite
#'     non-negative loss, 0 = none), `"failure"` (a 0/1 loss), `"quality"`
#'     (in `[0, 1]`, higher is better, e.g. an LLM answer's ROUGE) or
#'     `"correct"` (1 = the prediction was right);
#'   * `direction`: `"minimize"` or `"maximize"` (as yardstick's), or
#'     `"target_1"`/`"target_0"` for the calibration slope and intercept;
#'   * `options`: the options it takes (a list column of names);
#'   * `weights`: how case weights are read: `"scale_free"` (the value is
#'     unchanged when every weight is multiplied by one number),
#'     `"counts"` (they count cases: below one case the value is `NA` with
#'     a warning of class `aurc_warning_weights_scale`), or
#'     `"counts_with_options"` (with some options, e.g. the
#'     `"alpha_prime"` estimator or adaptive bins), or `"none"` (the
#'     metric takes no case weights: weights other than 1 are a classed
#'     error);
#'   * `undefined`: what makes its value `NA` with a classed warning:
#'     `"ratio"` (a constant loss: NAURC, PRR), `"one_class"` (no failure
#'     or no correct prediction), `"no_data"` (no row left), `"own"`
#'     (the function says why: a loess smooth or a logistic fit that does
#'     not exist on the data);
#'   * one logical column per form: `vec` (`NAME_vec()`), `data_frame`
#'     (`NAME()`), `prob` (`NAME_prob()` from class probabilities),
#'     `selective_metrics`, `analytic_interval` and `bootstrap_interval`
#'     ([selective_ci()]), `compare_scores`, `compare_groups`,
#'     `bootstrap_ranking`,
#'     `selective_power`, `database` (lazy database tables).
#' @seealso [selective_metrics()], [selective_ci()], [bootstrap_ranking()]
#' @export
#' @examples
#' metric_info()
#' metric_info(c("aurc", "ece"))
metric_info <- function(metrics = NULL) {
  all <- metric_catalog_names()
  if (is.null(metrics)) {
    metrics <- all
  } else {
    if (!is.character(metrics) || anyNA(metrics)) {
      abort_aurc(
        c(
          "{.arg metrics} must be a character vector of metric names.",
          x = "It is {.obj_type_friendly {metrics}}."
        ),
        class = "aurc_error_type"
      )
    }
    bad <- setdiff(metrics, all)
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg metrics} must name metrics of aurc.",
          x = "Unknown: {.val {bad}}.",
          i = "{.code metric_info()} lists them all."
        ),
        class = "aurc_error_value"
      )
    }
  }
  entries <- lapply(metrics, metric_entry)
  field <- function(f) vapply(entries, function(e) e[[f]], character(1))
  forms <- do.call(rbind, lapply(metrics, metric_forms))
  out <- tibble::tibble(
    metric = metrics,
    title = field("title"),
    family = field("family"),
    input = field("input"),
    direction = field("direction"),
    options = lapply(entries, function(e) e$options),
    undefined = vapply(entries, metric_undefined_kind, character(1)),
    weights = vapply(entries, function(e) {
      if (isFALSE(e$weights)) {
        "none"
      } else if (is.function(e$counts)) {
        "counts_with_options"
      } else if (isTRUE(e$counts)) {
        "counts"
      } else {
        "scale_free"
      }
    }, character(1))
  )
  tibble::as_tibble(c(out, as.data.frame(forms)))
}

metric_undefined_kind <- function(entry) {
  if (!is.null(entry$undefined)) return(entry$undefined)
  "no_data"
}
