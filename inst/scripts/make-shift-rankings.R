# make-shift-rankings.R
#
# Makes inst/extdata/shift-rankings.rds, the cached bootstrap replicates
# behind the distribution-shift section of vignette("augrc-ranking")
# (Traub et al. 2024, Fig. 6 and the "cor" columns of Tables 3 and 4).
#
# What it does
# * Loads the data, the split and the model fitting of
#   inst/scripts/make-example-predictions.R by evaluating that script's
#   definitions (everything before its `n_cores <-` line), so the six models
#   and five seeds are exactly those of `example_predictions()`: the same
#   training subsamples, the same seeds, the same fits.
# * Corrupts the 5000 TEST cases only: Gaussian noise with standard
#   deviation `noise_sd` (0.5) times each feature's standard deviation in
#   the training pool is added to the raw features (seed `noise_seed`). The
#   models are trained on clean data, as in the corruption shifts of the
#   FD-Shifts benchmark (Hendrycks & Dietterich 2019), which Traub et al.
#   use; we use one intensity, they average five.
# * Stores the probabilities rounded as the bundled ones are (round(1e5 p);
#   exact votes for rf and knn), then computes for each model the seven
#   confidence scoring functions (CSFs) of the vignette's Fig. 3 section:
#   msp, margin, neg_entropy, neg_gini of one seed, and mcd_msp, mcd_pe,
#   mcd_mi of the ensemble of the four other seeds (run k of an ensemble
#   CSF leaves seed k out), with their 0/1 losses.
# * Ranks the CSFs of each model with bootstrap_ranking() (500 replicates,
#   set.seed(2024) before each model, metrics aurc, augrc and
#   aurc_trapezoid, metric values averaged over the five runs) and keeps
#   only what rank_replicates() needs to rebuild the rankings: the
#   replicate values and the full-data values. Values are stored as
#   integers round(1e7 * value) to keep the file small (every value is
#   below 0.5, so the rounding error is at most 5e-8, far below any
#   difference between methods; the bundled file was made at 1e9 and
#   rounded to 1e7 afterwards, which can differ from a direct rounding by
#   1e-7 in rare values), plus the accuracy and failure AUROC of
#   every CSF and run on the full shifted test set.
#
# Run from the package root, with the package installed:
#   Rscript inst/scripts/make-shift-rankings.R
# AURC_CORES (default 2) sets the cores for parallel::mclapply(); the
# result does not depend on it.
# Packages: aurc, mlbench, MASS, nnet, randomForest, parallel.
# Measured run time on the build machine (R 4.2.2, 2 shared cores): see the
# message at the end of the run; 445 s on 2 cores shared with other jobs.

noise_sd <- 0.5
noise_seed <- 99L
ranking_seed <- 2024L
times <- 500L
value_scale <- 1e7
source_script <- file.path("inst", "scripts", "make-example-predictions.R")

if (!file.exists(source_script)) {
  stop("Run this script from the package root.")
}
library(aurc)

# the definitions of make-example-predictions.R (data, split, fit_seed())
exprs <- parse(source_script, keep.source = FALSE)
stop_at <- which(vapply(exprs, function(e) {
  is.call(e) && identical(e[[1]], as.name("<-")) &&
    identical(e[[2]], as.name("n_cores"))
}, logical(1)))
stopifnot(length(stop_at) == 1)
for (e in exprs[seq_len(stop_at - 1)]) eval(e, globalenv())
# set after those definitions, which define their own `out_file`
cache_file <- file.path("inst", "extdata", "shift-rankings.rds")
start_time <- proc.time()

# corrupt the test cases (raw units, scaled per feature)
pool_sd <- apply(x_all[pool_id, ], 2, stats::sd)
seed_rng(noise_seed)
noise <- matrix(stats::rnorm(n_test * ncol(x_all)), n_test) %*%
  diag(noise_sd * pool_sd)
x_all[test_id, ] <- x_all[test_id, ] + noise

