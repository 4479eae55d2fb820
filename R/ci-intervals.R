#' Confidence intervals for every metric
#'
#' Every point estimate with its uncertainty: intervals for the AURC (any
#' estimator), AUGRC, failure AUROC and AUPR, E-AURC, E-AUGRC, NAURC, risk
#' at coverage, coverage at risk, and every calibration error (ECE, MCE,
#' the debiased l2 calibration error, the smooth ECE, the CORP score
#' decomposition), analytic (influence functions, O(n log n) after the one
#' sort) or by the bootstrap.
#'
#' @section Methods:
#' * `method = "analytic"` (default): `estimate +- z SE`,
#'   `z = qnorm((1 + conf_level) / 2)`, `SE` from the metric's empirical
#'   influence function (derivations in [influence_functions]). For the
#'   failure AUROC this is DeLong's interval (the variance equals
#'   `pROC::var(method = "delong")`). `strata` gives the stratified variance
#'   (classes fixed by design), `cluster` the cluster-robust variance (whole
#'   clusters independent, e.g. several images of one patient). Without
#'   `strata` the failure AUROC uses its two classes as strata, as DeLong.
#' * `method = "bootstrap"`: `times` replicates of the cases drawn with
#'   replacement (within `strata`; whole clusters with `cluster`), or the
#'   replicates given in `indices`; `type = "percentile"` (default),
#'   `"bca"`, `"normal"` or `"basic"`. `set.seed()` reproduces the draws
#'   whatever the number of `threads`. A replicate is a vector of counts
#'   over the presorted tie groups, never a new sort.
#'
#' The analytic interval is the default: in the coverage study of the
#' vignette "How honest are the intervals?" (four models, 0/1 and continuous
#' losses, with and without ties, 1000 data sets each) the 95% analytic
#' intervals of the AURC estimators, AUGRC, failure AUROC and AUPR, E-AURC,
#' E-AUGRC, NAURC, ECE and risk at coverage covered 93.0-96.1% at
#' `n >= 1000`. Coverage at risk has an analytic interval of its own, by
#' test inversion (see [influence_functions]): 93.9-96.7% at `n >= 1000`,
#' but **only 90.7-91.9% for a continuous loss with heavily tied scores**
#' and 87.7-92.7% at `n = 100`; read it as approximate there. The ECE
#' interval assumes no bin's gap is near 0 (see [influence_functions]).
#'
#' @section Which methods for which metric:
#' * Both `"analytic"` and `"bootstrap"` (percentile, bca, normal): the
#'   AURC family, AUGRC, failure AUROC and AUPR, E-AURC, E-AUGRC, NAURC,
#'   risk at coverage, coverage at risk (analytic by test inversion;
#'   approximate with heavy ties, see above), `"ece"`,
#'   `"calibration_slope"` and `"calibration_intercept"`.
#' * `"bootstrap"` only (`"analytic"` is an error of class
#'   `aurc_error_method`): `"mce"`, `"debiased_l2_ce"`, `"smooth_ece"`,
#'   `"corp_mcb"`, `"corp_dsc"`, `"corp_unc"`, `"corp_mean_score"`,
#'   `"ici"`, `"e50"`, `"e90"`, `"emax"`.
#'
#' * The regression and LLM metrics (see "Regression and LLM metrics"):
#'   both for `"ause"`, `"spearman"`, `"kendall"` and `"quality_auroc"`;
#'   `"bootstrap"` only for `"rank_calibration_error"` and
#'   `"quality_aupr"`.
#'
#' [metric_info()] lists every metric with the forms and interval methods
#' it has.
#'
#' The calibration errors without an influence function (a maximum over
#' bins, a square root of a debiased sum, a kernel smoother with a
#' data-chosen bandwidth, an isotonic fit) have bootstrap intervals only;
#' asking for `method = "analytic"` is an error, never a silent switch.
#' Their BCa acceleration comes from the jackknife (`n` deletions; for the
#' smooth ECE each is a bandwidth search, so BCa costs about as much as
#' `n` more replicates).
#'
#' @section The ECE's interval:
#' The ECE is never below 0 and is biased upwards (a perfectly calibrated
#' model has an ECE of about `sqrt(bins / n)`), so intervals around the
#' estimate or the replicates alone miss a small true ECE. Two rules make
#' its interval honest at every `n`, for every method:
#' * no bound is below 0 (nor is any bound of the other calibration
#'   errors, the ICI family or the balanced metrics outside their range);
#' * **the lower bound is 0 whenever the data are consistent with perfect
#'   calibration**: when the ECE does not exceed the `conf_level` quantile
#'   of its distribution under calibration with the same bins (each bin's
#'   sum of `y - p` has mean 0 and variance `sum p (1 - p)`; the ECE is then
#'   a sum of half-normal terms, whose quantile is computed without random
#'   numbers). So a calibrated model's interval starts at 0 with
#'   probability about `conf_level`.
#'
#' Measured by `studies/ci-ece-small-n.R` (10 equal-width bins, 400
#' data sets of 1000 replicates per cell, so each rate is known to about
#' 1.1 points). Coverage of 95% intervals at `n = 213` / `500` / `2000`:
#' * a calibrated model (true ECE 0; the estimate averages 0.043 / 0.028
#'   / 0.014): every method 93.2-94.5% (without the rule: analytic
#'   62-65%, percentile and BCa 0%, normal 29-33%, basic 74-77%);
#' * a miscalibrated one (true ECE 0.056): **analytic 95.2 / 95.0 /
#'   95.2%**, basic 92.0 / 90.0 / 91.8%, normal 90.0 / 90.5 / 93.5%, BCa
#'   86.8 / 87.8 / 92.2%, percentile 69.8 / 82.0 / 88.0%.
#'
#' So for the ECE use the analytic interval (the default); among the
#' bootstrap intervals the basic one, which reflects the replicates' bias,
#' and never the percentile one at small `n` (the replicates lie above the
#' estimate: at `n = 213` a percentile interval can exclude the estimate
#' itself).
#'
#' @section Coverage of the calibration intervals:
#' Measured by `inst/scripts/ci-calibration-coverage.R` (results in the
#' vignette "How honest are the intervals?"): one model with a
#' sign-changing calibration gap, continuous confidences and confidences
#' with ties, `n = 500` and `2000`, 300 data sets per cell (60 for the
#' smooth ECE, continuous confidences only), 95% intervals; see the
#' vignette for the table. Coverage at `n = 2000` (continuous / ties;
#' percentile, normal, BCa):
#' * The mean score and UNC of the CORP decomposition: 94.7-96.0% for
#'   every type; DSC: normal 95.3-96.3%, BCa 94.7-95.0%, percentile 89-94%.
#' * ECE: normal 93.3-95.7%, BCa 91.7-94.3%, percentile 90.7-95.0%. The
#'   plug-in ECE is biased upwards and the replicates more so, which pulls
#'   the percentile interval up; at `n = 500` the normal interval covers
#'   88-94%.
#' * Debiased l2 error: percentile 94-98%, normal 93-97%, **BCa
#'   under-covers** (85-93%; 80-82% at `n = 500`).
#' * **MCE under-covers** with every type (percentile 48-75%, normal
#'   84-97%, BCa 88-94% where defined): a maximum over bins is dominated by
#'   the smallest bin, and the bootstrap of a maximum is not consistent.
#'   Do not report an MCE interval.
#' * **CORP MCB under-covers badly with continuous confidences**
#'   (percentile 1%, normal 66%, BCa 32%): the isotonic fit overfits, its
#'   bias is as large as its spread and the bootstrap does not remove it.
#'   With ties (here 11 distinct confidences) the normal interval covers
#'   95.7%, percentile 79% and BCa 91%.
#' * Smooth ECE (continuous confidences, 60 data sets of 200 replicates
#'   per cell, so known only to about 3 points): percentile 96.7% and
#'   93.3%, normal 93.3% and 88.3% at `n = 500` and `2000`; nearly
#'   unbiased. Here the percentile interval is the better one; its
#'   coverage at larger `n` has not been measured. BCa (by the jackknife,
#'   a bandwidth search per deleted row) was not measured.
#'
#' So for the binned errors and the CORP parts prefer `type = "normal"`
#' (the default `"percentile"` is the better choice for the debiased l2
#' error and the smooth ECE).
#'
#' The clinical summaries ([ici()], [calibration_slope()]), measured by
#' `studies/ci-clinical-coverage.R`: confidences uniform on
#' `[0.5, 0.99]`, an overconfident model (true slope 0.6), 200 data sets
#' of 200 replicates per cell, so each rate is known to about 1.5 points;
#' the true loess summaries from 200,000 cases. Coverage of 95% intervals
#' at `n = 500` / `n = 2000`:
#' * Slope and intercept: analytic 95.5 / 94.5 and 94.5 / 94.5;
#'   percentile 93.5 / 94.0 and 93.0 / 93.5; normal 96.0 / 94.0 and
#'   95.0 / 94.5.
#' * ICI: percentile 92.5 / 91.0, normal 92.0 / 93.0 (ICI is a mean of
#'   absolute distances, biased upwards, and its percentile interval
#'   leans with the bias). E50: percentile 97.0 / 95.0, normal 92.0 /
#'   93.5.
#' * **E90 and Emax under-cover with the percentile interval** (85.0 /
#'   88.0 and 72.0 / 84.0): a high quantile or a maximum of the
#'   smooth's distances is biased upwards in a resample. The normal
#'   interval covers 96.0 / 93.5 and 96.0 / 93.5. Prefer
#'   `type = "normal"` for them.
#'
#' Each replicate of a loess summary smooths the resampled data again
#' (about 2 ms at `n = 2000`: 200 replicates in 0.5 s); without case
#' weights the replicate is exactly the summary of the resampled rows.
#' BCa takes its acceleration
#' from the slope's and intercept's influence functions, and from the
#' jackknife (one smooth per deleted case, at most 5000) for the loess
#' summaries.
#'
#' @section Case weights: counts or importance:
#' What the uncertainty of a weighted estimate is depends on what the
#' weights are, and the class of `case_weights` says it (the estimates are
#' the same either way):
#' * Plain numbers and [hardhat::frequency_weights()] are counts: a case of
#'   weight `w` stands for `w` identical cases, so integer weights give
#'   exactly the interval of the rows repeated, and multiplying every weight
#'   by 10 narrows the interval by `sqrt(10)`. The bootstrap resamples the
#'   rows the weights stand for.
#' * [hardhat::importance_weights()] are probability or shift-correction
#'   weights (a density ratio `p_target(x) / p_source(x)`, inverse sampling
#'   probabilities): the analytic standard error is the weighted sandwich
#'   over the `n` cases observed, `sqrt(sum(w^2 IF^2)) / sum(w)` (with the
#'   `n / (n - 1)` correction; within `strata`, and over whole clusters with
#'   `cluster`), which does not change when every weight is multiplied by a
#'   number; the bootstrap resamples cases, each with its weight. The failure
#'   AUROC is then not stratified by its two classes, whose weighted totals
#'   vary from sample to sample. `indices` cannot be combined with them.
#'
#' Measured (`studies/importance-coverage.R`; the n = 5000 check is
#' also in the tests): a covariate shift from `x ~ N(0, 1)` to
#' `N(0.5, 1)`, a score `x + N(0, 0.8^2)`, failures with probability
#' `plogis(-1.5 - 1.2 x)`, the source data weighted by the density ratio,
#' the target's values from 10^7 target cases. The 95% analytic intervals
#' with importance weights covered the target's AURC, AUGRC and failure
#' AUROC in 93.0%, 94.1% and 95.0% of 2000 data sets of n = 1000, and in
#' 94.4%, 94.7% and 94.7% of 1000 data sets of n = 5000 (at n = 1000 the
#' AURC's estimate is still skewed; the bootstrap below covers better
#' there). The same weights given as plain numbers (counts of mean 1)
#' covered only 87.0%, 91.4% and 94.5% at n = 1000: counts understate the
#' variance of weights that vary. The percentile bootstrap with importance
#' weights covered 96.2%, 97.0% and 95.6% at n = 1000 (500 data sets).
#'
#' Weights at every scale (`1e-320` to `1e308`): estimates and analytic
#' intervals are computed on the weights times a power of 2 and the
#' standard errors scaled back. The metrics that count cases (E-AURC with
#' the exact optimum, NAURC, PRR, the `"alpha_prime"` estimator, ECE and
#' MCE with adaptive bins, the debiased ECE, the relplot smooth ECE; see
#' [naurc()]) are `NA` with a warning of class `aurc_warning_weights_scale`
#' when the weights total less than one case. A bootstrap of frequency
#' weights that stand for less than one row has no row to draw: its
#' intervals are `NA` with a warning of class `aurc_warning_no_interval`;
#' beyond `2^80` rows it is an error naming `case_weights`.
#'
#' @section Metrics and their inputs:
#' `metrics` takes any of `"aurc"`, `"augrc"`, `"failure_auroc"`,
#' `"failure_aupr"`, `"eaurc"`, `"eaugrc"`, `"naurc"`, `"risk_at_coverage"`,
#' `"coverage_at_risk"`, `"partial_aurc"`, `"partial_augrc"`,
#' `"fpr_at_tpr"`, `"achievable_aurc"`, `"auarc"`, `"prr"` (as in
#' [selective_metrics()]; the last two read `loss` as `1 - quality`;
#' `"achievable_aurc"` has bootstrap intervals only), the balanced
#' metrics `"aurc_ba"` and `"augrc_ba"` of [aurc_ba()] (with `truth =` and
#' 0/1 failures; see there for their intervals), and the calibration
#' errors `"ece"`, `"mce"` (as [mce_vec()]), `"debiased_l2_ce"` (as
#' [ece_vec()] with `debias = TRUE`), `"smooth_ece"` (as
#' [smooth_ece_vec()]), `"corp_mcb"`, `"corp_dsc"`, `"corp_unc"` and
#' `"corp_mean_score"` (the parts of [corp_decomposition()]), and the
#' clinical summaries `"ici"`, `"e50"`, `"e90"`, `"emax"` (as [ici()], with
#' `span`) and `"calibration_slope"`, `"calibration_intercept"` (as
#' [calibration_slope()], with `eps`). The failure
#' metrics, `"eaugrc"`, the calibration errors and `optimum =
#' "asymptotic"` need a 0/1 loss. For the calibration errors the score is
#' the confidence (in `[0, 1]`) and the correctness is given as `correct
#' = ` (1 = right, the argument of [ece()] and every calibration function)
#' or as `loss = 1 - correct`; a `loss` whose implied accuracy is below 0.5
#' while the mean confidence is above 0.5 (a correctness given as a loss)
#' gets a warning of class `aurc_warning_convention`. The binned ones
#' (`"ece"`, `"mce"`, `"debiased_l2_ce"`) use the bins of `binning`:
#' `"adaptive"` (the default of [ece()], so the ECE with an interval is the
#' ECE [ece()] reports), `"equal_mass"` or `"equal_width"` with `n_bins`
#' bins. Adaptive and equal-mass bins are found on the data, exactly as
#' [ece()] finds them (with its default `conf_level = 0.9`, `min_remaining
#' = 40`, `min_range = 0.05`), and then held fixed: the influence function
#' and every bootstrap replicate use those bins, so the interval is
#' conditional on the binning (it leaves out the variability of where the
#' bin edges fall; fixed bins make the ECE a smooth functional between bin
#' gaps of 0). The smooth ECE searches its
#' bandwidth again in every replicate unless `sigma` is fixed, so its
#' interval includes the variability of the bandwidth choice.
#'
#' @section Regression and LLM metrics:
#' The score is a **confidence** (higher = more confident) for these too;
#' give an uncertainty `u` as `score = -u` (the AUSE functions and LLM
#' uncertainty measures take `u`).
#' * `"ause"`: the area under the sparsification error of [ause()] with
#'   the uncertainty `-score` and the error `loss` (any finite
#'   non-negative error), `definition = "ilg"` or `"torch_uncertainty"`
#'   (the `.estimator`): `selective_ci_vec(-u, e, metrics = "ause")` is
#'   the interval of `ause_vec(u, e)`, and its analytic interval is that of
#'   [ause_ci_vec()] (for `"ilg"` the E-AURC's influence function, Ilg et
#'   al.'s AUSE being the E-AURC of `-u`; for `"torch_uncertainty"` the
#'   influence values written in [ause_ci()]). Whole case weights only for
#'   `"torch_uncertainty"`.
#' * `"rank_calibration_error"` ([rank_calibration_error_vec()], `n_bins`
#'   equal-mass bins, the authors' 20 unless `n_bins` is given, and the
#'   order `p`), `"spearman"` and `"kendall"` (Spearman's rho and Kendall's
#'   tau-b of the score and the quality, [uncertainty_correlation_vec()]),
#'   `"quality_auroc"` and `"quality_aupr"` (of the outputs whose quality
#'   reaches `threshold`, [quality_auroc_vec()], [quality_aupr_vec()] with
#'   `positive = "correct"`): the quality is given as `quality =` (used as
#'   given, so the estimates are exactly those of the vector forms) or as
#'   `loss = 1 - quality`. The first three take no case weights: weights
#'   other than 1 are an error of class `aurc_error_weights`. Analytic
#'   intervals: Spearman's rho and Kendall's tau-b with the influence
#'   values of [uncertainty_correlation_ci()]'s `se = "influence"` (exact
#'   with ties), the quality AUROC as a failure AUROC (DeLong); the normal
#'   interval `estimate +- z SE` on the correlation's own scale (the
#'   `.std_error` is `uncertainty_correlation_ci()`'s times `1 - r^2`; that
#'   function's interval is on Fisher's z scale, this one is the one whose
#'   differences [compare_scores()] tests). The
#'   bootstrap replicates of all of them are counts over the outputs
#'   sorted once. The rank-calibration error of a resample is biased
#'   upwards (its repeated outputs), for every score alike, and its
#'   bootstrap standard error is low (0.038 against a sampling standard
#'   deviation of 0.045 for a difference at n = 200): the paired tests of
#'   [compare_scores()] are off, the percentile test too conservative (0
#'   to 1.5% of null data sets rejected at the 5% level) and the normal
#'   one too liberal (5 to 10%; `studies/catalog-llm-regression-
#'   coverage.R`). Read its p-values as rough.
#'
#' @inheritParams aurc
#' @param definition The definition of `"ause"`: `"ilg"` or
#'   `"torch_uncertainty"` (see [ause()]).
#' @param p The order of `"rank_calibration_error"`, 1 or 2.
#' @param threshold The quality from which an output is correct, for
#'   `"quality_auroc"` and `"quality_aupr"` (required with them).
#' @param correct Instead of `loss`, by name: whether each prediction was
#'   right (0/1 or logical), as [ece()] and every metric take it; the loss
#'   is then `1 - correct`. An unquoted column for `selective_ci()`.
#' @param quality Instead of `loss`, by name: a quality in `[0, 1]`
#'   (higher is better), as [prr()] and [auarc()] take it; the loss is then
#'   `1 - quality`, so `selective_ci(data, score, quality = q, metrics =
#'   "prr")` is the interval of `prr(data, score, q)`. An unquoted column
#'   for `selective_ci()`.
#' @param truth For the balanced metrics `"aurc_ba"` and `"augrc_ba"`
#'   ([aurc_ba()]): the true class of each case (an unquoted column for
#'   `selective_ci()`). A missing class makes the result `NA`, or its row is
#'   dropped with `na_rm = TRUE`. Ignored, with a warning of class
#'   `aurc_warning_ignored`, by the other metrics.
#' @param metrics Character vector of metric names (see Details).
#' @param method `"analytic"` or `"bootstrap"`.
#' @param type Bootstrap interval: `"percentile"`, `"bca"`, `"normal"` or
#'   `"basic"` (the percentile interval reflected around the estimate, which
#'   corrects the bootstrap's estimate of a bias). Ignored (with a warning)
#'   for `method = "analytic"`.
#' @param conf_level Confidence level, strictly between 0 and 1.
#' @param times Number of bootstrap replicates, a whole number of at least
#'   2 (at most 1e6).
#' @param strata Optional stratum of each sample (vector as long as
#'   `score`, at least two levels, no `NA`); for `selective_ci()` an unquoted
#'   column name.
#' @param cluster Optional cluster of each sample (as `strata`).
#' @param indices Bootstrap only: a `times x n` integer matrix of sample
#'   positions (drawn elsewhere) instead of new draws.
#' @param estimator AURC estimator of `"aurc"`, `"eaurc"` and `"naurc"`.
#' @param augrc_method AUGRC rule, `"trapezoid"` or `"step"`.
#' @param optimum Optimum of `"eaurc"`, `"exact"` or `"asymptotic"`.
#' @param coverage Target coverage of `"risk_at_coverage"`.
#' @param risk Target risk of `"coverage_at_risk"`.
#' @param max_rejection The largest share rejected, for `"prr"`.
#' @param coverage_range The range of coverage `c(c1, c2)` of
#'   `"partial_aurc"` and `"partial_augrc"`.
#' @param rule The rule of `"risk_at_coverage"` ([risk_at_coverage()]).
#' @param tpr The true positive rate of `"fpr_at_tpr"`.
#' @param binning Bins of `"ece"`, `"mce"` and `"debiased_l2_ce"`:
#'   `"adaptive"` (the default, as in [ece()]), `"equal_mass"` or
#'   `"equal_width"` (see Metrics and their inputs).
#' @param n_bins Number of bins of `"ece"`, `"mce"` and `"debiased_l2_ce"`
#'   with `binning = "equal_width"` or `"equal_mass"` (ignored, with a
#'   warning, for adaptive bins), and of `"rank_calibration_error"` (20
#'   when not given).
#' @param sigma Bandwidth of `"smooth_ece"`, or `NULL` for the fixed point
#'   (see [smooth_ece_vec()]).
#' @param smooth_method Method of `"smooth_ece"`, `"fine"` or `"relplot"`.
#' @param corp_score Score of the CORP parts, `"brier"` or `"log"`.
#' @param span The loess span of `"ici"`, `"e50"`, `"e90"` and `"emax"`
#'   (as [ici()]).
#' @param smoother The smoother of `"ici"`, `"e50"`, `"e90"` and `"emax"`,
#'   `"loess"` or `"lowess"` (that of `rms::val.prob()`; as [ici()]).
#' @param eps The clipping of the confidence of `"calibration_slope"` and
#'   `"calibration_intercept"` (as [calibration_slope()]).
#' @param threads Bootstrap threads (the result does not depend on it).
#' @return A tibble with the grouping columns, then `.metric`,
#'   `.estimator`, `.estimate`, `.lower`, `.upper`, `.std_error`,
#'   `.conf_level` and `.method` (`"analytic"` or `"bootstrap_<type>"`):
#'   one row per metric (and group). Where a metric is undefined for the data
#'   (one class, nothing left) the row is `NA` with the metric's classed
#'   warning. With `method = "bootstrap"`, the result of `selective_ci_vec()`
#'   carries the replicate values as the attribute `"replicates"`: a
#'   `times x metric` matrix (`NA` where a replicate leaves a metric
#'   undefined), so further intervals or a histogram need no second run.
#' @seealso [influence_functions] for the derivations, [compare_scores()]
#'   for paired differences of two or more scores.
#' @examples
#' set.seed(1)
#' n <- 1000
#' score <- rnorm(n)
#' failure <- rbinom(n, 1, plogis(-1 - 1.5 * score))
#' selective_ci_vec(score, failure)
#' selective_ci_vec(score, failure,
#'   metrics = c("failure_auroc", "eaurc", "risk_at_coverage"),
#'   coverage = 0.8
#' )
#' df <- data.frame(score, failure, model = rep(c("a", "b"), n / 2))
#' selective_ci(df, score, failure, metrics = "failure_auroc")
#' # calibration errors: the score is the confidence; give the correctness
#' # as `correct =` (as ece() takes it) or the failure as the loss
#' confidence <- plogis(score)
#' selective_ci_vec(confidence, correct = 1 - failure,
#'   metrics = c("ece", "corp_mcb"), method = "bootstrap", times = 200
#' )
#' # "smooth_ece" works the same way, but searches its bandwidth again in
#' # every replicate (about 0.1 s each here)
#' if (requireNamespace("dplyr", quietly = TRUE)) {
#'   selective_ci(dplyr::group_by(df, model), score, failure)
#' }
#' @export
selective_ci <- function(data, score, loss, ..., correct = NULL,
                         quality = NULL, truth = NULL,
                         metrics = c("aurc", "augrc"),
                         method = c("analytic", "bootstrap"),
                         type = "percentile", conf_level = 0.95,
                         times = 2000, strata = NULL, cluster = NULL,
                         indices = NULL, estimator = "alpha",
                         augrc_method = "trapezoid", optimum = "exact",
                         coverage = NULL, risk = NULL, n_bins = 10,
                         max_rejection = 1, coverage_range = NULL,
                         rule = "tie_closed", tpr = 0.95,
                         sigma = NULL, smooth_method = "fine",
                         corp_score = "brier", binning = "adaptive",
                         span = 0.75, smoother = "loess", eps = 1e-8,
                         definition = "ilg", p = 1, threshold = NULL,
                         na_rm = FALSE, case_weights = NULL, threads = 1) {
  check_dots(...)
  bound <- ci_with_bound_metrics(metrics)
  if (!is.null(bound)) return(bound)
  call <- rlang::current_env()
  spec <- ci_spec(
    metrics, method, type, conf_level, times, estimator, augrc_method,
    optimum, coverage, risk, n_bins, threads,
    ignored = ci_ignored(missing(type), missing(times), missing(threads)),
    calibration = list(
      sigma = sigma, smooth_method = smooth_method, corp_score = corp_score,
      binning = binning, n_bins_given = !missing(n_bins), span = span,
      span_given = !missing(span), smoother = smoother, eps = eps,
      definition = definition, p = p, threshold = threshold
    ),
    call = call, max_rejection = max_rejection,
    coverage_range = coverage_range, rule = rule, tpr = tpr
  )
  check_local_data(data, call)
  values <- Map(
    function(quo, arg) eval_column(data, quo, arg, call = call),
    list(
      score = rlang::enquo(score),
      loss = if (missing(loss)) rlang::quo(NULL) else rlang::enquo(loss),
      correct = rlang::enquo(correct), quality = rlang::enquo(quality),
      case_weights = rlang::enquo(case_weights),
      strata = rlang::enquo(strata), cluster = rlang::enquo(cluster),
      truth = rlang::enquo(truth)
    ),
    c(
      "score", "loss", "correct", "quality", "case_weights", "strata",
      "cluster", "truth"
    )
  )
  values$truth <- ci_check_truth(spec, values$truth, call)
  spec$importance <- weights_kind(values$case_weights) == "importance"
  values$loss <- ci_loss(spec, values$score, values$loss, values$correct,
    values$case_weights, call,
    quality = values$quality
  )
  values$correct <- NULL
  # the quality as given, for the LLM metrics (R/ci-llm-regression.R)
  values$quality <- ci_kept_quality(spec, values$quality)
  groups <- data_groups(data)
  if (!is.null(indices) && length(groups$rows) > 1) {
    abort_aurc(
      "{.arg indices} cannot be used with a grouped data frame.",
      class = "aurc_error_value", call = call
    )
  }
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) if (is.null(x)) NULL else x[rows])
    out <- ci_compute(spec, v$score, v$loss, v$case_weights, v$strata,
      v$cluster, indices, na_rm, call,
      truth = v$truth, quality = v$quality
    )
    if (!is.null(groups$keys)) {
      key <- groups$keys[rep(g, nrow(out)), , drop = FALSE]
      out <- tibble::as_tibble(c(key, out))
    }
    out
  })
  do.call(rbind, parts)
}

