# Three classes, probabilities rounded so that maxima and scores tie, three
# models as groups, case weights, a few missing values.
prob_test_data <- function(n = 240) {
  set.seed(21)
  z <- matrix(stats::rnorm(n * 3), n, 3)
  p <- exp(z) / rowSums(exp(z))
  p <- round(p * 10) / 10
  p[, 3] <- 1 - p[, 1] - p[, 2]
  p[p[, 3] < 0, ] <- matrix(c(0.5, 0.5, 0), sum(p[, 3] < 0), 3, byrow = TRUE)
  p[, 3] <- pmax(p[, 3], 0)
  lev <- c("a", "b", "c")
  truth <- factor(lev[apply(p, 1, function(r) sample(3, 1, prob = r + 0.1))],
    levels = lev
  )
  df <- data.frame(
    model = rep(c("m1", "m2", "m3"), length.out = n), truth = truth,
    .pred_a = p[, 1], .pred_b = p[, 2], .pred_c = p[, 3],
    w = stats::runif(n)
  )
  df$.pred_b[7] <- NA
  df$truth[11] <- NA
  df
}

# Score and top-label loss written out independently of the package.
msp_and_loss <- function(df) {
  p <- as.matrix(df[c(".pred_a", ".pred_b", ".pred_c")])
  top <- apply(p, 1, function(r) if (anyNA(r)) NA else which(r == max(r))[1])
  data.frame(
    model = df$model, score = apply(p, 1, max),
    loss = as.numeric(top != as.integer(df$truth)), w = df$w
  )
}

test_that("prob metrics are yardstick prob metrics with the right direction", {
  fns <- list(
    aurc_prob = "minimize", augrc_prob = "minimize", eaurc_prob = "minimize",
    naurc_prob = "minimize", eaugrc_prob = "minimize",
    failure_auroc_prob = "maximize", failure_aupr_prob = "maximize"
  )
  for (nm in names(fns)) {
    f <- getExportedValue("aurc", nm)
    expect_s3_class(f, c("prob_metric", "metric", "function"), exact = TRUE)
    expect_identical(attr(f, "direction"), fns[[nm]])
    expect_true(is.function(getExportedValue("aurc", paste0(nm, "_vec"))))
  }
})

test_that("prob metrics equal the package's metrics of msp and 0/1 error", {
  skip_if_not_installed("dplyr")
  df <- prob_test_data()
  sl <- msp_and_loss(df)
  pairs <- list(
    aurc_prob = aurc, augrc_prob = augrc, eaurc_prob = eaurc,
    naurc_prob = naurc, eaugrc_prob = eaugrc,
    failure_auroc_prob = failure_auroc, failure_aupr_prob = failure_aupr
  )
  for (nm in names(pairs)) {
    f <- getExportedValue("aurc", nm)
    got <- f(dplyr::group_by(df, model), truth, .pred_a:.pred_c,
      case_weights = w
    )
    want <- pairs[[nm]](dplyr::group_by(sl, model), score, loss,
      case_weights = w, na_rm = TRUE
    )
    expect_identical(got$model, want$model)
    expect_identical(got$.metric, rep(nm, 3))
    expect_identical(got$.estimator, want$.estimator)
    expect_equal(got$.estimate, want$.estimate, tolerance = 1e-14, info = nm)
  }
})

test_that("every variant is reachable through estimator", {
  df <- prob_test_data()
  sl <- msp_and_loss(df)
  for (est in c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")) {
    a <- aurc_prob(df, truth, .pred_a, .pred_b, .pred_c, estimator = est)
    expect_equal(a$.estimate,
      aurc_vec(sl$score, sl$loss, estimator = est, na_rm = TRUE)
    )
    b <- naurc_prob(df, truth, .pred_a, .pred_b, .pred_c, estimator = est)
    expect_equal(b$.estimate,
      naurc_vec(sl$score, sl$loss, estimator = est, na_rm = TRUE)
    )
  }
  a <- augrc_prob(df, truth, .pred_a, .pred_b, .pred_c, estimator = "step")
  expect_equal(a$.estimate,
    augrc_vec(sl$score, sl$loss, method = "step", na_rm = TRUE)
  )
  got <- eaurc_prob(df, truth, .pred_a, .pred_b, .pred_c,
    estimator = "sele", optimum = "asymptotic"
  )
  expect_identical(got$.estimator, "sele/asymptotic")
  expect_equal(got$.estimate, eaurc_vec(sl$score, sl$loss,
    estimator = "sele", optimum = "asymptotic", na_rm = TRUE
  ))
})

