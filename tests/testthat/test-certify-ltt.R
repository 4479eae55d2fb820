# Learn then Test in certify_threshold(method = "ltt").

# Tiny data: candidates (decreasing) 0.9, 0.8, 0.7, 0.5, 0.4 accept
# m = 1, 3, 4, 5, 6 samples with k = 0, 0, 0, 1, 2 failures.
hand_score <- c(0.9, 0.8, 0.8, 0.7, 0.5, 0.4)
hand_failure <- c(0, 0, 0, 0, 1, 1)

test_that("LTT binomial p-values and the three FWER procedures, by hand", {
  # P(Bin(m, 1/2) <= k) by counting
  p <- c(1 / 2, 1 / 8, 1 / 16, (1 + 5) / 32, (1 + 6 + 15) / 64)
  fs <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.5,
    method = "ltt"
  )
  cand <- attr(fs, "candidates")
  expect_equal(cand$threshold, c(0.9, 0.8, 0.7, 0.5, 0.4))
  expect_equal(cand$n_accepted, c(1, 3, 4, 5, 6))
  expect_equal(cand$failures, c(0, 0, 0, 1, 2))
  expect_equal(cand$p_value, p, tolerance = 1e-14)
  expect_equal(cand$p_risk, p, tolerance = 1e-14)
  expect_true(all(is.na(cand$p_abstention)))
  # fixed sequence at 0.5: every p <= 0.5, all rejected
  expect_equal(cand$rejected, rep(TRUE, 5))
  expect_equal(fs$threshold, 0.4)
  expect_equal(fs$coverage, 1)
  expect_equal(fs$p_value, 22 / 64)
  # Bonferroni: p <= 0.5 / 5 = 0.1 only at 0.7
  bo <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.5,
    method = "ltt", fwer = "bonferroni"
  )
  expect_equal(attr(bo, "candidates")$rejected,
    c(FALSE, FALSE, TRUE, FALSE, FALSE)
  )
  expect_equal(bo$threshold, 0.7)
  expect_equal(bo$coverage, 4 / 6)
  # Holm at 0.52: 1/16 <= 0.52/5, 1/8 <= 0.52/4, 6/32 > 0.52/3: rejects
  # 0.7 and 0.8
  ho <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.52,
    method = "ltt", fwer = "holm"
  )
  expect_equal(attr(ho, "candidates")$rejected,
    c(FALSE, TRUE, TRUE, FALSE, FALSE)
  )
  expect_equal(ho$threshold, 0.7)
  # fixed sequence at 0.2 stops at once (1/2 > 0.2): nothing certified
  expect_warning(
    none <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.2,
      method = "ltt"
    ),
    class = "aurc_warning_not_certified"
  )
  expect_true(is.na(none$threshold))
  expect_equal(none$coverage, 0)
  expect_snapshot(
    none <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.2,
      method = "ltt"
    )
  )
  # ... but over the grid 0.75, 0.65, 0.45, 0.3 it starts at m = 3:
  # 1/8, 1/16, 6/32 <= 0.2, then 22/64 > 0.2
  gr <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.2,
    method = "ltt", thresholds = c(0.3, 0.75, 0.65, 0.45, 0.65)
  )
  cand <- attr(gr, "candidates")
  expect_equal(cand$threshold, c(0.75, 0.65, 0.45, 0.3))
  expect_equal(cand$n_accepted, c(3, 4, 5, 6))
  expect_equal(cand$p_value, p[2:5], tolerance = 1e-14)
  expect_equal(cand$rejected, c(TRUE, TRUE, TRUE, FALSE))
  expect_equal(gr$threshold, 0.45)
  expect_equal(gr$coverage, 5 / 6)
  # a grid value above every score accepts nothing: p-value 1
  top <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.3,
    method = "ltt", thresholds = c(2, 0.75), fwer = "holm"
  )
  expect_equal(attr(top, "candidates")$n_accepted, c(0, 3))
  expect_equal(attr(top, "candidates")$p_value, c(1, 1 / 8))
  expect_equal(top$threshold, 0.75)
})

