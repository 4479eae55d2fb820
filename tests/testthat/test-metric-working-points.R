# fd-shifts' working points: risk at coverage by the lowest-risk rule, FPR
# at TPR, the achievable AURC (R/metric-fpr-tpr.R, R/metric-coverage.R,
# src/core/working_points.h)

test_that("hand cases", {
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  failure <- c(0, 0, 1, 0, 1, 1)
  # thresholds covering >= 1/2: 3/6 (risk 1/3), 4/6 (1/4), 5/6 (2/5),
  # 6/6 (1/2); the lowest is 1/4 at 4/6
  res <- risk_at_coverage(data.frame(score, failure), score, failure,
    coverage = 0.5, rule = "lowest_risk")
  expect_equal(res$.estimate, 1 / 4)
  expect_equal(res$.coverage, 4 / 6)
  expect_identical(res$.estimator, "coverage=0.5/lowest_risk")
  expect_equal(risk_at_coverage_vec(score, failure, coverage = 0.5), 1 / 3)
  # equal risks: the larger coverage
  # (risks at 3/6 .. 6/6: 1/3, 1/2, 2/5, 1/3)
  tied <- risk_at_coverage(data.frame(sc = 6:1, fl = c(1, 0, 0, 1, 0, 0)),
    sc, fl, coverage = 0.5, rule = "lowest_risk")
  expect_equal(tied$.estimate, 1 / 3)
  expect_equal(tied$.coverage, 1)
  # FPR at TPR: correct predictions (3) accepted in order 0.9, {0.8}, 0.6:
  # TPR 1/3, 2/3, 3/3 with FPR 0, 1/3, 1/3
  expect_equal(fpr_at_tpr_vec(score, failure), 1 / 3)
  expect_equal(fpr_at_tpr_vec(score, failure, tpr = 0.6), 1 / 3)
  expect_equal(fpr_at_tpr_vec(score, failure, tpr = 0.3), 0)
  # exactly the rate asked counts
  expect_equal(fpr_at_tpr_vec(1:20 / 20, c(1, rep(0, 19)), tpr = 0.95), 0)
  # achievable AURC: ROC points (FPR, TPR) of the groups, most confident
  # first: (0, 1/3), (1/3, 2/3), (1/3, 1), (2/3, 1), (1, 1); the upper hull
  # is (0, 1/3), (1/3, 1), (1, 1): the groups {0.8, 0.6} and {0.4, 0.3} are
  # merged. Segments: [0, 1/6] risk 0; then 3 samples with 1 failure from
  # 1 accepted; then 2 with 2 failures from 4 accepted.
  seg <- function(above, loss_above, c, s) {
    # integral over u of (loss_above + (s / c)(u - above)) / u, / n
    rate <- s / c
    (rate * c + (loss_above - rate * above) * log((above + c) / above)) / 6
  }
  expect_equal(achievable_aurc_vec(score, failure),
    0 + seg(1, 0, 3, 1) + seg(4, 1, 2, 2))
  # all correct or all failed: the error rate
  expect_equal(achievable_aurc_vec(score, rep(0, 6)), 0)
  expect_equal(achievable_aurc_vec(score, rep(1, 6)), 1)
})

# Literal definitions: FPR and TPR at every distinct threshold; the upper
# hull by brute force (a point is dropped when it lies on or below the
# segment between two others, (0, 0) included, around it).
literal_fpr_at_tpr <- function(s, f, w, tpr) {
  th <- sort(unique(s), decreasing = TRUE)
  ok <- (1 - f) * w
  bad <- f * w
  t <- vapply(th, function(x) sum(ok[s >= x]) / sum(ok), numeric(1))
  p <- vapply(th, function(x) sum(bad[s >= x]) / sum(bad), numeric(1))
  min(p[t >= tpr * (1 - 1e-12)])
}
literal_hull <- function(x, y) {
  px <- c(0, x)
  py <- c(0, y)
  keep <- vapply(seq_along(x) + 1, function(k) {
    for (a in seq_len(k - 1)) {
      for (b in seq(k + 1, length.out = length(px) - k)) {
        if (b > length(px)) next
        # on or below the chord a-b at px[k]
        if (px[b] > px[a]) {
          yy <- py[a] + (py[b] - py[a]) * (px[k] - px[a]) / (px[b] - px[a])
          if (px[k] >= px[a] && px[k] <= px[b] && py[k] <= yy + 1e-15) {
            return(FALSE)
          }
        } else if (px[k] == px[a] && py[k] <= py[b]) {
          return(FALSE)
        }
      }
    }
    TRUE
  }, logical(1))
  keep
}
literal_achievable <- function(s, f, w) {
  th <- sort(unique(s), decreasing = TRUE)
  acc <- vapply(th, function(x) sum(w[s >= x]), numeric(1))
  fl <- vapply(th, function(x) sum((f * w)[s >= x]), numeric(1))
  n <- sum(w)
  keep <- literal_hull(fl / sum(f * w), (acc - fl) / sum((1 - f) * w))
  acc <- acc[keep]
  fl <- fl[keep]
  # integrate the interpolated risk between kept points
  prev_a <- 0
  prev_l <- 0
  total <- 0
  for (k in seq_along(acc)) {
    rate <- (fl[k] - prev_l) / (acc[k] - prev_a)
    g <- function(u) (prev_l + rate * (u - prev_a)) / u
    total <- total + if (prev_a == 0) {
      rate * acc[k]
    } else {
      stats::integrate(g, prev_a, acc[k], rel.tol = 1e-13)$value
    }
    prev_a <- acc[k]
    prev_l <- fl[k]
  }
  total / n
}

