# The calibration summaries of clinical prediction modelling (issue 27):
# the calibration intercept and slope of logistic recalibration (Van Calster
# et al. 2016, 2019) and the loess-based ICI, E50, E90 and Emax (Austin &
# Steyerberg 2019), for a confidence in [0, 1] and a 0/1 correctness.

#' Calibration intercept and slope (logistic recalibration)
#'
#' The two numbers of the "weak calibration" level of Van Calster et al.'s
#' calibration hierarchy, from the logistic regression of the outcome on
#' the logit of the confidence, `x = log(p / (1 - p))`:
#' * the **calibration slope** `b` of `logit P(y = 1) = a + b x`, i.e.
#'   `glm(y ~ x, family = binomial)` (the target is 1; below 1 the
#'   confidences are too extreme, as from an overfitted model, above 1 too
#'   modest);
#' * the **calibration intercept** (calibration-in-the-large) `a` of
#'   `logit P(y = 1) = a + x` with the slope fixed at 1, i.e. `glm(y ~ 1 +
#'   offset(x), family = binomial)` (the target is 0; below 0 the
#'   confidences are too high on average, above 0 too low). This is Van
#'   Calster et al.'s convention (the intercept of the model with the
#'   offset), not the intercept `a` of the model with the free slope.
#'
#' Confidences of exactly 0 or 1 have an infinite logit: they are moved to
#' `eps` and `1 - eps` (`eps = 1e-8` by default, a logit of about +-18.4).
#' Such confidences, when wrong, pull the slope strongly; check for them
#' (the softmax of a deep network rounds to 1 in single precision) and
#' choose `eps` knowingly.
#'
#' The maximum likelihood estimates are found by Newton's method with step
#' halving (a few linear passes, no sort), converged to machine precision;
#' they equal `stats::glm()` with a strict convergence tolerance. Case
#' weights are frequency weights (`glm(weights = )`), so integer weights
#' give the result of the rows repeated. The estimate does not exist, and
#' the result is `NA` with a warning of class `aurc_warning_undefined`,
#' when every outcome is the same, or (slope) when the outcomes are
#' separated by the confidence (every wrong prediction at or below every
#' right one, or the reverse), including when all confidences are equal.
#'
#' Intervals and paired comparisons: [selective_ci()] and
#' [compare_scores()] with `metrics = "calibration_slope"` or
#' `"calibration_intercept"`, analytic (the robust sandwich standard error
#' of the fit, from its influence function; see [influence_functions]) or by
#' the bootstrap.
#'
#' @inheritParams calibration_test
#' @param eps Confidences are clipped to `[eps, 1 - eps]` before the logit,
#'   a number in `(0, 0.5)`.
#' @return The `_vec` forms: a number. The data-frame forms: a tibble with
#'   the grouping columns, `.metric` (`"calibration_intercept"`,
#'   `"calibration_slope"`), `.estimator` (`"logistic"`) and `.estimate`.
#' @references
#' Van Calster, B., Nieboer, D., Vergouwe, Y., De Cock, B., Pencina, M. J.,
#' Steyerberg, E. W. (2016). A calibration hierarchy for risk models was
#' defined: from utopia to empirical data. Journal of Clinical Epidemiology
#' 74, 167-176.
#'
#' Van Calster, B., McLernon, D. J., van Smeden, M., Wynants, L.,
#' Steyerberg, E. W. (2019). Calibration: the Achilles heel of predictive
#' analytics. BMC Medicine 17, 230.
#'
#' Cox, D. R. (1958). Two further applications of a model for binary
#' regression. Biometrika 45(3/4), 562-565.
#' @seealso [ici()] for the size of the miscalibration, [calibration_test()]
#'   for tests, [calibration_summary()] for all at once.
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 0.99)
#' # overconfident: the true logit is 0.6 times the stated one
#' correct <- rbinom(1000, 1, plogis(0.6 * qlogis(confidence)))
#' calibration_slope_vec(confidence, correct)
#' calibration_intercept_vec(confidence, correct)
#' df <- data.frame(confidence, correct)
#' calibration_slope(df, confidence, correct)
#' @export
calibration_slope_vec <- function(confidence, correct, ..., eps = 1e-8,

                                  loss = NULL, na_rm = FALSE,
                                  case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  recalibration_value(confidence, correct, case_weights, "slope", eps,
    na_rm, call
  )
}

