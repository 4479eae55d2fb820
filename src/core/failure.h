// Failure AUPR from a group source (DEFINITIONS Sec. 4; see ties.h).
//
// Average precision with failures as the positive class and -score as the
// ranking (Ding et al. 2020, Table 1): at every distinct threshold t, taken
// from the lowest score up, the flagged set is {s <= t};
//   AP = sum_k (Rec_k - Rec_{k-1}) Prec_k,
// Rec_k = flagged failures / all failures, Prec_k = flagged failures /
// flagged samples. Ties form one threshold. The loss must be 0/1 (weighted
// sums are then failure counts). NaN when either class is empty.
#ifndef AURC_CORE_FAILURE_H
#define AURC_CORE_FAILURE_H

#include <limits>

namespace aurc {

template <class Source>
double failure_aupr(const Source& src) {
  double below = 0.0, fail_below = 0.0, acc = 0.0;
  src.ascending([&](double c, double f) {
    if (!(c > 0.0)) return;
    below += c;
    fail_below += f;
    if (f > 0.0) acc += f * fail_below / below;
  });
  const double ok = below - fail_below;
  if (!(fail_below > 0.0) || !(ok > 0.0))
    return std::numeric_limits<double>::quiet_NaN();
  return acc / fail_below;
}

// Success AUPR (AUPR-In, AUPR-Success; Hendrycks & Gimpel 2017, Corbiere
// et al. 2019): average precision with the correct predictions as the
// positive class and the score as the ranking. At every distinct threshold
// t, taken from the highest score down, the accepted set is {s >= t};
//   AP = sum_k (Rec_k - Rec_{k-1}) Prec_k,
// Rec_k = accepted correct / all correct, Prec_k = accepted correct /
// accepted. Ties form one threshold. The loss must be 0/1; a group's
// correct count is its count minus its failures (exactly 0 for a group of
// failures: both sums add the same weights). NaN when either class is empty.
template <class Source>
double success_aupr(const Source& src) {
  double above = 0.0, ok_above = 0.0, acc = 0.0;
  src.descending([&](double c, double f) {
    if (!(c > 0.0)) return;
    const double ok = c - f;
    above += c;
    ok_above += ok;
    if (ok > 0.0) acc += ok * ok_above / above;
  });
  if (!(ok_above > 0.0) || !(above - ok_above > 0.0))
    return std::numeric_limits<double>::quiet_NaN();
  return acc / ok_above;
}

// Total weighted loss of a source (for binary losses: the failure count).
template <class Source>
double total_loss(const Source& src) {
  double s = 0.0;
  src.ascending([&](double, double l) { s += l; });
  return s;
}

}  // namespace aurc

#endif
