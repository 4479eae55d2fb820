#' Prediction rejection ratio and area under the accuracy-rejection curve
#'
#' Metrics of an uncertainty (or confidence) measure for outputs whose
#' quality is a number in `[0, 1]`, as used to evaluate large language
#' models: the ROUGE of a generated answer, whether it was judged correct,
#' a 0/1 accuracy. The score is a **confidence** (higher = accepted first);
#' give an uncertainty as its negative.
#'
#' @section Definitions:
#' Let `Q(c)` be the mean quality of the accepted outputs when a share `c`
#' of them, the most confident, is accepted (tie-closed, as the selective
#' risk of [rc_curve()]: tied scores are accepted together, and every output
#' of a tie group is given the value of the whole group). With
#' `loss = 1 - quality`, `Q(c) = 1 - R(c)` for the selective risk `R`.
#'
#' * `auarc()`: the area under the accuracy-rejection curve of Lin, Trivedi
#'   and Sun (2024), `AUARC = 1 - AURC(1 - quality)` with the AURC
#'   estimator `estimator` (default `"alpha"`, the mean of `Q` at the
#'   coverages `1/n, 2/n, ..., 1`: Eq. 10 of Zhou et al. 2025). The authors'
#'   code
#'   integrates the same points by the trapezoid rule over positions
#'   `0, 1/(n-1), ..., 1`, which gives, without ties,
#'   `(n AUARC - (Q(1/n) + Q(1)) / 2) / (n - 1)`: an `O(1/n)` difference
#'   (the tests check this identity).
#' * `prr()`: the prediction rejection ratio (Malinin and Gales 2021;
#'   LM-Polygraph, Vashurin et al. 2025) over the rejection range
#'   `[0, max_rejection]`: with `A` the mean of `1 - Q` over coverages
#'   `[1 - max_rejection, 1]` (the step curve of the `"alpha"` AURC,
#'   integrated over that range and divided by its width), `A*` the same for
#'   the oracle order (outputs sorted by quality, best first, strict order)
#'   and `m` the mean of `1 - quality` (the expected value of `A` for a
#'   random order, at every coverage),
#'   `PRR = (m - A) / (m - A*)`.
#'   It is 1 for the oracle, 0 in expectation for a random score, negative
#'   for a score worse than random; at `max_rejection = 1` it is
#'   `1 - NAURC` ([naurc()]). NA with a warning of class
#'   `aurc_warning_undefined` when every quality is equal (`m = A*`).
#'
#' LM-Polygraph rejects `floor(max_rejection * n)` outputs and breaks ties
#' by position; it min-max rescales the quality (PRR does not change under
#' such a rescaling) and estimates the random reference by 1000 random
#' permutations. Here the rejection range is exactly `max_rejection` (so
#' the two agree when `max_rejection * n` is whole and scores are distinct,
#' or with `ties = "lm_polygraph"` when it is whole), ties are accepted
#' together by default (section "Tied scores"), and the random reference
#' is its exact expectation. With case weights, coverage is measured in
#' weight. The oracle order counts cases, so PRR depends on the scale of
#' the weights as NAURC does (see [naurc()], section "Case weights at
#' every scale": `NA` with a classed warning below one case, the value of
#' `2^52` to `2^53` cases beyond `2^53`).
#'
#' @section Tied scores (`ties`):
#' A score with few distinct values (a verbalised confidence, a count of
#' agreeing samples) leaves many outputs tied, and the accuracy-rejection
#' curve inside a tie group then depends on a convention. With the scores
#' in descending order, tie group `g` holding `c_g` outputs with loss sum
#' `s_g`, and `A_g`, `L_g` the count and loss sum of the groups before it,
#' the risk at position `A_g + j` (`j = 1, ..., c_g`) is:
#' * `"group"` (the default, the tie-closed curve of [rc_curve()]):
#'   `(L_g + s_g) / (A_g + c_g)` at every position of the group;
#' * `"lm_polygraph"`: the cumulative mean loss of the first `A_g + j`
#'   outputs in the order of LM-Polygraph's `np.argsort(uncertainty)` read
#'   as a stable sort, that is, within a tie group in input order (the
#'   earlier row is accepted first). NumPy's default sort is not stable
#'   beyond 16 elements, so LM-Polygraph's own tie order is that of its
#'   introsort there; with distinct scores all three rules agree;
#' * `"random"`: the expectation of that cumulative mean when ties are
#'   broken uniformly at random, `(L_g + j s_g / c_g) / (A_g + j)` (the
#'   `j` first outputs of a random order of the group have expected loss
#'   sum `j s_g / c_g`), the curve [partial_aurc()] integrates. It is
#'   exact, not simulated.
#'
#' The oracle and the random reference do not change. On tied scores the
#' rules can differ by 0.1 to 0.3 in PRR (a five-step verbalised
#' confidence on rows stored best first: 0.50, 0.79 and 0.61 for group,
#' LM-Polygraph and random), and by more on tiny examples; `"random"`
#' is the value a score that breaks its ties by a coin would get on
#' average, `"group"` does not depend on the order of the rows, and
#' `"lm_polygraph"` reproduces LM-Polygraph's numbers. With case weights
#' both rules read an output of weight `w` as `w` rows in a row
#' (`"lm_polygraph"`: one unit of weight at a time in input order;
#' `"random"`: a group one unit at a time at its mean loss), the expansion
#' of whole weights into rows (tested). Intervals and comparisons take the
#' default rule only: the others have no influence function, and
#' [selective_ci()] has no `ties` argument; [selective_metrics()] takes
#' any rule through [metric_with()], and [bootstrap_ranking()] refuses
#' `"lm_polygraph"` (a resample does not keep the order of tied rows). On
#' a lazy database table the order of rows is the query's, so
#' `"lm_polygraph"` there is only as reproducible as that order.
#'
#' Intervals ([selective_ci()]), paired comparisons ([compare_scores()])
#' and rankings ([bootstrap_ranking()]) take `metrics = "prr"` or
#' `"auarc"` with `loss = 1 - quality`, and so does [selective_power()].
#' Analytic intervals use the influence function of `1 - AURC` for
#' `auarc` and of `1 - NAURC` for `prr` with `max_rejection = 1`; below 1,
#' PRR's own, derived from the step curve over the rejection window and the
#' oracle's window as an L-functional of the loss distribution (checked
#' against numerical derivatives, against `1 - NAURC` at 1, and by the
#' coverage of its intervals). The bootstrap covers every case.
#'
#' @inheritParams aurc
#' @param quality The quality of each output, in `[0, 1]`, higher better
#'   (a 0/1 correctness, or a ROUGE, BLEU or judged score). For the
#'   data-frame form, an unquoted column.
#' @param estimator The AURC estimator behind `auarc()`, as in [aurc()].
#' @param max_rejection The largest share of outputs rejected, in `(0, 1]`.
#' @param ties How PRR reads tied scores: `"group"` (a tie group at once,
#'   the default), `"lm_polygraph"` (LM-Polygraph's position by position,
#'   ties in input order) or `"random"` (the exact expectation under random
#'   tie-breaking). See the section "Tied scores".
#' @return `_vec`: a single number. Data-frame form: a tibble with
#'   `.metric`, `.estimator`, `.estimate` (and the grouping columns).
#' @references Malinin, Gales (2021). Uncertainty estimation in
#'   autoregressive structured prediction. ICLR 2021.
#'
#'   Vashurin, Fadeeva, Vazhentsev, et al. (2025). Benchmarking uncertainty
#'   quantification methods for large language models with LM-Polygraph.
#'   TACL 13.
#'
#'   Lin, Trivedi, Sun (2024). Generating with confidence: uncertainty
#'   quantification for black-box large language models. TMLR.
#' @examples
#' set.seed(1)
#' n <- 500
#' confidence <- runif(n)
#' rouge <- pmin(1, pmax(0, 0.3 + 0.5 * confidence + rnorm(n, sd = 0.2)))
#' prr_vec(confidence, rouge)
#' prr_vec(confidence, rouge, max_rejection = 0.5)
#' auarc_vec(confidence, rouge)
#' # an uncertainty is given as its negative
#' entropy <- 1 - confidence + rnorm(n, sd = 0.1)
#' prr(data.frame(entropy, rouge), -entropy, rouge)
#' # a score with ties: the three rules
#' s <- c(1, 1, 1, 0)
#' q <- c(0, 1, 1, 0)
#' prr_vec(s, q)
#' prr_vec(s, q, ties = "lm_polygraph")
#' prr_vec(s, q, ties = "random")
#' @export
prr <- function(data, score, quality, ..., max_rejection = 1,
                ties = "group", correct = NULL, na_rm = FALSE,
                case_weights = NULL) {
  metric_df_form("prr", ...)
}