#' @rdname calibration_slope_vec
#' @export
calibration_slope <- function(data, confidence, correct, ..., eps = 1e-8,
                              loss = NULL, na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  metric_df(
    data,
    columns = list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(confidence, correct, case_weights) {
      recalibration_value(confidence, correct, case_weights, "slope", eps,
        na_rm, call
      )
    },
    metric = "calibration_slope", estimator = "logistic", call = call
  )
}

#' @rdname calibration_slope_vec
#' @export
calibration_intercept_vec <- function(confidence, correct, ..., eps = 1e-8,

                                      loss = NULL, na_rm = FALSE,
                                      case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  recalibration_value(confidence, correct, case_weights, "intercept", eps,
    na_rm, call
  )
}

#' @rdname calibration_slope_vec
#' @export
calibration_intercept <- function(data, confidence, correct, ...,
                                  eps = 1e-8, loss = NULL, na_rm = FALSE,
                                  case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  metric_df(
    data,
    columns = list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(confidence, correct, case_weights) {
      recalibration_value(confidence, correct, case_weights, "intercept",
        eps, na_rm, call
      )
    },
    metric = "calibration_intercept", estimator = "logistic", call = call
  )
}

check_eps <- function(eps, call) {
  check_number(eps, lower = 0, upper = 0.5, open = TRUE, call = call)
}

recalibration_value <- function(confidence, correct, case_weights, what, eps,
                                na_rm, call, convention = TRUE) {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call,
    convention = convention
  )
  if (identical(input, "missing")) return(NA_real_)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NA_real_)
  }
  recalibration_fit(input, what, eps, call)
}

# The intercept (slope fixed at 1) or the slope of the logistic
# recalibration of validated input; NA with a warning when the estimate
# does not exist. `full = TRUE`: every coefficient of the fit (intercept
# and slope, or the intercept alone), NA where it does not exist.
recalibration_fit <- function(input, what, eps, call, full = FALSE) {
  p <- input$confidence
  x <- stats::qlogis(pmin(pmax(p, eps), 1 - eps))
  y <- input$correct
  # the estimates do not depend on the scale of the weights
  w <- rescale_weights(input$case_weights)
  if (!length(w)) w <- rep(1, length(p))
  sy <- sum(w * y)
  if (!(sy > 0 && sy < sum(w))) {
    warn_recalibration_undefined(what, "every outcome is the same", call)
    return(NA_real_)
  }
  if (what == "slope") {
    right <- y == 1
    if (max(x[!right]) <= min(x[right]) || max(x[right]) <= min(x[!right])) {
      warn_recalibration_undefined(what, paste(
        "the confidence separates the right from the wrong predictions",
        "(or is constant)"
      ), call)
      return(NA_real_)
    }
  }
  fit <- logistic_newton(x, y, w, slope = what == "slope")
  if (!fit$converged) {
    warn_recalibration_undefined(what, "Newton's method did not converge",
      call
    )
    return(NA_real_)
  }
  if (full) return(fit$coef)
  if (what == "slope") fit$coef[2] else fit$coef[1]
}

