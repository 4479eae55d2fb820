# Coverage of the intervals of uncertainty_correlation_ci() (Fisher z with
# the influence standard error, the default, and Bonett-Wright's) and
# rank_calibration_error_ci() (bootstrap), and the cost of the estimators
# (issue 36, item 4).
# Run: R_LIBS=<lib> Rscript studies/llm-rank-coverage.R
library(aurc)
set.seed(2026)
reps <- 2000
cat("Rank correlations, bivariate normal, 95% intervals\n")
for (rho in c(0, 0.3, 0.6)) {
  for (n in c(30, 100, 400)) {
    true <- c(spearman = 6 / pi * asin(rho / 2), kendall = 2 / pi * asin(rho))
    hit <- replicate(reps, {
      x <- rnorm(n)
      y <- rho * x + sqrt(1 - rho^2) * rnorm(n)
      c(
        spearman = with(uncertainty_correlation_ci(x, y),
          .lower <= true[["spearman"]] && true[["spearman"]] <= .upper),
        kendall = with(uncertainty_correlation_ci(x, y, method = "kendall"),
          .lower <= true[["kendall"]] && true[["kendall"]] <= .upper)
      )
    })
    cat(sprintf("rho = %.1f n = %4d  spearman %.3f  kendall %.3f\n", rho, n,
      mean(hit["spearman", ]), mean(hit["kendall", ])))
  }
}
cat("\nRank correlations, ROUGE-like quality with ties (n = 200)\n")
gen <- function(n) {
  unc <- round(rexp(n), 1)
  list(s = -unc, q = round(pmin(1, pmax(0, 0.8 - 0.2 * unc +
    rnorm(n, sd = 0.25))), 1))
}
big <- gen(1e5)
true <- c(spearman = cor(big$s, big$q, method = "spearman"),
  kendall = cor(big$s[1:2e4], big$q[1:2e4], method = "kendall"))
hit <- replicate(1000, {
  d <- gen(200)
  c(spearman = with(uncertainty_correlation_ci(d$s, d$q),
      .lower <= true[["spearman"]] && true[["spearman"]] <= .upper),
    kendall = with(uncertainty_correlation_ci(d$s, d$q, method = "kendall"),
      .lower <= true[["kendall"]] && true[["kendall"]] <= .upper))
})
print(rowMeans(hit))

cat("\nStandard errors of the rank correlations (se =), 95% intervals\n")
# bonett_wright: Bonett-Wright (Spearman), Fieller (Kendall), derived
# for continuous data; influence: the tie-aware influence values of
# R/ci-influence-llm-correlation.R. The true value is that of 2e5 draws.
se_coverage <- function(gen, n, true, reps) {
  hit <- replicate(reps, {
    d <- gen(n)
    unlist(lapply(c("spearman", "kendall"), function(m) {
      vapply(c("bonett_wright", "influence"), function(se) {
        ci <- suppressWarnings(uncertainty_correlation_ci(d$s, d$q,
          method = m, se = se))
        isTRUE(ci$.lower <= true[[m]] && true[[m]] <= ci$.upper)
      }, logical(1))
    }))
  })
  out <- rowMeans(hit)
  names(out) <- c("rho_bw", "rho_if", "tau_fieller", "tau_if")
  out
}
se_gens <- list(
  # bivariate normal, correlation 0.6: no ties
  normal = function(n) {
    x <- rnorm(n)
    list(s = x, q = 0.6 * x + 0.8 * rnorm(n))
  },
  # ROUGE-like: score and quality in tenths
  tenths = function(n) {
    unc <- round(rexp(n), 1)
    list(s = -unc, q = round(pmin(1, pmax(0, 0.8 - 0.2 * unc +
      rnorm(n, sd = 0.25))), 1))
  },
  # heavy ties: a five-step verbalised confidence, a 0/1 correctness
  verbal_binary = function(n) {
    s <- sample(0:4, n, TRUE)
    list(s = s, q = as.numeric(runif(n) < 0.3 + 0.1 * s))
  },
  # skewed score in tenths, most of it at 0; quality in tenths
  skewed = function(n) {
    s <- round(rexp(n)^2, 1)
    list(s = s, q = round(pmin(1, pmax(0, 0.3 + 0.3 * (s > 0.5) +
      rnorm(n, sd = 0.2))), 1))
  }
)
for (g in names(se_gens)) {
  d <- se_gens[[g]](2e5)
  true <- c(spearman = cor(d$s, d$q, method = "spearman"),
    kendall = uncertainty_correlation_vec(d$s, d$q, method = "kendall"))
  for (n in c(30, 100, 400)) {
    r <- se_coverage(se_gens[[g]], n, true, 1000)
    cat(sprintf("%-13s n = %3d  %s\n", g, n,
      paste(names(r), sprintf("%.3f", r), collapse = "  ")))
  }
}

cat("\nRank-calibration error, bootstrap (percentile, 500 resamples)\n")
gen2 <- function(n) {
  unc <- rexp(n)
  list(s = -unc, q = 0.7 - 0.1 * unc + rnorm(n, sd = 0.3))
}
for (n in c(300, 1000)) {
  est <- replicate(1000, with(gen2(n),
    rank_calibration_error_vec(s, q, n_bins = 10)))
  res <- replicate(200, {
    d <- gen2(n)
    ci <- rank_calibration_error_ci(d$s, d$q, n_bins = 10, times = 500)
    c(mean(est) >= ci$.lower && mean(est) <= ci$.upper, ci$.std_error)
  })
  big <- gen2(1e5)
  cat(sprintf(paste("n = %4d  E[RCE_n] %.4f (sd %.4f; n = 1e5: %.4f)",
    "coverage of E[RCE_n] %.3f  mean bootstrap se %.4f\n"), n, mean(est),
    sd(est), rank_calibration_error_vec(big$s, big$q, n_bins = 10),
    mean(res[1, ]), mean(res[2, ])))
}

cat("\nTimings (median of 5)\n")
tm <- function(f) {
  median(vapply(1:5, function(i) system.time(f())[["elapsed"]], 0))
}
for (n in c(1e4, 1e5, 1e6)) {
  d <- gen2(n)
  s1 <- round(d$s, 1) # a score with ties
  q1 <- pmin(1, pmax(0, d$q))
  cat(sprintf(paste("n = %g: rce %.3f s, spearman %.3f s, prr random",
    "%.3f s, prr lm_polygraph %.3f s, prr group %.3f s\n"),
    n, tm(function() rank_calibration_error_vec(d$s, d$q)),
    tm(function() uncertainty_correlation_vec(d$s, d$q)),
    tm(function() prr_vec(s1, q1, ties = "random")),
    tm(function() prr_vec(s1, q1, ties = "lm_polygraph")),
    tm(function() prr_vec(s1, q1))))
}
