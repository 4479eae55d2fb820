# make-nnet-cross-entropy.R
#
# Makes inst/extdata/nnet-cross-entropy.rds: the cross-entropy loss of ONE
# bundled classifier (the neural network `nnet`, seed 1, of
# `example_predictions()`) computed from its unrounded class probabilities,
# for the cross-entropy figures of vignette("estimators") (Zhou et al.
# 2025, Figs. 3-5 and S7 with CE loss).
#
# Why: the bundled probabilities are stored as round(1e5 * p), so a true
# class probability below 5e-6 is stored as exactly 0 and its
# cross-entropy -log(p) cannot be recovered (only bounded below by
# -log(5e-6) = 12.2). Refitting the model gives the exact value.
#
# What it does
# * Evaluates the definitions of inst/scripts/make-example-predictions.R
#   (everything before its `n_cores <-` line): the same data, test set,
#   training subsample, seeds and model settings, so the refitted network
#   is the bundled one.
# * Replaces that script's rounding (`as_counts()`) by a function that keeps
#   the probabilities of lda, qda, multinom and nnet unrounded, and fits
#   seed 1 (all six models are fitted by `fit_seed()`; only nnet is kept).
# * Checks that rounding the refitted probabilities reproduces the bundled
#   counts of nnet seed 1 exactly (so it is the same model).
# * Writes, per test case in the order of `example_predictions()`: `case`,
#   `label`, `msp` (the largest unrounded probability), `error` (0/1 loss of
#   the arg-max class) and `cross_entropy` (-log of the unrounded
#   probability of the true class; nnet's softmax never returns exactly 0
#   here, and the script stops if it did).
#
# Run from the package root, with the package installed:
#   Rscript inst/scripts/make-nnet-cross-entropy.R
# Packages: aurc, mlbench, MASS, nnet, randomForest.

source_script <- file.path("inst", "scripts", "make-example-predictions.R")
keep_seed <- 1L

if (!file.exists(source_script)) {
  stop("Run this script from the package root.")
}

exprs <- parse(source_script, keep.source = FALSE)
stop_at <- which(vapply(exprs, function(e) {
  is.call(e) && identical(e[[1]], as.name("<-")) &&
    identical(e[[2]], as.name("n_cores"))
}, logical(1)))
stopifnot(length(stop_at) == 1)
for (e in exprs[seq_len(stop_at - 1)]) eval(e, globalenv())
# set after those definitions, which define their own `out_file`
cache_file <- file.path("inst", "extdata", "nnet-cross-entropy.rds")
start_time <- proc.time()

as_counts_rounded <- as_counts
as_counts <- function(p, scale) {
  if (scale != prob_scale) return(as_counts_rounded(p, scale))
  stopifnot(identical(colnames(p), classes), nrow(p) == n_test)
  unname(p)
}
fit <- fit_seed(keep_seed)$nnet
p <- fit$counts / rowSums(fit$counts)

bundled <- aurc::example_predictions(
  models = "nnet", seeds = keep_seed, format = "matrix"
)[[1]]
rounded <- round(prob_scale * fit$counts)
stored <- readRDS(system.file("extdata", "example-predictions.rds",
                              package = "aurc"))
run <- which(stored$runs$model == "nnet" & stored$runs$seed == keep_seed)
stopifnot(identical(dim(rounded), dim(stored$counts[[run]])),
          all(rounded == stored$counts[[run]]),
          identical(bundled$case, test_id))

label <- as.integer(y_test)
p_true <- p[cbind(seq_len(n_test), label)]
if (any(p_true <= 0)) stop("A true-class probability is exactly 0.")
out <- data.frame(
  case = test_id, label = label, msp = apply(p, 1, max),
  error = as.numeric(max.col(p, ties.method = "first") != label),
  cross_entropy = -log(p_true)
)
saveRDS(out, cache_file, compress = "xz")

message(sprintf(
  paste("nnet seed %d: error rate %.4f, mean cross-entropy %.4f,",
        "largest %.2f; %d true-class probabilities below 5e-6."),
  keep_seed, mean(out$error), mean(out$cross_entropy),
  max(out$cross_entropy), sum(p_true < 5e-6)
))
message(sprintf("Wrote %s (%.0f kB) in %.0f s.", cache_file,
                file.size(cache_file) / 1024,
                (proc.time() - start_time)[["elapsed"]]))
