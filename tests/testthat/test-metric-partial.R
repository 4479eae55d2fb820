# Partial AURC and AUGRC over a coverage range (R/metric-partial.R,
# src/core/partial.h)

test_that("hand case: two samples", {
  s <- c(0.9, 0.1)
  l <- c(1, 0)
  # selective risk: 1 up to coverage 1/2, then (1 + 0) / (2c) = 1 / (2c)
  expect_equal(partial_aurc_vec(s, l, coverage_range = c(0, 1)),
    1 / 2 + log(2) / 2)
  expect_equal(partial_aurc_vec(s, l, coverage_range = c(0.5, 1)), log(2) / 2)
  expect_equal(partial_aurc_vec(s, l, coverage_range = c(0.25, 0.5)), 1 / 4)
  # generalized risk: c up to 1/2, then 1/2
  expect_equal(partial_augrc_vec(s, l, coverage_range = c(0, 1)),
    1 / 8 + 1 / 4)
  expect_equal(partial_augrc_vec(s, l, coverage_range = c(0.25, 0.75)),
    (1 / 8 - 1 / 32) + 1 / 8)
  # a tie of the two: accepted gradually at the mean loss 1/2
  expect_equal(partial_aurc_vec(c(1, 1), l, coverage_range = c(0.2, 0.6)),
    0.4 * 1 / 2)
  expect_equal(partial_augrc_vec(c(1, 1), l, coverage_range = c(0, 1)),
    1 / 4)
})

# The literal definition: the curves of rc_curve() joined as fd-shifts
# joins them (the accepted count and loss linear between thresholds, the
# selective risk flat below the first), integrated numerically piece by
# piece.
literal_partial <- function(s, l, w, range, generalized = FALSE) {
  rc <- rc_curve_vec(s, l, case_weights = w)
  cov <- c(0, rc$coverage)
  err <- c(0, rc$generalized_risk) # loss accepted / n
  first_risk <- rc$selective_risk[1]
  total <- 0
  for (k in seq_len(nrow(rc))) {
    a <- max(cov[k], range[1])
    b <- min(cov[k + 1], range[2])
    if (b <= a) next
    slope <- (err[k + 1] - err[k]) / (cov[k + 1] - cov[k])
    g <- function(c) err[k] + slope * (c - cov[k])
    f <- if (generalized) g else if (k == 1) {
      function(c) rep(first_risk, length(c))
    } else {
      function(c) g(c) / c
    }
    total <- total + stats::integrate(f, a, b, rel.tol = 1e-13,
      abs.tol = 0)$value
  }
  total
}

test_that("partial areas follow their literal definition", {
  set.seed(31)
  for (rep in 1:4) {
    n <- 60
    s <- round(stats::rnorm(n), 1)
    l <- if (rep %% 2) stats::rbinom(n, 1, 0.3) else stats::rexp(n)
    w <- stats::runif(n, 0.2, 2)
    for (range in list(c(0, 1), c(0.1, 0.4), c(0.35, 0.95), c(0.5, 1))) {
      expect_equal(partial_aurc_vec(s, l, coverage_range = range,
        case_weights = w), literal_partial(s, l, w, range),
        tolerance = 1e-10, info = paste(rep, range[1])
      )
      expect_equal(partial_augrc_vec(s, l, coverage_range = range,
        case_weights = w), literal_partial(s, l, w, range, TRUE),
        tolerance = 1e-10
      )
    }
  }
})

