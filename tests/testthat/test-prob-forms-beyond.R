# The class-probability forms of issue 27's metrics: partial areas, FPR at
# TPR, the achievable AURC and the balanced metrics (whose classes are
# `truth`), each equal to the package's metric of the top-label score and
# 0/1 loss.

prob_case <- function(n = 300, seed = 71) {
  set.seed(seed)
  lev <- c("a", "b", "c")
  p <- matrix(round(stats::runif(n * 3), 1) + 0.05, n) # tied scores
  p <- p / rowSums(p)
  colnames(p) <- paste0(".pred_", lev)
  truth <- factor(
    lev[apply(p, 1, function(r) sample(3, 1, prob = r))], lev
  )
  df <- data.frame(truth = truth, p, w = stats::rexp(n),
    g = rep(c("x", "y"), length.out = n))
  score <- apply(p, 1, max)
  loss <- as.double(lev[max.col(p, "first")] != as.character(truth))
  list(df = df, p = p, truth = truth, score = score, loss = loss)
}

test_that("prob forms equal the metrics of the top-label score and loss", {
  d <- prob_case()
  df <- d$df
  sel <- rlang::quo(tidyselect::starts_with(".pred_"))
  cases <- list(
    list(partial_aurc_prob, partial_aurc_prob_vec, partial_aurc_vec,
      list(coverage_range = c(0.3, 0.9))),
    list(partial_augrc_prob, partial_augrc_prob_vec, partial_augrc_vec,
      list(coverage_range = c(0, 0.6))),
    list(fpr_at_tpr_prob, fpr_at_tpr_prob_vec, fpr_at_tpr_vec,
      list(tpr = 0.8)),
    list(achievable_aurc_prob, achievable_aurc_prob_vec,
      achievable_aurc_vec, list())
  )
  for (k in cases) {
    want <- do.call(k[[3]], c(list(d$score, d$loss, case_weights = df$w),
      k[[4]]))
    got <- do.call(k[[1]], c(list(df, quote(truth), rlang::quo(!!sel),
      case_weights = quote(w)), k[[4]]))
    expect_equal(got$.estimate, want, tolerance = 1e-12)
    expect_equal(
      do.call(k[[2]], c(list(d$truth, d$p, case_weights = df$w), k[[4]])),
      want,
      tolerance = 1e-12
    )
  }
  # balanced: the classes are truth
  expect_equal(aurc_ba_prob(df, truth, .pred_a, .pred_b, .pred_c)$.estimate,
    aurc_ba_vec(d$score, d$loss, d$truth), tolerance = 1e-12)
  expect_equal(augrc_ba_prob_vec(d$truth, d$p, case_weights = df$w),
    augrc_ba_vec(d$score, d$loss, d$truth, case_weights = df$w),
    tolerance = 1e-12)
  # groups
  grouped <- aurc_ba_prob(dplyr::group_by(df, g), truth, .pred_a, .pred_b,
    .pred_c)
  expect_equal(grouped$.estimate, vapply(c("x", "y"), function(gr) {
    i <- df$g == gr
    aurc_ba_vec(d$score[i], d$loss[i], d$truth[i])
  }, numeric(1), USE.NAMES = FALSE), tolerance = 1e-12)
  expect_equal(grouped$.metric, rep("aurc_ba_prob", 2))
  # NA: dropped by default (yardstick's na_rm = TRUE), NA with na_rm = FALSE
  p_na <- d$p
  p_na[4, 1] <- NA
  expect_equal(aurc_ba_prob_vec(d$truth, p_na),
    aurc_ba_vec(d$score[-4], d$loss[-4], d$truth[-4]), tolerance = 1e-12)
  expect_true(is.na(aurc_ba_prob_vec(d$truth, p_na, na_rm = FALSE)))
})

test_that("the new prob forms work in a yardstick metric set", {
  skip_if_not_installed("yardstick")
  d <- prob_case(seed = 72)
  paurc <- yardstick::metric_tweak("paurc", partial_aurc_prob,
    coverage_range = c(0.5, 1))
  ms <- yardstick::metric_set(yardstick::roc_auc, paurc, aurc_ba_prob,
    fpr_at_tpr_prob, achievable_aurc_prob)
  res <- ms(d$df, truth, .pred_a, .pred_b, .pred_c)
  expect_equal(res$.estimate[res$.metric == "paurc"],
    partial_aurc_vec(d$score, d$loss, coverage_range = c(0.5, 1)),
    tolerance = 1e-12)
  expect_equal(res$.estimate[res$.metric == "aurc_ba_prob"],
    aurc_ba_vec(d$score, d$loss, d$truth), tolerance = 1e-12)
  expect_equal(attr(aurc_ba_prob, "direction"), "minimize")
  expect_equal(attr(fpr_at_tpr_prob, "direction"), "minimize")
})

test_that("bad options of the new prob forms are classed errors", {
  d <- prob_case(seed = 73)
  expect_error(partial_aurc_prob_vec(d$truth, d$p), class = "aurc_error")
  expect_error(partial_aurc_prob_vec(d$truth, d$p, coverage_range = c(0.9,
    0.1)), class = "aurc_error_value")
  expect_error(fpr_at_tpr_prob_vec(d$truth, d$p, tpr = 1.5),
    class = "aurc_error_value")
  expect_error(aurc_ba_prob_vec(as.character(d$truth), d$p),
    class = "aurc_error_type")
  expect_error(achievable_aurc_prob_vec(d$truth, d$p, estimator = "alpha"),
    class = "aurc_error_value")
})
