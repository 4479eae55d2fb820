// R glue for the influence functions of src/core/influence.h: one sort of
// the scores for all requested metrics, then the per-sample influence values
// and their standard errors. Inputs are validated (and NA removed) in R.
#include "glue.h"
#include "core/influence.h"

using namespace aurc;

// Estimates, influence values (n x metrics, input order) and standard
// errors of the metrics named in `metrics` (see parse_metric()).
// [[Rcpp::export(rng = false)]]
Rcpp::List influence_impl(const Rcpp::NumericVector& score,
                          const Rcpp::NumericVector& loss,
                          const Rcpp::NumericVector& case_weights,
                          const Rcpp::CharacterVector& metrics,
                          const std::string& estimator,
                          const std::string& method,
                          const std::string& optimum, double coverage,
                          double risk, int n_bins) {
  InfluenceOptions o;
  o.estimator = estimator_arg(estimator);
  o.step = method == "step";
  o.asymptotic = optimum == "asymptotic";
  o.coverage = coverage;
  o.risk = risk;
  o.n_bins = n_bins > 0 ? static_cast<std::size_t>(n_bins) : 10;
  const std::size_t n = static_cast<std::size_t>(score.size());
  const double* w = optional_ptr(case_weights);
  RInterrupt check;
  InfluenceData d;
  prepare_influence(score.begin(), loss.begin(), w, n, d, check);

  const R_xlen_t m = metrics.size();
  Rcpp::NumericVector est(m), se(m);
  Rcpp::NumericMatrix inf(static_cast<int>(n), static_cast<int>(m));
  for (R_xlen_t j = 0; j < m; ++j) {
    Metric metric;
    const std::string name = Rcpp::as<std::string>(metrics[j]);
    if (!parse_metric(name, metric)) Rcpp::stop("unknown metric '" + name + "'");
    double* col = &inf(0, static_cast<int>(j));
    est[j] = metric_influence(d, metric, o, col, check);
    const double* stratum =
        metric == Metric::failure_auroc ? loss.begin() : nullptr;
    se[j] = std::isnan(est[j]) ? NA_REAL : influence_se(col, w, stratum, n);
  }
  Rcpp::CharacterVector names(metrics);
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
