#' Certified working points: selection with guaranteed risk
#'
#' `certify_threshold()` finds the lowest score threshold (the largest
#' coverage) whose selective risk is certified to be at most `target_risk`
#' with probability at least `1 - delta`, by the SGR algorithm of Geifman
#' and El-Yaniv (2017) (`method = "sgr"`, the default) or by Learn then
#' Test (Angelopoulos et al. 2025; `method = "ltt"`), which also allows a
#' loss in \[0, 1\] and a second, simultaneous limit on the abstention
#' rate. `method = "crc"` is conformal risk control (Angelopoulos et al.
#' 2024): the lowest threshold whose *expected* joint risk
#' `E[loss x 1(score >= threshold)]` is at most `target_risk`, for any loss
#' in \[0, `loss_bound`\]. With `group` (or a grouped data frame) it
#' certifies one threshold per group, or one threshold for all groups at
#' once (`shared = "threshold"`). `risk_upper_bound()` gives the exact
#' binomial upper bound on the selective risk at a chosen coverage.
#'
#' @section The bound:
#' If `m` predictions are accepted and `k` of them fail, the exact
#' (Clopper-Pearson) one-sided upper bound of the selective risk at level
#' `1 - delta` is the binomial tail inversion
#' `B*(k, m, delta) = sup {b : P(Bin(m, b) <= k) >= delta} =
#' qbeta(1 - delta, k + 1, m - k)` (1 when `k = m`). The accepted set is
#' treated as a sample from the population's accepted region, i.e. the
#' labelled set must be an i.i.d. sample from the deployment distribution
#' and not the data the score was tuned on.
#'
#' @section SGR (Geifman and El-Yaniv 2017, Algorithm 1):
#' The distinct scores `t_1 < ... < t_D` are the candidate thresholds
#' (tie-closed: a threshold accepts every sample with `score >= t`). With
#' `z_min = 1`, `z_max = D` and `k = ceiling(log2(D))` steps, each step tries
#' `z = ceiling((z_min + z_max) / 2)`, computes the bound at `t_z` with
#' `delta / k`, and moves `z_max <- z` when the bound is below
#' `target_risk` (try more coverage) and `z_min <- z` otherwise. The split
#' of `delta` over the `k` steps (a union bound) makes all `k` bounds hold
#' together with probability `1 - delta`, so the returned threshold, the
#' tried one with the largest coverage whose bound is at most `target_risk`,
#' has risk at most `target_risk` with at least that probability. The paper
#' returns the last threshold tried; we return the best certified one among
#' those tried (the same guarantee). When no tried threshold is certified
#' the result has `threshold = NA` and coverage 0, with a warning of class
#' `aurc_warning_not_certified`.
#'
#' @section Learn then Test (`method = "ltt"`):
#' Angelopoulos, Bates, Candes, Jordan and Lei (2025) turn risk control into
#' multiple testing. Each candidate threshold `t_j` (the distinct scores,
#' tie-closed, or the grid `thresholds` fixed in advance) carries the null
#' `H_j: R(t_j) > target_risk`, where `R(t) = E[loss | score >= t]` is the
#' population selective risk, and a p-value `p_j` valid for it. A procedure
#' controlling the family-wise error rate (FWER) at `delta` rejects a set
#' of nulls; with probability at least `1 - delta` every rejected
#' threshold has `R(t_j) <= target_risk` (the main theorem of LTT), so
#' the one with the largest coverage is returned.
#'
#' *p-values.* With `m_j` samples accepted at `t_j`, loss sum `k_j` and
#' `Rhat_j = k_j / m_j`; conditionally on `m_j` the accepted losses are an
#' i.i.d. sample of the accepted region, so a p-value valid given `m_j` is
#' valid.
#' * `p_value = "binomial"` (0/1 losses only; exact): `p_j =
#'   P(Bin(m_j, target_risk) <= k_j) = pbinom(k_j, m_j, target_risk)`.
#' * `p_value = "hoeffding_bentkus"` (any loss in \[0, 1\]; the
#'   Hoeffding-Bentkus p-value of LTT, after Bates et al. 2021):
#'   `p_j = min(exp(-m_j h1(min(Rhat_j, a), a)),
#'   e * P(Bin(m_j, a) <= ceiling(m_j Rhat_j)))`
#'   with `a = target_risk` and `h1(x, a) = x log(x / a) + (1 - x) log((1 -
#'   x) / (1 - a))` (`0 log 0 = 0`). For 0/1 losses it is larger than the
#'   binomial p-value (it bounds it).
#'
#' A candidate accepting nothing (a grid value above every score) has
#' p-value 1.
#'
#' *FWER procedures* over the `D` candidates:
#' * `fwer = "fixed_sequence"`: from the highest threshold (smallest
#'   coverage) down, reject while `p_j <= delta` and stop at the first
#'   `p_j > delta`; valid for any risk curve since the order is fixed in
#'   advance. Between two consecutive scores the p-value does not change,
#'   so over the distinct scores this is exactly fixed-sequence testing
#'   over every real threshold. But the first candidates accept very few
#'   samples (one for the highest distinct score), whose p-values cannot be
#'   small: with the distinct scores it usually certifies nothing. Give it
#'   a coarse grid `thresholds` fixed in advance (e.g. `seq(0.95, 0, by =
#'   -0.01)` for probabilities) whose first value accepts enough samples.
#' * `fwer = "bonferroni"`: reject `p_j <= delta / D`.
#' * `fwer = "holm"`: with `p_(1) <= ... <= p_(D)`, reject `p_(1), ...,
#'   p_(r)` where `r` is the largest with `p_(i) <= delta / (D - i + 1)` for
#'   every `i <= r`.
#'
#' Bonferroni and Holm are guaranteed for a family fixed in advance, i.e.
#' with `thresholds`; with the distinct scores (the default) the family is
#' chosen by the data, and the guarantee is approximate (the simulations
#' in the tests stay well below `delta`: `delta / D` is small).
#'
#' *Abstention rate* (`max_abstention`): the abstention rate `A(t) =
#' P(score < t)` is the risk of the 0/1 loss `1{score < t}` on all `n`
#' samples, so its p-value is the exact binomial one, `pbinom(n - m_j, n,
#' max_abstention)` (whatever `p_value` is). The joint null `H_j: R(t_j) >
#' target_risk or A(t_j) > max_abstention` has the p-value `max(p_j^risk,
#' p_j^abstention)` (the LTT rule for several risks), used by Bonferroni and
#' Holm. Fixed-sequence testing cannot use it (from the highest threshold
#' down, the abstention null holds first, so it would stop at once):
#' instead each risk is tested in its own direction at `delta / 2` (a
#' union bound over the two risks): the selective risk by fixed sequence
#' from the highest threshold down, the abstention rate from the lowest
#' threshold up, which, its p-value increasing with the threshold, rejects
#' exactly where `p_j^abstention <= delta / 2`; the thresholds rejected by
#' both are certified.
#'
#' *Continuous losses.* The argument keeps its name `failure` for
#' compatibility: with `method = "ltt"` and `p_value =
#' "hoeffding_bentkus"` it may hold any loss in \[0, 1\] (a 0/1 failure is
#' the special case); `R(t)` is then the expected loss of accepted samples.
#' Otherwise it must be 0/1 (an error of class `aurc_error_value`).
#'
#' @section Conformal risk control (`method = "crc"`):
#' Angelopoulos, Bates, Fisch, Lei and Schuster (2024) control the
#' expected value of a loss `L_i(lambda)` in \[0, B\] that is
#' non-increasing in a parameter `lambda`. Here `lambda` is the threshold
#' (accept when `score >= lambda`) and the loss is the *joint* loss
#' `L_i(lambda) = loss_i x 1(score_i >= lambda)`: a case costs its loss
#' when it is accepted and nothing when the model abstains, so it is
#' non-increasing in `lambda` for any loss `loss_i` in \[0, B\] (`B =
#' loss_bound`; a 0/1 failure is the case `B = 1`). With `R_n(lambda)` the
#' mean of `L_i(lambda)` over the `n` calibration cases, CRC returns the
#' smallest `lambda` with
#' `n / (n + 1) R_n(lambda) + B / (n + 1) <= alpha`, `alpha =
#' target_risk` (the column `adjusted_risk` is the left-hand side). The
#' candidates are the distinct scores (tie-closed: a threshold accepts
#' every case with `score >= lambda`) or the grid `thresholds` fixed in
#' advance; the returned threshold is a candidate.
#'
#' *Guarantee.* If the calibration cases and a new case are exchangeable
#' (e.g. i.i.d.), `E[loss_{n+1} x 1(score_{n+1} >= lambda_hat)] <= alpha`,
#' where the expectation is over the calibration set and the new case
#' together. This is a *marginal* guarantee on the *joint* risk (the
#' expected loss per case, counting abstentions as 0): it is not the
#' selective risk `E[loss | accepted]` of SGR and LTT, and it holds on
#' average over calibration sets, not with probability `1 - delta` for
#' the set at hand. `delta` and the options of LTT (`p_value`, `fwer`,
#' `max_abstention`) do not apply and are ignored with a warning of class
#' `aurc_warning_ignored`. The proof (Theorem 1 of the paper) holds for
#' the tie-closed candidates: the rule on the `n + 1` cases that picks the
#' smallest candidate among all `n + 1` scores is symmetric and never above
#' `lambda_hat`.
#'
#' *No threshold.* Accepting nothing costs 0, so `lambda = Inf` (abstain on
#' everything) always keeps the guarantee. When no candidate passes,
#' including when `B / (n + 1) > alpha` (fewer than `B / alpha - 1`
#' cases), the result has `threshold = Inf` and coverage 0, with a warning
#' of class `aurc_warning_not_certified`.
#'
#' *Computation.* One sort (the risk-coverage curve, tie groups entered
#' together) and one pass: with the candidates in decreasing order the sum
#' of the accepted losses only grows, so the candidates that pass are the
#' first ones and `lambda_hat` is the last of them.
#'
#' @section Groups (`group`, grouped data frames):
#' With `group` (a column of `data`) or a grouped data frame
#' ([dplyr::group_by()]; both together: every combination of their
#' columns), the cases fall into `G >= 2` groups (e.g. sites, subgroups of
#' patients) and the guarantee can hold within each of them, which a
#' threshold certified on the pooled data does not give (a group with more
#' failures at the same score gets a risk above the target).
#' * `shared = "none"` (the default; Mondrian certification, after
#'   Vovk's Mondrian conformal prediction): the method runs separately on
#'   each group's cases at the stated `delta`, one threshold per group.
#'   Guarantee for each group `g` on its own: `P(R_g(t_g) > target_risk)
#'   <= delta`, with `R_g(t) = E[loss | score >= t, group = g]`; over the
#'   `G` groups together up to `G delta` may fail. For CRC:
#'   `E[loss x 1(score >= t_g) | group = g] <= alpha` for each `g`
#'   (exchangeability within groups).
#' * `shared = "threshold"`: one threshold `t` valid for every group at
#'   once: `P(R_g(t) > target_risk for some g) <= delta`. The candidates
#'   are the distinct scores of all groups (or the grid `thresholds`); at
#'   each candidate the null is "`R_g(t) > target_risk` for some group",
#'   the union of the groups' nulls, and it is rejected when every group's
#'   own test rejects at the full level (an intersection-union test,
#'   Berger 1982): if a group's null holds, the candidate passes only when
#'   that group's test errs, with probability at most its level, whatever
#'   the other groups. So `delta` need not be split over the groups (a
#'   Bonferroni split, `delta / G` each, would give the same guarantee
#'   with less coverage). SGR runs its binary search over the candidates,
#'   a candidate passing when its bound at `delta / k` is at most
#'   `target_risk` in every group; LTT gives each candidate the p-value
#'   `max_g p_g` (its rule for several risks; with `max_abstention`, each
#'   group's abstention rate is one more risk) and runs the FWER procedure
#'   at `delta`. The returned threshold is the lowest that passes. The
#'   per-group `bound` (SGR) holds for each group at its level; for bounds
#'   that hold for all groups simultaneously, give `delta / G`. For CRC the
#'   joint loss only falls as the threshold grows, so the largest of the
#'   group thresholds keeps `E[loss x 1(score >= t) | group = g] <= alpha`
#'   in every group.
#'
#' Missing groups are an error (`na_rm` drops incomplete pairs of `score`
#' and `failure` only), as is a single group or a group without complete
#' cases.
#'
#' @param data A data frame holding the calibration set; a grouped data
#'   frame certifies per group, as `group` (see the section Groups). The
#'   vector-first call of earlier versions, `certify_threshold(score,
#'   failure, target_risk)`, still works and says once per session that
#'   the order has changed.
#' @param score Confidence score (higher = accepted first): an unquoted
#'   column of `data`.
#' @param failure 0/1 (or logical) failure indicator; with `method =
#'   "ltt"` and `p_value = "hoeffding_bentkus"`, any loss in \[0, 1\];
#'   with `method = "crc"`, any loss in \[0, `loss_bound`\].
#' @param target_risk The selective risk to certify, in (0, 1). With
#'   `method = "crc"`, the level `alpha` of the expected joint risk
#'   `E[loss x 1(score >= threshold)]`, in (0, `loss_bound`).
#' @param delta The allowed probability that the certificate is wrong, in
#'   (0, 1). Not used by `method = "crc"` (a warning if given).
#' @param coverage Coverage(s) at which to bound the risk, in (0, 1]: the
#'   smallest tie-closed set of most confident predictions covering at
#'   least that share (as [risk_at_coverage_vec()]).
#' @param ... Not used; must be empty.
#' @param method `"sgr"` (default; Geifman and El-Yaniv 2017), `"ltt"`
#'   (Learn then Test) or `"crc"` (conformal risk control). The arguments
#'   below from `p_value` to `thresholds` only apply to `"ltt"` (and
#'   `thresholds` to `"crc"` too); given with another method they are
#'   ignored with a warning of class `aurc_warning_ignored`.
#' @param group `NULL` (the default) or an unquoted column of `data` whose
#'   values define groups: one certificate per group, or one threshold for
#'   all of them (see `shared` and the section Groups). In the vector form,
#'   a vector as long as `score`.
#' @param shared With groups: `"none"` (the default; Mondrian, one
#'   threshold per group, each with the guarantee at `delta`) or
#'   `"threshold"` (one threshold for every group, the guarantee holding
#'   in all groups at once with probability `1 - delta`).
#' @param loss_bound `B`, the upper bound of the loss for `method = "crc"`
#'   (the loss must be in \[0, B\]); default 1.
#' @param p_value The p-value of each candidate: `"binomial"` (exact, 0/1
#'   losses) or `"hoeffding_bentkus"` (losses in \[0, 1\]).
#' @param fwer The family-wise error rate procedure: `"fixed_sequence"`,
#'   `"holm"` or `"bonferroni"`.
#' @param max_abstention `NULL` (the default: not controlled) or the
#'   largest abstention rate (share of samples rejected) to certify at the
#'   same time, in (0, 1).
#' @param thresholds `NULL` (the default: the distinct scores) or a grid of
#'   candidate thresholds fixed before seeing the data (LTT and CRC).
#' @param na_rm If `TRUE`, incomplete pairs are dropped; if `FALSE` (the
#'   default) a missing value is an error here, since a certificate on
#'   partial data would be silently wrong.
#' @return `certify_threshold()`: a one-row tibble with `threshold`,
#'   `coverage`, `n_accepted`, `failures`, `risk` (empirical selective
#'   risk), `bound` (its certified upper bound), `target_risk`, `delta`; the
#'   binary search is attached as attribute `"steps"` (one row per step).
#'   With `method = "ltt"`, `bound` is replaced by `p_value` (the p-value of
#'   the returned threshold) and `max_abstention` (`NA` when not
#'   controlled) is added; the attribute `"candidates"` has one row per
#'   candidate, by decreasing threshold, with `threshold`, `coverage`,
#'   `n_accepted`, `failures` (loss sum), `risk`, `p_risk`, `p_abstention`
#'   (`NA` when not controlled), `p_value` (the joint p-value) and
#'   `rejected` (certified).
#'   With `method = "crc"` the columns are `threshold` (`Inf` when none
#'   passes), `coverage`, `n_accepted`, `failures` (loss sum), `risk`
#'   (selective risk of the accepted), `joint_risk` (`R_n`, loss sum /
#'   `n`), `adjusted_risk` (`(n R_n + B) / (n + 1)`), `target_risk`,
#'   `loss_bound`; the attribute `"candidates"` has one row per candidate
#'   with these and `controlled`.
#'   With groups, one row per group: the grouping columns, `n` (complete
#'   cases of the group), then the columns above for that group (with
#'   `shared = "threshold"` the same threshold in every row, the group's
#'   own coverage, risk and bound); the attributes `"steps"` or
#'   `"candidates"` have the grouping columns too (with `shared =
#'   "threshold"`: `certified_all` (SGR: passed in every group) or
#'   `p_value_all` and `rejected_all` (LTT: the largest p-value of the
#'   groups, and the decision on it)), and CRC with `shared =
#'   "threshold"` has `"group_thresholds"` (each group's own threshold).
#'   The result has class `aurc_certificate` (a tibble), whose print
#'   states the guarantee.
#'   `risk_upper_bound()`: a tibble with one row per `coverage`:
#'   `coverage` (asked), `achieved_coverage`, `threshold`, `n_accepted`,
#'   `failures`, `risk`, `bound`, `delta`.
#' @references Geifman, El-Yaniv (2017). Selective classification for deep
#'   neural networks. NeurIPS 2017.
#'
#'   Angelopoulos, Bates, Candes, Jordan, Lei (2025). Learn then test:
#'   Calibrating predictive algorithms to achieve risk control. Annals of
#'   Applied Statistics (2025). arXiv:2110.01052.
#'
#'   Bates, Angelopoulos, Lei, Malik, Jordan (2021). Distribution-free,
#'   risk-controlling prediction sets. Journal of the ACM 68(6) (the
#'   Hoeffding-Bentkus bound).
#'
#'   Angelopoulos, Bates, Fisch, Lei, Schuster (2024). Conformal risk
#'   control. ICLR 2024. arXiv:2208.02814.
#'
#'   Vovk, Lindsay, Nouretdinov, Gammerman (2003). Mondrian confidence
#'   machine. Technical report, Royal Holloway, University of London.
#'
#'   Berger (1982). Multiparameter hypothesis testing and acceptance
#'   sampling. Technometrics 24(4), 295-300 (intersection-union tests).
#' @examples
#' set.seed(4)
#' score <- runif(5000)
#' failure <- rbinom(5000, 1, 0.4 * (1 - score)^2)
#' cal <- data.frame(score, failure)
#' cert <- certify_threshold(cal, score, failure, target_risk = 0.05,
#'   delta = 0.01)
#' cert
#' attr(cert, "steps")
#' # Learn then Test: Holm over the distinct scores, or fixed-sequence
#' # testing over a grid fixed in advance
#' certify_threshold(cal, score, failure, 0.05, delta = 0.01,
#'   method = "ltt", fwer = "holm")
#' ltt <- certify_threshold(cal, score, failure, 0.05, delta = 0.01,
#'   method = "ltt", thresholds = seq(0.95, 0, by = -0.01))
#' ltt
#' head(attr(ltt, "candidates"))
#' # a loss in [0, 1], and at most 50% abstention at the same time
#' cal$loss <- pmin(1, rexp(5000) * 0.2 * (1 - score))
#' certify_threshold(cal, score, loss, 0.05, delta = 0.01, method = "ltt",
#'   p_value = "hoeffding_bentkus", max_abstention = 0.5,
#'   thresholds = seq(0.95, 0, by = -0.01))
#' risk_upper_bound(score, failure, coverage = c(0.5, 0.8), delta = 0.01)
#'
#' # one threshold per site (Mondrian), or one for both sites at once
#' cal$site <- rep(c("north", "south"), 2500)
#' cal$failure[cal$site == "south"] <- rbinom(2500, 1,
#'   0.6 * (1 - cal$score[cal$site == "south"])^2)
#' certify_threshold(cal, score, failure, 0.05, delta = 0.01, group = site)
#' certify_threshold(cal, score, failure, 0.05, delta = 0.01, group = site,
#'   shared = "threshold")
#'
#' # conformal risk control: expected joint risk E[loss x accepted] <= 0.02
#' # for a loss in [0, 2]
#' cal$cost <- 2 * cal$loss
#' certify_threshold(cal, score, cost, 0.02, method = "crc", loss_bound = 2)
#' @export
certify_threshold <- function(data, score, failure, target_risk,
                              delta = 0.001, ...,
                              method = c("sgr", "ltt", "crc"),
                              group = NULL, shared = c("none", "threshold"),
                              loss_bound = 1,
                              p_value = c("binomial", "hoeffding_bentkus"),
                              fwer = c("fixed_sequence", "holm", "bonferroni"),
                              max_abstention = NULL, thresholds = NULL,
                              na_rm = FALSE) {
  data_first_call(certify_threshold_vectors, c("score", "failure", "group"),
    group = "group"
  )
}

