# Case weights at every scale (issues 25 and 33). Case weights are
# frequency weights: a case of weight w counts as w identical cases (SPEC
# Sec. 1). Two kinds of quantity follow from that.
#
# * Scale-free quantities: the value does not change when every weight of
#   a group is multiplied by the same number (AURC, AUGRC, the failure
#   metrics, E-AURC with the asymptotic optimum, the balanced metrics, ECE
#   and MCE with equal-width or equal-mass bins, smooth ECE by the
#   definition, CORP, ICI, Emax, the recalibration intercept and slope).
#   Their kernels form sums and products of weights, which overflow near
#   1e154 (products) or 1e308 (sums) and underflow near 1e-160; so weights
#   whose largest value lies outside [2^-64, 2^64] are multiplied by a
#   power of 2 that brings it to [1, 2). A power of 2 is exact in floating
#   point (subnormal weights included), so the value is that of the
#   weights as given. Weights within that range are left alone, and
#   results stay identical to the last bit.
# * Count-dependent quantities: the value depends on how many cases the
#   weights stand for. The exact optimum of E-AURC, NAURC and PRR puts the
#   copies of a case one by one in oracle order (src/core/oracle.h: a block
#   of equal loss of weighted count c is floor(c) unit copies and the
#   remainder); adaptive bins close after a number of cases (SPEC Sec. 8);
#   the debiased ECE subtracts a variance that falls as 1 / count; the
#   relplot smooth ECE adds 1e-4 to a density of cases; E50 and E90 place
#   R's type-7 quantile at position (W - 1) q + 1. Their weights are read
#   as counts, with two limits:
#   - a total above 2^53, where doubles no longer count whole copies, is
#     brought by a power of 2 into [2^52, 2^53): the value is then the
#     count value at that total, which differs from the value at the total
#     given by O(2^-52) relative (these estimators converge as the counts
#     grow; the adaptive bins and the relplot density do not change at all
#     beyond such counts unless confidences lie within about 1e-8);
#   - a total below one case leaves nothing to count (no whole copy for
#     the oracle, no bin of one case): NA with a classed warning
#     (`aurc_warning_weights_scale`) saying what to do.
# Each group of a grouped data frame is scaled on its own.

# x * 2^e for whole e (recycled), exactly when the result is a normal
# double: 2^e itself overflows for e > 1023 (a subnormal weight needs up to
# 2^1074), so it is applied as two factors.
times_pow2 <- function(x, e) {
  half <- trunc(e / 2)
  x * 2^half * 2^(e - half)
}

# The binary exponent of positive finite x: e with x * 2^-e in [1, 2)
# (log2() may round across a power of 2; checked once).
pow2_exponent <- function(x) {
  e <- floor(log2(x))
  m <- times_pow2(x, -e)
  e - (m < 1) + (m >= 2)
}

# The exponent that brings the largest weight `m` into [1, 2) when it lies
# outside [2^-64, 2^64]; 0 otherwise (or when every weight is 0).
scale_free_exponent <- function(m) {
  out <- rep(0, length(m))
  far <- m > 0 & (m < 2^-64 | m > 2^64)
  out[far] <- -pow2_exponent(m[far])
  out
}

# Scale-free weights of one group (see above). NA and Inf weights are the
# checks' business and are left alone.
rescale_weights <- function(w) {
  if (!length(w)) return(w)
  # (weights are checked finite before; max() makes no copy)
  m <- suppressWarnings(max(w, na.rm = TRUE))
  if (!is.finite(m)) return(w)
  e <- scale_free_exponent(m)
  if (e == 0) return(w)
  times_pow2(w, e)
}

