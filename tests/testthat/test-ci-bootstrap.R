test_that("every replicate value is the _vec metric on the rebuilt data", {
  set.seed(11)
  n <- 60
  s1 <- round(stats::runif(n), 1) # ties, in [0, 1] for ECE
  s2 <- round(stats::runif(n), 1)
  f <- stats::rbinom(n, 1, 0.35)
  cont <- round(stats::rexp(n), 1) * f # continuous loss with ties
  bin_metrics <- c(
    "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc", "eaugrc",
    "naurc", "risk_at_coverage", "coverage_at_risk", "ece"
  )
  cont_metrics <- c(
    "aurc", "augrc", "eaurc", "naurc", "risk_at_coverage", "coverage_at_risk"
  )
  settings <- list(
    list(loss = f, metrics = bin_metrics, options = list(
      coverage = 0.6, risk = 0.3, n_bins = 5
    )),
    list(loss = cont, metrics = cont_metrics, options = list(
      estimator = "alpha_prime", method = "step", coverage = 0.3, risk = 0.4
    )),
    list(loss = f, metrics = c("aurc", "eaurc"), options = list(
      estimator = "trapezoid", optimum = "asymptotic"
    )),
    list(loss = cont, metrics = c("aurc", "eaurc", "naurc"), options = list(
      estimator = "2sele"
    ))
  )
  for (weighted in c(FALSE, TRUE)) {
    w <- if (weighted) stats::rpois(n, 1.5) else NULL
    for (st in settings) {
      set.seed(3)
      res <- suppressWarnings(run_ci_bootstrap(list(a = s1, b = s2), st$loss,
        st$metrics,
        case_weights = w, options = st$options, times = 12
      ))
      counts <- aurc:::ci_bootstrap_counts(s1, w, NULL, NULL, 12, res$seed)
      expect_identical(dim(res$replicates), c(12L, 2L, length(st$metrics)))
      for (m in st$metrics) {
        for (j in 1:2) {
          sc <- list(s1, s2)[[j]]
          full <- suppressWarnings(vec_metric(m, sc, st$loss, w, st$options))
          expect_equal(res$estimate[j, m], full, tolerance = 1e-12)
          for (b in 1:12) {
            i <- rebuild_rows(counts, b)
            ref <- suppressWarnings(
              vec_metric(m, sc[i], st$loss[i], NULL, st$options)
            )
            expect_equal(res$replicates[b, j, m], ref, tolerance = 1e-12)
          }
        }
      }
    }
  }
})

test_that("a replicate draws n rows, or the rows the case weights stand for", {
  set.seed(5)
  n <- 40
  s <- stats::runif(n)
  counts <- aurc:::ci_bootstrap_counts(s, NULL, NULL, NULL, 30, c(1, 2))
  expect_true(all(rowSums(counts) == n))
  expect_true(all(counts == round(counts)))
  w <- c(rep(0, 5), stats::rpois(n - 5, 2) + 1)
  counts <- aurc:::ci_bootstrap_counts(s, w, NULL, NULL, 30, c(1, 2))
  expect_true(all(rowSums(counts) == sum(w)))
  expect_true(all(counts[, 1:5] == 0)) # weight 0: never drawn
})

test_that("a case is drawn Binomial(n, 1/n) times, with or without strata", {
  set.seed(6)
  n <- 25
  s <- stats::runif(n)
  for (strata in list(NULL, rep(1:2, c(10, 15)))) {
    counts <- aurc:::ci_bootstrap_counts(s, NULL, strata, NULL, 4000, c(7, 8))
    size <- if (is.null(strata)) rep(n, n) else rep(c(10, 15), c(10, 15))
    # every case once on average (sd of a mean about 0.016)
    expect_lt(max(abs(colMeans(counts) - 1)), 0.08)
    # the counts of one case against Binomial(size, 1 / size)
    for (i in c(1, n)) {
      k <- pmin(counts[, i], 4)
      obs <- tabulate(k + 1, 5)
      p <- stats::dbinom(0:3, size[i], 1 / size[i])
      p <- c(p, 1 - sum(p))
      chi <- sum((obs - 4000 * p)^2 / (4000 * p))
      expect_lt(chi, stats::qchisq(0.999, 4))
    }
    # two cases of a stratum are negatively correlated: -1 / (size - 1)
    r <- stats::cor(counts[, n - 1], counts[, n])
    expect_lt(abs(r + 1 / (size[n] - 1)), 0.07)
  }
})

