# Case weights and losses at every scale (issue 33; R/weights-scale.R).
# Scale-free quantities equal their value at k = 1 for weights k * w0, k
# from 1e-320 (subnormal) to 1e300; quantities that count cases are NA
# with a classed warning below one case, and beyond 2^53 cases the value
# at a total in [2^52, 2^53). The expected values are computed
# independently: on weights within range, which no rescaling touches (the
# k = 1 values are checked against the literal definitions elsewhere).

scale_data <- function(n = 200, seed = 33) {
  withr::with_seed(seed, {
    s <- round(stats::runif(n), 2)
    f <- stats::rbinom(n, 1, 1 - s)
    conf <- round(stats::runif(n, 0.5, 1), 2)
    list(
      s = s, f = f, l = f * stats::rexp(n), w0 = stats::runif(n, 0.5, 2),
      truth = sample(c("a", "b"), n, replace = TRUE), conf = conf,
      y = stats::rbinom(n, 1, conf^1.5), g = rep(1:2, length.out = n),
      s2 = round(pmin(1, pmax(0, s + stats::rnorm(n, 0, 0.2))), 2)
    )
  })
}

scale_ks <- c(1e-320, 1e-300, 1e-160, 1e154, 1e200, 1e300)

# The weights k * w0 as the function sees them, multiplied back into range
# by an exact power of 2 (2^1074 in two steps for the subnormal ones,
# whose rounding to a few bits is part of the weights given): the
# reference a rescaling must reproduce.
in_range <- function(w) {
  m <- max(w)
  if (m >= 2^-64 && m <= 2^64) return(w)
  e <- -floor(log2(m))
  w * 2^trunc(e / 2) * 2^(e - trunc(e / 2))
}

# Every scale-free form: a function of the weights returning numbers.
scale_free_forms <- function(d) {
  df <- data.frame(s = d$s, l = d$l, f = d$f, truth = d$truth, g = d$g,
    conf = d$conf, y = d$y
  )
  with_w <- function(w) {
    df$w <- w
    df
  }
  grouped <- function(w) dplyr::group_by(with_w(w), g)
  registry <- setdiff(aurc:::metric_names(), c("eaurc", "naurc", "prr"))
  list(
    aurc_vec = function(w) aurc_vec(d$s, d$l, case_weights = w),
    aurc_sele = function(w) {
      aurc_vec(d$s, d$l, estimator = "sele", case_weights = w)
    },
    aurc_trapezoid = function(w) {
      aurc_vec(d$s, d$l, estimator = "trapezoid", case_weights = w)
    },
    augrc_vec = function(w) augrc_vec(d$s, d$l, case_weights = w),
    eaurc_asymptotic = function(w) {
      eaurc_vec(d$s, d$f, optimum = "asymptotic", case_weights = w)
    },
    registry = function(w) {
      selective_metrics_vec(d$s, d$l,
        metrics = setdiff(registry, aurc:::binary_metrics),
        coverage = 0.5, risk = 0.3, coverage_range = c(0.2, 0.9),
        case_weights = w
      )$.estimate
    },
    registry_binary = function(w) {
      selective_metrics_vec(d$s, d$f,
        metrics = intersect(registry, c(aurc:::binary_metrics, "auarc")),
        case_weights = w
      )$.estimate
    },
    aurc_df = function(w) aurc(with_w(w), s, l, case_weights = w)$.estimate,
    aurc_grouped = function(w) {
      aurc(grouped(w), s, l, case_weights = w)$.estimate
    },
    selective_metrics_grouped = function(w) {
      selective_metrics(grouped(w), s, l,
        metrics = c("aurc", "augrc", "partial_aurc", "risk_at_coverage"),
        coverage = 0.5, coverage_range = c(0.2, 0.9), case_weights = w
      )$.estimate
    },
    augrc_identity = function(w) {
      unlist(augrc_identity(d$s, d$f, case_weights = w))
    },
    aurc_ba = function(w) aurc_ba_vec(d$s, d$f, d$truth, case_weights = w),
    augrc_ba = function(w) augrc_ba_vec(d$s, d$f, d$truth, case_weights = w),
    aurc_ba_grouped = function(w) {
      aurc_ba(grouped(w), s, f, truth, case_weights = w)$.estimate
    },
    rc_curve = function(w) {
      r <- rc_curve_vec(d$s, d$l, case_weights = w)
      c(r$coverage, r$selective_risk, attr(r, "random")$augrc)
    },
    ece_equal_width = function(w) {
      ece_vec(d$conf, d$y, binning = "equal_width", case_weights = w)
    },
    ece_equal_mass = function(w) {
      ece_vec(d$conf, d$y, binning = "equal_mass", case_weights = w)
    },
    mce_equal_width = function(w) {
      mce_vec(d$conf, d$y, binning = "equal_width", case_weights = w)
    },
    ece_grouped = function(w) {
      ece(grouped(w), conf, y, binning = "equal_width",
        case_weights = w
      )$.estimate
    },
    bins = function(w) {
      b <- calibration_bins_vec(d$conf, d$y, binning = "equal_mass",
        case_weights = w
      )
      c(b$n / sum(b$n), b$accuracy, b$gap)
    },
    classwise_ece = function(w) {
      probs <- cbind(d$conf, 1 - d$conf)
      classwise_ece_vec(probs, ifelse(d$y == 1, 1, 2), case_weights = w)
    },
    smooth_ece = function(w) smooth_ece_vec(d$conf, d$y, case_weights = w),
    corp_mcb = function(w) corp_mcb_vec(d$conf, d$y, case_weights = w),
    corp_log = function(w) {
      corp_mcb_vec(d$conf, d$y, score = "log", case_weights = w)
    },
    ici = function(w) ici_vec(d$conf, d$y, case_weights = w),
    emax = function(w) emax_vec(d$conf, d$y, case_weights = w),
    intercept = function(w) {
      calibration_intercept_vec(d$conf, d$y, case_weights = w)
    },
    slope = function(w) calibration_slope_vec(d$conf, d$y, case_weights = w),
    ci_aurc = function(w) {
      selective_ci_vec(d$s, d$l, metrics = c("aurc", "augrc"),
        case_weights = w
      )$.estimate
    }
  )
}

