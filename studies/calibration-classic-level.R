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
# Result (2000 data sets per row, 2026-11-28):
#     ties slope    n hl_fitted hl_new      u
# 1  FALSE   1.0  100    0.1110 0.0530 0.0495
# 2  FALSE   1.0  500    0.1140 0.0535 0.0555
# 3  FALSE   1.0 2000    0.1055 0.0510 0.0455
# 4  FALSE   0.8  100    0.2585 0.1625 0.1445
# 5  FALSE   0.8  500    0.4875 0.3495 0.4875
# 6  FALSE   0.8 2000    0.9420 0.8940 0.9780
# 7   TRUE   1.0  100    0.1060 0.0520 0.0460
# 8   TRUE   1.0  500    0.0965 0.0415 0.0415
# 9   TRUE   1.0 2000    0.1275 0.0515 0.0495
# 10  TRUE   0.8  100    0.2385 0.1485 0.1380
# 11  TRUE   0.8  500    0.4990 0.3570 0.4920
# 12  TRUE   0.8 2000    0.9395 0.8825 0.9775
#
# Run: Rscript studies/calibration-classic-level.R [data sets]
library(aurc)
args <- commandArgs(trailingOnly = TRUE)
n_sets <- if (length(args) >= 1) as.integer(args[1]) else 2000
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
