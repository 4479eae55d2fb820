# The metrics of selective_curve() (R/curve-selective.R) at every cut of
# the score. Every kernel receives the rows in the order of the score
# (most confident first; `o` already applied), their weights `w`, and the
# last position of every tie group (`ends`), and returns the metric of the
# rows 1..ends[g] for every g. The built-in metrics are running sums: one
# pass after the one sort. AUROC and a user's function are evaluated once
# per tie group on the rows kept.
#
# Internal API:
# * selective_metric_spec(metric, direction, call)  what a metric needs
# * selective_metric_values(spec, truth, estimate, w, ends, call, ranks)
#   (`ranks`: optional ranks of `estimate` among all rows, for "auroc", so
#   the bootstrap of R/ci-selective-curve.R ranks the estimates once)
# * selective_metric_row_loss(spec, truth, estimate)  the per-row loss of a
#   metric that is a (monotone function of a) mean of one, else NULL

selective_curve_builtins <- c(
  "accuracy", "balanced_accuracy", "f1", "mcc", "auroc", "brier", "rmse",
  "mae"
)

# name, direction, input ("class", "prob" or "numeric") and `decomposable`
# (the value is a monotone function of the mean of a per-row loss)
selective_metric_spec <- function(metric, direction, call) {
  if (is.function(metric)) {
    if (!is.null(direction)) {
      direction <- check_choice(direction, c("minimize", "maximize"),
        call = call
      )
    }
    return(list(
      name = "user", fn = metric, direction = direction, input = "any",
      decomposable = FALSE
    ))
  }
  metric <- check_choice(metric, selective_curve_builtins,
    arg = "metric", call = call
  )
  if (!is.null(direction)) {
    warn_aurc(
      "{.arg direction} is ignored for the built-in metric {.val {metric}}.",
      class = "aurc_warning_ignored", call = call
    )
  }
  list(
    name = metric,
    direction = if (metric %in% c("brier", "rmse", "mae")) {
      "minimize"
    } else {
      "maximize"
    },
    input = switch(metric,
      accuracy = , balanced_accuracy = , f1 = , mcc = "class",
      auroc = , brier = "prob",
      rmse = , mae = "numeric"
    ),
    decomposable = metric %in% c("accuracy", "brier", "rmse", "mae")
  )
}

# The per-row loss whose running mean gives a decomposable metric (and by
# which its oracle sorts), else NULL.
selective_metric_row_loss <- function(spec, truth, estimate) {
  switch(spec$name,
    accuracy = as.double(as.character(truth) != as.character(estimate)),
    brier = (estimate - truth)^2,
    rmse = (estimate - truth)^2,
    mae = abs(estimate - truth),
    NULL
  )
}

# The metric from the running mean of its per-row loss.
selective_metric_from_mean <- function(spec, m) {
  switch(spec$name,
    accuracy = 1 - m,
    rmse = sqrt(m),
    m
  )
}

# Values at every cut. `truth`, `estimate`, `w` in score order.
selective_metric_values <- function(spec, truth, estimate, w, ends,
                                    weighted, call, ranks = NULL) {
  cw <- cumsum(w)[ends]
  if (spec$decomposable) {
    loss <- selective_metric_row_loss(spec, truth, estimate)
    return(selective_metric_from_mean(spec, cumsum(w * loss)[ends] / cw))
  }
  switch(spec$name,
    balanced_accuracy = running_balanced_accuracy(truth, estimate, w, ends),
    f1 = running_f1(truth, estimate, w, ends),
    mcc = running_mcc(truth, estimate, w, ends),
    auroc = running_auroc(truth, estimate, w, ends, ranks),
    user = vapply(ends, function(e) {
      keep <- seq_len(e)
      call_user_metric(spec$fn, truth[keep], estimate[keep],
        if (weighted) w[keep] else NULL, call
      )
    }, numeric(1))
  )
}

# The classes, the truth's levels first (yardstick's convention: the event
# of a binary metric is the first level).
class_levels <- function(truth, estimate) {
  lev <- if (is.factor(truth)) levels(truth) else sort(unique(truth))
  unique(c(as.character(lev), as.character(unique(estimate))))
}

