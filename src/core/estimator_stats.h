// Statistics of the AURC weight estimators (Zhou et al. 2025, Secs. 3.5-3.6,
// App. A; DEFINITIONS Sec. 6).
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
#include "special.h"

namespace aurc {

namespace stats_detail {

constexpr double kLogCutoff = -60.0;  // binomial terms below e^-60 of the mode

}  // namespace stats_detail

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

// log(pmf(m + d) / pmf(m)) for the Bin(N, beta) distribution, any whole d
// with 0 <= m + d <= N, without the cancellation of lgamma at large N:
// differences of lgamma written as d log x + log_rising_excess(x, d).
inline double binomial_log_ratio(double N, double beta, double m, double d) {
  if (d == 0.0) return 0.0;
  if (d > 0.0) {
    const double x = N - m + 1.0 - d;  // lgamma(N-m+1) - lgamma(x)
    return d * std::log((x * beta) / ((m + 1.0) * (1.0 - beta))) -
           log_rising_excess(m + 1.0, d) + log_rising_excess(x, d);
  }
  const double e = -d, y = m - e + 1.0;  // lgamma(m+1) - lgamma(y)
  return e * std::log((y * (1.0 - beta)) / ((N - m + 1.0) * beta)) +
         log_rising_excess(y, e) - log_rising_excess(N - m + 1.0, e);
}

namespace stats_detail {

// Binomial sums with a standard deviation above kStrideSd take every h-th
// term, h = floor(sd / kStridePerSd). The summand is analytic and varies on
// the scale of sd, so by Poisson summation the error of the strided sum
// relative to the full one is of the order exp(-2 pi^2 kStridePerSd^2),
// far below rounding; the full sum would need about 22 sd terms.
constexpr double kStrideSd = 4096.0;
constexpr double kStridePerSd = 64.0;

}  // namespace stats_detail

// E[w(r)] for r = 1 + Bin(n - 1, beta), beta in [0, 1), n <= 2^53. The
// terms are centred on the weight at the mode, so the compensated sums carry
// only the small deviations w(r) - w(mode). Terms below e^-60 of the mode
// are dropped; wide distributions are summed on a stride (see kStrideSd),
// so at most about 3,000 terms are evaluated for any n. `stride = false`
// forces the full sum (for tests).
inline double expected_weight(Estimator est, double beta, double n,
                              bool stride = true) {
  if (est == Estimator::trapezoid) return std::nan("");
  const double N = n - 1.0;
  if (N <= 0.0 || beta <= 0.0) return weight_of_rank(est, 1.0, n);
  double mode = std::floor((N + 1.0) * beta);
  if (mode > N) mode = N;
  const double log_odds = std::log(beta) - std::log1p(-beta);
  const double w_mode = weight_of_rank(est, mode + 1.0, n);
  NeumaierSum num, den;
  den.add(1.0);
  const double sd = std::sqrt(N * beta * (1.0 - beta));
  if (stride && sd > stats_detail::kStrideSd) {
    const double h = std::floor(sd / stats_detail::kStridePerSd);
    for (double dir : {1.0, -1.0}) {
      for (double d = dir * h; mode + d >= 0.0 && mode + d <= N; d += dir * h) {
        const double lt = binomial_log_ratio(N, beta, mode, d);
        if (lt < stats_detail::kLogCutoff) break;
        const double t = std::exp(lt);
        num.add(t * (weight_of_rank(est, mode + d + 1.0, n) - w_mode));
        den.add(t);
      }
    }
    return w_mode + num.value() / den.value();
  }
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
