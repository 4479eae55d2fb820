# coverage-study.R
#
# How honest are the intervals of aurc::selective_ci_vec()? Makes the table
# inst/extdata/interval-coverage.csv.gz shown in the vignette
# "How honest are the intervals?".
#
# What it does
# * Four data-generating models, with a latent z ~ N(0, 1):
#     binary       failure ~ Bernoulli(plogis(-1 - 1.5 z)), score pnorm(z)
#                  (continuous: no ties)
#     binary_ties  the same, score rounded to 2 decimals (100 tie groups)
#     cont         loss = Exp(1) * plogis(-z) (a continuous loss), score z
#     cont_ties    the same, score rounded to 1 decimal (about 80 groups)
# * The population value of every metric is its value on one sample of
#   n = 1e7 from the model (`pop_n`).
# * For each model and n in `ns` (100, 1000, 10000), `reps` (1000) data
#   sets are drawn; on each, the 95% interval of every metric and method is
#   computed, and we record whether it covers the population value.
# * Metrics: the AURC with the estimators alpha, alpha_prime, 2sele and
#   trapezoid, AUGRC, E-AURC, NAURC, risk at coverage 0.7, coverage at risk
#   (0.15 for 0/1 losses, 0.2 for the continuous loss), and for 0/1 losses
#   also the failure AUROC, failure AUPR, E-AUGRC and ECE (10 equal-width
#   bins, confidence = pnorm(z)).
# * Methods: "analytic" always; the bootstrap types ("percentile", "bca",
#   "normal") when `run_bootstrap` is TRUE: one set of `boot_times`
#   replicates per data set and estimator gives all three (the BCa interval
#   from selective_ci_vec(), the other two from its "replicates"
#   attribute).
#
# Output columns: model, loss, ties, n, metric, estimator, method, reps
# (data sets with a finite interval), missing (data sets without one),
# coverage, below (share of intervals entirely below the population value),
# above, width (mean), se_ratio (mean analytic SE / sd of the estimates),
# population (the population value).
#
# Run from the package root with the package installed:
#   Rscript inst/scripts/coverage-study.R [reps] [pop_n] [run_bootstrap] \
#     [models] [metric]
# `models` (comma-separated, default all four) lets the models run as
# separate processes: each writes a part file, and the process that finds
# every part present writes the table and removes the parts. Seeds are
# fixed per model (`seed`), so the table does not depend on the split.
# `metric` (one name) recomputes only that metric's rows, for all models in
# one process, and replaces them in the existing table (after a change to
# one metric's interval).

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 1000L
pop_n <- if (length(args) >= 2) as.numeric(args[2]) else 1e7
run_bootstrap <- if (length(args) >= 3) as.logical(args[3]) else TRUE
all_models <- c("binary", "binary_ties", "cont", "cont_ties")
run_models <- if (length(args) >= 4) {
  strsplit(args[4], ",", fixed = TRUE)[[1]]
} else {
  all_models
}
only_metric <- if (length(args) >= 5) args[5] else NA_character_
if (!is.na(only_metric)) run_models <- all_models
ns <- c(100, 1000, 10000)
boot_times <- 1000
seed <- 2026
out_file <- file.path("inst", "extdata", "interval-coverage.csv.gz")
# the table, gzip-compressed (read.csv() reads it as it is)
write_table <- function(x, path) {
  con <- gzfile(path, "w")
  on.exit(close(con))
  utils::write.csv(x, con, row.names = FALSE)
}
part_file <- function(model) {
  file.path("inst", "extdata", paste0("interval-coverage-part-", model, ".csv"))
}

library(aurc)

models <- list(
  binary = list(loss = "0/1", ties = FALSE),
  binary_ties = list(loss = "0/1", ties = TRUE),
  cont = list(loss = "continuous", ties = FALSE),
  cont_ties = list(loss = "continuous", ties = TRUE)
)

draw <- function(model, n) {
  z <- stats::rnorm(n)
  if (models[[model]]$loss == "0/1") {
    loss <- stats::rbinom(n, 1, stats::plogis(-1 - 1.5 * z))
    score <- stats::pnorm(z)
    if (models[[model]]$ties) score <- round(score, 2)
  } else {
    loss <- stats::rexp(n) * stats::plogis(-z)
    score <- if (models[[model]]$ties) round(z, 1) else z
  }
  list(score = score, loss = loss)
}

# (metric, estimator) pairs of a model
settings <- function(model) {
  binary <- models[[model]]$loss == "0/1"
  rows <- data.frame(
    metric = c("aurc", "aurc", "aurc", "aurc", "augrc", "eaurc", "naurc",
               "risk_at_coverage", "coverage_at_risk"),
    estimator = c("alpha", "alpha_prime", "2sele", "trapezoid", "alpha",
                  "alpha", "alpha", "alpha", "alpha")
  )
  if (binary) {
    rows <- rbind(rows, data.frame(
      metric = c("failure_auroc", "failure_aupr", "eaugrc", "ece"),
      estimator = "alpha"
    ))
  }
  if (!is.na(only_metric)) rows <- rows[rows$metric == only_metric, ]
  rows
}

risk_of <- function(model) {
  if (models[[model]]$loss == "0/1") 0.15 else 0.2
}

