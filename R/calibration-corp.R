#' CORP reliability diagram and score decomposition
#'
#' The CORP approach of Dimitriadis, Gneiting and Jordan (2021): the
#' calibration curve is the isotonic (non-decreasing) regression of the
#' outcome on the confidence, fitted by pool-adjacent-violators (PAV), with
#' tied confidences pooled (they always get one fitted value). It needs no
#' bins, bandwidth or other tuning. The fitted values `c_i` ("CEP", the
#' conditional event probabilities) recalibrate the confidences and give the
#' decomposition of the mean score
#' `mean S(f, y) = MCB - DSC + UNC`: with `Sc = mean S(c, y)` the score of
#' the recalibrated confidences and `UNC = mean S(ybar, y)` that of the
#' climatological forecast (the overall accuracy), miscalibration
#' `MCB = mean S(f, y) - Sc` and discrimination `DSC = UNC - Sc`. MCB is
#' 0 exactly when the confidences equal their PAV fit.
#'
#' @section Scores:
#' `"brier"`: `S(p, y) = (p - y)^2`; `"log"`: `S(p, y) = -log(p)` if
#' `y = 1` and `-log(1 - p)` if `y = 0` (infinite when a confidence of 0 or 1
#' is wrong, and then so are the mean score and MCB).
#'
#' @section Consistency band:
#' As `reliabilitydiag` (its method `"resampling"`): under the hypothesis of
#' calibration, `times` data sets are drawn by resampling the confidences
#' with replacement and drawing each outcome as Bernoulli of its confidence
#' (`band_position = "diagonal"`) or of its fitted value (`"estimate"`); each
#' is fitted by PAV, the fit is interpolated linearly at the observed
#' confidences (missing outside the resampled range), and the band is the
#' pointwise `(1 - band_level) / 2` and `(1 + band_level) / 2` quantiles
#' (`quantile()` type 7, missing values dropped). For `"estimate"` a bound
#' is dropped at interior points fitted at exactly 0 or 1 and interpolated
#' from its neighbours, as in `reliabilitydiag`. The random draws are those
#' of `reliabilitydiag` (`sample()` then `rbinom()` per resample, on the
#' data sorted by confidence), so after the same `set.seed()` the bands are
#' identical; a resample is a vector of counts over the tie groups, refitted
#' without a sort. The band needs unweighted data. `reliabilitydiag`
#' switches to asymptotic bands for large samples by default; here the
#' method is chosen with `band_method`, never switched silently (set
#' `times = 0` to skip the resampling band on large data).
#'
#' `band_method = "asymptotic"` gives `reliabilitydiag`'s discrete
#' asymptotic band (its `region.method = "discrete_asymptotics"`), meant for
#' confidences with few distinct values each seen many times: at a distinct
#' confidence `x` seen `n_x` times (the summed case weights), with `x0 = x`
#' (`"diagonal"`) or the fitted value (`"estimate"`), the band is
#' `max(0, x0 - z s)` to `min(1, x0 + z s)`, `s = sqrt(x0 (1 - x0) / n_x)`,
#' `z = qnorm((1 + band_level) / 2)` (the binomial proportion's normal
#' approximation; a point whose `x0` is 0 or 1 gets a band of width 0).
#' For `"estimate"` the bounds at interior points fitted at exactly 0 or 1
#' are interpolated from their neighbours, as for resampling. It needs no
#' draws (`times` is not used) and allows case weights. It equals
#' `reliabilitydiag` to rounding (tested to 1e-10 on data with ties). With
#' many distinct confidences seen once each it is far too narrow: use
#' resampling there.
#'
#' @section Ties and weights:
#' Tied confidences form one group (one fitted value). Case weights are
#' frequency weights: integer weights give exactly the fit and decomposition
#' of repeated rows. The work is one sort of the confidences and linear
#' passes (tie groups, PAV with a stack, the decomposition).
#'
#' @param data A data frame with the columns (one data set: a grouped data
#'   frame is an error); `confidence`, `correct` and `case_weights` are
#'   then unquoted columns of it. The vector-first call of earlier
#'   versions, `corp_reliability(confidence, correct)`, still works and says
#'   once per
#'   session that the order has changed.
#' @inheritParams calibration_bins
#' @param score `"brier"` (the default) or `"log"` (see Scores).
#' @param times Number of resamples for the consistency band (0: no band).
#' @param band_level Level of the consistency band.
#' @param band_position `"diagonal"` or `"estimate"` (see Consistency
#'   band).
#' @param band_method `"resampling"` (the default) or `"asymptotic"` (see
#'   Consistency band).
#' @return An object of class `aurc_corp`, a list with
#'   * `points`: a tibble, one row per distinct confidence: `confidence`,
#'     `n` (weight), `cep` (the PAV fit), `block` (the PAV block),
#'     `band_lower`, `band_upper`;
#'   * `bins`: a tibble, one row per PAV block: `bin`, `n`,
#'     `min_confidence`, `max_confidence`, `cep`;
#'   * `decomposition`: a one-row tibble `score`, `mean_score`, `mcb`,
#'     `dsc`, `unc`;
#'   * settings `n`, `times`, `band_level`, `band_position`.
#'   `print()` shows the decomposition and `autoplot()` the diagram.
#' @references
#' Dimitriadis, Gneiting, Jordan (2021). Stable reliability diagrams for
#' probabilistic classifiers. PNAS 118(8), e2016191118.
#' @seealso [corp_mcb_vec()], [corp_decomposition()], [smooth_ece_vec()].
#' @examples
#' set.seed(1)
#' confidence <- round(runif(500, 0.5, 1), 2)
#' correct <- rbinom(500, 1, confidence^2)
#' fit <- corp_reliability(data.frame(confidence, correct), confidence,
#'   correct, times = 50)
#' fit
#' autoplot(fit)
#' @export
corp_reliability <- function(data, confidence, correct, ...,
                             score = c("brier", "log"), times = 100,
                             band_level = 0.9,
                             band_position = c("diagonal", "estimate"),
                             band_method = c("resampling", "asymptotic"),
                             loss = NULL,
                             na_rm = FALSE, case_weights = NULL) {
  data_first_call(corp_reliability_vectors,
    c("confidence", "correct", "case_weights", "loss")
  )
}

