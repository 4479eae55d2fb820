# z = 1 makes the targets 0.25 / eps^2 easy to compute by hand
conf_level_z1 <- 2 * stats::pnorm(1) - 1

# the table without its class and attributes
plain <- function(x) as.data.frame(as.list(x))

# 13 dyadic confidences (exact in binary), descending; see the arithmetic in
# the first test
hand_x <- function() {
  c(
    1, 0.96875, 0.9375, 0.875, 0.8125, 0.6875, 0.625, 0.5625, 0.5,
    0.34375, 0.25, 0.1875, 0.0625
  )
}
hand_y <- function() c(1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1)

random_calibration_data <- function(n, grid = 40) {
  x <- round(stats::rbeta(n, 5, 1) * grid) / grid
  list(
    confidence = x,
    correct = stats::rbinom(n, 1, x),
    weights = stats::rpois(n, 1.5)
  )
}

test_that("hand-computed: last-bin top-up, ding2020 versus adaptive", {
  # z = 1, min_remaining = 2, min_range = 0.05, target = 0.25 / eps^2.
  # From the top: 1, .96875 (eps 1/32: target 256), .9375 (64), .875 (16),
  # .8125 (7.11), .6875 (count 6, eps 5/16: target 2.56): full, and .625
  # opens bin 2 (13 - 6 = 7 > 2 samples remain; .6875 - .0625 > .05).
  # Bin 2: .625, .5625 (64), .5 (16), .34375 (count 4, eps 9/32: 3.16):
  # full; .25 opens bin 3 (3 > 2 remain). Bin 3: .25, .1875 (64), .0625
  # (count 3, eps 3/16: target 64/9 = 7.11), short by 37/9.
  x <- hand_x()
  y <- hand_y()
  ding <- calibration_bins_vec(x, y,
    binning = "ding2020", conf_level = conf_level_z1, min_remaining = 2
  )
  # authors' top-up: trunc(37/9 * 3 / 13) = trunc(0.949) = 0 from every bin
  expect_equal(ding$n, c(3, 4, 6))
  # bins: {.25, .1875, .0625} correct 0, 0, 1: conf 0.5 / 3, acc 1/3;
  # {.625, .5625, .5, .34375} 0, 1, 0, 1: conf 2.03125 / 4, acc 1/2;
  # {1, ..., .6875} 1, 1, 1, 0, 1, 1: conf 5.28125 / 6, acc 5/6
  expect_equal(ding$mean_confidence, c(0.5 / 3, 2.03125 / 4, 5.28125 / 6))
  expect_equal(ding$accuracy, c(1 / 3, 1 / 2, 5 / 6))
  # AECE is (3 * 1/6 + 4 * 1/128 + 6 * 3/64) / 13 is 0.8125 / 13
  expect_equal(attr(ding, "ece"), 0.0625)
  expect_equal(attr(ding, "mce"), 1 / 6)

  ad <- calibration_bins_vec(x, y, conf_level = conf_level_z1, min_remaining = 2)
  # proportional: floor(37/9 * 6 / 13) = 1, floor(37/9 * 4 / 13) = 1; the
  # boundaries move up to 6 - 1 = 5 and 5 + 4 - 1 = 8 from the top
  expect_equal(ad$n, c(5, 3, 5))
  # {.5, .34375, .25, .1875, .0625} 0, 1, 0, 0, 1: conf 1.34375 / 5, acc .4
  # {.6875, .625, .5625} 1, 0, 1: conf .625, acc 2/3
  # {1, .96875, .9375, .875, .8125} 1, 1, 1, 0, 1: conf .91875, acc .8
  expect_equal(ad$mean_confidence, c(1.34375 / 5, 0.625, 0.91875))
  expect_equal(ad$accuracy, c(0.4, 2 / 3, 0.8))
  # (5 * .13125 + 3 * 1/24 + 5 * .11875) / 13 is 1.375 / 13
  expect_equal(attr(ad, "ece"), 1.375 / 13)
  expect_equal(attr(ad, "mce"), 0.13125)
  expect_equal(
    ece_vec(x, y, conf_level = conf_level_z1, min_remaining = 2),
    1.375 / 13
  )
  expect_equal(
    mce_vec(x, y,
      binning = "ding2020", conf_level = conf_level_z1,
      min_remaining = 2
    ),
    1 / 6
  )
})

