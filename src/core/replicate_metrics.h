// The package's metrics evaluated on one resampled data set given by its
// groups (DEFINITIONS Secs. 2, 4, 7, 8, 11): the one description of "a metric with
// its options" shared by the bootstrap ranking (bootstrap.h) and the
// bootstrap intervals (ci_bootstrap.h).
//
// A replicate is a vector of case counts over presorted data; what a metric
// sees of it is
//   by_score  the tie groups of the score, ascending, with the count and the
//             count-weighted loss sum of each (groups with no case drawn may
//             be left out: an empty group adds nothing to any metric),
//   by_loss   the groups of equal loss in ascending loss (only for metrics of
//             the oracle order: E-AURC with the exact optimum, NAURC),
//   bins      per-bin sums of equal-width calibration bins over the score
//             taken as confidence (only for ECE, MCE and the debiased l2
//             calibration error),
//   cases     the sorted cases and the replicate's counts of each (only for
//             the CORP decomposition and the smooth ECE, which need the tie
//             groups with their confidences, or every case's weight;
//             calibration_replicate.h),
//   n         the total count.
// MetricSpec names the metric and carries its options; evaluate_metric()
// computes it with the same kernels, in the same order of operations, as the
// package's _vec functions use on data with the rows repeated.
#ifndef AURC_CORE_REPLICATE_METRICS_H
#define AURC_CORE_REPLICATE_METRICS_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "augrc.h"
#include "aurc.h"
#include "balanced.h"
#include "calibration_replicate.h"
#include "curve.h"
#include "failure.h"
#include "metric_kind.h"
#include "metric_name.h"
#include "oracle.h"
#include "partial.h"
#include "working_points.h"
#include "ties.h"

namespace aurc {

// A metric with its options (the defaults are those of the _vec functions).

struct MetricSpec {
  MetricKind kind = MetricKind::aurc;
  Estimator estimator = Estimator::alpha;  // aurc, eaurc, naurc
  bool step = false;                       // augrc: method = "step"
  bool asymptotic = false;                 // eaurc: optimum = "asymptotic"
  double coverage = 0.5;                   // risk_at_coverage
  double risk = 0.5;                       // coverage_at_risk
  std::size_t n_bins = 10;  // ece, mce, debiased_l2_ce (equal-width bins)
  SmoothOptions smooth;     // smooth_ece
  CorpScore corp = CorpScore::brier;  // corp_*
  double max_rejection = 1.0;         // prr
  PrrTies prr_ties = PrrTies::group;  // prr: 0 group, 1 random, 2 position
  double lo = 0.0, hi = 1.0;          // partial_aurc, partial_augrc
  double tpr = 0.95;                  // fpr_at_tpr
  bool lowest_risk = false;           // risk_at_coverage: fd-shifts' rule

