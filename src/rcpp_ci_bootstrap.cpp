// R glue for the bootstrap intervals (core/ci_bootstrap.h): puts the cases
// in canonical order (the first score's ascending order), prepares one
// column per score, draws and evaluates the replicates. Inputs and sizes are
// validated in R first (R/ci-bootstrap.R); the seed comes from R's RNG.
#include "glue.h"
#include "core/ci_bootstrap.h"
#include "core/rc_band.h"

using namespace aurc;

namespace {

std::uint64_t seed_arg(const Rcpp::NumericVector& seed) {
  if (seed.size() != 2) Rcpp::stop("seed must have two parts");
  return (static_cast<std::uint64_t>(seed[0]) << 32) |
         static_cast<std::uint64_t>(seed[1]);
}

std::vector<MetricSpec> metric_specs(const Rcpp::CharacterVector& metrics,
                                     const std::string& estimator,
                                     const std::string& method,
                                     const std::string& optimum,
                                     double coverage, double risk,
                                     double n_bins,
                                     const Rcpp::List& calibration) {
  // smooth ECE and CORP options: list(sigma, smooth_method, corp_score,
  // eps, steps); sigma NaN for the fixed-point bandwidth
  SmoothOptions smooth;
  CorpScore corp = CorpScore::brier;
  if (calibration.size() > 0) {
    smooth.sigma = Rcpp::as<double>(calibration["sigma"]);
    const std::string sm =
        Rcpp::as<std::string>(calibration["smooth_method"]);
    if (sm == "relplot") {
      smooth.method = SmoothMethod::relplot;
    } else if (sm == "fine") {
      smooth.method = SmoothMethod::fine;
    } else {
      Rcpp::stop("unknown smooth ECE method '" + sm + "'");
    }
    smooth.eps = Rcpp::as<double>(calibration["eps"]);
    smooth.steps = Rcpp::as<int>(calibration["steps"]);
    const std::string cs = Rcpp::as<std::string>(calibration["corp_score"]);
    if (cs == "log") {
      corp = CorpScore::log;
    } else if (cs != "brier") {
      Rcpp::stop("unknown CORP score '" + cs + "'");
    }
  }
  std::vector<MetricSpec> out;
  for (R_xlen_t m = 0; m < metrics.size(); ++m) {
    const std::string name = Rcpp::as<std::string>(metrics[m]);
    MetricSpec s;
    if (!parse_metric_name(name, s))
      Rcpp::stop("unknown metric '" + name + "'");
    s.estimator = estimator_arg(estimator);
    s.step = method == "step";
    s.asymptotic = optimum == "asymptotic";
    s.coverage = coverage;
    s.risk = risk;
    s.n_bins = static_cast<std::size_t>(n_bins);
    s.smooth = smooth;
    s.corp = corp;
    out.push_back(s);
  }
  return out;
}

// The canonical order and the data permuted into it.
struct Canonical {
  work_vector<std::size_t> order;     // canonical position -> input row
  std::vector<std::size_t> position;  // input row -> canonical position
  std::vector<double> score, loss, weight;
  std::vector<int> stratum, cluster;
};

void canonical_order(const Rcpp::NumericMatrix& score,
                     const Rcpp::NumericVector& loss,
                     const Rcpp::NumericVector& case_weights,
                     const Rcpp::IntegerVector& strata,
                     const Rcpp::IntegerVector& cluster, Canonical& d,
                     int threads = 1) {
  const std::size_t n = static_cast<std::size_t>(score.nrow());
  const std::size_t C = static_cast<std::size_t>(score.ncol());
  RInterrupt check;
  Presorted p;
  presort(score.begin(), n, p, check, threads);
  d.order.swap(p.order);
  d.position.resize(n);
  for (std::size_t k = 0; k < n; ++k) d.position[d.order[k]] = k;
  d.score.resize(n * C);
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t k = 0; k < n; ++k)
      d.score[c * n + k] = score[c * n + d.order[k]];
  // one loss column for every score, or one per score (n x C)
  const std::size_t L = n ? static_cast<std::size_t>(loss.size()) / n : 0;
  d.loss.resize(L * n);
  for (std::size_t c = 0; c < L; ++c)
    for (std::size_t k = 0; k < n; ++k)
      d.loss[c * n + k] = loss[c * n + d.order[k]];
  d.weight.resize(case_weights.size() ? n : 0);
  for (std::size_t k = 0; k < d.weight.size(); ++k)
    d.weight[k] = case_weights[d.order[k]];
  d.stratum.resize(strata.size() ? n : 0);
  for (std::size_t k = 0; k < d.stratum.size(); ++k)
    d.stratum[k] = strata[d.order[k]];
  d.cluster.resize(cluster.size() ? n : 0);
  for (std::size_t k = 0; k < d.cluster.size(); ++k)
    d.cluster[k] = cluster[d.order[k]];
}