test_that("set.seed() reproduces the replicates; 1 thread = 2 threads", {
  set.seed(2)
  n <- 3000
  s <- round(stats::rnorm(n), 2)
  s2 <- s + stats::rnorm(n)
  f <- stats::rbinom(n, 1, 0.2)
  go <- function(threads, strata = NULL, cluster = NULL) {
    set.seed(99)
    run_ci_bootstrap(list(s, s2), f, c("aurc", "augrc", "eaurc"),
      times = 37, threads = threads, strata = strata, cluster = cluster
    )$replicates
  }
  r1 <- go(1)
  expect_identical(go(1), r1)
  expect_identical(go(2), r1)
  strata <- rep(1:3, length.out = n)
  cluster <- rep(seq_len(n / 3), each = 3)
  expect_identical(go(2, strata = strata), go(1, strata = strata))
  expect_identical(go(2, cluster = cluster), go(1, cluster = cluster))
  set.seed(100)
  other <- run_ci_bootstrap(list(s, s2), f, c("aurc", "augrc", "eaurc"),
    times = 37
  )$replicates
  expect_false(identical(other, r1))
})

test_that("strata keep their sizes; clusters move whole", {
  set.seed(8)
  n <- 90
  s <- stats::runif(n)
  strata <- sample(c("x", "y", "z"), n, replace = TRUE, prob = c(.6, .3, .1))
  counts <- aurc:::ci_bootstrap_counts(s, NULL, strata, NULL, 50, c(3, 4))
  for (lev in unique(strata)) {
    expect_true(all(rowSums(counts[, strata == lev, drop = FALSE]) ==
      sum(strata == lev)))
  }
  cluster <- sample(1:15, n, replace = TRUE)
  counts <- aurc:::ci_bootstrap_counts(s, NULL, NULL, cluster, 50, c(3, 4))
  for (b in 1:50) {
    per <- tapply(counts[b, ], cluster, function(x) length(unique(x)))
    expect_true(all(per == 1)) # every case of a cluster has its count
    drawn <- tapply(counts[b, ], cluster, `[`, 1)
    expect_identical(sum(drawn), 15) # 15 clusters drawn
  }
  # clusters within strata: each stratum keeps its number of clusters
  cl_stratum <- ifelse(cluster <= 5, "p", "q")
  counts <- aurc:::ci_bootstrap_counts(s, NULL, cl_stratum, cluster, 50,
    c(3, 4))
  for (b in 1:50) {
    drawn <- tapply(counts[b, ], cluster, `[`, 1)
    expect_identical(sum(drawn[1:5]), 5)
    expect_identical(sum(drawn[6:15]), 10)
  }
  # with case weights a drawn cluster brings every case with its weight
  w <- stats::rpois(n, 2) + 1
  counts <- aurc:::ci_bootstrap_counts(s, w, NULL, cluster, 20, c(3, 4))
  for (b in 1:20) {
    m <- counts[b, ] / w
    expect_true(all(tapply(m, cluster, function(x) length(unique(x))) == 1))
  }
})

test_that("the replicate values follow the draws of `strata` and `cluster`", {
  set.seed(21)
  n <- 50
  s <- round(stats::runif(n), 1)
  f <- stats::rbinom(n, 1, 0.4)
  strata <- rep(1:2, each = 25)
  cluster <- rep(1:10, each = 5) # within strata
  w <- stats::rpois(n, 1) + 1
  for (sc in list(list(strata, NULL, NULL), list(NULL, cluster, w),
                  list(strata, cluster, NULL))) {
    set.seed(4)
    res <- run_ci_bootstrap(list(s), f, c("aurc", "augrc"),
      strata = sc[[1]], cluster = sc[[2]], case_weights = sc[[3]], times = 8
    )
    counts <- aurc:::ci_bootstrap_counts(s, sc[[3]], sc[[1]], sc[[2]], 8,
      res$seed)
    for (b in 1:8) {
      expect_equal(res$replicates[b, 1, "aurc"],
        aurc_vec(s, f, case_weights = counts[b, ]),
        tolerance = 1e-12
      )
    }
  }
})

