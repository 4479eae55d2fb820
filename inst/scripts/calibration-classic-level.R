# Level and power of the Hosmer-Lemeshow test and of Harrell's
# unreliability test (hosmer_lemeshow_test(), unreliability_index()),
# reported in ?hosmer_lemeshow_test and NEWS.md.
#
# Model: confidence p ~ U(0.05, 0.95); correct ~ Bernoulli(p) (calibrated,
# for the level) or Bernoulli(plogis(0.8 logit(p))) (overconfident, for
# the power). n = 100, 500 and 2000; rejection at 5%; the Hosmer-Lemeshow
# test with 10 groups, df = G - 2 (fitted = TRUE, hoslem.test's) and
# df = G (fitted = FALSE, confidences fixed in advance); with ties: the
# confidences rounded to 0.05.
#
# Run: Rscript inst/scripts/calibration-classic-level.R [data sets]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n_sets <- if (length(args) >= 1) as.integer(args[1]) else 4000
set.seed(20261128)
one <- function(n, slope, grid) {
  p <- stats::runif(n, 0.05, 0.95)
  if (grid) p <- round(p * 20) / 20
  y <- stats::rbinom(n, 1, stats::plogis(slope * stats::qlogis(p)))
  suppressWarnings(c(
    hl_fitted = hosmer_lemeshow_test_vec(p, y)$p_value,
    hl_new = hosmer_lemeshow_test_vec(p, y, fitted = FALSE)$p_value,
    u = unreliability_index_vec(p, y)$p_value
  ))
}
rows <- list()
for (grid in c(FALSE, TRUE)) {
  for (slope in c(1, 0.8)) {
    for (n in c(100, 500, 2000)) {
      pv <- replicate(n_sets, one(n, slope, grid))
      rate <- rowMeans(pv < 0.05, na.rm = TRUE)
      rows[[length(rows) + 1]] <- data.frame(
        ties = grid, slope = slope, n = n,
        hl_fitted = rate[["hl_fitted"]], hl_new = rate[["hl_new"]],
        u = rate[["u"]]
      )
    }
  }
}
print(do.call(rbind, rows), digits = 3)
