# Three models on the same cases, wide (one column per model) and long
# (their rows stacked with a model column, in the same case order).
make_wide <- function(n = 300, seed = 11) {
  set.seed(seed)
  latent <- rnorm(n)
  data.frame(
    id = seq_len(n),
    a = round(latent + rnorm(n, sd = 0.6), 1),
    b = round(latent + rnorm(n, sd = 1), 1),
    c = rnorm(n),
    fail_a = rbinom(n, 1, plogis(-1.2 - 1.5 * latent)),
    fail_b = rbinom(n, 1, plogis(-0.8 - 1.2 * latent)),
    fail_c = rbinom(n, 1, plogis(-1)),
    loss = rexp(n) * plogis(-latent),
    w = rep(1:3, length.out = n),
    g = rep(c("x", "y"), length.out = n)
  )
}

make_long <- function(wide, models = c("a", "b", "c")) {
  do.call(rbind, lapply(models, function(m) {
    data.frame(
      model = m, id = wide$id, confidence = wide[[m]],
      failure = wide[[paste0("fail_", m)]], loss = wide$loss, w = wide$w,
      g = wide$g
    )
  }))
}

expect_same_comparison <- function(long, wide) {
  expect_identical(long$tests, wide$tests)
  expect_identical(long$estimates, wide$estimates)
  expect_identical(long$settings$scores, wide$settings$scores)
  expect_identical(long$settings$n, wide$settings$n)
}

test_that("the long form equals the wide form: analytic, own failures", {
  wide <- make_wide()
  long <- make_long(wide)
  for (metric in c("aurc", "augrc", "failure_auroc")) {
    w <- compare_scores(wide, c(a, b, c), c(fail_a, fail_b, fail_c),
      metric = metric
    )
    l <- compare_scores(long, confidence, failure, model = model,
      metric = metric
    )
    expect_same_comparison(l, w)
    expect_identical(l$settings$losses,
      c("failure (a)", "failure (b)", "failure (c)")
    )
    # pairing by the case id gives the same, whatever the order of rows
    set.seed(3)
    shuffled <- long[sample(nrow(long)), ]
    expect_same_comparison(
      compare_scores(shuffled, confidence, failure, model = model,
        case = id, metric = metric
      ),
      w
    )
  }
  # the correctness of each model, and a loss shared by every model
  expect_same_comparison(
    compare_scores(long, confidence, correct = 1 - failure, model = model),
    compare_scores(wide, c(a, b, c), c(fail_a, fail_b, fail_c))
  )
  shared <- compare_scores(long, confidence, loss, model = model)
  expect_same_comparison(shared, compare_scores(wide, c(a, b, c), loss))
  expect_identical(shared$settings$losses, "loss")
})

test_that("the long form equals the wide form: bootstrap", {
  wide <- make_wide(200, seed = 4)
  long <- make_long(wide, c("a", "b"))
  set.seed(5)
  idx <- matrix(sample.int(nrow(wide), 50 * nrow(wide), replace = TRUE), 50)
  w <- compare_scores(wide, c(a, b), c(fail_a, fail_b), metric = "augrc",
    method = "bootstrap", indices = idx
  )
  l <- compare_scores(long, confidence, failure, model = model,
    metric = "augrc", method = "bootstrap", indices = idx
  )
  expect_same_comparison(l, w)
  set.seed(6)
  w <- compare_scores(wide, c(a, b), loss, method = "bootstrap", times = 60)
  set.seed(6)
  l <- compare_scores(long, confidence, loss, model = model,
    method = "bootstrap", times = 60
  )
  expect_same_comparison(l, w)
})

test_that("the long form equals the wide form: weights, groups, options", {
  skip_if_not_installed("dplyr")
  wide <- make_wide()
  long <- make_long(wide)
  expect_same_comparison(
    compare_scores(long, confidence, failure, model = model,
      case_weights = w
    ),
    compare_scores(wide, c(a, b, c), c(fail_a, fail_b, fail_c),
      case_weights = w
    )
  )
  skip_if_not_installed("hardhat")
  long$iw <- hardhat::importance_weights(long$w / 2)
  wide$iw <- hardhat::importance_weights(wide$w / 2)
  expect_same_comparison(
    compare_scores(long, confidence, failure, model = model,
      case_weights = iw, metric = "failure_auroc"
    ),
    compare_scores(wide, c(a, b, c), c(fail_a, fail_b, fail_c),
      case_weights = iw, metric = "failure_auroc"
    )
  )
  # grouped: the rows paired within each group
  l <- compare_scores(dplyr::group_by(long, g), confidence, failure,
    model = model, strata = w, p_adjust = "none"
  )
  w <- compare_scores(dplyr::group_by(wide, g), c(a, b, c),
    c(fail_a, fail_b, fail_c), strata = w, p_adjust = "none"
  )
  expect_same_comparison(l, w)
  expect_identical(l$tests$g, rep(c("x", "y"), each = 3))
  expect_same_comparison(
    compare_scores(dplyr::group_by(long, g), confidence, failure,
      model = model, case = id
    ),
    compare_scores(dplyr::group_by(wide, g), c(a, b, c),
      c(fail_a, fail_b, fail_c)
    )
  )
  # a factor orders the models by its levels
  long$model <- factor(long$model, c("c", "a", "b"))
  l <- compare_scores(long, confidence, failure, model = model)
  expect_identical(l$estimates$score, c("c", "a", "b"))
  expect_same_comparison(l,
    compare_scores(wide, c(c, a, b), c(fail_c, fail_a, fail_b))
  )
})