test_that("indices reproduce a given draw; integer weights = repeated rows", {
  set.seed(9)
  n <- 45
  s <- round(stats::runif(n), 1)
  f <- stats::rbinom(n, 1, 0.3)
  set.seed(1)
  drawn <- run_ci_bootstrap(list(s), f, c("aurc", "failure_auroc"),
    times = 10
  )
  counts <- aurc:::ci_bootstrap_counts(s, NULL, NULL, NULL, 10, drawn$seed)
  idx <- t(vapply(1:10, function(b) sample(rebuild_rows(counts, b)),
    integer(n)))
  given <- run_ci_bootstrap(list(s), f, c("aurc", "failure_auroc"),
    indices = idx
  )
  expect_equal(given$replicates, drawn$replicates, tolerance = 1e-14)
  expect_null(given$seed)
  # weighted data with indices over the rows the weights stand for
  w <- stats::rpois(n, 1.2)
  rows <- rep(seq_len(n), w)
  big <- sum(w)
  idx_rows <- matrix(sample.int(big, 20 * big, replace = TRUE), 20)
  expanded <- run_ci_bootstrap(list(s[rows]), f[rows],
    c("aurc", "augrc", "naurc"),
    indices = idx_rows
  )
  weighted <- run_ci_bootstrap(list(s), f, c("aurc", "augrc", "naurc"),
    case_weights = w, indices = matrix(rows[idx_rows], 20)
  )
  expect_equal(weighted$replicates, expanded$replicates, tolerance = 1e-12)
  expect_equal(weighted$estimate, expanded$estimate, tolerance = 1e-12)
  expect_equal(weighted$lower, expanded$lower, tolerance = 1e-12)
  # BCa: the jackknife of weighted data deletes one of the repeated rows
  bca_w <- run_ci_bootstrap(list(s), f, c("aurc", "augrc"),
    case_weights = w, indices = matrix(rows[idx_rows], 20), type = "bca"
  )
  bca_e <- run_ci_bootstrap(list(s[rows]), f[rows], c("aurc", "augrc"),
    indices = idx_rows, type = "bca"
  )
  expect_equal(bca_w$acceleration, bca_e$acceleration, tolerance = 1e-10)
  expect_equal(bca_w$lower, bca_e$lower, tolerance = 1e-10)
  expect_equal(bca_w$upper, bca_e$upper, tolerance = 1e-10)
})

test_that("integer weights = repeated rows in distribution", {
  set.seed(12)
  n <- 400
  s <- round(stats::rnorm(n), 1)
  f <- stats::rbinom(n, 1, plogis(-1 - s))
  w <- stats::rpois(n, 1) + 1
  rows <- rep(seq_len(n), w)
  weighted <- run_ci_bootstrap(list(s), f, c("aurc", "augrc"),
    case_weights = w, times = 2000
  )
  expanded <- run_ci_bootstrap(list(s[rows]), f[rows], c("aurc", "augrc"),
    times = 2000
  )
  expect_equal(weighted$estimate, expanded$estimate, tolerance = 1e-12)
  # SE of an SE from 2000 replicates is about 1.6 %: 10 % is > 6 sigma
  expect_equal(weighted$std_error, expanded$std_error, tolerance = 0.1)
  # and not the bootstrap of the n original cases, whose SE is larger
  unweighted <- run_ci_bootstrap(list(s), f, "aurc", times = 2000)
  expect_gt(unweighted$std_error[1, 1] / weighted$std_error[1, "aurc"], 1.2)
})

test_that("the bootstrap SE agrees with a plain R loop bootstrap", {
  set.seed(13)
  n <- 500
  s <- round(stats::rnorm(n), 1)
  l <- stats::rexp(n) * stats::rbinom(n, 1, plogis(-1 - s))
  res <- run_ci_bootstrap(list(s), l, c("aurc", "augrc"), times = 2000)
  # the plain loop of literal definitions is slow: 500 draws in the quick
  # run (Monte Carlo error of its SE about 3 %), 2000 with AURC_SLOW_TESTS
  plain <- replicate(test_grid(500, 2000), {
    i <- sample.int(n, n, replace = TRUE)
    c(literal_aurc_alpha(s[i], l[i]), literal_augrc_trapezoid(s[i], l[i]))
  })
  expect_equal(res$std_error[1, ], apply(plain, 1, stats::sd),
    tolerance = 0.1, ignore_attr = TRUE
  )
  expect_equal(colMeans(res$replicates[, 1, ]), rowMeans(plain),
    tolerance = 0.02, ignore_attr = TRUE
  )
})