test_that("scale-free metrics equal their value at k = 1 at every scale", {
  d <- scale_data()
  forms <- scale_free_forms(d)
  for (nm in names(forms)) {
    base <- forms[[nm]](d$w0)
    expect_true(all(is.finite(base)), info = nm)
    for (k in scale_ks) {
      w <- k * d$w0
      # (fewer than two cases: no standard error, whatever the scale)
      got <- suppressWarnings(forms[[nm]](w),
        classes = "aurc_warning_no_interval"
      )
      ref <- if (k < 1e-307) forms[[nm]](in_range(w)) else base
      expect_equal(got, ref, tolerance = 1e-12, info = paste(nm, k))
    }
  }
})

test_that("weights whose positive values are all subnormal keep their ratios", {
  d <- scale_data()
  # dyadic weights: exact at 2^-1060 (subnormal) as at 1
  w <- sample(1:64, length(d$s), replace = TRUE) / 32
  k <- 2^-1060
  expect_true(all(k * w < .Machine$double.xmin))
  expect_identical(k * w / k, w)
  expect_equal(aurc_vec(d$s, d$l, case_weights = k * w),
    aurc_vec(d$s, d$l, case_weights = w),
    tolerance = 1e-14
  )
  expect_equal(augrc_vec(d$s, d$l, case_weights = k * w),
    augrc_vec(d$s, d$l, case_weights = w),
    tolerance = 1e-14
  )
  ew <- function(w) {
    ece_vec(d$conf, d$y, binning = "equal_width", case_weights = w)
  }
  expect_equal(ew(k * w), ew(w), tolerance = 1e-14)
  # the rescaling: exact powers of 2 in two steps (2^1074, which the
  # smallest subnormal needs, is Inf)
  expect_identical(aurc:::rescale_weights(k * w),
    w * 2^-floor(log2(max(w)))
  )
  expect_identical(aurc:::times_pow2(4.9406564584124654e-324, 1074), 1)
})

