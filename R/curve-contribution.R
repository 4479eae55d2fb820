#' Contribution of one failure to AURC and AUGRC by its position
#'
#' How much a single failure (loss 1) adds to each metric, depending on where
#' the confidence score ranks it among `n` predictions without ties
#' (Traub et al. 2024, App. A.1.1 and Fig. 2a). With `t` the position in
#' descending confidence (1 = most confident) and `H_m` the harmonic
#' numbers:
#'
#' * AURC (`"alpha"` estimator): `(H_n - H_{t-1}) / n`: a failure the score
#'   is most sure of adds about `log(n) / n`, one at the bottom `1 / n^2`.
#' * AUGRC, trapezoid rule: `(n - t + 1/2) / n^2`, linear in the position.
#' * AUGRC, step rule: `(n - t + 1) / n^2`.
#'
#' The AURC contribution falls off like a logarithm, so high-confidence
#' failures dominate it; the AUGRC weighs each failure in proportion to the
#' number of correct predictions ranked below it, like the failure AUROC.
#'
#' @param n Number of predictions, a whole number `>= 1`.
#' @return A tibble of class `aurc_contribution_curve` with columns
#'   `position` (`1..n`), `aurc`, `augrc` (trapezoid) and `augrc_step`.
#'   Plot it with [autoplot.aurc_contribution_curve()].
#' @examples
#' contribution_curve(5)
#' # a failure at the top counts about log(n) times more in AURC
#' cc <- contribution_curve(1000)
#' cc$aurc[1] / cc$aurc[500]
#' @export
contribution_curve <- function(n) {
  ok <- is.numeric(n) && length(n) == 1 && !is.na(n) && n >= 1 &&
    n == floor(n) && is.finite(n)
  if (!ok) {
    abort_aurc(
      c(
        "{.arg n} must be a single whole number of at least 1.",
        x = if (is.numeric(n) && length(n) == 1) {
          "It is {.val {n}}."
        } else {
          "It is {.obj_type_friendly {n}}."
        }
      ),
      class = "aurc_error_value"
    )
  }
  check_cells(4 * n, "n", "the curve (n rows, 4 columns)")
  res <- contribution_impl(as.double(n))
  out <- tibble::tibble(
    position = seq_len(n), aurc = res$aurc, augrc = res$augrc,
    augrc_step = res$augrc_step
  )
  tibble::new_tibble(out, class = "aurc_contribution_curve")
}
