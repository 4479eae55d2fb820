// The risk-coverage curve and working points from a group source (DEFINITIONS
// Secs. 3, 4; see ties.h).
//
// At each distinct threshold t, from the highest score down, the accepted
// set is {s >= t}; with weighted counts
//   n_accepted_t = sum_i w_i 1[s_i >= t],  coverage_t = n_accepted_t / n,
//   selective_risk_t = sum_i w_i loss_i 1[s_i >= t] / n_accepted_t,
//   generalized_risk_t = sum_i w_i loss_i 1[s_i >= t] / n.
// Groups with zero count hold no sample and are not thresholds.
#ifndef AURC_CORE_CURVE_H
#define AURC_CORE_CURVE_H

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace aurc {

// Running sums per group, descending, one entry per group of the source
// (zero-count groups included, so entries line up with the source's groups;
// callers drop those whose count is zero).
struct CurveSums {
  std::vector<double> count, accepted, loss_accepted;
};

template <class Source>
void rc_curve_sums(const Source& src, CurveSums& out) {
  out.count.clear();
  out.accepted.clear();
  out.loss_accepted.clear();
  double above = 0.0, loss_above = 0.0;
  src.descending([&](double c, double s) {
    above += c;
    loss_above += s;
    out.count.push_back(c);
    out.accepted.push_back(above);
    out.loss_accepted.push_back(loss_above);
  });
}

// Selective risk at the largest threshold whose coverage is >= `coverage`:
// the smallest tie-closed accepted set covering at least that fraction.
// Writes the achieved coverage. NaN when n is not positive.
template <class Source>
double risk_at_coverage(const Source& src, double n, double coverage,
                        double& achieved) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  achieved = nan;
  if (!(n > 0.0)) return nan;
  double above = 0.0, loss_above = 0.0, risk = nan;
  bool found = false;
  src.descending([&](double c, double s) {
    if (found || !(c > 0.0)) return;
    above += c;
    loss_above += s;
    if (above / n >= coverage) {
      found = true;
      risk = loss_above / above;
      achieved = above / n;
    }
  });
  return risk;
}

// The largest coverage among thresholds whose selective risk is <= `risk`;
// 0 when there is none. NaN when n is not positive.
template <class Source>
double coverage_at_risk(const Source& src, double n, double risk) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double above = 0.0, loss_above = 0.0, best = 0.0;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    above += c;
    loss_above += s;
    if (loss_above / above <= risk) best = above / n;
  });
  return best;
}

}  // namespace aurc

#endif
