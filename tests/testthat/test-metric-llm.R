# PRR and AUARC (R/metric-llm.R, src/core/partial.h)

test_that("hand cases: PRR and AUARC of four outputs", {
  s <- c(0.9, 0.8, 0.7, 0.6)
  q <- c(1, 0, 1, 0)
  # selective risks of the top 1..4: 0, 1/2, 1/3, 1/2; oracle (losses
  # 0, 0, 1, 1): 0, 0, 1/3, 1/2; mean loss 1/2
  a <- (0 + 1 / 2 + 1 / 3 + 1 / 2) / 4
  a_star <- (0 + 0 + 1 / 3 + 1 / 2) / 4
  expect_equal(prr_vec(s, q), (1 / 2 - a) / (1 / 2 - a_star))
  expect_equal(prr_vec(s, q), 4 / 7)
  expect_equal(auarc_vec(s, q), 1 - a)
  # rejecting at most 3 of 4: the last three positions
  a3 <- (1 / 2 + 1 / 3 + 1 / 2) / 3
  a3_star <- (0 + 1 / 3 + 1 / 2) / 3
  expect_equal(prr_vec(s, q, max_rejection = 0.75),
    (1 / 2 - a3) / (1 / 2 - a3_star))
  expect_equal(prr_vec(s, q, max_rejection = 0.75), 1 / 4)
  # a tie at 0.8 is accepted together: risk 1/3 at both positions
  s_tie <- c(0.9, 0.8, 0.8, 0.6)
  a_tie <- (0 + 1 / 3 + 1 / 3 + 1 / 2) / 4
  expect_equal(prr_vec(s_tie, q), (1 / 2 - a_tie) / (1 / 2 - a_star))
  expect_equal(prr_vec(s_tie, q), 5 / 7)
  # the oracle scores 1, a random score 0 in expectation
  expect_equal(prr_vec(q + seq(0, 0.1, length.out = 4), q), 1)
  expect_equal(prr_vec(c(1, 2, 3, 4), c(0.2, 0.4, 0.6, 0.8)), 1)
  expect_equal(prr_vec(c(4, 3, 2, 1), c(0.2, 0.4, 0.6, 0.8)), -1)
})

# LM-Polygraph's PredictionRejectionArea written from its definition: sort
# by uncertainty ascending, the mean target of the k most certain for the
# last floor(r n) values of k, averaged; PRR normalises by the oracle
# (uncertainty = -target) and the random order (here its expectation, the
# mean target). The target is min-max rescaled first.
polygraph_area <- function(uncertainty, target, r) {
  target <- (target - min(target)) / (max(target) - min(target))
  n <- length(uncertainty)
  k <- floor(r * n)
  kept <- cumsum(target[order(uncertainty)])[(n - k + 1):n]
  sum(kept / ((n - k + 1):n)) / k
}
polygraph_prr <- function(uncertainty, target, r) {
  rnd <- mean((target - min(target)) / (max(target) - min(target)))
  (polygraph_area(uncertainty, target, r) - rnd) /
    (polygraph_area(-target, target, r) - rnd)
}

test_that("PRR equals LM-Polygraph's definition where both apply", {
  set.seed(11)
  for (n in c(20, 100, 1000)) {
    conf <- stats::runif(n)
    rouge <- pmin(1, pmax(0, 0.2 + 0.6 * conf + stats::rnorm(n, sd = 0.25)))
    for (r in c(1, 0.5, 0.25, 0.1)) {
      expect_equal(prr_vec(conf, rouge, max_rejection = r),
        polygraph_prr(-conf, rouge, r),
        tolerance = 1e-12, info = paste(n, r)
      )
    }
    # a quality on a narrower scale: PRR is invariant to the rescaling
    q2 <- 0.2 + 0.5 * rouge
    expect_equal(prr_vec(conf, q2), polygraph_prr(-conf, q2, 1),
      tolerance = 1e-12
    )
  }
})

