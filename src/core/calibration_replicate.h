// Calibration errors of one bootstrap replicate given as case counts over
// presorted data (DEFINITIONS Secs. 11, 13): the binned MCE and the debiased l2
// calibration error from the replicate's per-bin sums, the CORP score
// decomposition from its tie groups, and the smooth ECE from its per-case
// weights. No replicate sorts: the cases were sorted once by confidence
// (the column's order); a replicate is a sequential pass over them.
//
// Every value is the one the package's _vec function gives on the data with
// each row repeated by its count:
//   mce             max over non-empty bins of |acc_b - conf_b| (mce_vec)
//   debiased_l2     sqrt(max(0, sum_b (n_b / n) e_b)), e_b = (conf_b -
//                   acc_b)^2 - acc_b (1 - acc_b) / (n_b - 1) for n_b >= 2,
//                   0 otherwise (ece_vec(debias = TRUE), Kumar et al. 2019)
//   corp            mean score, MCB, DSC, UNC of corp_decompose_sorted()
//                   (pav.h), the tie groups' weights being the summed counts
//   smooth ECE      smooth_ece_sigma() / smooth_ece_search() (smooth_ece.h)
//                   with the counts as the case weights; the bandwidth is
//                   searched again in every replicate unless fixed, so the
//                   interval accounts for the bandwidth choice.
#ifndef AURC_CORE_CALIBRATION_REPLICATE_H
#define AURC_CORE_CALIBRATION_REPLICATE_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "interrupt.h"
#include "pav.h"
#include "smooth_ece.h"

namespace aurc {

// Per-bin sums of one replicate: count, count-weighted confidence and
// count-weighted correctness (1 - loss), bins in ascending confidence.
struct BinVectors {
  std::vector<double> count, sum_x, sum_y;
};

// max_b |acc_b - conf_b| over non-empty bins (NaN when every bin is empty).
inline double mce_value(const BinVectors& bins) {
  double out = -1.0;
  for (std::size_t b = 0; b < bins.count.size(); ++b) {
    const double nb = bins.count[b];
    if (!(nb > 0.0)) continue;
    const double gap = std::fabs(bins.sum_y[b] / nb - bins.sum_x[b] / nb);
    if (gap > out) out = gap;
  }
  if (out < 0.0) return std::numeric_limits<double>::quiet_NaN();
  return out;
}

// Kumar et al.'s debiased l2 calibration error over the bins.
inline double debiased_l2_value(const BinVectors& bins) {
  double total = 0.0;
  for (double c : bins.count) total += c;
  if (!(total > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double acc = 0.0;
  for (std::size_t b = 0; b < bins.count.size(); ++b) {
    const double nb = bins.count[b];
    if (!(nb >= 2.0)) continue;
    const double a = bins.sum_y[b] / nb, c = bins.sum_x[b] / nb;
    const double e = (c - a) * (c - a) - a * (1.0 - a) / (nb - 1.0);
    acc += nb / total * e;
  }
  return std::sqrt(acc > 0.0 ? acc : 0.0);
}

// The cases of a column in ascending confidence: case position of each
// sorted position, the confidence and the loss (correct = 1 - loss) in that
// order, and the exclusive ends of the tie groups.
struct SortedCases {
  const std::size_t* order = nullptr;
  const double* score = nullptr;
  const double* loss = nullptr;
  const std::size_t* group_end = nullptr;
  std::size_t n_groups = 0;
  std::size_t n = 0;
};

// The CORP decomposition of one replicate: counts[order[k] * stride] is the
// count of the k-th sorted case. The same sums in the same order as
// corp_decompose_sorted() on the rows repeated (outcomes are 0/1 and counts
// whole, so the group sums are exact), then the same PAV stack.
inline CorpDecomposition corp_replicate(const SortedCases& d,
                                        const double* counts,
                                        std::size_t stride, CorpScore s,
                                        std::vector<double>& bw,
                                        std::vector<double>& bs,
                                        std::vector<double>& bm) {
  bw.clear();
  bs.clear();
  bm.clear();
  double total = 0.0, ones = 0.0, score = 0.0;
  std::size_t k = 0;
  for (std::size_t g = 0; g < d.n_groups; ++g) {
    const std::size_t end = d.group_end[g];
    const double xv = d.score[k];
    double gw = 0.0, gs = 0.0;
    for (; k < end; ++k) {
      const double w = counts[d.order[k] * stride];
      gw += w;
      gs += w * (1.0 - d.loss[k]);
    }
    if (!(gw > 0.0)) continue;
    total += gw;
    ones += gs;
    const double zeros = gw - gs;
    if (gs > 0) score += gs * corp_score(xv, 1.0, s);
    if (zeros > 0) score += zeros * corp_score(xv, 0.0, s);
    pav_push(bw, bs, bm, gw, gs);
  }
  CorpDecomposition out;
  if (!(total > 0.0)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.mean_score = out.mcb = out.dsc = out.unc = nan;
    return out;
  }
  double sc = 0.0;
  for (std::size_t b = 0; b < bm.size(); ++b)
    sc += bw[b] * corp_entropy(bm[b], s);
  out.mean_score = score / total;
  sc /= total;
  out.unc = corp_entropy(ones / total, s);
  out.mcb = out.mean_score - sc;
  out.dsc = out.unc - sc;
  return out;
}

// Options of the smooth ECE: a fixed bandwidth, or (sigma NaN) the fixed
// point found by `steps` bisection steps with floor `eps`.
struct SmoothOptions {
  double sigma = std::numeric_limits<double>::quiet_NaN();
  SmoothMethod method = SmoothMethod::fine;
  double eps = 0.001;
  int steps = 10;
};

// The smooth ECE of one replicate. `resid` holds correct - confidence in
// sorted order (prepared once per column); `w` is a workspace of n doubles.
inline double smooth_ece_replicate(const SortedCases& d, const double* resid,
                                   const double* counts, std::size_t stride,
                                   const SmoothOptions& o,
                                   std::vector<double>& w) {
  w.resize(d.n);
  double total = 0.0;
  for (std::size_t k = 0; k < d.n; ++k) {
    w[k] = counts[d.order[k] * stride];
    total += w[k];
  }
  if (!(total > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  SmoothData sd;
  sd.f = d.score;
  sd.r = resid;
  sd.w = w.data();
  sd.n = d.n;
  NoCheck check;
  if (std::isnan(o.sigma))
    return smooth_ece_search(sd, total, o.method, o.eps, o.steps, check)
        .value;
  return smooth_ece_sigma(sd, total, o.sigma, o.method, check);
}

}  // namespace aurc

#endif