# The vector form of certify_threshold() (R/data-first.R). `group` is NULL,
# a vector or a data frame of grouping columns (one row per case).
certify_threshold_vectors <- function(score, failure, target_risk,
                                      delta = 0.001, ...,
                                      method = c("sgr", "ltt", "crc"),
                                      group = NULL,
                                      shared = c("none", "threshold"),
                                      loss_bound = 1,
                                      p_value = c("binomial",
                                                  "hoeffding_bentkus"),
                                      fwer = c("fixed_sequence", "holm",
                                               "bonferroni"),
                                      max_abstention = NULL,
                                      thresholds = NULL, na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  # which options were given (before they are matched): an option of
  # another method is ignored with a warning
  given <- c(
    p_value = !missing(p_value), fwer = !missing(fwer),
    max_abstention = !is.null(max_abstention),
    thresholds = !is.null(thresholds), delta = !missing(delta),
    loss_bound = !missing(loss_bound), shared = !missing(shared)
  )
  method <- check_choice(first_choice(method), c("sgr", "ltt", "crc"),
    arg = "method", call = call
  )
  shared <- check_choice(first_choice(shared), c("none", "threshold"),
    arg = "shared", call = call
  )
  p_value <- check_choice(first_choice(p_value),
    c("binomial", "hoeffding_bentkus"),
    arg = "p_value", call = call
  )
  fwer <- check_choice(first_choice(fwer),
    c("fixed_sequence", "holm", "bonferroni"),
    arg = "fwer", call = call
  )
  if (method == "crc") {
    loss_bound <- check_positive_number(loss_bound, call = call)
    target_risk <- check_number(target_risk, 0, loss_bound, open = TRUE,
      call = call
    )
    delta <- NA_real_
  } else {
    target_risk <- check_number(target_risk, 0, 1, open = TRUE, call = call)
    delta <- check_number(delta, 0, 1, open = TRUE, call = call)
  }
  if (!is.null(max_abstention)) {
    max_abstention <- check_number(max_abstention, 0, 1, open = TRUE,
      call = call
    )
  }
  thresholds <- check_thresholds(thresholds, call)
  warn_ignored_options(method, given, is.null(group))
  opts <- list(
    method = method, target_risk = target_risk, delta = delta,
    loss_bound = if (method == "crc") loss_bound else NA_real_,
    p_value = p_value, fwer = fwer, max_abstention = max_abstention,
    thresholds = thresholds
  )
  if (!is.null(group)) {
    return(certify_groups(score, failure, group, shared, opts, na_rm, call))
  }
  out <- switch(method,
    sgr = certify_sgr(score, failure, target_risk, delta, na_rm, call),
    ltt = certify_ltt(score, failure, target_risk, delta, p_value, fwer,
      max_abstention, thresholds, na_rm, call
    ),
    crc = certify_crc(score, failure, target_risk, loss_bound, thresholds,
      na_rm, call
    )
  )
  new_certificate(out, opts)
}

