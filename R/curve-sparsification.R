#' Sparsification curve
#'
#' The error left after removing the most uncertain predictions, at every
#' fraction removed, with the oracle's (the largest errors removed first);
#' the area between them is the AUSE ([ause()]), in either definition.
#'
#' * `definition = "ilg"`: `error` is the mean error of the predictions
#'   kept, one row per distinct uncertainty (most certain last removed):
#'   `fraction_removed = 1 - coverage` and `error` the selective risk of
#'   [rc_curve()] with the score `-uncertainty`. The value holds from its
#'   fraction up to the next (step rule); the oracle is strict (every row
#'   its own step, ties in the error change nothing) and is thinned to at
#'   most 2000 points. With case weights the oracle drawn takes a weighted
#'   row as one step, while [ause()] counts a weight as copies (as
#'   [eaurc()]); the two agree for unit weights.
#' * `definition = "torch_uncertainty"`: `error` is the share of the total
#'   error kept, `R_j / S`, at `fraction_removed = j / (n + 1)`, at the
#'   knots of the curve (`j = 0`, the ends of the tie groups, and
#'   `j = n`); it is linear between knots (see [ause()]).
#'
#' @inheritParams ause
#' @return A tibble of class `aurc_sparsification_curve` with
#'   `fraction_removed` and `error` (after the grouping columns). Its
#'   attribute `oracle` holds the oracle curve, `areas` the AUSE of each
#'   group (column `ause`). Missing values without `na_rm` and no row left
#'   are errors.
#' @references
#' Ilg, Cicek, Galesso, Klein, Makansi, Hutter, Brox (2018). Uncertainty
#' Estimates and Multi-Hypotheses Networks for Optical Flow. ECCV.
#' @seealso [ause()], [autoplot.aurc_sparsification_curve()]
#' @examples
#' set.seed(3)
#' sigma <- runif(500, 0.1, 2)
#' error <- abs(rnorm(500, sd = sigma))
#' curve <- sparsification_curve_vec(sigma, error)
#' curve
#' ggplot2::autoplot(curve)
#' ggplot2::autoplot(
#'   sparsification_curve_vec(sigma, error, definition = "torch_uncertainty")
#' )
#' @export
sparsification_curve <- function(data, uncertainty, error, ...,
                                 definition = "ilg", na_rm = FALSE,
                                 case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  by <- ause_by_group(data, rlang::enquo(uncertainty), rlang::enquo(error),
    rlang::enquo(case_weights), function(v) {
      sparsification_one(v$uncertainty, v$error, definition, na_rm,
        v$case_weights, call
      )
    }, call
  )
  sparsification_bind(by$parts, by$keys, definition)
}

#' @rdname sparsification_curve
#' @export
sparsification_curve_vec <- function(uncertainty, error, ...,
                                     definition = "ilg", na_rm = FALSE,
                                     case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  part <- sparsification_one(uncertainty, error, definition, na_rm,
    case_weights, call
  )
  sparsification_bind(list(part), NULL, definition)
}

sparsification_bind <- function(parts, keys, definition) {
  stack <- function(what) {
    do.call(rbind, lapply(seq_along(parts), function(g) {
      x <- parts[[g]][[what]]
      if (is.null(keys)) return(x)
      tibble::as_tibble(c(keys[rep(g, nrow(x)), , drop = FALSE], x))
    }))
  }
  curve <- tibble::new_tibble(stack("curve"),
    class = "aurc_sparsification_curve"
  )
  attr(curve, "oracle") <- stack("oracle")
  attr(curve, "areas") <- stack("areas")
  attr(curve, "definition") <- definition
  attr(curve, "group_vars") <- names(keys)
  curve
}

sparsification_one <- function(uncertainty, error, definition, na_rm,
                               case_weights, call) {
  x <- ause_input(uncertainty, error, definition, na_rm, case_weights, call)
  if (is.null(x)) {
    abort_aurc(
      c(
        "{.arg uncertainty} and {.arg error} must not have missing values.",
        i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (length(x$u) == 0) {
    abort_aurc(
      c(
        "Can't compute a curve without data.",
        i = "No pair is left, or every case weight is 0."
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  w <- if (x$weighted) x$w else NULL
  ause <- ause_value(x$u, x$e, definition, FALSE, w, call)
  areas <- tibble::tibble(definition = definition, ause = ause)
  if (definition == "ilg") {
    rc <- withCallingHandlers(
      rc_curve_vec(-x$u, x$e, case_weights = w),
      aurc_warning_direction = function(cnd) invokeRestart("muffleWarning")
    )
    oracle <- attr(rc, "oracle")
    return(list(
      curve = tibble::tibble(
        fraction_removed = rev(1 - rc$coverage),
        error = rev(rc$selective_risk)
      ),
      oracle = tibble::tibble(
        fraction_removed = rev(1 - oracle$coverage),
        error = rev(oracle$selective_risk)
      ),
      areas = areas
    ))
  }
  s <- sum(x$w * x$e)
  n <- sum(x$w)
  knots <- function(key) {
    k <- kept_error_sums(key, x$e, x$w)
    # kept m = n - j + 1 at the knots, plus j = 0 (all kept) and j = n
    j <- c(0, n - k$m + 1, n)
    r <- c(s, k$kept, k$first)
    o <- order(j)
    keep <- !duplicated(j[o])
    tibble::tibble(fraction_removed = j[o][keep] / (n + 1),
      error = if (s > 0) r[o][keep] / s else NA_real_
    )
  }
  list(curve = knots(x$u), oracle = knots(x$e), areas = areas)
}
