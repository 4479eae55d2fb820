// Rank weights of the AURC estimators (Zhou et al. 2025; DEFINITIONS Sec. 2).
//
// Every estimator except the trapezoid rule is a rank-weighted risk
//   AURC = (1 / n) sum_i w_i loss_i,
// and tied samples share one weight, so weights are computed per tie group
// from the weighted group counts (ascending scores). With r the max rank and
// up_j = #{k : s_k >= s_j}:
//   alpha       sum_{j : s_j <= s_i} 1 / up_j   (the empirical AURC, Eq. 10)
//   alpha_prime -log(1 - r_i / (n + 1))         (Eq. 18)
//   sele        r_i / n                         (Eqs. 32-33)
//   two_sele    2 r_i / n
// Without ties alpha equals H_n - H_{n - r_i}; with ties it does not, and
// the literal sum is what is computed. Its mean is exactly 1 either way.
#ifndef AURC_CORE_RANK_WEIGHTS_H
#define AURC_CORE_RANK_WEIGHTS_H

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace aurc {

enum class Estimator { alpha, alpha_prime, sele, two_sele, trapezoid };

// Returns false for an unknown name.
inline bool parse_estimator(const std::string& name, Estimator& out) {
  if (name == "alpha") out = Estimator::alpha;
  else if (name == "alpha_prime") out = Estimator::alpha_prime;
  else if (name == "sele") out = Estimator::sele;
  else if (name == "2sele") out = Estimator::two_sele;
  else if (name == "trapezoid") out = Estimator::trapezoid;
  else return false;
  return true;
}

// Weight of a group with max rank r among n, for the rank-only estimators.
inline double rank_weight(Estimator est, double r, double n) {
  switch (est) {
    case Estimator::alpha_prime: {
      // log((n + 1) / (n + 1 - r)); the second form keeps the top rank
      // finite when n + 1 rounds to n or the running count r rounds above
      // the total n (weighted counts beyond 2^53)
      const double q = r / (n + 1.0);
      if (q < 0.5) return -std::log1p(-q);
      return std::log1p(n) - std::log1p(n > r ? n - r : 0.0);
    }
    case Estimator::sele: return r / n;
    case Estimator::two_sele: return 2.0 * r / n;
    default: return std::nan("");
  }
}

// Weight of every group from the ascending group counts. Returns false for
// the trapezoid rule, which has no rank weights. A group with zero count
// adds nothing to the alpha sum (it holds no sample).
inline bool group_weights(Estimator est, const std::vector<double>& count,
                          std::vector<double>& out) {
  const std::size_t G = count.size();
  out.assign(G, 0.0);
  if (est == Estimator::trapezoid) return false;
  if (est == Estimator::alpha) {
    // up_g accumulated from the top so integer counts stay exact
    double above = 0.0;
    for (std::size_t g = G; g-- > 0;) {
      above += count[g];
      out[g] = above;
    }
    double cum = 0.0;
    for (std::size_t g = 0; g < G; ++g) {
      if (count[g] > 0.0) cum += count[g] / out[g];
      out[g] = cum;
    }
    return true;
  }
  double n = 0.0;
  for (double c : count) n += c;
  double below = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    below += count[g];
    out[g] = rank_weight(est, below, n);
  }
  return true;
}

}  // namespace aurc

#endif
