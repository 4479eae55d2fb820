# Group-conditional certification in certify_threshold() (issue 35):
# group = (or a grouped data frame), Mondrian (shared = "none") or one
# threshold for every group (shared = "threshold").

groups_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  g <- rep(c("a", "b", "c"), each = n)
  s <- round(runif(3 * n), 3)
  cf <- c(a = 0.2, b = 0.4, c = 0.8)[g]
  data.frame(
    s = s, f = rbinom(3 * n, 1, cf * (1 - s)^2),
    l = pmin(1, runif(3 * n, 0, 2 * cf * (1 - s)^2)), g = g,
    h = rep(c(1, 2), length.out = 3 * n)
  )
}

# The columns of a certificate without class and attributes.
plain <- function(x) {
  attributes(x) <- attributes(x)[c("names", "row.names", "class")]
  class(x) <- c("tbl_df", "tbl", "data.frame")
  x
}

test_that("Mondrian: each group's row is the method on that group alone", {
  d <- groups_data()
  cfgs <- list(
    list(method = "sgr", target = 0.1, delta = 0.1),
    list(method = "ltt", target = 0.1, delta = 0.1, fwer = "holm"),
    list(method = "ltt", target = 0.1, delta = 0.2,
      thresholds = seq(0.9, 0, by = -0.05)),
    list(method = "crc", target = 0.03, loss = "l")
  )
  for (cf in cfgs) {
    loss <- d[[if (is.null(cf$loss)) "f" else cf$loss]]
    args <- cf[setdiff(names(cf), c("target", "loss"))]
    res <- suppressWarnings(do.call("certify_threshold", c(
      list(d$s, loss, cf$target, group = d$g), args
    )))
    expect_equal(res$group, c("a", "b", "c"))
    expect_equal(res$n, c(300, 300, 300))
    what <- if (cf$method == "sgr") "steps" else "candidates"
    for (i in 1:3) {
      rows <- d$g == res$group[i]
      one <- suppressWarnings(do.call("certify_threshold", c(
        list(d$s[rows], loss[rows], cf$target), args
      )))
      expect_equal(plain(res[i, setdiff(names(res), c("group", "n"))]),
        plain(one), info = cf$method
      )
      tab <- attr(res, what)
      mine <- tab[tab$group == res$group[i], -1]
      expect_equal(plain(mine), plain(attr(one, what)), info = cf$method)
    }
  }
})

test_that("a grouped data frame is group =; the columns name the groups", {
  skip_if_not_installed("dplyr")
  d <- groups_data(100)
  by_df <- certify_threshold(d, s, l, 0.03, method = "crc", group = g)
  by_gdf <- certify_threshold(dplyr::group_by(d, g), s, l, 0.03,
    method = "crc"
  )
  expect_identical(by_gdf, by_df)
  expect_identical(names(by_df)[1:2], c("g", "n"))
  # the vector form names the column `group`
  by_vec <- certify_threshold(d$s, d$l, 0.03, method = "crc", group = d$g)
  expect_identical(by_vec$group, by_df$g)
  expect_identical(by_vec$threshold, by_df$threshold)
  # grouping columns and group = together: every combination, sorted
  both <- certify_threshold(dplyr::group_by(d, g), s, l, 0.03,
    method = "crc", group = h
  )
  expect_identical(names(both)[1:3], c("g", "h", "n"))
  expect_identical(both$g, rep(c("a", "b", "c"), each = 2))
  expect_identical(both$h, rep(c(1, 2), 3))
  two <- certify_threshold(d, s, l, 0.03, method = "crc",
    group = paste(g, h)
  )
  expect_identical(both$threshold, two$threshold)
  # the same column twice is kept once
  expect_identical(
    certify_threshold(dplyr::group_by(d, g), s, l, 0.03, method = "crc",
      group = g
    ),
    by_df
  )
  # factor groups in the order of their levels
  d$gf <- factor(d$g, levels = c("c", "a", "b"))
  res <- certify_threshold(d, s, l, 0.03, method = "crc", group = gf)
  expect_identical(as.character(res$gf), c("c", "a", "b"))
  expect_identical(res$threshold, by_df$threshold[c(3, 1, 2)])
  # a string names the column too
  expect_identical(
    certify_threshold(d, s, l, 0.03, method = "crc", group = "g"), by_df
  )
})