#' @rdname selective_ci
#' @export
selective_ci_vec <- function(score, loss, ..., correct = NULL,
                             quality = NULL, truth = NULL,
                             metrics = c("aurc", "augrc"),
                             method = c("analytic", "bootstrap"),
                             type = "percentile", conf_level = 0.95,
                             times = 2000, strata = NULL, cluster = NULL,
                             indices = NULL, estimator = "alpha",
                             augrc_method = "trapezoid", optimum = "exact",
                             coverage = NULL, risk = NULL, n_bins = 10,
                             max_rejection = 1, coverage_range = NULL,
                             rule = "tie_closed", tpr = 0.95,
                             sigma = NULL, smooth_method = "fine",
                             corp_score = "brier", binning = "adaptive",
                             span = 0.75, smoother = "loess", eps = 1e-8,
                             definition = "ilg", p = 1, threshold = NULL,
                             na_rm = FALSE, case_weights = NULL,
                             threads = 1) {
  check_dots(...)
  bound <- ci_with_bound_metrics(metrics)
  if (!is.null(bound)) return(bound)
  call <- rlang::current_env()
  spec <- ci_spec(
    metrics, method, type, conf_level, times, estimator, augrc_method,
    optimum, coverage, risk, n_bins, threads,
    ignored = ci_ignored(missing(type), missing(times), missing(threads)),
    calibration = list(
      sigma = sigma, smooth_method = smooth_method, corp_score = corp_score,
      binning = binning, n_bins_given = !missing(n_bins), span = span,
      span_given = !missing(span), smoother = smoother, eps = eps,
      definition = definition, p = p, threshold = threshold
    ),
    call = call, max_rejection = max_rejection,
    coverage_range = coverage_range, rule = rule, tpr = tpr
  )
  spec$importance <- weights_kind(case_weights) == "importance"
  case_weights <- plain_weights(case_weights)
  loss <- ci_loss(spec, score, if (missing(loss)) NULL else loss, correct,
    case_weights, call,
    quality = quality
  )
  ci_compute(spec, score, loss, case_weights, strata, cluster, indices,
    na_rm, call,
    truth = ci_check_truth(spec, truth, call),
    quality = ci_kept_quality(spec, quality)
  )
}