test_that("metric_set() on grouped data, next to roc_auc", {
  skip_if_not_installed("yardstick")
  skip_if_not_installed("dplyr")
  df <- prob_test_data()
  df <- df[stats::complete.cases(df), ]
  gdf <- dplyr::group_by(df, model)
  ms <- yardstick::metric_set(
    yardstick::roc_auc, aurc_prob, augrc_prob, failure_auroc_prob,
    yardstick::metric_tweak("aurc_sele", aurc_prob, estimator = "sele")
  )
  res <- ms(gdf, truth, .pred_a:.pred_c, case_weights = w)
  expect_identical(
    unique(res$.metric),
    c("roc_auc", "aurc_prob", "augrc_prob", "failure_auroc_prob", "aurc_sele")
  )
  sl <- msp_and_loss(df)
  gsl <- dplyr::group_by(sl, model)
  pick <- function(m) res$.estimate[res$.metric == m]
  expect_equal(pick("aurc_prob"),
    aurc(gsl, score, loss, case_weights = w)$.estimate,
    tolerance = 1e-14
  )
  expect_equal(pick("augrc_prob"),
    augrc(gsl, score, loss, case_weights = w)$.estimate,
    tolerance = 1e-14
  )
  expect_equal(pick("failure_auroc_prob"),
    failure_auroc(gsl, score, loss, case_weights = w)$.estimate,
    tolerance = 1e-14
  )
  expect_equal(pick("aurc_sele"),
    aurc(gsl, score, loss, estimator = "sele", case_weights = w)$.estimate,
    tolerance = 1e-14
  )
  # roc_auc is yardstick's own, untouched by ours
  expect_equal(pick("roc_auc"),
    yardstick::roc_auc(gdf, truth, .pred_a:.pred_c, case_weights = w)$.estimate
  )
  # a yardstick averaging estimator is ignored by ours, with one warning for
  # each metric that would otherwise take it (the tweaked one has its own)
  seen <- character()
  withCallingHandlers(
    ms(gdf, truth, .pred_a:.pred_c, estimator = "macro"),
    warning = function(w) {
      expect_s3_class(w, "aurc_warning_ignored")
      seen[[length(seen) + 1]] <<- sub("`([a-z_]+)\\(\\)`.*", "\\1",
        conditionMessage(w)
      )
      invokeRestart("muffleWarning")
    }
  )
  expect_setequal(seen, c("aurc_prob", "augrc_prob", "failure_auroc_prob"))
})

test_that("two classes: one column is the event_level class", {
  skip_if_not_installed("yardstick")
  set.seed(3)
  p <- round(stats::runif(100), 1)
  truth <- factor(ifelse(stats::runif(100) < p, "yes", "no"), c("yes", "no"))
  df <- data.frame(truth = truth, .pred_yes = p, .pred_no = 1 - p)
  both <- aurc_prob(df, truth, .pred_yes, .pred_no)
  one <- aurc_prob(df, truth, .pred_yes)
  expect_equal(one$.estimate, both$.estimate)
  second <- aurc_prob(df, truth, .pred_no, event_level = "second")
  expect_equal(second$.estimate, both$.estimate)
  # argmax ties at 0.5 go to the first level
  loss <- as.numeric(ifelse(p >= 0.5, "yes", "no") != truth)
  expect_equal(one$.estimate, aurc_vec(pmax(p, 1 - p), loss))
  ms <- yardstick::metric_set(yardstick::roc_auc, aurc_prob, naurc_prob)
  res <- ms(df, truth, .pred_yes)
  expect_equal(res$.estimate[2], both$.estimate)
})

