# What case weights mean (issue 32). yardstick and tune hand weights over
# as hardhat classes, and the class says what they are:
# * hardhat::frequency_weights(), and plain numbers: counts. A case of
#   weight w stands for w identical cases (DEFINITIONS Sec. 1), so integer
#   weights
#   give exactly the result of the rows repeated, standard errors shrink as
#   the weights grow, and the bootstrap resamples the rows the weights
#   stand for.
# * hardhat::importance_weights(): probability or shift-correction weights
#   (e.g. p_target(x) / p_source(x)). The estimate is the same weighted
#   functional; its variance is the weighted sandwich over the n cases
#   actually observed, sum(w^2 IF^2) / (sum w)^2, invariant to the scale of
#   the weights; the bootstrap resamples cases, each with its weight.
# Every form takes either class: the columns are read as numbers here,
# with the kind kept as an attribute until the interval code reads it.

# "importance" or "frequency".
weights_kind <- function(x) {
  if (inherits(x, "hardhat_importance_weights") ||
    identical(attr(x, "aurc_weights", exact = TRUE), "importance")) {
    "importance"
  } else {
    "frequency"
  }
}

# hardhat case weights as a plain double vector (importance weights marked
# by the attribute `aurc_weights`); anything else unchanged, for the
# checks to judge.
plain_weights <- function(x) {
  if (!inherits(x, "hardhat_case_weights")) return(x)
  kind <- weights_kind(x)
  x <- as.double(unclass(x))
  if (kind == "importance") attr(x, "aurc_weights") <- "importance"
  x
}