test_that("LTT agrees with binom.test() and p.adjust()", {
  set.seed(5)
  score <- round(runif(500), 2)
  fail <- rbinom(500, 1, 0.3 * (1 - score))
  for (fwer in c("holm", "bonferroni")) {
    res <- suppressWarnings(certify_threshold(score, fail, 0.1,
      delta = 0.05, method = "ltt", fwer = fwer
    ))
    cand <- attr(res, "candidates")
    # the exact one-sided binomial test of H: risk >= 0.1
    ref <- mapply(function(k, m) {
      stats::binom.test(k, m, 0.1, alternative = "less")$p.value
    }, cand$failures, cand$n_accepted)
    expect_equal(cand$p_value, ref, tolerance = 1e-10)
    expect_identical(cand$rejected,
      stats::p.adjust(cand$p_value, method = fwer) <= 0.05
    )
  }
})

test_that("LTT Hoeffding-Bentkus p-values by hand, 0/1 and [0, 1] losses", {
  h1 <- function(a, b) {
    (if (a > 0) a * log(a / b) else 0) + (1 - a) * log((1 - a) / (1 - b))
  }
  res <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.5,
    method = "ltt", p_value = "hoeffding_bentkus"
  )
  p <- attr(res, "candidates")$p_value
  # m = 3, k = 0: Hoeffding exp(-3 log 2) = 1/8 < Bentkus e / 8
  expect_equal(p[2], 1 / 8, tolerance = 1e-14)
  # m = 5, k = 1: rhat = 0.2
  expect_equal(p[4],
    min(exp(-5 * h1(0.2, 0.5)), exp(1) * 6 / 32),
    tolerance = 1e-14
  )
  # m = 6, k = 2
  expect_equal(p[5],
    min(exp(-6 * h1(1 / 3, 0.5)), exp(1) * 22 / 64),
    tolerance = 1e-14
  )
  # a loss in [0, 1]: at 0.4 (all 6) the sum is 1.3, rhat = 1.3 / 6, and
  # Bentkus uses ceiling(1.3) = 2
  loss <- c(0, 0.25, 0, 0.25, 0.4, 0.4)
  res <- certify_threshold(hand_score, loss, 0.5, delta = 0.5,
    method = "ltt", p_value = "hoeffding_bentkus"
  )
  cand <- attr(res, "candidates")
  expect_equal(cand$failures, c(0, 0.25, 0.5, 0.9, 1.3))
  expect_equal(cand$risk, c(0, 0.25 / 3, 0.5 / 4, 0.9 / 5, 1.3 / 6))
  expect_equal(cand$p_value[5],
    min(exp(-6 * h1(1.3 / 6, 0.5)), exp(1) * pbinom(2, 6, 0.5)),
    tolerance = 1e-14
  )
  # rhat above the target: h1(target, target) = 0, p-value 1
  res <- suppressWarnings(certify_threshold(hand_score, loss, 0.1,
    delta = 0.5, method = "ltt", p_value = "hoeffding_bentkus",
    fwer = "holm"
  ))
  expect_equal(attr(res, "candidates")$p_value[5], 1)
})

