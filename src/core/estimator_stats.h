// Statistics of the AURC weight estimators (Zhou et al. 2025, Secs. 3.5-3.6,
// App. A; SPEC Sec. 6).
//
// A sample with population rank percentile beta has rank r ~ 1 + Bin(n - 1,
// beta) among n samples; given its rank, beta ~ Beta(r, n + 1 - r) (uniform
// order statistics). The population weight is -log(1 - beta), and
//   E[-log(1 - beta) | r]   = H_n - H_{n-r}          = psi(n+1) - psi(n+1-r)
//   Var[-log(1 - beta) | r] = psi'(n+1-r) - psi'(n+1) = sum_{k=n+1-r}^n 1/k^2
// so for any rank weight w(r):
//   bias(beta) = E[w(r)] + log(1 - beta)                 (Props 3.3, 3.4, A.2)
//   MSE(r)     = (w(r) - (H_n - H_{n-r}))^2 + psi'(n+1-r) - psi'(n+1)
//                                                        (Props 3.5, A.3)
// The differences of digamma and trigamma at whole numbers are computed
// without cancellation: short runs are summed directly, long runs by the
// asymptotic series written as differences of inverse powers. Binomial
// terms are accumulated in log space from the mode outwards and normalised
// by their own sum, so n up to 1e6 (and far beyond) is stable.
#ifndef AURC_CORE_ESTIMATOR_STATS_H
#define AURC_CORE_ESTIMATOR_STATS_H

#include <cmath>
#include <cstddef>
#include <limits>

#include "interrupt.h"
#include "rank_weights.h"

