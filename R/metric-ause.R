#' Area under the sparsification error (AUSE)
#'
#' How far an uncertainty estimate is from ranking the errors perfectly:
#' the area between the sparsification curve (the error left after
#' removing the most uncertain predictions) and the oracle's (removing the
#' largest errors first). Two definitions are in use and they differ on the
#' same data; `definition =` names the one you mean.
#'
#' @section Definitions:
#' With `u_i` the uncertainty, `e_i` the error (e.g. a regression's
#' absolute error, the end-point error of optical flow), `n` predictions:
#'
#' * `"ilg"` (Ilg et al. 2018): removing the fraction `k / n` of the most
#'   uncertain predictions, `k = 0, ..., n - 1`, the sparsification curve is
#'   the mean error of the predictions kept, `SE(k / n)`; the oracle
#'   `SE*(k / n)` removes the `k` largest errors instead. Then
#'   `AUSE = (1 / n) sum_{k = 0}^{n - 1} (SE(k / n) - SE*(k / n))`,
#'   the area between the curves by the step rule. Tied uncertainties are
#'   removed together: at a cut inside a tie group the whole group is kept
#'   (the convention of the AURC). With case weights a row of weight `w`
#'   counts as `w` rows, as in [eaurc()].
#' * `"torch_uncertainty"` (the `AUSE` metric of torch-uncertainty): the
#'   curve is the share of the total error `S = sum_i e_i` kept,
#'   `R_0 = S` and, for `j = 1, ..., n`, `R_j` the summed error of the
#'   `n - j + 1` least uncertain predictions; the oracle `R*_j` keeps the
#'   `n - j + 1` smallest errors. With `y_j = (R_j - R*_j) / S` at
#'   `x_j = j / (n + 1)`, `AUSE` is the trapezoid rule over
#'   `j = 0, ..., n`:
#'   `(1 / (n + 1)) (sum_{j = 0}^{n} y_j - (y_0 + y_n) / 2)`.
#'   (The curve starts with two points at `S`, and a full removal is never
#'   reached: as in torch-uncertainty.) At tied uncertainties the value is
#'   the mean over every order of the tied predictions (torch-uncertainty's
#'   `argsort` picks one arbitrarily): the error kept grows linearly
#'   through a tie group. Case weights must be whole numbers (counts of
#'   rows). `NA` with a warning of class `aurc_warning_undefined` when
#'   every error is 0.
#'
#' @section AUSE and E-AURC:
#' With the score `-u` (least uncertain most confident) and the loss `e`,
#' `SE(k / n)` is the selective risk at coverage `(n - k) / n`, and
#' `"ilg"` is exactly `eaurc_vec(-u, e, estimator = "alpha",
#' optimum = "exact")`: the mean over the `n` cuts of the selective risk
#' (the `"alpha"` estimator, Eq. 10 of Zhou et al.) minus the same for the
#' oracle order (the exact optimum). This is how `"ilg"` is computed, and
#' why its intervals are those of E-AURC:
#' `selective_ci_vec(-u, e, metrics = "eaurc")` (analytic, or
#' `method = "bootstrap"`). The `"torch_uncertainty"` curve is a sum, not a
#' mean: it is the generalized risk-coverage curve (see [augrc()]) divided
#' by the mean error, sampled at `n + 1` points. Without ties in `u`,
#' `sum_{j >= 1} R_j = n^2 AURC_sele` (the `"sele"` estimator of
#' [aurc_vec()]), so with `e_top` the error of the least uncertain
#' prediction,
#' `AUSE_tu = (n^2 eaurc_vec(-u, e, estimator = "sele") - (e_top - min(e)) / 2)
#' / ((n + 1) S)`,
#' about `eaurc_vec(-u, e, estimator = "sele") / mean(e)` for large `n`:
#' the E-AURC of the `"sele"` estimator over the mean error. [ause_ci()]
#' gives the intervals of both definitions.
#'
#' @param data A data frame (a grouped data frame gives one row per group).
#' @param uncertainty The uncertainty of each prediction: higher means
#'   less confident (removed first). For `ause()` an unquoted column.
#' @param error The error of each prediction, finite and non-negative. For
#'   `ause()` an unquoted column.
#' @param definition `"ilg"` (default) or `"torch_uncertainty"` (see
#'   Definitions).
#' @param ... Not used; must be empty.
#' @param na_rm If `TRUE`, pairs with a missing value are dropped; else the
#'   value is `NA`.
#' @param case_weights Non-negative case weights, or `NULL`.
#' @return `ause_vec()`: a single number. `ause()`: a tibble with
#'   `.metric` (`"ause"`), `.estimator` (the definition) and `.estimate`.
#' @references
#' Ilg, Cicek, Galesso, Klein, Makansi, Hutter, Brox (2018). Uncertainty
#' Estimates and Multi-Hypotheses Networks for Optical Flow. ECCV.
#'
#' torch-uncertainty (ENSTA U2IS), the `AUSE` metric,
#' `torch_uncertainty/metrics/classification/sparsification.py`, and its
#' tests `tests/metrics/classification/test_sparsification.py`.
#'
#' Zhou, Van Landeghem, Popordanoska, Blaschko (2025). A Novel
#' Characterization of the Population Area Under the Risk Coverage Curve
#' (AURC) and Rates of Finite Sample Estimators. ICML 2025.
#' @seealso [ause_ci()], [sparsification_curve()], [eaurc()]
#' @examples
#' # torch-uncertainty's test data
#' uncertainty <- c(0.2, 0.1, 0.5, 0.3, 0.4)
#' error <- c(0.1, 0.2, 0.3, 0.4, 0.5)
#' ause_vec(uncertainty, error)
#' ause_vec(uncertainty, error, definition = "torch_uncertainty")
#' # the identity behind "ilg"
#' eaurc_vec(-uncertainty, error)
#' @export
ause <- function(data, uncertainty, error, ..., definition = "ilg",
                 na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  by <- ause_by_group(data, rlang::enquo(uncertainty), rlang::enquo(error),
    rlang::enquo(case_weights), function(v) {
      ause_value(v$uncertainty, v$error, definition, na_rm,
        v$case_weights, call
      )
    }, call
  )
  out <- tibble::tibble(
    .metric = "ause", .estimator = definition,
    .estimate = as.numeric(unlist(by$parts))
  )
  if (is.null(by$keys)) return(out)
  tibble::as_tibble(c(by$keys, out))
}

