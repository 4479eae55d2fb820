# Fuzzing every exported function with hostile input (issue 15).
#
# HOW TO ADD AN EXPORT: add one line to fuzz_table() below, naming the
# function and a valid call's arguments (as they would be typed; the
# fixtures S, L, FL, W, DF, RK, RR, P, Z, Y and V of fuzz_fixtures() can be
# used). Every argument listed is replaced in turn by each hostile value of
# fuzz_values(); the others stay valid. test-fuzz.R fails while an export
# has no line here (or in fuzz_exempt with a reason).

# Valid inputs shared by the calls; evaluated in the child process.
# nolint start: object_name_linter. Short capitals keep table lines short.
fuzz_fixtures <- function() {
  S <- c(0.9, 0.8, 0.8, 0.7, 0.6, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05)
  L <- c(0, 0, 1, 0, 0.5, 1, 0, 1, 0, 1, 1, 0)
  FL <- c(0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0)
  W <- c(1, 2, 1, 1, 3, 1, 1, 1, 2, 1, 1, 1)
  DF <- data.frame(s = S, l = L, f = FL, w = W, conf = S, cor = 1 - FL,
    y = rep(c("a", "b", "c"), 4))
  RK <- data.frame(
    method = rep(c("a", "b"), each = 12), case = rep(1:12, 2),
    score = c(S, rev(S)), loss = c(FL, FL),
    # a group and a stratum per case (the same for both methods)
    g = rep(rep(c("u", "v"), 6), 2), st = rep(rep(c("p", "q"), each = 6), 2)
  )
  P <- matrix(c(0.7, 0.2, 0.1, 0.3, 0.3, 0.4, 0.1, 0.8, 0.1), 3, byrow = TRUE)
  Z <- log(P)
  Y <- c(1, 3, 2)
  V <- cbind(a = c(0.1, 0.2, 0.15, 0.12), b = c(0.2, 0.1, 0.3, 0.25))
  # class probabilities with a factor truth (yardstick's form), 12 rows
  PD <- data.frame(
    truth = factor(rep(c("a", "b", "c"), 4), c("a", "b", "c")),
    pa = rep(c(0.7, 0.3, 0.1), 4), pb = rep(c(0.2, 0.3, 0.8), 4)
  )
  PD$pc <- 1 - PD$pa - PD$pb
  PM <- as.matrix(PD[c("pa", "pb", "pc")])
  PR <- rbind(
    cbind(PD, method = "x", case = 1:12),
    cbind(PD[c(2:12, 1), ], method = "y", case = 1:12)
  )
  PR$truth <- PD$truth[c(1:12, 1:12)]
  DF$s2 <- rev(S)
  # prediction sets of the 12 cases of DF (classes a, b, c)
  SM <- matrix(rep(c(TRUE, FALSE, TRUE, TRUE, TRUE, FALSE, FALSE, FALSE,
    TRUE), 4), 12, byrow = TRUE, dimnames = list(NULL, c("a", "b", "c")))
  DS <- data.frame(y = DF$y, w = W)
  DS$sm <- SM
  # a second predictor of the same cases (compare_sets())
  SM2 <- SM
  SM2[c(2, 5, 9), ] <- c(TRUE, FALSE, FALSE)
  DS$sm2 <- SM2
  RR <- aurc::rank_replicates(V, metric = "m")
  environment()
}
# nolint end