template <class T>
const T* ptr_or_null(const std::vector<T>& x) {
  return x.empty() ? nullptr : x.data();
}

Rcpp::NumericVector array3(std::size_t a, std::size_t b, std::size_t c) {
  Rcpp::NumericVector out(static_cast<R_xlen_t>(a * b * c));
  out.attr("dim") = Rcpp::IntegerVector::create(
      static_cast<int>(a), static_cast<int>(b), static_cast<int>(c));
  return out;
}

}  // namespace

// score: n x C (one column per score, the same cases); loss: n (shared by
// every score) or n x C (one loss per score: models compared on the same
// cases, each with its own loss; checked by the caller); case_weights:
// n or empty; strata, cluster: 0-based codes or empty; indices: B x m
// 1-based input rows, or 0 x 0 to draw `times` replicates from `seed` (two
// 32-bit halves); calibration: the options of the smooth ECE and the CORP
// parts (see metric_specs()), or an empty list. Returns the full-data
// values (1 x C x M), the replicates (B x C x M) and, with `jackknife`, the
// delete-one-unit values (U x C x M) with the weight of each unit. truth:
// the 0-based class of each case (n_classes of them) for the balanced
// metrics, or empty (they are then NaN).
// [[Rcpp::export(rng = false)]]
Rcpp::List ci_bootstrap_impl(
    const Rcpp::NumericMatrix& score, const Rcpp::NumericVector& loss,
    const Rcpp::NumericVector& case_weights,
    const Rcpp::CharacterVector& metrics, const std::string& estimator,
    const std::string& method, const std::string& optimum, double coverage,
    double risk, double n_bins, const Rcpp::List& calibration,
    const Rcpp::IntegerVector& strata,
    int n_strata, const Rcpp::IntegerVector& cluster, int n_clusters,
    const Rcpp::IntegerMatrix& indices, double times,
    const Rcpp::NumericVector& seed, int threads, bool jackknife,
    const Rcpp::IntegerVector& truth, int n_classes,
    SEXP progress = R_NilValue) {
  const std::size_t n = static_cast<std::size_t>(score.nrow());
  const std::size_t C = static_cast<std::size_t>(score.ncol());
  const std::vector<MetricSpec> specs = metric_specs(
      metrics, estimator, method, optimum, coverage, risk, n_bins,
      calibration);
  const std::size_t M = specs.size();
  const std::size_t n_loss = static_cast<std::size_t>(loss.size());
  if (n_loss != n && n_loss != n * C)
    Rcpp::stop("loss must have n or n x C values");
  // data-driven bins fixed in advance (adaptive, equal-mass): the upper
  // edges, one vector for every score or a list with one per score
  std::vector<std::vector<double>> edges(C);
  if (calibration.containsElementNamed("edges")) {
    const SEXP e = calibration["edges"];
    if (TYPEOF(e) == VECSXP) {
      const Rcpp::List el(e);
      if (static_cast<std::size_t>(el.size()) != C)
        Rcpp::stop("edges must have one element per score");
      for (std::size_t c = 0; c < C; ++c) {
        const Rcpp::NumericVector v = el[c];
        edges[c].assign(v.begin(), v.end());
      }
    } else {
      const Rcpp::NumericVector v(e);
      for (std::size_t c = 0; c < C; ++c) edges[c].assign(v.begin(), v.end());
    }
  }
  RInterrupt check;

  Canonical d;
  canonical_order(score, loss, case_weights, strata, cluster, d, threads);
  const bool need_loss = needs_loss_order(specs);
  const bool need_bins = needs_bins(specs);
  const bool need_cases = needs_cases(specs);
  const bool need_classes = needs_classes(specs) && truth.size() > 0;
  if (truth.size() > 0 && static_cast<std::size_t>(truth.size()) != n)
    Rcpp::stop("truth must have one class per case");
  std::vector<int> cls;
  if (need_classes) {  // in the canonical order
    cls.resize(n);
    for (std::size_t k = 0; k < n; ++k) cls[k] = truth[d.order[k]];
  }
  std::vector<RankingColumn> cols(C);
  for (std::size_t c = 0; c < C; ++c) {
    const double* loss_c = d.loss.data() + (d.loss.size() > n ? c * n : 0);
    prepare_column(d.score.data() + c * n, loss_c, n, cols[c], check,
                   threads);
    if (need_loss) prepare_loss_order(loss_c, n, cols[c], check, threads);
    if (need_bins)
      prepare_bins(d.score.data() + c * n, static_cast<std::size_t>(n_bins),
                   cols[c], edges[c]);
    if (need_cases) prepare_cases(d.score.data() + c * n, cols[c]);
    if (need_classes)
      prepare_classes(cls.data(), static_cast<std::size_t>(n_classes),
                      cols[c]);
  }
  ResamplePlan plan;
  make_plan(n, ptr_or_null(d.weight), ptr_or_null(d.stratum),
            static_cast<std::size_t>(n_strata), ptr_or_null(d.cluster),
            static_cast<std::size_t>(n_clusters), plan);
  // weights at any scale: counts brought into [2^-64, 2^64] by a power of 2
  if (counts_scale_free(specs)) set_count_scales(plan);

  Rcpp::NumericVector estimate = array3(1, C, M);
  replicate_metrics(cols, n, 1, specs, 1, JackknifeFill{plan, true},
                    estimate.begin(), check);

  const bool given = indices.nrow() > 0;
  const std::size_t B = given ? static_cast<std::size_t>(indices.nrow())
                              : static_cast<std::size_t>(times);
  Rcpp::NumericVector reps = array3(B, C, M);
  if (given) {
    const IndexFill fill{indices.begin(), B,
                         static_cast<std::size_t>(indices.ncol()), d.position};
    replicate_metrics(cols, n, B, specs, threads, fill, reps.begin(), check,
                      RProgress{progress});
  } else {
    const PlanFill fill{plan, seed_arg(seed)};
    replicate_metrics(cols, n, B, specs, threads, fill, reps.begin(), check,
                      RProgress{progress});
  }

  Rcpp::List out = Rcpp::List::create(Rcpp::Named("estimate") = estimate,
                                      Rcpp::Named("replicates") = reps);
  if (jackknife) {
    const std::size_t U = plan.n_units;
    Rcpp::NumericVector jack = array3(U, C, M);
    replicate_metrics(cols, n, U, specs, threads, JackknifeFill{plan, false},
                      jack.begin(), check);
    std::vector<double> uw;
    jackknife_unit_weights(plan, uw);
    out["jackknife"] = jack;
    out["unit_weight"] = Rcpp::NumericVector(uw.begin(), uw.end());
  }
  return out;
}