test_that("hardhat frequency weights equal repeated rows", {
  skip_if_not_installed("hardhat")
  df <- prob_test_data()
  df <- df[stats::complete.cases(df), ]
  counts <- rep(0:2, length.out = nrow(df))
  df$fw <- hardhat::frequency_weights(counts)
  long <- df[rep(seq_len(nrow(df)), counts), ]
  expect_equal(
    augrc_prob(df, truth, .pred_a:.pred_c, case_weights = fw)$.estimate,
    augrc_prob(long, truth, .pred_a:.pred_c)$.estimate,
    tolerance = 1e-14
  )
})

test_that("columns are found without tidyselect too", {
  df <- prob_test_data()
  quos <- rlang::quos(.pred_a, ".pred_b", 5)
  expect_identical(
    aurc:::select_columns(df, quos, "...", NULL, tidyselect = FALSE),
    c(".pred_a", ".pred_b", ".pred_c")
  )
  expect_identical(
    aurc:::select_columns(df, quos, "...", NULL, tidyselect = TRUE),
    c(".pred_a", ".pred_b", ".pred_c")
  )
  expect_error(
    aurc:::select_columns(df, rlang::quos(nope), "...", NULL,
      tidyselect = FALSE
    ),
    class = "aurc_error_column"
  )
})

test_that("score_type selects another confidence score", {
  df <- prob_test_data()
  df <- df[stats::complete.cases(df), ]
  p <- as.matrix(df[c(".pred_a", ".pred_b", ".pred_c")])
  sl <- msp_and_loss(df)
  for (type in c("margin", "neg_entropy", "neg_gini")) {
    s <- confidence_score(p, type, from = "probs")
    expect_equal(
      aurc_prob_vec(df$truth, p, score_type = type),
      aurc_vec(s, sl$loss),
      info = type
    )
  }
})

test_that("missing values follow na_rm", {
  df <- prob_test_data()
  expect_identical(
    aurc_prob(df, truth, .pred_a:.pred_c, na_rm = FALSE)$.estimate,
    NA_real_
  )
  clean <- df[stats::complete.cases(df), ]
  expect_equal(
    aurc_prob(df, truth, .pred_a:.pred_c)$.estimate,
    aurc_prob(clean, truth, .pred_a:.pred_c)$.estimate
  )
})

test_that("prob metric errors", {
  df <- prob_test_data()[1:20, ]
  df <- df[stats::complete.cases(df), ]
  df$bad <- df$.pred_a + 0.2
  df$chr <- as.character(df$truth)
  expect_snapshot(error = TRUE, {
    aurc_prob(df, chr, .pred_a:.pred_c)
    aurc_prob(df, truth, .pred_a, .pred_b)
    aurc_prob(df, truth, bad, .pred_b, .pred_c)
    aurc_prob(df, truth, .pred_a:.pred_c, estimator = "best")
    failure_auroc_prob(df, truth, .pred_a:.pred_c, estimator = "sele")
    aurc_prob(df, truth, .pred_a:.pred_c, score_type = "maxlogit")
    aurc_prob(df, truth)
    aurc_prob_vec(df$truth, as.matrix(df[3:5]), 1)
  })
  expect_snapshot({
    x <- aurc_prob(df, truth, .pred_a:.pred_c, estimator = "macro")
  })
})