n_cores <- as.integer(Sys.getenv("AURC_CORES", "2"))
if (.Platform$OS.type == "windows") n_cores <- 1L
fits <- parallel::mclapply(seeds, fit_seed, mc.cores = n_cores)
stopifnot(!vapply(fits, inherits, logical(1), what = "try-error"))
names(fits) <- paste0("seed", seeds)

decode <- function(entry) {
  p <- entry$counts + entry$offset
  p / rowSums(p)
}
labels <- as.integer(y_test)
failure_of <- function(prob) {
  as.numeric(max.col(prob, ties.method = "first") != labels)
}
single_csfs <- c("msp", "margin", "neg_entropy", "neg_gini")
ensemble_csfs <- c("mcd_msp", "mcd_pe", "mcd_mi")

csf_data <- function(model) {
  p <- lapply(fits, function(f) decode(f[[model]]))
  do.call(rbind, lapply(seq_along(seeds), function(k) {
    members <- aperm(simplify2array(p[-k]), c(3, 1, 2))
    single <- lapply(single_csfs, function(type) {
      confidence_score(p[[k]], type, from = "probs")
    })
    ensemble <- lapply(ensemble_csfs, function(type) {
      confidence_score(members, type, from = "probs")
    })
    loss <- rep(
      list(failure_of(p[[k]]), failure_of(Reduce(`+`, p[-k]) / 4)),
      c(length(single_csfs), length(ensemble_csfs))
    )
    data.frame(
      model = model, run = k,
      method = rep(c(single_csfs, ensemble_csfs), each = n_test),
      case = test_id, score = unlist(c(single, ensemble)),
      loss = unlist(loss)
    )
  }))
}

replicates <- list()
full <- list()
per_run <- list()
for (model in model_names) {
  d <- csf_data(model)
  set.seed(ranking_seed)
  rk <- bootstrap_ranking(d, method, case, score, loss, run = run,
                          metrics = c("aurc", "augrc", "aurc_trapezoid"),
                          times = times)
  r <- rk$replicates
  replicates[[model]] <- data.frame(
    model = model, replicate = r$replicate, method = r$method,
    metric = r$metric, value = as.integer(round(value_scale * r$value))
  )
  full[[model]] <- data.frame(
    model = model, metric = rk$ranking$metric, method = rk$ranking$method,
    value = rk$ranking$full_value
  )
  runs <- split(d, list(d$method, d$run), drop = TRUE)
  per_run[[model]] <- do.call(rbind, lapply(runs, function(x) {
    data.frame(
      model = model, method = x$method[1], run = x$run[1],
      accuracy = 1 - mean(x$loss),
      failure_auroc = failure_auroc_vec(x$score, x$loss)
    )
  }))
  message(sprintf("%-8s done (%.0f s)", model,
                  (proc.time() - start_time)[["elapsed"]]))
}

strip <- function(x) {
  x <- do.call(rbind, x)
  rownames(x) <- NULL
  x
}
shift <- list(
  format_version = 1L,
  replicates = strip(replicates),
  full_values = strip(full),
  runs = strip(per_run),
  settings = list(
    shift = "Gaussian noise on the test features",
    noise_sd = noise_sd, noise_seed = noise_seed,
    ranking_seed = ranking_seed, times = times, value_scale = value_scale,
    models = model_names, seeds = seeds,
    methods = c(single_csfs, ensemble_csfs),
    r_version = R.version.string,
    aurc_version = as.character(utils::packageVersion("aurc"))
  )
)
saveRDS(shift, cache_file, compress = "xz")

elapsed <- (proc.time() - start_time)[["elapsed"]]
acc <- stats::aggregate(accuracy ~ model, shift$runs, mean)
message("Mean accuracy of the CSFs' classifiers on the shifted test set:")
message(paste(sprintf("  %-8s %.4f", acc$model, acc$accuracy),
              collapse = "\n"))
message(sprintf("Wrote %s (%.0f kB) in %.0f s.", cache_file,
                file.size(cache_file) / 1024, elapsed))