test_that("hand-computed: adaptive equals ding2020 where no quirk bites", {
  # no ties; 1, .875, .75, .625 (eps 3/8: target 1.78, count 4) full,
  # then .5, .375, .25, .125 (eps 3/8, count 4, short by 1/0.5625 - 4 < 0:
  # target 1.78 is met): no top-up, the same bins
  x <- c(1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125)
  y <- c(1, 1, 0, 1, 0, 1, 0, 0)
  a <- calibration_bins_vec(x, y, conf_level = conf_level_z1, min_remaining = 2)
  d <- calibration_bins_vec(x, y,
    binning = "ding2020", conf_level = conf_level_z1, min_remaining = 2
  )
  expect_equal(a$n, c(4, 4))
  expect_equal(plain(a), plain(d))
  # a top-up with equal bin counts: 1, .9, .8, .7 (eps .3: 2.78), then .6,
  # .5, .45, .4 (eps .2: target 6.25, short by 2.25); both take
  # floor(2.25 * 4 / 8) = 1 from the top bin: 3 and 5
  x <- c(1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4)
  a <- calibration_bins_vec(x, y, conf_level = conf_level_z1, min_remaining = 2)
  d <- calibration_bins_vec(x, y,
    binning = "ding2020", conf_level = conf_level_z1, min_remaining = 2
  )
  expect_equal(a$n, c(5, 3))
  expect_equal(plain(a), plain(d))
})

test_that("hand-computed: ding2020 splits ties, adaptive never does", {
  # min_remaining 3: 1, then .5 (eps .5: target 1, count 2 > 1), so in the
  # authors' code the second .5 opens bin 2 (8 - 2 = 6 > 3 remain); the
  # adaptive binning adds the three .5 at once ({1, .5, .5, .5}, count 4 >
  # 1), then .25 opens bin 2 (4 > 3 remain): .25, .1875, .125, 0 (eps .25:
  # target 4 = count, not short)
  x <- c(0.5, 1, 0.25, 0.5, 0.1875, 0.5, 0.125, 0)
  y <- c(1, 1, 0, 0, 1, 0, 0, 1)
  args <- list(conf_level = conf_level_z1, min_remaining = 3)
  d <- do.call(calibration_bins_vec, c(list(x, y, binning = "ding2020"), args))
  a <- do.call(calibration_bins_vec, c(list(x, y), args))
  expect_equal(d$n, c(6, 2))
  expect_equal(a$n, c(4, 4))
  # ding2020: the first .5 in the input (correct) joins 1 in the top bin
  expect_equal(d$accuracy, c(2 / 6, 1))
  expect_equal(d$min_confidence, c(0, 0.5))
  expect_equal(d$max_confidence, c(0.5, 1))
  # so its result depends on the order of the rows; adaptive does not
  o <- c(6, 2, 3, 4, 5, 1, 7, 8)
  d2 <- do.call(
    calibration_bins_vec, c(list(x[o], y[o], binning = "ding2020"), args)
  )
  # now the first .5 in the input is wrong: top {1, .5} has accuracy 1/2,
  # the bottom bin 3/6
  expect_equal(d2$accuracy, c(3 / 6, 1 / 2))
  a2 <- do.call(calibration_bins_vec, c(list(x[o], y[o]), args))
  expect_equal(plain(a2), plain(a))
})