# Weighted logistic regression of y on (1, x) (slope = TRUE) or on 1 with
# offset x, by Newton's method with step halving on the log-likelihood
# (concave, so each accepted step increases it). Stops when the step is
# below 1e-13 (relative) or the score is zero.
logistic_newton <- function(x, y, w, slope, max_iter = 100L) {
  loglik <- function(eta) {
    # log(1 + exp(eta)) without overflow
    sum(w * (y * eta - pmax(eta, 0) - log1p(exp(-abs(eta)))))
  }
  beta <- if (slope) c(0, 1) else 0
  eta_of <- function(b) if (slope) b[1] + b[2] * x else b + x
  eta <- eta_of(beta)
  ll <- loglik(eta)
  for (iter in seq_len(max_iter)) {
    mu <- stats::plogis(eta)
    r <- w * (y - mu)
    h <- w * mu * (1 - mu)
    if (slope) {
      g <- c(sum(r), sum(r * x))
      hxx <- sum(h * x * x)
      hx <- sum(h * x)
      h0 <- sum(h)
      det <- h0 * hxx - hx * hx
      if (!(det > 0)) break
      step <- c(hxx * g[1] - hx * g[2], h0 * g[2] - hx * g[1]) / det
    } else {
      g <- sum(r)
      h0 <- sum(h)
      if (!(h0 > 0)) break
      step <- g / h0
    }
    if (all(g == 0)) return(list(coef = beta, converged = TRUE))
    t <- 1
    repeat {
      cand <- beta + t * step
      eta_c <- eta_of(cand)
      ll_c <- loglik(eta_c)
      if (ll_c >= ll - 1e-12 * abs(ll) || t < 1e-10) break
      t <- t / 2
    }
    small <- max(abs(t * step)) <= 1e-13 * (1 + max(abs(cand)))
    beta <- cand
    eta <- eta_c
    ll <- ll_c
    if (small) return(list(coef = beta, converged = TRUE))
  }
  list(coef = beta, converged = FALSE)
}

warn_recalibration_undefined <- function(what, why, call) {
  warn_aurc(
    c(
      "The calibration {what} does not exist here; returning {.val {NA}}.",
      i = "The logistic recalibration has no maximum: {why}."
    ),
    class = "aurc_warning_undefined", call = call
  )
}

