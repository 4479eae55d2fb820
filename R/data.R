#' Example predictions of real classifiers on the Letter Recognition data
#'
#' @description
#' Test-set class probabilities of six real classifiers of clearly different
#' quality, each trained with five seeds, on the UCI Letter Recognition data
#' (26 classes, the capital letters A to Z). All models and seeds are
#' evaluated on the **same 5000 test cases**, so confidence scores and models
#' can be compared paired per case. Use these data to try out the metrics of
#' this package on real selective-classification problems.
#'
#' @details
#' **How the data were made.** The script
#' `system.file("scripts", "make-example-predictions.R", package = "aurc")`
#' re-creates the data (about 2 minutes on 2 cores). It draws one fixed test
#' set of 5000 of the 20000 cases of `mlbench::LetterRecognition`
#' (`set.seed(2024)`); the other 15000 cases form the training pool. For each
#' seed in 1 to 5, `set.seed(seed)` draws a training subsample of 80% of the
#' pool (12000 cases), so even the deterministic models differ across seeds;
#' the 16 features are standardised with the subsample's means and standard
#' deviations. `set.seed(seed)` is called again before each model is fitted,
#' which fixes the random parts (start weights, trees). The models are:
#'
#' * `"lda"`: linear discriminant analysis, `MASS::lda()`.
#' * `"multinom"`: multinomial logistic regression, `nnet::multinom()`
#'   (no weight decay, at most 1000 iterations; converged for all seeds).
#' * `"qda"`: quadratic discriminant analysis, `MASS::qda()`.
#' * `"nnet"`: neural network with one hidden layer of 30 units and a
#'   softmax output, `nnet::nnet()` (weight decay 0.1, at most 300
#'   iterations).
#' * `"knn"`: k-nearest-neighbour vote shares with k = 10 (Euclidean
#'   distance on the standardised features) and Laplace smoothing:
#'   the probability of a class with v of the 10 votes is
#'   (v + 0.01) / (10 + 26 * 0.01).
#' * `"rf"`: random forest with 100 trees, `randomForest::randomForest()`;
#'   the probabilities are the shares of tree votes.
#'
#' Mean test accuracies over the five seeds are about 0.71 (lda),
#' 0.78 (multinom), 0.89 (qda), 0.91 (nnet), 0.93 (knn) and 0.96 (rf).
#'
#' **Storage and precision.** To keep the package small, the probabilities
#' are stored as integers: for lda, multinom, qda and nnet as
#' `round(1e5 * p)`, for rf as the exact tree votes and for knn as the exact
#' neighbour votes. The accessor rescales each row so that it sums to 1
#' (up to floating-point rounding, well within 1e-12). Hence probabilities of
#' the four smooth models are accurate to about 5e-6, and probabilities below
#' that are exactly 0; the probabilities of rf and knn are exact. The logits
#' of multinom and nnet are not stored: `log(prob)` recovers them up to a
#' constant per row, but only roughly for small probabilities (few
#' significant digits) and not at all where the probability is 0.
#'
#' **Ties.** The predicted class is the class with the largest probability;
#' ties go to the first class in alphabetical order, as with
#' `max.col(prob, ties.method = "first")`. Such ties occur only for the
#' vote-based models: in about 3% of the cases for knn and 0.3% for rf.
#' The maximum probability takes only one value per possible number of
#' votes for the top class for knn (at most 10 values) and rf (at most 100),
#' and it is exactly 1 for about 22% of the cases for rf (all trees agree)
#' and 31% for qda (posteriors that round to 1), so ties in the confidence
#' scores are common; the data are thus also useful to check how ties are
#' handled.
#'
#' @param models `NULL` (the default) for all models, or a character vector
#'   of model names: `"lda"`, `"multinom"`, `"qda"`, `"nnet"`, `"knn"`,
#'   `"rf"`. Results are returned in the order given.
#' @param seeds `NULL` (the default) for all seeds, or a vector of whole
#'   numbers from 1 to 5. Results are returned in the order given.
#' @param format `"long"` (the default) for one row per model, seed and test
#'   case, or `"matrix"` for the probability matrices.
#'
#' @return
#' For `format = "long"`, a tibble with one row per model, seed and test case
#' (5000 rows for each model and seed; models and seeds in the order
#' requested, seeds varying fastest, then the cases by increasing id), with
#' columns
#' * `model`: model name (character).
#' * `seed`: seed of the training subsample and the model (integer).
#' * `case`: test case id, the row number in `mlbench::LetterRecognition`
#'   (integer). The same 5000 cases, in the same order, appear for every
#'   model and seed.
#' * `label`: true class (factor with levels `LETTERS`).
#' * `predicted`: predicted class, the class with the largest probability
#'   (factor with levels `LETTERS`).
#' * `correct`: whether `predicted` equals `label` (logical).
#' * `msp`: the maximum softmax probability, the largest class probability,
#'   a confidence score (double).
#'
#' For `format = "matrix"`, a named list with one element per model and seed,
#' named `"<model>_seed<seed>"` (e.g. `"rf_seed1"`). Each element is a list
#' with
#' * `model`, `seed`: as above.
#' * `accuracy`: test accuracy of the model with this seed (double).
#' * `case`: test case ids (integer vector of length 5000).
#' * `label`: true classes (factor with levels `LETTERS`, length 5000).
#' * `prob`: class probabilities, a 5000 x 26 double matrix with column
#'   names `LETTERS`; row i belongs to `case[i]` and each row sums to 1.
#'
#' @source
#' The data are the Letter Recognition data of the UCI Machine Learning
#' Repository (P. W. Frey and D. J. Slate, 1991,
#' <https://archive.ics.uci.edu/dataset/59/letter+recognition>), as provided
#' by the data set `LetterRecognition` of the \pkg{mlbench} package. The
#' predictions were made with \pkg{MASS}, \pkg{nnet} and \pkg{randomForest}
#' and our own k-nearest-neighbour code; see Details.
#'
#' @examples
#' preds <- example_predictions(models = c("lda", "rf"), seeds = 1)
#' preds
#'
#' # Test accuracy per model
#' tapply(preds$correct, preds$model, mean)
#'
#' # Probability matrices, e.g. to compute other confidence scores
#' runs <- example_predictions(models = "nnet", seeds = 1:2, format = "matrix")
#' names(runs)
#' prob <- runs$nnet_seed1$prob
#' top2 <- apply(prob, 1, function(p) sort(p, decreasing = TRUE)[1:2])
#' margin <- top2[1, ] - top2[2, ]
#' summary(margin)
#' @export
example_predictions <- function(models = NULL, seeds = NULL,
                                format = c("long", "matrix")) {
  call <- rlang::current_env()
  format <- check_example_format(format, call = call)
  data <- read_example_data(call = call)
  runs <- data$runs
  models <- check_example_models(models, unique(runs$model), call = call)
  seeds <- check_example_seeds(seeds, unique(runs$seed), call = call)

  wanted <- expand.grid(
    seed = seeds, model = models,
    stringsAsFactors = FALSE, KEEP.OUT.ATTRS = FALSE
  )
  index <- match(
    paste(wanted$model, wanted$seed),
    paste(runs$model, runs$seed)
  )
  label <- factor(data$classes[data$label], levels = data$classes)
  prob <- lapply(index, function(i) {
    decode_example_counts(data$counts[[i]], runs$offset[i], data$classes)
  })

  if (format == "matrix") {
    out <- lapply(seq_along(index), function(j) {
      i <- index[j]
      list(
        model = runs$model[i],
        seed = runs$seed[i],
        accuracy = runs$accuracy[i],
        case = data$case,
        label = label,
        prob = prob[[j]]
      )
    })
    names(out) <- paste0(runs$model[index], "_seed", runs$seed[index])
    return(out)
  }

  n_case <- length(data$case)
  predicted <- lapply(prob, max.col, ties.method = "first")
  msp <- Map(function(p, k) p[cbind(seq_len(n_case), k)], prob, predicted)
  predicted <- factor(
    data$classes[unlist(predicted, use.names = FALSE)],
    levels = data$classes
  )
  label <- rep(label, length(index))
  tibble::tibble(
    model = rep(runs$model[index], each = n_case),
    seed = rep(runs$seed[index], each = n_case),
    case = rep(data$case, length(index)),
    label = label,
    predicted = predicted,
    correct = predicted == label,
    msp = unlist(msp, use.names = FALSE)
  )
}

