# Three classes with ties, two models as groups, weights and a missing value;
# the columns out of level order (matched by their names).
prob_forms_data <- function(n = 300) {
  set.seed(41)
  z <- matrix(stats::rnorm(n * 3), n, 3)
  p <- round(exp(z) / rowSums(exp(z)), 2)
  p[, 3] <- 1 - p[, 1] - p[, 2]
  lev <- c("a", "b", "c")
  truth <- factor(lev[apply(p, 1, function(r) sample(3, 1, prob = r + 0.05))],
    levels = lev
  )
  df <- data.frame(
    model = rep(c("m1", "m2"), length.out = n), truth = truth,
    .pred_c = p[, 3], .pred_a = p[, 1], .pred_b = p[, 2],
    w = stats::rpois(n, 2), case = rep(seq_len(n / 2), each = 2)
  )
  df$.pred_b[5] <- NA
  df
}

# score and loss written out independently of the package
by_hand <- function(df, type = "msp") {
  p <- as.matrix(df[c(".pred_a", ".pred_b", ".pred_c")])
  ok <- stats::complete.cases(p)
  top <- apply(p, 1, function(r) if (anyNA(r)) NA else which(r == max(r))[1])
  # the other scores' definitions are tested in test-scores.R; computed here
  # as the package computes them so that ties fall alike
  score <- rep(NA_real_, nrow(p))
  score[ok] <- if (type == "msp") {
    apply(p[ok, ], 1, max)
  } else {
    confidence_score(p[ok, ], type, from = "probs")
  }
  out <- df
  out$score <- score
  out$loss <- as.numeric(top != as.integer(df$truth))
  out[ok, ]
}

test_that("each prob form is its family's function of msp and 0/1 loss", {
  df <- prob_forms_data()
  h <- by_hand(df)
  expect_equal(
    as.data.frame(rc_curve_prob(df, truth, starts_with(".pred_"))),
    as.data.frame(rc_curve(h, score, loss))
  )
  expect_equal(
    as.data.frame(failure_roc_curve_prob(df, truth, .pred_a, .pred_b, .pred_c,
      case_weights = w
    )),
    as.data.frame(failure_roc_curve(h, score, loss, case_weights = w))
  )
  expect_equal(
    as.data.frame(failure_pr_curve_prob(df, truth, starts_with(".pred_"))),
    as.data.frame(failure_pr_curve(h, score, loss))
  )
  expect_equal(
    selective_ci_prob(df, truth, starts_with(".pred_"),
      metrics = c("aurc", "failure_auroc", "ece")
    ),
    selective_ci(h, score, loss, metrics = c("aurc", "failure_auroc", "ece"))
  )
  expect_equal(
    calibration_bins_prob(df, truth, starts_with(".pred_"),
      binning = "equal_width"
    ),
    calibration_bins_vec(h$score, 1 - h$loss, binning = "equal_width")
  )
  for (type in c("margin", "neg_entropy")) {
    ht <- by_hand(df, type)
    expect_equal(
      rc_curve_prob(df, truth, starts_with(".pred_"), score_type = type)$coverage,
      rc_curve(ht, score, loss)$coverage
    )
  }
  # na_rm = FALSE keeps the incomplete row: NA, as the underlying function
  expect_true(all(is.na(
    selective_ci_prob(df, truth, starts_with(".pred_"), na_rm = FALSE)$.estimate
  )))
})

test_that("compare_scores_prob() compares the scores of one model", {
  df <- prob_forms_data()
  h <- by_hand(df)
  h$m <- by_hand(df, "margin")$score
  h$e <- by_hand(df, "neg_entropy")$score
  got <- compare_scores_prob(df, truth, starts_with(".pred_"),
    score_types = c("msp", "margin", "neg_entropy"), metric = "augrc"
  )
  want <- compare_scores(h, c(score, m, e), loss, metric = "augrc")
  expect_equal(got$tests[-(1:2)], want$tests[-(1:2)], tolerance = 1e-12)
  expect_equal(got$settings$scores, c(".msp", ".margin", ".neg_entropy"))
})

test_that("grouped data and the ranking of models", {
  skip_if_not_installed("dplyr")
  df <- prob_forms_data()
  g <- selective_ci_prob(dplyr::group_by(df, model), truth,
    starts_with(".pred_"), metrics = "aurc"
  )
  h <- by_hand(df)
  expect_equal(g$.estimate, c(
    aurc_vec(h$score[h$model == "m1"], h$loss[h$model == "m1"]),
    aurc_vec(h$score[h$model == "m2"], h$loss[h$model == "m2"])
  ))
  # the two "models" as methods of a ranking, on the same cases
  df <- df[stats::complete.cases(df), ]
  df <- df[df$case %in% names(which(table(df$case) == 2)), ]
  set.seed(1)
  r <- bootstrap_ranking_prob(df, model, case, truth, starts_with(".pred_"),
    times = 30
  )
  h <- by_hand(df)
  set.seed(1)
  want <- bootstrap_ranking(h, model, case, score, loss, times = 30)
  expect_equal(r$ranking, want$ranking)
})

test_that("bad input to the prob forms", {
  df <- prob_forms_data()
  expect_snapshot(error = TRUE, {
    selective_ci_prob(df, truth, starts_with(".pred_"),
      metrics = "ece", score_type = "margin"
    )
    rc_curve_prob(df, truth, starts_with(".pred_"), score_type = "logit")
    compare_scores_prob(df, truth, starts_with(".pred_"), score_types = "x")
    rc_curve_prob(df, truth, .pred_a, .pred_b)
  })
})
