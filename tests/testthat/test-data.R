test_that("long format has one row per model, seed and case", {
  preds <- example_predictions()
  expect_s3_class(preds, "tbl_df")
  expect_named(
    preds,
    c("model", "seed", "case", "label", "predicted", "correct", "msp")
  )
  expect_identical(nrow(preds), 6L * 5L * 5000L)
  expect_type(preds$model, "character")
  expect_type(preds$seed, "integer")
  expect_type(preds$case, "integer")
  expect_type(preds$correct, "logical")
  expect_type(preds$msp, "double")
  expect_identical(
    unique(preds$model),
    c("lda", "multinom", "qda", "nnet", "knn", "rf")
  )
  expect_identical(unique(preds$seed), 1:5)
  counts <- table(preds$model, preds$seed)
  expect_true(all(counts == 5000L))
  expect_false(anyNA(preds))
})

test_that("labels and predictions are letters, cases are valid ids", {
  preds <- example_predictions(models = "qda", seeds = 1)
  expect_s3_class(preds$label, "factor")
  expect_s3_class(preds$predicted, "factor")
  expect_identical(levels(preds$label), LETTERS)
  expect_identical(levels(preds$predicted), LETTERS)
  expect_true(all(preds$case >= 1L & preds$case <= 20000L))
  expect_false(anyDuplicated(preds$case) > 0)
  expect_false(is.unsorted(preds$case))
  expect_identical(preds$correct, preds$predicted == preds$label)
  expect_true(all(preds$msp > 1 / 26 - 1e-12 & preds$msp <= 1))
  # every class occurs among the 5000 test labels
  expect_true(all(table(preds$label) > 100))
})

test_that("matrix format gives valid probability matrices", {
  runs <- example_predictions(format = "matrix")
  expect_type(runs, "list")
  expect_length(runs, 30L)
  expect_identical(names(runs)[c(1, 30)], c("lda_seed1", "rf_seed5"))
  for (run in runs) {
    expect_named(run, c("model", "seed", "accuracy", "case", "label", "prob"))
    expect_true(is.matrix(run$prob))
    expect_type(run$prob, "double")
    expect_identical(dim(run$prob), c(5000L, 26L))
    expect_identical(colnames(run$prob), LETTERS)
    expect_false(anyNA(run$prob))
    expect_true(all(run$prob >= 0 & run$prob <= 1))
    expect_lt(max(abs(rowSums(run$prob) - 1)), 1e-12)
    expect_length(run$case, 5000L)
    expect_length(run$label, 5000L)
    predicted <- max.col(run$prob, ties.method = "first")
    expect_equal(run$accuracy, mean(predicted == as.integer(run$label)))
  }
})

test_that("cases and labels pair up across models and seeds", {
  runs <- example_predictions(format = "matrix")
  first <- runs[[1]]
  for (run in runs[-1]) {
    expect_identical(run$case, first$case)
    expect_identical(run$label, first$label)
  }
  preds <- example_predictions(models = c("lda", "rf"), seeds = c(1, 4))
  by_run <- split(preds, paste(preds$model, preds$seed))
  for (part in by_run) {
    expect_identical(part$case, first$case)
    expect_identical(part$label, first$label)
  }
})

test_that("long and matrix formats agree", {
  preds <- example_predictions(models = "knn", seeds = 2)
  run <- example_predictions(models = "knn", seeds = 2, format = "matrix")
  run <- run[["knn_seed2"]]
  expect_equal(preds$msp, apply(run$prob, 1, max))
  predicted <- max.col(run$prob, ties.method = "first")
  expect_identical(as.integer(preds$predicted), predicted)
  expect_identical(preds$case, run$case)
  expect_equal(mean(preds$correct), run$accuracy)
})

test_that("models differ in quality and seeds change the fits", {
  preds <- example_predictions()
  accuracy <- tapply(preds$correct, preds$model, mean)
  expect_true(accuracy[["lda"]] > 0.6 && accuracy[["lda"]] < 0.8)
  expect_true(accuracy[["rf"]] > 0.9)
  expect_lt(accuracy[["lda"]], accuracy[["multinom"]])
  expect_lt(accuracy[["multinom"]], accuracy[["qda"]])
  expect_lt(accuracy[["qda"]], accuracy[["rf"]])
  # even deterministic models vary with the seed (training subsample)
  runs <- example_predictions(models = "lda", seeds = 1:2, format = "matrix")
  expect_false(identical(runs$lda_seed1$prob, runs$lda_seed2$prob))
})

