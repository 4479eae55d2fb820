# make-readme-figures.R
#
# Makes the figures of README.md (man/figures/README-*.png) from the bundled
# predictions (`example_predictions()`), with the installed package, so they
# always show what the current code draws. Run from the repository root
# after installing the package (`make install`):
#
#   Rscript inst/scripts/make-readme-figures.R      (or: make figures)
#
# The figures are the plots of `make demo` (demo/aurc.R): risk-coverage
# curves of six classifiers, the significance map of a bootstrap ranking of
# four confidence scores of the neural net, and its reliability diagram.
# Sizes are common figure sizes (7 x 4.5 and 6 x 6 inches) at 110 dpi.
library(aurc)
library(ggplot2)

out_dir <- file.path("man", "figures")
if (!dir.exists(out_dir)) {
  stop("Run this script from the root of the aurc repository.")
}
save_figure <- function(plot, name, width, height) {
  path <- file.path(out_dir, paste0("README-", name, ".png"))
  ggsave(path, plot, width = width, height = height, dpi = 110, bg = "white")
  cat("Wrote", path, "\n")
}

runs <- example_predictions(format = "matrix")
csfs <- c("msp", "margin", "neg_entropy", "neg_gini")
long <- do.call(rbind, lapply(runs, function(r) {
  loss <- selective_loss(r$prob, r$label, type = "zero_one")
  do.call(rbind, lapply(csfs, function(type) {
    data.frame(
      model = r$model, seed = r$seed, case = r$case, csf = type,
      score = confidence_score(r$prob, type, from = "probs"), loss = loss
    )
  }))
}))
long$model <- factor(
  long$model, levels = c("lda", "multinom", "qda", "nnet", "knn", "rf")
)

# 1. Risk-coverage curves of the six models (seed 1, softmax response)
seed1 <- long[long$csf == "msp" & long$seed == 1, ]
curves <- rc_curve(dplyr::group_by(seed1, model), score, loss)
save_figure(
  autoplot(curves, references = FALSE) +
    labs(title = "Risk-coverage curves of six classifiers (seed 1)"),
  "risk-coverage", width = 7, height = 4.5
)

# 2. Which confidence score of the neural net is significantly better?
set.seed(1)
ranking <- bootstrap_ranking(
  long[long$model == "nnet", ],
  method = csf, case = case, score = score, loss = loss, run = seed,
  metrics = c("aurc", "augrc"), times = 500, threads = 2
)
save_figure(
  autoplot(ranking, type = "significance"),
  "ranking-significance", width = 7, height = 4.5
)

# 3. Reliability diagram of the neural net (seed 1), adaptive bins
nnet1 <- runs$nnet_seed1
top <- top_label(nnet1$prob, nnet1$label)
bins <- calibration_bins(top$confidence, top$correct, binning = "adaptive")
save_figure(
  autoplot(bins) +
    labs(title = "Reliability diagram of the neural net, adaptive bins"),
  "reliability-adaptive", width = 6, height = 6
)