// The counts of replicates first + 1 .. first + times (times x n, input row
// order) that ci_bootstrap_impl() draws from the same arguments and seed:
// the replicates of the metrics evaluated in R (R/ci-bootstrap-r.R), a
// block at a time.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix ci_bootstrap_counts_impl(
    const Rcpp::NumericVector& score, const Rcpp::NumericVector& case_weights,
    const Rcpp::IntegerVector& strata, int n_strata,
    const Rcpp::IntegerVector& cluster, int n_clusters, double times,
    const Rcpp::NumericVector& seed, double first) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  Rcpp::NumericMatrix s(static_cast<int>(n), 1);
  std::copy(score.begin(), score.end(), s.begin());
  Canonical d;
  canonical_order(s, Rcpp::NumericVector(0), case_weights, strata, cluster, d);
  ResamplePlan plan;
  make_plan(n, ptr_or_null(d.weight), ptr_or_null(d.stratum),
            static_cast<std::size_t>(n_strata), ptr_or_null(d.cluster),
            static_cast<std::size_t>(n_clusters), plan);
  const std::size_t B = static_cast<std::size_t>(times);
  const std::uint64_t b0 = static_cast<std::uint64_t>(first);
  const std::uint64_t sd = seed_arg(seed);
  Rcpp::NumericMatrix out(static_cast<int>(B), static_cast<int>(n));
  std::vector<double> counts(n);
  for (std::size_t b = 0; b < B; ++b) {
    Rcpp::checkUserInterrupt();
    replicate_counts(plan, sd, b0 + b, counts.data());
    for (std::size_t k = 0; k < n; ++k) out(b, d.order[k]) = counts[k];
  }
  return out;
}