test_that("percentile and normal intervals follow their definitions", {
  set.seed(14)
  n <- 200
  s <- stats::runif(n)
  f <- stats::rbinom(n, 1, 0.3)
  set.seed(14)
  res <- run_ci_bootstrap(list(s), f, c("aurc", "augrc"),
    times = 300, conf_level = 0.9
  )
  t <- res$replicates[, 1, "aurc"]
  expect_equal(
    c(res$lower[1, "aurc"], res$upper[1, "aurc"]),
    unname(stats::quantile(t, c(0.05, 0.95), type = 7)),
    tolerance = 1e-14
  )
  expect_identical(res$std_error[1, "aurc"], stats::sd(t))
  set.seed(14)
  nrm <- run_ci_bootstrap(list(s), f, c("aurc", "augrc"),
    times = 300, conf_level = 0.9, type = "normal"
  )
  expect_identical(nrm$replicates, res$replicates)
  z <- stats::qnorm(0.95)
  expect_equal(nrm$lower[1, "aurc"], res$estimate[1, "aurc"] - z * sd(t))
  expect_equal(nrm$upper[1, "aurc"], res$estimate[1, "aurc"] + z * sd(t))
})

test_that("BCa equals boot::boot.ci on the same replicates", {
  skip_if_not_installed("boot")
  set.seed(15)
  n <- 150
  s <- round(stats::runif(n), 2)
  s2 <- pmin(pmax(round(s + stats::rnorm(n, sd = 0.2), 2), 0), 1)
  f <- stats::rbinom(n, 1, plogis(1 - 3 * s))
  metrics <- c("aurc", "augrc", "failure_auroc", "ece")
  as_boot <- function(t0, t, lv) {
    structure(list(
      t0 = t0, t = matrix(t), R = length(t), data = seq_len(n),
      call = quote(boot(data = x, statistic = f, R = R)),
      sim = "ordinary", stype = "i", strata = rep(1, n),
      weights = rep(1 / n, n), L = lv
    ), class = "boot")
  }
  # influence values given: any per-row values (here arbitrary ones)
  infl <- lapply(1:2, function(j) {
    stats::setNames(lapply(metrics, function(m) stats::rnorm(n)), metrics)
  })
  set.seed(16)
  res <- run_ci_bootstrap(list(s, s2), f, metrics,
    times = 999, type = "bca", influence = infl, conf_level = 0.9
  )
  # no influence values: the jackknife, checked against a plain R loop
  set.seed(16)
  jk <- run_ci_bootstrap(list(s, s2), f, metrics,
    times = 999, type = "bca", conf_level = 0.9
  )
  expect_identical(jk$replicates, res$replicates)
  for (j in 1:2) {
    sc <- list(s, s2)[[j]]
    for (m in metrics) {
      t <- res$replicates[, j, m]
      t0 <- res$estimate[j, m]
      ci <- boot::boot.ci(as_boot(t0, t, infl[[j]][[m]]),
        conf = 0.9, type = "bca", L = infl[[j]][[m]]
      )
      expect_equal(c(res$lower[j, m], res$upper[j, m]), ci$bca[4:5],
        tolerance = 1e-10
      )
      loo <- vapply(seq_len(n), function(i) {
        vec_metric(m, sc[-i], f[-i], NULL, list(n_bins = 10))
      }, 0)
      jack_l <- (n - 1) * (mean(loo) - loo)
      ci <- boot::boot.ci(as_boot(t0, t, jack_l),
        conf = 0.9, type = "bca", L = jack_l
      )
      expect_equal(c(jk$lower[j, m], jk$upper[j, m]), ci$bca[4:5],
        tolerance = 1e-10
      )
    }
  }
  # paired differences: BCa of d = a - b with L_a - L_b
  d <- res$replicates[, 1, "aurc"] - res$replicates[, 2, "aurc"]
  ld <- infl[[1]]$aurc - infl[[2]]$aurc
  d0 <- res$estimate[1, "aurc"] - res$estimate[2, "aurc"]
  ci <- boot::boot.ci(as_boot(d0, d, ld), conf = 0.9, type = "bca", L = ld)
  row <- res$diff[res$diff$metric == "aurc", ]
  expect_equal(c(row$lower, row$upper), ci$bca[4:5], tolerance = 1e-10)
})