# Count-dependent quantities: a function of the weights each.
count_forms <- function(d) {
  list(
    eaurc = function(w) eaurc_vec(d$s, d$l, case_weights = w),
    naurc = function(w) naurc_vec(d$s, d$l, case_weights = w),
    prr = function(w) prr_vec(d$s, 1 - d$f, case_weights = w),
    eaurc_sele = function(w) {
      eaurc_vec(d$s, d$l, estimator = "sele", case_weights = w)
    },
    aurc_alpha_prime = function(w) {
      aurc_vec(d$s, d$l, estimator = "alpha_prime", case_weights = w)
    },
    selective_metrics = function(w) {
      v <- selective_metrics_vec(d$s, d$l,
        metrics = c("aurc", "augrc", "eaurc", "naurc"), case_weights = w
      )$.estimate
      v[3:4]
    },
    naurc_grouped = function(w) {
      df <- data.frame(s = d$s, l = d$l, g = d$g, w = w)
      naurc(dplyr::group_by(df, g), s, l, case_weights = w)$.estimate
    },
    ece_adaptive = function(w) ece_vec(d$conf, d$y, case_weights = w),
    mce_adaptive = function(w) mce_vec(d$conf, d$y, case_weights = w),
    ece_debiased = function(w) {
      ece_vec(d$conf, d$y, binning = "equal_width", debias = TRUE,
        case_weights = w
      )
    },
    smooth_ece_relplot = function(w) {
      smooth_ece_vec(d$conf, d$y, method = "relplot", case_weights = w)
    },
    e50 = function(w) e50_vec(d$conf, d$y, case_weights = w),
    e90 = function(w) e90_vec(d$conf, d$y, case_weights = w),
    ci_naurc = function(w) {
      selective_ci_vec(d$s, d$l, metrics = c("eaurc", "naurc"),
        case_weights = w
      )$.estimate
    },
    compare_naurc = function(w) {
      df <- data.frame(a = d$s, b = d$s2, l = d$l, w = w)
      compare_scores(df, c(a, b), l, metric = "naurc",
        case_weights = w
      )$estimates$estimate
    }
  )
}

test_that("counted quantities: NA below one case, the 2^52 value beyond", {
  d <- scale_data()
  forms <- count_forms(d)
  total <- sum(d$w0)
  # the same weights counting between 2^52 and 2^53 cases (within range:
  # computed as given)
  at_2_52 <- d$w0 * 2^(52 - floor(log2(total)))
  expect_true(sum(at_2_52) >= 2^52 && sum(at_2_52) < 2^53)
  for (nm in names(forms)) {
    ref <- forms[[nm]](at_2_52)
    expect_true(all(is.finite(ref)), info = nm)
    for (k in scale_ks) {
      w <- k * d$w0
      if (sum(w) < 1) {
        expect_warning(got <- forms[[nm]](w),
          class = "aurc_warning_weights_scale"
        )
        expect_true(all(is.na(got)), info = paste(nm, k))
      } else {
        got <- forms[[nm]](w)
        expect_true(all(is.finite(got)), info = paste(nm, k))
        expect_equal(got, ref, tolerance = 1e-12, info = paste(nm, k))
      }
    }
  }
})

test_that("the count value converges as 1 / total to the value beyond 2^53", {
  d <- scale_data()
  forms <- count_forms(d)[c(
    "eaurc", "naurc", "prr", "aurc_alpha_prime", "ece_debiased",
    "ece_adaptive"
  )]
  total <- sum(d$w0)
  at <- function(t) d$w0 * t / total
  for (nm in names(forms)) {
    lim <- forms[[nm]](d$w0 * 1e200)
    # within 1e-9 from a trillion cases on (1e-12 to 6e-11 measured)
    expect_equal(forms[[nm]](at(2^40)), lim, tolerance = 1e-9, info = nm)
    # at a million cases 1e-6 to 7e-5, not 1e-9: the rate is 1 / total
    d6 <- abs(forms[[nm]](at(1e6)) / lim - 1)
    d9 <- abs(forms[[nm]](at(1e9)) / lim - 1)
    expect_lt(d6, 1e-4)
    if (d6 > 1e-12) expect_equal(d6 / d9, 1000, tolerance = 0.1, info = nm)
  }
})

test_that("tables that count cases: a classed error below one case", {
  d <- scale_data()
  expect_error(
    calibration_bins_vec(d$conf, d$y, case_weights = 1e-300 * d$w0),
    class = "aurc_error_weights_scale"
  )
  expect_snapshot(
    error = TRUE,
    calibration_bins_vec(d$conf, d$y, case_weights = 1e-300 * d$w0)
  )
  expect_error(
    smooth_calibration(d$conf, d$y, method = "relplot", times = 0,
      case_weights = 1e-300 * d$w0
    ),
    class = "aurc_error_weights_scale"
  )
  # the counts of a bin table are those of the weights given, at any scale
  for (k in c(1e-300, 1e154, 1e300)) {
    b <- calibration_bins_vec(d$conf, d$y, binning = "equal_width",
      case_weights = k * d$w0
    )
    b1 <- calibration_bins_vec(d$conf, d$y, binning = "equal_width",
      case_weights = d$w0
    )
    expect_equal(b$n, k * b1$n, tolerance = 1e-12)
    expect_equal(attr(b, "n"), k * sum(d$w0), tolerance = 1e-12)
  }
})

