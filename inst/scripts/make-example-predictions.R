# make-example-predictions.R
#
# Makes the example data returned by `aurc::example_predictions()`: test-set
# class probabilities of six real classifiers on the UCI Letter Recognition
# data (`mlbench::LetterRecognition`, 20000 cases, 16 integer features,
# 26 classes A-Z).
#
# What it does
# * Draws ONE fixed test set of 5000 cases (seed `split_seed` = 2024); the
#   other 15000 cases form the training pool. Every model and every seed is
#   evaluated on the same 5000 test cases, so results pair up per case.
# * For each seed in `seeds` = 1:5 it draws a training subsample of 80% of
#   the pool (12000 cases) with `set.seed(seed)`, standardises the features
#   with the subsample's means and standard deviations, and fits
#     lda      MASS::lda()                        (defaults)
#     qda      MASS::qda()                        (defaults)
#     multinom nnet::multinom()                   (maxit = 1000, no decay)
#     nnet     nnet::nnet(), one hidden layer     (size = 30, softmax,
#                                                  decay = 0.1, maxit = 300)
#     rf       randomForest::randomForest()       (ntree = 100, default mtry)
#     knn      k-nearest-neighbour vote shares    (k = 10, Euclidean distance,
#                                                  Laplace smoothing 0.01)
#   `set.seed(seed)` is called again before each model, so the random parts
#   (nnet start weights, random forest) depend on the seed only, not on the
#   order in which models are fitted or on the number of cores.
# * Stores the test-set probability matrices (5000 x 26) compactly as
#   integers: for lda, qda, multinom and nnet round(1e5 * p) (probabilities
#   below 5e-6 become 0); for rf the exact tree votes (out of 100); for knn
#   the exact neighbour votes (out of 10) plus the smoothing constant. The
#   probabilities are recovered as (counts + offset) / rowSums(counts +
#   offset); see `decode()` below and `R/data.R`.
# * Writes inst/extdata/example-predictions.rds (saveRDS, xz -9e).
#   The file contains no time stamp, so re-running gives identical bytes
#   with the same R and package versions.
#
# Run from the package root:  Rscript inst/scripts/make-example-predictions.R
# Set the environment variable AURC_CORES (default 2) to change the number of
# cores used by parallel::mclapply() (1 on Windows); the result does not
# depend on it.
#
# Packages: mlbench, MASS, nnet, randomForest, parallel, stats (no others).
# Seeds: split_seed = 2024 for the test set; seeds 1, 2, 3, 4, 5 for the
#   training subsamples and model randomness. RNG: Mersenne-Twister,
#   Inversion, Rejection (set explicitly).
# Measured run time on the build machine (R 4.2.2, 2 cores, AURC_CORES = 2):
#   108 s elapsed with AURC_CORES = 2 (the default) and 174 s with
#   AURC_CORES = 1; both runs wrote byte-identical files.

split_seed <- 2024L
seeds <- 1:5
n_test <- 5000L
train_frac <- 0.8
prob_scale <- 1e5
rf_ntree <- 100L
knn_k <- 10L
knn_alpha <- 0.01
nnet_size <- 30L
nnet_decay <- 0.1
nnet_maxit <- 300L
multinom_maxit <- 1000L
model_names <- c("lda", "multinom", "qda", "nnet", "knn", "rf")
out_file <- file.path("inst", "extdata", "example-predictions.rds")

if (!dir.exists("inst")) {
  stop("Run this script from the package root (no `inst/` folder here).")
}
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)

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
classes <- levels(y_all)
stopifnot(identical(classes, LETTERS), !anyNA(x_all))

seed_rng(split_seed)
test_id <- sort(sample.int(nrow(x_all), n_test))
pool_id <- setdiff(seq_len(nrow(x_all)), test_id)
y_test <- y_all[test_id]

# k-nearest-neighbour vote counts (n_test x n_classes integer matrix). Ties
# at the k-th distance are broken by order() (the earlier training case
# wins), so the counts always sum to k.
knn_votes <- function(x_train, y_train, x_test, k, chunk_size = 500L) {
  train_sq <- rowSums(x_train^2)
  y_int <- as.integer(y_train)
  votes <- matrix(0L, nrow(x_test), nlevels(y_train))
  chunks <- split(
    seq_len(nrow(x_test)),
    ceiling(seq_len(nrow(x_test)) / chunk_size)
  )
  for (rows in chunks) {
    x_chunk <- x_test[rows, , drop = FALSE]
    dist_sq <- outer(rowSums(x_chunk^2), train_sq, "+") -
      2 * tcrossprod(x_chunk, x_train)
    nearest <- t(apply(dist_sq, 1, function(d) order(d)[seq_len(k)]))
    for (j in seq_len(k)) {
      idx <- cbind(rows, y_int[nearest[, j]])
      votes[idx] <- votes[idx] + 1L
    }
  }
  colnames(votes) <- levels(y_train)
  votes
}

as_counts <- function(p, scale) {
  stopifnot(identical(colnames(p), classes), nrow(p) == n_test)
  counts <- round(p * scale)
  storage.mode(counts) <- "integer"
  dimnames(counts) <- NULL
  counts
}