test_that("paired differences use the same draws; p-values as documented", {
  set.seed(17)
  n <- 300
  s1 <- stats::rnorm(n)
  f <- stats::rbinom(n, 1, plogis(-1 - 1.5 * s1))
  s2 <- s1 + stats::rnorm(n, sd = 2) # a worse score
  s3 <- s1 # the same score
  res <- run_ci_bootstrap(list(good = s1, bad = s2, same = s3), f,
    c("aurc", "failure_auroc"),
    times = 400
  )
  expect_identical(nrow(res$diff), 6L)
  expect_identical(res$diff$score_a[1:3], c("good", "good", "bad"))
  row <- res$diff[res$diff$score_a == "good" & res$diff$score_b == "bad" &
    res$diff$metric == "aurc", ]
  d <- res$replicates[, "good", "aurc"] - res$replicates[, "bad", "aurc"]
  expect_equal(row$estimate, res$estimate["good", "aurc"] -
    res$estimate["bad", "aurc"])
  expect_equal(c(row$lower, row$upper),
    unname(stats::quantile(d, c(0.025, 0.975), type = 7)))
  expect_equal(row$std_error, stats::sd(d))
  expect_equal(row$p_value,
    min(1, 2 * min(1 + sum(d <= 0), 1 + sum(d >= 0)) / 401))
  expect_lt(row$p_value, 0.01)
  same <- res$diff[res$diff$score_a == "good" & res$diff$score_b == "same", ]
  expect_identical(same$p_value, c(1, 1))
  expect_identical(same$std_error, c(0, 0))
  set.seed(1)
  nrm <- run_ci_bootstrap(list(s1, s2), f, "aurc", times = 400,
    type = "normal")
  expect_equal(nrm$diff$p_value,
    2 * stats::pnorm(-abs(nrm$diff$estimate) / nrm$diff$std_error))
})

test_that("p-values of paired differences hold their level under H0", {
  skip_on_cran()
  set.seed(18)
  p <- vapply(1:200, function(k) {
    n <- 100
    y <- stats::rbinom(n, 1, 0.3)
    s1 <- stats::rnorm(n) - y
    s2 <- stats::rnorm(n) - y # exchangeable with s1: H0 holds
    run_ci_bootstrap(list(s1, s2), y, "aurc", times = 199)$diff$p_value
  }, 0)
  # level 5 % within about 3 standard errors (sd 1.5 %)
  expect_lt(abs(mean(p <= 0.05) - 0.05), 0.045)
  expect_lt(abs(mean(p <= 0.5) - 0.5), 0.11) # sd 3.5 %
})

test_that("BCa where a metric's influence function is undefined", {
  # the 76th data set of the coverage study's binary model at n = 100:
  # coverage at risk 0.15 has an estimate (0.54) but no influence values
  set.seed(2226)
  for (r in 1:76) {
    z <- stats::rnorm(100)
    loss <- stats::rbinom(100, 1, stats::plogis(-1 - 1.5 * z))
  }
  score <- stats::pnorm(z)
  opts <- list(estimator = "alpha", coverage = 0.7, risk = 0.15)
  inf <- aurc:::metric_influence_many(score, loss, NULL, "coverage_at_risk",
    opts
  )
  expect_true(anyNA(inf$influence))
  expect_equal(unname(inf$estimate), 0.54)
  # the acceleration comes from the jackknife: that of a BCa run whose
  # metrics all lack influence values
  set.seed(5)
  ci <- selective_ci_vec(score, loss, metrics = c("aurc", "coverage_at_risk"),
    risk = 0.15, method = "bootstrap", type = "bca", times = 300
  )
  expect_true(all(is.finite(c(ci$.lower, ci$.upper))))
  set.seed(5)
  jack <- selective_ci_vec(score, loss, metrics = "coverage_at_risk",
    risk = 0.15, method = "bootstrap", type = "bca", times = 300
  )
  expect_equal(ci$.lower[2], jack$.lower)
  expect_equal(ci$.upper[2], jack$.upper)
  # where the jackknife is too large, that BCa interval is NA with the
  # classed warning, and the other metrics keep theirs
  ns <- asNamespace("aurc")
  old <- get("ci_jackknife_max_work", ns)
  unlockBinding("ci_jackknife_max_work", ns)
  assign("ci_jackknife_max_work", 10, ns)
  on.exit({
    assign("ci_jackknife_max_work", old, ns)
    lockBinding("ci_jackknife_max_work", ns)
  })
  set.seed(5)
  expect_warning(
    big <- selective_ci_vec(score, loss,
      metrics = c("aurc", "coverage_at_risk"), risk = 0.15,
      method = "bootstrap", type = "bca", times = 300
    ),
    class = "aurc_warning_bca_undefined"
  )
  expect_equal(big$.lower[1], ci$.lower[1])
  expect_true(is.na(big$.lower[2]) && is.na(big$.upper[2]))
})

