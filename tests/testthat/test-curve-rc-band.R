# The risk at coverage c of the band's definition, literally: the groups
# of tied scores above the one where the accepted count a = c N falls, and
# that share of it at its mean loss.
literal_band_risk <- function(s, l, w = rep(1, length(s)), coverage) {
  total <- sum(w)
  t <- sort(unique(s[w > 0]), decreasing = TRUE)
  sel <- vapply(coverage, function(c) {
    a <- c * total
    for (u in t) {
      above <- s > u
      n_above <- sum(w[above])
      n_at <- sum(w[s >= u])
      if (a <= n_at * (1 + 1e-15)) {
        at <- s == u & w > 0
        mean_at <- sum(w[at] * l[at]) / sum(w[at])
        acc <- sum(w[above] * l[above]) + (min(a, n_at) - n_above) * mean_at
        return(acc / a)
      }
    }
    NA_real_
  }, numeric(1))
  list(selective = sel, generalized = sel * coverage)
}

# Bands of small data warn that few cases are accepted at low coverage.
quiet_band <- function(...) suppressWarnings(rc_band_vec(...))
quiet_band_df <- function(...) suppressWarnings(rc_band(...))

test_that("hand-computed risks of the data and of given replicates", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  l <- c(0, 0, 1, 0, 1, 1)
  idx <- rbind(1:6, c(1, 1, 2, 3, 5, 6), c(6, 6, 6, 5, 5, 4))
  b <- quiet_band(s, l, coverage = c(0.25, 0.5, 1), indices = idx)
  expect_s3_class(b, c("aurc_rc_band", "tbl_df"))
  expect_named(b, c(
    "type", "coverage", ".estimate", ".lower", ".upper", ".std_error"
  ))
  # coverage 0.25: 1.5 of 6 accepted, the 0.9 case (loss 0) and half of
  # the tied 0.8 pair (mean loss 1/2): accepted loss 1/4
  # coverage 0.5: 3 cases, loss 1; coverage 1: loss 3
  sel <- c((1 / 4) / 1.5, 1 / 3, 1 / 2)
  expect_equal(b$.estimate, c(sel, sel * c(0.25, 0.5, 1)))
  reps <- attr(b, "replicates")
  expect_equal(dim(reps), c(3, 3, 2))
  # replicate 1 is the data
  expect_equal(reps[1, , 1], sel)
  # replicate 2: 0.9 twice (loss 0), the 0.8 pair, 0.4 and 0.3 (loss 1);
  # coverage 0.5: 3 accepted: both 0.9 and half the 0.8 pair, loss 1/2
  # coverage 0.25: 1.5 of the 0.9 rows, loss 0; coverage 1: 3 / 6
  expect_equal(reps[2, , 1], c(0, (1 / 2) / 3, 1 / 2))
  # replicate 3: 0.6 (loss 0), 0.4 twice and 0.3 three times (loss 1)
  # coverage 0.25: 1.5 accepted: the 0.6 case and half a 0.4 case
  expect_equal(reps[3, , 1], c(0.5 / 1.5, 2 / 3, 5 / 6))
  expect_equal(reps[, , 2], reps[, , 1] * rep(c(0.25, 0.5, 1), each = 3))
})

test_that("the band is the max-t band of its replicates", {
  set.seed(3)
  s <- round(stats::runif(300), 2)
  l <- stats::rbinom(300, 1, 0.5 * (1 - s))
  grid <- seq(0.2, 1, by = 0.1)
  for (tr in c("sqrt", "identity")) {
    b <- quiet_band(s, l, coverage = grid, times = 200, transform = tr,
      conf_level = 0.9
    )
    reps <- attr(b, "replicates")
    crit <- attr(b, "critical_value")
    for (j in 1:2) {
      part <- b[b$type == c("selective", "generalized")[j], ]
      h <- if (tr == "sqrt") sqrt else identity
      inv <- if (tr == "sqrt") function(x) pmax(x, 0)^2 else
        function(x) pmax(x, 0)
      r <- h(reps[, , j])
      est <- h(part$.estimate)
      se <- apply(r, 2, sd)
      t_max <- apply(abs(t(t(r) - est)) / rep(se, each = 200), 1, max)
      q <- quantile(t_max, 0.9, names = FALSE)
      expect_equal(crit$critical_value[j], q)
      expect_equal(part$.lower, inv(est - q * se))
      expect_equal(part$.upper, inv(est + q * se))
      expect_equal(part$.std_error, apply(reps[, , j], 2, sd))
      expect_true(all(part$.lower <= part$.estimate &
        part$.estimate <= part$.upper))
    }
  }
})

