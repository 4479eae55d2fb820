# Intervals and comparisons of the AUSE (the catalog's "regression"
# family, R/metric-ause.R) and of the LLM metrics (the "llm" family,
# R/metric-llm-rank.R, R/metric-llm-correlation.R) in selective_ci(),
# selective_ci_vec(), compare_scores() and compare_groups().
#
# The score is a confidence (higher = more confident), as everywhere in
# selective_ci(): the AUSE functions take an uncertainty `u`, so
# `ause_vec(u, e)` is `selective_ci_vec(-u, e, metrics = "ause")`. The
# AUSE reads the loss as the error; the LLM metrics read the quality,
# given as `quality =` (carried as given, so that the estimates equal the
# vector forms exactly) or as `loss = 1 - quality`.
#
# The estimate is always the vector form's own function on the data. The
# bootstrap replicates are the engine's count vectors (R/ci-bootstrap-r.R)
# laid over the data sorted once (ci_r_count_kernels below): tie groups of
# the score (and of the error or quality) are found once, and each
# replicate is a few linear passes over its counts. The influence
# functions are in R/ci-influence-ause.R and R/ci-influence-llm.R.

# The options of these metrics from the bag `opts` of ci_spec() (the
# user's arguments): `definition` (AUSE), `p` and the number of bins of
# the rank-calibration error (`n_bins` when given, else the authors' 20),
# `threshold` (the quality AUROC and AUPR). Adds the metrics and their
# `.estimator` labels to the spec.
ci_regression_llm_spec <- function(spec, more, opts, n_bins, call) {
  definition <- check_choice(opts$definition %||% "ilg", ause_definitions,
    arg = "definition", call = call
  )
  p <- check_rce_order(opts$p %||% 1, call)
  rce_bins <- if (isTRUE(opts$n_bins_given)) {
    check_number(n_bins, 1, 1e6, whole = TRUE, arg = "n_bins", call = call)
  } else {
    20
  }
  threshold <- opts$threshold
  needs <- intersect(more, c("quality_auroc", "quality_aupr"))
  if (length(needs)) {
    if (is.null(threshold)) {
      abort_aurc(
        c(
          "{.arg threshold} is missing.",
          i = "{.val {needs}} need{?s/} the quality from which an output is
               correct: {.code threshold = }."
        ),
        class = "aurc_error_missing", call = call
      )
    }
    threshold <- check_number(threshold, arg = "threshold", call = call)
  }
  labels <- vapply(more, function(m) {
    switch(m,
      ause = definition,
      rank_calibration_error = paste0("n_bins=", rce_bins, "/p=", p),
      spearman = "midrank",
      kendall = "tau_b",
      paste0("threshold=", format(threshold))
    )
  }, character(1))
  spec$metrics <- c(spec$metrics, more)
  spec$labels <- c(spec$labels, unname(labels))
  spec$definition <- definition
  spec$p <- p
  spec$rce_bins <- rce_bins
  spec$threshold <- threshold
  spec
}

# The quality as given, kept for the LLM metrics (NULL otherwise, or when
# the outcome was given as a loss).
ci_kept_quality <- function(spec, quality) {
  if (is.null(quality) || !any(spec$metrics %in% ci_llm_metrics)) {
    return(NULL)
  }
  as.double(quality)
}

# The failure indicator of the thresholded quality (the classes of the
# quality AUROC's DeLong variance): quality < threshold, the quality as
# given or 1 - loss.
quality_failures <- function(loss, quality, threshold) {
  as.double((quality %||% (1 - loss)) < threshold)
}

# The metrics without case weights (the rank-calibration error and the rank
# correlations, whose vector forms take none) refuse weights other than 1.
ci_check_unweighted <- function(spec, case_weights, call) {
  bad <- intersect(spec$metrics, ci_unweighted_metrics)
  if (!length(bad) || is.null(case_weights)) return(invisible())
  if (is.numeric(case_weights) && all(case_weights == 1, na.rm = TRUE)) {
    return(invisible())
  }
  abort_aurc(
    c(
      "{.arg case_weights} cannot be used with {.val {bad}}.",
      i = "{cli::qty(length(bad))}{?It takes/They take} no case weights
           (the estimator counts outputs); give none, or weights of 1."
    ),
    class = c("aurc_error_weights", "aurc_error_value"), call = call
  )
}