fit_seed <- function(seed) {
  seed_rng(seed)
  train_id <- sort(sample(pool_id, round(train_frac * length(pool_id))))
  center <- colMeans(x_all[train_id, ])
  spread <- apply(x_all[train_id, ], 2, stats::sd)
  z_all <- scale(x_all, center, spread)
  z_train <- z_all[train_id, ]
  z_test <- z_all[test_id, ]
  y_train <- y_all[train_id]
  out <- list()

  seed_rng(seed)
  fit <- MASS::lda(z_train, y_train)
  out$lda <- list(
    counts = as_counts(predict(fit, z_test)$posterior, prob_scale),
    offset = 0
  )

  seed_rng(seed)
  fit <- MASS::qda(z_train, y_train)
  out$qda <- list(
    counts = as_counts(predict(fit, z_test)$posterior, prob_scale),
    offset = 0
  )

  seed_rng(seed)
  df_all <- data.frame(y = y_all, z_all)
  fit <- nnet::multinom(
    y ~ ., data = df_all[train_id, ], maxit = multinom_maxit, trace = FALSE
  )
  if (fit$convergence != 0) warning("multinom did not converge, seed ", seed)
  p <- predict(fit, df_all[test_id, ], type = "probs")
  out$multinom <- list(counts = as_counts(p, prob_scale), offset = 0)

  seed_rng(seed)
  fit <- nnet::nnet(
    z_train, nnet::class.ind(y_train),
    size = nnet_size, softmax = TRUE, decay = nnet_decay,
    maxit = nnet_maxit, MaxNWts = 5000, trace = FALSE
  )
  out$nnet <- list(counts = as_counts(predict(fit, z_test), prob_scale),
                   offset = 0)

  seed_rng(seed)
  fit <- randomForest::randomForest(z_train, y_train, ntree = rf_ntree)
  p <- predict(fit, z_test, type = "prob")
  p <- matrix(as.numeric(p), nrow(p), dimnames = dimnames(p))
  votes <- as_counts(p, rf_ntree)
  stopifnot(all(rowSums(votes) == rf_ntree),
            max(abs(votes / rf_ntree - p)) < 1e-12)
  out$rf <- list(counts = votes, offset = 0)

  votes <- knn_votes(z_train, y_train, z_test, knn_k)
  stopifnot(all(rowSums(votes) == knn_k))
  dimnames(votes) <- NULL
  out$knn <- list(counts = votes, offset = knn_alpha)

  out[model_names]
}

n_cores <- as.integer(Sys.getenv("AURC_CORES", "2"))
if (.Platform$OS.type == "windows") n_cores <- 1L
fits <- parallel::mclapply(seeds, fit_seed, mc.cores = n_cores)
failed <- vapply(fits, inherits, logical(1), what = "try-error")
if (any(failed)) {
  stop("Fitting failed for seed(s) ", toString(seeds[failed]), ": ",
       fits[failed][[1]])
}

decode <- function(counts, offset) {
  p <- counts + offset
  p / rowSums(p)
}

runs <- expand.grid(
  model = model_names, seed = seeds, stringsAsFactors = FALSE,
  KEEP.OUT.ATTRS = FALSE
)
runs <- runs[order(match(runs$model, model_names), runs$seed), ]
rownames(runs) <- NULL
runs$seed <- as.integer(runs$seed)
entries <- Map(function(m, s) fits[[match(s, seeds)]][[m]],
               runs$model, runs$seed)
runs$offset <- vapply(entries, `[[`, numeric(1), "offset")
runs$accuracy <- vapply(entries, function(e) {
  p <- decode(e$counts, e$offset)
  mean(max.col(p, ties.method = "first") == as.integer(y_test))
}, numeric(1))
counts <- unname(lapply(entries, `[[`, "counts"))

example <- list(
  format_version = 1L,
  classes = classes,
  case = test_id,
  label = as.integer(y_test),
  runs = runs,
  counts = counts,
  settings = list(
    data = "mlbench::LetterRecognition (UCI Letter Recognition)",
    split_seed = split_seed,
    n_test = n_test,
    n_train = round(train_frac * length(pool_id)),
    prob_scale = prob_scale,
    rf_ntree = rf_ntree,
    knn_k = knn_k,
    knn_alpha = knn_alpha,
    nnet_size = nnet_size,
    nnet_decay = nnet_decay,
    nnet_maxit = nnet_maxit,
    multinom_maxit = multinom_maxit,
    r_version = R.version.string,
    packages = vapply(
      c("mlbench", "MASS", "nnet", "randomForest"),
      function(p) as.character(utils::packageVersion(p)), character(1)
    )
  )
)

# xz at its highest preset, "extreme" (-9e): the same object as
# saveRDS(compress = "xz") in 83 kB less, which the installed size needs
con <- xzfile(out_file, "wb", compression = -9)
saveRDS(example, con)
close(con)

elapsed <- (proc.time() - start_time)[["elapsed"]]
summary_table <- stats::aggregate(accuracy ~ model, runs, mean)
summary_table <- summary_table[match(model_names, summary_table$model), ]
message("Mean test accuracy per model:")
message(paste(
  sprintf("  %-8s %.4f", summary_table$model, summary_table$accuracy),
  collapse = "\n"
))
message(sprintf(
  "Wrote %s (%.2f MB) in %.0f s.",
  out_file, file.size(out_file) / 2^20, elapsed
))
