# The balanced-accuracy metrics of fd-shifts (aurc_ba(), augrc_ba();
# R/metric-balanced.R) in selective_ci() and compare_scores(): they need
# the class of every case (`truth =`), which the bootstrap engine carries
# beside the scores (src/core/balanced.h) and the influence functions read
# (R/ci-influence-balanced.R).

# (ci_balanced_metrics: the catalog's "balanced" family,
# R/metric-catalog.R)

# Adds the balanced metrics `bal` to an interval's settings: label
# "balanced", 0/1 failures required.
ci_balanced_spec <- function(spec, bal) {
  spec$metrics <- c(spec$metrics, bal)
  spec$labels <- c(spec$labels, rep("balanced", length(bal)))
  spec$binary <- TRUE
  spec
}

# `truth` beside the metrics: required by the balanced metrics (a classed
# error without it), ignored with a classed warning by the others. Returns
# `truth` (NULL when no balanced metric asks for it).
ci_check_truth <- function(spec, truth, call) {
  wants <- any(spec$metrics %in% ci_balanced_metrics)
  if (wants && is.null(truth)) {
    abort_aurc(
      c(
        "{.arg truth} is missing.",
        i = "{.val {intersect(spec$metrics, ci_balanced_metrics)}} need{?s/}
             the true class of every case: {.code truth = }."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (!wants && !is.null(truth)) {
    warn_aurc(
      c(
        "{.arg truth} is ignored.",
        i = "Only the balanced metrics {.val {ci_balanced_metrics}} read
             the class of each case."
      ),
      class = "aurc_warning_ignored", call = call
    )
    return(NULL)
  }
  if (wants && (!is.atomic(truth) || !is.null(dim(truth)) ||
    is.raw(truth) || is.complex(truth))) {
    abort_aurc(
      c(
        "{.arg truth} must be a vector of class labels.",
        x = "It is {.obj_type_friendly {truth}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  truth
}

# 0-based integer codes of the classes and their number, for the engine.
ci_truth_codes <- function(truth) {
  if (is.null(truth)) return(list(codes = integer(), n = 0L))
  u <- unique(truth)
  list(codes = match(truth, u) - 1L, n = length(u))
}
