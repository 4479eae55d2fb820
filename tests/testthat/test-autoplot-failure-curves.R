test_that("autoplot draws the ROC curve with the chance diagonal", {
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  failure <- c(0, 0, 1, 0, 1, 1)
  roc <- failure_roc_curve_vec(score, failure)
  p <- ggplot2::autoplot(roc)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  # layer 1: the chance diagonal, layer 2: the curve
  expect_equal(b$data[[1]]$x, c(0, 1))
  expect_equal(b$data[[1]]$y, c(0, 1))
  expect_equal(b$data[[2]]$x, roc$false_positive_rate)
  expect_equal(b$data[[2]]$y, roc$true_positive_rate)
  expect_equal(unique(b$data[[1]]$linetype), "dashed")
  expect_match(p$labels$title, "ROC")
  labels <- b$plot$scales$get_scales("colour")$get_labels()
  expect_match(labels[1], "failure AUROC 0.833", fixed = TRUE)
  p <- ggplot2::autoplot(roc, references = FALSE)
  expect_length(ggplot2::ggplot_build(p)$data, 1)
  expect_error(ggplot2::autoplot(roc, references = NA),
    class = "aurc_error_type"
  )
  expect_error(ggplot2::autoplot(roc, extra = 1), class = "aurc_error_dots")
})

test_that("autoplot draws the PR curve as steps with the prevalence line", {
  score <- c(0.9, 0.8, 0.8, 0.6, 0.4, 0.3)
  failure <- c(0, 0, 1, 0, 1, 1)
  pr <- failure_pr_curve_vec(score, failure)
  p <- ggplot2::autoplot(pr)
  b <- ggplot2::ggplot_build(p)
  expect_equal(b$data[[1]]$y, c(1 / 2, 1 / 2))
  steps <- b$data[[2]]
  # the step function starts at recall 0 with the first precision; its
  # area is the average precision
  expect_equal(steps$x[1], 0)
  expect_equal(steps$y[1], 1)
  expect_s3_class(p$layers[[2]]$geom, "GeomStep")
  # direction "vh": from point k to k + 1 at the height of point k + 1
  expect_equal(p$layers[[2]]$geom_params$direction, "vh")
  area <- sum(diff(steps$x) * steps$y[-1])
  expect_equal(area, failure_aupr_vec(score, failure))
  labels <- b$plot$scales$get_scales("colour")$get_labels()
  expect_match(labels[1], "failure AUPR 0.867", fixed = TRUE)
})

test_that("autoplot colours the curves of groups", {
  skip_if_not_installed("dplyr")
  df <- data.frame(
    m = rep(c("b", "a"), each = 5),
    s = c(5, 4, 3, 2, 1, 1, 1, 2, 2, 3),
    f = c(0, 1, 0, 1, 1, 1, 0, 0, 1, 0)
  )
  pr <- failure_pr_curve(dplyr::group_by(df, m), s, f)
  b <- ggplot2::ggplot_build(ggplot2::autoplot(pr))
  # one prevalence line per group, in its colour
  expect_equal(sort(unique(b$data[[1]]$y)), c(0.4, 0.6))
  expect_length(unique(b$data[[1]]$colour), 2)
  expect_length(unique(b$data[[2]]$colour), 2)
  labels <- b$plot$scales$get_scales("colour")$get_labels()
  expect_match(labels, "^(a|b) \\(failure AUPR ")
  roc <- failure_roc_curve(dplyr::group_by(df, m), s, f)
  b <- ggplot2::ggplot_build(ggplot2::autoplot(roc))
  expect_length(unique(b$data[[2]]$colour), 2)
  # one grey chance diagonal for all groups
  expect_equal(nrow(b$data[[1]]), 2)
  expect_equal(unique(b$data[[1]]$colour), "grey50")
})
