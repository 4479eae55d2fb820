// R glue for the metrics of SPEC Secs. 3 and 4: sorts once, then streams
// every requested metric over the tie groups of the sorted data. Inputs are
// validated (and NA removed) in R first.
#include "glue.h"
#include "core/augrc.h"
#include "core/contribution.h"
#include "core/curve.h"
#include "core/failure.h"
#include "core/oracle.h"

using namespace aurc;

namespace {

// Groups of equal loss in ascending loss, for the oracle order. 0/1 losses
// need no sort: two groups.
void loss_groups(const Rcpp::NumericVector& loss,
                 const Rcpp::NumericVector& case_weights, GroupVectors& out) {
  const std::size_t n = static_cast<std::size_t>(loss.size());
  const double* w = optional_ptr(case_weights);
  bool binary = true;
  double c0 = 0.0, c1 = 0.0;
  for (std::size_t i = 0; i < n && binary; ++i) {
    const double wi = w ? w[i] : 1.0;
    if (loss[i] == 0.0) c0 += wi;
    else if (loss[i] == 1.0) c1 += wi;
    else binary = false;
  }
  if (binary) {
    out.count = {c0, c1};
    out.loss = {0.0, c1};
    return;
  }
  RInterrupt check;
  if (!w) {
    SortedLoss sorted;
    sort_with_loss(loss.begin(), loss.begin(), n, sorted, check);
    collect_groups(sorted, out);
    return;
  }
  Presorted p;
  presort(loss.begin(), n, p, check);
  collect_groups(PresortedGroups{p, loss.begin(), w}, out);
}


// Every requested metric from a group source over the sorted scores. Each
// metric is one streaming pass over the sorted data (as aurc_vec() is):
// no tie group is materialised.
template <class Source>
Rcpp::List metrics_from(const Source& groups, double n,
                        const Rcpp::NumericVector& loss,
                        const Rcpp::NumericVector& case_weights,
                        const Rcpp::CharacterVector& metrics, Estimator est,
                        bool step, bool asymptotic, double coverage,
                        double risk) {
  double mean_loss = std::nan("");
  bool have_mean = false;
  auto get_mean = [&]() {
    if (!have_mean) mean_loss = total_loss(groups) / n;
    have_mean = true;
    return mean_loss;
  };
  GroupVectors by_loss;
  bool have_oracle = false;
  double aurc_value = std::nan(""), oracle_value = std::nan("");
  bool have_aurc = false;
  auto get_aurc = [&]() {
    if (!have_aurc) aurc_value = aurc_estimate(est, groups, n);
    have_aurc = true;
    return aurc_value;
  };
  auto get_oracle = [&]() {
    if (!have_oracle) {
      loss_groups(loss, case_weights, by_loss);
      oracle_value = aurc_oracle(est, by_loss, n);
    }
    have_oracle = true;
    return oracle_value;
  };

  const R_xlen_t m = metrics.size();
  Rcpp::NumericVector out(m);
  double achieved = std::nan("");
  for (R_xlen_t j = 0; j < m; ++j) {
    const std::string name = Rcpp::as<std::string>(metrics[j]);
    double v;
    if (name == "aurc") {
      v = get_aurc();
    } else if (name == "augrc") {
      v = step ? augrc_step(groups, n) : augrc_trapezoid(groups, n);
    } else if (name == "failure_auroc") {
      v = failure_auroc(groups);
    } else if (name == "failure_aupr") {
      v = failure_aupr(groups);
    } else if (name == "eaurc") {
      v = get_aurc() -
          (asymptotic ? aurc_asymptotic_optimum(get_mean()) : get_oracle());
    } else if (name == "eaugrc") {
      const double ml = get_mean();
      v = augrc_trapezoid(groups, n) - 0.5 * ml * ml;
    } else if (name == "naurc") {
      v = naurc_value(get_aurc(), get_oracle(), get_mean());
    } else if (name == "risk_at_coverage") {
      v = risk_at_coverage(groups, n, coverage, achieved);
    } else if (name == "coverage_at_risk") {
      v = aurc::coverage_at_risk(groups, n, risk);
    } else if (name == "mean_loss") {
      v = get_mean();
    } else {
      Rcpp::stop("unknown metric '" + name + "'");
    }
    out[j] = v;
  }
  return Rcpp::List::create(Rcpp::_["values"] = out,
                            Rcpp::_["achieved_coverage"] = achieved);
}

}  // namespace