test_that("undefined metrics give NA with classed warnings", {
  s <- c(0.1, 0.5, 0.5, 0.9)
  expect_warning(
    res <- run_ci_bootstrap(list(s), c(0, 0, 0, 0), "failure_auroc",
      times = 20
    ),
    class = "aurc_warning_one_class"
  )
  expect_true(is.na(res$estimate[1, 1]) && is.na(res$lower[1, 1]))
  set.seed(3)
  y <- c(1, rep(0, 19))
  expect_warning(
    run_ci_bootstrap(list(seq_len(20) / 20), y, "failure_auroc", times = 50),
    class = "aurc_warning_bootstrap_undefined"
  )
})

test_that("bad input: classed errors naming the argument", {
  s <- c(0.1, 0.4, 0.4, 0.8, 0.9)
  f <- c(1, 0, 1, 0, 0)
  expect_snapshot(error = TRUE, {
    run_ci_bootstrap(list(s), f, "aurc", conf_level = 1)
    run_ci_bootstrap(list(s), f, "aurc", conf_level = 0)
    run_ci_bootstrap(list(s), f, "aurc", times = 1)
    run_ci_bootstrap(list(s), f, "aurc", times = 1e9)
    run_ci_bootstrap(list(s), f, "aurc", strata = 1:3)
    run_ci_bootstrap(list(s), f, "aurc", strata = rep("a", 5))
    run_ci_bootstrap(list(s), f, "aurc", cluster = rep(1, 5))
    run_ci_bootstrap(list(s), f, "aurc", strata = c(1, 1, 2, 2, 2),
      cluster = c(1, 2, 2, 3, 3))
    run_ci_bootstrap(list(s), f, "aurc", indices = matrix(1L, 3, 4))
    run_ci_bootstrap(list(s), f, "aurc", indices = matrix(6L, 3, 5))
    run_ci_bootstrap(list(s), f, "aurc", indices = matrix(1L, 3, 5),
      strata = c(1, 1, 2, 2, 2))
    run_ci_bootstrap(list(s), f, "auroc")
    run_ci_bootstrap(list(s), f, "aurc", type = "student")
    run_ci_bootstrap(list(s), f, "risk_at_coverage")
    run_ci_bootstrap(list(s), f + 0.5, "failure_auroc")
    run_ci_bootstrap(list(s * 2), f, "ece")
    run_ci_bootstrap(list(s), f, "aurc", options = list(estimator = "beta"))
    run_ci_bootstrap(list(s, s[-1]), f, "aurc")
  })
  expect_error(run_ci_bootstrap(list(s), f, "aurc", times = 1e9),
    class = "aurc_error_size"
  )
  big <- stats::runif(2e4)
  expect_error(
    run_ci_bootstrap(list(big), stats::rbinom(2e4, 1, 0.5), "aurc",
      type = "bca", times = 10
    ),
    class = "aurc_error_influence"
  )
})