# Internal helpers -----------------------------------------------------------

#' Path of the example data file
#'
#' Internal. Returns the path of a file in the example data folder: the
#' folder given by the option `aurc.example_data_dir` if it is set (useful
#' for testing a freshly made file, e.g.
#' `options(aurc.example_data_dir = "inst/extdata")`), otherwise the
#' `extdata` folder of the installed package, found with [system.file()].
#'
#' @param file File name.
#' @param call Environment of the call to blame in errors.
#' @return A single string, the path of an existing file.
#' @keywords internal
#' @noRd
example_data_path <- function(file = "example-predictions.rds",
                              call = rlang::caller_env()) {
  dir <- getOption("aurc.example_data_dir")
  if (is.null(dir)) {
    dir <- system.file("extdata", package = "aurc")
  } else if (!is.character(dir) || length(dir) != 1 || is.na(dir)) {
    cli::cli_abort(
      c(
        "Option {.code aurc.example_data_dir} must be a single string.",
        "x" = "It is {.obj_type_friendly {dir}}."
      ),
      class = "aurc_error", call = call
    )
  }
  path <- file.path(dir, file)
  if (!nzchar(dir) || !file.exists(path)) {
    cli::cli_abort(
      c(
        "Can't find the example data file {.file {file}}.",
        "x" = "It is not in {.path {dir}}.",
        "i" = paste(
          "Reinstall {.pkg aurc}, or set option",
          "{.code aurc.example_data_dir} to the folder that holds it."
        )
      ),
      class = "aurc_error", call = call
    )
  }
  path
}