# One entry per export: the arguments of a valid call.
# nolint start: line_length_linter. One line per export.
fuzz_table <- function() {
  list(
    aurc_vec = alist(score = S, loss = L, estimator = "alpha", na_rm = FALSE, case_weights = W),
    metric_info = alist(metrics = c("aurc", "ece")),
    metric_with = alist(metric = "partial_aurc", coverage_range = c(0, 0.5), .name = "low"),
    aurc = alist(data = DF, score = s, loss = l, estimator = "sele", case_weights = NULL),
    aurc_weights = alist(score = S, estimator = "alpha", case_weights = W),
    augrc_vec = alist(score = S, loss = L, method = "trapezoid", case_weights = W),
    augrc = alist(data = DF, score = s, loss = l, method = "step"),
    augrc_identity = alist(score = S, failure = FL, case_weights = W),
    eaurc_vec = alist(score = S, loss = L, estimator = "alpha", optimum = "exact", case_weights = W),
    eaurc = alist(data = DF, score = s, loss = f, optimum = "asymptotic"),
    eaugrc_vec = alist(score = S, failure = FL, case_weights = W),
    eaugrc = alist(data = DF, score = s, failure = f),
    naurc_vec = alist(score = S, loss = L, estimator = "alpha_prime", case_weights = W),
    naurc = alist(data = DF, score = s, loss = l),
    failure_auroc_vec = alist(score = S, failure = FL, case_weights = W),
    failure_auroc = alist(data = DF, score = s, failure = f),
    failure_aupr_vec = alist(score = S, failure = FL, case_weights = W),
    failure_aupr = alist(data = DF, score = s, failure = f),
    success_aupr_vec = alist(score = S, failure = FL, case_weights = W),
    success_aupr = alist(data = DF, score = s, failure = f),
    risk_at_coverage_vec = alist(score = S, loss = L, coverage = 0.5, case_weights = W),
    risk_at_coverage = alist(data = DF, score = s, loss = l, coverage = 0.5, rule = "lowest_risk"),
    partial_aurc_vec = alist(score = S, loss = L, coverage_range = c(0.2, 0.8), case_weights = W),
    partial_aurc = alist(data = DF, score = s, loss = l, coverage_range = c(0, 0.5)),
    partial_augrc_vec = alist(score = S, loss = L, coverage_range = c(0.2, 0.8), case_weights = W),
    partial_augrc = alist(data = DF, score = s, loss = l, coverage_range = c(0.5, 1)),
    prr_vec = alist(score = S, quality = FL, max_rejection = 0.5, ties = "lm_polygraph", case_weights = W),
    prr = alist(data = DF, score = s, quality = f, max_rejection = 1, ties = "random"),
    rank_calibration_error_vec = alist(score = S, quality = L, n_bins = 3, p = 1, na_rm = FALSE),
    rank_calibration_error_ci = alist(score = S, quality = L, n_bins = 3, conf_level = 0.9, times = 20, type = "normal"),
    uncertainty_correlation_vec = alist(score = S, quality = L, method = "kendall", na_rm = FALSE),
    uncertainty_correlation_ci = alist(score = S, quality = L, method = "spearman", conf_level = 0.9, se = "influence"),
    quality_auroc_vec = alist(score = S, quality = L, threshold = 0.5, case_weights = W),
    quality_aupr_vec = alist(score = S, quality = L, threshold = 0.5, positive = "incorrect", case_weights = W),
    rank_calibration_error = alist(data = DF, score = s, quality = l, n_bins = 3, p = 2, conf_level = 0.9, times = 20, type = "normal"),
    uncertainty_correlation = alist(data = DF, score = s, quality = l, method = "kendall", na_rm = TRUE, conf_level = 0.9, se = "bonett_wright"),
    quality_auroc = alist(data = DF, score = s, quality = l, threshold = 0.5, case_weights = w),
    quality_aupr = alist(data = DF, score = s, quality = l, threshold = 0.5, positive = "correct", case_weights = w),
    auarc_vec = alist(score = S, quality = FL, estimator = "alpha", case_weights = W),
    auarc = alist(data = DF, score = s, quality = f),
    fpr_at_tpr_vec = alist(score = S, failure = FL, tpr = 0.9, case_weights = W),
    fpr_at_tpr = alist(data = DF, score = s, failure = f),
    achievable_aurc_vec = alist(score = S, failure = FL, case_weights = W),
    achievable_aurc = alist(data = DF, score = s, failure = f),
    aurc_ba_vec = alist(score = S, failure = FL, truth = DF$y, case_weights = W),
    aurc_ba = alist(data = DF, score = s, failure = f, truth = y),
    augrc_ba_vec = alist(score = S, failure = FL, truth = DF$y, case_weights = W),
    augrc_ba = alist(data = DF, score = s, failure = f, truth = y, na_rm = TRUE),
    coverage_at_risk_vec = alist(score = S, loss = L, risk = 0.3, case_weights = W),
    coverage_at_risk = alist(data = DF, score = s, loss = l, risk = 0.3),
    selective_metrics_vec = alist(score = S, loss = FL, metrics = c("aurc", "naurc"), coverage = 0.5, case_weights = W),
    selective_metrics = alist(data = DF, score = s, loss = f, metrics = c("augrc", "eaurc")),
    rc_curve_vec = alist(score = S, loss = L, case_weights = W),
    rc_curve = alist(data = DF, score = s, loss = l),
    selective_curve_vec = alist(score = S, truth = FL, estimate = c(FL[-1], 0), metric = "mcc", oracle_loss = L, direction = NULL, min_coverage = 0.2, case_weights = W),
    selective_curve = alist(data = DF, score = s, truth = f, estimate = cor, metric = "accuracy", na_rm = TRUE),
    selective_curve_area = alist(curve = aurc::selective_curve_vec(S, FL, c(FL[-1], 0))),
    selective_curve_ci_vec = alist(score = S, truth = FL, estimate = c(FL[-1], 0), metric = "accuracy", oracle_loss = NULL, direction = NULL, min_coverage = 0.2, type = "normal", conf_level = 0.9, times = 20, case_weights = W),
    selective_curve_ci = alist(data = DF, score = s, truth = f, estimate = cor, metric = "f1", min_coverage = 0.3, times = 20, na_rm = TRUE),
    compare_selective_curves = alist(data = DF, scores = c(s, conf), truth = f, estimate = cor, metric = "accuracy", p_adjust = "none", times = 20, case_weights = w),
    ause_vec = alist(uncertainty = S, error = L, definition = "torch_uncertainty", na_rm = FALSE, case_weights = W),
    ause = alist(data = DF, uncertainty = s, error = l, definition = "ilg", case_weights = w),
    ause_ci_vec = alist(uncertainty = S, error = L, definition = "torch_uncertainty", conf_level = 0.9, na_rm = FALSE, case_weights = W),
    ause_ci = alist(data = DF, uncertainty = s, error = l, definition = "ilg", case_weights = w),
    sparsification_curve_vec = alist(uncertainty = S, error = L, definition = "ilg", na_rm = TRUE, case_weights = W),
    sparsification_curve = alist(data = DF, uncertainty = s, error = l, definition = "torch_uncertainty"),
    rc_band_vec = alist(score = S, loss = L, coverage = c(0.5, 0.75, 1), conf_level = 0.9, times = 20, transform = "sqrt", case_weights = W),
    rc_band = alist(data = DF, score = s, loss = f, coverage = c(0.5, 1), times = 20, strata = y, transform = "identity"),
    failure_roc_curve_vec = alist(score = S, failure = FL, na_rm = FALSE, case_weights = W),
    failure_roc_curve = alist(data = DF, score = s, failure = f, case_weights = w),
    failure_pr_curve_vec = alist(score = S, failure = FL, na_rm = TRUE, case_weights = W),
    failure_pr_curve = alist(data = DF, score = s, failure = f, na_rm = FALSE),
    contribution_curve = alist(n = 10),
    confidence_score = alist(x = Z, type = "msp", from = "logits", temperature = 1, p = 2),
    selective_loss = alist(probs = P, labels = Y, type = "brier", temperature = 1),
    fit_temperature = alist(logits = Z, labels = Y, interval = c(0.01, 100), tol = 1e-8),
    top_label = alist(probs = P, labels = Y),
    weight_bias = alist(beta = 0.5, n = 100, estimator = "alpha"),
    weight_mse = alist(rank = 3, n = 100, estimator = "sele"),
    weight_mse_bound = alist(beta = 0.5, n = 100),
    mean_weight_mse = alist(n = 100, estimator = "alpha_prime"),
    aurc_batch_study = alist(score = S, loss = L, batch_sizes = c(2, 4), times = 2),
    plot_weight_bias = alist(n = c(10, 100), beta = c(0.1, 0.5)),
    plot_weight_mse_bound = alist(n = 1:5, beta = c(0.5, 0.9), log_n = FALSE),
    bootstrap_ranking = alist(data = RK, method = method, case = case, score = score, loss = loss, group = g, metrics = c("aurc", "augrc"), times = 10, strata = st, threads = 1, alpha = 0.05),
    rank_replicates = alist(values = V, direction = "lower", metric = "m", alpha = 0.05),
    adjust_p_values = alist(x = RR, p_adjust = "none", alpha = 0.05),
    calibration_bins = alist(data = DF, confidence = conf, correct = cor, binning = "equal_width", n_bins = 5, case_weights = w),
    calibration_bins_vec = alist(confidence = S, correct = 1 - FL, binning = "equal_width", n_bins = 5, case_weights = W),
    ece_vec = alist(confidence = S, correct = 1 - FL, n_bins = 5, min_remaining = 2, case_weights = W),
    ece = alist(data = DF, confidence = conf, correct = cor, binning = "equal_mass", n_bins = 3),
    mce_vec = alist(confidence = S, correct = 1 - FL, n_bins = 5, case_weights = W),
    mce = alist(data = DF, confidence = conf, correct = cor, breaks = c(0, 0.5, 1)),
    inject_failures = alist(score = S, failure = FL, m = 2),
    brier_score = alist(data = DF, confidence = conf, correct = cor),
    brier_score_vec = alist(confidence = S, correct = 1 - FL),
    scaled_brier_score = alist(data = DF, confidence = conf, correct = cor),
    scaled_brier_score_vec = alist(confidence = S, correct = 1 - FL),
    log_loss = alist(data = DF, confidence = conf, correct = cor),
    log_loss_vec = alist(confidence = S, correct = 1 - FL),
    set_metrics = alist(data = DS, sets = sm, truth = y, alpha = 0.1, size_strata = 2, case_weights = w),
    set_metrics_vec = alist(sets = SM, truth = DF$y, alpha = 0.2, interval = "clopper_pearson", conf_level = 0.9, case_weights = W),
    set_class_coverage = alist(sets = SM, truth = DF$y, classes = c("a", "b", "c"), case_weights = W),
    compare_sets = alist(data = DS, sets = c(sm, sm2), truth = y, alpha = 0.1, metrics = c("coverage", "covgap"), p_adjust = "none", times = 20, case_weights = w),
    compare_sets_vec = alist(sets = list(a = SM, b = SM2), truth = DF$y, size_strata = 2, type = "basic", conf_level = 0.9, times = 20, case_weights = W),
    set_size_coverage = alist(sets = SM, truth = DF$y, size_strata = list(c(0, 1), c(2, 3)), na_rm = TRUE),
    label_shift_weights = alist(truth = PD$truth,
      target = c(a = 0.2, b = 0.3, c = 0.5)),
    calibration_bins_df = alist(data = DF, confidence = conf, correct = cor, binning = "equal_width", n_bins = 4),
    classwise_ece_vec = alist(probs = P, labels = Y, n_bins = 5, debias = FALSE),
    classwise_ece = alist(data = PD, truth = truth, pa, pb, pc, n_bins = 5, debias = FALSE, case_weights = NULL),
    smooth_ece_vec = alist(confidence = S, correct = 1 - FL, sigma = 0.1, method = "fine", case_weights = W),
    smooth_ece = alist(data = DF, confidence = conf, correct = cor, method = "relplot"),
    smooth_calibration = alist(data = DF, confidence = conf, correct = cor, sigma = 0.1, times = 5, conf_level = 0.9),
    corp_mcb_vec = alist(confidence = S, correct = 1 - FL, score = "brier", case_weights = W),
    corp_mcb = alist(data = DF, confidence = conf, correct = cor, score = "log"),
    corp_decomposition = alist(data = DF, confidence = conf, correct = cor, score = "brier"),
    calibration_test_vec = alist(confidence = S, correct = 1 - FL, method = c("ks", "kuiper"), case_weights = W),
    calibration_test = alist(data = DF, confidence = conf, correct = cor, method = "spiegelhalter"),
    hosmer_lemeshow_test_vec = alist(confidence = S, correct = 1 - FL, n_groups = 5, case_weights = W),
    hosmer_lemeshow_test = alist(data = DF, confidence = conf, correct = cor),
    unreliability_index_vec = alist(confidence = S, correct = 1 - FL, eps = 1e-6, case_weights = W),
    unreliability_index = alist(data = DF, confidence = conf, correct = cor),
    calibration_slope_vec = alist(confidence = S, correct = 1 - FL, eps = 1e-6, case_weights = W),
    calibration_slope = alist(data = DF, confidence = conf, correct = cor),
    calibration_intercept_vec = alist(confidence = S, correct = 1 - FL, eps = 1e-6, case_weights = W),
    calibration_intercept = alist(data = DF, confidence = conf, correct = cor),
    ici_vec = alist(confidence = S, correct = 1 - FL, span = 0.9, case_weights = W),
    ici = alist(data = DF, confidence = conf, correct = cor, span = 0.9),
    e50_vec = alist(confidence = S, correct = 1 - FL, case_weights = W),
    e50 = alist(data = DF, confidence = conf, correct = cor),
    e90_vec = alist(confidence = S, correct = 1 - FL, smoother = "lowess", case_weights = W),
    e90 = alist(data = DF, confidence = conf, correct = cor),
    emax_vec = alist(confidence = S, correct = 1 - FL, case_weights = W),
    emax = alist(data = DF, confidence = conf, correct = cor),
    calibration_summary = alist(data = DF, confidence = conf, correct = cor, span = 0.9),
    corp_reliability = alist(data = DF, confidence = conf, correct = cor, times = 5, band_level = 0.9),
    selective_ci_vec = alist(score = S, loss = L, metrics = c("aurc", "augrc"), method = "analytic", conf_level = 0.9, strata = DF$y, case_weights = W),
    selective_ci = alist(data = DF, score = s, loss = f, truth = y, metrics = c("failure_auroc", "corp_mcb", "smooth_ece", "mce", "aurc_ba"), method = "bootstrap", strata = y, times = 20, threads = 1, sigma = 0.1, smooth_method = "fine", corp_score = "brier", n_bins = 5),
    compare_scores = alist(data = DF, scores = c(s, s2), loss = f, metric = "aurc", method = "analytic", p_adjust = "holm", conf_level = 0.9, strata = y),
    compare_groups = alist(data = DF, score = s, loss = f, group = y, metric = "aurc", method = "analytic", p_adjust = "holm", conf_level = 0.9, case_weights = w),
    selective_power = alist(data = DF, scores = c(s, s2), loss = f, metric = "failure_auroc", power = 0.8, sig_level = 0.05, alternative = "one.sided", convention = "aurc", strata = y),
    certify_threshold = alist(data = DF, score = s, failure = l, target_risk = 0.5, method = "crc", group = y, shared = "threshold", loss_bound = 1, thresholds = c(0.8, 0.5, 0.2)),
    risk_upper_bound = alist(score = S, failure = FL, coverage = 0.5, delta = 0.1),
    theme_aurc = alist(base_size = 11, base_family = ""),
    aurc_prob = alist(data = PD, truth = truth, pa, pb, pc, estimator = "alpha"),
    aurc_prob_vec = alist(truth = PD$truth, estimate = PM, estimator = "sele"),
    augrc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    augrc_prob_vec = alist(truth = PD$truth, estimate = PM, estimator = "step"),
    eaurc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    eaurc_prob_vec = alist(truth = PD$truth, estimate = PM),
    naurc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    naurc_prob_vec = alist(truth = PD$truth, estimate = PM),
    eaugrc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    eaugrc_prob_vec = alist(truth = PD$truth, estimate = PM),
    failure_auroc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    failure_auroc_prob_vec = alist(truth = PD$truth, estimate = PM),
    failure_aupr_prob = alist(data = PD, truth = truth, pa, pb, pc),
    failure_aupr_prob_vec = alist(truth = PD$truth, estimate = PM),
    success_aupr_prob = alist(data = PD, truth = truth, pa, pb, pc),
    success_aupr_prob_vec = alist(truth = PD$truth, estimate = PM),
    partial_aurc_prob = alist(data = PD, truth = truth, pa, pb, pc, coverage_range = c(0.2, 0.9)),
    partial_aurc_prob_vec = alist(truth = PD$truth, estimate = PM, coverage_range = c(0.5, 1)),
    partial_augrc_prob = alist(data = PD, truth = truth, pa, pb, pc, coverage_range = c(0, 0.5)),
    partial_augrc_prob_vec = alist(truth = PD$truth, estimate = PM, coverage_range = c(0.1, 1)),
    fpr_at_tpr_prob = alist(data = PD, truth = truth, pa, pb, pc, tpr = 0.9),
    fpr_at_tpr_prob_vec = alist(truth = PD$truth, estimate = PM),
    achievable_aurc_prob = alist(data = PD, truth = truth, pa, pb, pc),
    achievable_aurc_prob_vec = alist(truth = PD$truth, estimate = PM),
    aurc_ba_prob = alist(data = PD, truth = truth, pa, pb, pc),
    aurc_ba_prob_vec = alist(truth = PD$truth, estimate = PM),
    augrc_ba_prob = alist(data = PD, truth = truth, pa, pb, pc),
    augrc_ba_prob_vec = alist(truth = PD$truth, estimate = PM),
    ece_prob = alist(data = PD, truth = truth, pa, pb, pc, estimator = "equal_width"),
    ece_prob_vec = alist(truth = PD$truth, estimate = PM),
    ici_prob = alist(data = PD, truth = truth, pa, pb, pc, span = 0.9),
    ici_prob_vec = alist(truth = PD$truth, estimate = PM),
    e50_prob = alist(data = PD, truth = truth, pa, pb, pc),
    e50_prob_vec = alist(truth = PD$truth, estimate = PM),
    e90_prob = alist(data = PD, truth = truth, pa, pb, pc),
    e90_prob_vec = alist(truth = PD$truth, estimate = PM),
    emax_prob = alist(data = PD, truth = truth, pa, pb, pc),
    emax_prob_vec = alist(truth = PD$truth, estimate = PM),
    calibration_intercept_prob = alist(data = PD, truth = truth, pa, pb, pc, eps = 1e-6),
    calibration_intercept_prob_vec = alist(truth = PD$truth, estimate = PM),
    mce_prob = alist(data = PD, truth = truth, pa, pb, pc),
    mce_prob_vec = alist(truth = PD$truth, estimate = PM),
    rc_curve_prob = alist(data = PD, truth = truth, pa, pb, pc, event_level = "first", score_type = "msp", na_rm = TRUE),
    failure_roc_curve_prob = alist(data = PD, truth = truth, pa, pb, pc, score_type = "margin"),
    failure_pr_curve_prob = alist(data = PD, truth = truth, pa, pb, pc),
    selective_ci_prob = alist(data = PD, truth = truth, pa, pb, pc, metrics = c("aurc", "ece"), conf_level = 0.9),
    calibration_bins_prob = alist(data = PD, truth = truth, pa, pb, pc, binning = "equal_width", n_bins = 3),
    compare_scores_prob = alist(data = PD, truth = truth, pa, pb, pc, score_types = c("msp", "margin"), metric = "augrc"),
    bootstrap_ranking_prob = alist(data = PR, method = method, case = case, truth = truth, pa, pb, pc, times = 5),
    score_table = alist(data = DF, score = s, loss = l, case_weights = w, bins = 4),
    combine_score_tables = alist(score_table(DF, s, l), score_table(DF, s2, l)),
    example_predictions = alist(models = "lda", seeds = 1, format = "long"),
    release_workspace = alist()
  )
}
# nolint end

