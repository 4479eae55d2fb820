// Working points of fd-shifts (Traub et al. 2024) beside the package's
// tie-closed ones (curve.h), from a group source in descending score order
// (ties.h: count c and loss sum s per tie group):
//
// * risk_at_coverage_lowest(): the lowest selective risk among the
//   thresholds whose coverage is at least `coverage` (fd-shifts'
//   get_working_point(target_cov = ) on its working points); of equal
//   risks, the largest coverage. Writes the coverage achieved.
// * fpr_at_tpr(): with correct predictions as the positive class and the
//   score as the ranking, the smallest false positive rate (accepted
//   failures / failures) among thresholds whose true positive rate
//   (accepted correct / correct) is at least `tpr` (fd-shifts' fpr@95tpr,
//   which compares with 0.9495); 0/1 losses. A relative tolerance of 1e-12
//   lets a rate of exactly `tpr` count despite rounding.
// * achievable_aurc(): the AURC of fd-shifts' dominant points, the vertices
//   of the upper convex hull of the ROC points (false positive rate,
//   true positive rate) of the tie groups, without (0, 0): every working
//   point a mixture of two dominant ones can beat is dropped, and the
//   curve between consecutive dominant points is interpolated as in
//   partial_aurc() (partial.h), i.e. the groups between two vertices are
//   merged into one. 0/1 losses; a constant loss gives its value.
#ifndef AURC_CORE_WORKING_POINTS_H
#define AURC_CORE_WORKING_POINTS_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "failure.h"
#include "partial.h"
#include "ties.h"

namespace aurc {

template <class Source>
double risk_at_coverage_lowest(const Source& src, double n, double coverage,
                               double& achieved) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  achieved = nan;
  if (!(n > 0.0)) return nan;
  double above = 0.0, loss_above = 0.0, best = nan;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    above += c;
    loss_above += s;
    if (above / n >= coverage) {
      const double risk = loss_above / above;
      if (!(risk > best)) {  // also the first (best NaN); ties: larger
        best = risk;
        achieved = above / n;
      }
    }
  });
  return best;
}

template <class Source>
double fpr_at_tpr(const Source& src, double tpr) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double total = 0.0, fail = 0.0;
  src.ascending([&](double c, double s) {
    total += c;
    fail += s;
  });
  const double ok = total - fail;
  if (!(fail > 0.0) || !(ok > 0.0)) return nan;
  double acc_ok = 0.0, acc_fail = 0.0, out = nan;
  bool found = false;
  src.descending([&](double c, double s) {
    if (found || !(c > 0.0)) return;
    acc_ok += c - s;
    acc_fail += s;
    if (acc_ok / ok >= tpr * (1.0 - 1e-12)) {
      found = true;
      out = acc_fail / fail;
    }
  });
  return out;
}

template <class Source>
double achievable_aurc(const Source& src, double n) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(n > 0.0)) return nan;
  // the ROC points of the tie groups, most confident first
  std::vector<double> x, y;  // accepted failures, accepted correct
  double acc_ok = 0.0, acc_fail = 0.0;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    acc_ok += c - s;
    acc_fail += s;
    x.push_back(acc_fail);
    y.push_back(acc_ok);
  });
  if (x.empty()) return nan;
  const double fail = acc_fail, ok = acc_ok;
  if (!(fail > 0.0) || !(ok > 0.0)) return fail / n;  // a flat curve
  // upper hull (monotone chain) from (0, 0); points are in increasing x and
  // y. Cross products in rates, so the turn test is scale free.
  std::vector<std::size_t> hull;  // indices into x, y; (0, 0) implicit
  auto px = [&](std::ptrdiff_t i) { return i < 0 ? 0.0 : x[i] / fail; };
  auto py = [&](std::ptrdiff_t i) { return i < 0 ? 0.0 : y[i] / ok; };
  for (std::size_t i = 0; i < x.size(); ++i) {
    while (!hull.empty()) {
      const std::ptrdiff_t b = static_cast<std::ptrdiff_t>(hull.back());
      const std::ptrdiff_t a =
          hull.size() >= 2 ? static_cast<std::ptrdiff_t>(hull[hull.size() - 2])
                           : -1;
      const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(i);
      const double cross = (px(b) - px(a)) * (py(k) - py(a)) -
                           (py(b) - py(a)) * (px(k) - px(a));
      if (cross >= 0.0) {
        hull.pop_back();  // b is below or on the chord a-k
      } else {
        break;
      }
    }
    hull.push_back(i);
  }
  // the groups between consecutive vertices merged into one each
  GroupVectors merged;  // ascending order for GroupVectors: fill, reverse
  double prev_c = 0.0, prev_s = 0.0;
  for (std::size_t v : hull) {
    const double c = x[v] + y[v], s = x[v];
    merged.count.push_back(c - prev_c);
    merged.loss.push_back(s - prev_s);
    prev_c = c;
    prev_s = s;
  }
  std::reverse(merged.count.begin(), merged.count.end());
  std::reverse(merged.loss.begin(), merged.loss.end());
  return partial_aurc(merged, n, 0.0, 1.0);
}

}  // namespace aurc

#endif
