# Influence functions of the calibration slope and intercept (the logistic
# recalibration of R/calibration-clinical.R), for their analytic intervals
# and comparisons and the BCa acceleration of their bootstrap.
#
# Both are maximum likelihood estimates, so M-estimators: with x = logit of
# the clipped confidence, y the correctness, mu = plogis(eta) at the
# estimate and the case weights w (N = sum w),
#   slope model  eta = a + b x, X_i = (1, x_i):
#                IF_i = N [(sum_j w_j h_j X_j X_j')^-1 X_i (y_i - mu_i)]_2
#   intercept    eta = a + x (slope fixed at 1):
#                IF_i = N (y_i - mu_i) / sum_j w_j h_j
# with h = mu (1 - mu). The standard error of the general recipe
# (?influence_functions), sqrt(sum w IF^2 N / (N - 1)) / N, is then the
# robust "sandwich" standard error of the coefficient (HC0 of the sandwich
# package times sqrt(N / (N - 1))); it does not assume that the
# recalibration model is right.

recalibration_influence_of <- function(what) {
  function(score, loss, case_weights, o) {
    recalibration_influence(what, as.double(score), 1 - as.double(loss),
      case_weights, o$eps %||% 1e-8, o$call %||% rlang::caller_env()
    )
  }
}

# NULL (an NA interval) where the estimate does not exist, with the
# warning of recalibration_fit().
recalibration_influence <- function(what, p, y, case_weights, eps, call) {
  n <- length(p)
  w <- if (length(case_weights)) as.double(case_weights) else rep(1, n)
  input <- list(confidence = p, correct = y, case_weights = w)
  coef <- recalibration_fit(input, what, eps, call, full = TRUE)
  if (anyNA(coef)) return(NULL)
  x <- stats::qlogis(pmin(pmax(p, eps), 1 - eps))
  eta <- if (what == "slope") coef[1] + coef[2] * x else coef[1] + x
  mu <- stats::plogis(eta)
  h <- mu * (1 - mu)
  r <- y - mu
  total <- sum(w)
  infl <- if (what == "slope") {
    h0 <- sum(w * h)
    hx <- sum(w * h * x)
    hxx <- sum(w * h * x * x)
    det <- h0 * hxx - hx * hx
    # the second row of the inverse information, (-hx, h0) / det
    total * (h0 * x - hx) * r / det
  } else {
    total * r / sum(w * h)
  }
  list(
    estimate = if (what == "slope") coef[[2]] else coef[[1]],
    influence = infl,
    std_error = sqrt(sum(w * infl^2) * total / (total - 1)) / total
  )
}
