#' Confidence intervals of the AUSE
#'
#' Analytic (influence-function) intervals of [ause()] in either
#' definition.
#'
#' * `definition = "ilg"`: Ilg et al.'s AUSE is the E-AURC of the score
#'   `-uncertainty` (`"alpha"` estimator, exact optimum; see [ause()]), so
#'   its interval is exactly that of
#'   `selective_ci_vec(-uncertainty, error, metrics = "eaurc")`, through
#'   the metric registry (use [selective_ci()] itself for the bootstrap,
#'   strata or clusters).
#' * `definition = "torch_uncertainty"`: with `u` the uncertainty, `e` the
#'   error, weights `w` (total `N`), torch-uncertainty's AUSE is
#'   `(N / (N + 1)) tau` up to a term of order `1 / N`, where
#'   `tau = (theta - theta*) / mean(e)` and
#'   `theta = (1 / N^2) sum_i sum_j w_i w_j e_i h(u_i, u_j)`,
#'   `h(a, b) = 1(b > a) + 1(b = a) / 2` (the share of the error kept,
#'   summed over the removal fractions; ties count one half, as the AUSE's
#'   mean over the orders of tied rows), and `theta*` the same with `u`
#'   replaced by `e` (the oracle). `theta` is a V-statistic with influence
#'   value `IF_i = e_i H(u_i) + G(u_i) - 2 theta`, `H(a)` the weighted
#'   share of rows with `u > a` plus half of those with `u = a`, `G(a)` the
#'   weighted mean of `e_j (1(u_j < a) + 1(u_j = a) / 2)`; the mean has
#'   `e_i - mean(e)`; the ratio rule gives
#'   `IF_tau = (IF_theta - IF_theta* - tau (e_i - mean(e))) / mean(e)`.
#'   The interval is `AUSE +- z SE` with
#'   `SE = sqrt(sum_i w_i IF_i^2 N / (N - 1)) / N` (the standard error of
#'   [selective_ci()]'s analytic intervals, `?aurc-influence`).
#'
#' The same intervals, the bootstrap, strata and clusters, and paired
#' comparisons of uncertainty measures come from the catalog entry
#' `"ause"` (the score a confidence, so the uncertainty negated):
#' `selective_ci_vec(-uncertainty, error, metrics = "ause", definition =
#' )` (its analytic interval is this one), [compare_scores()] and
#' [compare_groups()] with `metric = "ause"`.
#'
#' The script `studies/ause-interval-coverage.R` simulates their
#' coverage on a heteroscedastic regression (the uncertainty a noisy
#' standard deviation).
#'
#' @inheritParams ause
#' @param conf_level Confidence level, in `(0, 1)`.
#' @return A tibble with `.metric` (`"ause"`), `.estimator` (the
#'   definition), `.estimate`, `.lower`, `.upper`, `.std_error`,
#'   `.conf_level` and `.method` (`"analytic"`); the data-frame form one row
#'   per group, after the grouping columns.
#' @seealso [ause()], [selective_ci()]
#' @examples
#' set.seed(1)
#' sigma <- runif(500, 0.2, 2)
#' error <- abs(rnorm(500, sd = sigma))
#' uncertainty <- sigma * exp(rnorm(500, sd = 0.5))
#' ause_ci_vec(uncertainty, error)
#' ause_ci_vec(uncertainty, error, definition = "torch_uncertainty")
#' @export
ause_ci <- function(data, uncertainty, error, ..., definition = "ilg",
                    conf_level = 0.95, na_rm = FALSE, case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  by <- ause_by_group(data, rlang::enquo(uncertainty), rlang::enquo(error),
    rlang::enquo(case_weights), function(v) {
      ause_interval(v$uncertainty, v$error, definition, conf_level, na_rm,
        v$case_weights, call
      )
    }, call
  )
  out <- do.call(rbind, by$parts)
  if (is.null(by$keys)) return(out)
  tibble::as_tibble(c(by$keys, out))
}

#' @rdname ause_ci
#' @export
ause_ci_vec <- function(uncertainty, error, ..., definition = "ilg",
                        conf_level = 0.95, na_rm = FALSE,
                        case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  definition <- check_choice(definition, ause_definitions, call = call)
  ause_interval(uncertainty, error, definition, conf_level, na_rm,
    case_weights, call
  )
}

ause_interval <- function(uncertainty, error, definition, conf_level, na_rm,
                          case_weights, call) {
  check_number(conf_level, 0, 1, open = TRUE, call = call)
  x <- ause_input(uncertainty, error, definition, na_rm, case_weights, call)
  row <- function(est, se) {
    z <- stats::qnorm((1 + conf_level) / 2)
    tibble::tibble(
      .metric = "ause", .estimator = definition, .estimate = est,
      .lower = est - z * se, .upper = est + z * se, .std_error = se,
      .conf_level = conf_level, .method = "analytic"
    )
  }
  if (is.null(x)) return(row(NA_real_, NA_real_))
  if (length(x$u) == 0) {
    warn_no_data(call = call)
    return(row(NA_real_, NA_real_))
  }
  w <- if (x$weighted) x$w else NULL
  if (definition == "ilg") {
    ci <- withCallingHandlers(
      selective_ci_vec(-x$u, x$e,
        metrics = "eaurc", conf_level = conf_level, case_weights = w
      ),
      aurc_warning_direction = function(cnd) invokeRestart("muffleWarning")
    )
    return(row(ci$.estimate, ci$.std_error))
  }
  est <- ause_value(x$u, x$e, definition, FALSE, w, call)
  if (is.na(est)) return(row(NA_real_, NA_real_))
  se <- influence_std_error(ause_tu_influence(x$u, x$e, x$w), w)
  row(est, se)
}

# Influence values of tau = (theta - theta*) / mean(e) (see ?ause_ci).
ause_tu_influence <- function(u, e, w) {
  top <- max(e)
  if (top > 1) e <- e / top # tau is free of the errors' scale
  n <- sum(w)
  m <- sum(w * e) / n
  theta <- ause_v_statistic(u, e, w)
  oracle <- ause_v_statistic(e, e, w)
  tau <- (theta$value - oracle$value) / m
  (theta$influence - oracle$influence - tau * (e - m)) / m
}

# theta = (1/N^2) sum_i sum_j w_i w_j e_i h(key_i, key_j),
# h(a, b) = 1(b > a) + 1(b = a) / 2, and its influence values
# e_i H(key_i) + G(key_i) - 2 theta, from one sort of `key`.
ause_v_statistic <- function(key, e, w) {
  n <- sum(w)
  o <- order(key)
  k <- key[o]
  g <- cumsum(c(TRUE, diff(k) != 0))
  count <- rowsum(w[o], g, reorder = FALSE)[, 1]
  loss <- rowsum(w[o] * e[o], g, reorder = FALSE)[, 1]
  # H: share above plus half the share equal; G: the weighted error
  # below plus half the equal, over N
  above <- n - cumsum(count)
  h <- (above + count / 2) / n
  below <- cumsum(loss) - loss
  gg <- (below + loss / 2) / n
  value <- sum(loss * h) / n
  influence <- numeric(length(key))
  influence[o] <- e[o] * h[g] + gg[g] - 2 * value
  list(value = value, influence = influence)
}