test_that("partial areas add up over ranges and agree with the full areas", {
  set.seed(32)
  d <- random_tied_data(500)
  w <- stats::rexp(500)
  part <- function(f, r) f(d$score, d$loss, coverage_range = r,
    case_weights = w)
  for (f in list(partial_aurc_vec, partial_augrc_vec)) {
    expect_equal(part(f, c(0, 0.3)) + part(f, c(0.3, 0.8)) +
      part(f, c(0.8, 1)), part(f, c(0, 1)), tolerance = 1e-12)
  }
  expect_equal(part(partial_augrc_vec, c(0, 1)),
    augrc_vec(d$score, d$loss, case_weights = w), tolerance = 1e-12)
  # without ties the interpolated AURC and the "alpha" AURC differ by less
  # than 1 / n
  s <- stats::runif(500)
  expect_lt(abs(partial_aurc_vec(s, d$loss, coverage_range = c(0, 1)) -
    aurc_vec(s, d$loss)), 1 / 500)
  # integer weights are repeated rows; scaling the weights changes nothing
  wi <- stats::rpois(500, 1.5)
  rows <- rep(seq_len(500), wi)
  for (f in list(partial_aurc_vec, partial_augrc_vec)) {
    expect_equal(f(d$score, d$loss, coverage_range = c(0.2, 0.7),
      case_weights = wi), f(d$score[rows], d$loss[rows],
      coverage_range = c(0.2, 0.7)), tolerance = 1e-12)
    expect_equal(f(d$score, d$loss, coverage_range = c(0.2, 0.7),
      case_weights = 1e200 * w), part(f, c(0.2, 0.7)), tolerance = 1e-12)
  }
})

test_that("bootstrap intervals and paired comparisons of partial areas", {
  set.seed(33)
  n <- 80
  s <- round(stats::runif(n), 1)
  l <- stats::rbinom(n, 1, 0.4 * (1 - s))
  times <- 30
  idx <- matrix(sample.int(n, n * times, replace = TRUE), times)
  ci <- selective_ci_vec(s, l, metrics = c("partial_aurc", "partial_augrc"),
    method = "bootstrap", indices = idx, coverage_range = c(0.3, 0.9),
    conf_level = 0.8
  )
  reps <- apply(idx, 1, function(i) {
    c(partial_aurc_vec(s[i], l[i], coverage_range = c(0.3, 0.9)),
      partial_augrc_vec(s[i], l[i], coverage_range = c(0.3, 0.9)))
  })
  expect_equal(ci$.lower, unname(apply(reps, 1, stats::quantile, 0.1)),
    tolerance = 1e-12)
  expect_equal(ci$.upper, unname(apply(reps, 1, stats::quantile, 0.9)),
    tolerance = 1e-12)
  expect_identical(ci$.estimator, rep("coverage=0.3-0.9", 2))
  df <- data.frame(a = s, b = stats::runif(n), l = l)
  cmp <- compare_scores(df, c(a, b), l, metric = "partial_aurc",
    coverage_range = c(0.3, 0.9), method = "bootstrap", indices = idx
  )
  expect_equal(cmp$tests$difference,
    partial_aurc_vec(s, l, coverage_range = c(0.3, 0.9)) -
      partial_aurc_vec(df$b, l, coverage_range = c(0.3, 0.9)),
    tolerance = 1e-12
  )
})

test_that("database tables give the in-memory values", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  skip_if_not_installed("dplyr")
  set.seed(34)
  df <- data.frame(s = round(stats::runif(200), 2), l = stats::rexp(200),
    g = rep(1:2, 100), w = stats::runif(200))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", df)
  tb <- dplyr::group_by(dplyr::tbl(con, "t"), g)
  gdf <- dplyr::group_by(df, g)
  expect_equal(
    partial_aurc(tb, s, l, coverage_range = c(0.1, 0.6),
      case_weights = w)$.estimate,
    partial_aurc(gdf, s, l, coverage_range = c(0.1, 0.6),
      case_weights = w)$.estimate,
    tolerance = 1e-12
  )
  expect_equal(
    selective_metrics(tb, s, l, metrics = c("aurc", "partial_augrc"),
      coverage_range = c(0.5, 1))$.estimate,
    selective_metrics(gdf, s, l, metrics = c("aurc", "partial_augrc"),
      coverage_range = c(0.5, 1))$.estimate,
    tolerance = 1e-12
  )
})