test_that("LTT with an abstention limit: the joint p-value is the max", {
  # P(Bin(6, 1/2) <= 6 - m) for m = 1, 3, 4, 5, 6
  pa <- c(63, 42, 22, 7, 1) / 64
  pr <- c(1 / 2, 1 / 8, 1 / 16, 6 / 32, 22 / 64)
  # (Bonferroni at 0.5 / 5 rejects none of them: not certified)
  expect_warning(
    res <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.5,
      method = "ltt", fwer = "bonferroni", max_abstention = 0.5
    ),
    class = "aurc_warning_not_certified"
  )
  cand <- attr(res, "candidates")
  expect_equal(cand$p_abstention, pa, tolerance = 1e-14)
  expect_equal(cand$p_value, pmax(pr, pa), tolerance = 1e-14)
  # the HB option does not change the abstention p-value (0/1, exact)
  hb <- suppressWarnings(certify_threshold(hand_score, hand_failure, 0.5,
    delta = 0.5, method = "ltt", p_value = "hoeffding_bentkus",
    max_abstention = 0.5, fwer = "bonferroni"
  ))
  expect_equal(attr(hb, "candidates")$p_abstention, pa, tolerance = 1e-14)
  # Bonferroni at 0.5 / 5: none of max(pr, pa) is small enough
  expect_false(any(cand$rejected))
  # fixed sequence, each risk at delta / 2, over the grid 0.75, 0.65, 0.45,
  # 0.3 (m = 3, 4, 5, 6): the risk from the top, the abstention where
  # pa <= delta / 2
  grid <- c(0.75, 0.65, 0.45, 0.3)
  pr <- pr[2:5]
  pa <- pa[2:5]
  # delta / 2 = 0.4: every pr passes; pa = 42/64 > 0.4, then 22/64, 7/64,
  # 1/64 pass
  fs <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.8,
    method = "ltt", max_abstention = 0.5, thresholds = grid
  )
  cand <- attr(fs, "candidates")
  expect_equal(cand$p_value, pmax(pr, pa), tolerance = 1e-14)
  expect_equal(cand$rejected, c(FALSE, TRUE, TRUE, TRUE))
  expect_equal(fs$threshold, 0.3)
  expect_equal(fs$max_abstention, 0.5)
  # delta / 2 = 0.3: the risk stops at 22/64 > 0.3, the abstention needs
  # pa <= 0.3 (7/64 and 1/64): only 0.45 is left
  fs <- certify_threshold(hand_score, hand_failure, 0.5, delta = 0.6,
    method = "ltt", max_abstention = 0.5, thresholds = grid
  )
  expect_equal(attr(fs, "candidates")$rejected, c(FALSE, FALSE, TRUE, FALSE))
  expect_equal(fs$threshold, 0.45)
  expect_equal(fs$coverage, 5 / 6)
})

# Plain-R Learn then Test: loop over every candidate threshold.
ltt_literal <- function(score, loss, alpha, delta, p_value, fwer,
                        beta = NULL, grid = NULL) {
  cand <- if (is.null(grid)) {
    sort(unique(score), decreasing = TRUE)
  } else {
    sort(unique(grid), decreasing = TRUE)
  }
  n <- length(score)
  d <- length(cand)
  m <- k <- pr <- pa <- numeric(d)
  for (j in seq_len(d)) {
    acc <- score >= cand[j]
    m[j] <- sum(acc)
    k[j] <- sum(loss[acc])
    pr[j] <- if (m[j] == 0) {
      1
    } else if (p_value == "binomial") {
      pbinom(k[j], m[j], alpha)
    } else {
      r <- min(k[j] / m[j], alpha)
      h <- (if (r > 0) r * log(r / alpha) else 0) +
        (1 - r) * log((1 - r) / (1 - alpha))
      min(exp(-m[j] * h),
        exp(1) * pbinom(ceiling(round(k[j], 9)), m[j], alpha))
    }
    pa[j] <- if (is.null(beta)) NA else pbinom(n - m[j], n, beta)
  }
  p <- if (is.null(beta)) pr else pmax(pr, pa)
  rej <- logical(d)
  if (fwer == "fixed_sequence" && !is.null(beta)) {
    for (j in seq_len(d)) {
      if (pr[j] > delta / 2) break
      rej[j] <- pa[j] <= delta / 2
    }
  } else if (fwer == "fixed_sequence") {
    for (j in seq_len(d)) {
      if (p[j] > delta) break
      rej[j] <- TRUE
    }
  } else if (fwer == "bonferroni") {
    rej <- p <= delta / d
  } else {
    o <- order(p)
    for (i in seq_len(d)) {
      if (p[o[i]] > delta / (d - i + 1)) break
      rej[o[i]] <- TRUE
    }
  }
  list(threshold = cand, m = m, k = k, pr = pr, pa = pa, p = p, rej = rej)
}