# Plain-R SGR with one threshold for every group: the binary search over
# the distinct scores of all groups, each group's bound at delta / k.
sgr_shared_literal <- function(score, failure, group, alpha, delta) {
  t <- sort(unique(score))
  k <- max(1, ceiling(log2(length(t))))
  zmin <- 1
  zmax <- length(t)
  tried <- numeric(0)
  ok_all <- logical(0)
  bounds <- list()
  for (i in seq_len(k)) {
    z <- ceiling((zmin + zmax) / 2)
    b <- sapply(sort(unique(group)), function(g) {
      acc <- score >= t[z] & group == g
      m <- sum(acc)
      x <- sum(failure[acc])
      if (m == 0) NA else if (x == m) 1 else qbeta(1 - delta / k, x + 1, m - x)
    })
    ok <- all(!is.na(b) & b <= alpha)
    tried <- c(tried, t[z])
    ok_all <- c(ok_all, ok)
    bounds[[i]] <- b
    if (ok) zmax <- z else zmin <- z
  }
  list(
    tried = tried, ok = ok_all, bounds = unlist(bounds),
    threshold = if (any(ok_all)) min(tried[ok_all]) else NA_real_
  )
}

# Plain-R LTT with one threshold for every group (binomial p-values): at
# each candidate the largest p-value of the groups, then the FWER
# procedure at delta (with an abstention limit: fixed sequence, each risk
# at delta / 2).
ltt_shared_literal <- function(score, failure, group, alpha, delta, fwer,
                               grid = NULL, beta = NULL) {
  cand <- sort(unique(if (is.null(grid)) score else grid), decreasing = TRUE)
  p_of <- function(t, abst) {
    max(sapply(unique(group), function(g) {
      in_g <- group == g
      acc <- score >= t & in_g
      m <- sum(acc)
      if (abst) return(pbinom(sum(in_g) - m, sum(in_g), beta))
      if (m == 0) 1 else pbinom(sum(failure[acc]), m, alpha)
    }))
  }
  p <- sapply(cand, p_of, abst = FALSE)
  if (!is.null(beta)) {
    pa <- sapply(cand, p_of, abst = TRUE)
    rej <- cumsum(p > delta / 2) == 0 & pa <= delta / 2
    p <- pmax(p, pa)
  } else {
    rej <- switch(fwer,
      fixed_sequence = cumsum(p > delta) == 0,
      holm = stats::p.adjust(p, "holm") <= delta,
      bonferroni = stats::p.adjust(p, "bonferroni") <= delta
    )
  }
  list(
    cand = cand, p = p, rej = rej,
    threshold = if (any(rej)) cand[max(which(rej))] else NA_real_
  )
}