# Lazy database tables and score tables: the intervals and comparisons
# are computed in memory.
check_local_data <- function(data, call,
                             what = "Intervals and comparisons are") {
  if (is_remote_data(data)) {
    abort_aurc(
      c(
        "{what} computed in memory only.",
        i = paste(
          "{.arg data} is a database table or a score table; collect the",
          "columns first (e.g. with {.fn dplyr::collect})."
        )
      ),
      class = "aurc_error_type", call = call
    )
  }
  check_data_frame(data, call = call)
}

# ---- the values on the data (the vector forms' own functions) -----------

# The AUSE of the score p (a confidence: the uncertainty is -p) and the
# error e.
ci_regression_values <- function(p, e, w, o, wanted, call) {
  w <- if (length(w)) w else NULL
  c(ause = ause_value(-p, e, o$definition %||% "ilg", FALSE, w, call))
}

# The LLM metrics of the score p and the quality q. The thresholded ones
# are quiet: their undefined value (one class) is warned about by the form
# (ci_undefined()).
ci_llm_values <- function(p, q, w, o, wanted, call) {
  w <- if (length(w)) w else NULL
  quiet <- function(expr) {
    withCallingHandlers(expr,
      aurc_warning_one_class = function(cnd) invokeRestart("muffleWarning")
    )
  }
  vapply(wanted, function(m) {
    switch(m,
      rank_calibration_error = {
        v <- rce_value(p, q, o$rce_bins %||% 20, o$p %||% 1)
        if (is.na(v)) warn_rce_small(call)
        v
      },
      spearman = , kendall = rank_correlation(
        list(score = p, quality = q), m, call
      ),
      quality_auroc = quiet(quality_auroc_vec(p, q, o$threshold,
        case_weights = w
      )),
      quality_aupr = quiet(quality_aupr_vec(p, q, o$threshold,
        case_weights = w
      ))
    )
  }, numeric(1))
}

# ---- the replicates: counts over the data sorted once --------------------

# Tie groups of `key` in the order `o`: the group of each sorted position
# (1, 2, ... in that order).
ci_sorted_groups <- function(key, o) {
  k <- key[o]
  cumsum(c(TRUE, k[-1] != k[-length(k)]))
}

# Sums of x by group g (groups 1..max(g), positions already sorted).
ci_group_sums <- function(x, g) {
  as.vector(rowsum(x, g, reorder = FALSE))
}