# The data-frame forms of the AUSE family (ause(), ause_ci(),
# sparsification_curve()): the columns of `data`, then `fun` of each
# group's columns (a list of uncertainty, error, case_weights). Returns
# the group keys (NULL without groups) and one result per group.
ause_by_group <- function(data, uncertainty, error, case_weights, fun,
                          call) {
  check_local_data(data, call, what = "The AUSE is") # (a classed error)
  quos <- list(
    uncertainty = uncertainty, error = error, case_weights = case_weights
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    fun(lapply(values, function(x) if (is.null(x)) NULL else x[rows]))
  })
  list(keys = groups$keys, parts = parts)
}

#' @rdname ause
#' @export
ause_vec <- function(uncertainty, error, ..., definition = "ilg",
                     na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  ause_value(uncertainty, error, definition, na_rm, case_weights, call)
}

ause_definitions <- c("ilg", "torch_uncertainty")

# Validates the pair and drops incomplete rows (with na_rm). Returns NULL
# when the value is NA (missing values without na_rm).
ause_input <- function(uncertainty, error, definition, na_rm, case_weights,
                       call) {
  case_weights <- plain_weights(case_weights)
  check_numeric_vector(uncertainty, "uncertainty", call = call)
  n <- length(uncertainty)
  check_loss(error, n, arg = "error", call = call)
  check_same_length(error, n, "error", arg_n = "uncertainty", call = call)
  check_case_weights(case_weights, n, call = call)
  check_bool(na_rm, call = call)
  if (definition == "torch_uncertainty" && length(case_weights) &&
    any(case_weights != round(case_weights))) {
    abort_aurc(
      c(
        "{.arg case_weights} must be whole numbers for the definition
         {.val torch_uncertainty}.",
        i = "It counts predictions: a weight is a number of copies."
      ),
      class = "aurc_error_value", call = call
    )
  }
  incomplete <- is.na(uncertainty) | is.na(error)
  if (any(incomplete)) {
    if (!na_rm) return(NULL)
    uncertainty <- uncertainty[!incomplete]
    error <- error[!incomplete]
    if (length(case_weights)) case_weights <- case_weights[!incomplete]
  }
  w <- if (length(case_weights)) {
    as.double(case_weights)
  } else {
    rep(1, length(uncertainty))
  }
  keep <- w > 0
  list(
    u = as.double(uncertainty[keep]), e = as.double(error[keep]),
    w = w[keep], weighted = length(case_weights) > 0
  )
}