# The literal definition with ties: per position of the scores in
# descending order, the selective risk of the tie-closed set at that
# position's score; per position of the losses in ascending order, the
# cumulative mean (strict oracle). Both averaged over the last K positions.
literal_prr <- function(s, loss, r) {
  n <- length(s)
  k <- r * n
  pos <- order(-s)
  risk <- vapply(pos, function(i) mean(loss[s >= s[i]]), numeric(1))
  oracle <- cumsum(sort(loss)) / seq_len(n)
  window <- (n - k + 1):n
  m <- mean(loss)
  (m - mean(risk[window])) / (m - mean(oracle[window]))
}

test_that("PRR follows its literal definition with ties and weights", {
  set.seed(12)
  for (rep in 1:5) {
    n <- 40
    s <- round(stats::runif(n), 1)
    q <- round(stats::runif(n), 1)
    for (r in c(1, 0.5, 0.25)) {
      expect_equal(prr_vec(s, q, max_rejection = r),
        literal_prr(s, 1 - q, r),
        tolerance = 1e-12
      )
    }
    # integer case weights are repeated rows
    w <- stats::rpois(n, 2)
    rows <- rep(seq_len(n), w)
    for (r in c(1, 0.5)) {
      expect_equal(prr_vec(s, q, max_rejection = r, case_weights = w),
        prr_vec(s[rows], q[rows], max_rejection = r),
        tolerance = 1e-12
      )
    }
    expect_equal(auarc_vec(s, q, case_weights = w), auarc_vec(s[rows], q[rows]),
      tolerance = 1e-12
    )
  }
  # long runs of equal loss in the oracle (closed form) = unit by unit
  s <- stats::runif(30)
  q <- rep(c(0, 1), 15)
  w <- rep(c(100, 1), 15)
  rows <- rep(seq_along(s), w)
  for (r in c(1, 0.37, 0.05)) {
    expect_equal(prr_vec(s, q, max_rejection = r, case_weights = w),
      prr_vec(s[rows], q[rows], max_rejection = r),
      tolerance = 1e-12, info = r
    )
  }
})

test_that("PRR and AUARC are 1 - NAURC and 1 - AURC", {
  set.seed(13)
  d <- random_tied_data(300)
  q <- pmin(d$loss, 1)
  w <- stats::runif(300)
  expect_equal(prr_vec(d$score, q, case_weights = w),
    1 - naurc_vec(d$score, 1 - q, case_weights = w),
    tolerance = 1e-12
  )
  for (est in c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")) {
    expect_equal(auarc_vec(d$score, q, estimator = est, case_weights = w),
      1 - aurc_vec(d$score, 1 - q, estimator = est, case_weights = w),
      tolerance = 1e-12
    )
  }
})

test_that("AUARC and the trapezoid rule of Lin et al.'s code", {
  # their code: the running mean quality of the k most certain, integrated
  # by the trapezoid rule over positions 0, 1/(n - 1), ..., 1
  lin_auarc <- function(uncertainty, quality) {
    amean <- cumsum(quality[order(uncertainty)]) / seq_along(quality)
    x <- seq(0, 1, length.out = length(quality))
    sum(diff(x) * (utils::head(amean, -1) + utils::tail(amean, -1)) / 2)
  }
  set.seed(14)
  n <- 250
  conf <- stats::runif(n)
  q <- stats::rbinom(n, 1, conf)
  amean <- cumsum(q[order(-conf)]) / seq_len(n)
  expect_equal(
    (n * auarc_vec(conf, q) - (amean[1] + amean[n]) / 2) / (n - 1),
    lin_auarc(-conf, q),
    tolerance = 1e-12
  )
})