test_that("the warnings say what counts cases and what to do", {
  d <- scale_data()
  expect_snapshot(naurc_vec(d$s, d$l, case_weights = 1e-300 * d$w0))
  expect_snapshot(ece_vec(d$conf, d$y, case_weights = 1e-300 * d$w0))
  # one warning per call, also for many groups and classes
  df <- data.frame(s = d$s, l = d$l, g = rep(1:10, 20), w = 1e-300 * d$w0)
  expect_warning(
    naurc(dplyr::group_by(df, g), s, l, case_weights = w),
    class = "aurc_warning_weights_scale"
  ) |> suppressWarnings()
  n_warn <- 0
  withCallingHandlers(
    naurc(dplyr::group_by(df, g), s, l, case_weights = w),
    aurc_warning_weights_scale = function(w) {
      n_warn <<- n_warn + 1
      invokeRestart("muffleWarning")
    }
  )
  expect_identical(n_warn, 1)
  n_warn <- 0
  withCallingHandlers(
    classwise_ece_vec(cbind(d$conf, 1 - d$conf), ifelse(d$y == 1, 1, 2),
      binning = "adaptive", case_weights = 1e-300 * d$w0
    ),
    aurc_warning_weights_scale = function(w) {
      n_warn <<- n_warn + 1
      invokeRestart("muffleWarning")
    }
  )
  expect_identical(n_warn, 1)
})

test_that("intervals at every scale; a bootstrap of no row is NA", {
  d <- scale_data(80)
  # less than one row: the estimate, and no interval
  expect_warning(
    boot <- withr::with_seed(1, selective_ci_vec(d$s, d$l,
      metrics = "aurc", method = "bootstrap", times = 50,
      case_weights = 1e-300 * d$w0
    )),
    class = "aurc_warning_no_interval"
  )
  expect_equal(boot$.estimate, aurc_vec(d$s, d$l, case_weights = d$w0),
    tolerance = 1e-12
  )
  expect_true(is.na(boot$.lower) && is.na(boot$.std_error))
  # NAURC: NA with the classed warning
  expect_warning(
    boot <- withr::with_seed(1, selective_ci_vec(d$s, d$l,
      metrics = "naurc", method = "bootstrap", times = 50,
      case_weights = 1e-300 * d$w0
    )),
    class = "aurc_warning_weights_scale"
  )
  expect_true(is.na(boot$.estimate))
  # beyond 2^80 rows: the classed error naming `case_weights`
  expect_error(
    selective_ci_vec(d$s, d$l, metrics = "naurc", method = "bootstrap",
      times = 50, case_weights = 1e154 * d$w0
    ),
    "case_weights",
    class = "aurc_error_value"
  )
  # analytic: the standard errors of counts shrink as 1 / sqrt(total)
  a1 <- selective_ci_vec(d$s, d$l, metrics = c("aurc", "naurc"),
    case_weights = d$w0 * 1e6
  )
  a2 <- selective_ci_vec(d$s, d$l, metrics = c("aurc", "naurc"),
    case_weights = d$w0 * 1e200
  )
  expect_equal(a2$.estimate[1], a1$.estimate[1], tolerance = 1e-12)
  expect_equal(a2$.std_error * 1e97, a1$.std_error, tolerance = 1e-5)
  expect_true(all(is.finite(unlist(a2[c(".lower", ".upper")]))))
})

