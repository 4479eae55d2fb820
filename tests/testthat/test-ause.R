# AUSE (R/metric-ause.R) and the sparsification curve
# (R/curve-sparsification.R): each definition against its own literal
# definition, torch-uncertainty's test data, and the identity with E-AURC.

# torch-uncertainty's AUSE, written from its definition: the rows sorted by
# uncertainty in the order `ord` (ascending), R_0 = S and R_j the summed
# error of the n - j + 1 first, trapezoid over x_j = j / (n + 1).
literal_ause_tu <- function(u, e, ord = order(u), ord_star = order(e)) {
  n <- length(e)
  rates <- function(o) {
    c(sum(e), rev(cumsum(e[o]))) / sum(e)
  }
  y <- rates(ord) - rates(ord_star)
  x <- (0:n) / (n + 1)
  sum(diff(x) * (y[-1] + y[-(n + 1)]) / 2)
}

# Ilg et al.: for k = 0..n-1 remove the k most uncertain rows and take the
# mean error of the rest; ties: the kept set is every row at most as
# uncertain as the (n - k)-th least uncertain (tie groups kept together).
# The oracle removes the k largest errors (ties in the error do not matter).
literal_ause_ilg <- function(u, e) {
  n <- length(e)
  su <- sort(u)
  se <- sort(e)
  steps <- vapply(0:(n - 1), function(k) {
    kept <- u <= su[n - k]
    mean(e[kept]) - mean(se[seq_len(n - k)])
  }, numeric(1))
  mean(steps)
}

test_that("torch-uncertainty's test data, computed by hand", {
  # test_compute_zero: the uncertainty equals the error, AUSE 0
  values <- c(0.1, 0.2, 0.3, 0.4, 0.5)
  expect_equal(ause_vec(values, values, definition = "torch_uncertainty"), 0)
  expect_equal(ause_vec(values, values, definition = "ilg"), 0)
  # test_plot's data: scores 0.2 0.1 0.5 0.3 0.4, errors 0.1 .. 0.5
  u <- c(0.2, 0.1, 0.5, 0.3, 0.4)
  e <- c(0.1, 0.2, 0.3, 0.4, 0.5)
  # torch-uncertainty: errors by increasing uncertainty 0.2 0.1 0.4 0.5 0.3,
  # running sums 0.2 0.3 0.7 1.2 1.5; the curve is 1.5 then these reversed,
  # over S = 1.5. Oracle sums 0.1 0.3 0.6 1.0 1.5. Differences over S at
  # x = 0..5 / 6: 0 0 0.2 0.1 0 0.1 (times 1 / 1.5); the trapezoid is
  # (1/6) (0 + 0.2 + 0.1 + 0 + (0 + 0.1) / 2) / 1.5 = 0.35 / 9.
  expect_equal(ause_vec(u, e, definition = "torch_uncertainty"), 0.35 / 9)
  # Ilg: means after removing 0..4 most uncertain: 1.5/5, 1.2/4, 0.7/3,
  # 0.3/2, 0.2/1; oracle 1.5/5, 1.0/4, 0.6/3, 0.3/2, 0.1/1
  model <- c(1.5 / 5, 1.2 / 4, 0.7 / 3, 0.3 / 2, 0.2)
  oracle <- c(1.5 / 5, 1.0 / 4, 0.6 / 3, 0.3 / 2, 0.1)
  expect_equal(ause_vec(u, e), mean(model - oracle))
  expect_equal(ause_vec(u, e), 0.55 / 15)
  # errors near the largest double: the sum does not overflow
  expect_equal(ause_vec(u, e * 1e307, definition = "torch_uncertainty"),
    0.35 / 9
  )
  expect_equal(ause_vec(u, e * 1e307), 0.55 / 15 * 1e307)
  # the two definitions differ on the same data
  expect_false(isTRUE(all.equal(
    ause_vec(u, e), ause_vec(u, e, definition = "torch_uncertainty")
  )))
})

