// The interval of coverage at risk by test inversion (Woodruff's interval
// of a quantile, carried over to the crossing of the risk curve).
//
// Coverage at risk r is the largest coverage U_g / N whose accepted risk is
// at most r, that is whose excess
//   D_g = (1/N) sum_{s_i >= s_g} w_i (loss_i - r)
// is at most 0 (groups g of tied scores, in descending score order). At the
// true threshold q the excess has mean 0 and standard error se(h), h_i =
// 1(s_i >= q) (loss_i - r), so the thresholds whose excess lies within
// +- z se(h) are those a level-(1 - alpha) test does not reject. The
// interval runs from the largest coverage with excess <= -z se(h) to the
// largest with excess <= +z se(h): the estimator's own rule with 0 replaced
// by -+ z se(h). It needs no density of the scores, stays valid where the
// threshold is a large tie group (the coverage then jumps to a neighbouring
// group boundary) and respects the [0, 1] range. se(h) comes from the
// influence values of mean(h) (strata and clusters as for every metric).
#ifndef AURC_CORE_CI_WORKING_POINT_H
#define AURC_CORE_CI_WORKING_POINT_H

#include <cstddef>
#include <vector>

#include "influence_kernels.h"
#include "ties.h"

namespace aurc {

// Coverage and excess after each group, highest scores first.
struct ExcessCurve {
  std::vector<double> coverage, excess;
};

inline void coverage_excess_curve(const GroupVectors& gv, double N,
                                  double risk, ExcessCurve& out) {
  out.coverage.clear();
  out.excess.clear();
  out.coverage.reserve(gv.count.size());
  out.excess.reserve(gv.count.size());
  double above = 0.0, loss_above = 0.0;
  gv.descending([&](double c, double l) {
    if (!(c > 0.0)) return;
    above += c;
    loss_above += l;
    out.coverage.push_back(above / N);
    out.excess.push_back((loss_above - risk * above) / N);
  });
}

// Largest coverage whose excess is at most `delta`; 0 when none is.
inline double largest_coverage_within(const ExcessCurve& curve, double delta) {
  double best = 0.0;
  for (std::size_t k = 0; k < curve.coverage.size(); ++k) {
    if (curve.excess[k] <= delta && curve.coverage[k] > best) {
      best = curve.coverage[k];
    }
  }
  return best;
}

// Group-level form of h - mean(h) (see scatter_groups()): h_i = 1(s_i >=
// s_q) (loss_i - r) with q the threshold group of the estimate, or the
// highest-score group when no coverage qualifies. `estimate` is the
// coverage at risk.
inline void excess_group_influence(const GroupVectors& gv, double N,
                                   double risk, GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  const CoverageAtRiskFit fit = fit_coverage_at_risk(gv, N, risk);
  out.estimate = fit.coverage;
  const std::size_t q = fit.threshold == G ? fit.top : fit.threshold;
  for (std::size_t g = 0; g < G; ++g) {
    const bool in = q < G && g >= q;
    out.a[g] = in ? -risk : 0.0;
    out.b[g] = in ? 1.0 : 0.0;
  }
}

}  // namespace aurc

#endif