#' @rdname prr
#' @export
prr_vec <- function(score, quality, ..., max_rejection = 1,
                    ties = "group", correct = NULL, na_rm = FALSE,
                    case_weights = NULL) {
  metric_vec_form("prr", ...)
}

#' @rdname prr
#' @export
auarc <- function(data, score, quality, ..., estimator = "alpha",
                  correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_df_form("auarc", ...)
}

#' @rdname prr
#' @export
auarc_vec <- function(score, quality, ..., estimator = "alpha",
                      correct = NULL, na_rm = FALSE, case_weights = NULL) {
  metric_vec_form("auarc", ...)
}

# A quality in [0, 1] (numeric or logical, NA allowed) as the loss
# 1 - quality the engine reads.
quality_as_loss <- function(quality, call = rlang::caller_env()) {
  if (!is.null(dim(quality)) && length(dim(quality)) > 1 &&
    dim(quality)[2] != 1) {
    abort_aurc(
      "{.arg quality} must be a vector, not {.obj_type_friendly {quality}}.",
      class = "aurc_error_type", call = call
    )
  }
  if (!(is.double(quality) || is.integer(quality) || is.logical(quality)) ||
    is.object(quality) && !is.logical(quality)) {
    abort_aurc(
      c(
        "{.arg quality} must be a numeric vector of values in [0, 1].",
        x = "It is {.obj_type_friendly {quality}}."
      ),
      class = "aurc_error_type", call = call
    )
  }
  q <- as.double(quality)
  bad <- which(!is.na(q) & !(q >= 0 & q <= 1))
  if (length(bad)) {
    abort_aurc(
      c(
        "{.arg quality} must lie in [0, 1] (higher = better).",
        x = "Element {bad[1]} is {.val {q[bad[1]]}}.",
        i = "Rescale a quality on another scale to [0, 1] first."
      ),
      class = "aurc_error_value", call = call
    )
  }
  1 - q
}