#' Integrated calibration index (ICI), E50, E90 and Emax
#'
#' Austin and Steyerberg's (2019) summaries of a smooth calibration curve:
#' the outcome is smoothed on the confidence with `stats::loess()` and
#' `d_i = |p_i - s(p_i)|`, the distance of each sample's confidence from the
#' smoothed accuracy at it, is summarised: `ici()` is the (weighted) mean of
#' `d`, `e50()` its median, `e90()` its 90th percentile and `emax()` its
#' maximum. [calibration_summary()] computes all of them (and the intercept
#' and slope) from one smooth.
#'
#' @section The smoother:
#' As in the authors' code: `loess(y ~ p, span = 0.75, degree = 2, family =
#' "gaussian")` (R's defaults: local quadratic least squares with tricube
#' weights on the nearest 75% of the samples, no robustness iterations,
#' `surface = "interpolate"`), evaluated with `predict()` at the samples'
#' own confidences. The smooth is not clipped to `[0, 1]`. `span` can be
#' changed. The trace of loess's hat matrix, which only its summary
#' statistics use, is approximated (`loess.control(trace.hat =
#' "approximate")`): the smooth is the same, and the cost is linear in `n`
#' instead of quadratic (about 2 s at `n = 1e6`). The quantiles are R's default
#' (type 7) quantiles; with case
#' weights, the sample `i` counts `w_i` times: with `W = sum w`, position
#' `h = (W - 1) q + 1` in the sorted `d`, interpolated linearly between the
#' samples at cumulative weight `floor(h)` and `floor(h) + 1`. So E50 and
#' E90 count cases: weights that total less than one case give `NA` with a
#' warning of class `aurc_warning_weights_scale`, and totals above `2^53`
#' are brought into `[2^52, 2^53)` by a power of 2. ICI, Emax and the
#' smooth itself do not change when all weights are multiplied by one
#' number, at any scale.
#'
#' Case weights enter loess as its prior weights (`loess(weights = )`),
#' which multiply the tricube weights. loess chooses each neighbourhood by
#' the number of rows, not by weight, so unlike the other functions of
#' the package, integer weights do not give exactly the result of the rows
#' repeated; they give the weighted smooth on the same neighbourhoods.
#' Fewer than about 5 distinct confidences cannot be smoothed: the result
#' is then `NA` with a warning of class `aurc_warning_undefined`. Warnings
#' of loess itself (a nearly singular local fit) become one warning of
#' class `aurc_warning_loess`, and the value is kept.
#'
#' @section The lowess smoother of rms::val.prob():
#' With `smoother = "lowess"`, the smooth is that of Harrell's
#' `rms::val.prob()`, whose `Eavg`, `E90` and `Emax` these then equal:
#' `s = lowess(p, y, iter = 0)` (R's `stats::lowess()`: local linear
#' fits with tricube weights on the nearest `f = 2/3` of the samples, no
#' robustness iterations, interpolation between points closer than 1% of
#' the range of `p`), read at every sample's confidence by linear
#' interpolation (`approx(s, xout = p, ties = mean)`). When every
#' confidence is the same, `s` is the proportion of right predictions, as
#' in `val.prob()`. ICI is `val.prob()`'s `Eavg` (the mean of `d`), E90
#' and Emax its `E90` and `Emax`; `e50()` is the median of the same `d`.
#' The span is fixed at `val.prob()`'s: giving `span` with `"lowess"` warns
#' (class `aurc_warning_ignored`). lowess takes no weights: whole-number
#' case weights repeat the rows (so they are exactly frequencies, up to
#' `1e8` rows in all), other weights are an error of class
#' `aurc_error_value`. The loess smooth of Austin and Steyerberg stays the
#' default; the two differ (degree 2 on 75% of the samples against degree
#' 1 on 2/3), by a few thousandths in ICI on typical data.
#'
#' Intervals and paired comparisons: [selective_ci()] and
#' [compare_scores()] with `metrics = "ici"` (or `"e50"`, `"e90"`,
#' `"emax"`) and `method = "bootstrap"`; each replicate smooths the
#' resampled data again. There is no analytic interval. Emax, a maximum,
#' and E90 at small `n` have poor percentile intervals: see the coverage
#' measured in [selective_ci()].
#'
#' @inheritParams calibration_test
#' @param span The loess span (`0.75`, as Austin and Steyerberg), a number
#'   in `(0, 1]`.
#' @param smoother `"loess"` (the default, Austin and Steyerberg's smooth)
#'   or `"lowess"` (that of `rms::val.prob()`; see its section).
#' @return The `_vec` forms: a number. The data-frame forms: a tibble with
#'   the grouping columns, `.metric` (`"ici"`, `"e50"`, `"e90"`, `"emax"`),
#'   `.estimator` (the smoother, `"loess"` or `"lowess"`) and `.estimate`.
#' @references
#' Austin, P. C., Steyerberg, E. W. (2019). The Integrated Calibration Index
#' (ICI) and related metrics for quantifying the calibration of logistic
#' regression models. Statistics in Medicine 38(21), 4051-4065.
#'
#' Cleveland, W. S. (1979). Robust locally weighted regression and
#' smoothing scatterplots. Journal of the American Statistical Association
#' 74(368), 829-836.
#'
#' Harrell, F. E. rms: Regression Modeling Strategies. R package (version
#' 6.5-0 checked), function `val.prob()`.
#' @seealso [calibration_slope()], [calibration_test()], [smooth_ece()],
#'   [unreliability_index()].
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 1)
#' correct <- rbinom(1000, 1, confidence^2)
#' ici_vec(confidence, correct)
#' e90_vec(confidence, correct)
#' df <- data.frame(confidence, correct)
#' emax(df, confidence, correct)
#' @name ici
NULL

new_ici_vec <- function(metric) {
  function(confidence, correct, ..., span = 0.75, smoother = "loess",
           loss = NULL, na_rm = FALSE, case_weights = NULL) {
    correct_from_loss()
    check_dots(...)
    call <- rlang::current_env()
    check_span(span, call)
    smoother <- check_smoother(smoother, !missing(span), call)
    d <- ici_distances(confidence, correct, case_weights, span, na_rm, call,
      smoother = smoother
    )
    ici_summaries(d, metric, call)[[metric]]
  }
}

new_ici_df <- function(metric) {
  function(data, confidence, correct, ..., span = 0.75, smoother = "loess",
           loss = NULL, na_rm = FALSE, case_weights = NULL) {
    correct_from_loss()
    check_dots(...)
    call <- rlang::current_env()
    check_span(span, call)
    smoother <- check_smoother(smoother, !missing(span), call)
    metric_df(
      data,
      columns = list(
        confidence = rlang::enquo(confidence),
        correct = rlang::enquo(correct),
        case_weights = rlang::enquo(case_weights)
      ),
      fn = function(confidence, correct, case_weights) {
        d <- ici_distances(confidence, correct, case_weights, span, na_rm,
          call,
          smoother = smoother
        )
        ici_summaries(d, metric, call)[[metric]]
      },
      metric = metric, estimator = smoother, call = call
    )
  }
}