# Scales the weights of every group of rows (`sizes`: the group sizes, in
# row order). `count = FALSE`: scale-free scaling (rescale_weights() per
# group). `count = TRUE`: the count rule above, where groups whose total is
# below one case are flagged in `too_few` (and get the scale-free scaling,
# for the scale-free metrics computed with them). `shift` (per group): the
# weights stand for w * 2^shift cases (weights that a database divided by
# their largest, db_weight_scale()); as counts they are then multiplied
# back. Returns list(w, too_few, exponent): the weights of group g were
# multiplied by 2^exponent[g]; `w` is the input itself when nothing
# changes (no copy).
scale_group_weights <- function(w, sizes = length(w), count = FALSE,
                                shift = 0) {
  G <- length(sizes) # nolint: object_name_linter
  too_few <- rep(FALSE, G)
  # (integer weights lie within [2^-64, 2^64]: nothing to do unless counted)
  if (!length(w) || (!count && !is.double(w))) {
    return(list(w = w, too_few = too_few, exponent = rep(0, G)))
  }
  offsets <- c(0, cumsum(as.double(sizes)))
  s <- weight_summary_impl(w, offsets)
  exps <- scale_free_exponent(s$max)
  big <- too_few
  if (count) {
    # log2 of the total of w, and of the cases it stands for; a total equal
    # to 1 up to rounding (weights normalised to sum to 1) is one case
    lw <- log2(s$total) + s$shift
    lt <- lw + shift
    too_few <- s$max > 0 & lt < log2(1 - 1e-9)
    big <- lt >= 53
    normal <- !too_few & !big
    exps[normal] <- rep_len(shift, G)[normal]
    exps[big] <- 52 - floor(lw[big])
  }
  if (all(exps == 0)) return(list(w = w, too_few = too_few, exponent = exps))
  per_row <- function(x) if (G == 1) x else rep.int(x, sizes)
  w <- times_pow2(as.double(w), per_row(exps))
  if (any(big)) {
    # log2() of the total may round across 2^53: one more halving
    over <- big & weight_summary_impl(w, offsets)$total >= 2^53
    if (any(over)) {
      w <- times_pow2(w, per_row(-over))
      exps <- exps - over
    }
  }
  list(w = w, too_few = too_few, exponent = exps)
}

# The weights a database divided by the largest weight of their group
# (db_relative_weights(), R/db-sql.R) stand for w * mult * 2^shift cases,
# from that largest weight `maxw` (per group): mult in [1, 2) and shift a
# whole number where the engine divided, else 1 and 0.
db_weight_scale <- function(maxw) {
  maxw <- suppressWarnings(as.double(maxw))
  maxw[is.na(maxw)] <- 0
  far <- maxw > 0 & (maxw > 2^64 | maxw < 2^-64)
  shift <- rep(0, length(maxw))
  shift[far] <- pow2_exponent(maxw[far])
  mult <- rep(1, length(maxw))
  mult[far] <- times_pow2(maxw[far], -shift[far])
  list(mult = mult, shift = shift)
}

# The metrics of the registry whose value depends on the count of cases
# the weights stand for (the registry's `counts`): NAURC, PRR and E-AURC
# with the exact optimum (src/core/oracle.h), and the metrics of the
# "alpha_prime" estimator, whose weight -log(1 - r / (n + 1)) adds one case
# to the count n.
count_metrics <- function(metrics, optimum = "exact", estimator = "alpha") {
  o <- list(optimum = optimum, estimator = estimator)
  vapply(metrics, metric_counts_cases, logical(1), o, USE.NAMES = FALSE)
}

# Whether every metric of `metrics` is invariant to scaling all weights.
weights_scale_free <- function(metrics, optimum = "exact",
                               estimator = "alpha") {
  !any(count_metrics(metrics, optimum, estimator))
}

# NA with a classed warning: count-dependent quantities (`what`, their
# names, for instance "NAURC") on weights that total less than one case.
# `why` says what they count; `instead` what to use. All three are cli text
# of this package (never user data): they are pasted into the message so
# that their markup is read.
warn_weights_scale <- function(what, why, instead,
                               call = rlang::caller_env()) {
  verb <- if (length(what) == 1) "depends" else "depend"
  if (length(what) > 1) {
    what <- paste(paste(what[-length(what)], collapse = ", "), "and",
      what[length(what)]
    )
  }
  warn_aurc(
    c(
      paste(
        what, verb, "on the number of cases, and {.arg case_weights}",
        "total less than one case; returning {.val {NA}}."
      ),
      i = why,
      i = weights_scale_hint(instead)
    ),
    class = "aurc_warning_weights_scale", call = call
  )
}

# The classed error of a table or curve that counts cases (`what`: what
# counts, plural, cli text) on weights totalling less than one case.
abort_weights_scale <- function(what, why, instead,
                                call = rlang::caller_env()) {
  abort_aurc(
    c(
      paste(
        "{.arg case_weights} total less than one case;", what, "count",
        "cases."
      ),
      i = why,
      i = weights_scale_hint(instead)
    ),
    class = c("aurc_error_weights_scale", "aurc_error_value"), call = call
  )
}

