# Coverage of the analytic (influence-function) intervals that
# selective_ci() gives the LLM rank correlations and the thresholded
# quality AUROC, of the percentile bootstrap of the rank-calibration
# error's neighbours, and the level of compare_scores()'s paired test for
# the AUSE and the LLM metrics (two exchangeable uncertainty measures of
# the same outputs: the null holds). Issue 36, the catalog integration.
# Run: R_LIBS=<lib> Rscript studies/catalog-llm-regression-coverage.R
# (about fifteen minutes on one core)
library(aurc)
set.seed(20261128)
reps <- 500
covers <- function(ci, value) ci$.lower <= value & value <= ci$.upper

cat("Analytic 95% intervals, bivariate normal (quality = pnorm(y))\n")
for (rho in c(0, 0.3, 0.6)) {
  for (n in c(30, 100, 400)) {
    true <- c(6 / pi * asin(rho / 2), 2 / pi * asin(rho))
    hit <- replicate(reps, {
      x <- rnorm(n)
      y <- rho * x + sqrt(1 - rho^2) * rnorm(n)
      ci <- selective_ci_vec(x, quality = pnorm(y),
        metrics = c("spearman", "kendall"))
      covers(ci, true)
    })
    cat(sprintf("rho = %.1f n = %4d  spearman %.3f  kendall %.3f\n", rho, n,
      mean(hit[1, ]), mean(hit[2, ])))
  }
}

cat("\nHeavy ties (score and quality in tenths), truth on a large sample\n")
gen <- function(n) {
  unc <- round(rexp(n), 1)
  list(s = -unc, q = round(pmin(1, pmax(0, 0.8 - 0.2 * unc +
    rnorm(n, sd = 0.25))), 1))
}
big <- gen(1e6)
sub <- gen(3e4)
true <- c(
  spearman = cor(big$s, big$q, method = "spearman"),
  kendall = cor(sub$s, sub$q, method = "kendall"),
  quality_auroc = quality_auroc_vec(big$s, big$q, 0.5)
)
cat(sprintf(paste("targets: spearman %.4f, kendall %.4f (3e4 draws),",
  "quality AUROC %.4f\n"),
  true[1], true[2], true[3]))
for (n in c(50, 200, 1000)) {
  hit <- replicate(reps, {
    d <- gen(n)
    ci <- selective_ci_vec(d$s, quality = d$q,
      metrics = c("spearman", "kendall", "quality_auroc"), threshold = 0.5)
    covers(ci, true)
  })
  cat(sprintf("n = %4d  spearman %.3f  kendall %.3f  quality_auroc %.3f\n",
    n, mean(hit[1, ]), mean(hit[2, ]), mean(hit[3, ])))
}
hit <- replicate(200, {
  d <- gen(200)
  ci <- selective_ci_vec(d$s, quality = d$q, metrics = c("spearman",
    "kendall", "quality_aupr"), threshold = 0.5, method = "bootstrap",
    times = 500)
  covers(ci[1:2, ], true[1:2])
})
cat(sprintf(paste("percentile bootstrap, n = 200 (200 reps):",
  "spearman %.3f  kendall %.3f\n"),
  mean(hit[1, ]), mean(hit[2, ])))

cat("\nPaired test (compare_scores(), analytic unless stated), level at 5%\n")
pair <- function(n) {
  sig <- runif(n, 0.2, 2)
  e <- abs(rnorm(n, sd = sig))
  data.frame(a = -sig * exp(rnorm(n, sd = 0.5)),
    b = -sig * exp(rnorm(n, sd = 0.5)), e = e,
    q = pnorm(-e + rnorm(n, sd = 0.5)))
}
for (n in c(100, 500)) {
  rej <- replicate(reps, {
    d <- pair(n)
    p <- function(...) compare_scores(d, c(a, b), ...)$tests$p_value
    c(
      ause_ilg = p(e, metric = "ause"),
      ause_tu = p(e, metric = "ause", definition = "torch_uncertainty"),
      spearman = p(quality = q, metric = "spearman"),
      kendall = p(quality = q, metric = "kendall"),
      quality_auroc = p(quality = q, metric = "quality_auroc",
        threshold = 0.5)
    ) < 0.05
  })
  cat(sprintf("n = %4d  %s\n", n, paste(sprintf("%s %.3f", rownames(rej),
    rowMeans(rej)), collapse = "  ")))
}
rej <- replicate(200, {
  d <- pair(200)
  p <- function(type, ...) {
    compare_scores(d, c(a, b), method = "bootstrap", times = 500,
      type = type, ...)$tests$p_value
  }
  out <- c(
    rce_percentile = p("percentile", quality = q,
      metric = "rank_calibration_error"),
    rce_normal = p("normal", quality = q, metric = "rank_calibration_error"),
    aupr_percentile = p("percentile", quality = q, metric = "quality_aupr",
      threshold = 0.5),
    aupr_normal = p("normal", quality = q, metric = "quality_aupr",
      threshold = 0.5)
  )
  out < 0.05
})
cat(sprintf("bootstrap, n = 200 (200 reps): %s\n", paste(sprintf("%s %.3f",
  rownames(rej), rowMeans(rej)), collapse = "  ")))