# Exports that are not fuzzed, with the reason.
fuzz_exempt <- c(
  autoplot = paste(
    "the ggplot2 generic, re-exported; for a foreign object the error is",
    "ggplot2's (the methods are not fuzzed yet)"
  )
)

# Hostile values for an argument whose valid value is `valid`. The quick
# set is always run; the full set (AURC_FUZZ_FULL=true) adds more.
# `column`: for an argument that names columns of `data` (its valid
# expression, such as `s` or `c(s, s2)`), the full set adds names that are
# no column. A language object among the values (`quote(x)`) is passed as
# a value by fuzz_calls(), except to a column argument, where it is a
# column name.
fuzz_values <- function(valid, full = FALSE, column = NULL) {
  n <- length(valid)
  quick <- list(NULL, NA, Inf, -1, 1e308, 2^31, "a", numeric(0))
  if (is.numeric(valid) && n > 1) {
    quick <- c(quick, list(
      replace(valid, 2, NA), rep(1e16, n), valid[-1],
      # issue 25: weights and values at extreme scales, NaN inside
      rep(1e154, n), rep(1e-170, n), rep(.Machine$integer.max, n),
      replace(valid, 2, NaN)
    ))
  }
  if (!full) return(quick)
  more <- list(
    NaN, -Inf, 0, 1e9, list(1), TRUE, -1e308, 1e-320, 0.5, 1e16, c(1, NA),
    factor("a"), matrix(1:4, 2), data.frame(), data.frame(x = 1),
    function(x) x, character(0), NA_character_, 3 + 1i, as.raw(1),
    rep(1, 1e5), list(), quote(x),
    # missing values of every type, as users pass them (issue 33)
    NA_real_, NA_integer_
  )
  if (is.numeric(valid)) {
    # a factor where a number is expected (read.csv() of a column with a
    # typo gives one)
    more <- c(more, list(factor(valid)))
  }
  if (is.data.frame(valid)) {
    # the columns are there, the rows are not
    more <- c(more, list(valid[0, , drop = FALSE]))
  }
  if (!is.null(column)) {
    # (quote(x) above is the unquoted name)
    more <- c(more, list(
      "no_such_column", call("c", column, as.name("no_such_column"))
    ))
  }
  if (is.numeric(valid) && n > 1) {
    more <- c(more, list(
      rep(Inf, n), rep(-1, n), rep(0, n), rep(NaN, n), rep(1e308, n),
      rep(-Inf, n), c(valid, 1), as.character(valid), rev(valid),
      rep(NA_real_, n), valid * 1e300, rep(.Machine$double.xmin, n)
    ))
  }
  c(quick, more)
}

