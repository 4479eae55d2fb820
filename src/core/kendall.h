// The row sums behind Kendall's tau-b and its influence values
// (R/ci-influence-llm-correlation.R) and its bootstrap replicates
// (R/ci-llm-regression.R): for every output i,
// c_i = sum_j w_j sign(x_i - x_j) sign(y_i - y_j), in O(n log n) time and
// O(n) memory by two passes of a Fenwick tree over the ranks of y. With
// the weights w a replicate's counts over the outputs sorted once, no
// replicate is sorted again. No R headers.
#ifndef AURC_CORE_KENDALL_H
#define AURC_CORE_KENDALL_H

#include <cstddef>

#include "fenwick.h"

namespace aurc {

// `group[k]`: the tie group of x of the k-th output in ascending order of x
// (equal for equal x); `y_rank[k]`: the dense rank of its y, 1..n_y (the
// caller checks the range); `w[k]` its weight (null: 1 each). Writes c in
// that order to out[0..n-1].
// The ascending pass counts the outputs of smaller x (sign(x_i - x_j) =
// +1), the descending pass those of larger x (-1); a tie group is queried
// before it is inserted, so tied x count 0.
inline void kendall_row_sums(const int* group, const int* y_rank,
                             std::size_t n, std::size_t n_y, double* out,
                             const double* w = nullptr) {
  for (std::size_t i = 0; i < n; ++i) out[i] = 0.0;
  for (int pass = 0; pass < 2; ++pass) {
    Fenwick tree(n_y);  // weights of the y ranks inserted so far
    double inserted = 0.0;
    const double sign = pass == 0 ? 1.0 : -1.0;
    auto at = [&](std::size_t m) { return pass == 0 ? m : n - 1 - m; };
    std::size_t k = 0;
    while (k < n) {
      std::size_t end = k + 1;
      while (end < n && group[at(end)] == group[at(k)]) ++end;
      for (std::size_t m = k; m < end; ++m) {
        const std::size_t i = at(m);
        const std::size_t r = static_cast<std::size_t>(y_rank[i]);
        const double below = tree.prefix(r - 1);
        const double above = inserted - tree.prefix(r);
        out[i] += sign * (below - above);
      }
      for (std::size_t m = k; m < end; ++m) {
        const double wi = w ? w[at(m)] : 1.0;
        tree.add(static_cast<std::size_t>(y_rank[at(m)]), wi);
        inserted += wi;
      }
      k = end;
    }
  }
}

}  // namespace aurc

#endif
