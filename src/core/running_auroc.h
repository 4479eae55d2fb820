// The running AUROC of selective_curve(metric = "auroc")
// (R/curve-selective-metrics.R): the weighted AUROC of the estimate for
// truth == 1 among the first rows, at every tie-group end of the score.
// Each pair enters when the later of its two rows is added, with
// w_i w_j (1(e_pos > e_neg) + 1(equal) / 2); two Fenwick trees hold the
// weights added so far of the positives and the negatives by rank of the
// estimate. O(n log n). No R headers.
#ifndef AURC_CORE_RUNNING_AUROC_H
#define AURC_CORE_RUNNING_AUROC_H

#include <cstddef>
#include <limits>

#include "fenwick.h"

namespace aurc {

// truth[k]: 1 for the event (else not); rank[k]: 1-based rank of the
// estimate, 1..n_ranks; w[k]: the weight; ends[g]: 1-based, increasing row
// positions (the caller checks all of these). Writes one value per end to
// out (NaN without both classes). `check()` is called every 65536 rows.
template <class Check>
void running_auroc(const double* truth, const int* rank, const double* w,
                   std::size_t n, const int* ends, std::size_t n_ends,
                   std::size_t n_ranks, double* out, Check check) {
  Fenwick pos_tree(n_ranks), neg_tree(n_ranks);
  double num = 0.0, total_pos = 0.0, total_neg = 0.0;
  std::size_t g = 0;
  for (std::size_t k = 0; k < n && g < n_ends; ++k) {
    if ((k & 0xffff) == 0) check();
    const std::size_t i = static_cast<std::size_t>(rank[k]);
    const bool pos = truth[k] == 1;
    const Fenwick& other = pos ? neg_tree : pos_tree;
    const double upto = other.prefix(i);
    const double below = other.prefix(i - 1);
    if (pos) {
      num = num + w[k] * (below + (upto - below) / 2);
      total_pos = total_pos + w[k];
      pos_tree.add(i, w[k]);
    } else {
      num = num + w[k] * (total_pos - upto + (upto - below) / 2);
      total_neg = total_neg + w[k];
      neg_tree.add(i, w[k]);
    }
    if (k + 1 == static_cast<std::size_t>(ends[g])) {
      out[g] = (total_pos > 0 && total_neg > 0)
                   ? num / (total_pos * total_neg)
                   : std::numeric_limits<double>::quiet_NaN();
      ++g;
    }
  }
}

}  // namespace aurc

#endif