test_that("FPR at TPR and the achievable AURC follow their definitions", {
  set.seed(41)
  for (rep in 1:6) {
    n <- 50
    s <- round(stats::runif(n), 1 + rep %% 2)
    f <- stats::rbinom(n, 1, 0.6 * (1 - s))
    w <- if (rep > 3) stats::runif(n, 0.2, 3) else rep(1, n)
    for (tpr in c(0.5, 0.9, 0.95)) {
      expect_equal(fpr_at_tpr_vec(s, f, tpr = tpr, case_weights = w),
        literal_fpr_at_tpr(s, f, w, tpr), tolerance = 1e-12)
    }
    expect_equal(achievable_aurc_vec(s, f, case_weights = w),
      literal_achievable(s, f, w), tolerance = 1e-9, info = rep)
    expect_lte(achievable_aurc_vec(s, f, case_weights = w),
      partial_aurc_vec(s, f, coverage_range = c(0, 1), case_weights = w) +
        1e-12)
    # the lowest-risk rule is never above the tie-closed one
    for (cov in c(0.2, 0.5, 0.9)) {
      expect_lte(
        risk_at_coverage_vec(s, f, coverage = cov, rule = "lowest_risk",
          case_weights = w),
        risk_at_coverage_vec(s, f, coverage = cov, case_weights = w) + 1e-15
      )
    }
  }
})

test_that("the lowest-risk rule follows fd-shifts' working points", {
  # fd-shifts' get_working_point(target_cov = c): its working points are the
  # thresholds whose selective risk is below that of every threshold of
  # larger coverage; of those covering >= c, the lowest risk
  literal_lowest <- function(s, l, cov) {
    th <- sort(unique(s))
    cv <- vapply(th, function(x) mean(s >= x), numeric(1))
    rk <- vapply(th, function(x) mean(l[s >= x]), numeric(1))
    working <- vapply(seq_along(th), function(k) {
      k == 1 || rk[k] < min(rk[seq_len(k - 1)])
    }, logical(1))
    ok <- working & cv >= cov
    rk[ok][which.min(rk[ok])]
  }
  set.seed(42)
  for (rep in 1:10) {
    s <- round(stats::runif(40), 1)
    l <- stats::rexp(40)
    for (cov in c(0.1, 0.5, 0.75)) {
      expect_equal(risk_at_coverage_vec(s, l, coverage = cov,
        rule = "lowest_risk"), literal_lowest(s, l, cov), tolerance = 1e-14)
    }
  }
})

test_that("intervals, comparisons, rankings and databases", {
  set.seed(43)
  n <- 80
  s <- round(stats::runif(n), 2)
  f <- stats::rbinom(n, 1, 0.5 * (1 - s))
  idx <- matrix(sample.int(n, n * 30, replace = TRUE), 30)
  ci <- selective_ci_vec(s, f,
    metrics = c("fpr_at_tpr", "achievable_aurc", "risk_at_coverage"),
    coverage = 0.5, rule = "lowest_risk", tpr = 0.9,
    method = "bootstrap", indices = idx, conf_level = 0.8
  )
  reps <- apply(idx, 1, function(i) {
    c(fpr_at_tpr_vec(s[i], f[i], tpr = 0.9),
      achievable_aurc_vec(s[i], f[i]),
      risk_at_coverage_vec(s[i], f[i], coverage = 0.5, rule = "lowest_risk"))
  })
  expect_equal(ci$.lower, unname(apply(reps, 1, stats::quantile, 0.1)),
    tolerance = 1e-12)
  expect_equal(ci$.upper, unname(apply(reps, 1, stats::quantile, 0.9)),
    tolerance = 1e-12)
  # the FPR at TPR has an analytic interval (test-ci-fpr-at-tpr.R); the
  # hull and the argmin rule do not
  expect_error(selective_ci_vec(s, f, metrics = "achievable_aurc"),
    class = "aurc_error_method")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dplyr")
  skip_if_not_installed("dbplyr")
  df <- data.frame(s = s, f = f, g = rep(1:2, n / 2), w = stats::runif(n))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", df)
  tb <- dplyr::group_by(dplyr::tbl(con, "t"), g)
  gdf <- dplyr::group_by(df, g)
  m <- c("fpr_at_tpr", "achievable_aurc", "risk_at_coverage")
  expect_equal(
    selective_metrics(tb, s, f, metrics = m, coverage = 0.3,
      rule = "lowest_risk", case_weights = w)$.estimate,
    selective_metrics(gdf, s, f, metrics = m, coverage = 0.3,
      rule = "lowest_risk", case_weights = w)$.estimate,
    tolerance = 1e-12
  )
})

test_that("bad input gives classed errors", {
  s <- c(0.9, 0.8, 0.7)
  f <- c(0, 1, 0)
  expect_error(fpr_at_tpr_vec(s, f, tpr = 1), class = "aurc_error_value")
  expect_error(fpr_at_tpr_vec(s, f, tpr = 0), class = "aurc_error_value")
  expect_error(fpr_at_tpr_vec(s, c(0, 0.5, 1)), class = "aurc_error_value")
  expect_error(achievable_aurc_vec(s, c(0, 2, 1)), class = "aurc_error_value")
  expect_error(risk_at_coverage_vec(s, f, coverage = 0.5, rule = "lowest"),
    class = "aurc_error_value")
  expect_warning(res <- fpr_at_tpr_vec(s, c(0, 0, 0)),
    class = "aurc_warning_one_class")
  expect_identical(res, NA_real_)
})
