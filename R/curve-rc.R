#' Risk-coverage curve
#'
#' The selective and generalized risk of a selective classifier at every
#' distinct threshold of its confidence score. Accepting the predictions
#' with `score >= t` gives, with `n` the (weighted) number of predictions:
#'
#' * `n_accepted = sum_i w_i 1(s_i >= t)`, `coverage = n_accepted / n`,
#' * `selective_risk = sum_i w_i loss_i 1(s_i >= t) / n_accepted`, the mean
#'   loss of the accepted predictions (the AURC integrates it),
#' * `generalized_risk = sum_i w_i loss_i 1(s_i >= t) / n`, the loss of the
#'   accepted predictions over all predictions (the AUGRC integrates it).
#'
#' Rows are the distinct thresholds in descending order (tied scores are
#' accepted together). The data-frame form on a grouped data frame gives
#' one curve per group (several models or scores), with the grouping columns
#' first; [ggplot2::autoplot()] draws them (see [autoplot.aurc_rc_curve()]).
#'
#' @inheritParams aurc
#' @return A tibble of class `aurc_rc_curve` with columns `threshold`,
#'   `n_accepted`, `coverage`, `selective_risk`, `generalized_risk` (after the
#'   grouping columns). It carries the oracle curve (the same losses sorted
#'   from the lowest, the best possible score) and the mean loss (the
#'   expected selective risk of a random score) for the plot. A curve needs
#'   data: missing values with `na_rm = FALSE`, or no sample left, are an
#'   error.
#' @examples
#' score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
#' failure <- c(0, 0, 1, 0, 1, 1)
#' rc_curve_vec(score, failure)
#'
#' df <- data.frame(
#'   model = rep(c("a", "b"), each = 6), score = c(score, rev(score)),
#'   failure = c(failure, failure)
#' )
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   curves <- rc_curve(dplyr::group_by(df, model), score, failure)
#'   curves
#'   ggplot2::autoplot(curves, type = "generalized")
#' }
#' @export
rc_curve <- function(data, score, loss, ..., na_rm = FALSE,
                     case_weights = NULL) {
  check_dots(...)
  call <- rlang::current_env()
  if (is_remote_data(data)) {
    return(rc_curve_remote(data, list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ), na_rm, call))
  }
  check_data_frame(data, call = call)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    list(
      score = rlang::enquo(score), loss = rlang::enquo(loss),
      case_weights = rlang::enquo(case_weights)
    ),
    c("score", "loss", "case_weights")
  )
  groups <- data_groups(data)
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    part <- rc_curve_compute(v$score, v$loss, na_rm, v$case_weights, call)
    if (!is.null(groups$keys)) {
      for (nm in c("curve", "oracle", "random")) {
        key <- groups$keys[rep(g, nrow(part[[nm]])), , drop = FALSE]
        part[[nm]] <- tibble::as_tibble(c(key, part[[nm]]))
      }
    }
    part
  })
  bind <- function(nm) do.call(rbind, lapply(parts, `[[`, nm))
  new_rc_curve(
    bind("curve"), bind("oracle"), bind("random"),
    group_vars = names(groups$keys)
  )
}

#' @rdname rc_curve
#' @export
rc_curve_vec <- function(score, loss, ..., na_rm = FALSE,
                         case_weights = NULL) {
  check_dots(...)
  part <- rc_curve_compute(score, loss, na_rm, case_weights,
    rlang::current_env()
  )
  new_rc_curve(part$curve, part$oracle, part$random)
}

new_rc_curve <- function(curve, oracle, random, group_vars = NULL) {
  curve <- tibble::new_tibble(curve, class = "aurc_rc_curve")
  attr(curve, "oracle") <- oracle
  attr(curve, "random") <- random
  attr(curve, "group_vars") <- group_vars
  curve
}

# Validates like a metric, but a curve cannot be NA: missing values without
# na_rm and empty input are errors.
rc_curve_compute <- function(score, loss, na_rm, case_weights, call) {
  check_numeric_vector(score, "score", call = call)
  check_loss(loss, length(score), call = call)
  check_case_weights(case_weights, length(score), call = call)
  check_bool(na_rm, call = call)
  if (!na_rm && (anyNA(score) || anyNA(loss))) {
    abort_aurc(
      c(
        "{.arg score} and {.arg loss} must not have missing values.",
        i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  input <- suppressWarnings(prepare_metric_input(
    score, loss, case_weights,
    na_rm = TRUE, call = call
  ))
  if (is.null(input)) {
    abort_aurc(
      c(
        "Can't compute a curve without data.",
        i = paste(
          "No sample is left (after dropping missing values), or every case",
          "weight is 0."
        )
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  res <- rc_curve_impl(input$score, input$loss, input$case_weights)
  curve <- tibble::tibble(
    threshold = res$threshold, n_accepted = res$n_accepted,
    coverage = res$n_accepted / res$n,
    selective_risk = res$loss_accepted / res$n_accepted,
    generalized_risk = res$loss_accepted / res$n
  )
  list(
    curve = curve,
    oracle = oracle_curve(input$loss, input$case_weights, res$n),
    random = tibble::tibble(mean_loss = sum(res$loss_accepted[
      length(res$loss_accepted)
    ]) / res$n)
  )
}

# The curve of the oracle order (lowest loss most confident, every sample
# its own threshold), thinned to at most `max_points` points for plotting.
oracle_curve <- function(loss, case_weights, n, max_points = 2000) {
  w <- if (length(case_weights)) case_weights else rep(1, length(loss))
  o <- order(loss)
  keep <- w[o] > 0
  o <- o[keep]
  accepted <- cumsum(w[o])
  loss_accepted <- cumsum(w[o] * loss[o])
  m <- length(o)
  idx <- if (m > max_points) {
    unique(round(seq(1, m, length.out = max_points)))
  } else {
    seq_len(m)
  }
  tibble::tibble(
    coverage = accepted[idx] / n,
    selective_risk = loss_accepted[idx] / accepted[idx],
    generalized_risk = loss_accepted[idx] / n
  )
}