# Running weighted counts of `x == k` for every class k of `lev`, at
# `ends` (length(ends) x K); rows where `keep` is FALSE count 0.
running_class_counts <- function(x, lev, w, ends, keep = TRUE) {
  code <- match(as.character(x), lev)
  onehot <- matrix(0, length(code), length(lev))
  onehot[cbind(seq_along(code), code)] <- w * keep
  # (apply() drops a single row to a vector: the matrix is rebuilt)
  running <- matrix(apply(onehot, 2, cumsum), length(code))
  running[ends, , drop = FALSE]
}

# Mean recall over the classes present among the rows kept.
running_balanced_accuracy <- function(truth, estimate, w, ends) {
  lev <- class_levels(truth, estimate)
  hit <- as.character(truth) == as.character(estimate)
  present <- running_class_counts(truth, lev, w, ends)
  correct <- running_class_counts(truth, lev, w, ends, keep = hit)
  recall <- ifelse(present > 0, correct / present, NA_real_)
  rowMeans(recall, na.rm = TRUE)
}

# F1 of the event (first level): 2 TP / (2 TP + FP + FN); NA when the
# event is neither true nor predicted among the rows kept.
running_f1 <- function(truth, estimate, w, ends) {
  event <- class_levels(truth, estimate)[1]
  yt <- as.character(truth) == event
  yp <- as.character(estimate) == event
  tp <- cumsum(w * (yt & yp))[ends]
  fp <- cumsum(w * (!yt & yp))[ends]
  fn <- cumsum(w * (yt & !yp))[ends]
  den <- 2 * tp + fp + fn
  ifelse(den > 0, 2 * tp / den, NA_real_)
}

# Matthews correlation of K classes (Gorodkin's R_K; the binary MCC for
# K = 2): (c s - sum_k p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2))
# with s the weight kept, c the weight correct, t_k and p_k the weights
# true and predicted in class k. NA when a factor of the denominator is 0.
running_mcc <- function(truth, estimate, w, ends) {
  lev <- class_levels(truth, estimate)
  t_k <- running_class_counts(truth, lev, w, ends)
  p_k <- running_class_counts(estimate, lev, w, ends)
  s <- cumsum(w)[ends]
  cc <- cumsum(w * (as.character(truth) == as.character(estimate)))[ends]
  num <- cc * s - rowSums(p_k * t_k)
  den <- (s^2 - rowSums(p_k^2)) * (s^2 - rowSums(t_k^2))
  ifelse(den > 0, num / sqrt(den), NA_real_)
}

# Weighted AUROC of `estimate` for `truth == 1` (ties count one half) at
# every cut; NA without both classes. Each pair of rows enters when the
# later of the two is added, with w_i w_j (1(e_pos > e_neg) + 1(equal) / 2),
# whichever comes first, so the order within a tie group of the score does
# not matter. Two Fenwick trees hold the weights added so far of the
# positives and negatives by rank of the estimate (`q`: the ranks, computed
# here unless given; any ranks in the same order give the same value), in
# C++ (src/rcpp_running_auroc.cpp): O(n log n).
running_auroc <- function(truth, estimate, w, ends, q = NULL) {
  if (is.null(q)) q <- match(estimate, sort(unique(estimate)))
  running_auroc_impl(as.double(truth), as.integer(q), as.double(w),
    as.integer(ends), max(q)
  )
}

call_user_metric <- function(fn, truth, estimate, w, call) {
  value <- if (is.null(w)) {
    fn(truth, estimate)
  } else {
    fn(truth, estimate, case_weights = w)
  }
  if (is.data.frame(value) && ".estimate" %in% names(value)) {
    value <- value$.estimate
  }
  # an undefined value (yardstick's NA, logical) is NA
  if (length(value) == 1 && is.na(value)) return(NA_real_)
  if (!is.numeric(value) || length(value) != 1) {
    abort_aurc(
      c(
        "{.arg metric} must return a single number.",
        x = "It returned {.obj_type_friendly {value}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  as.double(value)
}
