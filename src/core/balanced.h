// The balanced-accuracy AURC and AUGRC of fd-shifts (R/metric-balanced.R
// states the definitions) on sorted cases with counts: the bootstrap
// replicates of selective_ci(truth =) and compare_scores(truth =).
//
// The cases are sorted by score ascending (SortedCases, with the ends of
// the tie groups); the k-th sorted case has the 0/1 loss loss[k], the class
// cls[k] (0-based) and the count counts[order[k] * stride] (a replicate's,
// or the case weights for the full data). Cases with count 0 are not there,
// nor are their classes: K is the number of classes with a positive count.
//
// * aurc_ba_sorted(): from the highest score down, each class keeps its
//   accepted count a_c and failures e_c; at the end of every tie group with
//   a case, the selective balanced risk (1/K) sum_{c: a_c > 0} e_c / a_c at
//   coverage (accepted count) / N; the trapezoid rule over those points,
//   extended flat to coverage 0.
// * augrc_ba_sorted(): the trapezoid AUGRC (augrc.h) of the losses scaled
//   by N / (K n_c), n_c the count of the case's class.
#ifndef AURC_CORE_BALANCED_H
#define AURC_CORE_BALANCED_H

#include <cstddef>
#include <limits>
#include <vector>

#include "augrc.h"
#include "calibration_replicate.h"
#include "ties.h"

namespace aurc {

struct BalancedWork {
  std::vector<double> n_c, acc, err;
  GroupVectors groups;
};

// Counts per class and in total; returns the number of classes present.
inline std::size_t class_counts(const SortedCases& d, const int* cls,
                                std::size_t K, const double* counts,
                                std::size_t stride, BalancedWork& w,
                                double& total) {
  w.n_c.assign(K, 0.0);
  total = 0.0;
  for (std::size_t k = 0; k < d.n; ++k) {
    const double c = counts[d.order[k] * stride];
    if (!(c > 0.0)) continue;
    w.n_c[static_cast<std::size_t>(cls[k])] += c;
    total += c;
  }
  std::size_t present = 0;
  for (double v : w.n_c) present += v > 0.0;
  return present;
}

inline double aurc_ba_sorted(const SortedCases& d, const int* cls,
                             std::size_t K, const double* counts,
                             std::size_t stride, BalancedWork& w) {
  double N = 0.0;
  const std::size_t present = class_counts(d, cls, K, counts, stride, w, N);
  if (!(N > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  w.acc.assign(K, 0.0);
  w.err.assign(K, 0.0);
  double term = 0.0, above = 0.0, area = 0.0, prev_cov = 0.0,
         prev_risk = 0.0;
  bool first = true;
  for (std::size_t g = d.n_groups; g-- > 0;) {
    const std::size_t begin = g ? d.group_end[g - 1] : 0,
                      end = d.group_end[g];
    bool any = false;
    for (std::size_t k = begin; k < end; ++k) {
      const double c = counts[d.order[k] * stride];
      if (!(c > 0.0)) continue;
      any = true;
      const std::size_t j = static_cast<std::size_t>(cls[k]);
      const double before = w.acc[j] > 0.0 ? w.err[j] / w.acc[j] : 0.0;
      w.acc[j] += c;
      w.err[j] += c * d.loss[k];
      term += w.err[j] / w.acc[j] - before;
      above += c;
    }
    if (!any) continue;
    const double risk = term / static_cast<double>(present);
    const double cov = above / N;
    area += (cov - prev_cov) * (first ? risk : 0.5 * (risk + prev_risk));
    first = false;
    prev_cov = cov;
    prev_risk = risk;
  }
  return area;
}

inline double augrc_ba_sorted(const SortedCases& d, const int* cls,
                              std::size_t K, const double* counts,
                              std::size_t stride, BalancedWork& w) {
  double N = 0.0;
  const std::size_t present = class_counts(d, cls, K, counts, stride, w, N);
  if (!(N > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  w.groups.count.clear();
  w.groups.loss.clear();
  std::size_t k = 0;
  for (std::size_t g = 0; g < d.n_groups; ++g) {
    double c = 0.0, s = 0.0;
    for (; k < d.group_end[g]; ++k) {
      const double ck = counts[d.order[k] * stride];
      if (!(ck > 0.0)) continue;
      const double n_c = w.n_c[static_cast<std::size_t>(cls[k])];
      c += ck;
      s += ck * (d.loss[k] * N / (static_cast<double>(present) * n_c));
    }
    if (c > 0.0) {
      w.groups.count.push_back(c);
      w.groups.loss.push_back(s);
    }
  }
  return augrc_trapezoid(w.groups, N);
}

}  // namespace aurc

#endif