test_that("shared SGR and LTT match plain-R loops", {
  set.seed(355)
  for (rep in 1:6) {
    n <- sample(c(60, 400), 1)
    g <- sample(c("x", "y", "z")[seq_len(sample(2:3, 1))], n, TRUE)
    score <- round(runif(n), sample(2:3, 1))
    fail <- rbinom(n, 1, ifelse(g == "x", 0.3, 0.6) * (1 - score)^2)
    alpha <- sample(c(0.1, 0.2), 1)
    res <- suppressWarnings(certify_threshold(score, fail, alpha,
      delta = 0.2, group = g, shared = "threshold"
    ))
    ref <- sgr_shared_literal(score, fail, g, alpha, 0.2)
    steps <- attr(res, "steps")
    ng <- length(unique(g))
    expect_equal(steps$threshold[seq(1, nrow(steps), by = ng)], ref$tried)
    expect_equal(steps$certified_all[seq(1, nrow(steps), by = ng)], ref$ok)
    expect_equal(steps$bound, unname(ref$bounds), tolerance = 1e-12)
    expect_equal(unique(res$threshold), ref$threshold)
    for (fwer in c("fixed_sequence", "holm", "bonferroni")) {
      for (grid in list(NULL, seq(1, 0, by = -0.05))) {
        res <- suppressWarnings(certify_threshold(score, fail, alpha,
          delta = 0.2, group = g, shared = "threshold", method = "ltt",
          fwer = fwer, thresholds = grid
        ))
        ref <- ltt_shared_literal(score, fail, g, alpha, 0.2, fwer, grid)
        cand <- attr(res, "candidates")
        first <- cand$group == sort(unique(g))[1]
        expect_equal(cand$threshold[first], ref$cand)
        expect_equal(cand$p_value_all[first], ref$p, tolerance = 1e-12)
        expect_identical(cand$rejected_all[first], ref$rej)
        expect_equal(unique(res$threshold), ref$threshold)
      }
    }
    res <- suppressWarnings(certify_threshold(score, fail, alpha,
      delta = 0.4, group = g, shared = "threshold", method = "ltt",
      max_abstention = 0.7, thresholds = seq(1, 0, by = -0.05)
    ))
    ref <- ltt_shared_literal(score, fail, g, alpha, 0.4, "fixed_sequence",
      seq(1, 0, by = -0.05), beta = 0.7
    )
    cand <- attr(res, "candidates")
    first <- cand$group == sort(unique(g))[1]
    expect_equal(cand$p_value_all[first], ref$p, tolerance = 1e-12)
    expect_identical(cand$rejected_all[first], ref$rej)
    expect_equal(unique(res$threshold), ref$threshold)
  }
})

test_that("shared rows: one threshold, each group's own numbers", {
  d <- groups_data(400, seed = 2)
  res <- certify_threshold(d, s, f, 0.1, delta = 0.2, group = g,
    shared = "threshold", method = "ltt",
    thresholds = seq(0.9, 0, by = -0.02)
  )
  t <- unique(res$threshold)
  expect_length(t, 1)
  for (i in 1:3) {
    acc <- d$g == res$g[i] & d$s >= t
    expect_equal(res$n_accepted[i], sum(acc))
    expect_equal(res$failures[i], sum(d$f[acc]))
    expect_equal(res$coverage[i], sum(acc) / 400)
  }
  # the shared threshold is at least every group's own (Mondrian) one
  # here (fixed sequence: each group's rejections are a prefix)
  own <- certify_threshold(d, s, f, 0.1, delta = 0.2, group = g,
    method = "ltt", thresholds = seq(0.9, 0, by = -0.02)
  )
  expect_equal(t, max(own$threshold))
  # CRC: the largest of the group thresholds, at which every group passes
  res <- certify_threshold(d, s, l, 0.02, method = "crc", group = g,
    shared = "threshold"
  )
  own <- certify_threshold(d, s, l, 0.02, method = "crc", group = g)
  expect_equal(unique(res$threshold), max(own$threshold))
  expect_equal(attr(res, "group_thresholds")$threshold, own$threshold)
  expect_true(all(res$adjusted_risk <= 0.02))
  for (i in 1:3) {
    acc <- d$g == res$g[i] & d$s >= res$threshold[i]
    expect_equal(res$joint_risk[i], sum(d$l[acc]) / 400)
  }
  i <- which.max(own$threshold)
  expect_equal(res$adjusted_risk[i], own$adjusted_risk[i])
})

# Simulation model: three groups, score ~ U(0, 1), P(failure | s, g) =
# c_g (1 - s)^2 with c = 0.2, 0.4, 0.8: the selective risk of group g at
# threshold t is R_g(t) = c_g (1 - t)^2 / 3, its expected joint risk
# J_g(t) = c_g (1 - t)^3 / 3. A threshold certified on the pooled data is
# too low for group c.
groups_cs <- c(a = 0.2, b = 0.4, c = 0.8)