weights_scale_hint <- function(instead) {
  paste(
    "Case weights are frequency weights (a weight of 2 is two identical",
    "rows). Multiply {.arg case_weights} by a constant so that they count",
    "cases, or use", paste0(instead, ".")
  )
}

# The warning of the registry metrics that count cases (count_metrics()).
warn_oracle_scale <- function(metrics, estimator = "alpha",
                              call = rlang::caller_env()) {
  names <- c(
    aurc = "AURC", eaurc = "E-AURC", naurc = "NAURC", prr = "PRR",
    auarc = "AUARC"
  )
  metrics <- unique(metrics)
  why <- c(
    if (any(metrics %in% c("eaurc", "naurc", "prr"))) {
      paste(
        "The exact optimum puts the copies of each case one by one in the",
        "oracle order, and there is no whole copy to put."
      )
    },
    if (identical(estimator, "alpha_prime")) {
      paste(
        "The {.val alpha_prime} weight -log(1 - r / (n + 1)) adds one",
        "case to the n cases."
      )
    }
  )
  warn_weights_scale(unname(names[metrics]), paste(why, collapse = " "),
    paste(
      "{.code optimum = \"asymptotic\"} (0/1 losses) or a metric free of",
      "the weights' scale ({.fn aurc} with {.val alpha}, {.fn augrc})"
    ),
    call = call
  )
}

# ---- losses near the largest double -----------------------------------------
#
# Losses are finite (SPEC Sec. 10), up to 1.8e308, but their sums, and
# products of loss sums with counts, overflow to Inf long before. When some
# loss exceeds huge_loss (2^512, found by the scan that checks the losses),
# the losses are multiplied by the power of 2 that brings the largest into
# [2^256, 2^257): exact, with room for every kernel's sums and products.
# The metrics homogeneous of degree 1 in the loss (every AURC estimator,
# AUGRC, E-AURC, risk at coverage, the partial areas) are multiplied back;
# those of degree 0 (NAURC, PRR, and coverage at risk, whose `risk` is
# scaled with the losses) need nothing. A value beyond the largest double
# (the "2sele" AURC is twice a mean loss) is NA with a classed warning.
huge_loss <- 2^512

# The exponent e (losses times 2^-e) for these losses, 0 when none exceeds
# huge_loss.
loss_scale_exponent <- function(loss) {
  m <- suppressWarnings(max(loss, na.rm = TRUE))
  if (!is.finite(m) || !(m > huge_loss)) return(0)
  pow2_exponent(m) - 256
}

# Whether each metric is homogeneous of degree 1 in the loss (else 0): the
# registry's `loss_degree`; of the names the engine knows beside it, the
# mean loss is, the calibration errors are not.
loss_degree_one <- function(metrics, options = NULL) {
  vapply(metrics, function(m) {
    # the AUSE of Ilg et al. is an E-AURC (degree 1); torch-uncertainty's
    # divides by the total error (degree 0)
    if (identical(m, "ause")) {
      return(identical(options$definition %||% "ilg", "ilg"))
    }
    e <- metric_registry[[m]]
    if (is.null(e)) identical(m, "mean_loss") else e$loss_degree == 1
  }, logical(1), USE.NAMES = FALSE)
}

# Values (a vector, or a matrix with one column per metric) computed on
# losses times 2^-e, back on the losses given: NA with a warning where
# they exceed the largest double.
unscale_loss_values <- function(values, metrics, e, call, options = NULL) {
  if (e == 0) return(values)
  one <- loss_degree_one(metrics, options)
  if (is.matrix(values)) {
    values[, one] <- times_pow2(values[, one], e)
  } else {
    values[one] <- times_pow2(values[one], e)
  }
  over <- is.infinite(values)
  if (any(over)) {
    hit <- if (is.matrix(values)) {
      metrics[colSums(over) > 0]
    } else {
      metrics[over]
    }
    values[over] <- NA_real_
    warn_aurc(
      c(
        paste(
          "{.val {unique(hit)}} exceed{?s/} the largest double on these",
          "losses; returning {.val {NA}}."
        ),
        i = "Divide {.arg loss} by a constant (the metric scales with it)."
      ),
      class = "aurc_warning_overflow", call = call
    )
  }
  values
}
