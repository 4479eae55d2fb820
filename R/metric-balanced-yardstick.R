# aurc_ba_prob() and augrc_ba_prob(): the balanced-accuracy metrics of
# fd-shifts (R/metric-balanced.R) as yardstick class-probability metrics
# (see ?selective_prob_metrics). The probabilities give the confidence
# score and the top-label 0/1 failure, as for every prob metric, and
# `truth` is also the class each prediction is balanced over.

new_balanced_prob_form <- function(name, vec = FALSE) {
  first <- if (vec) c("truth", "estimate") else c("data", "truth")
  args <- rep(list(rlang::missing_arg()), 3)
  names(args) <- c(first, "...")
  args <- c(args, list(
    na_rm = TRUE, event_level = "first", case_weights = NULL,
    score_type = "msp"
  ))
  body <- rlang::call2("balanced_prob_eval", name, vec, quote(...))
  fn <- rlang::new_function(args, body, env = topenv())
  if (vec) return(fn)
  structure(fn,
    direction = "minimize", range = c(0, 1),
    class = c("prob_metric", "metric", "function")
  )
}

balanced_prob_eval <- function(.name, .vec, ..., .env = rlang::caller_env()) {
  call <- .env
  cols <- prob_metric_columns(.vec, .env, ..., call = call)
  input <- prob_metric_score_loss(cols, .env, call)
  rows <- cols$rows %||% list(seq_along(input$score))
  values <- vapply(rows, function(i) {
    pick <- function(x) if (is.null(x)) NULL else x[i]
    balanced_value(.name, input$score[i], input$loss[i], cols$truth[i],
      pick(cols$case_weights), .env$na_rm, call
    )
  }, numeric(1))
  if (.vec) return(values[[1]])
  metric_tibble(cols$keys, paste0(.name, "_prob"), "balanced",
    matrix(values, ncol = 1)
  )
}

#' @rdname selective_prob_metrics
#' @export
aurc_ba_prob <- new_balanced_prob_form("aurc_ba")

#' @rdname selective_prob_metrics
#' @export
aurc_ba_prob_vec <- new_balanced_prob_form("aurc_ba", vec = TRUE)

#' @rdname selective_prob_metrics
#' @export
augrc_ba_prob <- new_balanced_prob_form("augrc_ba")

#' @rdname selective_prob_metrics
#' @export
augrc_ba_prob_vec <- new_balanced_prob_form("augrc_ba", vec = TRUE)