# Every call of the table with one argument replaced by a hostile value;
# a list of list(label, call). `thin = k`: each argument gets every k-th
# hostile value, the offset moving from one argument to the next, so every
# value still reaches every function with k or more arguments (a k-th of
# the calls; the quick set of `make test` uses k = 3, as its calls are
# mostly cli error messages at about 25 ms each). `thin = 1`: all calls.
fuzz_calls <- function(full = FALSE, fixtures = fuzz_fixtures(),
                       thin = 1L) {
  table <- fuzz_table()
  out <- list()
  for (fn in names(table)) {
    args <- table[[fn]]
    target <- call("::", as.name("aurc"), as.name(fn))
    out[[length(out) + 1]] <- list(
      label = paste0(fn, "(valid)"), call = as.call(c(target, args))
    )
    named <- setdiff(names(args), "")
    for (a in named) {
      valid <- tryCatch(eval(args[[a]], fixtures), error = function(e) e)
      # a column argument: its valid expression is found in `data` only
      column <- if (inherits(valid, "error")) args[[a]]
      if (inherits(valid, "error")) valid <- NULL
      vals <- fuzz_values(valid, full, column)
      pick <- seq_along(vals)
      if (thin > 1 && length(named) > 1) {
        pick <- pick[(pick + match(a, named)) %% thin == 0]
      }
      for (k in pick) {
        new_args <- args
        if (is.null(vals[[k]])) {
          new_args[a] <- list(NULL)
        } else if (is.language(vals[[k]]) && is.null(column)) {
          # the object itself, not a variable of that name
          new_args[[a]] <- call("quote", vals[[k]])
        } else {
          new_args[[a]] <- vals[[k]]
        }
        out[[length(out) + 1]] <- list(
          label = sprintf("%s(%s = <hostile %d>)", fn, a, k),
          call = as.call(c(target, new_args))
        )
      }
    }
  }
  out
}

