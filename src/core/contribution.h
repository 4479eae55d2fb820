// Contribution of one failure to AURC and AUGRC by its ranking position
// (Traub et al. 2024, App. A.1.1, Fig. 2a; DEFINITIONS Sec. 4). For one failure
// (loss 1) at descending position t (1 = most confident) among n samples
// without ties:
//   alpha AURC       (H_n - H_{t-1}) / n
//   trapezoid AUGRC  (n - t + 1/2) / n^2
//   step AUGRC       (n - t + 1) / n^2
#ifndef AURC_CORE_CONTRIBUTION_H
#define AURC_CORE_CONTRIBUTION_H

#include <cstddef>

namespace aurc {

// Fills aurc_c, augrc_trap, augrc_step (each of length n, position t at
// index t - 1). H_n - H_{t-1} = sum_{k=t}^n 1/k is summed from the small
// terms up, so it is accurate for every t.
inline void failure_contributions(std::size_t n, double* aurc_c,
                                  double* augrc_trap, double* augrc_step) {
  const double nd = static_cast<double>(n);
  double tail = 0.0;
  for (std::size_t t = n; t >= 1; --t) {
    const double td = static_cast<double>(t);
    tail += 1.0 / td;
    aurc_c[t - 1] = tail / nd;
    augrc_trap[t - 1] = (nd - td + 0.5) / (nd * nd);
    augrc_step[t - 1] = (nd - td + 1.0) / (nd * nd);
  }
}

}  // namespace aurc

#endif
