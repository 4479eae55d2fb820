#' Smooth ECE: kernel-smoothed calibration error
#'
#' The smooth ECE of Blasiok and Nakkiran (2024) smooths the residuals
#' `y_i - f_i` (outcome minus confidence) with a Gaussian kernel reflected at
#' 0 and 1, and integrates the absolute smoothed residual:
#' `smECE_sigma = int_0^1 |g(t)| dt`, `g(t) = (1/W) sum_i w_i (y_i - f_i)
#' K_sigma(t, f_i)`, where `K_sigma(t, f) = sum_k [phi_sigma(t - f - 2k) +
#' phi_sigma(t + f - 2k)]` is the reflected Gaussian kernel (it integrates to
#' 1 over `[0, 1]` for every `f`). Unlike the binned ECE it depends on no bin
#' placement and is a consistent estimator of a proper calibration measure.
#' The default bandwidth is the authors' fixed point `sigma*` with
#' `smECE_sigma* = sigma*`.
#'
#' @section Bandwidth:
#' With `sigma = NULL` the bandwidth is found as the authors' library
#' `relplot` finds it: `sigma = 1` if `smECE_1 > 1` (never, in practice);
#' otherwise ten bisection steps on `(0, 1)`, a midpoint `s` moving the lower
#' end when `s < 0.001` or `smECE_s > s` and the upper end otherwise. The
#' result is the upper end (a multiple of `2^-10`, at which `smECE_sigma <=
#' sigma`), and the smooth ECE is evaluated there. `attr(, "sigma")` of the
#' result holds it.
#'
#' @section Methods:
#' The kernel sums are never computed pair by pair (that would cost
#' `n x grid`): the weighted residuals and weights are put on an equally
#' spaced grid by linear binning (a sample between two nodes is split between
#' them in proportion to its distance), and the grid is convolved with the
#' kernel. The cost is linear in `n` (no sort) plus a convolution whose size
#' depends only on `sigma`.
#' * `"fine"` (the default) computes the definition above: the kernel with
#'   all its reflections; `g` at `G + 1` equally spaced points, `G =
#'   max(200, ceiling(10 / sigma))`, and the trapezoid rule for the
#'   integral; the kernel sums at those points from a deposit on a grid 40
#'   times finer (spacing `delta <= sigma / 400`). Linear binning changes
#'   each kernel value by at most `delta^2 / 8` times the kernel's second
#'   derivative, so the smooth ECE moves by at most about `(delta^2 / 8)
#'   int |phi_sigma''| = 0.121 (delta / sigma)^2 <= 7.6e-7` from the value
#'   of the exact kernel sums on the same points. The Gaussian is cut at
#'   `9 sigma` (the mass beyond is `2e-19`).
#' * `"relplot"` reproduces the authors' Python library `relplot`
#'   (github.com/apple/ml-calibration, commit 18ff21a of November 2025),
#'   whose numbers papers report: residuals and weights
#'   binned onto `floor(max(2000, round(20 / sigma)) / 2) + 1` nodes; the
#'   Gaussian truncated at distance `1/2` and reflected once at each end
#'   (not infinitely often: this matters only for `sigma` above about 0.1);
#'   the smoothed values interpolated linearly at `max(200, round(10 /
#'   sigma))` equally spaced points `t_k`, and `smECE = sum_k |R(t_k)| /
#'   sum_k (D(t_k) + 1e-4)` (`R`, `D` the smoothed residual and weight sums):
#'   a density-weighted average instead of the integral, and a constant
#'   `1e-4` added to the density as in their code. Their reflection uses
#'   the end nodes as mirrors without adding a node's own image, so a sample
#'   at exactly 0 or 1 counts with half its weight (the definition gives
#'   it the kernel `2 phi(t - 1)`, of mass 1). This matters when many
#'   confidences are exactly 1: on the bundled `qda` model (31% at 1) the
#'   `relplot` value is 0.068 and the definition 0.053, on `rf` (22% at 1)
#'   0.177 and 0.158; on the other four bundled models the two methods agree
#'   within 0.001.
#'   The rules were read from their published code and implemented
#'   independently; the tests compare with a literal R transcription of
#'   their steps (to 1e-12), not with the Python code itself.
#'
#' @section Case weights:
#' Frequency weights multiply the deposited residual and weight of a
#' sample, so integer weights give exactly the result of repeated rows.
#' `"fine"` does not change when all weights are multiplied by one number,
#' at any scale. `"relplot"` adds `1e-4` to a density of cases, so its value
#' depends (slightly) on how many cases the weights stand for: weights that
#' total less than one case give `NA` with a warning of class
#' `aurc_warning_weights_scale`, and totals above `2^53` are brought into
#' `[2^52, 2^53)` by a power of 2 (where the `1e-4` no longer matters).
#'
#' @inheritParams calibration_bins
#' @param sigma The kernel bandwidth (standard deviation of the Gaussian on
#'   the confidence scale), a positive number, or `NULL` (the default) for
#'   the fixed point `sigma*` (see Bandwidth).
#' @param method `"fine"` or `"relplot"` (see Methods).
#' @param data A data frame (grouped data frames give one row per group).
#' @param na_rm If `FALSE` (the default) a missing confidence or
#'   correctness makes the result `NA`; if `TRUE` those samples are dropped.
#'
#' @return `smooth_ece_vec()`: a number with attribute `sigma` (the
#'   bandwidth used); `NA` when a value is missing and `na_rm = FALSE`, or
#'   with a warning of class `aurc_warning_no_data` when no sample is left.
#'   `smooth_ece()`: a tibble with `.metric` (`"smooth_ece"`), `.estimator`
#'   (the method) and `.estimate`, after the grouping columns.
#' @references
#' Blasiok, Nakkiran (2024). Smooth ECE: Principled Reliability Diagrams via
#' Kernel Smoothing. ICLR 2024.
#' @seealso [smooth_calibration()] for the smooth reliability diagram,
#'   [corp_reliability()], [ece_vec()].
#' @examples
#' set.seed(1)
#' confidence <- runif(2000, 0.5, 1)
#' correct <- rbinom(2000, 1, confidence^2)
#' smooth_ece_vec(confidence, correct)
#' smooth_ece_vec(confidence, correct, method = "relplot")
#' smooth_ece_vec(confidence, correct, sigma = 0.05)
#'
#' df <- data.frame(confidence, correct, model = rep(c("a", "b"), 1000))
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   smooth_ece(dplyr::group_by(df, model), confidence, correct)
#' }
#' @export
smooth_ece_vec <- function(confidence, correct, ..., sigma = NULL,
                           method = c("fine", "relplot"),
                           loss = NULL, na_rm = FALSE,
                           case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  opts <- smooth_options(sigma, method, call)
  input <- smooth_input(confidence, correct, case_weights, na_rm, call,
    count = opts$method == "relplot"
  )
  if (identical(input, "missing")) return(NA_real_)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NA_real_)
  }
  if (isTRUE(input$too_few)) return(warn_relplot_scale(call))
  smooth_ece_counts(input, NULL, opts)
}