# The direction check of warn_if_suspicious() for a quality: a score that
# rises with the loss 1 - quality is an uncertainty given as a confidence.
warn_if_quality_backwards <- function(score, loss, call) {
  if (!is_plain_numeric(score) || !is_plain_numeric(loss)) {
    return(invisible())
  }
  st <- input_summary(score, loss)
  if (st[["rows"]] < 20 || !rises(st[["r"]], st[["rows"]])) {
    return(invisible())
  }
  warn_aurc(
    c(
      paste(
        "Higher {.arg score} goes with lower {.arg quality}",
        "(correlation {format(round(-st[['r']], 2), nsmall = 2)}): the",
        "score ranks the outputs backwards."
      ),
      i = paste(
        "{.arg score} must be a confidence (higher = more confident):",
        "give an uncertainty (entropy, perplexity) as its negative."
      ),
      i = paste(
        "If the score really is this poor, silence this with",
        "{.code suppressWarnings(..., classes = \"aurc_warning_direction\")}."
      )
    ),
    class = "aurc_warning_direction", call = call
  )
  invisible()
}

# PRR's rules for tied scores (the C++ PrrTies of src/core/partial.h, in
# this order: the kernel name carries the index, "prr@0.5,2").
prr_ties <- c("group", "random", "lm_polygraph")

# "prr@r" for the default rule (the kernel name of earlier versions),
# "prr@r,k" for the others.
prr_kernel_name <- function(o) {
  ties <- o$ties %||% "group"
  if (identical(ties, "group")) return(kernel_name("prr", o$max_rejection))
  kernel_name("prr", c(o$max_rejection, match(ties, prr_ties) - 1))
}

check_max_rejection <- function(x, call) {
  check_number(x, 0, 1, arg = "max_rejection", call = call)
  if (x == 0) {
    abort_aurc(
      c(
        "{.arg max_rejection} must be in (0, 1].",
        x = "It is {.val {x}}: nothing would be rejected."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.double(x)
}
