test_that("contributions match DEFINITIONS Sec. 4 and the metrics", {
  cc <- contribution_curve(5)
  expect_s3_class(cc, "aurc_contribution_curve")
  expect_named(cc, c("position", "aurc", "augrc", "augrc_step"))
  h <- function(k) sum(1 / seq_len(k))
  expect_equal(cc$aurc, vapply(1:5, function(t) h(5) - h(t - 1), 1) / 5)
  expect_equal(cc$augrc, (5 - 1:5 + 0.5) / 25)
  expect_equal(cc$augrc_step, (5 - 1:5 + 1) / 25)
  # one failure at position t: the metric of that data
  n <- 12
  cc <- contribution_curve(n)
  for (t in c(1, 5, 12)) {
    l <- as.numeric(seq_len(n) == t)
    s <- rev(seq_len(n))
    expect_equal(cc$aurc[t], aurc_vec(s, l), tolerance = 1e-14)
    expect_equal(cc$augrc[t], augrc_vec(s, l), tolerance = 1e-14)
    expect_equal(cc$augrc_step[t], augrc_vec(s, l, method = "step"),
      tolerance = 1e-14)
  }
  expect_equal(nrow(contribution_curve(1)), 1)
})

test_that("bad n", {
  expect_snapshot(error = TRUE, {
    contribution_curve(0)
    contribution_curve(2.5)
    contribution_curve("a")
  })
})
