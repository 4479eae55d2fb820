# The main job behind `make demo`: an end-to-end analysis of real model
# outputs, the first thing a user would run. It prints its tables and writes
# its plots (PNG) into the folder named by the environment variable
# AURC_DEMO_DIR; `make demo` sets it to demo-output/ in the repository, which
# git and R CMD build ignore. Without it the plots go to a folder in R's
# session temporary directory, so the demo never writes into the working
# directory.
#
# Data: `example_predictions()`, six classifiers (LDA, multinomial logistic
# regression, QDA, a neural net, k-NN, random forest), each trained with five
# seeds, predicting the same 5000 test cases of the UCI Letter Recognition
# data (26 classes). Loss: 0/1 error of the predicted class.
#
# 1. AURC estimators, AUGRC and failure AUROC per model (softmax response)
# 2. risk-coverage curves of the six models
# 3. which confidence score is best for the neural net: a bootstrap ranking
#    of four confidence scores (the five seeds as runs), with significance
#    maps under AURC and AUGRC
# 4. calibration of the neural net: reliability diagram with adaptive bins
library(aurc)
library(ggplot2)

started <- proc.time()[["elapsed"]]
out_dir <- Sys.getenv("AURC_DEMO_DIR", file.path(tempdir(), "aurc-demo"))
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
save_plot <- function(plot, file, width = 8, height = 5) {
  path <- file.path(out_dir, file)
  ggsave(path, plot, width = width, height = height, dpi = 110, bg = "white")
  cat("Wrote", path, "\n")
}
section <- function(title) cat("\n==", title, "==\n\n")

# One row per model, seed, confidence score and test case -------------------
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
model_order <- c("lda", "multinom", "qda", "nnet", "knn", "rf")
long$model <- factor(long$model, levels = model_order)

# 1. Metrics per model -------------------------------------------------------
section("1. Selective classification metrics per model (softmax response)")
msp <- long[long$csf == "msp", ]
metrics <- c("aurc", "augrc", "failure_auroc", "eaurc", "naurc")
runs_of_msp <- split(msp, list(msp$model, msp$seed))
per_run <- do.call(rbind, lapply(runs_of_msp, function(d) {
  est <- selective_metrics_vec(d$score, d$loss, metrics = metrics)
  trap <- aurc_vec(d$score, d$loss, estimator = "trapezoid")
  data.frame(
    model = d$model[1], seed = d$seed[1], accuracy = 1 - mean(d$loss),
    t(stats::setNames(est$.estimate, est$.metric)), aurc_trapezoid = trap
  )
}))
summary_table <- stats::aggregate(
  . ~ model, data = per_run[setdiff(names(per_run), "seed")], FUN = mean
)
summary_table <- summary_table[c(
  "model", "accuracy", "aurc", "aurc_trapezoid", "augrc", "failure_auroc",
  "eaurc", "naurc"
)]
cat("Mean over the five seeds (AURC = the empirical 'alpha' estimator):\n")
print(tibble::as_tibble(summary_table), width = Inf)

cat("\nAURC of the random forest, seed 1, under every estimator:\n")
rf1 <- msp[msp$model == "rf" & msp$seed == 1, ]
print(do.call(rbind, lapply(
  c("alpha", "alpha_prime", "sele", "2sele", "trapezoid"),
  function(e) aurc(rf1, score, loss, estimator = e)
)))

# 2. Risk-coverage curves ----------------------------------------------------
section("2. Risk-coverage curves")
seed1 <- msp[msp$seed == 1, ]
if (requireNamespace("dplyr", quietly = TRUE)) {
  curves <- rc_curve(dplyr::group_by(seed1, model), score, loss)
  # the risk axis zooms to the curves; the legend gives each model's AURC.
  # Six models with their oracle and random references would be 18 lines:
  # references = FALSE draws the models only. To zoom further, add
  # coord_cartesian(ylim = ...), which keeps every point (ylim() drops them).
  plot_rc <- autoplot(curves, references = FALSE) +
    labs(
      title = "Risk-coverage curves of six classifiers (seed 1)",
      subtitle = "Letter Recognition test set; confidence = softmax response"
    )
  save_plot(plot_rc, "risk-coverage.png")
} else {
  cat("(the dplyr package is needed for grouped curves; skipped)\n")
}

# 3. Which confidence score is best? -----------------------------------------
section("3. Bootstrap ranking of confidence scores for the neural net")
nnet_data <- long[long$model == "nnet", ]
set.seed(1)
ranking <- bootstrap_ranking(
  nnet_data,
  method = csf, case = case, score = score, loss = loss, run = seed,
  metrics = c("aurc", "augrc"), times = 500, threads = 2
)
print(ranking)
save_plot(
  autoplot(ranking, type = "significance") +
    labs(title = "Which confidence score is significantly better? (nnet)"),
  "ranking-significance.png", width = 9, height = 4.5
)

# 4. Calibration -------------------------------------------------------------
section("4. Calibration of the neural net (seed 1), adaptive bins")
nnet1 <- runs$nnet_seed1
top <- top_label(nnet1$prob, nnet1$label)
bins <- calibration_bins(top, confidence, correct, binning = "adaptive")
print(bins)
cat(sprintf(
  "\nECE with 10 equal-width bins: %.4f; adaptive ECE (AECE): %.4f\n",
  ece_vec(top$confidence, top$correct, binning = "equal_width"),
  ece_vec(top$confidence, top$correct, binning = "adaptive")
))
save_plot(
  autoplot(bins) +
    labs(title = "Reliability diagram of the neural net, adaptive bins"),
  "reliability-adaptive.png", width = 7, height = 6
)

cat(sprintf(
  "\nDone in %.0f s; plots are in %s\n",
  proc.time()[["elapsed"]] - started, normalizePath(out_dir)
))
cat(
  "Next, in R: vignette(\"aurc\") to get started;",
  "vignette(package = \"aurc\") lists all vignettes.\n"
)