# Reads the stored example data (see inst/scripts/make-example-predictions.R
# for the layout). The file (1.9 MB, xz) takes about 0.1 s to read, and the
# vignettes and the demo call example_predictions() a dozen times, so the
# last file read is kept for the session, keyed by its path, size and
# modification time (a changed or other file is read again).
example_data_cache <- new.env(parent = emptyenv())

read_example_data <- function(call = rlang::caller_env()) {
  path <- example_data_path(call = call)
  info <- file.info(path, extra_cols = FALSE)
  key <- paste(normalizePath(path), info$size,
               sprintf("%.6f", as.numeric(info$mtime)))
  if (identical(example_data_cache$key, key)) {
    return(example_data_cache$data)
  }
  data <- readRDS(path)
  if (!identical(data$format_version, 1L)) {
    cli::cli_abort(
      "The example data file has an unknown format version.",
      class = "aurc_error", call = call
    )
  }
  example_data_cache$key <- key
  example_data_cache$data <- data
  data
}

# Turns stored integer counts into probabilities whose rows sum to 1.
decode_example_counts <- function(counts, offset, classes) {
  prob <- counts + offset
  prob <- prob / rowSums(prob)
  dimnames(prob) <- list(NULL, classes)
  prob
}

check_example_format <- function(format, call = rlang::caller_env()) {
  choices <- c("long", "matrix")
  if (identical(format, choices)) {
    return(choices[1])
  }
  if (!is.character(format) || length(format) != 1 || is.na(format) ||
        !format %in% choices) {
    cli::cli_abort(
      c(
        "{.arg format} must be one of {.or {.val {choices}}}.",
        "x" = "You supplied {example_describe(format)}."
      ),
      class = "aurc_error", call = call
    )
  }
  format
}