test_that("analytic intervals of PRR and AUARC are those of NAURC and AURC", {
  set.seed(15)
  n <- 300
  s <- stats::runif(n)
  q <- stats::rbinom(n, 1, s)
  ci <- selective_ci_vec(s, 1 - q, metrics = c("prr", "auarc", "naurc", "aurc"))
  expect_equal(ci$.estimate[1:2], 1 - ci$.estimate[3:4], tolerance = 1e-12)
  expect_equal(ci$.std_error[1:2], ci$.std_error[3:4], tolerance = 1e-12)
  expect_equal(ci$.lower[1:2], 1 - ci$.upper[3:4], tolerance = 1e-12)
  # PRR keeps the "alpha" estimator whatever `estimator` is
  ci_t <- selective_ci_vec(s, 1 - q, metrics = c("prr", "auarc"),
    estimator = "trapezoid"
  )
  expect_equal(ci_t$.estimate[1], ci$.estimate[1], tolerance = 1e-12)
  expect_equal(ci_t$.estimate[2], auarc_vec(s, q, estimator = "trapezoid"),
    tolerance = 1e-12
  )
  # over part of the rejection range: its own influence function
  # (R/ci-influence-prr.R), tested below
  ci_half <- selective_ci_vec(s, 1 - q, metrics = "prr", max_rejection = 0.5)
  expect_equal(ci_half$.estimate, prr_vec(s, q, max_rejection = 0.5),
    tolerance = 1e-14
  )
  expect_true(ci_half$.std_error > 0)
})

test_that("PRR over part of the rejection range: its influence function", {
  set.seed(151)
  n <- 40
  s <- round(stats::runif(n), 1) # ties
  l <- round(stats::runif(n), 1) # tied losses in [0, 1]
  w <- stats::runif(n, 0.5, 2)
  N <- sum(w)
  # at max_rejection = 1 the derivation gives the influence values of
  # 1 - NAURC, computed by another route (src/core/influence.h)
  for (ww in list(NULL, w)) {
    expect_equal(
      aurc:::prr_window_influence(s, l, ww, 1)$influence,
      -aurc:::metric_influence(s, l, ww, "naurc")$influence,
      tolerance = 1e-12
    )
  }
  # the parts, by numerical derivatives of their literal definitions: the
  # weight of sample i grows by e N, the others shrink by e (N stays)
  step_mean <- function(ww, r) { # mean tie-closed step risk over [1 - r, 1]
    o <- order(s, decreasing = TRUE)
    u <- cumsum(ww[o])
    risk <- cumsum((ww * l)[o]) / u
    tied <- stats::ave(seq_along(o), s[o], FUN = max) # tie-closed
    lo <- c(0, u[-n])
    seg <- pmax(0, u - pmax(lo, (1 - r) * sum(ww)))
    sum(seg * risk[tied]) / (r * sum(ww))
  }
  oracle_l <- function(ww, r) { # int Q(t) J(t) dt, J = -log(max(t, 1 - r)) / r
    lam <- sort(unique(l))
    f <- cumsum(tapply(ww, factor(l, lam), sum)) / sum(ww)
    lo <- c(0, f[-length(f)])
    big_j <- function(t) { # int_0^t J, in closed form
      c0 <- 1 - r
      ifelse(t <= c0, -t * log(c0),
        -c0 * log(c0) - (t * log(t) - t - c0 * log(c0) + c0)) / r
    }
    sum(lam * (big_j(f) - big_j(lo)))
  }
  e <- 1e-7
  for (r in c(0.3, 0.5, 0.85)) {
    res <- aurc:::prr_window_influence(s, l, w, r)
    expect_equal(res$estimate,
      prr_vec(s, 1 - l, max_rejection = r, case_weights = w),
      tolerance = 1e-14
    )
    expect_equal(res$parts[["area"]], step_mean(w, r), tolerance = 1e-12)
    num_a <- num_o <- numeric(n)
    for (i in seq_len(n)) {
      w2 <- w * (1 - e)
      w2[i] <- w2[i] + e * N
      num_a[i] <- (step_mean(w2, r) - step_mean(w, r)) / e
      num_o[i] <- (oracle_l(w2, r) - oracle_l(w, r)) / e
    }
    expect_equal(res$parts_influence$area, num_a, tolerance = 1e-5,
      info = paste("area", r)
    )
    expect_equal(res$parts_influence$optimum, num_o, tolerance = 1e-5,
      info = paste("oracle", r)
    )
    # and the quotient rule puts them together
    p <- res$parts
    pi <- res$parts_influence
    den <- p[["mean"]] - p[["optimum"]]
    expect_equal(res$influence,
      ((pi$mean - pi$area) * den -
        (p[["mean"]] - p[["area"]]) * (pi$mean - pi$optimum)) / den^2,
      tolerance = 1e-12
    )
    expect_equal(pi$mean, l - sum(w * l) / N, tolerance = 1e-14)
  }
})

