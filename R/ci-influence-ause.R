# Influence functions of the AUSE (R/metric-ause.R) for its analytic
# intervals and paired comparisons in selective_ci() and compare_scores().
# The score is a confidence, the uncertainty its negative.
#
# * "ilg": Ilg et al.'s AUSE is exactly the E-AURC of the score (the
#   "alpha" estimator, the exact optimum; ?ause), so its influence values
#   are those of the E-AURC kernel (src/core/influence.h).
# * "torch_uncertainty": ause_tu_influence() of R/ci-ause.R, the influence
#   values of the ratio of V-statistics written in ?ause_ci.
# The estimate is the vector form's (ause_value()), so the interval's
# estimate equals ause_vec(-score, loss) exactly.
ause_influence_of <- function(definition) {
  function(score, loss, case_weights, o) {
    score <- as.double(score)
    loss <- as.double(loss)
    est <- ause_value(-score, loss, definition, FALSE, case_weights,
      o$call
    )
    if (is.na(est)) return(NULL) # (ause_value() said why)
    if (definition == "ilg") {
      opt <- o
      opt[c("estimator", "optimum")] <- list("alpha", "exact")
      res <- metric_influence_many(score, loss, case_weights, "eaurc", opt)
      return(list(
        estimate = est, influence = res$influence[, 1],
        std_error = unname(res$std_error[1])
      ))
    }
    w <- if (is.null(case_weights)) rep(1, length(score)) else case_weights
    keep <- w > 0
    inf <- numeric(length(score))
    inf[keep] <- ause_tu_influence(-score[keep], loss[keep], w[keep])
    list(
      estimate = est, influence = inf,
      std_error = influence_std_error(inf, case_weights)
    )
  }
}
