# Whole-curve coverage of the simultaneous bands of rc_band() (issue 36,
# item 6). For each model, `reps` data sets of n cases; for each, one band
# with `times` bootstrap replicates; a band covers when it holds the true
# curve at every coverage of its grid (rc_band()'s default: 0.1, 0.11,
# ..., 1 for n >= 1000; from 0.34 for n = 300). Both curve
# types are reported (the generalized risk at coverage c is c times the
# selective risk, so their bands cover together; reported for both all the
# same), and both scales of the max-t statistic: "sqrt" (the default) and
# "identity", the second from the same replicates.
#
# The true curve: exact, from the model (the accepted loss between tie
# groups interpolated as rc_band() defines it), and checked against the
# curve of one sample of n_true = 1e7 cases on the same grid.
#
# Usage: Rscript ci-band-coverage.R [reps] [times] [n] [models]
#   (defaults 1000 1000 1000, all models; models: comma-separated names;
#   1000 x 1000 x 1000 takes about 15 min on one core)
# Run with nice on a shared machine.
library(aurc)

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 1000L
times <- if (length(args) >= 2) as.integer(args[2]) else 1000L
n <- if (length(args) >= 3) as.integer(args[3]) else 1000L
only <- if (length(args) >= 4) strsplit(args[4], ",")[[1]] else NULL
n_true <- 1e7
# the default grid of rc_band() (0.1, 0.11, ..., 1 for n >= 1000)
grid <- aurc:::rc_band_grid(n)

# Each model: draw(n) gives score and loss; truth(c) the selective risk.
models <- list(
  # continuous score, 0/1 loss; few failures among the most confident
  # (risk 0.05 at coverage 0.1: the hard case for a band)
  continuous = list(
    draw = function(n) {
      s <- stats::runif(n)
      list(score = s, loss = stats::rbinom(n, 1, 0.05 + 0.35 * (1 - s)^2))
    },
    truth = function(c) (0.05 * c + 0.35 * c^3 / 3) / c
  ),
  # eight tied score values (binomial), 0/1 loss
  ties = local({
    k <- 0:7
    prob <- stats::dbinom(k, 7, 0.6)
    risk <- 0.03 + 0.4 * (1 - k / 7)^1.5
    list(
      draw = function(n) {
        s <- stats::rbinom(n, 7, 0.6)
        list(score = s / 7, loss = stats::rbinom(n, 1, risk[s + 1]))
      },
      truth = function(c) {
        # groups in descending score order, shares of a group accepted at
        # random (linear accepted loss within a group)
        o <- rev(seq_along(k))
        cum_p <- c(0, cumsum(prob[o]))
        cum_l <- c(0, cumsum(prob[o] * risk[o]))
        acc <- stats::approx(cum_p, cum_l, xout = c)$y
        acc / c
      }
    )
  }),
  # continuous score, continuous loss (exponential, mean 0.1 + 0.5 (1 - s))
  continuous_loss = list(
    draw = function(n) {
      s <- stats::runif(n)
      list(score = s, loss = stats::rexp(n, 1 / (0.1 + 0.5 * (1 - s))))
    },
    truth = function(c) (0.1 * c + 0.25 * c^2) / c
  )
)

# The curve of one sample on the grid (no replicates).
sample_curve <- function(score, loss) {
  aurc:::rc_band_impl(score, loss, double(), integer(), 0L, integer(), 0L,
    matrix(0L, 0, 0), 0, c(0, 0), grid, 1L)$estimate[, 1]
}

spec_identity <- list(coverage = grid, conf_level = 0.95,
  transform = "identity")

if (!is.null(only)) models <- models[only]

set.seed(20261128)
rows <- list()
for (m in names(models)) {
  model <- models[[m]]
  truth <- model$truth(grid)
  big <- model$draw(n_true)
  truth_big <- sample_curve(big$score, big$loss)
  rm(big)
  check <- max(abs(truth_big - truth))
  hit <- matrix(NA, reps, 6, dimnames = list(NULL, c(
    "sel_sqrt", "gen_sqrt", "sel_identity", "gen_identity", "sel_sqrt_big",
    "sel_identity_big"
  )))
  width <- numeric(reps)
  t0 <- proc.time()[["elapsed"]]
  for (r in seq_len(reps)) {
    d <- model$draw(n)
    b <- suppressWarnings(rc_band_vec(d$score, d$loss, coverage = grid,
      times = times))
    sel <- b[b$type == "selective", ]
    gen <- b[b$type == "generalized", ]
    inside <- function(lo, hi, y) all(lo <= y + 1e-12 & y <= hi + 1e-12)
    reps_b <- attr(b, "replicates")
    id_sel <- aurc:::rc_band_maxt(sel$.estimate, reps_b[, , 1],
      spec_identity)
    id_gen <- aurc:::rc_band_maxt(gen$.estimate, reps_b[, , 2],
      spec_identity)
    hit[r, ] <- c(
      inside(sel$.lower, sel$.upper, truth),
      inside(gen$.lower, gen$.upper, grid * truth),
      inside(id_sel$lower, id_sel$upper, truth),
      inside(id_gen$lower, id_gen$upper, grid * truth),
      inside(sel$.lower, sel$.upper, truth_big),
      inside(id_sel$lower, id_sel$upper, truth_big)
    )
    width[r] <- mean(sel$.upper - sel$.lower)
  }
  secs <- proc.time()[["elapsed"]] - t0
  cov <- colMeans(hit)
  rows[[m]] <- data.frame(
    model = m, n = n, reps = reps, times = times,
    selective_sqrt = cov[["sel_sqrt"]],
    generalized_sqrt = cov[["gen_sqrt"]],
    selective_identity = cov[["sel_identity"]],
    generalized_identity = cov[["gen_identity"]],
    selective_sqrt_vs_1e7 = cov[["sel_sqrt_big"]],
    selective_identity_vs_1e7 = cov[["sel_identity_big"]],
    mc_se = sqrt(0.95 * 0.05 / reps),
    mean_width = mean(width),
    truth_vs_1e7 = check,
    seconds = secs
  )
  print(rows[[m]])
}
out <- do.call(rbind, rows)
print(out, digits = 4)