test_that("the analytic interval of PRR over part of the range covers", {
  gen <- function(n) {
    conf <- stats::runif(n)
    list(conf = conf, q = stats::rbinom(n, 1, 0.3 + 0.6 * conf))
  }
  set.seed(152)
  big <- gen(2e6)
  truth <- prr_vec(big$conf, big$q, max_rejection = 0.5)
  reps <- test_grid(200, 1000)
  hits <- 0
  for (k in seq_len(reps)) {
    d <- gen(400)
    ci <- selective_ci_vec(d$conf, 1 - d$q, metrics = "prr",
      max_rejection = 0.5)
    hits <- hits + (ci$.lower <= truth && truth <= ci$.upper)
  }
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_gte(hits / reps, band[1] - 0.02)
  expect_lte(hits / reps, band[2])
  # the analytic SE agrees with a bootstrap's at n = 2000
  d <- gen(2000)
  an <- selective_ci_vec(d$conf, 1 - d$q, metrics = "prr",
    max_rejection = 0.5)
  bs <- selective_ci_vec(d$conf, 1 - d$q, metrics = "prr",
    max_rejection = 0.5, method = "bootstrap", times = 2000)
  expect_equal(an$.std_error, bs$.std_error, tolerance = 0.1)
  # paired comparisons, analytic
  df <- data.frame(a = d$conf, b = d$conf + stats::rnorm(2000, sd = 0.4),
    loss = 1 - d$q)
  cmp <- compare_scores(df, c(a, b), loss, metric = "prr",
    max_rejection = 0.5)
  expect_equal(cmp$tests$difference,
    prr_vec(df$a, d$q, max_rejection = 0.5) -
      prr_vec(df$b, d$q, max_rejection = 0.5),
    tolerance = 1e-12)
  expect_true(is.finite(cmp$tests$std_error) && cmp$tests$std_error > 0)
})

test_that("bootstrap intervals of PRR equal PRR on the replicate rows", {
  set.seed(16)
  n <- 60
  s <- round(stats::runif(n), 1)
  q <- round(stats::runif(n), 1)
  times <- 40
  idx <- matrix(sample.int(n, n * times, replace = TRUE), times)
  ci <- selective_ci_vec(s, 1 - q, metrics = c("prr", "auarc"),
    method = "bootstrap", indices = idx, max_rejection = 0.5,
    conf_level = 0.9
  )
  reps <- apply(idx, 1, function(i) {
    c(prr_vec(s[i], q[i], max_rejection = 0.5), auarc_vec(s[i], q[i]))
  })
  expect_equal(ci$.estimate, c(prr_vec(s, q, max_rejection = 0.5),
    auarc_vec(s, q)), tolerance = 1e-12)
  expect_equal(ci$.lower, unname(apply(reps, 1, stats::quantile, 0.05)),
    tolerance = 1e-12
  )
  expect_equal(ci$.upper, unname(apply(reps, 1, stats::quantile, 0.95)),
    tolerance = 1e-12
  )
})