test_that("LTT matches a plain-R loop over every threshold", {
  set.seed(271)
  for (rep in 1:4) {
    n <- sample(c(40, 300, 1000), 1)
    # ties: scores on a coarse grid
    score <- round(runif(n), sample(1:3, 1))
    fail <- rbinom(n, 1, 0.5 * (1 - score)^2)
    cont <- pmin(1, runif(n) * (1 - score))
    for (cfg in list(
      list("binomial", fail), list("hoeffding_bentkus", fail),
      list("hoeffding_bentkus", cont)
    )) {
      for (fwer in c("fixed_sequence", "holm", "bonferroni")) {
        for (beta in list(NULL, 0.6)) {
          for (grid in list(NULL, seq(1.05, -0.05, by = -0.05))) {
            got <- suppressWarnings(certify_threshold(score, cfg[[2]], 0.1,
              delta = 0.2, method = "ltt", p_value = cfg[[1]], fwer = fwer,
              max_abstention = beta, thresholds = grid
            ))
            ref <- ltt_literal(score, cfg[[2]], 0.1, 0.2, cfg[[1]], fwer,
              beta, grid
            )
            cand <- attr(got, "candidates")
            expect_equal(cand$threshold, ref$threshold)
            expect_equal(cand$n_accepted, ref$m)
            expect_equal(cand$failures, ref$k, tolerance = 1e-12)
            expect_equal(cand$p_risk, ref$pr, tolerance = 1e-12)
            expect_equal(cand$p_value, ref$p, tolerance = 1e-12)
            expect_identical(cand$rejected, ref$rej)
            if (any(ref$rej)) {
              j <- max(which(ref$rej))
              expect_equal(got$threshold, ref$threshold[j])
              expect_equal(got$coverage, ref$m[j] / n)
            } else {
              expect_true(is.na(got$threshold))
            }
          }
        }
      }
    }
  }
})

# Simulation model: score ~ U(0, 1), loss with mean g(s) = 0.4 (1 - s)^2
# (Bernoulli, or uniform on [0, 0.8 (1 - s)^2] for a continuous loss). The
# population selective risk is R(t) = 0.4 (1 - t)^2 / 3 and the abstention
# rate A(t) = t.
ltt_sim <- function(reps, n = 2000, alpha = 0.05, delta = 0.1,
                    beta = NULL, seed = 1) {
  set.seed(seed)
  # a grid fixed in advance whose first value accepts ~5% of the samples
  grid <- seq(0.95, 0, by = -0.01)
  configs <- list(
    sgr = list(method = "sgr"),
    fs_binom = list(p_value = "binomial", fwer = "fixed_sequence",
      thresholds = grid),
    holm_binom = list(p_value = "binomial", fwer = "holm"),
    bonf_binom = list(p_value = "binomial", fwer = "bonferroni"),
    fs_hb = list(p_value = "hoeffding_bentkus", fwer = "fixed_sequence",
      thresholds = grid),
    holm_grid = list(p_value = "binomial", fwer = "holm",
      thresholds = grid),
    fs_hb_cont = list(p_value = "hoeffding_bentkus",
      fwer = "fixed_sequence", thresholds = grid, continuous = TRUE),
    holm_hb_cont = list(p_value = "hoeffding_bentkus", fwer = "holm",
      continuous = TRUE)
  )
  if (!is.null(beta)) {
    configs <- configs[c("fs_binom", "holm_grid", "fs_hb_cont")]
  }
  err <- cov <- matrix(NA, reps, length(configs),
    dimnames = list(NULL, names(configs))
  )
  for (r in seq_len(reps)) {
    s <- runif(n)
    g <- 0.4 * (1 - s)^2
    f <- rbinom(n, 1, g)
    l <- runif(n, 0, 2 * g)
    for (nm in names(configs)) {
      cf <- configs[[nm]]
      loss <- if (isTRUE(cf$continuous)) l else f
      res <- suppressWarnings(if (identical(cf$method, "sgr")) {
        certify_threshold(s, loss, alpha, delta = delta)
      } else {
        certify_threshold(s, loss, alpha, delta = delta, method = "ltt",
          p_value = cf$p_value, fwer = cf$fwer, max_abstention = beta,
          thresholds = cf$thresholds
        )
      })
      t <- res$threshold
      err[r, nm] <- !is.na(t) && (0.4 * (1 - t)^2 / 3 > alpha ||
        (!is.null(beta) && t > beta))
      cov[r, nm] <- res$coverage
    }
  }
  list(error = colMeans(err), coverage = colMeans(cov))
}

# The share of errors may exceed delta only by Monte-Carlo noise: below the
# 0.999 quantile of Bin(reps, delta) / reps.
ltt_slack <- function(reps, delta) qbinom(0.999, reps, delta) / reps