test_that("bad coverage ranges are classed errors", {
  s <- c(0.9, 0.1)
  l <- c(1, 0)
  expect_error(partial_aurc_vec(s, l), class = "aurc_error_type")
  expect_error(partial_aurc_vec(s, l, coverage_range = 0.5),
    class = "aurc_error_type")
  expect_error(partial_aurc_vec(s, l, coverage_range = c(0.5, 0.5)),
    class = "aurc_error_value")
  expect_error(partial_aurc_vec(s, l, coverage_range = c(-0.1, 0.5)),
    class = "aurc_error_value")
  expect_error(partial_augrc_vec(s, l, coverage_range = c(0.2, NA)),
    class = "aurc_error_value")
  expect_error(partial_augrc_vec(s, l, coverage_range = c("a", "b")),
    class = "aurc_error_type")
  expect_error(selective_metrics_vec(s, l, metrics = "partial_aurc"),
    class = "aurc_error_type")
})

test_that("influence values are the derivatives of the partial areas", {
  set.seed(35)
  n <- 40
  s <- round(stats::runif(n), 1)
  l <- stats::rexp(n)
  w <- stats::runif(n, 0.5, 2)
  N <- sum(w)
  for (m in c("partial_aurc", "partial_augrc")) {
    for (rg in list(c(0, 1), c(0.2, 0.7), c(0.05, 0.5), c(0.5, 1))) {
      f <- function(ww) {
        selective_metrics_vec(s, l, metrics = m, coverage_range = rg,
          case_weights = ww)$.estimate
      }
      res <- aurc:::metric_influence(s, l, w, m, list(coverage_range = rg))
      expect_equal(res$estimate, f(w), tolerance = 1e-14)
      # the weight of sample i grows by e N, the others shrink by e
      e <- 1e-7
      num <- vapply(seq_len(n), function(i) {
        w2 <- w * (1 - e)
        w2[i] <- w2[i] + e * N
        (f(w2) - f(w)) / e
      }, numeric(1))
      expect_equal(res$influence, num, tolerance = 1e-5,
        info = paste(m, rg[1], rg[2])
      )
    }
  }
  # over [0, 1] the partial AUGRC is the AUGRC: the same influence values
  expect_equal(
    aurc:::metric_influence(s, l, w, "partial_augrc",
      list(coverage_range = c(0, 1)))$influence,
    aurc:::metric_influence(s, l, w, "augrc")$influence,
    tolerance = 1e-12
  )
})

test_that("the analytic interval of the partial AURC covers its value", {
  gen <- function(n) {
    s <- stats::runif(n)
    list(s = s, f = stats::rbinom(n, 1, 0.5 * (1 - s)^2))
  }
  set.seed(36)
  big <- gen(2e6)
  truth <- partial_aurc_vec(big$s, big$f, coverage_range = c(0.5, 1))
  reps <- test_grid(200, 1000)
  hits <- 0
  for (k in seq_len(reps)) {
    d <- gen(400)
    ci <- selective_ci_vec(d$s, d$f, metrics = "partial_aurc",
      coverage_range = c(0.5, 1))
    hits <- hits + (ci$.lower <= truth && truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_gte(hits / reps, band[1] - 0.02)
  expect_lte(hits / reps, band[2])
  # paired comparisons, analytic
  df <- data.frame(a = d$s, b = d$s + stats::rnorm(400, sd = 0.3), f = d$f)
  cmp <- compare_scores(df, c(a, b), f, metric = "partial_augrc",
    coverage_range = c(0.2, 1))
  expect_equal(cmp$tests$difference,
    partial_augrc_vec(df$a, df$f, coverage_range = c(0.2, 1)) -
      partial_augrc_vec(df$b, df$f, coverage_range = c(0.2, 1)),
    tolerance = 1e-12)
  expect_true(is.finite(cmp$tests$std_error))
})
