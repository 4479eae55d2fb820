# print(), summary() and as.data.frame() of an aurc_ranking.

# ---- methods ----------------------------------------------------------------

# One string per row from the columns of `d` that exist.
row_key <- function(d, cols) {
  cols <- intersect(cols, names(d))
  do.call(paste, c(lapply(cols, function(k) as.character(d[[k]])),
    sep = "\r"
  ))
}

#' @export
print.aurc_ranking <- function(x, ...) {
  s <- x$settings
  dirs <- ifelse(s$higher_better, "higher is better", "lower is better")
  cat("<aurc_ranking>\n")
  cat(sprintf("Metrics: %s\n", paste0(s$metrics, " (", dirs, ")",
    collapse = ", "
  )))
  if (identical(s$source, "bootstrap")) {
    runs <- if (max(s$n_runs) > 1) {
      sprintf("; metric averaged over %s runs", paste(unique(s$n_runs),
        collapse = "/"
      ))
    } else {
      ""
    }
    cat(sprintf(
      "Replicates: %d %sbootstrap replicates of %s cases%s%s\n", s$times,
      if (s$stratified) "stratified " else "",
      paste(unique(s$n_cases), collapse = "/"),
      if (s$indices_given) " (indices given)" else "", runs
    ))
  } else {
    cat(sprintf("Replicates: %d (values given)\n", s$times))
  }
  cat(sprintf(
    "Test: one-sided Wilcoxon signed-rank test over replicates (%s)\n",
    if (s$correct) "with continuity correction" else
      "no continuity correction"
  ))
  cat(sprintf(
    "Correction: %s over the K(K-1) ordered pairs; alpha = %s\n",
    adjust_label(s$p_adjust), format(s$alpha)
  ))
  cat("Ranking by mean rank, then median rank:\n")
  tab <- as.data.frame(x$ranking)
  beats <- x$tests[x$tests$significant %in% TRUE, ]
  key <- function(d) row_key(d, c("group", "metric", "method"))
  tab$beats <- as.integer(table(factor(key(beats), levels = key(tab))))
  print(tab, digits = 4, row.names = FALSE)
  cat("(beats: number of methods it is significantly better than)\n")
  invisible(x)
}

#' @export
summary.aurc_ranking <- function(object, ...) {
  tab <- object$ranking
  freq <- object$rank_frequencies
  tests <- object$tests
  key <- function(d) row_key(d, c("group", "metric", "method"))
  k_tab <- key(tab)
  first <- freq[freq$rank == 1, ]
  tab$p_first <- first$proportion[match(k_tab, key(first))]
  sig <- tests[tests$significant %in% TRUE, ]
  tab$beats <- as.integer(table(factor(key(sig), levels = k_tab)))
  beaten <- sig
  beaten$method <- beaten$versus
  tab$beaten_by <- as.integer(table(factor(key(beaten), levels = k_tab)))
  kd <- object$kendall
  kkey <- row_key(kd, c("group", "metric"))
  tau <- tapply(kd$tau, kkey, mean, na.rm = TRUE)
  tab$mean_kendall_tau <- as.vector(tau[row_key(tab, c("group", "metric"))])
  tab
}

#' Tidy tables of a bootstrap ranking
#'
#' @param x An `aurc_ranking` from [bootstrap_ranking()] or
#'   [rank_replicates()].
#' @param row.names,optional Not used.
#' @param ... Not used.
#' @param what Which table: `"ranking"`, `"tests"` or `"replicates"`
#'   (also `"rank_frequencies"`, `"kendall"`).
#' @return A data frame: see the Value section of [bootstrap_ranking()].
#' @examples
#' values <- cbind(a = c(1, 2, 3, 2), b = c(2, 3, 4, 4))
#' rk <- rank_replicates(values)
#' as.data.frame(rk, what = "tests")
#' @export
as.data.frame.aurc_ranking <- function(x, row.names = NULL, optional = FALSE, # nolint: object_name_linter, line_length_linter. S3 generic's names
                                       ...,
                                       what = c("ranking", "tests",
                                                "replicates",
                                                "rank_frequencies",
                                                "kendall")) {
  what <- check_choice(first_choice(what), c(
    "ranking", "tests", "replicates", "rank_frequencies", "kendall"
  ), arg = "what")
  as.data.frame(x[[what]])
}