test_that("literal risks with ties, case weights and any row order", {
  set.seed(7)
  grid <- c(0.1, 0.23, 0.5, 0.77, 0.999, 1)
  for (n in c(5, 60)) {
    d <- random_tied_data(n, grid = 0.5)
    w <- stats::runif(n)
    w[1] <- 0
    b <- quiet_band(d$score, d$loss, coverage = grid, times = 2)
    lit <- literal_band_risk(d$score, d$loss, coverage = grid)
    expect_equal(b$.estimate, c(lit$selective, lit$generalized),
      tolerance = 1e-12
    )
    bw <- quiet_band(d$score, d$loss, coverage = grid, times = 2,
      case_weights = w
    )
    litw <- literal_band_risk(d$score, d$loss, w, coverage = grid)
    expect_equal(bw$.estimate, c(litw$selective, litw$generalized),
      tolerance = 1e-12
    )
    o <- rev(seq_len(n))
    bo <- quiet_band(d$score[o], d$loss[o], coverage = grid, times = 2)
    expect_equal(bo$.estimate, b$.estimate, tolerance = 1e-14)
  }
  # at the curve's own coverages the band's risk is rc_curve()'s
  d <- random_tied_data(80, grid = 0.25)
  cv <- rc_curve_vec(d$score, d$loss)
  b <- quiet_band(d$score, d$loss, coverage = cv$coverage, times = 2)
  expect_equal(b$.estimate, c(cv$selective_risk, cv$generalized_risk),
    tolerance = 1e-12
  )
})

test_that("integer case weights are repeated rows", {
  set.seed(11)
  d <- random_tied_data(40, grid = 0.5, binary = TRUE)
  w <- sample(1:3, 40, replace = TRUE)
  rows <- rep(seq_len(40), w)
  grid <- seq(0.1, 1, by = 0.05)
  set.seed(1)
  bw <- quiet_band(d$score, d$loss, coverage = grid, times = 50,
    case_weights = w
  )
  br <- quiet_band(d$score[rows], d$loss[rows], coverage = grid, times = 2)
  expect_equal(bw$.estimate, br$.estimate, tolerance = 1e-12)
  # a replicate draws the rows the weights stand for
  idx <- matrix(sample(length(rows), 3 * length(rows), replace = TRUE), 3)
  bi <- quiet_band(d$score, d$loss, coverage = grid, case_weights = w,
    indices = matrix(rows[idx], 3)
  )
  bri <- quiet_band(d$score[rows], d$loss[rows], coverage = grid,
    indices = idx
  )
  expect_equal(attr(bi, "replicates"), attr(bri, "replicates"),
    tolerance = 1e-12
  )
})

test_that("set.seed() reproduces the band; it narrows with n", {
  set.seed(5)
  s <- stats::runif(4000)
  l <- stats::rbinom(4000, 1, 0.4 * (1 - s))
  set.seed(9)
  grid <- seq(0.3, 1, by = 0.01)
  a <- quiet_band(s[1:400], l[1:400], coverage = grid, times = 200)
  set.seed(9)
  b <- quiet_band(s[1:400], l[1:400], coverage = grid, times = 200,
    threads = 2
  )
  expect_identical(a$.lower, b$.lower)
  big <- quiet_band(s, l, coverage = grid, times = 200)
  ratio <- mean(a$.upper - a$.lower) / mean(big$.upper - big$.lower)
  # widths shrink as 1 / sqrt(n): sqrt(10) = 3.2
  expect_gt(ratio, 2.4)
  expect_lt(ratio, 4.2)
  # the critical value lies above the pointwise one
  expect_true(all(attr(big, "critical_value")$critical_value > 1.96))
})

test_that("strata, clusters and grouped data frames", {
  set.seed(2)
  df <- data.frame(
    model = rep(c("a", "b"), each = 200), score = stats::runif(400),
    loss = stats::rbinom(400, 1, 0.3), st = rep(c("x", "y"), 200),
    cl = rep(1:100, each = 4)
  )
  b <- quiet_band_df(df, score, loss, strata = st, times = 50)
  # the default grid: from the coverage of 100 cases, 0.25, to 1
  expect_equal(unique(b$coverage), seq(0.25, 1, by = 0.01))
  bc <- quiet_band_df(df, score, loss, cluster = cl, times = 50)
  expect_equal(bc$.estimate, b$.estimate)
  skip_if_not_installed("dplyr")
  g <- quiet_band_df(dplyr::group_by(df, model), score, loss, times = 50)
  expect_named(g, c(
    "model", "type", "coverage", ".estimate", ".lower", ".upper",
    ".std_error"
  ))
  # 200 cases per group: from coverage 0.5
  expect_equal(nrow(g), 4 * 51)
  one <- quiet_band(df$score[1:200], df$loss[1:200], times = 2)
  expect_equal(g$.estimate[g$model == "a"], one$.estimate)
  crit <- attr(g, "critical_value")
  expect_equal(crit$model, rep(c("a", "b"), each = 2))
  expect_s3_class(attr(g, "curve"), "aurc_rc_curve")
})