test_that("each definition equals its literal definition on random data", {
  set.seed(361)
  for (rep in 1:20) {
    n <- sample(2:40, 1)
    u <- runif(n)
    e <- abs(rnorm(n))
    expect_equal(ause_vec(u, e, definition = "torch_uncertainty"),
      literal_ause_tu(u, e)
    )
    expect_equal(ause_vec(u, e), literal_ause_ilg(u, e))
    # with ties in the uncertainty and in the error
    u <- round(u, 1)
    e <- round(e)
    expect_equal(ause_vec(u, e), literal_ause_ilg(u, e))
  }
})

test_that("torch-uncertainty at ties is the mean over the orders of ties", {
  perms <- function(x) {
    if (length(x) <= 1) return(list(x))
    out <- list()
    for (i in seq_along(x)) {
      for (p in perms(x[-i])) out[[length(out) + 1]] <- c(x[i], p)
    }
    out
  }
  set.seed(362)
  u <- c(1, 1, 2, 2, 2, 3, 0.5)
  e <- c(0.3, 1.2, 0, 2, 0.7, 0.1, 0.9)
  a <- perms(which(u == 1))
  b <- perms(which(u == 2))
  vals <- c()
  for (pa in a) {
    for (pb in b) {
      ord <- c(7, pa, pb, 6)
      vals <- c(vals, literal_ause_tu(u, e, ord = ord))
    }
  }
  expect_length(vals, 12)
  expect_equal(ause_vec(u, e, definition = "torch_uncertainty"), mean(vals))
  expect_gt(diff(range(vals)), 0.01)
})

test_that("whole case weights are repeated rows; NA rows with na_rm", {
  set.seed(363)
  u <- round(runif(15), 1)
  e <- round(abs(rnorm(15)), 1)
  w <- sample(0:3, 15, TRUE)
  rows <- rep(seq_along(u), w)
  for (d in c("ilg", "torch_uncertainty")) {
    expect_equal(ause_vec(u, e, definition = d, case_weights = w),
      ause_vec(u[rows], e[rows], definition = d)
    )
    un <- c(u, NA, 0.3)
    en <- c(e, 1, NA)
    expect_equal(ause_vec(un, en, definition = d), NA_real_)
    expect_equal(ause_vec(un, en, definition = d, na_rm = TRUE),
      ause_vec(u, e, definition = d)
    )
  }
  expect_error(
    ause_vec(u, e, definition = "torch_uncertainty", case_weights = w / 2),
    class = "aurc_error_value"
  )
})

test_that("Ilg's AUSE is E-AURC of -uncertainty (alpha, exact optimum)", {
  set.seed(364)
  for (rep in 1:10) {
    n <- sample(3:60, 1)
    u <- round(runif(n), 1)
    e <- rexp(n)
    expect_equal(literal_ause_ilg(u, e),
      eaurc_vec(-u, e, estimator = "alpha", optimum = "exact")
    )
  }
  # hence its intervals: E-AURC's, with the same estimate
  u <- runif(200)
  e <- abs(rnorm(200, sd = 0.2 + u))
  ci <- selective_ci_vec(-u, e, metrics = "eaurc")
  expect_equal(ci$.estimate, ause_vec(u, e))
  expect_lt(ci$.lower, ci$.estimate)
  expect_gt(ci$.upper, ci$.estimate)
})

test_that("torch-uncertainty's AUSE is E-AURC (sele) over the total error", {
  set.seed(367)
  for (rep in 1:10) {
    n <- sample(3:50, 1)
    u <- runif(n)
    e <- rexp(n)
    top <- e[which.min(u)]
    expect_equal(ause_vec(u, e, definition = "torch_uncertainty"),
      (n^2 * eaurc_vec(-u, e, estimator = "sele") - (top - min(e)) / 2) /
        ((n + 1) * sum(e))
    )
  }
})