# The vector form of corp_reliability() (its formals before data came
# first; R/data-first.R).
corp_reliability_vectors <- function(confidence, correct, ...,
                                     score = c("brier", "log"), times = 100,
                                     band_level = 0.9,
                                     band_position = c("diagonal",
                                                       "estimate"),
                                     band_method = c("resampling",
                                                     "asymptotic"),
                                     loss = NULL,
                                     na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  score <- check_choice(first_choice(score), c("brier", "log"), arg = "score",
    call = call
  )
  band_position <- check_choice(first_choice(band_position),
    c("diagonal", "estimate"),
    arg = "band_position", call = call
  )
  band_method <- check_choice(first_choice(band_method),
    c("resampling", "asymptotic"),
    arg = "band_method", call = call
  )
  check_number(times, lower = 0, upper = 1e5, whole = TRUE, call = call)
  if (band_method == "asymptotic" && !missing(times)) {
    warn_aurc(
      c(
        "{.arg times} is ignored for {.code band_method = \"asymptotic\"}.",
        i = "The asymptotic band needs no resamples."
      ),
      class = "aurc_warning_ignored"
    )
  }
  if (band_method == "asymptotic") times <- 0
  check_number(band_level, lower = 0, upper = 1, open = TRUE, call = call)
  input <- smooth_input(confidence, correct, case_weights, na_rm, call)
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
    abort_aurc("No samples left to fit.",
      class = "aurc_error_no_data", call = call
    )
  }
  if (times > 0 && length(input$case_weights)) {
    abort_aurc(
      c(
        "The consistency band needs unweighted data.",
        i = "Use {.code times = 0} with {.arg case_weights}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  fit <- corp_impl(input$confidence, input$correct, input$case_weights,
    score, TRUE, sort_threads()
  )
  # counts of the weights as given (scaled by a power of 2 for range,
  # R/weights-scale.R): the `n` columns and the asymptotic band count cases
  back <- -input$weight_exponent
  fit$weight <- times_pow2(fit$weight, back)
  fit$block_weight <- times_pow2(fit$block_weight, back)
  cep <- fit$block_mean[fit$block]
  points <- tibble::tibble(
    confidence = fit$x, n = fit$weight, cep = cep,
    block = as.integer(fit$block), band_lower = NA_real_,
    band_upper = NA_real_
  )
  band <- NULL
  if (band_method == "asymptotic") {
    band <- corp_band_asymptotic(fit, cep, band_level, band_position)
  } else if (times > 0) {
    band <- corp_band(fit, cep, times, band_level, band_position, call)
  }
  if (!is.null(band)) {
    points$band_lower <- band[, 1]
    points$band_upper <- band[, 2]
  }
  bins <- tibble::tibble(
    bin = seq_along(fit$block_mean), n = fit$block_weight,
    min_confidence = fit$x[fit$block_first],
    max_confidence = fit$x[fit$block_last], cep = fit$block_mean
  )
  dec <- fit$decomposition
  structure(
    list(
      points = points, bins = bins,
      decomposition = tibble::tibble(
        score = score, mean_score = dec[["mean_score"]],
        mcb = dec[["mcb"]], dsc = dec[["dsc"]], unc = dec[["unc"]]
      ),
      n = sum(fit$weight), times = times, band_level = band_level,
      band_position = band_position, band_method = band_method
    ),
    class = "aurc_corp"
  )
}

# Consistency band by resampling, with the draws of reliabilitydiag: per
# resample, sample(n, replace = TRUE) positions of the data sorted by
# confidence, then rbinom(n, 1, x0[s]). The positions and outcomes are
# reduced to counts per tie group; the refit is linear.
corp_band <- function(fit, cep, times, level, position,
                      call = rlang::caller_env()) {
  counts <- as.integer(fit$count)
  n <- sum(counts)
  m <- length(fit$x)
  # the replicate table (distinct confidences x times), checked before it
  # is allocated: 1e5 x 1e5 would be 75 GB
  check_cells(as.double(m) * times, "times",
    "the table of the consistency band (distinct confidences x times)",
    call = call
  )
  group <- rep.int(seq_len(m), counts)
  x0 <- if (position == "diagonal") fit$x[group] else cep[group]
  reps <- matrix(NA_real_, m, times)
  for (b in seq_len(times)) {
    s <- sample(n, replace = TRUE)
    y <- stats::rbinom(n, 1L, x0[s])
    g <- group[s]
    reps[, b] <- corp_refit_impl(
      fit$x, tabulate(g, m), tabulate(g[y == 1L], m)
    )
  }
  probs <- 0.5 + c(-0.5, 0.5) * level
  bounds <- t(apply(reps, 1L, stats::quantile,
    probs = probs, na.rm = TRUE,
    names = FALSE
  ))
  corp_band_correction(bounds, fit$x, cep, position)
}

# For the band around the estimate: bounds at interior points fitted at
# exactly 0 or 1 are dropped and interpolated from their neighbours.
corp_band_correction <- function(bounds, x, cep, position) {
  if (position == "estimate" && length(x) > 1) {
    for (j in 1:2) {
      b <- bounds[, j]
      drop <- cep %in% c(0, 1) & !(x %in% range(x))
      b[drop] <- NA_real_
      bounds[, j] <- stats::approx(x, b, xout = x)$y
    }
  }
  bounds
}

# The discrete asymptotic band: at each distinct confidence, x0 -/+ z
# sqrt(x0 (1 - x0) / n_x), clipped to [0, 1].
corp_band_asymptotic <- function(fit, cep, level, position) {
  x0 <- if (position == "diagonal") fit$x else cep
  half <- stats::qnorm(0.5 + 0.5 * level) * sqrt(x0 * (1 - x0) / fit$weight)
  bounds <- cbind(pmax(0, x0 - half), pmin(1, x0 + half))
  corp_band_correction(bounds, fit$x, cep, position)
}

#' @export
print.aurc_corp <- function(x, ...) {
  d <- x$decomposition
  cat(sprintf(
    "# CORP reliability (PAV): %d distinct confidences, %d blocks, n = %s\n",
    nrow(x$points), nrow(x$bins), format(x$n)
  ))
  cat(sprintf(
    "# %s score %s = MCB %s - DSC %s + UNC %s\n", d$score,
    format(d$mean_score, digits = 4), format(d$mcb, digits = 4),
    format(d$dsc, digits = 4), format(d$unc, digits = 4)
  ))
  if (identical(x$band_method, "asymptotic")) {
    cat(sprintf(
      "# %s%% consistency band around the %s, discrete asymptotic\n",
      format(100 * x$band_level), x$band_position
    ))
  } else if (x$times > 0) {
    cat(sprintf(
      "# %s%% consistency band around the %s, %d resamples\n",
      format(100 * x$band_level), x$band_position, as.integer(x$times)
    ))
  }
  print(x$bins, ...)
  invisible(x)
}

#' CORP miscalibration and score decomposition as metrics
#'
#' `corp_mcb_vec()` is the miscalibration component MCB of the CORP score
#' decomposition ([corp_reliability()]): the mean score minus the mean score
#' of the PAV-recalibrated confidences, a calibration error without bins or
#' bandwidth. `corp_mcb()` is its data-frame form; `corp_decomposition()`
#' returns all components (`mean_score`, `mcb`, `dsc`, `unc`), one row per
#' group.
#'
#' @inheritParams corp_reliability
#' @inheritParams smooth_ece_vec
#' @param data A data frame (grouped data frames give one row per group).
#' @param confidence,correct Vectors for `corp_mcb_vec()`; unquoted column
#'   names of `data` (or expressions of its columns) otherwise.
#' @param case_weights Optional non-negative frequency weights (an unquoted
#'   column for the data-frame forms).
#' @return `corp_mcb_vec()`: a number (`NA` when a value is missing and
#'   `na_rm = FALSE`; `NA` with a warning of class `aurc_warning_no_data`
#'   when nothing is left). `corp_mcb()`: a tibble with `.metric`
#'   (`"corp_mcb"`), `.estimator` (the score) and `.estimate`.
#'   `corp_decomposition()`: a tibble with the grouping columns, `score`,
#'   `mean_score`, `mcb`, `dsc`, `unc`.
#' @references
#' Dimitriadis, Gneiting, Jordan (2021). Stable reliability diagrams for
#' probabilistic classifiers. PNAS 118(8), e2016191118.
#' @examples
#' set.seed(1)
#' confidence <- round(runif(500, 0.5, 1), 2)
#' correct <- rbinom(500, 1, confidence^2)
#' corp_mcb_vec(confidence, correct)
#' corp_mcb_vec(confidence, correct, score = "log")
#' df <- data.frame(confidence, correct, model = rep(c("a", "b"), 250))
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   corp_decomposition(dplyr::group_by(df, model), confidence, correct)
#' }
#' @export
corp_mcb_vec <- function(confidence, correct, ...,
                         score = c("brier", "log"), loss = NULL, na_rm = FALSE,
                         case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  score <- check_choice(first_choice(score), c("brier", "log"), arg = "score",
    call = call
  )
  dec <- corp_decompose_input(confidence, correct, case_weights, na_rm,
    score, call
  )
  if (is.null(dec)) return(NA_real_)
  dec[["mcb"]]
}

#' @rdname corp_mcb_vec
#' @export
corp_mcb <- function(data, confidence, correct, ...,
                     score = c("brier", "log"), loss = NULL, na_rm = FALSE,
                     case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  score <- check_choice(first_choice(score), c("brier", "log"), arg = "score",
    call = call
  )
  metric_df(
    data,
    columns = list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    fn = function(confidence, correct, case_weights) {
      dec <- corp_decompose_input(confidence, correct, case_weights, na_rm,
        score, call
      )
      if (is.null(dec)) NA_real_ else dec[["mcb"]]
    },
    metric = "corp_mcb", estimator = score, call = call
  )
}

#' @rdname corp_mcb_vec
#' @export
corp_decomposition <- function(data, confidence, correct, ...,
                               score = c("brier", "log"),
                               loss = NULL, na_rm = FALSE,
                               case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  score <- check_choice(first_choice(score), c("brier", "log"), arg = "score",
    call = call
  )
  check_data_frame(data, call = call)
  quos <- list(
    confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
    case_weights = rlang::enquo(case_weights)
  )
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    quos, names(quos)
  )
  groups <- data_groups(data)
  rows <- lapply(groups$rows, function(r) {
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[r])
    dec <- corp_decompose_input(v$confidence, v$correct, v$case_weights,
      na_rm, score, call
    )
    if (is.null(dec)) dec <- c(mean_score = NA, mcb = NA, dsc = NA, unc = NA)
    dec
  })
  est <- do.call(rbind, rows)
  out <- tibble::tibble(
    score = score, mean_score = unname(est[, "mean_score"]),
    mcb = unname(est[, "mcb"]), dsc = unname(est[, "dsc"]),
    unc = unname(est[, "unc"])
  )
  if (!is.null(groups$keys)) out <- tibble::as_tibble(c(groups$keys, out))
  out
}