test_that("classed errors and warnings", {
  s <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  l <- c(0, 0, 1, 0, 1, 1)
  expect_snapshot(error = TRUE, {
    rc_band_vec(s, l, coverage = c(0, 0.5))
    rc_band_vec(s, l, coverage = c(0.5, 0.2))
    rc_band_vec(s, l, coverage = "a")
    rc_band_vec(s, l, conf_level = 1)
    rc_band_vec(s, l, transform = "log")
    rc_band_vec(s, l, times = 1)
    rc_band_vec(s, l, strata = 1:2)
    rc_band_vec(s, c(l[-1], NA))
    rc_band_vec(s, l, times = 2e6, coverage = seq(0.01, 1, by = 0.01))
  })
  expect_error(rc_band_vec(s, l, coverage = NA), class = "aurc_error_value")
  expect_error(rc_band_vec(s, -l), class = "aurc_error")
  expect_error(rc_band_vec(s, l, 1), class = "aurc_error")
  expect_snapshot({
    b <- rc_band_vec(s, l, times = 20)
    b <- rc_band_vec(rep(1:50, 2), rep(0, 100), times = 20)
  })
  expect_warning(rc_band_vec(s, l, times = 20),
    class = "aurc_warning_band_few_cases"
  )
  # the default grid of 1000 cases starts at 0.1: 100 cases, no warning
  expect_no_warning(rc_band_vec(seq_len(1000), rep(0:1, 500), times = 20))
  expect_warning(
    rc_band_vec(seq_len(1000), rep(0:1, 500), times = 20,
      coverage = c(0.09, 1)
    ),
    class = "aurc_warning_band_few_cases"
  )
  expect_warning(rc_band_vec(1:200, rep(0, 200), times = 20),
    class = "aurc_warning_band_degenerate"
  )
})

test_that("NA handling as rc_curve()", {
  s <- c(0.9, 0.8, NA, 0.6, 0.4, 0.3, 0.2)
  l <- c(0, 0, 1, 0, 1, 1, NA)
  expect_error(rc_band_vec(s, l), class = "aurc_error_missing")
  b <- suppressWarnings(rc_band_vec(s, l, na_rm = TRUE, times = 10,
    strata = rep(1:2, length.out = 7)
  ))
  keep <- c(1, 2, 4, 5, 6)
  b2 <- suppressWarnings(rc_band_vec(s[keep], l[keep], times = 10))
  expect_equal(b$.estimate, b2$.estimate)
})

test_that("whole-curve coverage in a small simulation", {
  skip_if_not_slow()
  # 200 data sets of 1000 cases (studies/ci-band-coverage.R runs
  # 1000 and more models)
  set.seed(44)
  grid <- seq(0.1, 1, by = 0.01) # the default grid at n = 1000
  truth <- (0.05 * grid + 0.35 * grid^3 / 3) / grid
  hit <- replicate(200, {
    s <- stats::runif(1000)
    l <- stats::rbinom(1000, 1, 0.05 + 0.35 * (1 - s)^2)
    b <- quiet_band(s, l, times = 500)
    b <- b[b$type == "selective", ]
    all(b$.lower <= truth & truth <= b$.upper)
  })
  expect_gt(mean(hit), 0.9)
})

test_that("importance weights: cases resampled, each with its weight", {
  skip_if_not_installed("hardhat")
  set.seed(1)
  s <- stats::runif(300)
  l <- stats::rbinom(300, 1, 0.3)
  w <- stats::runif(300)
  grid <- seq(0.4, 1, by = 0.1)
  imp <- quiet_band(s, l, coverage = grid, times = 50,
    case_weights = hardhat::importance_weights(w)
  )
  freq <- quiet_band(s, l, coverage = grid, times = 50, case_weights = w)
  expect_equal(imp$.estimate, freq$.estimate)
  # the default grid counts the cases, not the weights' sum
  imp_default <- quiet_band(s, l, times = 2,
    case_weights = hardhat::importance_weights(w)
  )
  expect_equal(min(imp_default$coverage), 0.34)
  expect_error(
    rc_band_vec(s, l, case_weights = hardhat::importance_weights(w),
      indices = matrix(1L, 2, 300)
    ),
    class = "aurc_error_value"
  )
})