test_that("selections keep the order given", {
  preds <- example_predictions(models = c("rf", "lda"), seeds = c(3, 1))
  expect_identical(
    unique(paste(preds$model, preds$seed)),
    c("rf 3", "rf 1", "lda 3", "lda 1")
  )
  runs <- example_predictions(models = "nnet", seeds = 5, format = "matrix")
  expect_named(runs, "nnet_seed5")
  expect_identical(runs$nnet_seed5$seed, 5L)
  expect_identical(runs$nnet_seed5$model, "nnet")
  preds <- example_predictions(models = "lda", seeds = 2L)
  expect_identical(unique(preds$seed), 2L)
})

test_that("bad arguments give informative aurc errors", {
  expect_error(
    example_predictions(models = "svm"),
    "models.*svm.*lda", class = "aurc_error"
  )
  expect_error(example_predictions(models = 1), "models",
               class = "aurc_error")
  expect_error(example_predictions(models = character()), "models",
               class = "aurc_error")
  expect_error(example_predictions(models = NA_character_), "models",
               class = "aurc_error")
  expect_error(example_predictions(models = c("lda", "lda")), "duplicates",
               class = "aurc_error")
  expect_error(example_predictions(seeds = 6), "seeds.*Available",
               class = "aurc_error")
  expect_error(example_predictions(seeds = 1.5), "seeds",
               class = "aurc_error")
  expect_error(example_predictions(seeds = 1e10), "seeds.*Available",
               class = "aurc_error")
  expect_error(example_predictions(seeds = numeric()), "seeds",
               class = "aurc_error")
  expect_error(example_predictions(seeds = "1"), "seeds",
               class = "aurc_error")
  expect_error(example_predictions(seeds = NA), "seeds",
               class = "aurc_error")
  expect_error(example_predictions(seeds = c(2, 2)), "duplicates",
               class = "aurc_error")
  expect_error(example_predictions(format = "wide"), "format.*long",
               class = "aurc_error")
  expect_error(example_predictions(format = c("matrix", "long")), "format",
               class = "aurc_error")
  err <- rlang::catch_cnd(example_predictions(models = "svm"))
  expect_identical(rlang::call_name(err$call), "example_predictions")
})

test_that("the example data file can be found and is small", {
  path <- example_data_path()
  expect_true(file.exists(path))
  expect_lt(file.size(path), 2.5 * 2^20)
  withr::local_options(aurc.example_data_dir = tempfile("no-such-dir"))
  expect_error(example_data_path(), "example data", class = "aurc_error")
  expect_error(example_predictions(), class = "aurc_error")
  withr::local_options(aurc.example_data_dir = 1)
  expect_error(example_data_path(), "single string", class = "aurc_error")
})

test_that("shift-rankings.rds loads and has the documented shape", {
  path <- system.file("extdata", "shift-rankings.rds", package = "aurc")
  expect_true(file.exists(path))
  expect_lt(file.size(path), 300 * 1024)
  shift <- readRDS(path)
  expect_identical(shift$format_version, 1L)
  expect_named(shift, c("format_version", "replicates", "full_values",
                        "runs", "settings"))
  models <- c("lda", "multinom", "qda", "nnet", "knn", "rf")
  methods <- c("msp", "margin", "neg_entropy", "neg_gini", "mcd_msp",
               "mcd_pe", "mcd_mi")
  metrics <- c("aurc", "augrc", "aurc_trapezoid")
  r <- shift$replicates
  expect_named(r, c("model", "replicate", "method", "metric", "value"))
  expect_identical(nrow(r), 6L * 500L * 7L * 3L)
  expect_type(r$value, "integer")
  expect_false(anyNA(r))
  expect_setequal(unique(r$model), models)
  expect_setequal(unique(r$method), methods)
  expect_setequal(unique(r$metric), metrics)
  expect_true(all(table(r$model, r$method, r$metric) == 500L))
  value <- r$value / shift$settings$value_scale
  expect_true(all(value > 0 & value < 1))
  # the AUGRC is at most 1/2
  expect_true(all(value[r$metric == "augrc"] <= 0.5))
  f <- shift$full_values
  expect_named(f, c("model", "metric", "method", "value"))
  expect_identical(nrow(f), 6L * 3L * 7L)
  runs <- shift$runs
  expect_named(runs, c("model", "method", "run", "accuracy",
                       "failure_auroc"))
  expect_identical(nrow(runs), 6L * 7L * 5L)
  # the four single-model scores of one run share the classifier
  single <- runs[runs$method %in% methods[1:4], ]
  spread <- tapply(single$accuracy, paste(single$model, single$run),
                   function(a) diff(range(a)))
  expect_true(all(spread == 0))
  # the noise lowers every model's accuracy below its clean accuracy
  clean <- tapply(example_predictions()$correct,
                  example_predictions()$model, mean)
  shifted <- tapply(single$accuracy, single$model, mean)
  expect_true(all(shifted[models] < clean[models]))
  # the replicate means lie near the full-data values
  key <- paste(r$model, r$method, r$metric)
  mean_rep <- tapply(value, key, mean)
  full <- setNames(f$value, paste(f$model, f$method, f$metric))
  expect_equal(as.vector(mean_rep[names(full)]), unname(full),
               tolerance = 0.05)
})