#' @rdname ici
#' @export
ici <- new_ici_df("ici")

#' @rdname ici
#' @export
ici_vec <- new_ici_vec("ici")

#' @rdname ici
#' @export
e50 <- new_ici_df("e50")

#' @rdname ici
#' @export
e50_vec <- new_ici_vec("e50")

#' @rdname ici
#' @export
e90 <- new_ici_df("e90")

#' @rdname ici
#' @export
e90_vec <- new_ici_vec("e90")

#' @rdname ici
#' @export
emax <- new_ici_df("emax")

#' @rdname ici
#' @export
emax_vec <- new_ici_vec("emax")

check_span <- function(span, call) {
  check_number(span, lower = 0, upper = 1, call = call)
  if (span == 0) {
    abort_aurc(
      c("{.arg span} must be above 0.", x = "It is {.val {span}}."),
      class = "aurc_error_value", call = call
    )
  }
  invisible(span)
}

# |p - s(p)| of validated samples with their weights (list d, w), or NULL
# (NA result; with a warning when nothing is left or no smooth exists).
ici_distances <- function(confidence, correct, case_weights, span, na_rm,
                          call, convention = TRUE, smoother = "loess") {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call,
    convention = convention
  )
  if (identical(input, "missing")) return(NULL)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NULL)
  }
  ici_smooth_distances(input, span, call, smoother)
}

# The trace of the hat matrix only feeds loess's summary statistics, not
# the fit; computed exactly (loess's default) it costs O(n^2).
ici_loess_control <- stats::loess.control(trace.hat = "approximate")

ici_smooth_distances <- function(input, span, call, smoother = "loess") {
  if (identical(smoother, "lowess")) return(ici_lowess_distances(input, call))
  p <- input$confidence
  # the smooth is free of the weights' scale (R/weights-scale.R); loess
  # fails on weights near 1e-320 or 1e308
  w <- rescale_weights(input$case_weights)
  frame <- data.frame(y = input$correct, p = p)
  if (length(w)) frame$w <- w
  # loess's own warnings (a singular local fit, too few distinct values)
  # are gathered into one classed warning
  notes <- character()
  smooth <- tryCatch(
    withCallingHandlers({
      fit <- if (length(w)) {
        stats::loess(y ~ p,
          data = frame, weights = w, span = span, degree = 2,
          family = "gaussian", control = ici_loess_control
        )
      } else {
        stats::loess(y ~ p,
          data = frame, span = span, degree = 2,
          family = "gaussian", control = ici_loess_control
        )
      }
      stats::predict(fit, newdata = data.frame(p = p))
    }, warning = function(cnd) {
      notes <<- c(notes, trimws(conditionMessage(cnd)))
      invokeRestart("muffleWarning")
    }),
    error = function(e) NULL
  )
  if (is.null(smooth) || anyNA(smooth) || any(!is.finite(smooth))) {
    warn_aurc(
      c(
        "The loess smooth failed here; returning {.val {NA}}.",
        i = paste(
          "loess needs more distinct confidences (at least about 5) than",
          "there are, or a larger {.arg span}."
        )
      ),
      class = "aurc_warning_undefined", call = call
    )
    return(NULL)
  }
  if (length(notes)) {
    warn_aurc(
      c(
        "loess warned while smoothing: {notes[1]}",
        i = paste(
          "The smooth may be unstable (few distinct confidences, or a small",
          "{.arg span})."
        )
      ),
      class = "aurc_warning_loess", call = call
    )
  }
  list(d = abs(p - as.numeric(smooth)), w = w, counts = input$case_weights)
}