test_that("stacked augment() output of two models", {
  # what parsnip's augment() gives for a two-class model, by hand
  set.seed(8)
  n <- 250
  truth <- factor(sample(c("a", "b"), n, replace = TRUE), c("a", "b"))
  augmented <- function(sharpness) {
    p_a <- plogis(sharpness * (2 * (truth == "a") - 1) + rnorm(n))
    data.frame(
      .pred_class = factor(ifelse(p_a >= 0.5, "a", "b"), c("a", "b")),
      .pred_a = p_a, .pred_b = 1 - p_a, truth = truth
    )
  }
  fits <- list(logistic = augmented(1), forest = augmented(0.5))
  stacked <- do.call(rbind, Map(function(d, m) cbind(model = m, d),
    fits, names(fits)
  ))
  probs <- as.matrix(stacked[c(".pred_a", ".pred_b")])
  stacked$msp <- confidence_score(probs, "msp", from = "probs")
  stacked$margin <- confidence_score(probs, "margin", from = "probs")
  stacked$correct <- stacked$.pred_class == stacked$truth
  l <- compare_scores(stacked, msp, correct = correct, model = model,
    metric = "failure_auroc"
  )
  by_hand <- data.frame(
    forest = pmax(fits$forest$.pred_a, fits$forest$.pred_b),
    logistic = pmax(fits$logistic$.pred_a, fits$logistic$.pred_b),
    fail_forest = as.numeric(fits$forest$.pred_class != truth),
    fail_logistic = as.numeric(fits$logistic$.pred_class != truth)
  )
  w <- compare_scores(by_hand, c(forest, logistic),
    c(fail_forest, fail_logistic), metric = "failure_auroc"
  )
  expect_equal(l$tests, w$tests, tolerance = 1e-12)
  expect_equal(l$estimates, w$estimates, tolerance = 1e-12)
  # the truth of a case is the same on the rows of every model
  ba <- compare_scores(stacked, margin, correct = correct, model = model,
    metric = "aurc_ba", truth = truth
  )
  expect_identical(ba$estimates$score, c("forest", "logistic"))
  expect_true(all(is.finite(ba$tests$p_value)))
})

test_that("long form: classed errors name the argument", {
  wide <- make_wide(40)
  long <- make_long(wide, c("a", "b"))
  expect_snapshot(error = TRUE, {
    # unequal row counts
    compare_scores(long[-1, ], confidence, failure, model = model)
    # a missing and a duplicated case
    compare_scores(long[-1, ], confidence, failure, model = model,
      case = id
    )
    compare_scores(long[c(1, seq_len(nrow(long))), ], confidence, failure,
      model = model, case = id
    )
    # several score or loss columns
    compare_scores(long, c(confidence, loss), failure, model = model)
    compare_scores(long, confidence, c(failure, loss), model = model)
    # `case` without `model`, and the two swapped
    compare_scores(long, confidence, failure, case = id)
    compare_scores(long, confidence, failure, model = id, case = model)
  })
  expect_error(
    compare_scores(long[-1, ], confidence, failure, model = model),
    class = "aurc_error_value"
  )
  for (drop in list(-1, -nrow(long))) {
    expect_error(
      compare_scores(long[drop, ], confidence, failure, model = model,
        case = id
      ),
      class = "aurc_error_value"
    )
  }
  expect_error(
    compare_scores(long[c(1, seq_len(nrow(long))), ], confidence, failure,
      model = model, case = id
    ),
    class = "aurc_error_value"
  )
  expect_error(
    compare_scores(long, c(confidence, loss), failure, model = model),
    class = "aurc_error_value"
  )
  one <- long[long$model == "a", ]
  expect_error(compare_scores(one, confidence, failure, model = model),
    class = "aurc_error_value"
  )
  long$model[3] <- NA
  expect_error(compare_scores(long, confidence, failure, model = model),
    class = "aurc_error_missing"
  )
  skip_if_not_installed("dplyr")
  # within each group: the group is named
  long <- make_long(wide, c("a", "b"))[-4, ]
  expect_snapshot(error = TRUE, {
    compare_scores(dplyr::group_by(long, g), confidence, failure,
      model = model
    )
  })
})