# Decomposition of validated input, or NULL (NA result; with a warning when
# nothing is left).
corp_decompose_input <- function(confidence, correct, case_weights, na_rm,
                                 score, call) {
  input <- smooth_input(confidence, correct, case_weights, na_rm, call)
  if (identical(input, "missing")) return(NULL)
  if (is.null(input)) {
    warn_no_data(call = call)
    return(NULL)
  }
  corp_impl(input$confidence, input$correct, input$case_weights,
    score, FALSE, sort_threads()
  )$decomposition
}

# For the bootstrap: tie groups of validated input, computed once
# (`corp_prepare()`), and the decomposition of a replicate given as counts
# over the rows (`corp_counts()`): linear, no new sort.
corp_prepare <- function(input) {
  fit <- corp_impl(input$confidence, input$correct, input$case_weights,
    "brier", TRUE, sort_threads()
  )
  list(
    x = fit$x, group = match(input$confidence, fit$x),
    correct = input$correct,
    weight = if (length(input$case_weights)) {
      input$case_weights
    } else {
      rep(1, length(input$confidence))
    }
  )
}

corp_counts <- function(prepared, counts, score = "brier") {
  w <- prepared$weight
  if (!is.null(counts)) w <- w * counts
  out <- corp_groups_impl(prepared$x, prepared$group, prepared$correct, w,
    score
  )
  names(out) <- c("mean_score", "mcb", "dsc", "unc")
  out
}
