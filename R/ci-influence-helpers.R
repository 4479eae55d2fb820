# Helpers shared by the influence functions computed in R (the partial
# areas, PRR over part of the range, FPR at TPR, the balanced metrics).

# The case weights as numbers, ones when there are none.
weights_or_ones <- function(case_weights, n) {
  if (is.null(case_weights) || !length(case_weights)) {
    rep(1, n)
  } else {
    as.double(case_weights)
  }
}

# The standard error of influence values without strata or clusters.
influence_se_of <- function(inf, case_weights) {
  influence_se_impl(inf, if (is.null(case_weights)) double() else
    as.double(case_weights), double())
}

# Tie groups of the score in descending order: per group its weighted
# count and loss, and the count and loss of the groups before it; `id` the
# group of each sample (input order), `order` the descending order and
# `gid` the group of each position in it.
tie_groups_desc <- function(score, w, loss) {
  n <- length(score)
  o <- order(score, decreasing = TRUE)
  so <- score[o]
  gid <- cumsum(c(TRUE, so[-1] != so[-n]))
  id <- integer(n)
  id[o] <- gid
  count <- c(rowsum(w[o], gid, reorder = FALSE))
  ls <- c(rowsum((w * loss)[o], gid, reorder = FALSE))
  list(
    id = id, count = count, loss = ls,
    before = cumsum(count) - count, loss_before = cumsum(ls) - ls,
    order = o, gid = gid
  )
}