test_that("the analytic interval of PRR covers the population PRR", {
  # population PRR from one very large sample of the same model
  gen <- function(n) {
    conf <- stats::runif(n)
    list(conf = conf, q = stats::rbinom(n, 1, 0.3 + 0.6 * conf))
  }
  set.seed(17)
  big <- gen(2e6)
  truth <- prr_vec(big$conf, big$q)
  reps <- test_grid(200, 1000)
  hits <- 0
  for (k in seq_len(reps)) {
    d <- gen(400)
    ci <- selective_ci_vec(d$conf, 1 - d$q, metrics = "prr")
    hits <- hits + (ci$.lower <= truth && truth <= ci$.upper)
  }
  # 95% nominal; a binomial 99.9% band around it
  band <- stats::qbinom(c(0.0005, 0.9995), reps, 0.95) / reps
  expect_gte(hits / reps, band[1] - 0.02)
  expect_lte(hits / reps, band[2])
})

test_that("paired comparisons and rankings take PRR and AUARC", {
  set.seed(18)
  n <- 400
  conf <- stats::runif(n)
  q <- stats::rbinom(n, 1, 0.2 + 0.7 * conf)
  df <- data.frame(good = conf, poor = conf + stats::rnorm(n, sd = 0.5),
    loss = 1 - q)
  prr_cmp <- compare_scores(df, c(good, poor), loss, metric = "prr")
  naurc_cmp <- compare_scores(df, c(good, poor), loss, metric = "naurc")
  expect_equal(prr_cmp$tests$difference, -naurc_cmp$tests$difference,
    tolerance = 1e-12
  )
  expect_equal(prr_cmp$tests$p_value, naurc_cmp$tests$p_value,
    tolerance = 1e-12
  )
  expect_equal(prr_cmp$estimates$estimate,
    c(prr_vec(df$good, q), prr_vec(df$poor, q)),
    tolerance = 1e-12
  )
  long <- data.frame(
    case = rep(seq_len(n), 2), method = rep(c("good", "poor"), each = n),
    score = c(df$good, df$poor), loss = rep(df$loss, 2)
  )
  set.seed(1)
  rk <- bootstrap_ranking(long, method, case, score, loss,
    metrics = c("prr", "auarc"), times = 50
  )
  # higher is better for both: the good score ranks first
  first <- rk$ranking[rk$ranking$rank == 1, ]
  expect_identical(first$method, c("good", "good"))
  expect_equal(rk$ranking$full_value[rk$ranking$metric == "prr"],
    c(prr_vec(df$good, q), prr_vec(df$poor, q)),
    tolerance = 1e-12
  )
})

test_that("database tables and score tables give the in-memory values", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  skip_if_not_installed("dplyr")
  set.seed(19)
  n <- 300
  df <- data.frame(s = round(stats::runif(n), 2), g = rep(c("a", "b"), n / 2),
    w = stats::rexp(n))
  df$q <- round(pmin(1, pmax(0, 0.3 + 0.5 * df$s + stats::rnorm(n, sd = 0.2))),
    1)
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", df)
  tb <- dplyr::group_by(dplyr::tbl(con, "t"), g)
  gdf <- dplyr::group_by(df, g)
  for (r in c(1, 0.3)) {
    expect_equal(prr(tb, s, q, max_rejection = r, case_weights = w)$.estimate,
      prr(gdf, s, q, max_rejection = r, case_weights = w)$.estimate,
      tolerance = 1e-12
    )
  }
  expect_equal(auarc(tb, s, q)$.estimate, auarc(gdf, s, q)$.estimate,
    tolerance = 1e-12
  )
  # a quality outside [0, 1] is the in-memory error, found by the engine
  bad <- df
  bad$q[3] <- 1.5
  bad$q[7] <- -0.25
  DBI::dbWriteTable(con, "bad", bad)
  expect_error(prr(dplyr::tbl(con, "bad"), s, q), class = "aurc_error_value")
  expect_error(prr(dplyr::tbl(con, "bad"), s, q, max_rejection = 0.5),
    class = "aurc_error_value")
  bad$q[3] <- 0.5
  DBI::dbWriteTable(con, "bad2", bad)
  expect_error(auarc(dplyr::tbl(con, "bad2"), s, q), "-0.25")
  st <- score_table(gdf, s, 1 - q, case_weights = w)
  expect_equal(
    selective_metrics(st, metrics = c("prr", "auarc"),
      max_rejection = 0.4)$.estimate,
    selective_metrics(gdf, s, 1 - q, metrics = c("prr", "auarc"),
      max_rejection = 0.4, case_weights = w)$.estimate,
    tolerance = 1e-12
  )
})