# Runs calls in the current process with a time limit each. Returns a
# character vector: "" where the call behaved (a value, or only aurc
# conditions), otherwise what went wrong. Self-contained: runs in a child.
fuzz_run_batch <- function(calls, fixtures, progress, limit) {
  suppressPackageStartupMessages(library(aurc))
  env <- fixtures()
  res <- character(length(calls))
  for (i in seq_along(calls)) {
    cat(i, "\n", file = progress)
    bad <- character()
    setTimeLimit(elapsed = limit, transient = TRUE)
    err <- tryCatch(
      {
        withCallingHandlers(
          eval(calls[[i]]$call, env),
          warning = function(w) {
            if (!inherits(w, "aurc_warning")) {
              bad <<- c(bad, paste("warning:", conditionMessage(w)))
            }
            invokeRestart("muffleWarning")
          },
          message = function(m) {
            if (!inherits(m, "aurc_message")) {
              bad <<- c(bad, paste("message:", conditionMessage(m)))
            }
            invokeRestart("muffleMessage")
          }
        )
        ""
      },
      error = function(e) {
        # the class first: formatting a cli message costs ~20 ms, and
        # the time-limit error is never an aurc_error
        if (inherits(e, "aurc_error")) {
          return("")
        }
        msg <- conditionMessage(e)
        if (grepl("time limit", msg)) {
          "hang: reached the time limit"
        } else {
          paste("error not of class aurc_error:", msg)
        }
      }
    )
    setTimeLimit()
    res[i] <- paste(c(err[nzchar(err)], bad), collapse = "; ")
    # kept on disk too, in case a later call kills the process
    if (nzchar(res[i])) {
      cat(i, "\t", gsub("[\r\n]+", " ", res[i]), "\n",
        sep = "", file = paste0(progress, ".bad"), append = TRUE
      )
    }
  }
  res
}