test_that("ding2020 is an error where the authors' code has no result", {
  args <- list(conf_level = conf_level_z1, min_remaining = 2)
  # 1, .5 (target 1) then 0, 0, 0: a last bin of one value, infinite target
  x <- c(1, 0.5, 0, 0, 0)
  y <- c(1, 1, 0, 1, 0)
  expect_snapshot(
    error = TRUE,
    do.call(calibration_bins_vec, c(list(x, y, binning = "ding2020"), args))
  )
  # adaptive: no top-up
  a <- do.call(calibration_bins_vec, c(list(x, y), args))
  expect_equal(a$n, c(3, 2))
  # min_remaining 1, n = 8: 1, .5 (eps .5: target 1, count 2) full; the
  # second .5 opens bin 2: .5, .5 (eps 0), .25 (eps .25: 4), .1875 (eps
  # .3125: 2.56, count 4) full; .125 opens bin 3 (8 - 5 = 3 > 1 remain,
  # .1875 - 0 > .05): .125, 0 (eps .125: target 16), short by 14. The
  # authors' top-up takes trunc(14 * 2 / 8) = 3 from every bin, leaving the
  # top bin 2 - 3 = -1 samples.
  x <- c(1, 0.5, 0.5, 0.5, 0.25, 0.1875, 0.125, 0)
  y <- rep(1, 8)
  expect_identical(literal_ding2020_bins(x, z = 1, min_remaining = 1),
    "non-positive bin")
  expect_snapshot(
    error = TRUE,
    calibration_bins_vec(x, y,
      binning = "ding2020", conf_level = conf_level_z1,
      min_remaining = 1
    )
  )
  # adaptive: {1, .5, .5, .5} (count 4 > target 1), then .25 opens bin 2
  # (8 - 4 = 4 > 1 remain): .25, .1875, .125, 0 (eps .25: target 4 = count)
  a <- calibration_bins_vec(x, y, conf_level = conf_level_z1, min_remaining = 1)
  expect_equal(a$n, c(4, 4))
})

test_that("z is qnorm(1 - (1 - conf_level) / 2) to three decimals", {
  x <- c(0.9, 0.8)
  expect_equal(attr(calibration_bins_vec(x, c(1, 0)), "z"), 1.645)
  expect_equal(
    attr(calibration_bins_vec(x, c(1, 0), conf_level = 0.8), "z"), 1.282
  )
})

test_that("adaptive and ding2020 equal their literal definitions", {
  set.seed(606)
  for (rep in 1:40) {
    n <- sample(c(5, 30, 80, 200, 500), 1)
    d <- random_calibration_data(n, grid = sample(c(20, 100, 1e6), 1))
    mr <- sample(c(0, 5, 40), 1)
    bin <- literal_ding2020_bins(d$confidence, min_remaining = mr)
    if (is.character(bin)) {
      expect_error(
        calibration_bins_vec(d$confidence, d$correct,
          binning = "ding2020", min_remaining = mr
        ),
        class = "aurc_error_ding2020"
      )
    } else {
      tab <- literal_bin_table(d$confidence, d$correct, bin, max(bin))
      got <- calibration_bins_vec(d$confidence, d$correct,
        binning = "ding2020", min_remaining = mr
      )
      expect_equal(as.data.frame(got)[names(tab)], tab)
      expect_equal(attr(got, "ece"), literal_ece(tab))
      expect_equal(attr(got, "mce"), literal_mce(tab))
    }
    # fractional weights are dyadic so that sums are exact in any order (a
    # boundary exactly halfway between two tie-group edges is then decided
    # the same way by both implementations)
    for (w in list(rep(1, n), d$weights, d$weights / 4)) {
      if (sum(w) == 0) next
      if (sum(w) < 1) {
        # adaptive bins count cases: less than one is an error (issue 33)
        expect_error(
          calibration_bins_vec(d$confidence, d$correct,
            min_remaining = mr, case_weights = w
          ),
          class = "aurc_error_weights_scale"
        )
        next
      }
      bin <- literal_adaptive_bins(d$confidence, w, min_remaining = mr)
      keep <- w > 0
      tab <- literal_bin_table(d$confidence, d$correct, bin, max(bin), w)
      tab <- tab[tab$n > 0, ]
      rownames(tab) <- NULL
      got <- calibration_bins_vec(d$confidence, d$correct,
        min_remaining = mr, case_weights = w
      )
      # zero-weight samples are dropped before binning: compare with the
      # literal bins of the remaining samples
      bin2 <- literal_adaptive_bins(d$confidence[keep], w[keep],
        min_remaining = mr
      )
      tab2 <- literal_bin_table(d$confidence[keep], d$correct[keep], bin2,
        max(bin2), w[keep]
      )
      expect_equal(as.data.frame(got)[names(tab2)], tab2)
      expect_equal(attr(got, "ece"), literal_ece(tab2))
      expect_equal(attr(got, "mce"), literal_mce(tab2))
    }
  }
})

