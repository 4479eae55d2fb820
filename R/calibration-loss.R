# The outcome of a calibration function by name, as everywhere in the
# package (issue 33): `correct` (1 = the prediction was right, the second
# argument) or, by name, `loss` (a 0/1 failure indicator, read as
# `correct = 1 - loss`); exactly one of the two.
#
# correct_from_loss() is called first thing in such a function (its
# `frame`): when `loss` is given it makes `correct` the promise `1 - loss`,
# with the user's expression and environment, so that the vector forms
# read a value and the data-frame forms (tidy evaluation, lazy database
# tables) read an expression of the columns.
correct_from_loss <- function(frame = parent.frame()) {
  loss <- eval(quote(rlang::enquo(loss)), frame)
  if (rlang::quo_is_null(loss)) return(invisible())
  if (!eval(quote(missing(correct)), frame)) {
    abort_aurc(
      c(
        "Give {.arg correct} or {.arg loss}, not both.",
        i = "{.arg loss} (1 = failure) is read as {.code correct = 1 -
             loss}."
      ),
      class = "aurc_error_value", call = frame
    )
  }
  expr <- rlang::quo_get_expr(loss)
  remote <- exists("data", envir = frame, inherits = FALSE) &&
    !eval(quote(missing(data)), frame) && is_remote_data(frame$data)
  # in memory the loss is checked as a loss (0/1, naming `loss`); an engine
  # computes 1 - loss itself and its checks name `correct`
  value <- if (remote) {
    call("-", 1, expr)
  } else {
    as.call(list(loss_as_correct, expr, frame))
  }
  do.call(delayedAssign, list("correct", value, rlang::quo_get_env(loss),
    frame
  ))
  invisible()
}

# A 0/1 loss as the correctness 1 - loss, checked as `loss` (NA kept).
loss_as_correct <- function(loss, call) {
  if (is.null(loss)) return(NULL)
  check_failure(loss, length(loss), "loss", call = call)
  1 - as.double(loss)
}