# Runs all calls in `n_chunks` child processes (callr), at most `n_proc`
# at a time, each call with a time limit of `limit` seconds and each
# process with `timeout` seconds. A process that dies (a crash) or hangs in
# C++ is reported with the call it was running, and a new process goes on
# after that call. Returns a data frame of the calls that misbehaved.
fuzz_run <- function(calls, n_proc = 2, limit = 10, timeout = 300,
                     n_chunks = n_proc) {
  fixtures <- fuzz_fixtures
  environment(fixtures) <- globalenv()
  runner <- fuzz_run_batch
  environment(runner) <- globalenv()
  n_chunks <- max(1L, min(n_chunks, length(calls)))
  queue <- split(seq_along(calls), cut(seq_along(calls), n_chunks,
    labels = FALSE
  ))
  problems <- list()
  running <- list()
  while (length(queue) || length(running)) {
    while (length(queue) && length(running) < n_proc) {
      progress <- tempfile()
      running[[length(running) + 1]] <- list(
        todo = queue[[1]], progress = progress, started = Sys.time(),
        proc = callr::r_bg(runner,
          args = list(calls[queue[[1]]], fixtures, progress, limit),
          libpath = .libPaths(), supervise = TRUE
        )
      )
      queue[[1]] <- NULL
    }
    done <- integer()
    for (j in seq_along(running)) {
      out <- fuzz_job_result(running[[j]], calls, timeout)
      if (is.null(out)) next
      done <- c(done, j)
      problems <- c(problems, out$problems)
      if (length(out$rest)) queue[[length(queue) + 1]] <- out$rest
    }
    if (length(done)) running <- running[-done] else Sys.sleep(0.05)
  }
  do.call(rbind, problems)
}

