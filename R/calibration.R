#' Calibration bins: equal-width, equal-mass and adaptive binning
#'
#' Groups the samples by confidence and compares, in every bin, the mean
#' confidence with the accuracy: the table behind a reliability diagram and
#' behind the expected and maximum calibration errors ([ece_vec()],
#' [mce_vec()]). The confidences are sorted once; every binning is then a
#' linear pass.
#'
#' @section Binnings:
#' * `"equal_width"`: `n_bins = k` bins `[0, 1/k], (1/k, 2/k], ...,
#'   ((k-1)/k, 1]`, closed on the right. Edge `b` is computed as `b / k`
#'   (one division, so an edge is the double nearest to the decimal value):
#'   a confidence of exactly `0.3` lies in bin 3 of 10 on every platform,
#'   while `0.1 * 3` (which is `0.30000000000000004`) lies in bin 4. Empty
#'   bins are kept with `n = 0`.
#' * `"equal_mass"`: about `n_bins` bins of nearly equal (weighted) size,
#'   taken in ascending confidence. Boundary `b` is placed on the edge of a
#'   group of tied confidences nearest to the `b * W / k`-th sample (`W` the
#'   total weight; the lower edge when both are equally near), so ties are
#'   never split; without ties and weights the sizes differ by at most one.
#'   Boundaries that coincide (ties, or fewer samples than bins) are dropped,
#'   so there may be fewer than `n_bins` bins, never an empty one.
#' * `"adaptive"` (the default; Ding et al. 2020, Sec. 4.2): bins are grown
#'   from the highest confidence down. With `z = qnorm(1 - (1 - conf_level)
#'   / 2)` rounded to three decimals (`conf_level = 0.9` gives `z = 1.645`,
#'   the value in the authors' code; the paper's text says it uses an 80%
#'   interval, which would be `z = 1.282`), a bin is full once its count
#'   exceeds its target `0.25 (z / eps)^2`, `eps` = the range of its
#'   confidences so far (while `eps = 0` the target is infinite: a bin always
#'   holds at least two distinct confidences, unless it is the only one or
#'   the last). The next group of tied confidences then opens a new bin only
#'   if the samples from that group down number more than `min_remaining`
#'   and the full bin's lowest confidence exceeds the overall lowest one by
#'   more than `min_range`; otherwise everything left joins the current bin,
#'   which becomes the last. A last bin short of its target by `needed`
#'   samples takes `floor(needed * n_b / n)` samples from every other bin
#'   `b`, in proportion to its count, by moving each boundary up. A moved
#'   boundary that falls inside a group of tied confidences goes to the
#'   group's nearer edge (when equally near, the one moving fewer samples);
#'   boundaries that coincide are dropped. No top-up happens when the last
#'   bin holds a single distinct confidence (its target is infinite).
#'   Ties are never split, a tie group larger than a target simply makes
#'   its bin larger, and with fewer than `min_remaining` samples (or a
#'   range below `min_range`) there is one bin. The result does not depend
#'   on the order of the rows.
#' * `"ding2020"`: the authors' public code (github.com/yding5/AdaptiveBinning,
#'   `AdaptiveBinning.py`), reproduced with its two quirks so that published
#'   AECE/AMCE values can be replicated: samples are taken one at a time in
#'   descending confidence, tied samples in the order of the input, so ties
#'   may be split across bins (and the result can depend on the row order);
#'   and the top-up takes the same `trunc(needed * n_last / n)` samples from
#'   every bin, not an amount in proportion to each bin's count. Where the
#'   authors' code fails or returns meaningless values this is an error of
#'   class `aurc_error_ding2020`: when the last bin holds a single distinct
#'   confidence (its code overflows on an infinite target) and when the
#'   top-up would leave a bin with no or a negative number of samples.
#'   Case weights are not supported. The rules were read from the authors'
#'   published code and implemented independently; the package's tests
#'   compare them with hand-computed cases and a separate R implementation
#'   of the same rules, not with the Python code itself.
#' * `"kumar2019"`: the bins of `get_calibration_error()` in the library
#'   of Kumar et al. (2019) (github.com/p-lambda/verified_calibration), as
#'   its current version computes them: when fewer than `n / 4` distinct
#'   confidences occur, one bin per distinct value; otherwise the sorted
#'   confidences are cut into `n_bins` parts as `numpy.array_split` cuts
#'   them (sizes differ by at most one, the larger parts first; their
#'   default is `n_bins = 15`) and an edge is put midway between the last
#'   value of a part and the first of the next. `"kumar2019_legacy"`: the
#'   rule of the library before 2022-08-27, parts of `ceiling(n / n_bins)`
#'   samples (the last one shorter); the two agree when `n_bins` divides
#'   `n`. Bins are closed on the right, so tied values stay together.
#'   With case weights, `n` is the total weight and the `k`-th sorted sample
#'   is the first whose cumulative weight reaches `k`. Their code requires
#'   `n_bins <= n`; here fewer samples simply give smaller parts. An edge at
#'   exactly 0 (the lowest two values both 0) is merged into the first bin.
#' * `breaks`: custom edges, strictly increasing from 0 to 1, bins closed on
#'   the right as for `"equal_width"` (the binning is then reported as
#'   `"custom"`).
#'
#' @section Bin edges and intervals:
#' `lower` and `upper` are the bin's edges: the breaks for equal-width and
#' custom bins; for the data-driven binnings, the midpoint between
#' neighbouring bins' observed confidences, and the observed lowest and
#' highest confidence at the two ends. `accuracy_lower` and `accuracy_upper`
#' are the 95% Wilson score interval of the bin's accuracy (from its
#' weighted count).
#'
#' @section Case weights:
#' Frequency weights: sample `i` counts `case_weights[i]` times in every
#' count, mean and sum, so integer weights give exactly the bins of the data
#' with rows repeated. For the adaptive binning a bin's count and the
#' number of samples remaining (compared with `min_remaining`) are weighted
#' sums; for equal-mass bins the sizes are. Samples of weight 0 are dropped.
#'
#' Equal-width, equal-mass and custom bins, and every mean, accuracy and
#' gap, do not change when all weights are multiplied by one number, at any
#' scale (weights from `1e-320` to `1e308`). The adaptive and `"kumar2019"`
#' bins count cases (a bin closes after `0.25 (z / eps)^2` cases; parts hold
#' equal counts), so their bins, ECE and MCE depend on the scale of the
#' weights, exactly as repeating rows changes them. Weights that total
#' less than one case are then an error of class `aurc_error_weights_scale`
#' here (`NA` with a warning of class `aurc_warning_weights_scale` in
#' [ece()] and [mce()]); totals above `2^53`, where doubles no longer count
#' whole cases, are brought into `[2^52, 2^53)` by a power of 2 (the bins
#' are then those of that many cases: beyond some thousands of cases per
#' confidence they no longer change). The `n` column and the Wilson
#' intervals always count the cases the weights given stand for.
#'
#' @param data A data frame (grouped or not) with the columns named by
#'   `confidence`, `correct` and `case_weights`. (Before aurc 0.1.0 the
#'   first argument was the confidence vector; that call still works, with
#'   a message pointing to `calibration_bins_vec()`.)
#' @param confidence Confidence of the predicted class, in `[0, 1]`: for
#'   `calibration_bins()` an unquoted column of `data`. For
#'   `calibration_bins_vec()` a vector, or a
#'   probability matrix (one row per sample, one column per class, rows
#'   summing to 1): top-label calibration, the confidence of a row is its
#'   largest probability (see [top_label()]).
#' @param correct Whether the prediction was correct: 0/1 or logical (an
#'   unquoted column for `calibration_bins()`). The same argument, with the
#'   same meaning, as in [ece()], [mce()], [smooth_ece()], the CORP
#'   functions and `correct =` of [selective_ci()]. With
#'   a probability matrix in `confidence`, the true classes instead (numbers
#'   `1..ncol(confidence)` or a factor), and a row is correct when its
#'   largest probability (the first of tied maxima) is on its class.
#' @param loss Instead of `correct`, by name: the 0/1 failure indicator
#'   (1 = the prediction was wrong), read as `correct = 1 - loss`, as every
#'   function of the package reads the two names; give one of the two.
#' @param ... Not used; must be empty.
#' @param binning One of `"adaptive"`, `"equal_width"`, `"equal_mass"`,
#'   `"ding2020"`, `"kumar2019"`, `"kumar2019_legacy"` (see Binnings).
#' @param n_bins Number of bins for `"equal_width"` and `"equal_mass"`
#'   (a whole number from 1 to `1e6`). An
#'   option the chosen binning does not use (`n_bins` with the adaptive
#'   binnings or `breaks`; `conf_level`, `min_remaining`, `min_range` with
#'   the others), when given, is ignored with a warning of class
#'   `aurc_warning_ignored`.
#' @param conf_level Confidence level that sets `z` for the adaptive
#'   binnings.
#' @param min_remaining,min_range The adaptive binnings open no new bin when
#'   at most `min_remaining` samples remain or the remaining confidence range
#'   is at most `min_range`.
#' @param breaks Optional custom bin edges, strictly increasing, from 0 to 1.
#'   When given, `binning` must be left at its default or be
#'   `"equal_width"`.
#' @param na_rm If `TRUE`, samples with a missing confidence or correctness
#'   are dropped; if `FALSE` (the default) they are an error here (and make
#'   [ece_vec()] `NA`).
#' @param case_weights Optional non-negative frequency weights (an unquoted
#'   column for `calibration_bins()`).
#'
#' @return A tibble of class `aurc_calibration_bins` (for a grouped data
#'   frame, with the grouping columns first and the bins of every group, the
#'   table of [calibration_bins_df()]), one row per bin in
#'   ascending confidence: `bin`, `lower`, `upper`, `min_confidence`,
#'   `max_confidence`, `n`, `mean_confidence`, `accuracy`, `gap` (accuracy
#'   minus mean confidence, negative when overconfident), `accuracy_lower`,
#'   `accuracy_upper`. Attributes record the settings (`binning`, `n_bins`,
#'   `conf_level`, `z`, `min_remaining`, `min_range`, `breaks`), the total
#'   weight `n`, `ece`, `mce`, and `histogram`, the share of samples in 100
#'   equal-width confidence bins, used by [autoplot()][ggplot2::autoplot()]
#'   (the reliability diagram, see [autoplot.aurc_calibration_bins()]).
#'   For a grouped data frame, `groups` holds the keys of the groups (one
#'   row per group) and `group_vars` their names; `n`, `ece` and `mce` have
#'   one value per group, in that order, and `histogram` the grouping
#'   columns first. [autoplot()][ggplot2::autoplot()] then draws one
#'   diagram per group.
#'   Printing shows the settings and, per bin, its edges, count, mean
#'   confidence, accuracy and gap in plain numbers; the whole table is
#'   `tibble::as_tibble(bins)`, and columns are at hand as usual
#'   (`bins$accuracy_lower`, `bins[c("bin", "accuracy_upper")]`).
#'
#' @references
#' Ding, Liu, Xiong, Shi (2020). Revisiting the Evaluation of Uncertainty
#' Estimation and Its Application to Explore Model Complexity-Uncertainty
#' Trade-Off. CVPR Workshops 2020.
#'
#' @seealso [ece_vec()], [mce_vec()], [top_label()].
#' @examples
#' set.seed(1)
#' confidence <- c(runif(200, 0.5, 1), rep(0.99, 300))
#' correct <- rbinom(500, 1, confidence^2)
#' df <- data.frame(confidence, correct, model = rep(c("a", "b"), 250))
#' calibration_bins(df, confidence, correct)
#' calibration_bins(df, confidence, correct, binning = "equal_width")
#' calibration_bins_vec(confidence, correct,
#'   breaks = c(0, 0.5, 0.9, 0.95, 1)
#' )
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   calibration_bins(dplyr::group_by(df, model), confidence, correct)
#' }
#' @export
calibration_bins <- function(data, confidence, correct, ...,
                             binning = "adaptive", n_bins = 10,
                             conf_level = 0.9, min_remaining = 40,
                             min_range = 0.05, breaks = NULL,
                             loss = NULL, na_rm = FALSE,
                             case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  if (!missing(data) && is.data.frame(data)) {
    cols <- calibration_columns(data, rlang::enquo(confidence),
      rlang::enquo(correct), rlang::enquo(case_weights), call
    )
    if (!is.null(cols$groups$keys)) {
      return(calibration_bins_groups(cols, settings, na_rm, call,
        classed = TRUE
      ))
    }
    return(calibration_bins_compute(cols$confidence, cols$correct,
      cols$case_weights, na_rm, settings, call
    ))
  }
  if (!missing(data) && !is.numeric(data) && !is.logical(data)) {
    check_data_frame(data, call = call)
  }
  # the call of aurc before 0.1.0: calibration_bins(confidence, correct),
  # vectors (or a probability matrix and labels) in the first two places
  value <- function(quo) {
    tryCatch(rlang::eval_tidy(quo),
      error = function(e) {
        abort_aurc(
          c(
            "Can't evaluate {.code {rlang::as_label(quo)}}.",
            i = paste(
              "{.fn calibration_bins} takes a data frame first:",
              "{.code calibration_bins(data, confidence, correct)}."
            )
          ),
          parent = e, class = "aurc_error_column", call = call
        )
      }
    )
  }
  if (missing(data)) {
    conf <- value(rlang::enquo(confidence))
    corr <- value(rlang::enquo(correct))
  } else {
    conf <- data
    corr <- if (missing(confidence)) {
      value(rlang::enquo(correct))
    } else {
      value(rlang::enquo(confidence))
    }
  }
  inform_aurc(
    c(
      paste(
        "{.fn calibration_bins} takes a data frame first since aurc 0.1.0:",
        "{.code calibration_bins(data, confidence, correct)}."
      ),
      i = "For vectors use {.code calibration_bins_vec(confidence, correct)}."
    ),
    class = "aurc_message_deprecated",
    .frequency = "regularly", .frequency_id = "aurc_calibration_bins_vec"
  )
  calibration_bins_compute(conf, corr, value(rlang::enquo(case_weights)),
    na_rm, settings, call
  )
}