test_that("probability columns are matched to the levels by their names", {
  df <- prob_test_data()
  right <- aurc_prob(df, truth, .pred_a, .pred_b, .pred_c)
  # out of level order: the names say which level each column is
  expect_equal(aurc_prob(df, truth, .pred_c, .pred_a, .pred_b), right)
  expect_equal(
    aurc_prob_vec(df$truth, as.matrix(df[c(".pred_b", ".pred_c", ".pred_a")])),
    right$.estimate
  )
  # a matrix named by the levels themselves
  m <- as.matrix(df[c(".pred_c", ".pred_b", ".pred_a")])
  colnames(m) <- c("c", "b", "a")
  expect_equal(aurc_prob_vec(df$truth, m), right$.estimate)
  expect_equal(ece_prob(df, truth, .pred_b, .pred_c, .pred_a)$.estimate,
    ece_prob(df, truth, .pred_a, .pred_b, .pred_c)$.estimate
  )
  # a name that is no level, a level twice: classed errors
  df$.pred_d <- df$.pred_c
  expect_snapshot(error = TRUE, aurc_prob(df, truth, .pred_a, .pred_b, .pred_d))
  expect_error(aurc_prob(df, truth, .pred_a, .pred_b, .pred_c, .pred_d),
    class = "aurc_error_column"
  )
  colnames(m) <- c("c", "b", "b")
  expect_error(aurc_prob_vec(df$truth, m), class = "aurc_error_column")
  # other names that hold the levels with a shared prefix and suffix are
  # matched by name, in any order (they were taken in the order given)
  p <- df[c(".pred_a", ".pred_b", ".pred_c")]
  names(p) <- c("prob_a_hat", "prob_b_hat", "prob_c_hat")
  d2 <- cbind(df["truth"], p[c(3, 1, 2)])
  expect_equal(aurc_prob(d2, truth, prob_c_hat, prob_a_hat, prob_b_hat),
    right
  )
  m2 <- as.matrix(p[c(2, 3, 1)])
  expect_equal(aurc_prob_vec(df$truth, m2), right$.estimate)
  expect_equal(ece_prob_vec(df$truth, m2),
    ece_prob(df, truth, .pred_a, .pred_b, .pred_c)$.estimate
  )
  # levels sharing a prefix: the longest affix that leaves the levels
  lv <- factor(c("class1", "class2", "class1"), c("class1", "class2"))
  pm <- cbind(p_class2 = c(0.2, 0.7, 0.4), p_class1 = c(0.8, 0.3, 0.6))
  expect_equal(aurc_prob_vec(lv, pm),
    aurc_prob_vec(lv, unname(pm[, 2:1]))
  )
  # names that are no levels are refused, not taken by position
  colnames(m2) <- c("x1", "x2", "x3")
  expect_error(aurc_prob_vec(df$truth, m2), class = "aurc_error_column")
  # an unnamed matrix: its columns are in the order of the levels
  expect_equal(aurc_prob_vec(df$truth, unname(as.matrix(p))),
    right$.estimate
  )
})

test_that("one column: its name decides its level, a wrong event_level warns", {
  set.seed(8)
  n <- 2000
  p <- stats::runif(n)
  truth <- factor(ifelse(stats::runif(n) < p, "yes", "no"), c("no", "yes"))
  df <- data.frame(truth = truth, .pred_yes = p, .pred_no = 1 - p)
  right <- aurc_prob(df, truth, .pred_no, .pred_yes)
  # the issue's case: levels no, yes, the default event level "first"
  expect_warning(one <- aurc_prob(df, truth, .pred_yes),
    class = "aurc_warning_event_level"
  )
  expect_equal(one, right)
  loss <- as.numeric(ifelse(p > 0.5, "yes", "no") != truth)
  expect_equal(right$.estimate, aurc_vec(pmax(p, 1 - p), loss))
  expect_warning(e <- ece_prob(df, truth, .pred_yes),
    class = "aurc_warning_event_level"
  )
  expect_equal(e, ece_prob(df, truth, .pred_no, .pred_yes))
  expect_warning(f <- failure_auroc_prob(df, truth, .pred_yes),
    class = "aurc_warning_event_level"
  )
  expect_equal(f$.estimate, failure_auroc_vec(pmax(p, 1 - p), loss))
  expect_silent(aurc_prob(df, truth, .pred_yes, event_level = "second"))
  expect_silent(aurc_prob(df, truth, .pred_no))
  # an unnamed vector of the other level: the error rate above 0.5 warns
  expect_warning(aurc_prob_vec(df$truth, p),
    class = "aurc_warning_event_level"
  )
  expect_silent(aurc_prob_vec(df$truth, p, event_level = "second"))
  expect_snapshot(x <- aurc_prob(df, truth, .pred_yes))
  expect_snapshot(x <- aurc_prob_vec(df$truth, p))
})
