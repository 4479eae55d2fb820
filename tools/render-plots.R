# Renders every plot of the package at the three figure sizes a reader is
# likely to use (6 x 4, 6 x 6 and 7 x 4.5 inches) into one folder, so that a
# change to a plot can be looked at before it is committed:
#   Rscript tools/render-plots.R [folder]     (default: plot-check/)
# Needs the package installed. Each plot is checked by eye: no text clipped,
# no empty half of a panel, a legend that fits.
library(aurc)
library(ggplot2)
out <- commandArgs(TRUE)[1]
if (is.na(out)) out <- "plot-check"
dir.create(out, showWarnings = FALSE, recursive = TRUE)
sizes <- list(c(6, 4), c(6, 6), c(7, 4.5))
save_all <- function(plot, name) {
  for (s in sizes) {
    file <- file.path(out, sprintf("%s-%gx%g.png", name, s[1], s[2]))
    ggsave(file, plot, width = s[1], height = s[2], dpi = 72, bg = "white")
  }
}

runs <- example_predictions(seeds = 1, format = "matrix")
per_model <- do.call(rbind, lapply(runs, function(r) {
  data.frame(
    model = r$model,
    score = confidence_score(r$prob, "msp", from = "probs"),
    loss = selective_loss(r$prob, r$label, type = "zero_one")
  )
}))
per_model$model <- factor(per_model$model, levels = unique(per_model$model))
nnet <- per_model[per_model$model == "nnet", ]
one <- rc_curve_vec(nnet$score, nnet$loss)
save_all(autoplot(one), "rc-single")
save_all(autoplot(one, type = "generalized"), "rc-single-generalized")
if (requireNamespace("dplyr", quietly = TRUE)) {
  six <- rc_curve(dplyr::group_by(per_model, model), score, loss)
  save_all(autoplot(six), "rc-six")
  save_all(autoplot(six, references = FALSE), "rc-six-noref")
  save_all(autoplot(six, type = "generalized"), "rc-six-generalized")
}
save_all(autoplot(contribution_curve(100)), "contribution")

top <- top_label(runs$nnet_seed1$prob, runs$nnet_seed1$label)
save_all(
  autoplot(calibration_bins(top$confidence, top$correct, binning = "adaptive")),
  "reliability-adaptive"
)
save_all(
  autoplot(calibration_bins(top$confidence, top$correct,
    binning = "equal_width"
  )),
  "reliability-equal-width"
)

set.seed(1)
study <- aurc_batch_study(nnet$score, nnet$loss, batch_sizes = 2^(4:9),
  times = 50)
for (type in c("estimate", "bias", "mse", "mae")) {
  save_all(autoplot(study, type = type), paste0("batch-study-", type))
}
save_all(plot_weight_bias(), "weight-bias")
save_all(plot_weight_mse_bound(), "weight-mse-bound")

long <- do.call(rbind, lapply(c("msp", "margin", "neg_entropy", "neg_gini"),
  function(type) {
    r <- runs$nnet_seed1
    data.frame(
      csf = type, case = r$case,
      score = confidence_score(r$prob, type, from = "probs"),
      loss = selective_loss(r$prob, r$label, type = "zero_one")
    )
  }
))
set.seed(1)
rk <- bootstrap_ranking(long, csf, case, score, loss, times = 200)
for (type in c("significance", "blob", "bump")) {
  save_all(autoplot(rk, type = type), paste0("ranking-", type))
}
cat("Wrote", length(list.files(out)), "PNG files to", out, "\n")