# Weights at any scale (issue 25, items 3 and 4): frequency weights of any
# size cost the same (one binomial draw per case once the rows outnumber
# the cases 32 times), and the intervals are those of the rows they stand
# for: the bootstrap standard error falls as 1 / sqrt(total weight) and
# agrees with the analytic one; the analytic one at 1e200 is the one at 1
# divided by 1e100.
test_that("bootstrap with huge frequency weights: the rows they stand for", {
  set.seed(11)
  n <- 60
  s <- stats::runif(n)
  l <- stats::rbinom(n, 1, 0.35)
  w0 <- sample(1:3, n, replace = TRUE)
  # each replicate holds exactly the rows the weights stand for
  for (scale in c(1e3, .Machine$integer.max, 2^60)) {
    counts <- aurc:::ci_bootstrap_counts(s, w0 * scale, NULL, NULL, 25,
      c(3, 4)
    )
    expect_equal(rowSums(counts), rep(round(sum(w0 * scale)), 25),
      tolerance = 1e-12
    )
    expect_true(all(counts == round(counts)))
  }
  m <- c("aurc", "augrc", "failure_auroc", "ece")
  base <- selective_ci_vec(s, l, metrics = m, method = "analytic",
    case_weights = w0
  )
  for (scale in c(.Machine$integer.max, 2^70)) {
    boot <- withr::with_seed(5, selective_ci_vec(s, l, metrics = m,
      method = "bootstrap", times = 2000, case_weights = w0 * scale
    ))
    anal <- selective_ci_vec(s, l, metrics = m, method = "analytic",
      case_weights = w0 * scale
    )
    expect_equal(boot$.estimate, anal$.estimate, tolerance = 1e-12)
    # the SE of an SE from 2000 replicates is about 1.6%: 15% is wide
    expect_equal(boot$.std_error / anal$.std_error, rep(1, 4),
      tolerance = 0.15
    )
    # AURC and AUGRC do not depend on the scale of the weights
    expect_equal(anal$.estimate[1:2], base$.estimate[1:2], tolerance = 1e-12)
    # (n / (n - 1) on 120 rows against none: 0.4%)
    expect_equal(anal$.std_error[1:3] * sqrt(scale), base$.std_error[1:3],
      tolerance = 0.01
    )
  }
  # beyond 2^80 rows the bootstrap says it cannot resolve the spread
  expect_error(
    selective_ci_vec(s, l, method = "bootstrap", case_weights = w0 * 1e300),
    class = "aurc_error_value"
  )
})

test_that("analytic intervals with weights at extreme scales", {
  set.seed(12)
  n <- 80
  s <- stats::runif(n)
  l <- stats::rbinom(n, 1, 0.3)
  w <- stats::runif(n, 0.5, 2)
  strata <- rep(1:2, length.out = n)
  cluster <- rep(1:20, each = 4)
  m <- c("aurc", "augrc", "failure_auroc", "failure_aupr")
  # the standard errors of weights w * k, computed directly where they are
  # representable, are those of w divided by sqrt(k) (up to n / (n - 1)
  # on the true weight); the same through the power-of-2 rescaling
  ref <- function(k, ...) {
    selective_ci_vec(s, l, metrics = m, method = "analytic",
      case_weights = w * k, ...
    )
  }
  for (k in c(1e200, 1e-150, 2^-80)) {
    for (args in list(list(), list(strata = strata), list(cluster = cluster))) {
      clustered <- length(args) && names(args) == "cluster"
      if (k < 1 && !clustered) {
        # fewer than 2 rows in all: no standard error, as unscaled
        expect_warning(a <- do.call(ref, c(list(k), args)),
          class = "aurc_warning_no_interval"
        )
        expect_true(all(is.na(a$.std_error)))
      } else {
        a <- do.call(ref, c(list(k), args))
      }
      b <- do.call(ref, c(list(1e6), args)) # directly, within range
      expect_equal(a$.estimate, b$.estimate, tolerance = 1e-12)
      expect_true(all(is.finite(a$.estimate)))
      if (k < 1 && !clustered) next
      shrink <- if (clustered) 1 else sqrt(k / 1e6)
      expect_equal(a$.std_error * shrink, b$.std_error, tolerance = 1e-6)
    }
  }
  # fewer rows than 2 in a stratum: no standard error, as without rescaling
  expect_warning(
    tiny <- ref(1e-170),
    class = "aurc_warning_no_interval"
  )
  expect_true(all(is.na(tiny$.std_error)))
})