ause_value <- function(uncertainty, error, definition, na_rm, case_weights,
                       call) {
  x <- ause_input(uncertainty, error, definition, na_rm, case_weights, call)
  if (is.null(x)) return(NA_real_)
  if (length(x$u) == 0) {
    warn_no_data(call = call)
    return(NA_real_)
  }
  if (definition == "ilg") {
    # the identity of the help page: E-AURC of the score -u
    return(withCallingHandlers(
      eaurc_vec(-x$u, x$e,
        estimator = "alpha", optimum = "exact",
        case_weights = if (x$weighted) x$w else NULL
      ),
      aurc_warning_direction = function(cnd) invokeRestart("muffleWarning")
    ))
  }
  ause_torch_uncertainty(x$u, x$e, x$w, call)
}

# The summed error kept by the ordering `key` (lowest first) as m runs over
# 1..n (n = sum(w)), linear through each tie group of `key`: its knots
# (m at the end of each group, the error kept there), the sum over m of the
# error kept, and the error kept at m = 1.
kept_error_sums <- function(key, e, w) {
  o <- order(key)
  k <- key[o]
  ends <- c(which(diff(k) != 0), length(k))
  count <- diff(c(0, cumsum(w[o])[ends]))
  sums <- diff(c(0, cumsum(w[o] * e[o])[ends]))
  before <- cumsum(sums) - sums
  list(
    m = cumsum(count), kept = cumsum(sums),
    total = sum(count * before + sums * (count + 1) / 2),
    first = sums[1] / count[1]
  )
}

ause_torch_uncertainty <- function(u, e, w, call) {
  # the value does not change when every error is multiplied by one
  # number: errors near the largest double are brought below 1 so that
  # their sums do not overflow
  top <- max(e)
  if (top > 1) e <- e / top
  s <- sum(w * e)
  n <- sum(w)
  if (!(s > 0)) {
    warn_aurc(
      c(
        "AUSE (torch-uncertainty) is undefined when every error is 0;
         returning {.val {NA}}.",
        i = "It divides by the total error."
      ),
      class = "aurc_warning_undefined", call = call
    )
    return(NA_real_)
  }
  if (n > 2^500) {
    # weights standing for more rows than a double's square root: the
    # sums over pairs of rows overflow; the same value from the shares
    # w / n (the totals are of order n^2, the rest of order n)
    model <- kept_error_sums(u, e, w / n)
    oracle <- kept_error_sums(e, e, w / n)
    share <- (model$total - oracle$total) / (s / n)
    y_n <- (model$first - oracle$first) / s
    return(share * n / (n + 1) - y_n / (2 * (n + 1)))
  }
  model <- kept_error_sums(u, e, w)
  oracle <- kept_error_sums(e, e, w)
  sum_y <- (model$total - oracle$total) / s
  y_n <- (model$first - oracle$first) / s
  (sum_y - y_n / 2) / (n + 1)
}
