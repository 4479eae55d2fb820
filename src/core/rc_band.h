// The risk-coverage curve of bootstrap replicates on a grid of coverages,
// for the simultaneous bands of rc_band() (R/curve-rc-band.R). A replicate
// is a vector of case counts (ci_bootstrap.h); its tie groups come from one
// sequential pass over the presorted column (replicate_groups_block(),
// bootstrap.h), so no replicate sorts.
//
// The curve between its points. The curve of a data set has a point at
// every tie-closed threshold (rc_curve()). Between two points, accepting a
// share of the next tie group is taken as accepting that share of its
// cases at random: the accepted loss grows linearly in the accepted count,
// by the group's mean loss. At coverage c (accepted count a = c N of the
// total count N) with groups g = 1, 2, ... in descending score order,
// cumulative counts N_g and loss sums A_g, and g the group with
// N_{g-1} < a <= N_g:
//   accepted loss      A(c) = A_{g-1} + (a - N_{g-1}) L_g / W_g
//   generalized risk   A(c) / N
//   selective risk     A(c) / a
// (W_g, L_g: the group's count and loss sum). At the curve's points this
// is the tie-closed curve exactly; between them the generalized risk is
// the straight line of the trapezoid AUGRC. The risk is continuous in the
// counts, which a bootstrap needs: the tie-closed step would jump as a tie
// group's share of a replicate crosses the coverage.
#ifndef AURC_CORE_RC_BAND_H
#define AURC_CORE_RC_BAND_H

#include <cstddef>
#include <vector>

#include "bootstrap.h"
#include "interrupt.h"

namespace aurc {

// The risks of one replicate's groups `g` (ascending score, as
// replicate_groups_block() gives them) at the K coverages of `grid`
// (ascending, in (0, 1]); writes sel[k * stride] and gen[k * stride].
inline void rc_band_values(const GroupVectors& g, const double* grid,
                           std::size_t K, double* sel, double* gen,
                           std::size_t stride) {
  double total = 0.0;
  for (double c : g.count) total += c;
  std::size_t next = g.count.size();  // groups not yet entered: [0, next)
  double before_n = 0.0, before_l = 0.0;  // the groups before the current
  double cur_n = 0.0, cur_l = 0.0;        // the current group
  for (std::size_t k = 0; k < K; ++k) {
    const double a = grid[k] * total;
    while (before_n + cur_n < a && next > 0) {
      before_n += cur_n;
      before_l += cur_l;
      --next;
      cur_n = g.count[next];
      cur_l = g.loss[next];
    }
    double part = a - before_n;  // the share of the current group accepted
    if (part > cur_n) part = cur_n;  // rounding at coverage 1
    if (part < 0.0) part = 0.0;
    const double acc = before_l + (cur_n > 0.0 ? part * (cur_l / cur_n) : 0.0);
    sel[k * stride] = a > 0.0 ? acc / a : 0.0;
    gen[k * stride] = total > 0.0 ? acc / total : 0.0;
  }
}

// The risks of B replicates (counts from `fill`, a filler of
// ci_bootstrap.h, kBlock replicates at a time) of the column `col` over
// `rows` case positions. out: B x K x 2, column-major (replicate fastest;
// the selective risk first, then the generalized risk).
template <class Fill, class Check = NoCheck, class Progress = NoProgress>
void rc_band_replicates(const RankingColumn& col, std::size_t rows,
                        std::size_t B, const double* grid, std::size_t K,
                        const Fill& fill, double* out, Check check = Check(),
                        Progress progress = Progress()) {
  std::vector<double> counts(rows * kBlock, 0.0);
  std::vector<GroupVectors> groups(kBlock);
  std::size_t since = 0;
  for (std::size_t b0 = 0; b0 < B; b0 += kBlock) {
    const std::size_t nb = B - b0 > kBlock ? kBlock : B - b0;
    fill(b0, nb, counts.data());
    replicate_groups_block(col, counts.data(), groups.data());
    for (std::size_t r = 0; r < nb; ++r)
      rc_band_values(groups[r], grid, K, out + b0 + r, out + b0 + r + B * K,
                     B);
    since += rows * nb;
    if (since >= (std::size_t(1) << 22)) {  // a fraction of a second
      since = 0;
      check();
      progress(b0 + nb);
    }
  }
  progress(B);
}

}  // namespace aurc

#endif
