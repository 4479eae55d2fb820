// The AURC estimators from a group source (DEFINITIONS Sec. 2; see ties.h).
//
// Each estimator is one pass over the tie groups. The alpha estimator and
// the trapezoid rule walk from the highest score down, so the counts above a
// threshold are exact running sums; the rank-only weights walk up. A
// bootstrap replicate only changes the counts: it calls these again on the
// presorted data, never sorting again.
#ifndef AURC_CORE_AURC_H
#define AURC_CORE_AURC_H

#include <cstddef>
#include <limits>

#include "rank_weights.h"
#include "ties.h"

namespace aurc {

// Selective risk averaged over the n thresholds (Eq. 10): a threshold group
// of count c with accepted count `above` and accepted loss `loss_above`
// contributes c * loss_above / above.
template <class Source>
double aurc_alpha(const Source& src, double n) {
  double above = 0.0, loss_above = 0.0, acc = 0.0;
  src.descending([&](double c, double s) {
    above += c;
    loss_above += s;
    if (c > 0.0) acc += c * loss_above / above;
  });
  return acc / n;
}

template <class Source>
double aurc_rank_weighted(Estimator est, const Source& src, double n) {
  double below = 0.0, acc = 0.0;
  src.ascending([&](double c, double s) {
    below += c;
    acc += rank_weight(est, below, n) * s;
  });
  return acc / n;
}

// Trapezoid rule over the selective risk curve (coverage_t, risk_t) at every
// distinct threshold t from the highest score down, extended flat from the
// smallest coverage to coverage 0: the convention of the AUGRC authors'
// public code. Groups with zero count are not thresholds and are skipped.
template <class Source>
double aurc_trapezoid(const Source& src, double n) {
  double area = 0.0, above = 0.0, loss_above = 0.0, prev_risk = 0.0;
  bool first = true;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    above += c;
    loss_above += s;
    const double risk = loss_above / above;
    // the first point's width is its coverage: the flat extension to 0
    area += (c / n) * (first ? risk : 0.5 * (risk + prev_risk));
    first = false;
    prev_risk = risk;
  });
  return area;
}

// AURC of one estimator; n is the total (weighted) count of the source.
// NaN when n is not positive.
template <class Source>
double aurc_estimate(Estimator est, const Source& src, double n) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  switch (est) {
    case Estimator::alpha: return aurc_alpha(src, n);
    case Estimator::trapezoid: return aurc_trapezoid(src, n);
    default: return aurc_rank_weighted(est, src, n);
  }
}

}  // namespace aurc

#endif
