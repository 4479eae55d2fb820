# fine-tune-study.R
#
# Makes inst/extdata/fine-tune-study.csv, the "AURC as a training objective"
# experiment of vignette("estimators") (Zhou et al. 2025, Table 1): a
# multinomial logistic regression is pre-trained with plain cross-entropy
# and then fine-tuned with the rank weights of each AURC estimator as
# sample weights; the table holds, per seed and method, the test AURC with
# the 0/1 loss and with the cross-entropy loss, and the test error.
#
# What it does (the vignette lists the same steps)
# * Data: the Landsat satellite image data of mlbench (6435 pixels, 36
#   spectral features, 6 soil classes). For each seed in `seeds`,
#   `set.seed(seed)` draws 1500 training pixels; the other 4935 are the test
#   set. Features are standardised with the training pixels' means and sds.
# * Pre-training: `nnet::multinom()`, 300 iterations, decay 0.01, equal
#   weights (its random start weights follow the same seed).
# * Fine-tuning, per method: 10 rounds; in each, the training pixels are
#   scored with the current model's maximum softmax probability (MSP),
#   `aurc_weights(msp, estimator)` turns the scores into rank weights,
#   rescaled to mean 1, and the fit continues from the current coefficients
#   for 20 iterations of the weighted cross-entropy. "ce" keeps equal
#   weights (the same 10 x 20 iterations); "sele", "alpha" and
#   "alpha_prime" are the estimators of `aurc_vec()`.
# * Evaluation on the test set: `aurc_vec()` ("alpha", the paper's
#   population AURC) of the MSP with the 0/1 error and with the
#   cross-entropy loss, and the error rate.
#
# Run from the package root, with aurc installed:
#   Rscript inst/scripts/fine-tune-study.R
# Packages: aurc, mlbench, nnet, stats, utils. RNG: R's default
# (Mersenne-Twister, Inversion, Rejection), set explicitly.
# Measured run time on the build machine (R 4.2.2, 2 cores): 14 s. The
# vignette used to run this code while it was built; it reads the table
# instead, so that building the vignettes stays quick.

seeds <- 1:5
n_train <- 1500L
rounds <- 10L
maxit <- 20L
methods <- c("ce", "sele", "alpha", "alpha_prime")
out_file <- file.path("inst", "extdata", "fine-tune-study.csv")

if (!dir.exists("inst")) {
  stop("Run this script from the package root (no `inst/` folder here).")
}
library(aurc)

data("Satellite", package = "mlbench", envir = environment())
x_all <- as.matrix(Satellite[, 1:36])
y_all <- Satellite$classes

# class probabilities of a multinom fit: softmax of [0, x %*% coefficients]
predict_probs <- function(fit, x) {
  z <- cbind(0, cbind(1, x) %*% t(stats::coef(fit)))
  p <- exp(z - apply(z, 1, max))
  p / rowSums(p)
}

split_data <- function(seed) {
  set.seed(seed,
    kind = "Mersenne-Twister", normal.kind = "Inversion",
    sample.kind = "Rejection"
  )
  idx <- sample.int(nrow(x_all), n_train)
  x <- scale(x_all, colMeans(x_all[idx, ]), apply(x_all[idx, ], 2, stats::sd))
  list(
    x_train = x[idx, ], y_train = y_all[idx],
    x_test = x[-idx, ], y_test = y_all[-idx]
  )
}

# weighted multinomial logistic regression (a small weight decay keeps the
# coefficients finite); `start` continues from earlier coefficients
fit_multinom <- function(x, y, w, start = NULL, maxit = 300) {
  args <- list(y ~ x,
    weights = w, maxit = maxit, decay = 0.01,
    trace = FALSE
  )
  if (!is.null(start)) args$Wts <- start
  do.call(nnet::multinom, args)
}

fine_tune <- function(d, base, estimator) {
  fit <- base
  n <- nrow(d$x_train)
  for (k in seq_len(rounds)) {
    w <- rep(1, n)
    if (estimator != "ce") {
      msp_train <- apply(predict_probs(fit, d$x_train), 1, max)
      w <- aurc_weights(msp_train, estimator = estimator)
      w <- w / mean(w)
    }
    fit <- fit_multinom(d$x_train, d$y_train, w,
      start = fit$wts, maxit = maxit
    )
  }
  fit
}

evaluate <- function(fit, d) {
  p <- predict_probs(fit, d$x_test)
  msp <- apply(p, 1, max)
  label <- as.integer(d$y_test)
  error <- as.numeric(max.col(p, ties.method = "first") != label)
  ce <- -log(pmax(p[cbind(seq_along(label), label)], .Machine$double.xmin))
  c(
    aurc_01 = aurc_vec(msp, error), aurc_ce = aurc_vec(msp, ce),
    error = mean(error)
  )
}

start_time <- proc.time()
rows <- lapply(seeds, function(seed) {
  d <- split_data(seed)
  base <- fit_multinom(d$x_train, d$y_train, rep(1, nrow(d$x_train)))
  do.call(rbind, lapply(methods, function(m) {
    r <- evaluate(fine_tune(d, base, m), d)
    data.frame(seed = seed, method = m, t(r))
  }))
})
study <- do.call(rbind, rows)
utils::write.csv(study, out_file, row.names = FALSE)
message(sprintf(
  "wrote %s (%d rows) in %.0f s", out_file, nrow(study),
  (proc.time() - start_time)[["elapsed"]]
))
