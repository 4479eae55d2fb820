# Coverage of the bootstrap intervals of the calibration errors
# (selective_ci(method = "bootstrap")), for the vignette "How honest are the
# intervals?". Writes inst/extdata/ci-calibration-coverage.csv.
#
# Model: confidence f = 0.5 + 0.5 * Beta(2, 1) (continuous), or the same
# rounded to 0.05 ("ties"); correct ~ Bernoulli(p(f)), p(f) = f - 0.1
# sin(4 pi (f - 0.5)) (at most 1): overconfident below f = 0.75,
# underconfident above
# (with a one-signed gap every calibration error would be |mean(y - f)|).
# The population value of each metric is its value on one sample of
# n = 2e6 from the same model (the binned errors use 10 equal-width bins;
# the smooth ECE its fixed-point bandwidth; CORP the Brier score).
# Per cell (model x n), `reps` data sets; 95% intervals from `times`
# replicates: percentile, normal and BCa (BCa by the jackknife; not for the
# smooth ECE, whose jackknife costs n bandwidth searches) from the same
# replicates. The smooth ECE, the slowest (a bandwidth search per
# replicate), gets fewer data sets and replicates (`reps_smooth`,
# `times_smooth`).
#
# Run from the package root with the package installed:
#   nice -n 10 Rscript inst/scripts/ci-calibration-coverage.R
# or in two processes, COVERAGE_PART=binned and COVERAGE_PART=smooth (the
# smooth ECE alone takes most of the time: about 25 minutes on one busy
# core), each writing its own file, then COVERAGE_PART=combine. Each cell
# is saved as soon as it is done.
suppressPackageStartupMessages(library(aurc))

reps <- as.integer(Sys.getenv("COVERAGE_REPS", "300"))
reps_smooth <- as.integer(Sys.getenv("COVERAGE_REPS_SMOOTH", "60"))
times <- 1000
times_smooth <- 200
sizes <- c(500, 2000)
models <- c("continuous", "ties")
metrics <- c(
  "ece", "mce", "debiased_l2_ce", "corp_mcb", "corp_dsc", "corp_unc",
  "corp_mean_score"
)
out_file <- file.path("inst", "extdata", "ci-calibration-coverage.csv")
part <- Sys.getenv("COVERAGE_PART", "all")
part_dir <- Sys.getenv("COVERAGE_PART_DIR", tempdir())
part_file <- function(p) file.path(part_dir, paste0("ci-cal-", p, ".csv"))

simulate <- function(n, model) {
  f <- 0.5 + 0.5 * stats::rbeta(n, 2, 1)
  if (model == "ties") f <- round(f * 20) / 20
  p <- pmin(1, f - 0.1 * sin(4 * pi * (f - 0.5)))
  correct <- stats::rbinom(n, 1, p)
  list(confidence = f, loss = 1 - correct)
}

population <- function(model) {
  set.seed(2024)
  d <- simulate(2e6, model)
  correct <- 1 - d$loss
  dec <- corp_decomposition(
    data.frame(f = d$confidence, y = correct), f, y
  )
  c(
    ece = ece_vec(d$confidence, correct, binning = "equal_width"),
    mce = mce_vec(d$confidence, correct, binning = "equal_width"),
    debiased_l2_ce = ece_vec(d$confidence, correct,
      binning = "equal_width", debias = TRUE
    ),
    corp_mcb = dec$mcb, corp_dsc = dec$dsc, corp_unc = dec$unc,
    corp_mean_score = dec$mean_score,
    smooth_ece = as.numeric(smooth_ece_vec(d$confidence, correct))
  )
}

# Percentile, normal and BCa intervals from one run of the engine.
intervals <- function(d, metrics, times, bca) {
  res <- suppressWarnings(aurc:::ci_bootstrap(
    list(d$confidence), d$loss, NULL, metrics, list(n_bins = 10), times,
    NULL, NULL, NULL, 1, if (bca) "bca" else "percentile", 0.95, NULL
  ))
  rows <- lapply(metrics, function(m) {
    t <- res$replicates[, 1, m]
    t0 <- res$estimate[1, m]
    p <- aurc:::ci_interval(t, t0, "percentile", 0.95, NULL, NULL)
    nm <- aurc:::ci_interval(t, t0, "normal", 0.95, NULL, NULL)
    out <- data.frame(
      metric = m, estimate = t0,
      type = c("percentile", "normal"),
      lower = c(p[["lower"]], nm[["lower"]]),
      upper = c(p[["upper"]], nm[["upper"]])
    )
    if (bca) {
      out <- rbind(out, data.frame(
        metric = m, estimate = t0, type = "bca",
        lower = res$lower[1, m], upper = res$upper[1, m]
      ))
    }
    out
  })
  do.call(rbind, rows)
}

summarise_cell <- function(cell, model, n) {
  do.call(rbind, lapply(
    split(cell, list(cell$metric, cell$type), drop = TRUE),
    function(x) {
      data.frame(
        model = model, n = n, metric = x$metric[1], type = x$type[1],
        data_sets = sum(!is.na(x$covered)),
        coverage = mean(x$covered, na.rm = TRUE),
        below = mean(x$truth < x$lower, na.rm = TRUE),
        above = mean(x$truth > x$upper, na.rm = TRUE),
        mean_width = mean(x$upper - x$lower, na.rm = TRUE),
        bias = mean(x$estimate) - x$truth[1],
        truth = x$truth[1]
      )
    }
  ))
}

run_part <- function(which) {
  started <- Sys.time()
  results <- NULL
  cell_models <- if (which == "smooth") "continuous" else models
  for (model in cell_models) {
    truth <- population(model)
    for (n in sizes) {
      set.seed(n + (model == "ties") + 10 * (which == "smooth"))
      count <- if (which == "smooth") reps_smooth else reps
      cell <- lapply(seq_len(count), function(r) {
        d <- simulate(n, model)
        if (which == "smooth") {
          intervals(d, "smooth_ece", times_smooth, bca = FALSE)
        } else {
          intervals(d, metrics, times, bca = TRUE)
        }
      })
      cell <- do.call(rbind, cell)
      cell$truth <- truth[cell$metric]
      cell$covered <- cell$lower <= cell$truth & cell$truth <= cell$upper
      results <- rbind(results, summarise_cell(cell, model, n))
      utils::write.csv(results, part_file(which), row.names = FALSE)
      message(which, ": ", model, " n = ", n, " done after ",
        format(round(difftime(Sys.time(), started, units = "mins"), 1)))
    }
  }
  results
}

if (part %in% c("binned", "smooth")) {
  invisible(run_part(part))
} else {
  results <- if (part == "combine") {
    rbind(
      utils::read.csv(part_file("binned")),
      utils::read.csv(part_file("smooth"))
    )
  } else {
    rbind(run_part("binned"), run_part("smooth"))
  }
  rownames(results) <- NULL
  num <- vapply(results, is.numeric, logical(1))
  results[num] <- lapply(results[num], signif, digits = 4)
  utils::write.csv(results, out_file, row.names = FALSE)
  message("wrote ", out_file)
}