# ICI, E50, E90, Emax of the distances (NAs for NULL). E50 and E90 are R's
# type-7 quantiles of the rows the weights stand for (position (W - 1) q +
# 1), so they count cases (R/weights-scale.R): weights totalling less
# than one case make them NA, with a warning when `wanted`.
ici_summaries <- function(dist, wanted = character(),
                          call = rlang::caller_env()) {
  if (is.null(dist)) {
    return(list(ici = NA_real_, e50 = NA_real_, e90 = NA_real_,
      emax = NA_real_))
  }
  d <- dist$d
  w <- dist$w
  if (!length(w)) {
    return(list(
      ici = mean(d), e50 = stats::median(d),
      e90 = stats::quantile(d, 0.9, names = FALSE), emax = max(d)
    ))
  }
  counts <- scale_group_weights(dist$counts, count = TRUE)
  quantile7 <- function(q) {
    if (counts$too_few) return(NA_real_)
    weighted_quantile7(d, counts$w, q)
  }
  if (counts$too_few && any(c("e50", "e90") %in% wanted)) {
    warn_weights_scale(intersect(c("E50", "E90"), toupper(wanted)),
      "The quantile lies at position (W - 1) q + 1 among W cases.",
      "{.fn ici} or {.fn emax}",
      call = call
    )
  }
  list(
    ici = sum(w * d) / sum(w), e50 = quantile7(0.5), e90 = quantile7(0.9),
    emax = max(d)
  )
}

# R's type 7 quantile with frequency weights: with W = sum(w), position
# h = (W - 1) q + 1; the j-th value is the first sorted value whose
# cumulative weight reaches j; linear interpolation between floor(h) and
# floor(h) + 1. Integer weights give quantile(rep(x, w), q).
weighted_quantile7 <- function(x, w, q) {
  o <- order(x)
  weighted_quantile7_sorted(x[o], cumsum(w[o]), q)
}

# The same on values already sorted (xs) with their cumulative weights cw.
weighted_quantile7_sorted <- function(xs, cw, q) {
  total <- cw[length(cw)]
  h <- (total - 1) * q + 1
  lo <- floor(h)
  at <- function(j) {
    xs[min(length(xs), findInterval(j, cw, left.open = TRUE) + 1L)]
  }
  a <- at(max(lo, 0))
  b <- at(lo + 1)
  a + (h - lo) * (b - a)
}

#' Calibration summaries of clinical prediction modelling, all at once
#'
#' The calibration intercept and slope ([calibration_slope()]) and ICI,
#' E50, E90 and Emax ([ici()]) from one validation of the input and one
#' smooth (loess, or with `smoother = "lowess"` that of `rms::val.prob()`),
#' as a long tibble (one row per summary and group).
#'
#' @inheritParams calibration_slope_vec
#' @inheritParams ici
#' @return A tibble with the grouping columns, `.metric`
#'   (`"calibration_intercept"`, `"calibration_slope"`, `"ici"`, `"e50"`,
#'   `"e90"`, `"emax"`), `.estimator` (`"logistic"`, or the smoother:
#'   `"loess"` or `"lowess"`) and
#'   `.estimate`.
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 0.99)
#' correct <- rbinom(1000, 1, plogis(0.6 * qlogis(confidence)))
#' calibration_summary(data.frame(confidence, correct), confidence, correct)
#' @export
calibration_summary <- function(data, confidence, correct, ..., eps = 1e-8,
                                span = 0.75, smoother = "loess", loss = NULL,
                                na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  eps <- check_eps(eps, call)
  check_span(span, call)
  smoother <- check_smoother(smoother, !missing(span), call)
  metrics <- c(
    "calibration_intercept", "calibration_slope", "ici", "e50", "e90",
    "emax"
  )
  calibration_df_rows(
    data,
    list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    function(confidence, correct, case_weights) {
      input <- calibration_frequency_input(confidence, correct,
        case_weights, na_rm, call
      )
      values <- rep(NA_real_, 6)
      if (is.null(input)) warn_no_data(call = call)
      if (is.list(input)) {
        s <- ici_summaries(
          ici_smooth_distances(input, span, call, smoother),
          c("e50", "e90"), call
        )
        values <- c(
          recalibration_fit(input, "intercept", eps, call),
          recalibration_fit(input, "slope", eps, call),
          s$ici, s$e50, s$e90, s$emax
        )
      }
      tibble::tibble(
        .metric = metrics, .estimator = rep(c("logistic", smoother), c(2, 4)),
        .estimate = values
      )
    },
    empty = tibble::tibble(
      .metric = character(), .estimator = character(), .estimate = double()
    ),
    call = call
  )
}