# NULL while the job runs; else list(problems = list of data frames, rest =
# the calls still to run after a crash or hang).
fuzz_job_result <- function(job, calls, timeout) {
  label <- function(i) vapply(calls[job$todo[i]], function(x) x$label, "")
  late <- difftime(Sys.time(), job$started, units = "secs") > timeout
  if (job$proc$is_alive() && !late) return(NULL)
  if (late) job$proc$kill()
  res <- if (late) {
    simpleError(sprintf("no result within %d s", timeout))
  } else {
    tryCatch(job$proc$get_result(), error = function(e) e)
  }
  if (!inherits(res, "error")) {
    bad <- which(nzchar(res))
    return(list(problems = list(data.frame(
      call = label(bad), problem = res[bad], stringsAsFactors = FALSE
    ))))
  }
  # the child died or hung: keep what it found before, blame the call it
  # was running, go on after it
  problems <- list()
  bad_file <- paste0(job$progress, ".bad")
  if (file.exists(bad_file)) {
    found <- strsplit(readLines(bad_file), "\t", fixed = TRUE)
    problems[[1]] <- data.frame(
      call = label(vapply(found, function(x) as.integer(x[1]), 1L)),
      problem = vapply(found, function(x) x[2], ""),
      stringsAsFactors = FALSE
    )
  }
  at <- if (file.exists(job$progress)) {
    suppressWarnings(as.integer(utils::tail(readLines(job$progress), 1)))
  } else {
    integer()
  }
  if (length(at) == 0 || is.na(at)) at <- 1L
  problems[[length(problems) + 1]] <- data.frame(
    call = label(at),
    problem = paste("the R process died or hung:", conditionMessage(res)),
    stringsAsFactors = FALSE
  )
  list(problems = problems, rest = job$todo[-seq_len(at)])
}