  // needs the groups in loss order (the oracle)
  bool by_loss() const {
    return (kind == MetricKind::eaurc && !asymptotic) ||
           kind == MetricKind::naurc || kind == MetricKind::prr;
  }
  // needs the calibration bins
  bool by_bins() const {
    return kind == MetricKind::ece || kind == MetricKind::mce ||
           kind == MetricKind::debiased_l2_ce;
  }
  // needs the sorted cases with the replicate's counts
  bool by_cases() const {
    return kind == MetricKind::smooth_ece || is_corp();
  }
  // needs the class of every sorted case (the balanced metrics)
  bool by_classes() const {
    return kind == MetricKind::aurc_ba || kind == MetricKind::augrc_ba;
  }
  bool is_corp() const {
    return kind == MetricKind::corp_mean_score ||
           kind == MetricKind::corp_mcb || kind == MetricKind::corp_dsc ||
           kind == MetricKind::corp_unc;
  }
};

// Parses "name" or "name@params" (metric_name.h) into the kind and its
// parameters: prr@max_rejection, partial_aurc@lo,hi, partial_augrc@lo,hi.
inline bool parse_metric_name(const std::string& name, MetricSpec& out) {
  std::string base;
  std::vector<double> params;
  if (!split_metric_name(name, base, params)) return false;
  if (!parse_metric_kind(base, out.kind)) return false;
  out.max_rejection = metric_param(params, 0, 1.0);
  if (out.kind == MetricKind::prr) {
    const double t = metric_param(params, 1, 0.0);
    if (t != 0.0 && t != 1.0 && t != 2.0) return false;
    out.prr_ties = static_cast<PrrTies>(static_cast<int>(t));
  }
  out.tpr = metric_param(params, 0, 0.95);
  out.lowest_risk = out.kind == MetricKind::risk_at_coverage &&
                    metric_param(params, 0, 0.0) == 1.0;
  if (out.kind == MetricKind::partial_aurc ||
      out.kind == MetricKind::partial_augrc) {
    out.lo = metric_param(params, 0, 0.0);
    out.hi = metric_param(params, 1, 1.0);
  }
  return true;
}

// The metrics of the selective registry (R/metric-registry.R), which
// stream over the tie groups of the sorted scores (and the loss groups for
// the oracle): the kinds the in-memory engine (src/rcpp_metrics.cpp)
// evaluates. The calibration errors and the balanced metrics need bins,
// cases or classes and have engines of their own.
inline bool streams_over_groups(MetricKind kind) {
  switch (kind) {
    case MetricKind::ece:
    case MetricKind::mce:
    case MetricKind::debiased_l2_ce:
    case MetricKind::smooth_ece:
    case MetricKind::corp_mean_score:
    case MetricKind::corp_mcb:
    case MetricKind::corp_dsc:
    case MetricKind::corp_unc:
    case MetricKind::aurc_ba:
    case MetricKind::augrc_ba:
      return false;
    default:
      return true;
  }
}

// A metric with its options as R's registry gives them (R/metric-registry.R:
// the kernel name "name" or "name@params", the AURC estimator, the AUGRC
// method and the E-AURC optimum by name, the coverage and risk of the
// working points). False for an unknown name.
inline bool make_metric_spec(const std::string& kernel,
                             const std::string& estimator,
                             const std::string& method,
                             const std::string& optimum, double coverage,
                             double risk, MetricSpec& out) {
  out = MetricSpec();
  if (!parse_metric_name(kernel, out)) return false;
  if (!parse_estimator(estimator, out.estimator)) return false;
  out.step = method == "step";
  out.asymptotic = optimum == "asymptotic";
  out.coverage = coverage;
  out.risk = risk;
  return true;
}

// Whether every metric's value is unchanged when all counts are multiplied
// by one positive number: all but those that read counts as numbers of
// copies (the exact optimum of E-AURC and NAURC) or of samples (the
// debiased calibration error's n - 1).
inline bool counts_scale_free(const std::vector<MetricSpec>& metrics) {
  for (const MetricSpec& m : metrics) {
    if (m.kind == MetricKind::naurc || m.kind == MetricKind::prr ||
        m.kind == MetricKind::debiased_l2_ce ||
        (m.kind == MetricKind::eaurc && !m.asymptotic))
      return false;
  }
  return true;
}

inline MetricSpec metric_spec(MetricKind kind,
                              Estimator est = Estimator::alpha) {
  MetricSpec s;
  s.kind = kind;
  s.estimator = est;
  return s;
}

// ECE = sum_b (n_b / n) |acc_b - conf_b| over non-empty bins, computed as
// calibration_errors() in binning.h does.
inline double ece_value(const BinVectors& bins) {
  double total = 0.0, acc = 0.0;
  for (std::size_t b = 0; b < bins.count.size(); ++b) {
    const double nb = bins.count[b];
    if (!(nb > 0.0)) continue;
    const double gap = std::fabs(bins.sum_y[b] / nb - bins.sum_x[b] / nb);
    total += nb;
    acc += nb * gap;
  }
  if (!(total > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return acc / total;
}

// A replicate's sorted cases with its counts (counts[order[k] * stride] is
// the count of the k-th sorted case), the residuals correct - confidence in
// sorted order (for the smooth ECE) and the workspaces of the evaluations.
// The CORP decomposition is computed once per replicate and kept for its
// four parts.
struct ReplicateCases {
  SortedCases sorted;
  const double* resid = nullptr;
  const double* counts = nullptr;
  std::size_t stride = 1;
  std::vector<double>* work = nullptr;  // 4 workspaces
  mutable bool corp_done = false;
  mutable CorpScore corp_score_done = CorpScore::brier;
  mutable CorpDecomposition corp;
};

// A replicate's sorted cases with their classes (0-based, K of them) and
// counts, for the balanced metrics.
struct ReplicateClasses {
  SortedCases sorted;
  const int* cls = nullptr;
  std::size_t K = 0;
  const double* counts = nullptr;
  std::size_t stride = 1;
  BalancedWork* work = nullptr;
};

struct ReplicateGroups {
  const GroupVectors& by_score;
  const GroupVectors* by_loss;      // null unless a metric needs it
  double n;
  const BinVectors* bins = nullptr;  // null unless a metric needs it
  const ReplicateCases* cases = nullptr;  // null unless a metric needs it
  const ReplicateClasses* classes = nullptr;  // likewise
};

inline const CorpDecomposition& replicate_corp(const ReplicateCases& c,
                                               CorpScore s) {
  if (!c.corp_done || c.corp_score_done != s) {
    c.corp = corp_replicate(c.sorted, c.counts, c.stride, s, c.work[0],
                            c.work[1], c.work[2]);
    c.corp_done = true;
    c.corp_score_done = s;
  }
  return c.corp;
}

// The metrics that need only the tie groups of the score (any group source
// of ties.h) and their total count n: one definition for the in-memory
// engine (src/rcpp_metrics.cpp) and the replicates (evaluate_metric()).
// False for the others: those of the oracle order or of a shared AURC
// (each engine shares those between metrics), the calibration errors and
// the balanced metrics. `achieved`: the coverage risk_at_coverage reached.
template <class Source>
bool score_group_metric(const MetricSpec& m, const Source& groups, double n,
                        double& value, double& achieved) {
  switch (m.kind) {
    case MetricKind::augrc:
      value = m.step ? augrc_step(groups, n) : augrc_trapezoid(groups, n);
      return true;
    case MetricKind::failure_auroc:
      value = failure_auroc(groups);
      return true;
    case MetricKind::failure_aupr:
      value = failure_aupr(groups);
      return true;
    case MetricKind::success_aupr:
      value = success_aupr(groups);
      return true;
    case MetricKind::risk_at_coverage:
      // "risk_at_coverage@1": the lowest risk at or above the coverage
      value = m.lowest_risk
                  ? risk_at_coverage_lowest(groups, n, m.coverage, achieved)
                  : risk_at_coverage(groups, n, m.coverage, achieved);
      return true;
    case MetricKind::coverage_at_risk:
      value = coverage_at_risk(groups, n, m.risk);
      return true;
    case MetricKind::partial_aurc:
      value = partial_aurc(groups, n, m.lo, m.hi);
      return true;
    case MetricKind::partial_augrc:
      value = partial_augrc(groups, n, m.lo, m.hi);
      return true;
    case MetricKind::fpr_at_tpr:
      value = fpr_at_tpr(groups, m.tpr);
      return true;
    case MetricKind::achievable_aurc:
      value = achievable_aurc(groups, n);
      return true;
    default:
      return false;
  }
}

// One metric of one replicate. NaN where the metric is undefined (one
// class, nothing drawn) or where the groups it needs were not given.
inline double evaluate_metric(const MetricSpec& m, const ReplicateGroups& g) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (m.by_loss() && !g.by_loss) return nan;
  if (m.by_bins() && !g.bins) return nan;
  if (m.by_cases() && !g.cases) return nan;
  if (m.by_classes() && !g.classes) return nan;
  switch (m.kind) {
    case MetricKind::aurc:
      return aurc_estimate(m.estimator, g.by_score, g.n);
    case MetricKind::eaurc:
      if (m.asymptotic)
        return aurc_estimate(m.estimator, g.by_score, g.n) -
               aurc_asymptotic_optimum(total_loss(g.by_score) / g.n);
      return aurc_estimate(m.estimator, g.by_score, g.n) -
             aurc_oracle(m.estimator, *g.by_loss, g.n);
    case MetricKind::eaugrc: {
      const double err = total_loss(g.by_score) / g.n;
      return augrc_trapezoid(g.by_score, g.n) - 0.5 * err * err;
    }
    case MetricKind::naurc:
      if (loss_is_constant(*g.by_loss))
        return std::numeric_limits<double>::quiet_NaN();
      return naurc_value(aurc_estimate(m.estimator, g.by_score, g.n),
                         aurc_oracle(m.estimator, *g.by_loss, g.n),
                         total_loss(g.by_score) / g.n);
    case MetricKind::ece:
      return ece_value(*g.bins);
    case MetricKind::mce:
      return mce_value(*g.bins);
    case MetricKind::debiased_l2_ce:
      return debiased_l2_value(*g.bins);
    case MetricKind::smooth_ece:
      return smooth_ece_replicate(g.cases->sorted, g.cases->resid,
                                  g.cases->counts, g.cases->stride, m.smooth,
                                  g.cases->work[3]);
    case MetricKind::corp_mean_score:
      return replicate_corp(*g.cases, m.corp).mean_score;
    case MetricKind::corp_mcb:
      return replicate_corp(*g.cases, m.corp).mcb;
    case MetricKind::corp_dsc:
      return replicate_corp(*g.cases, m.corp).dsc;
    case MetricKind::corp_unc:
      return replicate_corp(*g.cases, m.corp).unc;
    case MetricKind::mean_loss:
      return total_loss(g.by_score) / g.n;
    case MetricKind::auarc:
      return 1.0 - aurc_estimate(m.estimator, g.by_score, g.n);
    case MetricKind::prr:
      // (position ties need the cases: NaN on group vectors)
      return prr_value(g.by_score, *g.by_loss, g.n, m.max_rejection,
                       m.prr_ties);
    case MetricKind::aurc_ba:
      return aurc_ba_sorted(g.classes->sorted, g.classes->cls, g.classes->K,
                            g.classes->counts, g.classes->stride,
                            *g.classes->work);
    case MetricKind::augrc_ba:
      return augrc_ba_sorted(g.classes->sorted, g.classes->cls, g.classes->K,
                             g.classes->counts, g.classes->stride,
                             *g.classes->work);
    default: {
      double value = nan, achieved;
      score_group_metric(m, g.by_score, g.n, value, achieved);
      return value;
    }
  }
}

}  // namespace aurc

#endif
