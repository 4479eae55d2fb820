# capacity-study.R
#
# Makes inst/extdata/capacity-study.csv, the model-complexity study of
# vignette("calibration") (Ding et al. 2020, Sec. 5.2, Figs. 4-5): a family
# of models of growing capacity, and for each its accuracy, selective
# prediction metrics (AURC, failure AUROC, failure AUPR) and calibration
# errors (ECE, AECE, MCE, AMCE, before and after temperature scaling).
#
# What it does
# * Data: the UCI Letter Recognition data (`mlbench::LetterRecognition`),
#   split exactly as inst/scripts/make-example-predictions.R does: one fixed
#   test set of 5000 cases (seed 2024); the other 15000 cases form the pool.
# * For each seed in `seeds` it draws 12000 training cases from the pool
#   (`set.seed(seed)`, as make-example-predictions.R); the remaining 3000
#   pool cases are the validation set on which the temperature is fitted
#   (`aurc::fit_temperature()`, NLL, as Guo et al. 2017 and Ding et al.).
#   Features are standardised with the training cases' means and sds.
# * Family "nnet": one-hidden-layer networks, `nnet::nnet()` with softmax
#   output, `size` hidden units in `sizes`, decay 0.1, maxit 300 (the
#   settings of the bundled "nnet" model, whose size is 30). The capacity is
#   the number of weights.
# * Family "tree": classification trees, `rpart::rpart()` with maxdepth in
#   `depths` (cp = 0, minbucket = 5, xval = 0); the capacity is the number
#   of leaves. Their probabilities are the leaf's class shares mixed with
#   the uniform distribution, (1 - tree_smoothing) p + tree_smoothing / 26
#   (tree_smoothing = 0.01, as the k-NN of make-example-predictions.R is
#   smoothed): pure leaves give probability 0 to the other classes, and one
#   wrong prediction at probability 0 makes the validation NLL infinite, so
#   the fitted temperature runs to the end of its interval. The smoothing
#   does not change the ranking of the confidences, so it leaves the
#   selective metrics as they are. The confidence has few distinct values.
# * Confidence: maximum softmax probability (MSP). Selective metrics use the
#   raw MSP (temperature scaling can reorder the MSP of different cases);
#   calibration errors are given for the raw MSP (`_raw`) and after
#   temperature scaling (`ece`, `aece`, `mce`, `amce`), which is what Ding
#   et al. report. ECE/MCE: 10 equal-width bins; AECE/AMCE: adaptive bins.
#
# Run from the package root, with aurc installed:
#   nice -n 10 Rscript inst/scripts/capacity-study.R
# Packages: aurc, mlbench, nnet, rpart, stats, utils.
# Seeds: 2024 (test split), `seeds` for training subsamples and nnet
# start weights (set before each fit). RNG: Mersenne-Twister, Inversion,
# Rejection (set explicitly).
# Measured run time on the build machine (R 4.2.2, 2 cores shared with
# other jobs, nice -n 10): 518 s, most of it the 32- and 64-unit networks.

split_seed <- 2024L
seeds <- 1:2
n_test <- 5000L
n_train <- 12000L
sizes <- c(1L, 2L, 4L, 8L, 16L, 32L, 64L)
depths <- c(2L, 3L, 4L, 6L, 8L, 12L, 30L)
nnet_decay <- 0.1
nnet_maxit <- 300L
tree_smoothing <- 0.01
out_file <- file.path("inst", "extdata", "capacity-study.csv")

if (!dir.exists("inst")) {
  stop("Run this script from the package root (no `inst/` folder here).")
}
library(aurc)

seed_rng <- function(seed) {
  set.seed(
    seed,
    kind = "Mersenne-Twister", normal.kind = "Inversion",
    sample.kind = "Rejection"
  )
}

start_time <- proc.time()
data("LetterRecognition", package = "mlbench", envir = environment())
x_all <- as.matrix(LetterRecognition[, -1])
y_all <- LetterRecognition$lettr
seed_rng(split_seed)
test_id <- sort(sample.int(nrow(x_all), n_test))
pool_id <- setdiff(seq_len(nrow(x_all)), test_id)
y_test <- as.integer(y_all[test_id])

