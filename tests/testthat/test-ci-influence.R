test_that("influence values match numerical derivatives, ties and weights", {
  set.seed(11)
  n <- 40
  s <- round(rnorm(n), 1) # ties
  f <- rbinom(n, 1, plogis(-s))
  lc <- rexp(n)
  w <- sample(c(1, 2, 3), n, replace = TRUE)
  conf <- round(runif(n), 2)
  cases <- list(
    list("aurc", lc, function(ww, e) {
      aurc_vec(s, lc, estimator = e, case_weights = ww)
    }),
    list("augrc", lc, function(ww, e) augrc_vec(s, lc, case_weights = ww)),
    list("failure_auroc", f, function(ww, e) {
      failure_auroc_vec(s, f, case_weights = ww)
    }),
    list("failure_aupr", f, function(ww, e) {
      failure_aupr_vec(s, f, case_weights = ww)
    }),
    list("eaugrc", f, function(ww, e) eaugrc_vec(s, f, case_weights = ww))
  )
  idx <- c(1, 7, 18, 33)
  for (cs in cases) {
    ests <- if (cs[[1]] == "aurc") {
      c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")
    } else {
      "alpha"
    }
    for (est in ests) {
      for (ww in list(rep(1, n), w)) {
        res <- metric_influence(s, cs[[2]], ww, cs[[1]],
          list(estimator = est)
        )
        num <- vapply(idx, function(i) {
          numeric_influence(function(v) cs[[3]](v, est), ww, i)
        }, numeric(1))
        expect_equal(res$influence[idx], num, tolerance = 1e-6,
          info = paste(cs[[1]], est)
        )
        expect_equal(sum(ww * res$influence), 0, tolerance = 1e-10)
      }
    }
  }
  # ECE with equal-width bins: confidence = score, correct = 1 - loss
  res <- metric_influence(conf, f, w, "ece", list(n_bins = 5))
  expect_equal(res$estimate, ece_vec(conf, 1 - f,
    binning = "equal_width",
    n_bins = 5, case_weights = w
  ), tolerance = 1e-12)
  num <- vapply(idx, function(i) {
    numeric_influence(function(v) {
      ece_vec(conf, 1 - f,
        binning = "equal_width", n_bins = 5,
        case_weights = v
      )
    }, w, i)
  }, numeric(1))
  expect_equal(res$influence[idx], num, tolerance = 1e-6)
})

test_that("V-statistic and DeLong influence values equal the double loops", {
  set.seed(12)
  n <- 30
  s <- round(runif(n), 1)
  f <- rbinom(n, 1, 0.4)
  lc <- rexp(n)
  expect_equal(metric_influence(s, lc, NULL, "augrc")$influence,
    literal_if_augrc(s, lc),
    tolerance = 1e-12
  )
  expect_equal(
    metric_influence(s, lc, NULL, "aurc", list(estimator = "sele"))$influence,
    literal_if_sele(s, lc),
    tolerance = 1e-12
  )
  expect_equal(
    metric_influence(s, lc, NULL, "augrc", list(method = "step"))$influence,
    literal_if_sele(s, lc),
    tolerance = 1e-12
  )
  expect_equal(metric_influence(s, f, NULL, "failure_auroc")$influence,
    literal_if_delong(s, f),
    tolerance = 1e-12
  )
})

test_that("E-AURC and NAURC influence use the population optimum", {
  set.seed(13)
  n <- 50
  s <- round(rnorm(n), 1)
  lc <- round(rexp(n), 1) # tied losses
  w <- sample(1:3, n, replace = TRUE)
  a <- metric_influence(s, lc, w, "aurc")
  e <- metric_influence(s, lc, w, "eaurc")
  idx <- c(2, 9, 31)
  opt_if <- vapply(idx, function(i) {
    numeric_influence(function(v) literal_population_optimum(lc, v), w, i)
  }, numeric(1))
  expect_equal(a$influence[idx] - e$influence[idx], opt_if, tolerance = 1e-6)
  expect_equal(e$estimate, eaurc_vec(s, lc, case_weights = w),
    tolerance = 1e-12
  )
  # NAURC: the delta method of (A - A*) / (mu - A*)
  nr <- metric_influence(s, lc, w, "naurc")
  mu <- sum(w * lc) / sum(w)
  opt <- aurc_vec(s, lc, case_weights = w) -
    eaurc_vec(s, lc, case_weights = w)
  d <- mu - opt
  if_opt <- a$influence - e$influence
  expected <- e$influence / d -
    nr$estimate * ((lc - mu) - if_opt) / d
  expect_equal(nr$influence, expected - sum(w * expected) / sum(w),
    tolerance = 1e-10
  )
  # 0/1 loss: the oracle influence is that of err + (1 - err) log(1 - err)
  f <- rbinom(n, 1, 0.3)
  err <- mean(f)
  ea <- metric_influence(s, f, NULL, "eaurc")$influence
  aa <- metric_influence(s, f, NULL, "aurc")$influence
  expect_equal(aa - ea, -log(1 - err) * (f - err), tolerance = 1e-10)
  asym <- metric_influence(s, f, NULL, "eaurc", list(optimum = "asymptotic"))
  expect_equal(asym$influence, ea, tolerance = 1e-10)
})