check_example_models <- function(models, valid, call = rlang::caller_env()) {
  if (is.null(models)) {
    return(valid)
  }
  if (!is.character(models) || length(models) == 0 || anyNA(models)) {
    cli::cli_abort(
      c(
        paste(
          "{.arg models} must be {.code NULL} or a character vector of",
          "model names without missing values."
        ),
        "x" = "You supplied {example_describe(models)}.",
        "i" = "Valid model names: {.val {valid}}."
      ),
      class = "aurc_error", call = call
    )
  }
  check_example_size(models, valid, "models", "model names", call)
  unknown <- setdiff(models, valid)
  if (length(unknown) > 0) {
    cli::cli_abort(
      c(
        "{.arg models} must contain only known model names.",
        "x" = paste0(
          "{cli::qty(length(unknown))}Unknown model name{?s}: ",
          "{.val {unknown}}."
        ),
        "i" = "Valid model names: {.val {valid}}."
      ),
      class = "aurc_error", call = call
    )
  }
  if (anyDuplicated(models)) {
    cli::cli_abort(
      c(
        "{.arg models} must not contain duplicates.",
        "x" = "Duplicated: {.val {unique(models[duplicated(models)])}}."
      ),
      class = "aurc_error", call = call
    )
  }
  models
}

# A selection longer than the available values cannot be valid (values
# must be known and distinct): refused before any set operation or message
# formats it (`seeds = 1:1e6` formatted a million values for ever).
check_example_size <- function(x, valid, arg, what, call) {
  if (length(x) <= length(valid)) return(invisible(x))
  abort_aurc(
    c(
      "{.arg {arg}} must have at most {length(valid)} distinct element{?s}.",
      "x" = "It has {format(length(x), big.mark = ',')} elements.",
      "i" = "Available {what}: {.val {valid}}."
    ),
    class = "aurc_error_size", call = call
  )
}

check_example_seeds <- function(seeds, valid, call = rlang::caller_env()) {
  if (is.null(seeds)) {
    return(valid)
  }
  if (!is_example_whole_numbers(seeds)) {
    cli::cli_abort(
      c(
        paste(
          "{.arg seeds} must be {.code NULL} or a vector of whole numbers",
          "without missing values."
        ),
        "x" = "You supplied {example_describe(seeds)}.",
        "i" = "Available seeds: {.val {valid}}."
      ),
      class = "aurc_error", call = call
    )
  }
  check_example_size(seeds, valid, "seeds", "seeds", call)
  unknown <- setdiff(seeds, valid)
  if (length(unknown) > 0) {
    cli::cli_abort(
      c(
        "{.arg seeds} must contain only available seeds.",
        "x" = paste0(
          "{cli::qty(length(unknown))}Unavailable seed{?s}: ",
          "{.val {unknown}}."
        ),
        "i" = "Available seeds: {.val {valid}}."
      ),
      class = "aurc_error", call = call
    )
  }
  if (anyDuplicated(seeds)) {
    cli::cli_abort(
      c(
        "{.arg seeds} must not contain duplicates.",
        "x" = "Duplicated: {.val {unique(seeds[duplicated(seeds)])}}."
      ),
      class = "aurc_error", call = call
    )
  }
  as.integer(seeds)
}

# Describes a user input for an error message: the value itself for short
# atomic vectors, otherwise its type.
example_describe <- function(x) {
  if (is.atomic(x) && length(x) >= 1 && length(x) <= 5) {
    cli::format_inline("{.val {x}}")
  } else {
    cli::format_inline("{.obj_type_friendly {x}}")
  }
}

# TRUE for a non-empty numeric vector of finite whole numbers.
is_example_whole_numbers <- function(x) {
  is.numeric(x) && length(x) > 0 && all(is.finite(x)) && all(x == round(x))
}

