// R glue for the influence functions of src/core/influence.h: one sort of
// the scores for all requested metrics, then the per-sample influence values
// and their standard errors. Inputs are validated (and NA removed) in R.
#include "glue.h"
#include "core/influence.h"
#include "core/ci_working_point.h"

using namespace aurc;

// Estimates, influence values (n x metrics, input order) and standard
// errors of the metrics named in `metrics` (see parse_metric()). With
// `values = false`, no weights and metrics of the score groups only, the
// influence values are not returned (NULL) and the standard errors come
// from metric_se_sorted(), without their scatter to input order.
// [[Rcpp::export(rng = false)]]
Rcpp::List influence_impl(const Rcpp::NumericVector& score,
                          const Rcpp::NumericVector& loss,
                          const Rcpp::NumericVector& case_weights,
                          const Rcpp::CharacterVector& metrics,
                          const std::string& estimator,
                          const std::string& method,
                          const std::string& optimum, double coverage,
                          double risk, int n_bins,
                          const Rcpp::NumericVector& edges, int threads = 1,
                          bool values = true) {
  InfluenceOptions o;
  o.estimator = estimator_arg(estimator);
  o.step = method == "step";
  o.asymptotic = optimum == "asymptotic";
  o.coverage = coverage;
  o.risk = risk;
  o.n_bins = n_bins > 0 ? static_cast<std::size_t>(n_bins) : 10;
  o.edges.assign(edges.begin(), edges.end());
  const std::size_t n = static_cast<std::size_t>(score.size());
  const double* w = optional_ptr(case_weights);
  RInterrupt check;
  const R_xlen_t m = metrics.size();
  std::vector<Metric> kinds(static_cast<std::size_t>(m));
  bool sorted_only = !values && w == nullptr;
  for (R_xlen_t j = 0; j < m; ++j) {
    const std::string name = Rcpp::as<std::string>(metrics[j]);
    Metric& kind = kinds[static_cast<std::size_t>(j)];
    if (!parse_metric(name, kind)) {
      Rcpp::stop("unknown metric '" + name + "'");
    }
    sorted_only = sorted_only && sorted_only_metric(kind);
  }
  Rcpp::CharacterVector names(metrics);
  if (sorted_only) {
    // the estimates and standard errors only (metric_se_sorted())
    SortedLoss sl;
    sort_with_loss(score.begin(), loss.begin(), n, sl, check, threads);
    GroupVectors gv;
    collect_groups(sl, gv);
    Rcpp::NumericVector est(m), se(m);
    for (R_xlen_t j = 0; j < m; ++j) {
      double s = 0.0;
      est[j] = metric_se_sorted(sl, gv, kinds[static_cast<std::size_t>(j)], o,
                                s, check);
      se[j] = std::isnan(est[j]) || std::isnan(s) ? NA_REAL : s;
    }
    est.names() = names;
    se.names() = names;
    return Rcpp::List::create(Rcpp::_["estimate"] = est,
                              Rcpp::_["influence"] = R_NilValue,
                              Rcpp::_["std_error"] = se);
  }
  InfluenceData d;
  prepare_influence(score.begin(), loss.begin(), w, n, d, check, threads);

  Rcpp::NumericVector est(m), se(m);
  Rcpp::NumericMatrix inf(static_cast<int>(n), static_cast<int>(m));
  for (R_xlen_t j = 0; j < m; ++j) {
    const Metric metric = kinds[static_cast<std::size_t>(j)];
    double* col = &inf(0, static_cast<int>(j));
    est[j] = metric_influence(d, metric, o, col, check);
    const double* stratum =
        metric == Metric::failure_auroc ? loss.begin() : nullptr;
    se[j] = std::isnan(est[j]) ? NA_REAL : influence_se(col, w, stratum, n);
  }
  est.names() = names;
  se.names() = names;
  Rcpp::colnames(inf) = names;
  return Rcpp::List::create(Rcpp::_["estimate"] = est,
                            Rcpp::_["influence"] = inf,
                            Rcpp::_["std_error"] = se);
}

// Standard error from influence values (see influence_se()); `stratum`
// empty for one stratum, else 0/1 per sample (DeLong's two classes).
// [[Rcpp::export(rng = false)]]
double influence_se_impl(const Rcpp::NumericVector& influence,
                         const Rcpp::NumericVector& case_weights,
                         const Rcpp::NumericVector& stratum) {
  return influence_se(influence.begin(), optional_ptr(case_weights),
                      optional_ptr(stratum),
                      static_cast<std::size_t>(influence.size()));
}

// Coverage at risk by test inversion (src/core/ci_working_point.h): the
// estimate, the centred values of h (input order) whose standard error
// scales the test, those of the accepted indicator, and the curve of
// coverage and excess over the groups.
// [[Rcpp::export(rng = false)]]
Rcpp::List coverage_at_risk_interval_impl(const Rcpp::NumericVector& score,
                                          const Rcpp::NumericVector& loss,
                                          const Rcpp::NumericVector& case_weights,
                                          double risk, int threads = 1) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  const double* w = optional_ptr(case_weights);
  RInterrupt check;
  InfluenceData d;
  prepare_influence(score.begin(), loss.begin(), w, n, d, check, threads);
  GroupInfluence gi;
  excess_group_influence(d.groups, d.N, risk, gi);
  Rcpp::NumericVector h(static_cast<R_xlen_t>(n));
  scatter_groups(d.by_score, d.loss, gi, h.begin());
  centre(h.begin(), w, n, d.N);
  // the accepted indicator 1(s >= q) - c, the coverage's own noise at a
  // fixed threshold (none when nothing qualifies)
  GroupInfluence accepted;
  accepted.reset(gi.a.size());
  if (gi.estimate > 0.0) accepted.a = gi.b;
  Rcpp::NumericVector ind(static_cast<R_xlen_t>(n));
  scatter_groups(d.by_score, d.loss, accepted, ind.begin());
  centre(ind.begin(), w, n, d.N);
  ExcessCurve curve;
  coverage_excess_curve(d.groups, d.N, risk, curve);
  return Rcpp::List::create(
      Rcpp::_["estimate"] = gi.estimate, Rcpp::_["influence"] = h,
      Rcpp::_["accepted"] = ind,
      Rcpp::_["coverage"] = Rcpp::wrap(curve.coverage),
      Rcpp::_["excess"] = Rcpp::wrap(curve.excess));
}