test_that("integer weights give the influence values of repeated rows", {
  set.seed(14)
  n <- 60
  s <- round(rnorm(n), 1)
  f <- rbinom(n, 1, plogis(-s))
  w <- sample(0:3, n, replace = TRUE)
  rows <- rep(seq_len(n), w)
  for (m in c(
    "aurc", "augrc", "failure_auroc", "failure_aupr", "eaurc",
    "eaugrc", "naurc", "risk_at_coverage"
  )) {
    for (est in c("alpha", "alpha_prime", "trapezoid")) {
      o <- list(estimator = est, coverage = 0.6)
      a <- metric_influence(s, f, w, m, o)
      b <- metric_influence(s[rows], f[rows], NULL, m, o)
      expect_equal(a$estimate, b$estimate, tolerance = 1e-12)
      expect_equal(a$influence[rows], b$influence, tolerance = 1e-10,
        info = paste(m, est)
      )
    }
  }
})

test_that("influence values do not depend on the row order", {
  set.seed(15)
  n <- 80
  s <- round(rnorm(n), 1)
  lc <- rexp(n)
  perm <- sample(n)
  for (m in c("aurc", "augrc", "eaurc", "naurc", "risk_at_coverage")) {
    a <- metric_influence(s, lc, NULL, m, list(coverage = 0.5))
    b <- metric_influence(s[perm], lc[perm], NULL, m, list(coverage = 0.5))
    expect_equal(a$influence[perm], b$influence, tolerance = 1e-12)
  }
})

test_that("risk at coverage influence is the fixed-threshold one when locked", {
  # a tie group of size >= sqrt(n) at the threshold: the threshold is fixed
  s <- rep(1:4, each = 25)
  f <- rep(c(0, 1, 0, 1), 25)
  res <- metric_influence(s, f, NULL, "risk_at_coverage",
    list(coverage = 0.5)
  )
  acc <- s >= 3
  theta <- mean(f[acc])
  expected <- acc * (f - theta) / mean(acc)
  expect_equal(res$influence, expected - mean(expected), tolerance = 1e-12)
})

test_that("standard errors without the influence values are the same", {
  # influence_impl(values = FALSE) reads the influence values in sorted
  # order (src/core/influence.h, metric_se_sorted()); the general path
  # writes them in input order and takes influence_se() of them
  set.seed(41)
  metrics <- c(
    "aurc", "augrc", "failure_auroc", "failure_aupr", "risk_at_coverage",
    "eaugrc", "eaurc", "naurc", "mean_loss"
  )
  binary <- c("failure_auroc", "failure_aupr", "eaugrc")
  for (n in c(1, 2, 3, 7, 60, 500)) {
    score <- round(stats::runif(n), 1)
    failure <- stats::rbinom(n, 1, 0.3)
    loss <- round(stats::rexp(n), 1)
    for (m in metrics) {
      for (est in c("alpha", "trapezoid", "sele", "alpha_prime")) {
        if (!m %in% c("aurc", "eaurc", "naurc") && est != "alpha") next
        for (optimum in c("exact", if (m == "eaurc") "asymptotic")) {
          l <- if (m %in% binary || optimum == "asymptotic") failure else loss
          run <- function(values) {
            aurc:::influence_impl(score, as.double(l), double(), m, est,
              "trapezoid", optimum, 0.5, 0.5, 10L, double(), 1L, values
            )
          }
          a <- run(TRUE)
          b <- run(FALSE)
          expect_null(b$influence)
          expect_identical(unname(b$estimate), unname(a$estimate))
          expect_equal(unname(b$std_error), unname(a$std_error),
            tolerance = 1e-12
          )
        }
      }
    }
  }
})
