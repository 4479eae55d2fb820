#' Result objects as data frames
#'
#' Every result class of the package converts to a plain data frame with
#' `as.data.frame()`, to a plain tibble with [tibble::as_tibble()], and has
#' a [generics::tidy()] method (registered when the generics package, or
#' broom, is loaded; aurc does not depend on it). The list-based results
#' hold several tables; `what` picks one:
#'
#' | class | made by | tables (`what`, the first is the default) |
#' |---|---|---|
#' | `aurc_comparison` | [compare_scores()] | `"tests"`, `"estimates"` |
#' | `aurc_curve_comparison` | [compare_selective_curves()] | `"tests"`, `"estimates"` |
#' | `aurc_group_comparison` | [compare_groups()] | `"groups"`, `"tests"`, `"gap"` |
#' | `aurc_ranking` | [bootstrap_ranking()], [rank_replicates()] | `"ranking"`, `"tests"`, `"replicates"`, `"rank_frequencies"`, `"kendall"` |
#' | `aurc_corp` | [corp_reliability()] | `"points"`, `"bins"`, `"decomposition"` |
#' | `aurc_batch_study` | [aurc_batch_study()] | `"summary"`, `"estimates"` |
#'
#' The tibble-based results (`aurc_calibration_bins`,
#' `aurc_smooth_calibration`, `aurc_rc_curve`, `aurc_failure_roc_curve`,
#' `aurc_failure_pr_curve`, `aurc_contribution_curve`, `aurc_score_table`,
#' `aurc_certificate`)
#' convert to the same columns without their class and attributes (the
#' settings stay readable with `attributes(x)` on the original).
#'
#' @param x A result object.
#' @param row.names,optional Not used (the generic's arguments).
#' @param ... Not used.
#' @param what Which table of a list-based result (see the table above).
#' @return A data frame (`as.data.frame()`) or a tibble (`as_tibble()`,
#'   `tidy()`).
#' @examples
#' set.seed(2)
#' df <- data.frame(
#'   failure = rbinom(300, 1, 0.3), a = runif(300), b = runif(300)
#' )
#' cmp <- compare_scores(df, c(a, b), failure)
#' as.data.frame(cmp)
#' tibble::as_tibble(cmp, what = "estimates")
#' if (requireNamespace("generics", quietly = TRUE)) generics::tidy(cmp)
#' @name aurc_tidy
NULL

# The tables of each list-based result class; the first is the default.
result_tables <- list(
  aurc_comparison = c("tests", "estimates"),
  aurc_curve_comparison = c("tests", "estimates"),
  aurc_group_comparison = c("groups", "tests", "gap"),
  aurc_ranking = c(
    "ranking", "tests", "replicates", "rank_frequencies", "kendall"
  ),
  aurc_corp = c("points", "bins", "decomposition"),
  aurc_batch_study = c("summary", "estimates")
)

# One table of a list-based result, as a plain tibble.
result_table <- function(x, what, call = rlang::caller_env()) {
  choices <- result_tables[[class(x)[1]]]
  if (is.null(what)) what <- choices[1]
  what <- check_choice(what, choices, arg = "what", call = call)
  plain_tibble(x[[what]])
}

# A tibble with the columns of `x` only: no subclass, no attributes but
# names and row names.
plain_tibble <- function(x) {
  x <- unclass(x)
  keep <- c("names", "row.names")
  attributes(x) <- attributes(x)[intersect(names(attributes(x)), keep)]
  tibble::as_tibble(as.list(x))
}

list_result_df <- function(x, ..., what = NULL) {
  check_dots(...)
  as.data.frame(result_table(x, what))
}
list_result_tbl <- function(x, ..., what = NULL) {
  check_dots(...)
  result_table(x, what)
}
tbl_result_df <- function(x, ...) as.data.frame(plain_tibble(x))
tbl_result_tbl <- function(x, ...) plain_tibble(x)

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_comparison <- function(x, row.names = NULL, # nolint: object_name_linter.
                                          optional = FALSE, ...,
                                          what = "tests") {
  list_result_df(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_curve_comparison <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                optional = FALSE, ...,
                                                what = "tests") {
  list_result_df(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_group_comparison <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                optional = FALSE, ...,
                                                what = "groups") {
  list_result_df(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_corp <- function(x, row.names = NULL, optional = FALSE, # nolint: object_name_linter.
                                    ..., what = "points") {
  list_result_df(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_batch_study <- function(x, row.names = NULL, # nolint: object_name_linter.
                                           optional = FALSE, ...,
                                           what = "summary") {
  list_result_df(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_calibration_bins <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_smooth_calibration <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                  optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_rc_curve <- function(x, row.names = NULL, # nolint: object_name_linter.
                                        optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_failure_roc_curve <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                 optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_failure_pr_curve <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_contribution_curve <- function(x, row.names = NULL, # nolint: object_name_linter.
                                                  optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_score_table <- function(x, row.names = NULL, # nolint: object_name_linter.
                                           optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @export
as.data.frame.aurc_certificate <- function(x, row.names = NULL, # nolint: object_name_linter.
                                           optional = FALSE, ...) {
  tbl_result_df(x)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_comparison <- function(x, ..., what = "tests") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_curve_comparison <- function(x, ..., what = "tests") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_group_comparison <- function(x, ..., what = "groups") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_ranking <- function(x, ..., what = "ranking") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_corp <- function(x, ..., what = "points") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_batch_study <- function(x, ..., what = "summary") {
  list_result_tbl(x, ..., what = what)
}

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_calibration_bins <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_smooth_calibration <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_rc_curve <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_failure_roc_curve <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_failure_pr_curve <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_contribution_curve <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_score_table <- function(x, ...) tbl_result_tbl(x)

#' @rdname aurc_tidy
#' @exportS3Method tibble::as_tibble
as_tibble.aurc_certificate <- function(x, ...) tbl_result_tbl(x)

# tidy(): one method for every class, registered for generics::tidy when
# generics is loaded (see .onLoad() in R/aurc-package.R).
tidy_aurc <- function(x, ..., what = NULL) {
  if (class(x)[1] %in% names(result_tables)) {
    return(list_result_tbl(x, ..., what = what))
  }
  check_dots(...)
  plain_tibble(x)
}

tidy_classes <- c(
  names(result_tables), "aurc_calibration_bins", "aurc_smooth_calibration",
  "aurc_rc_curve", "aurc_failure_roc_curve", "aurc_failure_pr_curve",
  "aurc_contribution_curve", "aurc_score_table", "aurc_certificate"
)

# Registers tidy_aurc() as the generics::tidy method of every class, now if
# generics is loaded and otherwise when it is (the approach of vctrs'
# s3_register(), without a dependency).
register_tidy_methods <- function() {
  register <- function(...) {
    env <- asNamespace("generics")
    for (cls in tidy_classes) {
      registerS3method("tidy", cls, tidy_aurc, envir = env)
    }
  }
  if (isNamespaceLoaded("generics")) register()
  setHook(packageEvent("generics", "onLoad"), register)
  invisible()
}
