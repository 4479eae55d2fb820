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
