# Tests of calibration (issue 27): Spiegelhalter's z test and the
# Kolmogorov-Smirnov and Kuiper tests on the cumulative differences of
# Arrieta-Ibarra et al. (2022), for a confidence in [0, 1] and a 0/1
# correctness. One sort of the confidences, then linear passes.

#' Tests of calibration: Spiegelhalter, Kolmogorov-Smirnov, Kuiper
#'
#' Tests the null hypothesis that the confidences are calibrated, `P(correct
#' = 1 | confidence = p) = p`, with no bins and no bandwidth. Each test gives
#' a statistic whose distribution under the null is known asymptotically
#' (as the number of samples grows), and its p-value.
#'
#' @section Definitions:
#' With confidences `p_i`, outcomes `y_i` (`correct`, 1 = the prediction was
#' right) and case weights `w_i` (1 without weights), `W = sum_i w_i`:
#' * `"spiegelhalter"` (Spiegelhalter 1986): `Z = sum_i w_i (y_i - p_i) (1 -
#'   2 p_i) / sqrt(sum_i w_i (1 - 2 p_i)^2 p_i (1 - p_i))`, the standardised
#'   difference of the Brier score from its expectation under calibration.
#'   Two-sided p-value `2 (1 - Phi(|Z|))`. No sort is needed.
#' * `"ks"` and `"kuiper"` (Arrieta-Ibarra, Gujral, Tannen, Tygert, Xu 2022,
#'   Sec. 3): sort the samples by confidence and let `C_k = (1/W) sum_{j <=
#'   k} w_j (y_j - p_j)` be the cumulative differences, `C_0 = 0`. The
#'   Kolmogorov-Smirnov distance is `max_k |C_k|`, the Kuiper distance
#'   `max_k C_k - min_k C_k` (over `k = 0, ..., n`); both are divided by
#'   `sigma = sqrt(sum_i w_i p_i (1 - p_i)) / W`, the standard deviation of
#'   `C_n` under calibration. As `n` grows, `C / sigma` becomes a standard
#'   Brownian motion `B` on `[0, 1]` (in the time of the accumulated
#'   variance), so the statistics tend to `sup |B|` and to the range `sup B -
#'   inf B`, whose distributions give the p-values:
#'   `P(sup |B| >= x) = 4 sum_{k >= 0} (-1)^k (1 - Phi((2k + 1) x))` and
#'   `P(sup B - inf B >= x) = 8 sum_{k >= 1} (-1)^(k - 1) k (1 - Phi(k x))`
#'   (Feller 1951; used for `x >= 1`, where they converge fast and keep
#'   small p-values accurate), and for `x < 1` one minus the series for the
#'   distribution functions of Arrieta-Ibarra et al. and Tygert (2023),
#'   `P(sup |B| < x) = (2 / pi) sum_{k >= 0} (-1)^k / (k + 1/2) exp(-(k +
#'   1/2)^2 pi^2 / (2 x^2))` and `P(sup B - inf B < x) = sum_{k >= 0} (8 /
#'   x^2 + 2 / ((k + 1/2)^2 pi^2)) exp(-2 (k + 1/2)^2 pi^2 / x^2)`.
#'
#' @section Ties and weights:
#' Samples with the same confidence form one group: the cumulative sum
#' steps over the whole group at once, so `C_k` is taken only at the last
#' sample of each group of tied confidences and the result does not depend
#' on the order of the rows (Arrieta-Ibarra et al. assume distinct
#' confidences). With many ties the maximum runs over fewer points than the
#' Brownian limit assumes and the tests are conservative (rejecting less
#' than the nominal level under calibration).
#' Case weights are frequencies: sample `i` counts `w_i` times in every sum
#' above, and `n` is `W`, so integer weights give exactly the result of the
#' rows repeated.
#'
#' Undefined cases return `NA` with a warning of class
#' `aurc_warning_undefined`: every confidence in `{0, 1}` (`sigma = 0`), or
#' for Spiegelhalter's test every confidence in `{0, 1/2, 1}`.
#' The p-values are asymptotic. Simulated rejection rates at 5% under
#' calibration (4000 data sets, confidences Beta(4, 1.5)): 4.8%, 4.7% and
#' 4.1% (Spiegelhalter, KS, Kuiper) at `n = 200`, 5.0%, 4.7% and 4.3% at
#' `n = 2000`; with confidences rounded to one decimal (ties), 4.9%, 3.0%
#' and 2.1%. The Kuiper test is slightly conservative.
#'
#' @param data A data frame (grouped data frames give one set of rows per
#'   group).
#' @param confidence,correct The confidence in `[0, 1]` and the 0/1 (or
#'   logical) correctness: vectors for `calibration_test_vec()`, unquoted
#'   column names of `data` (or expressions of its columns) otherwise.
#' @param loss Instead of `correct`, by name: the 0/1 failure indicator
#'   (1 = the prediction was wrong), read as `correct = 1 - loss`, as every
#'   function of the package reads the two names; give one of the two.
#' @param ... Not used; must be empty.
#' @param method One or more of `"spiegelhalter"`, `"ks"`, `"kuiper"` (all
#'   three by default).
#' @param na_rm If `FALSE` (the default) a missing confidence or
#'   correctness makes the statistics `NA`; if `TRUE` those samples are
#'   dropped.
#' @param case_weights Optional non-negative frequency weights (an unquoted
#'   column for the data-frame form).
#' @return A tibble with one row per method (and per group, grouping columns
#'   first): `method`, `statistic` (Z for Spiegelhalter's test, the
#'   normalised distance for the others), `p_value`, `n` (the number of
#'   samples, or the sum of the weights). `NA` statistics when a value is
#'   missing and `na_rm = FALSE`, or with a warning of class
#'   `aurc_warning_no_data` when nothing is left.
#' @references
#' Spiegelhalter, D. J. (1986). Probabilistic prediction in patient
#' management and clinical trials. Statistics in Medicine 5(5), 421-433.
#'
#' Arrieta-Ibarra, I., Gujral, P., Tannen, J., Tygert, M., Xu, C. (2022).
#' Metrics of calibration for probabilistic predictions. Journal of Machine
#' Learning Research 23(351), 1-54.
#'
#' Tygert, M. (2023). Calibration of P-values for calibration and for
#' deviation of a subpopulation from the full population. Advances in
#' Computational Mathematics 49, 70.
#'
#' Feller, W. (1951). The asymptotic distribution of the range of sums of
#' independent random variables. Annals of Mathematical Statistics 22(3),
#' 427-432.
#' @seealso [calibration_slope()], [ici()] for summaries of the size of the
#'   miscalibration; [ece()], [smooth_ece()] for calibration errors.
#' @examples
#' set.seed(1)
#' confidence <- runif(1000, 0.5, 1)
#' calibration_test_vec(confidence, rbinom(1000, 1, confidence))
#' # overconfident: right less often than the confidence says
#' calibration_test_vec(confidence, rbinom(1000, 1, confidence^2))
#'
#' df <- data.frame(confidence, model = rep(c("a", "b"), 500))
#' df$correct <- rbinom(1000, 1, ifelse(df$model == "a", confidence, 0.75))
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   calibration_test(dplyr::group_by(df, model), confidence, correct,
#'     method = "kuiper"
#'   )
#' }
#' @export
calibration_test <- function(data, confidence, correct, ...,
                             method = c("spiegelhalter", "ks", "kuiper"),
                             loss = NULL, na_rm = FALSE, case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  method <- check_test_methods(method, call)
  calibration_df_rows(
    data,
    list(
      confidence = rlang::enquo(confidence), correct = rlang::enquo(correct),
      case_weights = rlang::enquo(case_weights)
    ),
    function(confidence, correct, case_weights) {
      calibration_test_compute(confidence, correct, case_weights, method,
        na_rm, call
      )
    },
    empty = tibble::tibble(
      method = character(), statistic = double(), p_value = double(),
      n = double()
    ),
    call = call
  )
}

#' @rdname calibration_test
#' @export
calibration_test_vec <- function(confidence, correct, ...,
                                 method = c("spiegelhalter", "ks", "kuiper"),

                                 loss = NULL, na_rm = FALSE,
                                 case_weights = NULL) {
  correct_from_loss()
  check_dots(...)
  call <- rlang::current_env()
  method <- check_test_methods(method, call)
  calibration_test_compute(confidence, correct, case_weights, method, na_rm,
    call
  )
}

calibration_test_methods <- c("spiegelhalter", "ks", "kuiper")

check_test_methods <- function(method, call) {
  if (!is.character(method) || length(method) == 0 || anyNA(method) ||
    !all(method %in% calibration_test_methods)) {
    abort_aurc(
      c(
        paste(
          "{.arg method} must be one or more of",
          "{.or {.val {calibration_test_methods}}}."
        ),
        x = "It is {.obj_type_friendly {method}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  unique(method)
}

# The tests on one set of samples: a tibble with a row per method.
calibration_test_compute <- function(confidence, correct, case_weights,
                                     method, na_rm, call) {
  input <- calibration_frequency_input(confidence, correct, case_weights,
    na_rm, call
  )
  stat <- rep(NA_real_, length(method))
  p <- rep(NA_real_, length(method))
  n <- NA_real_
  if (is.list(input)) {
    n <- as.double(input$total)
    res <- calibration_test_stats(input$confidence, input$correct,
      input$case_weights, method
    )
    stat <- res$statistic
    p <- res$p_value
    if (anyNA(stat)) warn_test_undefined(method[is.na(stat)], call)
  } else if (is.null(input)) {
    warn_no_data(call = call)
  }
  tibble::tibble(method = method, statistic = stat, p_value = p, n = n)
}

# The statistics and p-values of `method` on validated samples (weights w,
# possibly double() for none): Spiegelhalter in one pass, KS and Kuiper
# after one sort.
calibration_test_stats <- function(p, y, w, method) {
  weighted <- length(w) > 0
  # weights far from 1 are scaled by a power of 2 (exact) so the sums
  # neither overflow nor underflow; every statistic is proportional to
  # sqrt(scale of the weights), which is put back at the end
  unscale <- 1
  if (weighted) {
    scaled <- rescale_weights(w)
    if (scaled[1] != w[1]) unscale <- sqrt(w[1] / scaled[1])
    w <- scaled
  }
  stat <- stats::setNames(rep(NA_real_, length(method)), method)
  pval <- stat
  if ("spiegelhalter" %in% method) {
    a <- 1 - 2 * p
    num <- (y - p) * a
    v <- a * a * p * (1 - p)
    if (weighted) {
      num <- num * w
      v <- v * w
    }
    v <- sum(v)
    if (v > 0) {
      stat[["spiegelhalter"]] <- sum(num) / sqrt(v)
      pval[["spiegelhalter"]] <- 2 * stats::pnorm(-abs(stat[["spiegelhalter"]]))
    }
  }
  if (any(c("ks", "kuiper") %in% method)) {
    o <- order(p, method = "radix")
    ps <- p[o]
    d <- y[o] - ps
    v <- ps * (1 - ps)
    if (weighted) {
      ws <- w[o]
      d <- d * ws
      v <- v * ws
      total <- sum(ws)
    } else {
      total <- length(ps)
    }
    sigma <- sqrt(sum(v)) / total
    # C at the last sample of each group of tied confidences, and C_0 = 0
    m <- length(ps)
    last <- c(ps[-1L] != ps[-m], TRUE)
    cs <- c(0, cumsum(d)[last] / total)
    if (sigma > 0) {
      if ("ks" %in% method) {
        stat[["ks"]] <- max(abs(cs)) / sigma
        pval[["ks"]] <- brownian_sup_abs_upper(stat[["ks"]])
      }
      if ("kuiper" %in% method) {
        stat[["kuiper"]] <- (max(cs) - min(cs)) / sigma
        pval[["kuiper"]] <- brownian_range_upper(stat[["kuiper"]])
      }
    }
  }
  if (unscale != 1) {
    stat <- stat * unscale
    for (m in method) {
      pval[[m]] <- switch(m,
        spiegelhalter = 2 * stats::pnorm(-abs(stat[[m]])),
        ks = brownian_sup_abs_upper(stat[[m]]),
        kuiper = brownian_range_upper(stat[[m]])
      )
    }
  }
  list(statistic = unname(stat), p_value = unname(pval))
}

# P(sup_{0 <= t <= 1} |B(t)| >= x) for standard Brownian motion B: for
# x >= 1 the reflection series 4 sum_k (-1)^k Phibar((2k + 1) x), else one
# minus the series of the distribution function (see the help page).
brownian_sup_abs_upper <- function(x) {
  vapply(x, function(xi) {
    if (is.na(xi)) return(NA_real_)
    if (xi <= 0) return(1)
    if (xi >= 1) {
      k <- 0:40
      return(max(0, 4 * sum((-1)^k * stats::pnorm((2 * k + 1) * xi,
        lower.tail = FALSE
      ))))
    }
    k <- 0:20
    kp <- k + 0.5
    cdf <- (2 / pi) * sum((-1)^k / kp * exp(-kp^2 * pi^2 / (2 * xi^2)))
    min(1, max(0, 1 - cdf))
  }, numeric(1))
}

# P(sup B - inf B >= x) on [0, 1] (the range of standard Brownian motion):
# for x >= 1 Feller's series 8 sum_{k >= 1} (-1)^(k - 1) k Phibar(k x),
# else one minus the series of the distribution function.
brownian_range_upper <- function(x) {
  vapply(x, function(xi) {
    if (is.na(xi)) return(NA_real_)
    if (xi <= 0) return(1)
    if (xi >= 1) {
      k <- 1:80
      return(max(0, 8 * sum((-1)^(k - 1) * k *
        stats::pnorm(k * xi, lower.tail = FALSE))))
    }
    k <- 0:20
    kp <- k + 0.5
    cdf <- sum((8 / xi^2 + 2 / (kp^2 * pi^2)) *
      exp(-2 * kp^2 * pi^2 / xi^2))
    min(1, max(0, 1 - cdf))
  }, numeric(1))
}

warn_test_undefined <- function(what, call) {
  warn_aurc(
    c(
      "{.val {what}} {?is/are} undefined here; returning {.val {NA}}.",
      i = paste(
        "Every confidence is 0 or 1 (or, for Spiegelhalter's test, 0, 1/2",
        "or 1): the variance under calibration is 0."
      )
    ),
    class = "aurc_warning_undefined", call = call
  )
}

# Validated samples with frequency weights kept as given (not rescaled:
# the statistics depend on the total weight). Returns a list with
# `confidence`, `correct`, `case_weights` (double() for none) and `total`
# (the number of samples or the sum of the weights); "missing" when a value
# is missing and `na_rm = FALSE`; NULL when nothing is left.
calibration_frequency_input <- function(confidence, correct, case_weights,
                                        na_rm, call, convention = TRUE) {
  input <- calibration_input(confidence, correct, case_weights, na_rm,
    list(binning = "none"), call,
    rescale = FALSE, convention = convention
  )
  if (!is.list(input)) return(input)
  w <- input$case_weights
  input$total <- if (length(w)) sum(w) else length(input$confidence)
  input
}

# The data-frame form of a function returning a tibble per group: the
# columns found in `data`, `fn` called per group, the grouping columns
# first; `empty` is the result for a grouped data frame of zero rows.
calibration_df_rows <- function(data, columns, fn, empty, call) {
  values <- memory_columns(data, columns, "This is", call)
  groups <- data_groups(data)
  parts <- lapply(groups$rows, function(rows) {
    do.call(fn, lapply(values, function(v) if (is.null(v)) NULL else v[rows]))
  })
  out <- if (length(parts) == 0) empty else do.call(rbind, parts)
  if (!is.null(groups$keys)) {
    sizes <- vapply(parts, nrow, integer(1))
    keys <- groups$keys[rep(seq_len(nrow(groups$keys)), sizes), ,
      drop = FALSE
    ]
    out <- tibble::as_tibble(c(keys, out))
  }
  out
}