# The loss of selective_ci() and compare_scores(): `loss` (1 = failure) as
# given, `1 - correct` (calibration's convention, as in ece()) or
# `1 - quality` (as prr() and auarc() take it); exactly one of the three,
# named by the user. Warns once, on the whole column, when the values look
# like the other convention or the score ranks the losses backwards.
ci_loss <- function(spec, score, loss, correct, case_weights, call,
                    quality = NULL) {
  given <- c(loss = !is.null(loss), correct = !is.null(correct),
    quality = !is.null(quality))
  if (sum(given) > 1) {
    both <- names(given)[given]
    abort_aurc(
      c(
        if (length(both) == 2) {
          "Give {.arg {both[1]}} or {.arg {both[2]}}, not both."
        } else {
          "Give one of {.arg {both}}, not all three."
        },
        i = "{.arg correct} and {.arg quality} are read as {.code loss = 1 -
             correct} and {.code loss = 1 - quality}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (!any(given)) {
    abort_aurc(
      c(
        "{.arg loss} is missing.",
        i = paste(
          "Give the loss (1 = failure), or by name the correctness",
          "{.code correct = } (1 = right) or a quality {.code quality = }",
          "(in [0, 1], higher is better, as {.fn prr} takes it)."
        )
      ),
      class = "aurc_error_missing", call = call
    )
  }
  if (given[["quality"]]) {
    loss <- quality_as_loss(quality, call)
    ci_warn_conventions(spec, score, loss, case_weights, FALSE, call)
    return(loss)
  }
  from_correct <- !is.null(correct)
  if (from_correct) {
    check_numeric_vector(correct, "correct", allow_logical = TRUE,
      call = call
    )
    check_failure(correct, length(correct), "correct", call = call)
    loss <- 1 - as.double(correct)
  }
  ci_warn_conventions(spec, score, loss, case_weights, from_correct, call)
  loss
}

ci_warn_conventions <- function(spec, score, loss, case_weights, from_correct,
                                call) {
  if (!is.numeric(score) || !(is.numeric(loss) || is.logical(loss)) ||
    length(score) != length(loss)) {
    return(invisible()) # the checks of ci_input() say what is wrong
  }
  if (!is.numeric(case_weights) || length(case_weights) != length(score)) {
    case_weights <- NULL
  }
  cal <- spec$metrics %in% ci_calibration_metrics
  if (any(cal)) {
    warn_calibration_convention(score, loss, case_weights,
      arg = if (from_correct) "correct" else "loss",
      from_loss = !from_correct, call = call, values_are_loss = TRUE
    )
  }
  # (the LLM metrics' quality is any quality: a score that ranks it
  # backwards is what a negative correlation measures)
  plain <- !cal & !spec$metrics %in% ci_llm_metrics
  if (any(plain) && !from_correct) warn_if_suspicious(score, loss, call = call)
  invisible()
}

ci_metrics <- function() ci_bootstrap_metrics()

ci_types <- c("percentile", "bca", "normal", "basic")
ci_max_times <- 1e6

ci_ignored <- function(type_missing, times_missing, threads_missing) {
  c(type = !type_missing, times = !times_missing, threads = !threads_missing)
}

# Validates every option once; returns the settings of the interval.
# `metrics_arg`: the name of the argument `metrics` came from.
ci_spec <- function(metrics, method, type, conf_level, times, estimator,
                    augrc_method, optimum, coverage, risk, n_bins, threads,
                    ignored, calibration = list(), call, max_rejection = 1,
                    coverage_range = NULL, rule = "tie_closed",
                    tpr = 0.95, metrics_arg = "metrics") {
  # (a function or a symbol reached setdiff() unchecked before)
  check_names_in(metrics, ci_metrics(), "names of metrics of aurc",
    arg = metrics_arg, call = call,
    hint = "{.code metric_info()} lists the metrics and their forms."
  )
  base <- setdiff(metrics, c(
    ci_calibration_metrics, ci_balanced_metrics, ci_regression_llm_metrics
  ))
  spec <- metric_set_spec(
    if (length(base)) base else "aurc", estimator, augrc_method, optimum,
    coverage, risk, call,
    max_rejection = max_rejection, coverage_range = coverage_range,
    rule = rule, tpr = tpr
  )
  # the registry's options as fields of the spec (coverage and risk at a
  # placeholder where no metric uses them)
  opts <- spec$options
  spec[c("estimator", "method", "optimum")] <-
    opts[c("estimator", "method", "optimum")]
  spec$coverage <- if (is.null(opts$coverage)) 0.5 else opts$coverage
  spec$risk <- if (is.null(opts$risk)) 0.5 else opts$risk
  spec$max_rejection <- opts$max_rejection
  spec$coverage_range <- opts$coverage_range
  spec$rule <- opts$rule
  spec$tpr <- opts$tpr
  spec$binary <- any(vapply(spec$metrics, metric_needs_failure, logical(1),
    opts
  ))
  if (!length(base)) {
    spec$metrics <- character()
    spec$labels <- character()
    spec$binary <- FALSE
  }
  cal <- intersect(metrics, ci_calibration_metrics)
  if (length(cal)) {
    spec <- ci_calibration_spec(spec, cal, n_bins, calibration, call)
  }
  bal <- intersect(metrics, ci_balanced_metrics)
  if (length(bal)) spec <- ci_balanced_spec(spec, bal)
  more <- intersect(metrics, ci_regression_llm_metrics)
  if (length(more)) { # R/ci-llm-regression.R
    spec <- ci_regression_llm_spec(spec, more, calibration, n_bins, call)
  }
  order <- match(unique(metrics), spec$metrics)
  spec$metrics <- spec$metrics[order]
  spec$labels <- spec$labels[order]
  spec$n_bins <- as.integer(check_number(n_bins, 1, 1e6, whole = TRUE,
    call = call
  ))
  if (is.character(method) && identical(method, c("analytic", "bootstrap"))) {
    method <- "analytic"
  }
  spec$ci_method <- check_choice(method, c("analytic", "bootstrap"),
    call = call
  )
  if (spec$ci_method == "analytic") {
    ci_check_analytic(spec$metrics, call)
    ci_check_analytic_partial(spec, call)
  }
  spec$conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  if (spec$ci_method == "bootstrap") {
    spec$type <- check_choice(type, ci_types, call = call)
    spec$times <- check_number(times, 2, ci_max_times, whole = TRUE,
      call = call
    )
    spec$threads <- check_number(threads, 1, 1024, whole = TRUE, call = call)
  } else if (any(ignored)) {
    warn_aurc(
      c(
        "{.arg {names(ignored)[ignored]}} {?is/are} ignored for
         {.code method = \"analytic\"}.",
        i = "These options apply to {.code method = \"bootstrap\"}."
      ),
      class = "aurc_warning_ignored"
    )
  }
  spec
}

# Optional per-sample grouping (strata, cluster): as long as the data, no
# NA, at least two distinct values.
check_grouping <- function(x, n, arg, call) {
  if (is.null(x)) return(NULL)
  if (!is.atomic(x) || is.matrix(x) || is.raw(x) || is.complex(x)) {
    abort_aurc(
      "{.arg {arg}} must be a vector, not {.obj_type_friendly {x}}.",
      class = "aurc_error_type", call = call
    )
  }
  check_same_length(x, n, arg, call = call)
  if (anyNA(x)) {
    abort_aurc(
      c(
        "{.arg {arg}} must not contain missing values.",
        x = "Element {which(is.na(x))[1]} is {.val {NA}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (length(unique(x)) < 2) {
    abort_aurc(
      c(
        "{.arg {arg}} must have at least two distinct values.",
        x = "It has {length(unique(x))}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  x
}

# One group: validate, apply the NA rule, compute. Returns the tibble rows.
ci_compute <- function(spec, score, loss, case_weights, strata, cluster,
                       indices, na_rm, call, truth = NULL, quality = NULL) {
  input <- ci_input(spec, score, loss, case_weights, strata, cluster, na_rm,
    call,
    truth = truth, quality = quality
  )
  if (is.null(input)) {
    est <- rep(NA_real_, length(spec$metrics))
    return(ci_table(spec, est, est, est, est))
  }
  # metrics that count cases on weights totalling less than one case
  # (R/weights-scale.R): NA with a classed warning, the others as usual
  few <- !is.null(input$case_weights) &&
    scale_group_weights(input$case_weights, count = TRUE)$too_few
  masked <- ci_count_metrics(spec) & few
  if (!any(masked)) return(ci_compute_input(spec, input, indices, call))
  warn_ci_scale(spec$metrics[masked], call)
  est <- rep(NA_real_, length(spec$metrics))
  out <- ci_table(spec, est, est, est, est)
  if (all(masked)) return(out)
  sub <- spec
  sub$metrics <- spec$metrics[!masked]
  sub$labels <- spec$labels[!masked]
  part <- ci_compute_input(sub, input, indices, call)
  out[!masked, ] <- part
  reps <- attr(part, "replicates")
  if (!is.null(reps)) {
    full <- matrix(NA_real_, nrow(reps), length(spec$metrics),
      dimnames = list(NULL, spec$metrics)
    )
    full[, !masked] <- reps
    attr(out, "replicates") <- full
  }
  out
}

# The metrics of an interval spec that count the cases the weights stand
# for (R/weights-scale.R; the `counts` of their registry or catalog
# entries): the exact optimum (E-AURC, NAURC, PRR), the debiased ECE, ECE
# and MCE with adaptive bins, the relplot smooth ECE.
ci_count_metrics <- function(spec) {
  o <- list(
    optimum = spec$optimum %||% "exact",
    estimator = spec$estimator %||% "alpha", binning = spec$binning,
    smooth_method = spec$smooth_method
  )
  vapply(spec$metrics, metric_counts_cases, logical(1), o,
    USE.NAMES = FALSE
  )
}

warn_ci_scale <- function(metrics, call) {
  names <- c(
    aurc = "AURC", auarc = "AUARC", eaurc = "E-AURC", naurc = "NAURC",
    prr = "PRR",
    debiased_l2_ce = "the debiased ECE", ece = "ECE with adaptive bins",
    mce = "MCE with adaptive bins", smooth_ece = "the relplot smooth ECE"
  )
  shown <- ifelse(metrics %in% names(names), names[metrics],
    vapply(metrics, function(m) metric_entry(m)$title, character(1))
  )
  warn_weights_scale(unname(shown),
    paste(
      "The exact optimum places the copies of each case one by one; the",
      "{.val alpha_prime} weights, the adaptive bins, the debiasing and",
      "the relplot density count cases."
    ),
    paste(
      "a metric free of the weights' scale ({.val aurc}, {.val augrc},",
      "ECE with equal-width bins)"
    ),
    call = call
  )
}

# ci_compute() on validated input.
ci_compute_input <- function(spec, input, indices, call) {
  # losses near the largest double (R/weights-scale.R): the intervals of
  # the losses times 2^-e, scaled back (estimates, bounds and standard
  # errors of a metric homogeneous in the loss all scale with it)
  e <- loss_scale_exponent(input$loss)
  if (e != 0) {
    input$loss <- times_pow2(input$loss, -e)
    if (!is.null(spec$risk)) spec$risk <- times_pow2(spec$risk, -e)
    out <- ci_compute_input(spec, input, indices, call)
    cols <- c(".estimate", ".lower", ".upper", ".std_error")
    values <- unscale_loss_values(as.numeric(as.matrix(out[cols])),
      rep(spec$metrics, times = length(cols)), e, call,
      options = ci_options(spec)
    )
    out[cols] <- as.data.frame(matrix(values, ncol = length(cols)))
    reps <- attr(out, "replicates")
    if (!is.null(reps)) {
      one <- loss_degree_one(spec$metrics, ci_options(spec))
      reps[, one] <- times_pow2(reps[, one], e)
      attr(out, "replicates") <- reps
    }
    return(out)
  }
  count <- any(ci_count_metrics(spec))
  # data-driven bins from the weights as counts where the bins count
  # cases (the bins of ece())
  spec$edges <- ci_bin_edges(spec, input$score, input$loss,
    if (count && !is.null(input$case_weights)) {
      scale_group_weights(input$case_weights, count = TRUE)$w
    } else {
      input$case_weights
    },
    call
  )
  ece_null <- ci_ece_null_bound(spec, input) # R/ci-calibration.R
  if (spec$ci_method == "bootstrap") {
    out <- ci_bootstrap_rows(spec, input, indices, call)
    return(ci_ece_lower_at_calibration(out, spec, ece_null))
  }
  # weights at any scale (R/weights-scale.R): computed on weights brought
  # into range by a power of 2 (exact; for metrics that count cases, a
  # total above 2^53 brought into [2^52, 2^53)), the standard errors then
  # scaled back (they depend on the total weight, the number of cases
  # weights stand for)
  scale <- 1
  if (!is.null(input$case_weights)) {
    sc <- scale_group_weights(input$case_weights, count = count)
    input$case_weights <- sc$w
    scale <- times_pow2(1, -sc$exponent)
  }
  # the influence values themselves only for the standard errors below
  own_se <- !is.null(input$strata) || !is.null(input$cluster) ||
    scale != 1 || isTRUE(input$importance)
  res <- metric_influence_many(
    input$score, input$loss, input$case_weights, spec$metrics,
    c(ci_options(spec), list(truth = input$truth, call = call,
      quality = input$quality, values = own_se
    ))
  )
  est <- unname(res$estimate)
  se <- unname(res$std_error)
  if (own_se) {
    se <- vapply(seq_along(spec$metrics), function(j) {
      strata <- input$strata
      # DeLong's variance within the two classes; not for importance
      # weights, whose class totals vary from sample to sample
      if (is.null(strata) && spec$metrics[j] == "failure_auroc" &&
        !isTRUE(input$importance)) {
        strata <- input$loss
      }
      if (is.null(strata) && spec$metrics[j] == "quality_auroc" &&
        !isTRUE(input$importance)) {
        strata <- quality_failures(input$loss, input$quality, spec$threshold)
      }
      influence_std_error(res$influence[, j], input$case_weights, strata,
        input$cluster,
        scale = scale, importance = isTRUE(input$importance)
      )
    }, numeric(1))
  }
  est <- ci_undefined(spec$metrics, est, call)
  z <- stats::qnorm((1 + spec$conf_level) / 2)
  lower <- est - z * se
  upper <- est + z * se
  j <- which(spec$metrics == "coverage_at_risk" & !is.na(est))
  if (length(j)) {
    input$weight_scale <- scale
    bounds <- coverage_at_risk_interval(input, spec$risk, est[j], z)
    lower[j] <- bounds[["lower"]]
    upper[j] <- bounds[["upper"]]
    se[j] <- (bounds[["upper"]] - bounds[["lower"]]) / (2 * z)
  }
  se[is.na(est)] <- NA_real_
  if (any(!is.na(est) & is.na(se))) {
    warn_aurc(
      c(
        "No analytic standard error for {.val {spec$metrics[!is.na(est) &
          is.na(se)]}}; the interval is {.val {NA}}.",
        i = "Use {.code method = \"bootstrap\"} for it."
      ),
      class = "aurc_warning_no_interval"
    )
  }
  ci_ece_lower_at_calibration(ci_table(spec, est, lower, upper, se), spec,
    ece_null
  )
}

# The analytic interval of coverage at risk (see ?influence_functions):
# the test inversion for the threshold (src/core/ci_working_point.h), with
# the standard error of the excess from its influence values, widened in
# quadrature by the coverage's own noise at a fixed threshold (the two are
# uncorrelated at the true threshold). Strata and clusters as for every
# metric. Returns c(lower, upper), around `estimate`, inside [0, 1].
coverage_at_risk_interval <- function(input, risk, estimate, z) {
  res <- coverage_at_risk_interval_impl(
    as.double(input$score), as.double(input$loss),
    if (is.null(input$case_weights)) double() else
      as.double(input$case_weights),
    as.double(risk), sort_threads()
  )
  se <- function(x) {
    influence_std_error(x, input$case_weights, input$strata, input$cluster,
      scale = input$weight_scale %||% 1, importance = isTRUE(input$importance)
    )
  }
  delta <- z * se(res$influence)
  lower <- max(0, res$coverage[res$excess <= -delta])
  upper <- max(0, res$coverage[res$excess <= delta])
  margin <- z * se(res$accepted)
  c(
    lower = max(0, estimate - sqrt(max(0, estimate - lower)^2 + margin^2)),
    upper = min(1, estimate + sqrt(max(0, upper - estimate)^2 + margin^2))
  )
}

# NA (with the metric's classed warning) where a metric is undefined.
ci_undefined <- function(metrics, est, call) {
  for (j in which(is.nan(est) | is.na(est))) {
    # the selective metrics' only other undefined case, no data, has had
    # its warning
    warn_metric_undefined(metrics[j], call = call,
      no_data = metrics[j] %in% ci_calibration_metrics
    )
  }
  est[is.nan(est)] <- NA_real_
  est
}

ci_options <- function(spec) {
  list(
    estimator = spec$estimator, method = spec$method,
    optimum = spec$optimum, coverage = spec$coverage, risk = spec$risk,
    max_rejection = spec$max_rejection %||% 1,
    coverage_range = spec$coverage_range,
    rule = spec$rule %||% "tie_closed", tpr = spec$tpr %||% 0.95,
    n_bins = spec$n_bins, sigma = spec$sigma,
    smooth_method = if (is.null(spec$smooth_method)) "fine" else
      spec$smooth_method,
    corp_score = if (is.null(spec$corp_score)) "brier" else spec$corp_score,
    edges = spec$edges, span = spec$span %||% 0.75,
    smoother = spec$smoother %||% "loess", eps = spec$eps %||% 1e-8,
    definition = spec$definition %||% "ilg", p = spec$p %||% 1,
    threshold = spec$threshold, rce_bins = spec$rce_bins %||% 20
  )
}

ci_table <- function(spec, est, lower, upper, se) {
  method <- if (spec$ci_method == "analytic") {
    "analytic"
  } else {
    paste0("bootstrap_", spec$type)
  }
  # bounds outside the values a metric can take move to them (an ECE is
  # never below 0: the catalog's `range`)
  for (j in which(spec$metrics %in% names(metric_catalog_more))) {
    r <- metric_catalog_more[[spec$metrics[j]]]$range
    lower[j] <- max(lower[j], r[1])
    upper[j] <- min(upper[j], r[2])
  }
  tibble::tibble(
    .metric = spec$metrics, .estimator = spec$labels,
    .estimate = est, .lower = lower, .upper = upper, .std_error = se,
    .conf_level = spec$conf_level, .method = method
  )
}

# Validates the columns and applies the NA rule to all of them together.
# NULL when the result is NA (missing values kept, or nothing left).
ci_input <- function(spec, score, loss, case_weights, strata, cluster, na_rm,
                     call, truth = NULL, quality = NULL) {
  check_numeric_vector(score, "score", call = call)
  n <- length(score)
  check_bool(na_rm, call = call)
  ci_check_unweighted(spec, case_weights, call) # R/ci-llm-regression.R
  cal <- intersect(spec$metrics, ci_calibration_metrics)
  if (length(cal)) {
    bad <- which(!is.na(score) & (score < 0 | score > 1))
    if (length(bad) > 0) {
      abort_aurc(
        c(
          "{.arg score} must be a confidence in [0, 1] for {.val {cal}}.",
          x = "Element {bad[1]} is {.val {score[bad[1]]}}."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  strata <- check_grouping(strata, n, "strata", call)
  cluster <- check_grouping(cluster, n, "cluster", call)
  if (!is.null(truth)) {
    check_same_length(truth, n, "truth", call = call)
    # a missing class: NA, or the row dropped with na_rm (as aurc_ba_vec())
    if (anyNA(truth) && !na_rm) return(NULL)
  }
  if (na_rm) {
    check_same_length(loss, n, "loss", call = call)
    keep <- !(is.na(score) | is.na(loss))
    if (!is.null(truth)) keep <- keep & !is.na(truth)
    if (!all(keep)) {
      score <- score[keep]
      loss <- loss[keep]
      if (!is.null(case_weights)) case_weights <- case_weights[keep]
      if (!is.null(strata)) strata <- strata[keep]
      if (!is.null(cluster)) cluster <- cluster[keep]
      if (!is.null(truth)) truth <- truth[keep]
      if (!is.null(quality)) quality <- quality[keep]
    }
  }
  input <- prepare_metric_input(score, loss, case_weights, na_rm,
    binary = spec$binary, call = call,
    # the standard errors depend on the total weight (frequency weights:
    # the number of cases), so the weights stay as given
    rescale = FALSE
  )
  if (is.null(input)) return(NULL)
  if (!length(input$case_weights)) input$case_weights <- NULL
  input$strata <- strata
  input$cluster <- cluster
  input$truth <- truth
  input$quality <- if (!is.null(quality)) as.double(quality)
  # importance weights (R/weights.R): the sandwich over the cases observed,
  # and a bootstrap of cases
  input$importance <- isTRUE(spec$importance) && !is.null(input$case_weights)
  input
}

# Whether the bootstrap of `input` draws the rows frequency weights stand
# for, and they total less than one.
ci_no_rows <- function(input) {
  w <- input$case_weights
  !is.null(w) && is.null(input$cluster) && !isTRUE(input$importance) &&
    sum(w) < 1
}

ci_bootstrap_rows <- function(spec, input, indices, call, scores = NULL,
                              losses = NULL) {
  if (isTRUE(input$importance) && is.null(input$cluster)) {
    # importance weights: resample cases, each with its weight, as a
    # cluster bootstrap whose clusters are the single cases
    if (!is.null(indices)) {
      abort_aurc(
        c(
          "{.arg indices} cannot be used with importance weights.",
          i = "{.arg indices} draw the rows that frequency weights stand
               for; with {.fn hardhat::importance_weights} the bootstrap
               draws cases itself (or give the weights as numbers to treat
               them as counts)."
        ),
        class = "aurc_error_value", call = call
      )
    }
    input$cluster <- seq_along(input$score)
  }
  if (is.null(scores)) scores <- list(input$score)
  # one loss for every score, or one per score (compare_scores())
  if (is.null(losses)) losses <- list(input$loss)
  loss_of <- function(j) losses[[min(j, length(losses))]]
  influence <- NULL
  with_if <- setdiff(spec$metrics, c(
    ci_bootstrap_only, without_influence(spec$metrics, ci_options(spec))
  ))
  if (spec$type == "bca" && length(with_if)) {
    # metrics without influence values get the jackknife
    influence <- lapply(seq_along(scores), function(j) {
      opt <- c(ci_options(spec), list(truth = input$truth, call = call,
        quality = input$quality
      ))
      if (is.list(opt$edges)) opt$edges <- opt$edges[[j]]
      res <- metric_influence_many(scores[[j]], loss_of(j), input$case_weights,
        with_if, opt
      )
      out <- stats::setNames(
        lapply(seq_along(with_if), function(k) res$influence[, k]),
        with_if
      )
      # where a metric's influence function is undefined on these data
      # (e.g. coverage at risk with no threshold at the risk), its
      # acceleration comes from the jackknife when that is affordable;
      # otherwise its BCa interval is NA with a classed warning
      undefined <- vapply(out, function(v) anyNA(v), logical(1))
      if (any(undefined) && ci_jackknife_affordable(input)) {
        out <- out[!undefined]
      }
      out
    })
  }
  res <- ci_bootstrap(
    scores = scores,
    loss = if (length(losses) == 1) losses[[1]] else losses,
    case_weights = input$case_weights,
    metrics = spec$metrics, options = ci_options(spec), times = spec$times,
    strata = input$strata, cluster = input$cluster, indices = indices,
    threads = spec$threads, type = spec$type, conf_level = spec$conf_level,
    influence = influence, call = call, truth = input$truth,
    quality = input$quality
  )
  if (ci_no_rows(input)) {
    # frequency weights standing for less than one row: a replicate has
    # no row to draw (ci_bootstrap() draws one so as to run at all)
    na <- function(x) {
      x[] <- NA_real_
      x
    }
    res$lower <- na(res$lower)
    res$upper <- na(res$upper)
    res$std_error <- na(res$std_error)
    if (!is.null(res$diff)) {
      res$diff[c("lower", "upper", "std_error", "p_value")] <- NA_real_
    }
    warn_no_row_to_draw(call)
  }
  if (length(scores) > 1) return(res)
  est <- ci_undefined(spec$metrics, as.numeric(res$estimate[1, ]), call)
  out <- ci_table(
    spec, est, as.numeric(res$lower[1, ]), as.numeric(res$upper[1, ]),
    as.numeric(res$std_error[1, ])
  )
  # the replicate values (times x metric), for other intervals or plots
  attr(out, "replicates") <- matrix(res$replicates[, 1, ],
    nrow = dim(res$replicates)[1], dimnames = list(NULL, spec$metrics)
  )
  # the BCa acceleration of each metric, for the differences of
  # independent groups (compare_groups(); never set by selective_ci())
  if (isTRUE(spec$keep_acceleration) && !is.null(res$acceleration)) {
    attr(out, "acceleration") <- as.numeric(res$acceleration[1, ])
  }
  out
}

# The warning of a bootstrap whose frequency weights stand for less than
# one row: nothing to draw, so the interval is NA (selective_ci(),
# selective_curve_ci()).
warn_no_row_to_draw <- function(call) {
  warn_aurc(
    c(
      paste(
        "{.arg case_weights} stand for less than one row; the bootstrap",
        "has no row to draw, and the interval is {.val {NA}}."
      ),
      i = paste(
        "Case weights are frequency weights (a weight of 2 is two",
        "identical rows)."
      )
    ),
    class = "aurc_warning_no_interval", call = call
  )
}