test_that("bad input gives classed errors and warnings", {
  s <- c(0.9, 0.8, 0.7, 0.6)
  q <- c(1, 0, 1, 0)
  expect_error(prr_vec(s, c(1, 0, 2, 0)), class = "aurc_error_value")
  expect_error(prr_vec(s, c(1, 0, -0.1, 0)), class = "aurc_error_value")
  expect_error(prr_vec(s, letters[1:4]), class = "aurc_error_type")
  expect_error(auarc_vec(s, factor(q)), class = "aurc_error_type")
  expect_error(prr_vec(s, q, max_rejection = 0), class = "aurc_error_value")
  expect_error(prr_vec(s, q, max_rejection = 1.5), class = "aurc_error_value")
  expect_error(prr_vec(s, q, max_rejection = NA), class = "aurc_error_value")
  expect_error(auarc_vec(s, q, estimator = "x"), class = "aurc_error_value")
  expect_error(prr_vec(s, q, 0.5), class = "aurc_error_dots")
  expect_warning(res <- prr_vec(s, rep(0.5, 4)),
    class = "aurc_warning_undefined"
  )
  expect_identical(res, NA_real_)
  # an uncertainty given as the score
  set.seed(20)
  conf <- stats::runif(200)
  qq <- stats::rbinom(200, 1, conf)
  expect_warning(prr_vec(-conf, qq), class = "aurc_warning_direction")
  expect_no_warning(prr_vec(conf, qq))
  # NA rule
  expect_identical(prr_vec(c(s, NA), c(q, 1)), NA_real_)
  expect_equal(prr_vec(c(s, NA), c(q, 1), na_rm = TRUE), prr_vec(s, q))
})

test_that("NAURC and PRR of a constant loss that is no binary fraction are NA in every form", {
  # (0.7 and 0.3 left the denominators a rounding error away from 0 and
  # gave 0, 1, -1/3 and the like, issue 33)
  set.seed(33)
  for (n in c(33, 101, 1000, 12345)) {
    for (v in c(0.7, 0.3, 0.1, 0.9)) {
      x <- stats::runif(n)
      w <- stats::runif(n)
      l <- rep(v, n)
      q <- rep(1 - v, n)
      for (cw in list(NULL, w)) {
        # (a constant loss of 0.7 or 0.9 also looks like a confidence)
        expect_warning(r <- suppressWarnings(
          naurc_vec(x, l, case_weights = cw),
          classes = "aurc_warning_direction"
        ), class = "aurc_warning_undefined")
        expect_identical(r, NA_real_)
        expect_warning(r <- prr_vec(x, q, case_weights = cw),
                       class = "aurc_warning_undefined")
        expect_identical(r, NA_real_)
        ci <- suppressWarnings(selective_ci_vec(x, l,
          metrics = c("naurc", "prr"), case_weights = cw
        ))
        expect_true(all(is.na(ci$.estimate)))
        st <- score_table(data.frame(s = x, l = l, w = if (is.null(cw)) 1 else cw),
                          s, l, case_weights = w)
        expect_true(all(is.na(suppressWarnings(
          naurc(st, s, l)$.estimate
        ))))
      }
      # the bootstrap's replicates of a constant loss are NA too
      set.seed(1)
      b <- suppressWarnings(selective_ci_vec(x[1:40], l[1:40],
        metrics = c("naurc", "prr"), method = "bootstrap", times = 20
      ))
      expect_true(all(is.na(b$.estimate)))
      expect_true(all(is.na(attr(b, "replicates"))))
    }
  }
  # one differing loss: defined again
  l <- rep(0.7, 50)
  l[7] <- 0.2
  expect_false(is.na(suppressWarnings(naurc_vec(stats::runif(50), l),
    classes = "aurc_warning_direction"
  )))
})