test_that("adaptive bins never split ties and are never empty", {
  set.seed(7)
  for (rep in 1:30) {
    d <- random_calibration_data(400, grid = 25)
    got <- calibration_bins_vec(d$confidence, d$correct, min_remaining = 10)
    expect_true(all(got$n > 0))
    if (nrow(got) > 1) {
      expect_true(all(got$max_confidence[-nrow(got)] < got$min_confidence[-1]))
    }
  }
  # all equal, a tie group larger than any target, n < min_remaining
  one <- calibration_bins_vec(rep(0.8, 100), rep(c(0, 1), 50))
  expect_equal(nrow(one), 1)
  expect_equal(one$accuracy, 0.5)
  few <- calibration_bins_vec(seq(0.1, 0.9, length.out = 30), rep(1, 30))
  expect_equal(nrow(few), 1)
  big_tie <- calibration_bins_vec(c(rep(0.9, 500), seq(0, 0.8, length.out = 200)),
    rep(1, 700)
  )
  expect_true(all(big_tie$n > 0))
  expect_equal(sum(big_tie$max_confidence == 0.9), 1)
  expect_equal(big_tie$n[big_tie$max_confidence == 0.9] >= 500, TRUE)
})

test_that("equal width: bins closed on the right, edges b / k", {
  # 0.3 is edge 3 / 10 (bin 3); 0.1 * 3 = 0.30000000000000004 is bin 4
  expect_equal(equal_width_bin_impl(c(0.3, 0.1 * 3, 0.7, 1, 0), 10),
    c(3, 4, 7, 10, 1))
  got <- calibration_bins_vec(c(0.3, 0.1 * 3, 0.7, 1, 0), c(1, 0, 1, 1, 0),
    binning = "equal_width"
  )
  expect_equal(got$n, c(1, 0, 1, 1, 0, 0, 1, 0, 0, 1))
  expect_equal(got$lower, (0:9) / 10)
  expect_equal(got$upper, (1:10) / 10)
  expect_true(is.na(got$accuracy[2]) && is.na(got$min_confidence[2]))
  # 0 lands in the first bin [0, 0.1]; 1 in the last (0.9, 1]
  expect_equal(got$accuracy[c(1, 10)], c(0, 1))
})

test_that("equal width and custom breaks equal their literal definitions", {
  set.seed(31)
  for (rep in 1:20) {
    n <- sample(c(10, 100, 300), 1)
    d <- random_calibration_data(n, grid = 20)
    d$confidence[sample(n, 3)] <- c(0, 1, 0.3)
    k <- sample(c(1, 3, 10, 15), 1)
    w <- d$weights + 0.5
    edges <- (0:k) / k
    bin <- literal_breaks_bin(d$confidence, edges)
    tab <- literal_bin_table(d$confidence, d$correct, bin, k, w)
    got <- calibration_bins_vec(d$confidence, d$correct,
      binning = "equal_width", n_bins = k, case_weights = w
    )
    expect_equal(as.data.frame(got)[names(tab)], tab)
    expect_equal(
      ece_vec(d$confidence, d$correct,
        binning = "equal_width",
        n_bins = k, case_weights = w
      ),
      literal_ece(tab)
    )
    expect_equal(
      mce_vec(d$confidence, d$correct,
        binning = "equal_width",
        n_bins = k, case_weights = w
      ),
      literal_mce(tab)
    )
    br <- sort(unique(c(0, 1, round(stats::runif(3), 2))))
    bin <- literal_breaks_bin(d$confidence, br)
    tab <- literal_bin_table(d$confidence, d$correct, bin, length(br) - 1)
    got <- calibration_bins_vec(d$confidence, d$correct, breaks = br)
    expect_equal(attr(got, "binning"), "custom")
    expect_equal(as.data.frame(got)[names(tab)], tab)
    expect_equal(
      ece_vec(d$confidence, d$correct, breaks = br),
      literal_ece(tab)
    )
    expect_equal(
      mce_vec(d$confidence, d$correct, breaks = br), literal_mce(tab)
    )
  }
})

test_that("ECE and MCE equal a plain R computation for custom breaks", {
  set.seed(2)
  x <- stats::runif(1000)
  y <- stats::rbinom(1000, 1, x^2)
  br <- c(0, 0.2, 0.5, 0.75, 0.9, 1)
  b <- cut(x, br, include.lowest = TRUE, right = TRUE)
  gap <- abs(tapply(y, b, mean) - tapply(x, b, mean))
  nb <- tabulate(b, length(br) - 1)
  expect_equal(ece_vec(x, y, breaks = br), sum(nb * gap) / 1000)
  expect_equal(mce_vec(x, y, breaks = br), max(gap))
})

