# make-vignette-results.R
#
# Makes inst/extdata/csf-rankings.rds, the precomputed results of the
# Fig. 3 section of vignette("augrc-ranking"), so that building the
# vignettes (and so `make demo`) does not spend seconds on them.
#
# What it does
# * For each of the six bundled models (example_predictions()), computes the
#   seven confidence scoring functions (CSFs) of the vignette with their 0/1
#   losses (csf_data() below, the code shown in the vignette): msp, margin,
#   neg_entropy, neg_gini of one seed, and mcd_msp, mcd_pe, mcd_mi of the
#   ensemble of the four other seeds (run k of an ensemble CSF leaves seed k
#   out).
# * Ranks them with bootstrap_ranking() (500 replicates, metrics aurc,
#   augrc and aurc_trapezoid, metric values averaged over the five runs),
#   one model after the other in the order of `models` after a single
#   set.seed(2024), as the vignette did before it read this file, so the
#   numbers are the same. Keeps the ranking and the tests of each model as
#   they are (doubles, unrounded), as plain data frames with a `model`
#   column, and the random-number state (.Random.seed) before the k-NN
#   model's ranking.
#
# The vignette restores that state and recomputes the k-NN ranking (it
# plots it) and stops if the stored k-NN tables differ from it;
# tests/testthat/test-data.R recomputes the first model (and, with
# AURC_SLOW_TESTS=true, all six) and checks the stored tables exactly.
#
# Run from the package root, with the package installed:
#   Rscript inst/scripts/make-vignette-results.R
# Packages: aurc. About 6 s of CPU.

library(aurc)

single_csfs <- c("msp", "margin", "neg_entropy", "neg_gini")
ensemble_csfs <- c("mcd_msp", "mcd_pe", "mcd_mi")
models <- c("lda", "multinom", "qda", "nnet", "knn", "rf")
ranking_metrics <- c("aurc", "augrc", "aurc_trapezoid")
ranking_seed <- 2024L
times <- 500L

probs <- example_predictions(format = "matrix")
labels <- as.integer(probs[[1]]$label)
cases <- probs[[1]]$case
failure_of <- function(prob) {
  as.numeric(max.col(prob, ties.method = "first") != labels)
}
csf_data <- function(model) {
  p <- lapply(probs[paste0(model, "_seed", 1:5)], `[[`, "prob")
  do.call(rbind, lapply(1:5, function(k) {
    members <- aperm(simplify2array(p[-k]), c(3, 1, 2)) # 4 x n x 26
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
      method = rep(c(single_csfs, ensemble_csfs), each = length(cases)),
      case = cases, score = unlist(c(single, ensemble)),
      loss = unlist(loss)
    )
  }))
}
# one model's bootstrap ranking, as the vignette computes it
rank_csfs <- function(d) {
  bootstrap_ranking(d, method, case, score, loss, run = run,
                    metrics = ranking_metrics, times = times)
}
# the stored tables of one ranking
ranking_tables <- function(model, rk) {
  list(
    ranking = data.frame(model = model, as.data.frame(rk$ranking)),
    tests = data.frame(model = model, as.data.frame(rk$tests))
  )
}

out_file <- file.path("inst", "extdata", "csf-rankings.rds")
if (!dir.exists(dirname(out_file))) {
  stop("Run this script from the package root.")
}
start_time <- proc.time()
set.seed(ranking_seed)
tables <- list()
for (m in models) {
  if (m == "knn") seed_before_knn <- .Random.seed
  tables[[m]] <- ranking_tables(m, rank_csfs(csf_data(m)))
}
result <- list(
  format_version = 1L,
  ranking = do.call(rbind, lapply(tables, `[[`, "ranking")),
  tests = do.call(rbind, lapply(tables, `[[`, "tests")),
  settings = list(
    models = models, single_csfs = single_csfs,
    ensemble_csfs = ensemble_csfs, metrics = ranking_metrics,
    times = times, seed = ranking_seed, seed_before_knn = seed_before_knn,
    aurc_version = as.character(utils::packageVersion("aurc"))
  )
)
rownames(result$ranking) <- NULL
rownames(result$tests) <- NULL
saveRDS(result, out_file, compress = "xz")
used <- proc.time() - start_time
message(sprintf("%s: %d bytes, %.1f s of CPU", out_file,
                file.size(out_file), sum(used[c(1, 2)])))