groups_sim <- function(reps, n = 1000, alpha = 0.05, delta = 0.1,
                       seed = 1) {
  set.seed(seed)
  grid <- seq(0.9, 0, by = -0.01)
  configs <- list(
    sgr_none = list(), sgr_shared = list(shared = "threshold"),
    fs_none = list(method = "ltt", thresholds = grid),
    fs_shared = list(method = "ltt", thresholds = grid, shared = "threshold")
  )
  viol <- array(NA, c(reps, length(configs) + 1, 4), list(
    NULL, c(names(configs), "pooled"), c(names(groups_cs), "any")
  ))
  g <- rep(names(groups_cs), each = n)
  for (r in seq_len(reps)) {
    s <- runif(3 * n)
    f <- rbinom(3 * n, 1, groups_cs[g] * (1 - s)^2)
    for (nm in names(configs)) {
      res <- suppressWarnings(do.call("certify_threshold", c(
        list(s, f, alpha, delta = delta, group = g), configs[[nm]]
      )))
      t <- res$threshold
      v <- !is.na(t) & groups_cs[res$group] * (1 - t)^2 / 3 > alpha
      viol[r, nm, ] <- c(v, any(v))
    }
    # one certificate on the pooled data, used in every group
    t <- suppressWarnings(certify_threshold(s, f, alpha, delta = delta))
    t <- t$threshold
    v <- !is.na(t) & groups_cs * (1 - t)^2 / 3 > alpha
    viol[r, "pooled", ] <- c(v, any(v))
  }
  apply(viol, c(2, 3), mean)
}

# The share of violations may exceed delta only by Monte-Carlo noise:
# below the 0.999 quantile of Bin(reps, delta) / reps.
groups_slack <- function(reps, delta) qbinom(0.999, reps, delta) / reps

expect_groups_valid <- function(rate, reps, delta) {
  slack <- groups_slack(reps, delta)
  # Mondrian: each group on its own
  for (m in c("sgr_none", "fs_none")) {
    expect_true(all(rate[m, c("a", "b", "c")] <= slack), info = m)
  }
  # one threshold: any group at all
  for (m in c("sgr_shared", "fs_shared")) {
    expect_lte(rate[m, "any"], slack)
  }
  # the simulation can see a wrong method: the pooled threshold fails
  # group c most of the time
  expect_gt(rate["pooled", "c"], 0.5)
}

test_that("group guarantees hold by simulation (quick)", {
  skip_on_cran()
  rate <- groups_sim(60, n = 800, seed = 356)
  expect_groups_valid(rate, 60, 0.1)
})

test_that("group guarantees hold by simulation (long)", {
  skip_if_not_slow()
  rate <- groups_sim(1000, seed = 357)
  expect_groups_valid(rate, 1000, 0.1)
})

crc_groups_sim <- function(reps, n = 200, alpha = 0.03, seed = 1) {
  set.seed(seed)
  g <- rep(names(groups_cs), each = n)
  out <- array(NA, c(reps, 2, 3), list(
    NULL, c("none", "threshold"), names(groups_cs)
  ))
  for (r in seq_len(reps)) {
    s <- runif(3 * n)
    f <- rbinom(3 * n, 1, groups_cs[g] * (1 - s)^2)
    for (sh in c("none", "threshold")) {
      res <- suppressWarnings(certify_threshold(s, f, alpha,
        method = "crc", group = g, shared = sh
      ))
      t <- res$threshold
      out[r, sh, ] <- ifelse(is.finite(t),
        groups_cs[res$group] * (1 - t)^3 / 3, 0
      )
    }
  }
  out
}

expect_crc_groups_valid <- function(risk, alpha) {
  reps <- dim(risk)[1]
  for (sh in dimnames(risk)[[2]]) {
    for (g in dimnames(risk)[[3]]) {
      r <- risk[, sh, g]
      expect_lte(mean(r), alpha + 3 * stats::sd(r) / sqrt(reps))
    }
  }
}

test_that("CRC per group: mean joint risk <= alpha in every group", {
  skip_on_cran()
  expect_crc_groups_valid(crc_groups_sim(400, seed = 358), 0.03)
})