test_that("equal mass: sizes differ by at most one, ties never split", {
  for (n in c(7, 10, 99, 100, 101)) {
    for (k in c(1, 2, 3, 10)) {
      got <- calibration_bins_vec(seq_len(n) / (n + 1), rep(1, n),
        binning = "equal_mass", n_bins = k
      )
      expect_equal(nrow(got), min(n, k))
      expect_lte(max(got$n) - min(got$n), 1)
      expect_equal(sum(got$n), n)
    }
  }
  set.seed(5)
  for (rep in 1:20) {
    d <- random_calibration_data(sample(c(20, 150), 1), grid = 15)
    k <- sample(c(2, 5, 10), 1)
    w <- if (rep %% 2) rep(1, length(d$confidence)) else d$weights + 0.25
    bin <- literal_equal_mass_bins(d$confidence, k, w)
    tab <- literal_bin_table(d$confidence, d$correct, bin, max(bin), w)
    got <- calibration_bins_vec(d$confidence, d$correct,
      binning = "equal_mass", n_bins = k, case_weights = w
    )
    expect_equal(as.data.frame(got)[names(tab)], tab)
    expect_true(all(got$n > 0))
    if (nrow(got) > 1) {
      expect_true(all(got$max_confidence[-nrow(got)] < got$min_confidence[-1]))
    }
  }
})

test_that("intervals are 95% Wilson intervals of the bin accuracy", {
  set.seed(3)
  d <- random_calibration_data(300, grid = 50)
  got <- calibration_bins_vec(d$confidence, d$correct, binning = "equal_mass")
  ci <- literal_wilson(got$accuracy, got$n)
  expect_equal(got$accuracy_lower, pmax(ci[, "lower"], 0))
  expect_equal(got$accuracy_upper, pmin(ci[, "upper"], 1))
  expect_equal(got$gap, got$accuracy - got$mean_confidence)
  expect_true(all(got$accuracy_lower <= got$accuracy))
  expect_true(all(got$accuracy_upper >= got$accuracy))
  # edges of data-driven bins: midpoints between neighbours
  expect_equal(got$lower[-1], got$upper[-nrow(got)])
  expect_equal(
    got$upper[-nrow(got)],
    (got$max_confidence[-nrow(got)] + got$min_confidence[-1]) / 2
  )
})

test_that("row order, repeated rows and case weights", {
  set.seed(9)
  d <- random_calibration_data(250, grid = 30)
  w <- d$weights
  rep_x <- rep(d$confidence, w)
  rep_y <- rep(d$correct, w)
  o <- sample(250)
  for (b in c("adaptive", "equal_width", "equal_mass")) {
    ign <- b != "adaptive" # min_remaining is an option of adaptive bins
    a <- with_ignored(calibration_bins_vec(d$confidence, d$correct,
      binning = b, min_remaining = 5
    ), ign)
    r <- with_ignored(calibration_bins_vec(d$confidence[o], d$correct[o],
      binning = b,
      min_remaining = 5
    ), ign)
    expect_equal(as.data.frame(a), as.data.frame(r))
    cw <- with_ignored(calibration_bins_vec(d$confidence, d$correct,
      binning = b,
      min_remaining = 5, case_weights = w
    ), ign)
    rr <- with_ignored(
      calibration_bins_vec(rep_x, rep_y, binning = b, min_remaining = 5), ign
    )
    expect_equal(as.data.frame(cw), as.data.frame(rr))
    expect_equal(attr(cw, "ece"), attr(rr, "ece"))
  }
})

test_that("missing values and no data", {
  x <- c(0.9, NA, 0.6, 0.7)
  y <- c(1, 0, NA, 1)
  expect_identical(ece_vec(x, y), NA_real_)
  expect_identical(mce_vec(x, y), NA_real_)
  expect_equal(
    ece_vec(x, y, na_rm = TRUE, binning = "equal_width"),
    ece_vec(c(0.9, 0.7), c(1, 1), binning = "equal_width")
  )
  expect_snapshot(error = TRUE, calibration_bins_vec(x, y))
  expect_equal(calibration_bins_vec(x, y, na_rm = TRUE)$n, 2)
  expect_snapshot(ece_vec(c(0.5, 0.6), c(1, 0), case_weights = c(0, 0)))
  expect_snapshot(
    error = TRUE,
    calibration_bins_vec(c(0.5, 0.6), c(1, 0), case_weights = c(0, 0))
  )
  expect_snapshot(ece_vec(NA_real_, NA_real_, na_rm = TRUE))
})

