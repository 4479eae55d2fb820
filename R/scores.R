#' Confidence scores from logits or probabilities
#'
#' The confidence score functions of Zhou et al. (2025, Table S2) and Traub
#' et al. (2024, App. A.2.1), computed row by row from a classifier's
#' outputs. Higher means more confident, as every metric of the package
#' expects.
#'
#' With `z` the logits of a sample, `p = softmax(z / temperature)` its
#' probabilities (or the given probabilities), `p(1) >= p(2)` the two
#' largest:
#'
#' | `type` | score | needs |
#' |---|---|---|
#' | `"msp"` | `max_k p_k` (maximum softmax probability) | |
#' | `"maxlogit"` | `max_k z_k` | logits |
#' | `"margin"` | `p(1) - p(2)` (softmax margin) | |
#' | `"neg_entropy"` | `sum_k p_k log p_k` (0 log 0 = 0) | |
#' | `"maxlogit_pnorm"` | `max_k z_k / norm(z, p)` | logits |
#' | `"neg_gini"` | `sum_k p_k^2 - 1` | |
#' | `"mcd_msp"` | `max_k pbar_k` | array |
#' | `"mcd_pe"` | `sum_k pbar_k log pbar_k` | array |
#' | `"mcd_mi"` | `-(H(pbar) - mean_s H(p_s))` | array |
#'
#' `"maxlogit_pnorm"` follows Cattelan and Silva (2024): the maximum logit
#' divided by the p-norm of the logit vector, `(sum_k |z_k|^p)^(1/p)`
#' (`p = 2` by default, `p = Inf` the largest absolute logit). Table S2 of
#' Zhou et al. prints only the norm `norm(z, p)`; the quotient is the score
#' of the original paper and is what is computed. A row of zero logits
#' gives `NaN`.
#'
#' The last three take an `S x n x K` array of `S` Monte Carlo dropout
#' passes or ensemble members: `pbar` is the mean probability over members,
#' `H(q) = -sum_k q_k log q_k` the entropy; `"mcd_pe"` is the negative
#' predictive entropy and `"mcd_mi"` the negative mutual information
#' between prediction and member.
#'
#' The softmax is computed stably (the row maximum is subtracted before
#' `exp()`), so logits of any size give finite scores.
#'
#' @param x A numeric matrix of logits or probabilities, one row per sample
#'   and one column per class, or a data frame of numeric columns (taken
#'   in order, e.g. the `.pred_*` columns of a tidymodels prediction); for
#'   the `"mcd_*"` types an array
#'   `members x samples x classes`.
#' @param type The score (see the table).
#' @param from `"logits"` (default) or `"probs"`. Probabilities must be
#'   non-negative with rows summing to 1 (within 1e-6); an error names the
#'   first row that does not. A matrix given as logits that looks like
#'   probabilities (every value in `[0, 1]`, every row summing to 1) gets a
#'   warning of class `aurc_warning_probs_as_logits`: as logits the rows go
#'   through a second softmax, which changes the scores.
#' @param ... Not used; must be empty.
#' @param temperature Temperature `T > 0` of the softmax `softmax(z / T)`
#'   (logits only; see [fit_temperature()]). It changes every score but
#'   `"maxlogit"` and `"maxlogit_pnorm"` only by a common factor.
#' @param p The norm of `"maxlogit_pnorm"`, a number `>= 1` or `Inf`.
#' @return A numeric vector with one score per sample.
#' @references
#' Zhou, Van Landeghem, Popordanoska, Blaschko (2025), see [aurc()].
#'
#' Cattelan, Silva (2024), see [eaurc()].
#' @examples
#' set.seed(1)
#' logits <- matrix(rnorm(12), 4, 3)
#' confidence_score(logits, "msp")
#' confidence_score(logits, "maxlogit_pnorm")
#' probs <- exp(logits) / rowSums(exp(logits))
#' confidence_score(probs, "neg_entropy", from = "probs")
#'
#' # MC dropout: 5 passes x 4 samples x 3 classes
#' passes <- array(rnorm(60), c(5, 4, 3))
#' confidence_score(passes, "mcd_mi")
#' @export
confidence_score <- function(x, type = "msp", from = "logits", ...,
                             temperature = 1, p = 2) {
  check_dots(...)
  x <- as_output_matrix(x)
  type <- check_choice(type, score_types)
  from <- check_choice(from, c("logits", "probs"))
  members <- startsWith(type, "mcd_")
  d <- check_outputs(x, members = members)
  if (members && length(d) != 3) {
    abort_aurc(
      c(
        "{.val {type}} needs an array {.code members x samples x classes}.",
        i = "{.arg x} is a matrix; give the outputs of every member."
      ),
      class = "aurc_error_type"
    )
  }
  if (!members && length(d) == 3) {
    abort_aurc(
      c(
        "{.val {type}} needs a matrix {.code samples x classes}.",
        i = paste(
          "For an array of members use",
          "{.val {c('mcd_msp', 'mcd_pe', 'mcd_mi')}}."
        )
      ),
      class = "aurc_error_type"
    )
  }
  if (from == "probs" && type %in% c("maxlogit", "maxlogit_pnorm")) {
    abort_aurc(
      c(
        "{.val {type}} needs logits ({.code from = \"logits\"}).",
        i = "Probabilities do not determine the logits."
      ),
      class = "aurc_error_value"
    )
  }
  temperature <- check_positive_number(temperature)
  if (!is.numeric(p) || length(p) != 1 || is.na(p) || p < 1) {
    abort_aurc(
      "{.arg p} must be a single number of at least 1 (or {.code Inf}).",
      class = "aurc_error_value"
    )
  }
  if (from == "probs") check_probs(x) else warn_if_probs_as_logits(x)
  storage.mode(x) <- "double"
  if (members) {
    return(scores_members_impl(x, as.integer(d), type, from == "logits",
      temperature
    ))
  }
  scores_impl(x, type, from == "logits", temperature, as.double(p))
}

score_types <- c(
  "msp", "maxlogit", "margin", "neg_entropy", "maxlogit_pnorm", "neg_gini",
  "mcd_msp", "mcd_pe", "mcd_mi"
)