test_that("the example data are read once per file and session", {
  first <- example_predictions(models = "lda", seeds = 1)
  expect_identical(example_predictions(models = "lda", seeds = 1), first)
  # another file is read, not the kept one: a copy gives the same values,
  # and a changed copy is read again (here: an unknown format version)
  dir <- withr::local_tempdir()
  file.copy(example_data_path(), dir)
  withr::local_options(aurc.example_data_dir = dir)
  expect_identical(example_predictions(models = "lda", seeds = 1), first)
  data <- readRDS(file.path(dir, "example-predictions.rds"))
  data$format_version <- 2L
  saveRDS(data, file.path(dir, "example-predictions.rds"), compress = FALSE)
  expect_error(example_predictions(), "format version",
               class = "aurc_error")
})

# the definitions of inst/scripts/make-vignette-results.R (everything before
# its `out_file <-` line), evaluated in a new environment
vignette_results_definitions <- function() {
  script <- system.file("scripts", "make-vignette-results.R",
                        package = "aurc")
  exprs <- parse(script, keep.source = FALSE)
  stop_at <- which(vapply(exprs, function(e) {
    is.call(e) && identical(e[[1]], as.name("<-")) &&
      identical(e[[2]], as.name("out_file"))
  }, logical(1)))
  stopifnot(length(stop_at) == 1)
  env <- new.env(parent = globalenv())
  for (e in exprs[seq_len(stop_at - 1)]) eval(e, env)
  env
}

test_that("csf-rankings.rds has the documented shape", {
  path <- system.file("extdata", "csf-rankings.rds", package = "aurc")
  expect_true(file.exists(path))
  expect_lt(file.size(path), 20 * 1024)
  stored <- readRDS(path)
  expect_identical(stored$format_version, 1L)
  expect_named(stored, c("format_version", "ranking", "tests", "settings"))
  models <- c("lda", "multinom", "qda", "nnet", "knn", "rf")
  expect_identical(stored$settings$models, models)
  expect_identical(nrow(stored$ranking), 6L * 3L * 7L)
  expect_identical(nrow(stored$tests), 6L * 3L * 42L)
  expect_identical(unique(stored$ranking$model), models)
  expect_true(all(table(stored$tests$model, stored$tests$metric) == 42L))
  expect_false(anyNA(stored$tests$p_value))
  expect_type(stored$settings$seed_before_knn, "integer")
})

test_that("csf-rankings.rds equals the rankings recomputed by its script", {
  # exact equality: the script's own code on the bundled data, with the
  # stored random-number states; the first model (after set.seed(2024))
  # and k-NN (from the stored state) always, all six in sequence in the
  # slow run
  withr::local_preserve_seed()
  stored <- readRDS(system.file("extdata", "csf-rankings.rds",
                                package = "aurc"))
  env <- vignette_results_definitions()
  recompute <- function(model) {
    env$ranking_tables(model, env$rank_csfs(env$csf_data(model)))
  }
  stored_of <- function(model) {
    keep <- function(d) {
      d <- d[d$model == model, ]
      rownames(d) <- NULL
      d
    }
    list(ranking = keep(stored$ranking), tests = keep(stored$tests))
  }
  set.seed(stored$settings$seed)
  expect_identical(recompute("lda"), stored_of("lda"))
  assign(".Random.seed", stored$settings$seed_before_knn, envir = globalenv())
  expect_identical(recompute("knn"), stored_of("knn"))
  skip_if_not_slow()
  set.seed(stored$settings$seed)
  for (m in stored$settings$models) {
    if (m == "knn") {
      expect_identical(.Random.seed, stored$settings$seed_before_knn)
    }
    expect_identical(recompute(m), stored_of(m))
  }
})