# Each maker takes the score p, what the kernel reads (the error, the
# quality), the options and the metrics wanted, sorts once, and returns a
# function of one replicate's counts (input order) giving their values.
ci_r_count_kernels <- list(
  regression = function(p, e, o, wanted) {
    top <- max(e)
    scale <- if (top > 1) top else 1
    e <- e / scale
    os <- order(-p)
    gs <- ci_sorted_groups(p, os)
    oe <- order(e)
    ge <- ci_sorted_groups(e, oe)
    es <- e[os]
    le <- e[oe][!duplicated(ge)] # the error of each group of equal errors
    ilg <- identical(o$definition %||% "ilg", "ilg")
    function(counts) {
      cs <- counts[os]
      cnt <- ci_group_sums(cs, gs)
      err <- ci_group_sums(cs * es, gs)
      n <- sum(cnt)
      ce <- ci_group_sums(counts[oe], ge)
      if (ilg) {
        # the selective risk at every cut (a group is kept whole), minus
        # the exact optimum: sum over m of the m smallest errors over m,
        # through harmonic numbers (digamma) group by group
        live <- cnt > 0
        risk <- sum(cnt[live] * cumsum(err)[live] / cumsum(cnt)[live])
        before <- cumsum(ce) - ce
        s_before <- cumsum(ce * le) - ce * le
        dh <- digamma(before + ce + 1) - digamma(before + 1)
        best <- sum((s_before - le * before) * dh + le * ce)
        return(c(ause = scale * (risk - best) / n))
      }
      # torch-uncertainty (kept_error_sums() of R/metric-ause.R on counts)
      total <- sum(cs * es)
      if (!(total > 0)) return(c(ause = NA_real_))
      kept <- function(cnt, sums) {
        first <- which(cnt > 0)[1]
        before <- cumsum(sums) - sums
        c(sum(cnt * before + sums * (cnt + 1) / 2), sums[first] / cnt[first])
      }
      model <- kept(cnt, err)
      oracle <- kept(ce, ce * le)
      y <- (model - oracle) / total
      c(ause = (y[1] - y[2] / 2) / (n + 1))
    }
  },
  llm = function(p, q, o, wanted) {
    n <- length(p)
    os <- order(-p, method = "radix") # stable: the rank-calibration error
    gs <- ci_sorted_groups(p, os)
    oq <- order(q)
    gq <- ci_sorted_groups(q, oq)
    qs <- q[os]
    # Kendall's pairs: one sort here, each replicate a weighted Fenwick
    # pass over it (src/core/kendall.h)
    kx <- if ("kendall" %in% wanted) kendall_sorted(p, q)
    correct <- if (!is.null(o$threshold)) as.double(qs >= o$threshold)
    midranks <- function(cnt) cumsum(cnt) - cnt + (cnt + 1) / 2
    ranks <- any(c("spearman", "kendall") %in% wanted)
    function(counts) {
      cs <- counts[os]
      cnt <- ci_group_sums(cs, gs)
      cq <- if (ranks) ci_group_sums(counts[oq], gq)
      total <- sum(cnt)
      vapply(wanted, function(m) {
        switch(m,
          rank_calibration_error = if (total < 2) NA_real_ else
            rce_sorted(rep.int(qs, cs), o$rce_bins %||% 20, o$p %||% 1),
          spearman = {
            a <- b <- numeric(n)
            # (os is descending: mirror the mid-ranks)
            a[os] <- (total + 1 - midranks(cnt))[gs]
            b[oq] <- midranks(cq)[gq]
            mid <- (total + 1) / 2
            va <- sum(counts * (a - mid)^2)
            vb <- sum(counts * (b - mid)^2)
            if (!(va > 0 && vb > 0)) NA_real_ else
              sum(counts * (a - mid) * (b - mid)) / sqrt(va * vb)
          },
          kendall = {
            # the pairs of the replicate's rows: sum over i < j of
            # counts_i counts_j sign(p_i - p_j) sign(q_i - q_j)
            w <- counts[kx$order]
            s <- sum(w * kendall_row_sums_impl(kx$group, kx$y_rank,
              kx$n_y, w)) / 2
            n0 <- total * (total - 1) / 2
            n1 <- sum(cnt * (cnt - 1)) / 2
            n2 <- sum(cq * (cq - 1)) / 2
            if (!(n0 > n1 && n0 > n2)) NA_real_ else
              s / sqrt((n0 - n1) * (n0 - n2))
          },
          quality_auroc = {
            pos <- ci_group_sums(cs * correct, gs)
            neg <- cnt - pos
            if (!(sum(pos) > 0 && sum(neg) > 0)) NA_real_ else {
              below <- sum(neg) - cumsum(neg)
              sum(pos * (below + neg / 2)) / (sum(pos) * sum(neg))
            }
          },
          quality_aupr = {
            pos <- ci_group_sums(cs * correct, gs)
            if (!(sum(pos) > 0 && sum(cnt - pos) > 0)) NA_real_ else {
              live <- pos > 0
              sum(pos[live] * (cumsum(pos) / cumsum(cnt))[live]) / sum(pos)
            }
          }
        )
      }, numeric(1))
    }
  }
)


# The tests of compare_scores() and compare_groups() whose level is known
# to be off: the rank-calibration error's bootstrap is biased upwards (a
# resample repeats outputs, which the binned estimator reads as ties), and
# its standard error is low. At n = 200 and the 5% level the percentile
# test rejected 0 to 1.5% of null data sets and the normal one 5 to 10%
# (studies/catalog-llm-regression-coverage.R). A classed warning says so
# with every such test rather than a p-value that looks exact.
warn_if_rough_test <- function(metrics, call) {
  if (!"rank_calibration_error" %in% metrics) return(invisible())
  warn_aurc(
    c(
      "The test of {.val rank_calibration_error} is rough.",
      i = paste(
        "Its bootstrap is biased upwards (a resample repeats outputs):",
        "at the 5% level the percentile test rejected 0 to 1.5% of null",
        "data sets and the normal one 5 to 10% (see {.help selective_ci})."
      ),
      i = paste(
        "Silence this with {.code suppressWarnings(..., classes =",
        "\"aurc_warning_rough_test\")}."
      )
    ),
    class = "aurc_warning_rough_test", call = call
  )
}