// The balanced-accuracy AURC or AUGRC (core/balanced.h) of one data set:
// one sort of the scores, then the kernel of the bootstrap replicates with
// the case weights as counts (ones when empty). cls: 0-based classes,
// n_classes of them; loss: 0/1 failures (checked by the caller).
// [[Rcpp::export(rng = false)]]
double balanced_metric_impl(const Rcpp::NumericVector& score,
                            const Rcpp::NumericVector& loss,
                            const Rcpp::IntegerVector& cls, int n_classes,
                            const Rcpp::NumericVector& case_weights,
                            const std::string& metric, int threads) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  if (static_cast<std::size_t>(loss.size()) != n ||
      static_cast<std::size_t>(cls.size()) != n ||
      (case_weights.size() > 0 &&
       static_cast<std::size_t>(case_weights.size()) != n))
    Rcpp::stop("score, loss, classes and weights must have one length");
  RInterrupt check;
  RankingColumn col;
  prepare_column(score.begin(), loss.begin(), n, col, check, threads);
  prepare_classes(cls.begin(), static_cast<std::size_t>(n_classes), col);
  std::vector<double> ones;
  const double* counts = case_weights.begin();
  if (case_weights.size() == 0) {
    ones.assign(n, 1.0);
    counts = ones.data();
  }
  BalancedWork w;
  const SortedCases d = sorted_cases(col);
  if (metric == "augrc_ba")
    return augrc_ba_sorted(d, col.cls.data(), col.n_classes, counts, 1, w);
  return aurc_ba_sorted(d, col.cls.data(), col.n_classes, counts, 1, w);
}

// The selective and generalized risk on a grid of coverages (core/
// rc_band.h) of the data (the case weights as counts) and of `times`
// bootstrap replicates drawn as ci_bootstrap_impl() draws them (the same
// arguments and seed give the same resamples), or of the rows of
// `indices` (B x m, 1-based input rows). coverage: ascending, in (0, 1]
// (checked by the caller, R/curve-rc-band.R). Returns `estimate` (K x 2)
// and `replicates` (B x K x 2; selective, then generalized).
// [[Rcpp::export(rng = false)]]
Rcpp::List rc_band_impl(
    const Rcpp::NumericVector& score, const Rcpp::NumericVector& loss,
    const Rcpp::NumericVector& case_weights,
    const Rcpp::IntegerVector& strata, int n_strata,
    const Rcpp::IntegerVector& cluster, int n_clusters,
    const Rcpp::IntegerMatrix& indices, double times,
    const Rcpp::NumericVector& seed, const Rcpp::NumericVector& coverage,
    int threads, SEXP progress = R_NilValue) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  if (static_cast<std::size_t>(loss.size()) != n)
    Rcpp::stop("score and loss must have one length");
  const std::size_t K = static_cast<std::size_t>(coverage.size());
  RInterrupt check;
  Rcpp::NumericMatrix s(static_cast<int>(n), 1);
  std::copy(score.begin(), score.end(), s.begin());
  Canonical d;
  canonical_order(s, loss, case_weights, strata, cluster, d, threads);
  RankingColumn col;
  prepare_column(d.score.data(), d.loss.data(), n, col, check, threads);
  ResamplePlan plan;
  make_plan(n, ptr_or_null(d.weight), ptr_or_null(d.stratum),
            static_cast<std::size_t>(n_strata), ptr_or_null(d.cluster),
            static_cast<std::size_t>(n_clusters), plan);
  // both risks are ratios of counts: counts may be scaled by a power of 2
  set_count_scales(plan);
  Rcpp::NumericMatrix estimate(static_cast<int>(K), 2);
  rc_band_replicates(col, n, 1, coverage.begin(), K,
                     JackknifeFill{plan, true}, estimate.begin());
  const bool given = indices.nrow() > 0;
  const std::size_t B = given ? static_cast<std::size_t>(indices.nrow())
                              : static_cast<std::size_t>(times);
  Rcpp::NumericVector reps = array3(B, K, 2);
  if (given) {
    const IndexFill fill{indices.begin(), B,
                         static_cast<std::size_t>(indices.ncol()), d.position};
    rc_band_replicates(col, n, B, coverage.begin(), K, fill, reps.begin(),
                       check, RProgress{progress});
  } else {
    const PlanFill fill{plan, seed_arg(seed)};
    rc_band_replicates(col, n, B, coverage.begin(), K, fill, reps.begin(),
                       check, RProgress{progress});
  }
  return Rcpp::List::create(Rcpp::Named("estimate") = estimate,
                            Rcpp::Named("replicates") = reps);
}