test_that("bad input is a classed error", {
  expect_snapshot(error = TRUE, calibration_bins_vec(c(0.5, 1.2), c(1, 0)))
  expect_snapshot(error = TRUE, ece_vec(c(-0.1, 0.5), c(1, 0)))
  expect_snapshot(error = TRUE, ece_vec(c(0.1, 0.5), c(1, 2)))
  expect_snapshot(error = TRUE, ece_vec(c(0.1, 0.5), c(1, 0, 1)))
  expect_snapshot(error = TRUE, ece_vec("a", 1))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, binning = "quantile"))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, n_bins = 0))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, n_bins = 2.5))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, conf_level = 1))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, min_remaining = -1))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, min_range = NA))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, breaks = c(0, 0.5, 0.4, 1)))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, breaks = c(0.1, 1)))
  expect_snapshot(
    error = TRUE,
    ece_vec(0.5, 1, binning = "equal_mass", breaks = c(0, 1))
  )
  expect_snapshot(
    error = TRUE,
    ece_vec(0.5, 1, binning = "ding2020", case_weights = 1)
  )
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, case_weights = c(1, 2)))
  expect_snapshot(error = TRUE, ece_vec(0.5, 1, 10))
  expect_snapshot(error = TRUE, calibration_bins_vec(0.5, 1, na_rm = "yes"))
  expect_error(ece_vec(0.5, 1, breaks = c(0, 1)), NA)
  expect_error(ece_vec(0.5, 1, binning = "equal_width", breaks = c(0, 1)), NA)
  expect_error(ece_vec(c(0.5, 1.2), c(1, 0)), class = "aurc_error")
})

test_that("data-frame forms, groups and estimator names", {
  set.seed(4)
  d <- random_calibration_data(200)
  df <- data.frame(conf = d$confidence, ok = d$correct, w = d$weights,
    g = rep(c("a", "b"), 100)
  )
  res <- ece(df, conf, ok)
  expect_s3_class(res, "tbl_df")
  expect_equal(res$.metric, "ece")
  expect_equal(res$.estimator, "adaptive")
  expect_equal(res$.estimate, ece_vec(df$conf, df$ok))
  res <- mce(df, conf, ok, binning = "equal_mass", case_weights = w)
  expect_equal(res$.estimator, "equal_mass")
  expect_equal(
    res$.estimate,
    mce_vec(df$conf, df$ok, binning = "equal_mass", case_weights = df$w)
  )
  expect_equal(ece(df, conf, ok, breaks = c(0, 0.5, 1))$.estimator, "custom")
  expect_equal(ece(df, conf, ok, binning = "ding2020")$.estimator, "ding2020")
  grouped <- ece(dplyr::group_by(df, g), conf, ok, binning = "equal_width")
  expect_equal(grouped$g, c("a", "b"))
  expect_equal(
    grouped$.estimate[2],
    ece_vec(df$conf[df$g == "b"], df$ok[df$g == "b"], binning = "equal_width")
  )
})

test_that("print states the settings", {
  x <- hand_x()
  y <- hand_y()
  expect_snapshot(calibration_bins_vec(x, y, conf_level = conf_level_z1,
    min_remaining = 2))
  expect_snapshot(calibration_bins_vec(x, y, binning = "equal_width", n_bins = 4))
  expect_snapshot(calibration_bins_vec(x, y, binning = "ding2020"))
})

test_that("a subset of the bins is a plain tibble", {
  # a subset used to keep the class, so it printed the header of the whole
  # binning ("10 bins ...; ECE = ...") over a single row
  bins <- calibration_bins_vec(c(0.15, 0.25, 0.55, 0.95), c(0, 1, 1, 1),
    binning = "equal_width"
  )
  expect_s3_class(bins, "aurc_calibration_bins")
  for (part in list(bins[10, ], bins[, c("n", "gap")], bins["n"],
                    bins[bins$n > 0, "gap"])) {
    expect_identical(class(part), c("tbl_df", "tbl", "data.frame"))
    expect_null(attr(part, "ece"))
    expect_null(attr(part, "binning"))
  }
  expect_identical(bins[10, ]$n, 1)
  expect_identical(bins[bins$n > 0, "gap"]$gap, bins$gap[bins$n > 0])
  expect_identical(bins[, "n", drop = TRUE], bins$n)
  expect_identical(bins[["n"]], bins$n)
})