#' @rdname smooth_ece_vec
#' @export
smooth_ece <- function(data, confidence, correct, ..., sigma = NULL,
                       method = c("fine", "relplot"),
                       loss = NULL, na_rm = FALSE,
                       case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  opts <- smooth_options(sigma, method, call)
  metric_df(
    data,
    columns = list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(confidence, correct, case_weights) {
      input <- smooth_input(confidence, correct, case_weights, na_rm, call,
        count = opts$method == "relplot"
      )
      if (identical(input, "missing")) return(NA_real_)
      if (is.null(input)) {
        warn_no_data(call = call)
        return(NA_real_)
      }
      if (isTRUE(input$too_few)) return(warn_relplot_scale(call))
      as.numeric(smooth_ece_counts(input, NULL, opts))
    },
    metric = "smooth_ece", estimator = opts$method, call = call
  )
}

# `method_arg`: the name the caller gave `method` (`smooth_method` in the
# intervals).
smooth_options <- function(sigma, method, call, method_arg = "method") {
  method <- check_choice(first_choice(method), c("fine", "relplot"),
    arg = method_arg, call = call
  )
  # bounded so the kernel grid (about 20 / sigma nodes) and the kernel's
  # window (a few sigma) stay small; beyond 10 the kernel is flat on [0, 1]
  if (!is.null(sigma) && !(is_number_in(sigma, 1e-4, 10, FALSE, FALSE))) {
    shown <- if (is.numeric(sigma) && length(sigma) == 1) {
      "{.val {sigma}}"
    } else {
      "{.obj_type_friendly {sigma}}"
    }
    abort_aurc(
      c(
        "{.arg sigma} must be a number from 1e-4 to 10, or {.code NULL}.",
        x = paste0("It is ", shown, "."),
        i = "{.code NULL} finds the bandwidth as the fixed point."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (!is.null(sigma)) sigma <- as.double(sigma)
  list(sigma = sigma, method = method)
}

# Validated calibration samples (see calibration_input()). `count`: the
# weights count cases (the relplot method adds 1e-4 to a density of cases).
smooth_input <- function(confidence, correct, case_weights, na_rm, call,
                         count = FALSE) {
  calibration_input(confidence, correct, case_weights, na_rm,
    settings = list(binning = "none"), call = call, count = count
  )
}

# NA with the classed warning of R/weights-scale.R: the relplot smooth ECE
# on weights totalling less than one case.
warn_relplot_scale <- function(call) {
  warn_weights_scale("{.code method = \"relplot\"}", relplot_scale_why,
    "{.code method = \"fine\"}",
    call = call
  )
  NA_real_
}

relplot_scale_why <- paste(
  "It adds 1e-4 to the smoothed density of cases, as the authors' code",
  "does."
)

# The smooth ECE of validated samples whose weights are multiplied by
# `counts` (NULL: 1): the statistic a bootstrap replicate evaluates (a
# replicate is a vector of counts over the rows, no re-sort). The bandwidth
# is searched again unless fixed. Returns the value with attribute `sigma`.
smooth_ece_counts <- function(input, counts, opts) {
  w <- input$case_weights
  if (!is.null(counts)) {
    w <- if (length(w)) w * counts else as.double(counts)
  }
  sigma <- if (is.null(opts$sigma)) NaN else opts$sigma
  res <- smooth_ece_impl(
    input$confidence, input$correct, w, sigma, opts$method,
    smooth_sigma_floor, smooth_bisection_steps
  )
  structure(res[1], sigma = res[2])
}

# relplot's search: eps = 0.001, refine = 10.
smooth_sigma_floor <- 0.001
smooth_bisection_steps <- 10L

#' Smooth reliability diagram
#'
#' Estimates the calibration curve `E[y | f = t]` by kernel smoothing (the
#' smoothed residual of [smooth_ece_vec()] added back to `t`:
#' `mu(t) = t + R(t) / D(t)`, with `D(t)` the smoothed weight, plus `1e-4`
#' for `method = "relplot"` as in the authors' code), with a pointwise
#' percentile band from `times` bootstrap resamples of the rows at the same
#' bandwidth (as `relplot` draws its band; its main line is the bootstrap
#' mean, here it is the estimate on the data), and the kernel density of the
#' confidences. Returned as a tibble of class `aurc_smooth_calibration`
#' whose [autoplot()][ggplot2::autoplot()] draws the diagram.
#'
#' @param data A data frame with the columns (one data set: a grouped data
#'   frame is an error); `confidence`, `correct` and `case_weights` are
#'   then unquoted columns of it. The vector-first call of earlier
#'   versions, `smooth_calibration(confidence, correct)`, still works and says
#'   once per
#'   session that the order has changed.
#' @inheritParams smooth_ece_vec
#' @param times Number of bootstrap resamples for the band (0 for none).
#' @param conf_level Level of the pointwise band.
#' @return A tibble of class `aurc_smooth_calibration`, one row per point
#'   `t` (200 points for `"relplot"`, the fine grid otherwise): `confidence`
#'   (`t`), `accuracy` (`mu(t)`), `lower`, `upper` (the band), `density`
#'   (kernel density of the confidences). An accuracy lies in `[0, 1]`:
#'   the curve and band are clipped there, and are `NA` outside the range
#'   of the confidences (where the kernel estimate is an extrapolation; the
#'   density is kept). Attributes: `smooth_ece`,
#'   `sigma`, `method`, `n`, `times`, `conf_level`. The band uses R's
#'   random numbers (`set.seed()` reproduces it).
#' @references
#' Blasiok, Nakkiran (2024). Smooth ECE: Principled Reliability Diagrams via
#' Kernel Smoothing. ICLR 2024.
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.4, 1)
#' correct <- rbinom(1000, 1, confidence^2)
#' sm <- smooth_calibration(data.frame(confidence, correct), confidence,
#'   correct, times = 50)
#' sm
#' autoplot(sm)
#' @export
smooth_calibration <- function(data, confidence, correct, ..., sigma = NULL,
                               method = c("fine", "relplot"), times = 200,
                               conf_level = 0.95, loss = NULL,
                               na_rm = FALSE,
                               case_weights = NULL) {
  data_first_call(smooth_calibration_vectors,
    c("confidence", "correct", "case_weights", "loss")
  )
}

# The vector form of smooth_calibration() (R/data-first.R).
smooth_calibration_vectors <- function(confidence, correct, ...,
                                       sigma = NULL,
                                       method = c("fine", "relplot"),
                                       times = 200, conf_level = 0.95,
                                       loss = NULL,
                                       na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  opts <- smooth_options(sigma, method, call)
  check_number(times, lower = 0, upper = 1e5, whole = TRUE, call = call)
  check_number(conf_level, lower = 0, upper = 1, open = TRUE, call = call)
  input <- smooth_input(confidence, correct, case_weights, na_rm, call,
    count = opts$method == "relplot"
  )
  if (identical(input, "missing")) {
    abort_aurc(
      c(
        "{.arg confidence} and {.arg correct} must not have missing values.",
        i = "Use {.code na_rm = TRUE} to drop them."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (is.null(input)) {
    abort_aurc("No samples left to smooth.",
      class = "aurc_error_no_data", call = call
    )
  }
  if (isTRUE(input$too_few)) {
    abort_weights_scale("the relplot curve and band", relplot_scale_why,
      "{.code method = \"fine\"}",
      call = call
    )
  }
  value <- smooth_ece_counts(input, NULL, opts)
  sigma <- attr(value, "sigma")
  mesh <- seq(0, 1, length.out = 200)
  curve <- smooth_curve(input, input$case_weights, sigma, opts$method, mesh)
  n <- length(input$confidence)
  lower <- upper <- rep(NA_real_, length(curve$t))
  if (times > 0) {
    w0 <- if (length(input$case_weights)) input$case_weights else 1
    reps <- vapply(seq_len(times), function(b) {
      counts <- tabulate(sample.int(n, n, replace = TRUE), n)
      smooth_curve(input, w0 * counts, sigma, opts$method, mesh)$mu
    }, numeric(length(curve$t)))
    probs <- c((1 - conf_level) / 2, 1 - (1 - conf_level) / 2)
    band <- apply(reps, 1, stats::quantile, probs = probs, na.rm = TRUE,
      names = FALSE
    )
    lower <- band[1, ]
    upper <- band[2, ]
  }
  # an accuracy is a probability, and outside the data the estimate is an
  # extrapolation (it reached -0.076 at confidence 0 with no data there)
  inside <- curve$t >= min(input$confidence) & curve$t <= max(input$confidence)
  clip <- function(x) ifelse(inside, pmin(pmax(x, 0), 1), NA_real_)
  tab <- tibble::tibble(
    confidence = curve$t, accuracy = clip(curve$mu), lower = clip(lower),
    upper = clip(upper), density = curve$density
  )
  structure(tab,
    class = c("aurc_smooth_calibration", "tbl_df", "tbl", "data.frame"),
    smooth_ece = as.numeric(value), sigma = sigma, method = opts$method,
    n = if (length(input$case_weights)) {
      # the total of the weights as given
      times_pow2(sum(input$case_weights), -input$weight_exponent)
    } else {
      length(input$confidence)
    },
    times = times, conf_level = conf_level
  )
}

# mu(t) and the density at the method's points.
smooth_curve <- function(input, w, sigma, method, mesh) {
  w <- as.double(w)
  res <- smooth_curve_impl(input$confidence, input$correct, w, sigma,
    method, mesh
  )
  total <- if (length(w)) sum(w) else length(input$confidence)
  eps <- if (method == "relplot") 1e-4 else 0
  den <- res$weight + eps
  mu <- ifelse(den > 0, res$t + res$residual / den, NA_real_)
  list(t = res$t, mu = mu, density = res$weight / total)
}

#' @export
print.aurc_smooth_calibration <- function(x, ...) {
  cat(sprintf(
    "# Smooth reliability diagram (%s): smooth ECE = %s, sigma = %s\n",
    attr(x, "method"), format(attr(x, "smooth_ece"), digits = 4),
    format(attr(x, "sigma"), digits = 4)
  ))
  if (attr(x, "times") > 0) {
    cat(sprintf(
      "# %s%% pointwise band from %d bootstrap resamples\n",
      format(100 * attr(x, "conf_level")), as.integer(attr(x, "times"))
    ))
  }
  print(tibble::new_tibble(as.list(x), nrow = nrow(x)), ...)
  invisible(x)
}

#' @export
`[.aurc_smooth_calibration` <- function(x, ...) {
  out <- NextMethod()
  if (!is.data.frame(out)) return(out)
  columns <- unclass(out)
  attributes(columns) <- list(names = names(out))
  tibble::new_tibble(columns, nrow = nrow(out))
}