# Every metric of the study for test-set probabilities `p_test`, with the
# temperature fitted on the validation probabilities `p_val`.
evaluate <- function(p_test, p_val, y_val) {
  to_logits <- function(p) log(pmax(p, 1e-300))
  temperature <- suppressWarnings(
    fit_temperature(to_logits(p_val), y_val, interval = c(0.05, 20))
  )
  top <- top_label(p_test, y_test)
  conf <- top$confidence
  fail <- 1 - top$correct
  conf_ts <- confidence_score(to_logits(p_test), "msp",
    temperature = temperature
  )
  bins <- calibration_bins_vec(conf_ts, top$correct)
  data.frame(
    accuracy = mean(top$correct),
    aurc = aurc_vec(conf, fail),
    failure_auroc = failure_auroc_vec(conf, fail),
    failure_aupr = failure_aupr_vec(conf, fail),
    temperature = temperature,
    ece = ece_vec(conf_ts, top$correct, binning = "equal_width"),
    aece = ece_vec(conf_ts, top$correct, binning = "adaptive"),
    mce = mce_vec(conf_ts, top$correct, binning = "equal_width"),
    amce = mce_vec(conf_ts, top$correct, binning = "adaptive"),
    adaptive_bins = nrow(bins),
    ece_raw = ece_vec(conf, top$correct, binning = "equal_width"),
    aece_raw = ece_vec(conf, top$correct, binning = "adaptive")
  )
}

rows <- list()
for (seed in seeds) {
  seed_rng(seed)
  train_id <- sort(sample(pool_id, n_train))
  val_id <- setdiff(pool_id, train_id)
  center <- colMeans(x_all[train_id, ])
  spread <- apply(x_all[train_id, ], 2, stats::sd)
  z_all <- scale(x_all, center, spread)
  y_val <- as.integer(y_all[val_id])

  for (size in sizes) {
    t0 <- proc.time()[["elapsed"]]
    seed_rng(seed)
    fit <- nnet::nnet(
      z_all[train_id, ], nnet::class.ind(y_all[train_id]),
      size = size, softmax = TRUE, decay = nnet_decay, maxit = nnet_maxit,
      MaxNWts = 10000, trace = FALSE
    )
    res <- evaluate(
      predict(fit, z_all[test_id, ]), predict(fit, z_all[val_id, ]), y_val
    )
    rows[[length(rows) + 1]] <- data.frame(
      family = "nnet", seed = seed, setting = size,
      capacity = length(fit$wts), res
    )
    message(sprintf(
      "nnet size %2d seed %d: accuracy %.4f (%.0f s)", size, seed,
      res$accuracy, proc.time()[["elapsed"]] - t0
    ))
  }

  df_train <- data.frame(y = y_all[train_id], z_all[train_id, ])
  for (depth in depths) {
    seed_rng(seed)
    fit <- rpart::rpart(
      y ~ ., data = df_train, method = "class",
      control = rpart::rpart.control(
        maxdepth = depth, cp = 0, minbucket = 5, xval = 0
      )
    )
    prob <- function(id) {
      p <- predict(fit, data.frame(z_all[id, ]), type = "prob")
      (1 - tree_smoothing) * p + tree_smoothing / ncol(p)
    }
    res <- evaluate(prob(test_id), prob(val_id), y_val)
    rows[[length(rows) + 1]] <- data.frame(
      family = "tree", seed = seed, setting = depth,
      capacity = sum(fit$frame$var == "<leaf>"), res
    )
    message(sprintf(
      "tree depth %2d seed %d: accuracy %.4f", depth, seed, res$accuracy
    ))
  }
}

study <- do.call(rbind, rows)
num <- vapply(study, is.double, logical(1))
study[num] <- lapply(study[num], signif, digits = 6)
utils::write.csv(study, out_file, row.names = FALSE)
elapsed <- (proc.time() - start_time)[["elapsed"]]
message(sprintf(
  "Wrote %s (%.1f kB, %d rows) in %.0f s.", out_file,
  file.size(out_file) / 1024, nrow(study), elapsed
))