test_that("CRC per group, long simulation", {
  skip_if_not_slow()
  expect_crc_groups_valid(crc_groups_sim(5000, seed = 359), 0.03)
})

test_that("groups: classed errors and warnings", {
  d <- groups_data(20)
  expect_error(certify_threshold(d, s, f, 0.2, group = rep(1, 60)),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(d, s, f, 0.2, group = replace(g, 3, NA)),
    class = "aurc_error_missing"
  )
  # na_rm drops incomplete scores and failures, not missing groups
  expect_error(certify_threshold(d, s, f, 0.2, group = replace(g, 3, NA),
    na_rm = TRUE
  ), class = "aurc_error_missing")
  expect_error(certify_threshold(d$s, d$f, 0.2, group = d$g[-1]),
    class = "aurc_error_length"
  )
  expect_error(certify_threshold(d$s, d$f, 0.2, group = list(d$g)),
    class = "aurc_error_type"
  )
  expect_error(certify_threshold(d$s, d$f, 0.2, group = cbind(d$g, d$g)),
    class = "aurc_error_type"
  )
  expect_error(certify_threshold(d, s, f, 0.2, group = nope),
    class = "aurc_error_column"
  )
  d$threshold <- d$g
  expect_error(certify_threshold(d, s, f, 0.2, group = threshold),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(d, s, f, 0.2, group = g, shared = "all"),
    class = "aurc_error_value"
  )
  expect_error(certify_threshold(d, s, f, 0.2, group = g, method = "crc",
    loss_bound = 0.5
  ), class = "aurc_error_value")
  # a group without complete cases
  d$s2 <- ifelse(d$g == "b", NA, d$s)
  expect_error(certify_threshold(d, s2, f, 0.2, group = g, na_rm = TRUE),
    class = "aurc_error_no_data"
  )
  expect_error(certify_threshold(d, s2, f, 0.2, group = g),
    class = "aurc_error_missing"
  )
  # shared without groups
  expect_warning(certify_threshold(d, s, l, 0.3, method = "crc",
    shared = "threshold"
  ), class = "aurc_warning_ignored")
  # not certified in some groups: one warning for all, NA (Inf) for them
  d <- groups_data(100, seed = 3)
  d$f[d$g == "c"] <- 1
  w <- NULL
  res <- withCallingHandlers(
    certify_threshold(d, s, f, 0.25, delta = 0.1, group = g),
    aurc_warning_not_certified = function(cnd) {
      w <<- c(w, conditionMessage(cnd))
      invokeRestart("muffleWarning")
    }
  )
  expect_length(w, 1)
  expect_match(w, "in group \"c\"")
  expect_true(is.na(res$threshold[3]))
  expect_false(anyNA(res$threshold[1:2]))
  expect_warning(
    res <- certify_threshold(d, s, f, 0.015, method = "crc", group = g,
      shared = "threshold"
    ),
    class = "aurc_warning_not_certified"
  )
  expect_true(all(res$threshold == Inf))
  expect_true(all(res$coverage == 0))
})

test_that("the print of groups states the guarantee", {
  d <- groups_data(200)
  res <- certify_threshold(d, s, f, 0.3, delta = 0.1, group = g)
  expect_output(print(res), "Mondrian: one threshold per group, 3 groups")
  expect_output(print(res), "Guarantee in each group")
  res <- certify_threshold(d, s, f, 0.3, delta = 0.1, group = g,
    shared = "threshold"
  )
  expect_output(print(res), "One threshold for all 3 groups")
  expect_output(print(res), "in any group\\) <= 0.1")
  res <- certify_threshold(d, s, l, 0.05, method = "crc", group = g,
    shared = "threshold"
  )
  expect_output(print(res), "the largest of their thresholds")
  expect_output(print(res), "\\| g\\] <= 0.05")
  expect_output(print(res), "not with probability 1 - delta")
  expect_identical(names(tibble::as_tibble(res)), names(res))
})