test_that("nnet-cross-entropy.rds loads and matches the bundled network", {
  path <- system.file("extdata", "nnet-cross-entropy.rds", package = "aurc")
  expect_true(file.exists(path))
  expect_lt(file.size(path), 300 * 1024)
  ce <- readRDS(path)
  expect_s3_class(ce, "data.frame")
  expect_named(ce, c("case", "label", "msp", "error", "cross_entropy"))
  expect_identical(nrow(ce), 5000L)
  expect_false(anyNA(ce))
  run <- example_predictions(models = "nnet", seeds = 1,
                             format = "matrix")[[1]]
  expect_identical(ce$case, run$case)
  expect_identical(ce$label, as.integer(run$label))
  # the bundled probabilities are the unrounded ones rounded to 1e-5 (at
  # most 5e-6 off) and rescaled to sum 1 (26 roundings: at most 1.3e-4
  # relative)
  expect_lt(max(abs(ce$msp - apply(run$prob, 1, max))), 5e-6 + 1.3e-4)
  p_true <- run$prob[cbind(1:5000, ce$label)]
  big <- p_true >= 1e-3
  expect_lt(max(abs(ce$cross_entropy[big] + log(p_true[big]))), 0.01)
  # stored as 0: the true probability was below 5e-6 (plus row rescaling)
  expect_true(all(ce$cross_entropy[p_true == 0] > -log(5.01e-6)))
  expect_true(all(is.finite(ce$cross_entropy) & ce$cross_entropy >= 0))
  agree <- ce$error == as.numeric(max.col(run$prob, "first") != ce$label)
  expect_gt(mean(agree), 0.999)
})

test_that("fine-tune-study.csv has the documented shape and plausible values", {
  path <- system.file("extdata", "fine-tune-study.csv", package = "aurc")
  expect_true(file.exists(path))
  study <- utils::read.csv(path)
  expect_named(study, c("seed", "method", "aurc_01", "aurc_ce", "error"))
  expect_identical(nrow(study), 20L)
  expect_true(all(table(study$seed, study$method) == 1L))
  expect_setequal(study$method, c("ce", "sele", "alpha", "alpha_prime"))
  # a linear model on the satellite data: 14-18 % test error; the AURC
  # with the 0/1 loss lies between 0 and the error rate
  expect_true(all(study$error > 0.12 & study$error < 0.2))
  expect_true(all(study$aurc_01 > 0 & study$aurc_01 < study$error))
  expect_true(all(study$aurc_ce > study$aurc_01))
})

test_that("inst/scripts/fine-tune-study.R reproduces the bundled table", {
  skip_if_not_slow()
  skip_if_not_installed("mlbench")
  skip_if_not_installed("nnet")
  script <- system.file("scripts", "fine-tune-study.R", package = "aurc")
  withr::local_preserve_seed()
  root <- withr::local_tempdir()
  dir.create(file.path(root, "inst", "extdata"), recursive = TRUE)
  withr::with_dir(root, {
    suppressMessages(source(script, local = new.env()))
  })
  again <- utils::read.csv(file.path(root, "inst", "extdata",
                                     "fine-tune-study.csv"))
  stored <- utils::read.csv(system.file("extdata", "fine-tune-study.csv",
                                        package = "aurc"))
  expect_equal(again, stored, tolerance = 1e-10)
})

test_that("a selection longer than what is available is refused at once", {
  # (seeds = 1:1e6 formatted a million unknown seeds for ever, issue 32)
  expect_error(example_predictions(seeds = 1:1e6), class = "aurc_error_size")
  expect_error(example_predictions(models = rep("lda", 1e6)),
               class = "aurc_error_size")
  err <- tryCatch(example_predictions(seeds = 1:1e6), error = identity)
  expect_match(conditionMessage(err), "seeds")
  expect_lt(nchar(conditionMessage(err)), 300)
  # as many as there are, but one unknown: the unknown one is named
  expect_error(example_predictions(seeds = c(1:4, 99)), "99")
})
