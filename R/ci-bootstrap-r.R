# The metrics of the intervals that the C++ bootstrap engine does not
# compute: the loess summaries ICI, E50, E90 and Emax (R/calibration-
# clinical.R), the calibration slope and intercept of the logistic
# recalibration and the proper scores (R/calibration-proper-scores.R).
# Their entries in the catalog (R/metric-catalog.R) name an
# R kernel (`replicate`), which evaluates every metric of one fit at once.
#
# The replicates are the engine's: the case counts of replicate b come from
# the same generator, seed and plan (ci_bootstrap_counts_impl(), a block of
# replicates at a time), or from the rows of `indices`. So in one call the
# R metrics and the engine's metrics see the same resamples, set.seed()
# reproduces them, and compare_scores() pairs the scores on them.
#
# A replicate is the data resampled. Without case weights the cases are
# repeated as drawn, so a replicate's value is exactly the metric of the
# resampled rows (what boot::boot() computes with the same indices). With
# case weights the cases drawn enter with their counts as case weights, as
# the metric itself weights cases (frequency weights may stand for many
# more rows than there are cases); for the logistic fit the two are the
# same, for the loess smooth they differ as ?ici says.
#
# BCa: the slope and intercept have influence functions
# (R/ci-influence-recalibration.R); the loess summaries take the
# jackknife, one loess fit per deleted case (or cluster), affordable up to
# ci_r_jackknife_max_units units.

ci_r_jackknife_max_units <- 5000
# replicates drawn per block of counts (block x n doubles)
ci_r_block_cells <- 2^24

# Each kernel returns the values of `wanted` (a subset of the metrics of its
# fit) on the data p (confidence), y (correct, 0/1) and w (case weights or
# double()), with the options `o` (span, smoother, eps). Undefined values
# are NA, with the metric's own classed warning.
ci_r_kernels <- list(
  loess = function(p, y, w, o, wanted, call) {
    input <- list(confidence = p, correct = y, case_weights = w)
    s <- ici_summaries(
      ici_smooth_distances(input, o$span, call, o$smoother %||% "loess"),
      intersect(wanted, c("e50", "e90")), call
    )
    unlist(s[wanted])
  },
  proper = function(p, y, w, o, wanted, call) { # (replicates: above)
    unlist(proper_scores(p, y, w, wanted, call)[wanted])
  },
  # (R/ci-llm-regression.R: y is the error, or the quality)
  regression = function(p, y, w, o, wanted, call) {
    ci_regression_values(p, y, w, o, wanted, call)
  },
  llm = function(p, y, w, o, wanted, call) {
    ci_llm_values(p, y, w, o, wanted, call)
  },
  logistic = function(p, y, w, o, wanted, call) {
    input <- list(confidence = p, correct = y, case_weights = w)
    what <- c(calibration_slope = "slope", calibration_intercept = "intercept")
    vapply(wanted, function(m) {
      recalibration_fit(input, what[[m]], o$eps, call)
    }, numeric(1))
  }
)

# Kernels whose metrics are weighted means (or functions of a few): all
# replicates of a block at once, as products of the block's counts (size x
# n) with per-case values, instead of an R call per replicate. Each returns
# a size x length(wanted) matrix (NA where undefined).
ci_r_block_kernels <- list(
  proper = function(counts, p, y, wanted) {
    total <- rowSums(counts)
    mean_of <- function(v) drop(counts %*% v) / total
    out <- matrix(NA_real_, nrow(counts), length(wanted),
      dimnames = list(NULL, wanted)
    )
    brier <- mean_of((p - y)^2)
    if ("brier_score" %in% wanted) out[, "brier_score"] <- brier
    if ("scaled_brier_score" %in% wanted) {
      ybar <- mean_of(y)
      base <- ybar * (1 - ybar)
      out[, "scaled_brier_score"] <- ifelse(base > 0, 1 - brier / base, NA)
    }
    if ("log_loss" %in% wanted) {
      q <- pmin(pmax(p, log_loss_eps), 1 - log_loss_eps)
      out[, "log_loss"] <- mean_of(-(y * log(q) + (1 - y) * log1p(-q)))
    }
    out
  }
)

# What a kernel reads beside the score: the correctness 1 - loss (the
# calibration kernels), the loss itself ("regression": the AUSE's error)
# or the quality as given ("llm"; 1 - loss when only a loss was given).
ci_r_kernel_input <- function(kernel, loss, quality = NULL) {
  switch(kernel,
    regression = loss,
    llm = quality %||% (1 - loss),
    1 - loss
  )
}