test_that("losses up to 1e308: homogeneous metrics scale, ratios do not", {
  d <- scale_data()
  # a power of 2 so the scaled losses are exact
  K <- 2^(1023 - ceiling(log2(max(d$l))))
  big <- d$l * K
  expect_true(max(big) > 4e307 && all(is.finite(big)))
  m <- c(
    "aurc", "augrc", "eaurc", "naurc", "risk_at_coverage",
    "coverage_at_risk", "partial_aurc", "partial_augrc"
  )
  degree <- c(1, 1, 1, 0, 1, 0, 1, 1)
  for (w in list(NULL, d$w0)) {
    ref <- selective_metrics_vec(d$s, d$l, metrics = m, coverage = 0.5,
      risk = 0.3, coverage_range = c(0.2, 0.9), case_weights = w
    )$.estimate
    got <- selective_metrics_vec(d$s, big, metrics = m, coverage = 0.5,
      risk = 0.3 * K, coverage_range = c(0.2, 0.9), case_weights = w
    )$.estimate
    expect_equal(got / K^degree, ref, tolerance = 1e-12)
    for (est in c("alpha_prime", "sele", "2sele", "trapezoid")) {
      expect_equal(aurc_vec(d$s, big, estimator = est, case_weights = w) / K,
        aurc_vec(d$s, d$l, estimator = est, case_weights = w),
        tolerance = 1e-12
      )
    }
  }
  ci <- selective_ci_vec(d$s, big, metrics = c("aurc", "naurc"))
  ci0 <- selective_ci_vec(d$s, d$l, metrics = c("aurc", "naurc"))
  expect_equal(ci$.estimate / c(K, 1), ci0$.estimate, tolerance = 1e-12)
  expect_equal(ci$.std_error / c(K, 1), ci0$.std_error, tolerance = 1e-10)
  cmp <- compare_scores(data.frame(a = d$s, b = d$s2, l = big), c(a, b), l)
  cmp0 <- compare_scores(data.frame(a = d$s, b = d$s2, l = d$l), c(a, b), l)
  expect_equal(cmp$tests$difference / K, cmp0$tests$difference,
    tolerance = 1e-10
  )
  expect_equal(cmp$tests$p_value, cmp0$tests$p_value, tolerance = 1e-10)
  r <- rc_curve_vec(d$s, big)
  r0 <- rc_curve_vec(d$s, d$l)
  expect_equal(r$selective_risk / K, r0$selective_risk, tolerance = 1e-12)
  expect_equal(attr(r, "random")$augrc / K, attr(r0, "random")$augrc,
    tolerance = 1e-12
  )
  # beyond the largest double: NA with a classed warning, never Inf
  expect_warning(
    v <- aurc_vec(c(1, 2), c(1.5e308, 1.5e308), estimator = "2sele"),
    class = "aurc_warning_overflow"
  )
  expect_identical(v, NA_real_)
})

test_that("SQLite equals memory at weights 1e154, 1e-300, losses 1e308", {
  skip_if_not_installed("dbplyr")
  con <- sqlite_con()
  d <- scale_data()
  m <- c(
    "aurc", "augrc", "eaurc", "naurc", "risk_at_coverage",
    "coverage_at_risk", "partial_aurc"
  )
  for (k in c(1e154, 1e-300, 1e300)) {
    df <- data.frame(s = d$s, l = d$l, f = d$f, q = 1 - d$f, g = d$g,
      truth = d$truth, conf = d$conf, y = d$y, w = k * d$w0, wc = k
    )
    DBI::dbWriteTable(con, "t", df, overwrite = TRUE)
    tb <- dplyr::tbl(con, "t")
    pair <- function(f, ...) {
      list(
        db = suppressWarnings(f(tb, ...),
          classes = "aurc_warning_weights_scale"
        ),
        mem = suppressWarnings(f(df, ...),
          classes = "aurc_warning_weights_scale"
        )
      )
    }
    same <- function(p) {
      expect_equal(p$db$.estimate, p$mem$.estimate, tolerance = 1e-9,
        info = paste(k)
      )
    }
    same(pair(function(x) {
      selective_metrics(x, s, l, metrics = m, coverage = 0.5, risk = 0.3,
        coverage_range = c(0.2, 0.8), case_weights = w
      )
    }))
    same(pair(function(x) {
      selective_metrics(x, s, l, metrics = c("aurc", "naurc"),
        estimator = "alpha_prime", case_weights = w
      )
    }))
    same(pair(function(x) {
      selective_metrics(x, s, f, metrics = c("failure_auroc", "eaugrc"),
        case_weights = w
      )
    }))
    same(pair(function(x) prr(x, s, q, case_weights = w)))
    same(pair(function(x) aurc(dplyr::group_by(x, g), s, l, case_weights = w)))
    same(pair(function(x) aurc_ba(x, s, f, truth, case_weights = w)))
    for (b in c("equal_width", "equal_mass", "adaptive")) {
      same(pair(function(x) ece(x, conf, y, binning = b, case_weights = w)))
    }
    # constant weights above 2^64: the adaptive bins of that many cases
    same(pair(function(x) ece(x, conf, y, case_weights = wc)))
    st <- score_table(tb, s, l, case_weights = w)
    expect_equal(sum(st$n), k * sum(d$w0), tolerance = 1e-12)
    expect_equal(
      suppressWarnings(naurc(st)$.estimate,
        classes = "aurc_warning_weights_scale"
      ),
      suppressWarnings(naurc_vec(d$s, d$l, case_weights = k * d$w0),
        classes = "aurc_warning_weights_scale"
      ),
      tolerance = 1e-9
    )
  }
  # losses near the largest double
  K <- 2^(1023 - ceiling(log2(max(d$l))))
  df <- data.frame(s = d$s, l = d$l * K, w = d$w0)
  DBI::dbWriteTable(con, "t", df, overwrite = TRUE)
  tb <- dplyr::tbl(con, "t")
  expect_equal(
    selective_metrics(tb, s, l, metrics = m, coverage = 0.5, risk = 0.3 * K,
      coverage_range = c(0.2, 0.8), case_weights = w
    )$.estimate,
    selective_metrics(df, s, l, metrics = m, coverage = 0.5, risk = 0.3 * K,
      coverage_range = c(0.2, 0.8), case_weights = w
    )$.estimate,
    tolerance = 1e-9
  )
})