# Evaluates `expr` with the RNG seeded by `seed` and restores the RNG state
# afterwards: the bootstrap draws then leave the stream of data sets as it
# is without them, so the analytic rows do not depend on `run_bootstrap`.
with_own_seed <- function(seed, expr) {
  old <- get0(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit(assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  expr
}

# every interval on one data set: a data frame (metric, estimator, method,
# estimate, lower, upper, std_error)
intervals <- function(model, d, methods, boot_seed) {
  st <- settings(model)
  parts <- list()
  add <- function(metric, est, meth, estimate, lower, upper, se) {
    parts[[length(parts) + 1]] <<- data.frame(
      metric = metric, estimator = est, method = meth, estimate = estimate,
      lower = lower, upper = upper, std_error = se
    )
  }
  for (est in unique(st$estimator)) {
    m <- st$metric[st$estimator == est]
    res <- suppressWarnings(selective_ci_vec(
      d$score, d$loss,
      metrics = m, estimator = est, coverage = 0.7, risk = risk_of(model)
    ))
    add(res$.metric, est, "analytic", res$.estimate, res$.lower, res$.upper,
      res$.std_error
    )
    if (!"bca" %in% methods) next
    # one set of replicates serves the three bootstrap types: the BCa
    # interval from selective_ci_vec(), the percentile and normal intervals
    # from its replicates by the same rules as the package
    res <- with_own_seed(boot_seed, suppressWarnings(selective_ci_vec(
      d$score, d$loss,
      metrics = m, estimator = est, coverage = 0.7, risk = risk_of(model),
      method = "bootstrap", type = "bca", times = boot_times
    )))
    add(res$.metric, est, "bca", res$.estimate, res$.lower, res$.upper,
      res$.std_error
    )
    reps <- attr(res, "replicates")
    for (j in seq_along(m)) {
      t <- reps[, j]
      t <- t[is.finite(t)]
      t0 <- res$.estimate[j]
      ok <- is.finite(t0) && length(t) >= 2
      se <- if (ok) stats::sd(t) else NA_real_
      q <- if (ok) {
        stats::quantile(t, c(0.025, 0.975), type = 7, names = FALSE)
      } else {
        c(NA_real_, NA_real_)
      }
      add(m[j], est, "percentile", t0, q[1], q[2], se)
      z <- stats::qnorm(0.975)
      add(m[j], est, "normal", t0, t0 - z * se, t0 + z * se, se)
    }
  }
  do.call(rbind, parts)
}

population <- function(model) {
  set.seed(seed + match(model, all_models))
  d <- draw(model, pop_n)
  st <- settings(model)
  vals <- numeric(nrow(st))
  for (est in unique(st$estimator)) {
    rows <- which(st$estimator == est & st$metric != "ece")
    v <- selective_metrics_vec(d$score, d$loss,
      metrics = unique(st$metric[rows]), estimator = est, coverage = 0.7,
      risk = risk_of(model)
    )
    vals[rows] <- v$.estimate[match(st$metric[rows], v$.metric)]
  }
  e <- which(st$metric == "ece")
  if (length(e)) {
    vals[e] <- ece_vec(d$score, 1 - d$loss,
      binning = "equal_width",
      n_bins = 10
    )
  }
  cbind(st, population = vals)
}

methods <- c("analytic", if (run_bootstrap) c("percentile", "bca", "normal"))

for (model in run_models) {
  results <- list()
  pop <- population(model)
  message(model, ": population values from n = ", format(pop_n))
  for (n in ns) {
    set.seed(seed + 100 * match(model, all_models) + n)
    runs <- vector("list", reps)
    for (r in seq_len(reps)) {
      runs[[r]] <- cbind(rep = r, intervals(model, draw(model, n), methods,
        boot_seed = seed + 1e6 * match(model, all_models) + 10 * n + r
      ))
    }
    all <- do.call(rbind, runs)
    all <- merge(all, pop, by = c("metric", "estimator"))
    key <- interaction(all$metric, all$estimator, all$method, drop = TRUE)
    summ <- lapply(split(all, key), function(x) {
      ok <- is.finite(x$lower) & is.finite(x$upper)
      y <- x[ok, ]
      data.frame(
        model = model, loss = models[[model]]$loss,
        ties = models[[model]]$ties, n = n, metric = x$metric[1],
        estimator = x$estimator[1], method = x$method[1],
        reps = sum(ok), missing = sum(!ok),
        coverage = mean(y$lower <= y$population & y$population <= y$upper),
        below = mean(y$upper < y$population),
        above = mean(y$lower > y$population),
        width = mean(y$upper - y$lower),
        se_ratio = mean(y$std_error) / stats::sd(x$estimate, na.rm = TRUE),
        population = x$population[1]
      )
    })
    results[[length(results) + 1]] <- do.call(rbind, summ)
    message("  n = ", n, " done")
  }
  part <- do.call(rbind, results)
  if (!is.na(only_metric)) {
    part <- part[, setdiff(names(part), "rep")]
    old <- utils::read.csv(out_file)
    old <- old[!(old$metric == only_metric & old$model == model), ]
    table <- rbind(old, part[names(old)])
    table <- table[order(table$model, table$metric, table$estimator,
      table$method, table$n), ]
    write_table(table, out_file)
    message("replaced the ", only_metric, " rows of ", model, " in ", out_file)
    next
  }
  utils::write.csv(part, part_file(model), row.names = FALSE)
  message("wrote ", part_file(model))
}

if (all(file.exists(part_file(all_models)))) {
  table <- do.call(rbind, lapply(part_file(all_models), utils::read.csv))
  table <- table[order(table$model, table$metric, table$estimator,
    table$method, table$n), ]
  write_table(table, out_file)
  file.remove(part_file(all_models))
  message("wrote ", out_file)
}