#' @rdname calibration_bins
#' @export
calibration_bins_vec <- function(confidence, correct, ...,
                                 binning = "adaptive", n_bins = 10,
                                 conf_level = 0.9, min_remaining = 40,
                                 min_range = 0.05, breaks = NULL,

                                 loss = NULL, na_rm = FALSE,
                                 case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  calibration_bins_compute(confidence, correct, case_weights, na_rm,
    settings, call
  )
}

# The bins of one set of samples (vectors, or a probability matrix and
# labels): an `aurc_calibration_bins` table.
calibration_bins_compute <- function(confidence, correct, case_weights,
                                     na_rm, settings, call) {
  input <- calibration_input(confidence, correct, case_weights, na_rm,
    settings,
    call = call, count = calibration_counts_cases(settings)
  )
  if (identical(input, "missing")) {
    abort_aurc(
      c(
        "{.arg confidence} and {.arg correct} must not have missing values.",
        i = "Use {.code na_rm = TRUE} to drop them."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (is.null(input)) {
    abort_aurc(
      c(
        "No samples left to bin.",
        i = "Check for missing values or all-zero {.arg case_weights}."
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  if (isTRUE(input$too_few)) abort_calibration_scale(settings, call)
  calibration_table(input, settings, call)
}

calibration_binnings <- c(
  "adaptive", "equal_width", "equal_mass", "ding2020", "kumar2019",
  "kumar2019_legacy"
)

# The two versions of Kumar et al.'s data-driven bins.
kumar_binnings <- c("kumar2019", "kumar2019_legacy")

# Validated settings; `binning` is "custom" when `breaks` is given.
calibration_settings <- function(binning, binning_missing, n_bins,
                                 conf_level, min_remaining, min_range, breaks,
                                 call) {
  binning <- check_choice(binning, calibration_binnings, call = call)
  # bounded so that no absurd request allocates a vector of bins or edges
  check_number(n_bins, lower = 1, upper = 1e6, whole = TRUE, call = call)
  check_number(conf_level, lower = 0, upper = 1, open = TRUE, call = call)
  check_number(min_remaining, lower = 0, call = call)
  check_number(min_range, lower = 0, call = call)
  edges <- NULL
  if (binning == "equal_width") edges <- seq(0, n_bins) / n_bins
  if (!is.null(breaks)) {
    if (!binning_missing && binning != "equal_width") {
      abort_aurc(
        c(
          paste(
            "{.arg breaks} can't be combined with",
            "{.code binning = {.val {binning}}}."
          ),
          i = "Leave {.arg binning} at its default, or use {.val equal_width}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    check_breaks(breaks, call = call)
    binning <- "custom"
    edges <- as.double(breaks)
  }
  warn_ignored_binning_options(binning, call)
  list(
    binning = binning, n_bins = n_bins, conf_level = conf_level,
    z = round(stats::qnorm(1 - (1 - conf_level) / 2), 3),
    min_remaining = min_remaining, min_range = min_range, breaks = edges
  )
}

check_breaks <- function(breaks, call) {
  ok <- is.numeric(breaks) && is.null(dim(breaks)) && length(breaks) >= 2 &&
    !anyNA(breaks) && all(diff(breaks) > 0) && breaks[1] == 0 &&
    breaks[length(breaks)] == 1
  if (!ok) {
    abort_aurc(
      c(
        "{.arg breaks} must be strictly increasing numbers from 0 to 1.",
        i = "For example {.code c(0, 0.5, 0.9, 1)}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible(breaks)
}

# The argument checks of the calibration functions, on whole columns.
# Returns the scan of calibration_scan_impl(): positions of the first bad
# confidence and correctness, and whether anything is missing.
calibration_check_columns <- function(confidence, correct, case_weights,
                                      na_rm, settings, call,
                                      convention = TRUE) {
  check_numeric_vector(confidence, "confidence", call = call)
  n <- length(confidence)
  check_numeric_vector(correct, "correct", allow_logical = TRUE, call = call)
  check_same_length(correct, n, "correct", arg_n = "confidence", call = call)
  # one pass in C++; the R checks below only run to report an error
  scan <- calibration_scan_impl(as.double(confidence), correct)
  if (scan[1] > 0) check_confidence(confidence, call = call)
  if (scan[2] > 0) check_failure(correct, n, "correct", call = call)
  if (!is.null(case_weights)) {
    check_numeric_vector(case_weights, "case_weights", call = call)
    check_same_length(case_weights, n, "case_weights",
      arg_n = "confidence", call = call
    )
  }
  check_case_weights(case_weights, n, call = call)
  check_bool(na_rm, call = call)
  if (convention) {
    warn_calibration_convention(confidence, correct, case_weights, call = call)
  }
  if (settings$binning == "ding2020" && !is.null(case_weights)) {
    abort_aurc(
      c(
        "{.code binning = \"ding2020\"} does not support {.arg case_weights}.",
        i = paste(
          "The authors' code has no weights; use",
          "{.code binning = \"adaptive\"}."
        )
      ),
      class = "aurc_error_ding2020", call = call
    )
  }
  scan
}

# Validates the samples and applies the NA rule. Returns a list of double
# vectors (zero weights dropped), "missing" when a value is missing and
# `na_rm = FALSE`, or NULL when nothing is left. The weights are scaled by
# a power of 2 (R/weights-scale.R): scale-free, or as counts of cases when
# `count` (the adaptive and kumar2019 bins, the debiased ECE, the relplot
# smooth ECE); `weight_exponent` says by which (the weights used are those
# given times 2^weight_exponent, for the counts a bin table reports) and
# `too_few` whether, as counts, they total less than one case. `rescale =
# FALSE` keeps the weights as given (frequency weights whose scale
# matters: the calibration tests of R/calibration-tests.R). `convention =
# FALSE`: no check that the confidence looks like P(class) (the event
# probability of a binary model, whose calibration the clinical summaries
# of R/calibration-clinical-yardstick.R measure).
calibration_input <- function(confidence, correct, case_weights, na_rm,
                              settings, call, rescale = TRUE, count = FALSE,
                              convention = TRUE) {
  case_weights <- plain_weights(case_weights)
  if (is.matrix(confidence)) {
    # a probability matrix and class labels (R/calibration-df.R)
    tl <- calibration_from_probs(confidence, correct, call)
    confidence <- tl$confidence
    correct <- tl$correct
    convention <- FALSE
  }
  scan <- calibration_check_columns(confidence, correct, case_weights, na_rm,
    settings, call,
    convention = convention
  )
  confidence <- as.double(confidence)
  correct <- as.double(correct)
  keep <- TRUE
  if (scan[3] > 0) {
    if (!na_rm) return("missing")
    keep <- !(is.na(confidence) | is.na(correct))
  }
  if (!is.null(case_weights)) keep <- keep & case_weights > 0
  if (!all(keep)) {
    confidence <- confidence[keep]
    correct <- correct[keep]
    if (!is.null(case_weights)) case_weights <- case_weights[keep]
  }
  if (length(confidence) == 0) return(NULL)
  exponent <- 0
  too_few <- FALSE
  case_weights <- if (is.null(case_weights)) double() else {
    as.double(case_weights)
  }
  if (rescale && length(case_weights)) {
    sc <- scale_group_weights(case_weights, count = count)
    case_weights <- sc$w
    exponent <- sc$exponent
    too_few <- sc$too_few
  }
  list(
    confidence = confidence, correct = correct, case_weights = case_weights,
    weight_exponent = exponent, too_few = too_few
  )
}

# Whether calibration with these settings counts cases (R/weights-scale.R):
# the adaptive bins close after a number of cases, kumar2019's bins split
# counts, and the debiased ECE subtracts a variance of 1 / count.
calibration_counts_cases <- function(settings, metric = NULL) {
  settings$binning %in% c("adaptive", "ding2020", kumar_binnings) ||
    identical(metric, "debiased_l2_ce")
}

# The warning (NA) or error (a bin table) of count-dependent calibration on
# weights that total less than one case.
warn_calibration_scale <- function(settings, metric = "bins",
                                   call = rlang::caller_env()) {
  what <- if (identical(metric, "debiased_l2_ce")) {
    "The debiased ECE"
  } else if (metric %in% c("ece", "mce")) {
    paste0(
      toupper(metric), " with {.code binning = \"", settings$binning, "\"}"
    )
  } else {
    paste0("The {.val ", settings$binning, "} bins")
  }
  warn_weights_scale(what, calibration_scale_why(settings, metric),
    "{.code binning = \"equal_width\"} or {.code \"equal_mass\"}",
    call = call
  )
}

abort_calibration_scale <- function(settings, call = rlang::caller_env()) {
  abort_weights_scale(
    paste0("the {.val ", settings$binning, "} bins"),
    calibration_scale_why(settings),
    "{.code binning = \"equal_width\"} or {.code \"equal_mass\"}",
    call = call
  )
}

calibration_scale_why <- function(settings, metric = NULL) {
  if (identical(metric, "debiased_l2_ce")) {
    "It subtracts the variance of each bin's accuracy, 1 / (n - 1) for n cases."
  } else if (settings$binning %in% kumar_binnings) {
    "Its bins hold equal counts of cases."
  } else {
    paste(
      "A bin closes after 0.25 (z / eps)^2 cases, and none opens with fewer",
      "than {.arg min_remaining} cases left."
    )
  }
}

calibration_hist_bins <- 100

# The bins from the C++ kernel: counts and sums per bin, and the histogram.
calibration_kernel <- function(input, settings, call) {
  if (settings$binning %in% kumar_binnings && is.null(settings$breaks)) {
    # data-driven edges (R/calibration-debiased.R), then fixed-edge bins
    settings$breaks <- kumar_breaks(input, settings$n_bins,
      legacy = settings$binning == "kumar2019_legacy"
    )
  }
  kernel <- switch(settings$binning,
    equal_width = ,
    custom = ,
    kumar2019_legacy = ,
    kumar2019 = "breaks",
    settings$binning
  )
  res <- calibration_bins_impl(
    input$confidence, input$correct, input$case_weights, kernel,
    if (is.null(settings$breaks)) double() else settings$breaks,
    settings$n_bins, settings$z, settings$min_remaining, settings$min_range,
    calibration_hist_bins, sort_threads(call)
  )
  if (res$status != 0) abort_ding2020(res$status, call)
  res
}

# ECE or MCE straight from the kernel's sums, with the arithmetic of
# calibration_table() (no tibbles: the fixed cost of ece_vec() stays low).
calibration_error <- function(input, settings, metric, call) {
  res <- calibration_kernel(input, settings, call)
  n <- res$n
  keep <- n > 0
  gap <- res$sum_correct[keep] / n[keep] - res$sum_confidence[keep] / n[keep]
  if (metric == "ece") sum(n[keep] * abs(gap)) / sum(n) else max(abs(gap))
}

calibration_table <- function(input, settings, call) {
  if (settings$binning %in% kumar_binnings) {
    settings$breaks <- kumar_breaks(input, settings$n_bins,
      legacy = settings$binning == "kumar2019_legacy"
    )
  }
  res <- calibration_kernel(input, settings, call)
  n <- res$n
  nonempty <- n > 0
  # the counts of the weights as given (they were scaled by a power of 2,
  # R/weights-scale.R): the `n` columns and the binomial intervals count
  # cases; every ratio is free of the scale
  back <- -(input$weight_exponent %||% 0)
  n_given <- times_pow2(n, back)
  res$min_confidence[!nonempty] <- NA_real_
  res$max_confidence[!nonempty] <- NA_real_
  mean_conf <- ifelse(nonempty, res$sum_confidence / n, NA_real_)
  accuracy <- ifelse(nonempty, res$sum_correct / n, NA_real_)
  interval <- wilson_interval(accuracy, n_given)
  if (is.null(settings$breaks)) {
    lo <- res$min_confidence
    hi <- res$max_confidence
    mid <- (hi[-length(hi)] + lo[-1]) / 2
    lower <- c(lo[1], mid)
    upper <- c(mid, hi[length(hi)])
  } else {
    lower <- settings$breaks[-length(settings$breaks)]
    upper <- settings$breaks[-1]
  }
  total <- sum(n)
  gap <- accuracy - mean_conf
  tab <- tibble::tibble(
    bin = seq_along(n), lower = lower, upper = upper,
    min_confidence = res$min_confidence, max_confidence = res$max_confidence,
    n = n_given, mean_confidence = mean_conf, accuracy = accuracy,
    gap = gap,
    accuracy_lower = interval[, 1], accuracy_upper = interval[, 2]
  )
  hk <- calibration_hist_bins
  histogram <- tibble::tibble(
    lower = seq(0, hk - 1) / hk, upper = seq(1, hk) / hk,
    n = times_pow2(res$histogram, back), share = res$histogram / total
  )
  new_calibration_bins(tab,
    settings = settings, n = times_pow2(total, back),
    ece = sum(n[nonempty] * abs(gap[nonempty])) / total,
    mce = max(abs(gap[nonempty])), histogram = histogram
  )
}

# 95% Wilson score interval; NA for empty bins.
# Written with n in the numerators (the usual form divided through by n),
# so that counts from 1e-320 to 1e308 give no 0 * Inf.
wilson_interval <- function(p, n, level = 0.95) {
  z <- stats::qnorm(1 - (1 - level) / 2)
  center <- (p * n + z^2 / 2) / (n + z^2)
  half <- z * sqrt(n * p * (1 - p) + z^2 / 4) / (n + z^2)
  lower <- pmax(0, center - half)
  upper <- pmin(1, center + half)
  lower[!(n > 0)] <- NA_real_
  upper[!(n > 0)] <- NA_real_
  cbind(lower, upper)
}

abort_ding2020 <- function(status, call) {
  why <- if (status == 1) {
    paste(
      "The last bin holds a single distinct confidence, so its target is",
      "infinite; the authors' code fails here."
    )
  } else {
    paste(
      "Its last-bin top-up would leave a bin with no samples or a negative",
      "count; the authors' code returns meaningless values here."
    )
  }
  abort_aurc(
    c(
      "{.code binning = \"ding2020\"} has no defined result for these data.",
      x = why,
      i = "Use {.code binning = \"adaptive\"}, which handles this case."
    ),
    class = "aurc_error_ding2020", call = call
  )
}

# `groups`: the keys of the groups (a tibble, one row per group) for the
# bins of a grouped data frame; `n`, `ece`, `mce` then have one value per
# group and `histogram` the grouping columns first.
new_calibration_bins <- function(tab, settings, n, ece, mce, histogram,
                                 groups = NULL) {
  structure(
    tab,
    class = c("aurc_calibration_bins", "tbl_df", "tbl", "data.frame"),
    binning = settings$binning, n_bins = settings$n_bins,
    conf_level = settings$conf_level, z = settings$z,
    min_remaining = settings$min_remaining, min_range = settings$min_range,
    breaks = settings$breaks, interval = "Wilson score, 95%",
    n = n, ece = ece, mce = mce, histogram = histogram,
    group_vars = if (!is.null(groups)) names(groups), groups = groups
  )
}

#' @export
print.aurc_calibration_bins <- function(x, ...) {
  binning <- attr(x, "binning")
  label <- switch(binning,
    adaptive = "adaptive (Ding et al. 2020, ties kept together)",
    ding2020 = "adaptive, as the code of Ding et al. (2020)",
    equal_width = paste0(
      "equal width (", attr(x, "n_bins"), " bins requested)"
    ),
    equal_mass = paste0(
      "equal mass (", attr(x, "n_bins"), " bins requested)"
    ),
    custom = "custom breaks",
    kumar2019 = "as the code of Kumar et al. (2019), array_split",
    kumar2019_legacy = "as the code of Kumar et al. (2019) before 2022-08-27"
  )
  cat("# Calibration bins: ", label, "\n", sep = "")
  keys <- attr(x, "groups")
  if (is.null(keys)) {
    cat(sprintf(
      "# %d bins, %s samples; ECE = %s, MCE = %s\n", nrow(x),
      format(attr(x, "n"), big.mark = ",", scientific = FALSE),
      format(attr(x, "ece"), digits = 4, scientific = FALSE),
      format(attr(x, "mce"), digits = 4, scientific = FALSE)
    ))
  } else {
    cat(sprintf(
      "# %d groups (by %s), %d bins in all\n", nrow(keys),
      paste(attr(x, "group_vars"), collapse = ", "), nrow(x)
    ))
  }
  if (binning %in% c("adaptive", "ding2020")) {
    cat(sprintf(
      "# z = %s (conf_level = %s), min_remaining = %s, min_range = %s\n",
      format(attr(x, "z")), format(attr(x, "conf_level")),
      format(attr(x, "min_remaining")), format(attr(x, "min_range"))
    ))
  }
  if (!is.null(keys)) {
    cat("# Per group:\n")
    print(calibration_group_summary(x), row.names = FALSE)
  }
  shown <- calibration_print_table(x)
  if (!is.null(keys)) {
    cat("# Bins:\n")
    shown <- cbind(
      as.data.frame(lapply(keys[group_index(x), ], format),
        check.names = FALSE
      ),
      shown
    )
  }
  rows <- utils::head(seq_len(nrow(shown)), 30)
  print(shown[rows, , drop = FALSE], row.names = FALSE, right = TRUE)
  if (nrow(shown) > length(rows)) {
    cat("# ... and", nrow(shown) - length(rows), "more bins\n")
  }
  cat(
    "# gap = accuracy - mean confidence (negative: overconfident)\n",
    "# accuracy interval (", attr(x, "interval"), ") and all ", ncol(x),
    " columns: tibble::as_tibble(x)\n",
    sep = ""
  )
  invisible(x)
}

# The groups of grouped bins with their bins, samples, ECE and MCE, as
# text.
calibration_group_summary <- function(x) {
  keys <- attr(x, "groups")
  whole <- all(attr(x, "n") == round(attr(x, "n")))
  data.frame(
    lapply(keys, format),
    bins = tabulate(group_index(x), nrow(keys)),
    n = if (whole) {
      format(attr(x, "n"), big.mark = ",", scientific = FALSE)
    } else {
      formatC(attr(x, "n"), digits = 1, format = "f")
    },
    ECE = formatC(attr(x, "ece"), digits = 4, format = "f"),
    MCE = formatC(attr(x, "mce"), digits = 4, format = "f"),
    check.names = FALSE, stringsAsFactors = FALSE
  )
}

# The group (row of attr(x, "groups")) of each bin of grouped bins.
group_index <- function(x) {
  keys <- attr(x, "groups")
  match(row_key(x, names(keys)), row_key(keys, names(keys)))
}

# The few columns a reader needs, as text in plain numbers: the bin's edges
# with enough decimals to tell neighbouring edges apart, the count, the mean
# confidence, the accuracy and the gap.
calibration_print_table <- function(x) {
  edges <- sort(unique(c(x$lower, x$upper)))
  digits <- 3
  while (digits < 6 && anyDuplicated(round(edges, digits))) {
    digits <- digits + 1
  }
  fixed <- function(v, d = 3) formatC(v, digits = d, format = "f")
  whole <- all(x$n == round(x$n))
  data.frame(
    bin = x$bin,
    "confidence range" = paste0(
      fixed(x$lower, digits), " - ", fixed(x$upper, digits)
    ),
    n = if (whole) format(x$n, big.mark = ",") else fixed(x$n, 1),
    "mean confidence" = fixed(x$mean_confidence),
    accuracy = fixed(x$accuracy),
    gap = fixed(x$gap),
    check.names = FALSE, stringsAsFactors = FALSE
  )
}

# A subset of the bins is no longer a binning: its header (number of bins,
# ECE, MCE of the whole set) and its reliability diagram would describe
# rows that are not there. `[` therefore returns a plain tibble.
#' @export
`[.aurc_calibration_bins` <- function(x, ...) {
  out <- NextMethod()
  if (!is.data.frame(out)) return(out)
  columns <- unclass(out)
  attributes(columns) <- list(names = names(out))
  tibble::new_tibble(columns, nrow = nrow(out))
}

#' Expected and maximum calibration error
#'
#' With the bins of [calibration_bins()] (`n_b` samples, mean confidence
#' `conf_b` and accuracy `acc_b` in bin `b`, `n` samples in all):
#' `ECE = sum_b (n_b / n) |acc_b - conf_b|` and
#' `MCE = max_b |acc_b - conf_b|`, over the non-empty bins. With the default
#' adaptive binning these are the AECE and AMCE of Ding et al. (2020).
#'
#' With `debias = TRUE`, `ece()` and `ece_vec()` return instead the debiased
#' estimate of the l2 calibration error of Kumar, Liang and Ma (2019), as
#' their library computes it (`unbiased_l2_ce`): `sqrt(max(0, sum_b (n_b /
#' n) [(acc_b - conf_b)^2 - acc_b (1 - acc_b) / (n_b - 1)]))`, where bins
#' with fewer than 2 samples contribute 0. The plug-in square `(acc_b -
#' conf_b)^2` overestimates the squared gap by the variance of `acc_b`;
#' subtracting its unbiased estimate removes most of the bias that makes the
#' binned ECE grow with the number of bins. Note that this is an l2 error
#' (the ECE is l1). Their library uses the bins of `binning = "kumar2019"`
#' with `n_bins = 15`; the result is `.metric = "debiased_l2_ce"` in the
#' data-frame form.
#'
#' @inheritParams calibration_bins
#' @param data A data frame (grouped data frames give one row per group),
#'   a `dbplyr` lazy database table (equal-width, equal-mass and custom bins
#'   are computed in the engine; adaptive bins pull the per-confidence table;
#'   `"ding2020"` is not available), or a [score_table()] built from the
#'   confidence and the failure (`1 - correct`).
#' @param confidence,correct For `ece()` and `mce()`, unquoted column names
#'   of `data` (or expressions of its columns).
#' @param na_rm If `FALSE` (the default) a missing confidence or
#'   correctness makes the result `NA`; if `TRUE` those samples are dropped.
#' @param debias If `TRUE`, the debiased l2 calibration error of Kumar et
#'   al. (2019) instead of the ECE (see Details); only for `ece()` and
#'   `ece_vec()`.
#' @param case_weights Optional non-negative frequency weights (for `ece()`
#'   and `mce()` an unquoted column name); see [calibration_bins()].
#'
#' @return `ece_vec()`, `mce_vec()`: a single number (`NA` when a value is
#'   missing and `na_rm = FALSE`, or with a warning of class
#'   `aurc_warning_no_data` when no sample is left). `ece()`, `mce()`: a
#'   tibble with `.metric` (`"ece"`, `"mce"`), `.estimator` (the binning:
#'   `"adaptive"`, `"equal_width"`, `"equal_mass"`, `"ding2020"` or
#'   `"custom"`) and `.estimate`, after the grouping columns.
#' @references
#' Ding, Liu, Xiong, Shi (2020). Revisiting the Evaluation of Uncertainty
#' Estimation and Its Application to Explore Model Complexity-Uncertainty
#' Trade-Off. CVPR Workshops 2020.
#'
#' Kumar, Liang, Ma (2019). Verified Uncertainty Calibration. NeurIPS 2019.
#' @seealso [calibration_bins()] for the bins and the reliability diagram.
#' @examples
#' set.seed(1)
#' confidence <- runif(500, 0.5, 1)
#' correct <- rbinom(500, 1, confidence^2)
#' ece_vec(confidence, correct) # AECE
#' mce_vec(confidence, correct) # AMCE
#' ece_vec(confidence, correct, binning = "equal_width", n_bins = 15)
#' ece_vec(confidence, correct,
#'   binning = "kumar2019", n_bins = 15,
#'   debias = TRUE
#' )
#'
#' df <- data.frame(confidence, correct, model = rep(c("a", "b"), 250))
#' ece(df, confidence, correct)
#' mce(df, confidence, correct, binning = "equal_mass")
#' @export
ece <- function(data, confidence, correct, ..., binning = "adaptive",
                n_bins = 10, conf_level = 0.9, min_remaining = 40,
                min_range = 0.05, breaks = NULL, debias = FALSE,
                loss = NULL, na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  calibration_metric_df(
    data, rlang::enquo(confidence), rlang::enquo(correct),
    rlang::enquo(case_weights), settings, na_rm,
    ece_metric_name(debias, call), call
  )
}

#' @rdname ece
#' @export
ece_vec <- function(confidence, correct, ..., binning = "adaptive",
                    n_bins = 10, conf_level = 0.9, min_remaining = 40,
                    min_range = 0.05, breaks = NULL, debias = FALSE,
                    loss = NULL, na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  calibration_metric(confidence, correct, case_weights, settings, na_rm,
    ece_metric_name(debias, call), call
  )
}

#' @rdname ece
#' @export
mce <- function(data, confidence, correct, ..., binning = "adaptive",
                n_bins = 10, conf_level = 0.9, min_remaining = 40,
                min_range = 0.05, breaks = NULL, loss = NULL, na_rm = FALSE,
                case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  calibration_metric_df(
    data, rlang::enquo(confidence), rlang::enquo(correct),
    rlang::enquo(case_weights), settings, na_rm, "mce", call
  )
}

#' @rdname ece
#' @export
mce_vec <- function(confidence, correct, ..., binning = "adaptive",
                    n_bins = 10, conf_level = 0.9, min_remaining = 40,
                    min_range = 0.05, breaks = NULL, loss = NULL, na_rm = FALSE,
                    case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  settings <- calibration_settings(
    binning, missing(binning), n_bins, conf_level, min_remaining, min_range,
    breaks, call
  )
  calibration_metric(confidence, correct, case_weights, settings, na_rm,
    "mce", call
  )
}

calibration_metric <- function(confidence, correct, case_weights, settings,
                               na_rm, metric, call) {
  input <- calibration_input(confidence, correct, case_weights, na_rm,
    settings,
    call = call, count = calibration_counts_cases(settings, metric)
  )
  if (identical(input, "missing")) return(NA_real_)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NA_real_)
  }
  if (isTRUE(input$too_few)) {
    warn_calibration_scale(settings, metric, call = call)
    return(NA_real_)
  }
  if (metric == "debiased_l2_ce") {
    return(debiased_l2_ce(calibration_table(input, settings, call)))
  }
  calibration_error(input, settings, metric, call)
}

# All groups binned in one C++ call (R/calibration-df.R).
calibration_metric_df <- function(data, confidence, correct, case_weights,
                                  settings, na_rm, metric, call) {
  if (is_remote_data(data)) {
    columns <- list(
      confidence = confidence, correct = correct, case_weights = case_weights
    )
    return(calibration_metric_remote(data, columns, settings, na_rm, metric,
      call
    ))
  }
  calibration_metric_groups(data, confidence, correct, case_weights,
    settings, na_rm, metric, call
  )
}

#' Top-label confidence and correctness from a probability matrix
#'
#' For top-label calibration the confidence of a sample is its largest
#' class probability and the prediction is correct when that class is the
#' label: `confidence = max_k p_k`, `correct = 1[argmax_k p_k = label]`,
#' with ties in the maximum resolved to the first (lowest-numbered) class.
#' The result feeds [calibration_bins()], [ece()] and [mce()].
#'
#' @param probs A numeric matrix of class probabilities, one row per sample
#'   and one column per class (or a data frame of numeric columns); each
#'   row non-negative and summing to 1
#'   (within 1e-6). Rows with a missing value give `NA`.
#' @param labels The true classes: whole numbers in `1..ncol(probs)`
#'   (`0..ncol(probs) - 1` with `labels_from = 0`), or a factor whose
#'   levels are the columns (matched to the column names when `probs` has
#'   them, otherwise by position).
#' @param labels_from The number of the first class: `1` (the default) or
#'   `0` (labels `0..K-1` from Python or PyTorch). Never guessed.
#'
#' @return A tibble with columns `confidence` (double) and `correct`
#'   (integer 0/1), one row per sample.
#' @examples
#' probs <- rbind(c(0.7, 0.2, 0.1), c(0.3, 0.3, 0.4), c(0.5, 0.5, 0))
#' top_label(probs, c(1, 3, 2))
#' tl <- top_label(probs, c(1, 3, 2))
#' ece(tl, confidence, correct, binning = "equal_width")
#' @export
top_label <- function(probs, labels, labels_from = 1) {
  probs <- as_output_matrix(probs)
  labels_from <- check_labels_from(labels_from)
  check_prob_matrix(probs)
  idx <- check_class_labels(labels, nrow(probs), ncol(probs),
    col_names = colnames(probs), labels_from = labels_from
  )
  n <- nrow(probs)
  confidence <- rep(NA_real_, n)
  correct <- rep(NA_integer_, n)
  ok <- stats::complete.cases(probs)
  if (any(ok)) {
    p <- probs[ok, , drop = FALSE]
    top <- max.col(p, ties.method = "first")
    # a row may sum to 1 + 1e-6: keep the confidence in [0, 1]
    confidence[ok] <- pmin(p[cbind(seq_len(nrow(p)), top)], 1)
    correct[ok] <- as.integer(top == idx[ok])
  }
  tibble::tibble(confidence = confidence, correct = correct)
}