test_that("adaptive ECE with constant weights above 2^64 is the count limit", {
  d <- scale_data()
  # integer weights are rows repeated: constant weights of 2^70 are 2^70
  # copies of each row; beyond 2^53 cases the bins are those of 2^52..2^53
  # cases, which no longer change with the count here
  n <- length(d$conf)
  lim <- ece_vec(d$conf, d$y, case_weights = rep(2^(52 - ceiling(log2(n))), n))
  expect_equal(ece_vec(d$conf, d$y, case_weights = rep(2^70, n)), lim,
    tolerance = 1e-12
  )
  expect_equal(ece_vec(d$conf, d$y, case_weights = rep(2^40, n)), lim,
    tolerance = 1e-12
  )
  # and integer weights are rows repeated (up to the order of the sums)
  idx <- rep(seq_len(n), each = 3)
  expect_equal(ece_vec(d$conf, d$y, case_weights = rep(3, n)),
    ece_vec(d$conf[idx], d$y[idx]),
    tolerance = 1e-14
  )
})

test_that("PostgreSQL equals memory at weights of 1e154 (it raised an error)", {
  con <- pg_con()
  d <- scale_data()
  m <- c("aurc", "augrc", "eaurc", "naurc", "coverage_at_risk")
  for (k in c(1e154, 1e-300)) {
    df <- data.frame(s = d$s, l = d$l, conf = d$conf, y = d$y,
      w = k * d$w0
    )
    tb <- db_copy(con, df, "scale")
    run <- function(x) {
      suppressWarnings(
        selective_metrics(x, s, l, metrics = m, risk = 0.3,
          case_weights = w
        )$.estimate,
        classes = "aurc_warning_weights_scale"
      )
    }
    expect_equal(run(tb), run(df), tolerance = 1e-9, info = paste(k))
    expect_equal(
      ece(tb, conf, y, binning = "equal_mass", case_weights = w)$.estimate,
      ece(df, conf, y, binning = "equal_mass", case_weights = w)$.estimate,
      tolerance = 1e-9
    )
  }
})

test_that("aurc_weights(): ratios at every scale, alpha_prime counts cases", {
  d <- scale_data()
  base <- aurc_weights(d$s, "alpha", case_weights = d$w0)
  for (k in c(1e-300, 1e154, 1e300)) {
    expect_equal(aurc_weights(d$s, "alpha", case_weights = k * d$w0), base,
      tolerance = 1e-12
    )
  }
  expect_warning(
    w <- aurc_weights(d$s, "alpha_prime", case_weights = 1e-300 * d$w0),
    class = "aurc_warning_weights_scale"
  )
  expect_true(all(is.na(w)))
  # beyond 2^53 cases the weights of the counts given, finite
  expect_true(all(is.finite(
    aurc_weights(d$s, "alpha_prime", case_weights = 1e300 * d$w0)
  )))
})