# The values of `metrics` (all of ci_r_metrics) on one data set.
ci_r_values <- function(metrics, p, loss, w, o, call, quality = NULL) {
  kernel <- vapply(metrics, function(m) metric_entry(m)$replicate,
    character(1)
  )
  out <- stats::setNames(rep(NA_real_, length(metrics)), metrics)
  for (k in unique(kernel)) {
    wanted <- metrics[kernel == k]
    out[wanted] <- ci_r_kernels[[k]](p, ci_r_kernel_input(k, loss, quality),
      w, o, wanted, call
    )
  }
  out
}

# The same, quietly: a replicate where a metric is undefined is NA, and
# ci_bootstrap_result() says how many there were.
ci_r_values_quiet <- function(metrics, p, loss, w, o, quality = NULL) {
  withCallingHandlers(
    ci_r_values(metrics, p, loss, w, o, call = NULL, quality = quality),
    aurc_warning = function(cnd) invokeRestart("muffleWarning")
  )
}

# The values on the cases with counts `counts` (input order); `weighted`:
# the data have case weights.
ci_r_replicate <- function(metrics, p, loss, counts, o, weighted) {
  keep <- counts > 0
  if (!weighted) {
    rows <- rep.int(which(keep), counts[keep])
    return(ci_r_values_quiet(metrics, p[rows], loss[rows], double(), o))
  }
  ci_r_values_quiet(metrics, p[keep], loss[keep], counts[keep], o)
}

# Estimates and replicates of the R metrics `metrics` for every score of
# `input` (ci_bootstrap_input()), on the replicates of `seed` (or of
# input$indices). Returns `estimate` (scores x metrics) and `replicates`
# (times x scores x metrics).
ci_bootstrap_r_run <- function(input, metrics, seed, call) {
  n <- input$n
  n_sc <- ncol(input$score)
  o <- input$options
  w <- input$case_weights
  est <- matrix(NA_real_, n_sc, length(metrics))
  reps <- array(NA_real_, c(input$times, n_sc, length(metrics)))
  ls <- lapply(seq_len(n_sc), function(j) ci_loss_of(input, j))
  ys <- lapply(ls, function(l) 1 - l)
  for (j in seq_len(n_sc)) {
    est[j, ] <- ci_r_values(metrics, input$score[, j], ls[[j]], w, o, call,
      quality = input$quality
    )
  }
  kernel <- vapply(metrics, function(m) metric_entry(m)$replicate,
    character(1)
  )
  # kernels on the data sorted once, then each replicate's counts
  # (R/ci-llm-regression.R)
  counted <- lapply(seq_len(n_sc), function(j) {
    lapply(stats::setNames(nm = intersect(kernel, names(ci_r_count_kernels))),
      function(k) {
        ci_r_count_kernels[[k]](input$score[, j],
          ci_r_kernel_input(k, ls[[j]], input$quality), o, metrics[kernel == k]
        )
      }
    )
  })
  one_by_one <- which(!kernel %in% c(names(ci_r_block_kernels),
    names(ci_r_count_kernels)))
  bar <- progress_bar(input$times, "Bootstrap intervals")
  block <- max(1, floor(ci_r_block_cells / n))
  first <- 0
  while (first < input$times) {
    size <- min(block, input$times - first)
    counts <- ci_r_counts(input, seed, first, size)
    rows <- first + seq_len(size)
    for (j in seq_len(n_sc)) {
      for (k in names(ci_r_block_kernels)) {
        at <- which(kernel == k)
        if (!length(at)) next
        reps[rows, j, at] <- ci_r_block_kernels[[k]](counts,
          input$score[, j], ys[[j]], metrics[at]
        )
      }
      for (k in names(counted[[j]])) {
        at <- which(kernel == k)
        for (b in seq_len(size)) {
          reps[first + b, j, at] <- ci_r_quiet(counted[[j]][[k]](counts[b, ]))
        }
      }
      if (!length(one_by_one)) next
      for (b in seq_len(size)) {
        reps[first + b, j, one_by_one] <- ci_r_replicate(
          metrics[one_by_one], input$score[, j], ls[[j]], counts[b, ], o,
          weighted = length(w) > 0
        )
      }
    }
    first <- first + size
    progress_tick(bar, first)
  }
  list(estimate = est, replicates = reps)
}

# The loss of score j (one loss for every score, or one per score).
ci_loss_of <- function(input, j) {
  n <- input$n
  if (length(input$loss) > n) input$loss[(j - 1) * n + seq_len(n)] else
    input$loss
}