test_that("the data-frame form gives one row per group", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    g = rep(c("a", "b"), each = 6), u = c(1:6, 6:1),
    e = c(0, 1, 0, 2, 1, 3, 0, 1, 0, 2, 1, 3)
  )
  out <- ause(dplyr::group_by(df, g), u, e, definition = "torch_uncertainty")
  expect_named(out, c("g", ".metric", ".estimator", ".estimate"))
  expect_equal(out$.estimate[2],
    ause_vec(6:1, df$e[7:12], definition = "torch_uncertainty")
  )
  expect_equal(ause(df, u, e)$.estimator, "ilg")
})

test_that("arguments are checked with classed errors", {
  expect_error(ause_vec("a", 1), class = "aurc_error_type")
  expect_error(ause_vec(1:2, c(1, -1)), class = "aurc_error_value")
  expect_error(ause_vec(1:2, 1), class = "aurc_error_length")
  expect_error(ause_vec(1:2, 1:2, definition = "x"),
    class = "aurc_error_value"
  )
  expect_error(ause_vec(1:2, 1:2, 3), class = "aurc_error_dots")
  expect_warning(
    expect_equal(ause_vec(1:3, c(0, 0, 0), definition = "torch_uncertainty"),
      NA_real_),
    class = "aurc_warning_undefined"
  )
})

test_that("the sparsification curves are their definitions", {
  set.seed(365)
  u <- round(runif(30), 1)
  e <- round(rexp(30), 1)
  ilg <- sparsification_curve_vec(u, e)
  expect_s3_class(ilg, "aurc_sparsification_curve")
  # one row per distinct uncertainty, the mean error of the rows kept
  thr <- sort(unique(u), decreasing = TRUE)
  expected <- vapply(thr, function(t) mean(e[u <= t]), numeric(1))
  frac <- vapply(thr, function(t) mean(u > t), numeric(1))
  expect_equal(ilg$error, expected)
  expect_equal(ilg$fraction_removed, frac)
  expect_equal(attr(ilg, "areas")$ause, ause_vec(u, e))
  # the oracle: the mean of the smallest errors, every row a step
  oracle <- attr(ilg, "oracle")
  se <- sort(e)
  expect_equal(oracle$error,
    vapply(30:1, function(m) mean(se[seq_len(m)]), numeric(1))
  )
  # torch-uncertainty, without ties: the knots are every j = 0..n
  u <- runif(12)
  ee <- rexp(12)
  tu <- sparsification_curve_vec(u, ee, definition = "torch_uncertainty")
  expect_equal(tu$error, c(sum(ee), rev(cumsum(ee[order(u)]))) / sum(ee))
  expect_equal(tu$fraction_removed, (0:12) / 13)
  expect_equal(attr(tu, "oracle")$error,
    c(sum(ee), rev(cumsum(sort(ee)))) / sum(ee)
  )
  expect_error(sparsification_curve_vec(c(1, NA), 1:2),
    class = "aurc_error_missing"
  )
  expect_error(sparsification_curve_vec(1:2, 1:2, case_weights = c(0, 0)),
    class = "aurc_error_no_data"
  )
})

test_that("the area between the drawn curves is the AUSE", {
  set.seed(368)
  u <- round(runif(40), 1)
  e <- rexp(40)
  # Ilg: steps, each value from its fraction up to the next (the last to 1)
  step_area <- function(d) {
    sum(diff(c(d$fraction_removed, 1)) * d$error)
  }
  ilg <- sparsification_curve_vec(u, e)
  expect_equal(step_area(ilg) - step_area(attr(ilg, "oracle")),
    ause_vec(u, e)
  )
  # torch-uncertainty: linear between the knots, trapezoid rule
  trap <- function(d) {
    x <- d$fraction_removed
    y <- d$error
    sum(diff(x) * (y[-1] + y[-length(y)]) / 2)
  }
  tu <- sparsification_curve_vec(u, e, definition = "torch_uncertainty")
  expect_equal(trap(tu) - trap(attr(tu, "oracle")),
    ause_vec(u, e, definition = "torch_uncertainty")
  )
})