test_that("long form: the values of a case must agree across models", {
  skip_if_not_installed("dplyr")
  wide <- make_wide(40)
  long <- make_long(wide, c("a", "b"))
  # the rows of model b in another order: without `case` the weights of
  # the k-th rows differ
  b <- long$model == "b"
  long[b, ] <- long[b, ][rev(seq_len(sum(b))), ]
  expect_snapshot(error = TRUE, {
    compare_scores(long, confidence, failure, model = model,
      case_weights = w
    )
    compare_scores(dplyr::group_by(long, model), confidence, failure,
      model = model
    )
  })
  expect_error(
    compare_scores(long, confidence, failure, model = model,
      case_weights = w
    ),
    class = "aurc_error_value"
  )
  expect_no_error(
    compare_scores(long, confidence, failure, model = model,
      case = id, case_weights = w
    )
  )
  expect_error(
    compare_scores(dplyr::group_by(long, g), confidence, failure,
      model = model, strata = id
    ),
    class = "aurc_error_value"
  )
})

test_that("long form: hostile model and case give classed conditions", {
  wide <- make_wide(24)
  long <- make_long(wide, c("a", "b"))
  long$list <- I(as.list(seq_len(nrow(long))))
  long$mat <- matrix(1, nrow(long), 2)
  hostile <- c(
    fuzz_values(1, full = TRUE),
    list(quote(nope), quote(list), quote(mat), quote(confidence),
      quote(failure), "id", quote(id * 0), quote(g))
  )
  for (arg in c("model", "case")) {
    for (value in hostile) {
      args <- list(long, quote(confidence), quote(failure))
      if (arg == "case") args$model <- quote(model)
      args[arg] <- list(value)
      res <- tryCatch(
        withCallingHandlers(
          do.call(compare_scores, args),
          warning = function(w) {
            if (!inherits(w, "aurc_warning")) stop(w)
            invokeRestart("muffleWarning")
          }
        ),
        aurc_error = function(e) "classed"
      )
      expect_true(identical(res, "classed") ||
        inherits(res, "aurc_comparison"))
    }
  }
})

test_that("bootstrap_ranking_prob() numbers the cases by row position", {
  set.seed(9)
  n <- 60
  truth <- factor(sample(c("a", "b", "c"), n, replace = TRUE))
  one <- function() {
    p <- matrix(runif(3 * n), n)
    p <- p / rowSums(p)
    data.frame(truth = truth, .pred_a = p[, 1], .pred_b = p[, 2],
      .pred_c = p[, 3]
    )
  }
  df <- rbind(cbind(model = "m1", one()), cbind(model = "m2", one()),
    cbind(model = "m3", one())
  )
  df$position <- rep(seq_len(n), 3)
  set.seed(2)
  auto <- bootstrap_ranking_prob(df, model, truth = truth,
    starts_with(".pred_"), times = 40, case = NULL
  )
  set.seed(2)
  given <- bootstrap_ranking_prob(df, model, position, truth,
    starts_with(".pred_"), times = 40
  )
  expect_equal(auto$ranking, given$ranking)
  expect_equal(auto$tests, given$tests)
  # with runs: the position within each method and run
  runs <- rbind(cbind(df, seed = 1), cbind(df, seed = 2))
  set.seed(2)
  auto <- bootstrap_ranking_prob(runs, model, , truth,
    starts_with(".pred_"), run = seed, times = 20
  )
  set.seed(2)
  given <- bootstrap_ranking_prob(runs, model, position, truth,
    starts_with(".pred_"), run = seed, times = 20
  )
  expect_equal(auto$ranking, given$ranking)
  df$.pred_a[7] <- NA
  # the position is taken before a row with a missing value is dropped:
  # its case lacks for one model, as with the case id
  expect_error(
    bootstrap_ranking_prob(df, model, , truth, starts_with(".pred_"),
      times = 5
    ),
    class = "aurc_error_unpaired"
  )
  df <- df[-7, ]
  expect_snapshot(error = TRUE, {
    bootstrap_ranking_prob(df, model, , truth, starts_with(".pred_"),
      times = 5
    )
  })
  expect_error(
    bootstrap_ranking_prob(df, model, case = NULL, truth,
      starts_with(".pred_"), times = 5
    ),
    class = "aurc_error_value"
  )
  runs <- runs[-1, ]
  expect_snapshot(error = TRUE, {
    bootstrap_ranking_prob(runs, model, , truth, starts_with(".pred_"),
      run = seed, times = 5
    )
  })
  # a probability column in the place of `case` warns
  expect_warning(
    try(bootstrap_ranking_prob(df, model, truth = truth, .pred_a, .pred_b,
      .pred_c, times = 5
    ), silent = TRUE),
    class = "aurc_warning_swapped"
  )
})