test_that("LTT keeps the risk below the target with prob >= 1 - delta", {
  skip_on_cran()
  sim <- ltt_sim(200, seed = 11)
  expect_true(all(sim$error <= ltt_slack(200, 0.1)))
  # every method certifies something on average, and nothing beyond the
  # oracle coverage 1 - t* = sqrt(3 * 0.05 / 0.4) = 0.612
  expect_true(all(sim$coverage > 0.1))
  expect_true(all(sim$coverage < sqrt(3 * 0.05 / 0.4)))
  # SGR (delta split over ~11 steps) against LTT: fixed sequence over a
  # grid pays no multiplicity and certifies more; Holm over the ~2000
  # distinct scores tests at ~delta / 2000 and certifies less
  expect_gt(sim$coverage[["fs_binom"]], sim$coverage[["sgr"]])
  expect_lt(sim$coverage[["holm_binom"]], sim$coverage[["sgr"]])
  # two risks: abstention at most 0.6 too (feasible t in [0.388, 0.6])
  sim2 <- ltt_sim(200, beta = 0.6, seed = 12)
  expect_true(all(sim2$error <= ltt_slack(200, 0.1)))
  expect_true(all(sim2$coverage > 0.1))
  expect_true(all(sim2$coverage < sqrt(3 * 0.05 / 0.4)))
})

test_that("LTT validity, long simulation", {
  skip_if_not_slow()
  sim <- ltt_sim(1000, seed = 21)
  expect_true(all(sim$error <= ltt_slack(1000, 0.1)))
  sim2 <- ltt_sim(1000, beta = 0.6, seed = 22)
  expect_true(all(sim2$error <= ltt_slack(1000, 0.1)))
})

test_that("LTT arguments are validated with classed conditions", {
  s <- c(0.9, 0.8, 0.7)
  f <- c(0, 1, 0)
  expect_error(certify_threshold(s, f, 0.1, method = "lt"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(s, f, 0.1, method = "ltt", p_value = "hb"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(s, f, 0.1, method = "ltt", fwer = 1),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, f, 0.1, method = "ltt", max_abstention = 1),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, f, 0.1, method = "ltt", max_abstention = "a"),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, f, 0.1, method = "ltt", thresholds = c(0.5, NA)),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, f, 0.1, method = "ltt", thresholds = numeric()),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, f, 0.1, method = "ltt", thresholds = "0.5"),
    class = "aurc_error_type"
  )
  # a loss in [0, 1] needs Hoeffding-Bentkus; above 1 is always an error
  expect_error(
    certify_threshold(s, c(0, 0.5, 1), 0.1, method = "ltt"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(s, c(0, 0.5, 1), 0.1),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, c(0, 1.5, 1), 0.1, method = "ltt",
      p_value = "hoeffding_bentkus"
    ),
    class = "aurc_error_value"
  )
  expect_error(
    certify_threshold(s, c(0, 1), 0.1, method = "ltt",
      p_value = "hoeffding_bentkus"
    ),
    class = "aurc_error_length"
  )
  expect_error(
    certify_threshold(c(s, NA), c(f, 0), 0.1, method = "ltt"),
    class = "aurc_error_missing"
  )
  # LTT options given to SGR: ignored with a classed warning, same result
  s2 <- seq(0.05, 1, by = 0.05)
  f2 <- rep(0, 20)
  expect_warning(
    res <- certify_threshold(s2, f2, 0.5, 0.5, fwer = "holm",
      max_abstention = 0.5
    ),
    class = "aurc_warning_ignored"
  )
  expect_equal(res, certify_threshold(s2, f2, 0.5, 0.5))
  expect_warning(
    certify_threshold(s2, f2, 0.5, 0.5, p_value = "binomial"),
    class = "aurc_warning_ignored"
  )
  expect_warning(
    certify_threshold(s2, f2, 0.5, 0.5, thresholds = 0.5),
    class = "aurc_warning_ignored"
  )
  # na_rm drops incomplete pairs as for SGR
  expect_equal(
    certify_threshold(c(s, NA), c(f, 1), 0.5, 0.5, method = "ltt",
      na_rm = TRUE
    ),
    certify_threshold(s, f, 0.5, 0.5, method = "ltt")
  )
})