test_that("sparsification curves plot, grouped or not", {
  skip_if_not_installed("ggplot2")
  skip_if_not_installed("dplyr")
  set.seed(366)
  df <- data.frame(
    m = rep(c("a", "b"), each = 50), u = runif(100), e = rexp(100)
  )
  for (d in c("ilg", "torch_uncertainty")) {
    p <- ggplot2::autoplot(sparsification_curve_vec(df$u, df$e,
      definition = d
    ))
    expect_s3_class(p, "ggplot")
    expect_silent(ggplot2::ggplot_build(p))
    g <- sparsification_curve(dplyr::group_by(df, m), u, e, definition = d)
    expect_equal(attr(g, "areas")$ause[2],
      ause_vec(df$u[51:100], df$e[51:100], definition = d)
    )
    expect_silent(ggplot2::ggplot_build(ggplot2::autoplot(g)))
  }
})

test_that("ause_ci: Ilg's is E-AURC's; torch-uncertainty's influence values", {
  set.seed(369)
  u <- runif(150)
  e <- abs(rnorm(150, sd = 0.2 + u))
  w <- sample(1:3, 150, TRUE)
  ci <- ause_ci_vec(u, e, case_weights = w)
  ref <- selective_ci_vec(-u, e, metrics = "eaurc", case_weights = w)
  expect_equal(ci$.estimate, ause_vec(u, e, case_weights = w))
  expect_equal(c(ci$.lower, ci$.upper), c(ref$.lower, ref$.upper))
  # torch-uncertainty: the influence value of tau is its derivative
  # in the direction of each row, by numerical differentiation
  tau <- function(w) {
    n <- sum(w)
    theta <- function(k) {
      s <- 0
      for (i in seq_along(k)) {
        s <- s + w[i] * e[i] * sum(w * ((k > k[i]) + (k == k[i]) / 2))
      }
      s / n^2
    }
    (theta(u) - theta(e)) / (sum(w * e) / n)
  }
  inf <- aurc:::ause_tu_influence(u, e, w)
  n <- sum(w)
  eps <- 1e-6
  for (i in c(1, 50, 150)) {
    w2 <- (1 - eps) * w
    w2[i] <- w2[i] + eps * n
    expect_equal((tau(w2) - tau(w)) / eps, inf[i], tolerance = 1e-4)
  }
  tu <- ause_ci_vec(u, e, definition = "torch_uncertainty", case_weights = w)
  expect_equal(tu$.estimate,
    ause_vec(u, e, definition = "torch_uncertainty", case_weights = w)
  )
  expect_equal(tu$.std_error,
    sqrt(sum(w * inf^2) * n / (n - 1)) / n
  )
  expect_error(ause_ci_vec(u, e, conf_level = 1), class = "aurc_error_value")
})

test_that("ause_ci for torch-uncertainty covers the population value", {
  # a small simulation (the bigger one: inst/scripts/)
  set.seed(370)
  draw <- function(n) {
    sigma <- runif(n, 0.2, 2)
    list(u = sigma * exp(rnorm(n, sd = 0.5)), e = abs(rnorm(n, sd = sigma)))
  }
  big <- draw(2e5)
  truth <- ause_vec(big$u, big$e, definition = "torch_uncertainty")
  hits <- vapply(1:200, function(r) {
    d <- draw(300)
    ci <- ause_ci_vec(d$u, d$e, definition = "torch_uncertainty")
    ci$.lower <= truth && truth <= ci$.upper
  }, logical(1))
  expect_gt(mean(hits), 0.9)
  expect_lt(mean(hits), 0.99)
})

test_that("ause_ci's data-frame form", {
  skip_if_not_installed("dplyr")
  df <- data.frame(g = rep(c("a", "b"), each = 30), u = runif(60),
    e = rexp(60)
  )
  out <- ause_ci(dplyr::group_by(df, g), u, e,
    definition = "torch_uncertainty"
  )
  expect_equal(nrow(out), 2)
  expect_equal(out$.estimate[1],
    ause_vec(df$u[1:30], df$e[1:30], definition = "torch_uncertainty")
  )
  expect_equal(ause_ci_vec(c(1, NA), c(1, 1))$.estimate, NA_real_)
})