# The options that do not apply to `method` (or, for `shared`, without
# groups), given all the same: ignored with a warning.
warn_ignored_options <- function(method, given, no_group) {
  ltt_only <- c("p_value", "fwer", "max_abstention", "thresholds")
  if (method == "sgr" && any(given[ltt_only])) {
    warn_aurc(
      c(
        "{.arg {ltt_only[given[ltt_only]]}} only appl{?ies/y} to
         {.code method = \"ltt\"}; ignored for {.code method = \"sgr\"}.",
        i = "Use {.code method = \"ltt\"} for Learn-then-Test."
      ),
      class = "aurc_warning_ignored"
    )
  }
  crc_ignores <- c("delta", "p_value", "fwer", "max_abstention")
  if (method == "crc" && any(given[crc_ignores])) {
    warn_aurc(
      c(
        "{.arg {crc_ignores[given[crc_ignores]]}} do{?es/} not apply to
         {.code method = \"crc\"}; ignored.",
        i = "Conformal risk control bounds the expected risk, not the risk
             with probability {.code 1 - delta}."
      ),
      class = "aurc_warning_ignored"
    )
  }
  if (method != "crc" && given[["loss_bound"]]) {
    warn_aurc(
      "{.arg loss_bound} only applies to {.code method = \"crc\"};
       ignored for {.code method = \"{method}\"}.",
      class = "aurc_warning_ignored"
    )
  }
  if (no_group && given[["shared"]]) {
    warn_aurc(
      c(
        "{.arg shared} only applies with groups; ignored.",
        i = "Give {.arg group} or a grouped data frame."
      ),
      class = "aurc_warning_ignored"
    )
  }
  invisible()
}

# SGR (Geifman and El-Yaniv 2017, Algorithm 1) on one data set.
certify_sgr <- function(score, failure, target_risk, delta, na_rm, call) {
  curve <- certify_curve(score, failure, na_rm, call)
  n_thr <- length(curve$threshold)
  # ascending order of thresholds: z = 1 is the lowest (full coverage)
  asc <- rev(seq_len(n_thr))
  k <- sgr_steps(n_thr)
  z_min <- 1L
  z_max <- n_thr
  steps <- vector("list", k)
  for (i in seq_len(k)) {
    z <- as.integer(ceiling((z_min + z_max) / 2))
    j <- asc[z]
    m <- curve$n_accepted[j]
    x <- curve$loss_accepted[j]
    b <- binomial_upper_bound(x, m, delta / k)
    steps[[i]] <- c(
      step = i, threshold = curve$threshold[j], coverage = m / curve$n,
      n_accepted = m, failures = x, risk = x / m, bound = b
    )
    if (b <= target_risk) z_max <- z else z_min <- z
  }
  steps <- tibble::as_tibble(as.data.frame(do.call(rbind, steps)))
  steps$certified <- steps$bound <= target_risk
  ok <- steps[steps$certified, , drop = FALSE]
  if (nrow(ok) == 0) {
    warn_not_certified(target_risk, delta, "No threshold tried")
    best <- list(
      threshold = NA_real_, coverage = 0, n_accepted = 0, failures = 0,
      risk = NA_real_, bound = NA_real_
    )
  } else {
    best <- ok[which.max(ok$coverage), ]
  }
  out <- tibble::tibble(
    threshold = best$threshold, coverage = best$coverage,
    n_accepted = best$n_accepted, failures = best$failures,
    risk = best$risk, bound = best$bound, target_risk = target_risk,
    delta = delta
  )
  attr(out, "steps") <- steps
  out
}

# The number of binary-search steps of SGR over `n_thr` candidates.
sgr_steps <- function(n_thr) max(1L, as.integer(ceiling(log2(n_thr))))

#' @rdname certify_threshold
#' @export
risk_upper_bound <- function(score, failure, coverage, delta = 0.001, ...,
                             na_rm = FALSE) {
  check_dots(...)
  call <- rlang::current_env()
  check_numeric_vector(coverage, "coverage", call = call)
  bad <- which(is.na(coverage) | coverage <= 0 | coverage > 1)
  if (length(coverage) == 0 || length(bad) > 0) {
    abort_aurc(
      c(
        "{.arg coverage} must contain numbers in (0, 1].",
        x = if (length(bad)) "Element {bad[1]} is {.val {coverage[bad[1]]}}."
        else "It is empty."
      ),
      class = "aurc_error_value", call = call
    )
  }
  delta <- check_number(delta, 0, 1, open = TRUE, call = call)
  curve <- certify_curve(score, failure, na_rm, call)
  cov <- curve$n_accepted / curve$n
  # smallest tie-closed set covering at least `coverage` (descending
  # thresholds: the first index whose coverage reaches it); the tolerance
  # absorbs rounding in n_accepted / n
  j <- vapply(coverage, function(c) {
    which(cov >= c - 1e-12 * c)[1]
  }, integer(1))
  m <- curve$n_accepted[j]
  x <- curve$loss_accepted[j]
  tibble::tibble(
    coverage = as.double(coverage), achieved_coverage = m / curve$n,
    threshold = curve$threshold[j], n_accepted = m, failures = x,
    risk = x / m,
    bound = vapply(seq_along(j), function(i) {
      binomial_upper_bound(x[i], m[i], delta)
    }, numeric(1)),
    delta = delta
  )
}

# Exact one-sided upper bound of a binomial proportion (Clopper-Pearson):
# sup {b : P(Bin(m, b) <= x) >= delta}.
binomial_upper_bound <- function(x, m, delta) {
  if (!(m > 0)) return(NA_real_)
  if (x >= m) return(1)
  stats::qbeta(1 - delta, x + 1, m - x)
}

# The risk-coverage curve of 0/1 failures (or, with `bounded = TRUE`, of
# losses in [0, 1], or with `loss_bound = B`, of losses in [0, B]) after
# the NA rule (one sort).
certify_curve <- function(score, failure, na_rm, call, bounded = FALSE,
                          loss_bound = NULL) {
  check_numeric_vector(score, "score", call = call)
  certify_check_loss(failure, length(score), bounded, loss_bound, call)
  check_bool(na_rm, call = call)
  incomplete <- is.na(score) | is.na(failure)
  if (any(incomplete)) {
    if (!na_rm) abort_certify_missing(call)
    score <- score[!incomplete]
    failure <- failure[!incomplete]
  }
  if (length(score) == 0) {
    abort_aurc(
      "No samples left to certify a threshold on.",
      class = "aurc_error_no_data", call = call
    )
  }
  rc_curve_impl(as.double(score), as.double(failure), double())
}

# The loss of a method: 0/1, in [0, 1] (`bounded`) or in [0, `loss_bound`].
certify_check_loss <- function(failure, n, bounded, loss_bound, call) {
  if (!is.null(loss_bound)) {
    check_unit_loss(failure, n, "failure", upper = loss_bound, call = call)
  } else if (bounded) {
    check_unit_loss(failure, n, "failure", call = call)
  } else {
    check_failure(failure, n, "failure", call = call)
  }
}

abort_certify_missing <- function(call) {
  abort_aurc(
    c(
      "{.arg score} and {.arg failure} must not contain missing values.",
      i = "Set {.code na_rm = TRUE} to drop incomplete pairs."
    ),
    class = "aurc_error_missing", call = call
  )
}

# ---- the result: class aurc_certificate ----------------------------------

# A certificate: the tibble of certify_threshold() with its settings (the
# attribute "settings") and class, for print().
new_certificate <- function(out, opts) {
  # only the options of the method (an ignored option leaves no trace)
  drop <- switch(opts$method,
    sgr = c("loss_bound", "p_value", "fwer", "max_abstention"),
    ltt = "loss_bound",
    crc = c("delta", "p_value", "fwer", "max_abstention")
  )
  opts[c("thresholds", drop)] <- NULL
  opts$shared <- opts$shared %||% "none"
  attr(out, "settings") <- opts
  class(out) <- c("aurc_certificate", setdiff(class(out), "aurc_certificate"))
  out
}

#' @export
print.aurc_certificate <- function(x, ...) {
  s <- attr(x, "settings")
  if (is.list(s)) cat(paste0("# ", certificate_header(s), "\n"), sep = "")
  print(plain_tibble(x), ...)
  invisible(x)
}

# The lines above a certificate: the method, the groups and what it
# guarantees.
certificate_header <- function(s) {
  fmt <- function(x) format(x, digits = 4)
  alpha <- fmt(s$target_risk)
  grouped <- !is.null(s$n_groups)
  method <- switch(s$method,
    sgr = "Certified threshold: SGR (Geifman and El-Yaniv 2017)",
    ltt = sprintf(
      "Certified threshold: Learn then Test (%s p-values, %s)",
      sub("_", "-", s$p_value), sub("_", " ", s$fwer)
    ),
    crc = sprintf(
      "Conformal risk control (Angelopoulos et al. 2024), loss in [0, %s]",
      fmt(s$loss_bound)
    )
  )
  groups <- if (!grouped) {
    NULL
  } else if (s$shared == "none") {
    sprintf("Mondrian: one threshold per group, %d groups", s$n_groups)
  } else if (s$method == "crc") {
    sprintf(
      "One threshold for all %d groups: the largest of their thresholds",
      s$n_groups
    )
  } else {
    sprintf(
      "One threshold for all %d groups (passing the test in every group)",
      s$n_groups
    )
  }
  if (s$method == "crc") {
    guarantee <- if (grouped) {
      sprintf(
        "Guarantee in each group g: E[loss x 1(score >= threshold) | g] <= %s",
        alpha
      )
    } else {
      sprintf(
        "Guarantee in expectation: E[loss x 1(score >= threshold)] <= %s",
        alpha
      )
    }
    return(c(
      method, groups, guarantee,
      "(on average over calibration sets, not with probability 1 - delta)"
    ))
  }
  abst <- if (!is.null(s$max_abstention)) {
    sprintf(" or abstention > %s", fmt(s$max_abstention))
  } else {
    ""
  }
  guarantee <- if (!grouped) {
    sprintf(
      "Guarantee: P(selective risk > %s%s) <= %s", alpha, abst, fmt(s$delta)
    )
  } else if (s$shared == "none") {
    sprintf(
      "Guarantee in each group: P(selective risk > %s%s) <= %s",
      alpha, abst, fmt(s$delta)
    )
  } else {
    sprintf(
      "Guarantee: P(selective risk > %s%s in any group) <= %s",
      alpha, abst, fmt(s$delta)
    )
  }
  c(method, groups, guarantee)
}
