// The package's metrics evaluated on one resampled data set given by its
// groups (SPEC Secs. 2, 4, 7, 8, 11): the one description of "a metric with
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
#include "metric_name.h"
#include "oracle.h"
#include "partial.h"
#include "working_points.h"
#include "ties.h"

namespace aurc {

enum class MetricKind {
  aurc,
  augrc,
  failure_auroc,
  failure_aupr,
  eaurc,
  eaugrc,
  naurc,
  risk_at_coverage,
  coverage_at_risk,
  ece,
  mce,
  debiased_l2_ce,
  smooth_ece,
  corp_mean_score,
  corp_mcb,
  corp_dsc,
  corp_unc,
  mean_loss,
  auarc,
  prr,
  partial_aurc,
  partial_augrc,
  fpr_at_tpr,
  achievable_aurc,
  aurc_ba,
  augrc_ba
};

inline bool parse_metric_kind(const std::string& name, MetricKind& out) {
  static const struct {
    const char* name;
    MetricKind kind;
  } table[] = {{"aurc", MetricKind::aurc},
               {"augrc", MetricKind::augrc},
               {"failure_auroc", MetricKind::failure_auroc},
               {"failure_aupr", MetricKind::failure_aupr},
               {"eaurc", MetricKind::eaurc},
               {"eaugrc", MetricKind::eaugrc},
               {"naurc", MetricKind::naurc},
               {"risk_at_coverage", MetricKind::risk_at_coverage},
               {"coverage_at_risk", MetricKind::coverage_at_risk},
               {"ece", MetricKind::ece},
               {"mce", MetricKind::mce},
               {"debiased_l2_ce", MetricKind::debiased_l2_ce},
               {"smooth_ece", MetricKind::smooth_ece},
               {"corp_mean_score", MetricKind::corp_mean_score},
               {"corp_mcb", MetricKind::corp_mcb},
               {"corp_dsc", MetricKind::corp_dsc},
               {"corp_unc", MetricKind::corp_unc},
               {"mean_loss", MetricKind::mean_loss},
               {"auarc", MetricKind::auarc},
               {"prr", MetricKind::prr},
               {"partial_aurc", MetricKind::partial_aurc},
               {"partial_augrc", MetricKind::partial_augrc},
               {"fpr_at_tpr", MetricKind::fpr_at_tpr},
               {"achievable_aurc", MetricKind::achievable_aurc},
               {"aurc_ba", MetricKind::aurc_ba},
               {"augrc_ba", MetricKind::augrc_ba}};
  for (const auto& e : table)
    if (name == e.name) {
      out = e.kind;
      return true;
    }
  return false;
}

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
    case MetricKind::augrc:
      return m.step ? augrc_step(g.by_score, g.n)
                    : augrc_trapezoid(g.by_score, g.n);
    case MetricKind::failure_auroc:
      return failure_auroc(g.by_score);
    case MetricKind::failure_aupr:
      return failure_aupr(g.by_score);
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
    case MetricKind::risk_at_coverage: {
      double achieved;
      if (m.lowest_risk)
        return risk_at_coverage_lowest(g.by_score, g.n, m.coverage, achieved);
      return risk_at_coverage(g.by_score, g.n, m.coverage, achieved);
    }
    case MetricKind::coverage_at_risk:
      return coverage_at_risk(g.by_score, g.n, m.risk);
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
      return prr_value(g.by_score, *g.by_loss, g.n, m.max_rejection);
    case MetricKind::partial_aurc:
      return partial_aurc(g.by_score, g.n, m.lo, m.hi);
    case MetricKind::partial_augrc:
      return partial_augrc(g.by_score, g.n, m.lo, m.hi);
    case MetricKind::fpr_at_tpr:
      return fpr_at_tpr(g.by_score, m.tpr);
    case MetricKind::achievable_aurc:
      return achievable_aurc(g.by_score, g.n);
    case MetricKind::aurc_ba:
      return aurc_ba_sorted(g.classes->sorted, g.classes->cls, g.classes->K,
                            g.classes->counts, g.classes->stride,
                            *g.classes->work);
    case MetricKind::augrc_ba:
      return augrc_ba_sorted(g.classes->sorted, g.classes->cls, g.classes->K,
                             g.classes->counts, g.classes->stride,
                             *g.classes->work);
  }
  return nan;
}

}  // namespace aurc

#endif
