# The binned score table (`score_table(bins = B)`, never the default):
# scores cut into B equal-width bins over [min, max] of the complete
# scores of the whole table (all groups), each bin one tie group at its
# midpoint. With continuous scores the exact table has a row per distinct
# score (as many as the rows); the binned one has at most B per group.
#
# The bin of a score s is floor((s - lo) * (B / (hi - lo))), B - 1 for
# s = hi, the same double arithmetic in R and in the engine. Binning
# merges the distinct scores of a bin into one tie group, so the order of
# the samples inside a bin is lost and nothing else: a metric of the
# binned table is the metric of some (unknown) order of the samples within
# their bins. That bounds the change, from the binned table alone
# (score_table_bin_error()); per group, with bins b in descending score
# order, c_b the weight of bin b, N_b the weight of bins b and above, N the
# total, M the largest loss:
#   AURC ("alpha", "trapezoid")  M sum_b c_b^2 / N_b / N
#     a sample of bin b is accepted with k of the weight, P_b < k <= N_b,
#     its exact selective risk L(k) / k and the binned one L(N_b) / N_b
#     differ by (N_b - k) / N_b (D / (N_b - k) - L(k) / k), both risks in
#     [0, M]: at most M c_b / N_b (the trapezoid's second risk, at the
#     previous threshold, likewise against L(P_b) / P_b)
#   AUGRC                        M sum_b c_b^2 / N^2
#     the generalized risk L(k) / N moves by at most M c_b / N in the bin
#   failure AUROC (0/1 losses)   sum_b F_b K_b / (2 F K)
#     only the pairs of a failure and a correct prediction in the same bin
#     change, each from 0, 1/2 or 1 to 1/2
# (F_b, K_b the failures and correct predictions of bin b, F, K totals).
# The bounds hold for every data set; uniform scores in B bins give
# roughly M (log(B) + 0.58) / B for AURC and M / B for AUGRC.

# `bins` checked: NULL (exact) or a whole number of at least 2.
check_bins <- function(bins, call) {
  if (is.null(bins)) return(NULL)
  check_number(bins, 2, 2^31 - 1, whole = TRUE, arg = "bins", call = call)
}

# The bin range of the complete scores `s` (finite), for R and the engine.
bin_edges <- function(lo, hi, bins, call) {
  if (!is.finite(lo) || !is.finite(hi)) {
    abort_aurc(
      c(
        "{.arg bins} needs finite scores.",
        x = "The scores range from {.val {lo}} to {.val {hi}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  list(lo = lo, hi = hi, bins = bins,
    k = if (hi > lo) bins / (hi - lo) else 0
  )
}

# The bin of each score (0 .. B - 1), as the engine computes it.
bin_index <- function(s, edges) {
  b <- floor((s - edges$lo) * edges$k)
  pmin(b, edges$bins - 1)
}

# The midpoint of each bin index.
bin_midpoint <- function(b, edges) {
  if (edges$k == 0) return(rep(edges$lo, length(b)))
  edges$lo + (b + 0.5) / edges$k
}

# The prepared columns of a lazy table with the score replaced by its bin
# (db_metric_columns()); the range comes from one aggregate. Returns the
# columns with `edges` added.
db_binned_columns <- function(cols, bins, call) {
  con <- cols$con
  s <- db_cast(con, db_ident(con, ".aurc_s"))
  range <- db_collect(con, db_select_sql(con, character(),
    c(.lo = paste0("MIN(", s, ")"), .hi = paste0("MAX(", s, ")")),
    cols$sql, "q00b",
    where = paste(db_ident(con, c(".aurc_s", ".aurc_l")), "IS NOT NULL")
  ), "the score range", call, one_row = TRUE)
  lo <- suppressWarnings(as.double(range$.lo))
  hi <- suppressWarnings(as.double(range$.hi))
  if (is.na(lo)) lo <- hi <- 0 # no complete row: every bin is empty
  edges <- bin_edges(lo, hi, bins, call)
  b <- paste0(
    "FLOOR((", s, " - ", sprintf("%.17e", edges$lo), ") * ",
    sprintf("%.17e", edges$k), ")"
  )
  top <- sprintf("%.1f", bins - 1)
  bin <- paste0("CASE WHEN ", b, " > ", top, " THEN ", top, " ELSE ", b,
    " END"
  )
  names <- c(cols$groups, ".aurc_s", ".aurc_l", if (cols$weighted) ".aurc_w")
  ids <- db_ident(con, names)
  ids[names == ".aurc_s"] <- paste0(bin, " AS ", db_ident(con, ".aurc_s"))
  cols$sql <- paste0(
    "SELECT ", paste(ids, collapse = ", "), "\nFROM (\n", cols$sql, "\n) ",
    db_ident(con, "q00c")
  )
  cols$edges <- edges
  cols
}

# The error bounds of a binned score table, per group (see the top of this
# file): grouping columns, `aurc`, `augrc`, `failure_auroc` (NA unless the
# losses are 0/1).
score_table_bin_error <- function(st) {
  gv <- attr(st, "group_vars")
  keys <- score_table_keys(st)
  losses <- attr(st, "losses")
  out <- lapply(seq_len(nrow(keys)), function(i) {
    rows <- rows_of_group(st, keys, i, gv)
    o <- order(st$score[rows], decreasing = TRUE)
    c_b <- st$n[rows][o]
    f_b <- st$loss_sum[rows][o]
    lr <- rows_of_group(losses, keys, i, gv)
    lv <- losses$loss[lr][losses$n[lr] > 0]
    n <- sum(c_b)
    if (!(n > 0)) return(c(NA_real_, NA_real_, NA_real_))
    m <- max(lv, 0)
    big_n <- cumsum(c_b)
    binary <- all(lv %in% c(0, 1))
    f <- sum(f_b)
    k <- n - f
    auroc <- if (binary && f > 0 && k > 0) {
      sum(f_b * (c_b - f_b)) / (2 * f * k)
    } else {
      NA_real_
    }
    c(m * sum(c_b^2 / big_n) / n, m * sum(c_b^2) / n^2, auroc)
  })
  m <- matrix(unlist(out), ncol = 3, byrow = TRUE,
    dimnames = list(NULL, c("aurc", "augrc", "failure_auroc"))
  )
  res <- tibble::as_tibble(as.data.frame(m))
  if (length(gv)) res <- tibble::as_tibble(c(keys[gv], res))
  res
}

# Marks a score table as binned: the bins and its error bounds.
binned_score_table <- function(st, edges) {
  attr(st, "bins") <- edges[c("lo", "hi", "bins")]
  attr(st, "bin_error") <- score_table_bin_error(st)
  st
}