test_that("top_label: confidence and correctness from probabilities", {
  probs <- rbind(
    c(0.7, 0.2, 0.1), c(0.3, 0.3, 0.4), c(0.5, 0.5, 0), c(NA, 0.5, 0.5)
  )
  # maxima 0.7 (class 1), 0.4 (class 3), 0.5 (tie: first, class 1)
  got <- top_label(probs, c(1, 3, 2, 1))
  expect_equal(got$confidence, c(0.7, 0.4, 0.5, NA))
  expect_identical(got$correct, c(1L, 1L, 0L, NA))
  colnames(probs) <- c("x", "y", "z")
  f <- factor(c("x", "z", "y", "x"), levels = c("z", "y", "x"))
  expect_equal(top_label(probs, f), got)
  expect_equal(
    top_label(unname(probs), factor(c("a", "c", "b", "a")))$correct,
    got$correct
  )
  expect_snapshot(error = TRUE, top_label(rbind(c(0.5, 0.5), c(0.7, 0.4)), 1:2))
  bad_sign <- rbind(c(0.5, 0.5), c(1.5, -0.5))
  expect_snapshot(error = TRUE, top_label(bad_sign, 1:2))
  bad_label <- rbind(c(0.5, 0.5), c(0.5, 0.5))
  expect_snapshot(error = TRUE, top_label(bad_label, c(1, 3)))
  expect_snapshot(error = TRUE, top_label(c(0.5, 0.5), 1))
  expect_snapshot(error = TRUE, top_label(rbind(c(0.5, 0.5)), factor("a")))
  expect_snapshot(error = TRUE, top_label(rbind(c(0.5, 0.5)), 1:2))
  # within 1e-6 is accepted, and the confidence stays in [0, 1]
  near <- top_label(rbind(c(1 + 5e-7, 0)), 1)
  expect_equal(near$confidence, 1)
})

test_that("print shows a few columns in plain numbers; the full table stays", {
  set.seed(7)
  n <- 200000
  confidence <- c(rep(0.9999991, 50), stats::runif(n - 50, 0.99, 0.999999))
  correct <- stats::rbinom(n, 1, 0.99)
  bins <- calibration_bins_vec(confidence, correct, binning = "equal_mass",
    n_bins = 5
  )
  out <- utils::capture.output(print(bins))
  expect_false(any(grepl("e[-+][0-9]", out)))
  header <- out[grepl("^ *bin ", out)]
  expect_length(header, 1)
  expect_match(header, "confidence range +n +mean confidence +accuracy +gap")
  expect_true(any(grepl("200,000 samples", out)))
  # neighbouring edges stay apart: enough decimals are shown
  ranges <- sub("^ *[0-9]+ +([0-9.]+ - [0-9.]+).*$", "\\1",
    out[grepl("^ *[0-9]+ +[0-9.]+ - ", out)])
  expect_length(ranges, nrow(bins))
  expect_false(anyDuplicated(ranges) > 0)
  full <- tibble::as_tibble(bins)
  expect_identical(ncol(full), 11L)
  expect_identical(full$accuracy_upper, bins$accuracy_upper)
})

test_that("ece_vec() and mce_vec() equal the errors of the full bin table", {
  # the metric path skips the tables; it must keep their arithmetic
  set.seed(151)
  conf <- round(stats::runif(500), 2)
  correct <- stats::rbinom(500, 1, conf)
  w <- stats::rexp(500)
  for (b in c("adaptive", "equal_width", "equal_mass")) {
    tab <- calibration_bins_vec(conf, correct, binning = b, case_weights = w)
    expect_identical(
      ece_vec(conf, correct, binning = b, case_weights = w),
      attr(tab, "ece")
    )
    expect_identical(
      mce_vec(conf, correct, binning = b, case_weights = w),
      attr(tab, "mce")
    )
  }
  tab <- calibration_bins_vec(conf, correct, binning = "ding2020")
  expect_identical(ece_vec(conf, correct, binning = "ding2020"),
    attr(tab, "ece"))
})