namespace aurc {

namespace stats_detail {

constexpr double kAsymptotic = 20.0;  // series used from this argument on
constexpr double kDirect = 64.0;      // runs this short are summed directly
constexpr double kLogCutoff = -60.0;  // binomial terms below e^-60 of the mode

// 1 / a^k - 1 / b^k for 0 < a <= b, without cancellation:
// (b - a) / (a b) * S_k, S_k = sum_{j=0}^{k-1} a^{-(k-1-j)} b^{-j}
// = S_{k-1} / a + b^{-(k-1)}.
inline double inv_pow_diff(double a, double b, int k) {
  const double ia = 1.0 / a, ib = 1.0 / b;
  double sum = 0.0, pb = 1.0;
  for (int j = 0; j < k; ++j) {
    sum = sum * ia + pb;
    pb *= ib;
  }
  return (b - a) * ia * ib * sum;
}

// phi(b) - phi(a), phi(x) = psi(x) - log(x), for kAsymptotic <= a <= b:
// phi(x) ~ -1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + 1/(240x^8)
//          - 1/(132x^10); the next term is below 6e-18 at x = 20.
inline double phi_diff_series(double a, double b) {
  return inv_pow_diff(a, b, 1) / 2.0 + inv_pow_diff(a, b, 2) / 12.0 -
         inv_pow_diff(a, b, 4) / 120.0 + inv_pow_diff(a, b, 6) / 252.0 -
         inv_pow_diff(a, b, 8) / 240.0 + inv_pow_diff(a, b, 10) / 132.0;
}

// psi'(a) - psi'(b) for kAsymptotic <= a <= b:
// psi'(x) ~ 1/x + 1/(2x^2) + 1/(6x^3) - 1/(30x^5) + 1/(42x^7) - 1/(30x^9)
//           + 5/(66x^11); the next term is below 4e-18 at x = 20.
inline double trigamma_diff_series(double a, double b) {
  return inv_pow_diff(a, b, 1) + inv_pow_diff(a, b, 2) / 2.0 +
         inv_pow_diff(a, b, 3) / 6.0 - inv_pow_diff(a, b, 5) / 30.0 +
         inv_pow_diff(a, b, 7) / 42.0 - inv_pow_diff(a, b, 9) / 30.0 +
         5.0 * inv_pow_diff(a, b, 11) / 66.0;
}

// sum_{k=a}^{b-1} 1/k^p, smallest terms first (p = 1 or 2)
inline double direct_sum(double a, double b, int p) {
  double s = 0.0;
  for (double k = b - 1.0; k >= a; k -= 1.0)
    s += p == 1 ? 1.0 / k : 1.0 / (k * k);
  return s;
}

}  // namespace stats_detail

// psi(b) - psi(a) = sum_{k=a}^{b-1} 1/k for whole numbers 1 <= a <= b.
inline double digamma_diff(double a, double b) {
  using namespace stats_detail;
  if (b - a <= kDirect) return direct_sum(a, b, 1);
  if (a < kAsymptotic) {
    return direct_sum(a, kAsymptotic, 1) + digamma_diff(kAsymptotic, b);
  }
  return std::log1p((b - a) / a) + phi_diff_series(a, b);
}

// psi'(a) - psi'(b) = sum_{k=a}^{b-1} 1/k^2 for whole numbers 1 <= a <= b.
inline double trigamma_diff(double a, double b) {
  using namespace stats_detail;
  if (b - a <= kDirect) return direct_sum(a, b, 2);
  if (a < kAsymptotic) {
    return direct_sum(a, kAsymptotic, 2) + trigamma_diff(kAsymptotic, b);
  }
  return trigamma_diff_series(a, b);
}

// (psi(b) - log b) - (psi(a) - log a) for whole numbers 1 <= a <= b.
inline double phi_diff(double a, double b) {
  using namespace stats_detail;
  if (a >= kAsymptotic) return phi_diff_series(a, b);
  // here the result is at least of the order 1/(2a) >= 1/40: no cancellation
  return digamma_diff(a, b) - std::log(b / a);
}

// H_n - H_{n-r}: the alpha weight of rank r among n (no ties).
inline double harmonic_diff(double n, double r) {
  return digamma_diff(n - r + 1.0, n + 1.0);
}

// Weight of rank r (1..n) among n for a rank-only estimator, with alpha as
// H_n - H_{n-r}. NaN for the trapezoid rule.
inline double weight_of_rank(Estimator est, double r, double n) {
  if (est == Estimator::alpha) return harmonic_diff(n, r);
  return rank_weight(est, r, n);
}

// MSE of the weight of rank r among n against -log(1 - beta), beta ~
// Beta(r, n + 1 - r).
inline double weight_mse(Estimator est, double r, double n) {
  if (est == Estimator::trapezoid) return std::nan("");
  const double var = trigamma_diff(n + 1.0 - r, n + 1.0);
  if (est == Estimator::alpha) return var;
  // w - (H_n - H_{n-r}); for alpha_prime this is -Q, Q = phi(n+1) - phi(n+1-r)
  const double d = est == Estimator::alpha_prime
                       ? phi_diff(n + 1.0 - r, n + 1.0)
                       : rank_weight(est, r, n) - harmonic_diff(n, r);
  return var + d * d;
}

// Compensated (Neumaier) running sum.
struct NeumaierSum {
  double sum = 0.0, comp = 0.0;
  void add(double x) {
    const double t = sum + x;
    comp += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + comp; }
};

// E[w(r)] for r = 1 + Bin(n - 1, beta), beta in [0, 1). The terms are
// centred on the weight at the mode, so the compensated sums carry only the
// small deviations w(r) - w(mode).
inline double expected_weight(Estimator est, double beta, double n) {
  if (est == Estimator::trapezoid) return std::nan("");
  const double N = n - 1.0;
  if (N <= 0.0 || beta <= 0.0) return weight_of_rank(est, 1.0, n);
  double mode = std::floor((N + 1.0) * beta);
  if (mode > N) mode = N;
  const double log_odds = std::log(beta) - std::log1p(-beta);
  const double w_mode = weight_of_rank(est, mode + 1.0, n);
  NeumaierSum num, den;
  den.add(1.0);
  // upwards: pmf(k) / pmf(k - 1) = (N - k + 1) / k * beta / (1 - beta)
  double lt = 0.0;
  for (double k = mode + 1.0; k <= N; k += 1.0) {
    lt += std::log((N - k + 1.0) / k) + log_odds;
    if (lt < stats_detail::kLogCutoff) break;
    const double t = std::exp(lt);
    num.add(t * (weight_of_rank(est, k + 1.0, n) - w_mode));
    den.add(t);
  }
  // downwards: pmf(k) / pmf(k + 1) = (k + 1) / (N - k) * (1 - beta) / beta
  lt = 0.0;
  for (double k = mode - 1.0; k >= 0.0; k -= 1.0) {
    lt += std::log((k + 1.0) / (N - k)) - log_odds;
    if (lt < stats_detail::kLogCutoff) break;
    const double t = std::exp(lt);
    num.add(t * (weight_of_rank(est, k + 1.0, n) - w_mode));
    den.add(t);
  }
  return w_mode + num.value() / den.value();
}

// Bias of the weight of a sample with rank percentile beta in [0, 1).
inline double weight_bias(Estimator est, double beta, double n) {
  return expected_weight(est, beta, n) + std::log1p(-beta);
}

// Order bound of Eq. 24: beta / (n (1 - beta) + 1).
inline double weight_mse_bound(double beta, double n) {
  return beta / (n * (1.0 - beta) + 1.0);
}

// Mean of weight_mse(est, r, n) over r = 1..n (Neumaier summation). For
// alpha this is exactly H_n / n: 1/k^2 enters the MSE of k ranks.
template <class Check = NoCheck>
double mean_weight_mse(Estimator est, double n, Check check = Check()) {
  if (est == Estimator::trapezoid) return std::nan("");
  if (est == Estimator::alpha) return digamma_diff(1.0, n + 1.0) / n;
  NeumaierSum sum;
  chunked_for(1, static_cast<std::size_t>(n) + 1, check, [&](std::size_t r) {
    sum.add(weight_mse(est, double(r), n));
  });
  return sum.value() / n;
}

// Prop. A.4: the integral of the order bound over beta,
// (n + 1) log(n + 1) / n^2 - 1 / n.
inline double mean_weight_mse_rate(double n) {
  return (n + 1.0) * std::log1p(n) / (n * n) - 1.0 / n;
}

}  // namespace aurc

#endif