# Counts of replicates first + 1 .. first + size (size x n).
ci_r_counts <- function(input, seed, first, size) {
  if (!is.null(input$indices)) {
    idx <- input$indices[first + seq_len(size), , drop = FALSE]
    return(t(apply(idx, 1, tabulate, nbins = input$n)))
  }
  ci_bootstrap_counts_impl(
    input$score[, 1], input$case_weights, input$strata, input$n_strata,
    input$cluster, input$n_clusters, size, seed, first
  )
}

# Puts the engine's result (for `engine` metrics; NULL when none) and the R
# metrics' into one result in the order of input$metrics.
ci_merge_results <- function(input, engine, res, r_metrics, r) {
  n_sc <- ncol(input$score)
  all <- input$metrics
  est <- matrix(NA_real_, n_sc, length(all))
  reps <- array(NA_real_, c(input$times, n_sc, length(all)))
  at <- match(r_metrics, all)
  est[, at] <- r$estimate
  reps[, , at] <- r$replicates
  if (!is.null(res)) {
    at <- match(engine, all)
    est[, at] <- matrix(res$estimate, n_sc, length(engine))
    reps[, , at] <- res$replicates
  }
  list(estimate = as.vector(est), replicates = reps)
}

# The influence values of every score for BCa with the R metrics: those
# given, else the jackknife's for the R metrics without them.
ci_r_bca_influence <- function(input, metrics, call) {
  given <- input$influence %||% vector("list", ncol(input$score))
  missing <- Filter(function(m) {
    !all(vapply(given, function(g) m %in% names(g), logical(1)))
  }, metrics)
  if (!length(missing)) return(given)
  jack <- ci_r_jackknife_influence(input, missing, call)
  lapply(seq_along(given), function(j) {
    g <- given[[j]] %||% list()
    g[missing] <- jack[[j]]
    g
  })
}

# BCa for the R metrics without influence values: jackknife influence
# values, one deletion per case (or cluster), given to ci_bootstrap_result()
# as per-case influence values (with clusters, spread over a cluster's
# cases in proportion to their weights, so that their weighted sum is the
# cluster's value, as ci_influence() sums them).
# (the value of a replicate, its warnings muffled)
ci_r_quiet <- function(expr) {
  withCallingHandlers(expr,
    aurc_warning = function(cnd) invokeRestart("muffleWarning")
  )
}

ci_r_jackknife_influence <- function(input, metrics, call) {
  n <- input$n
  w <- if (length(input$case_weights)) input$case_weights else rep(1, n)
  clustered <- input$n_clusters > 0
  unit <- if (clustered) input$cluster + 1L else seq_len(n)
  n_units <- if (clustered) input$n_clusters else n
  if (n_units > ci_r_jackknife_max_units) {
    abort_aurc(
      c(
        "{.code type = \"bca\"} is too costly for {.val {metrics}} here.",
        x = paste(
          "Its acceleration needs the jackknife: {n_units} loess fits, one",
          "per deleted {if (clustered) 'cluster' else 'case'} (at most",
          "{ci_r_jackknife_max_units})."
        ),
        i = "Use {.code type = \"percentile\"} or {.code \"normal\"}."
      ),
      class = c("aurc_error_influence", "aurc_error_size"), call = call
    )
  }
  uw <- if (clustered) rep(1, n_units) else w
  unit_w <- as.vector(rowsum(w, unit, reorder = TRUE))
  o <- input$options
  lapply(seq_len(ncol(input$score)), function(j) {
    p <- input$score[, j]
    l <- ci_loss_of(input, j)
    q <- input$quality
    tj <- matrix(NA_real_, n_units, length(metrics))
    for (u in which(unit_w > 0)) {
      keep <- unit != u & w > 0
      tj[u, ] <- ci_r_values_quiet(metrics, p[keep], l[keep],
        if (length(input$case_weights)) w[keep] else double(), o,
        quality = if (!is.null(q)) q[keep]
      )
    }
    live <- unit_w > 0
    total <- sum(uw[live])
    out <- lapply(seq_along(metrics), function(k) {
      t <- tj[, k]
      L <- rep(0, n_units)
      L[live] <- (total - 1) * (sum(uw[live] * t[live]) / total - t[live])
      if (!clustered) return(L)
      ifelse(unit_w[unit] > 0, L[unit] / unit_w[unit], 0)
    })
    stats::setNames(out, metrics)
  })
}