// Every requested metric from one sort of the scores (and, only for the
// exact optimum of eaurc/naurc, one of the losses). Returns the values in
// the order of `metrics` and the coverage achieved by risk_at_coverage.
// [[Rcpp::export(rng = false)]]
Rcpp::List metrics_impl(const Rcpp::NumericVector& score,
                        const Rcpp::NumericVector& loss,
                        const Rcpp::NumericVector& case_weights,
                        const Rcpp::CharacterVector& metrics,
                        const std::string& estimator,
                        const std::string& method,
                        const std::string& optimum, double coverage,
                        double risk) {
  const Estimator est = estimator_arg(estimator);
  const bool step = method == "step";
  const bool asymptotic = optimum == "asymptotic";
  const std::size_t n = static_cast<std::size_t>(score.size());
  RInterrupt check;
  if (case_weights.size() == 0) {
    SortedLoss sorted;
    sort_with_loss(score.begin(), loss.begin(), n, sorted, check);
    return metrics_from(sorted, static_cast<double>(n), loss, case_weights,
                        metrics, est, step, asymptotic, coverage, risk);
  }
  Presorted p;
  presort(score.begin(), n, p, check);
  const PresortedGroups groups{p, loss.begin(), case_weights.begin()};
  return metrics_from(groups, Rcpp::sum(case_weights), loss, case_weights,
                      metrics, est, step, asymptotic, coverage, risk);
}

// The risk-coverage curve at every distinct threshold, descending.
// [[Rcpp::export(rng = false)]]
Rcpp::List rc_curve_impl(const Rcpp::NumericVector& score,
                         const Rcpp::NumericVector& loss,
                         const Rcpp::NumericVector& case_weights) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  RInterrupt check;
  CurveSums sums;
  std::vector<double> thr;
  auto thresholds = [&](const std::vector<std::uint64_t>& keys) {
    for_each_run_reverse(keys, [&](std::size_t b, std::size_t) {
      thr.push_back(key_to_double(keys[b]));
    });
  };
  double total;
  if (case_weights.size() == 0) {
    SortedLoss sorted;
    sort_with_loss(score.begin(), loss.begin(), n, sorted, check);
    rc_curve_sums(sorted, sums);
    thresholds(sorted.keys);
    total = static_cast<double>(n);
  } else {
    Presorted p;
    presort(score.begin(), n, p, check);
    rc_curve_sums(PresortedGroups{p, loss.begin(), case_weights.begin()}, sums);
    thresholds(p.keys);
    total = Rcpp::sum(case_weights);
  }
  std::size_t kept = 0;
  for (double c : sums.count) kept += c > 0.0;
  Rcpp::NumericVector t(kept), acc(kept), los(kept);
  std::size_t k = 0;
  for (std::size_t g = 0; g < sums.count.size(); ++g) {
    if (!(sums.count[g] > 0.0)) continue;
    t[k] = thr[g];
    acc[k] = sums.accepted[g];
    los[k] = sums.loss_accepted[g];
    ++k;
  }
  return Rcpp::List::create(Rcpp::_["threshold"] = t,
                            Rcpp::_["n_accepted"] = acc,
                            Rcpp::_["loss_accepted"] = los,
                            Rcpp::_["n"] = total);
}

// Per-position failure contributions (Traub et al., App. A.1.1).
// [[Rcpp::export(rng = false)]]
Rcpp::List contribution_impl(double n) {
  const std::size_t m = static_cast<std::size_t>(n);
  Rcpp::NumericVector a(m), trap(m), step(m);
  failure_contributions(m, a.begin(), trap.begin(), step.begin());
  return Rcpp::List::create(Rcpp::_["aurc"] = a, Rcpp::_["augrc"] = trap,
                            Rcpp::_["augrc_step"] = step);
}