#' Cached study results shipped with the package
#'
#' @description
#' Results of studies too slow to run while a vignette is built are made
#' once by a script in `inst/scripts/` and shipped, small, in
#' `inst/extdata/`. Read them with
#' `readRDS(system.file("extdata", "<file>", package = "aurc"))`.
#'
#' @section `csf-rankings.rds`:
#' The rankings of the Fig. 3 section of `vignette("augrc-ranking")`
#' (Traub et al. 2024, Figs. 3 and 7 and Table 3), made by
#' `inst/scripts/make-vignette-results.R` with the vignette's code: for each
#' of the six models of [example_predictions()] (in the order `lda`,
#' `multinom`, `qda`, `nnet`, `knn`, `rf`, after one `set.seed(2024)`) the
#' seven confidence scores of the vignette are ranked with
#' [bootstrap_ranking()] (500 replicates, metrics `"aurc"`, `"augrc"`,
#' `"aurc_trapezoid"`, runs = seeds). A list with
#' * `format_version`: 1.
#' * `ranking`: the `ranking` table of each model's ranking, unrounded,
#'   with a first column `model` (6 x 3 x 7 = 126 rows).
#' * `tests`: the `tests` table of each model's ranking (raw p-values,
#'   Holm-adjusted p-values, significance at 0.05), with a first column
#'   `model` (6 x 3 x 42 = 756 rows).
#' * `settings`: the models, methods, metrics, number of replicates, the
#'   seed, `seed_before_knn` (the value of `.Random.seed` before the k-NN
#'   model was ranked, with which the vignette ranks it again and checks
#'   the stored tables) and the package version.
#'
#' @section `shift-rankings.rds`:
#' The bootstrap replicates behind the distribution-shift section of
#' `vignette("augrc-ranking")` (Traub et al. 2024, Fig. 6 and Table 3).
#' Made by `inst/scripts/make-shift-rankings.R`: the six models and five
#' seeds of [example_predictions()] (the same fits) predict the 5000 test
#' cases with Gaussian noise added to their features (standard deviation
#' 0.5 times each feature's standard deviation in the training pool); for
#' each model the seven confidence scores of the vignette (`msp`,
#' `margin`, `neg_entropy`, `neg_gini` of one seed; `mcd_msp`, `mcd_pe`,
#' `mcd_mi` of the ensemble of the four other seeds) are ranked with
#' [bootstrap_ranking()] (500 replicates, `set.seed(2024)`, metrics
#' `"aurc"`, `"augrc"`, `"aurc_trapezoid"`, runs = seeds). A list with
#' * `format_version`: 1.
#' * `replicates`: a data frame with one row per model, replicate, method
#'   and metric (6 x 500 x 7 x 3 = 63000 rows): `model`, `replicate`,
#'   `method`, `metric`, and `value`, the metric averaged over the five
#'   runs, stored as the integer `round(value_scale * value)`; divide by
#'   `settings$value_scale` (1e7).
#' * `full_values`: `model`, `metric`, `method`, `value` (126 rows): the
#'   metrics on the whole shifted test set, averaged over the runs.
#' * `runs`: `model`, `method`, `run`, `accuracy`, `failure_auroc` (210
#'   rows): each score and run on the whole shifted test set.
#' * `settings`: the noise level and seeds, the number of replicates, the
#'   models, seeds and methods, and the R and package versions.
#'
#' `rank_replicates()` rebuilds the rankings from `replicates` and
#' `full_values` (see the vignette).
#'
#' @section `nnet-cross-entropy.rds`:
#' The cross-entropy loss of one bundled classifier, the neural network
#' `"nnet"` with seed 1, computed from its unrounded probabilities (the
#' bundled ones are rounded to 1e-5, which loses the cross-entropy of cases
#' whose true class gets a probability below 5e-6). Made by
#' `inst/scripts/make-nnet-cross-entropy.R`, which refits the model with the
#' settings of [example_predictions()] and checks that rounding its
#' probabilities gives the bundled ones. A data frame with 5000 rows, one
#' per test case in the order of [example_predictions()]: `case` (test case
#' id), `label` (true class, 1 to 26), `msp` (largest unrounded class
#' probability), `error` (0/1 loss of the arg-max class) and
#' `cross_entropy` (`-log` of the unrounded probability of the true class).
#' Used for the cross-entropy figures of `vignette("estimators")`.
#'
#' @section `interval-coverage.csv.gz`:
#' The coverage study of `vignette("interval-coverage")`, made by
#' `inst/scripts/coverage-study.R` (gzip-compressed CSV; `read.csv()` reads
#' it as it is): one row per model, sample size, metric, estimator and
#' interval method (`analytic`, `percentile`, `bca`, `normal`), with the
#' coverage of the population value over 1000 data sets.
#'
#' @name aurc-study-caches
#' @keywords datasets
#' @examples
#' ce <- readRDS(system.file("extdata", "nnet-cross-entropy.rds",
#'                           package = "aurc"))
#' aurc_vec(ce$msp, ce$cross_entropy)
NULL
