// AUGRC and failure AUROC from a group source (DEFINITIONS Sec. 4; see ties.h).
//
// The generalized risk at threshold t is the accepted loss over all n
// samples, sum_i loss_i 1[s_i >= t] / n. Its area under the curve over
// coverage (Traub et al. 2024):
//   trapezoid  points (0, 0) and (coverage_t, generalized_risk_t) joined by
//              straight lines; equals (1/n^2) sum_i (mid_i - 1/2) loss_i
//   step       (1/n) sum_j generalized_risk(s_j) = (1/n^2) sum_i r_i loss_i,
//              which is the "sele" AURC estimator
// Failure AUROC treats the loss as a 0/1 failure indicator:
//   P(s_correct > s_failure) + 1/2 P(s_correct = s_failure).
#ifndef AURC_CORE_AUGRC_H
#define AURC_CORE_AUGRC_H

#include <limits>

#include "aurc.h"

namespace aurc {

template <class Source>
double augrc_trapezoid(const Source& src, double n) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double loss_above = 0.0, acc = 0.0;
  src.descending([&](double c, double s) {
    // trapezoid of width c/n between heights loss_above/n and (.. + s)/n
    acc += c * (loss_above + 0.5 * s);
    loss_above += s;
  });
  return acc / (n * n);
}

template <class Source>
double augrc_step(const Source& src, double n) {
  return aurc_estimate(Estimator::sele, src, n);
}

// The loss must be 0/1 (weighted sums are then failure counts). NaN when
// either class is empty.
template <class Source>
double failure_auroc(const Source& src) {
  double fail_below = 0.0, ok_total = 0.0, acc = 0.0;
  src.ascending([&](double c, double f) {
    const double ok = c - f;
    acc += ok * (fail_below + 0.5 * f);
    fail_below += f;
    ok_total += ok;
  });
  const double denom = ok_total * fail_below;
  if (!(denom > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return acc / denom;
}

}  // namespace aurc

#endif
