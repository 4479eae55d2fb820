// Differences of digamma, trigamma and log-gamma without cancellation, for
// the oracle AURC over weighted groups (oracle.h) and the statistics of the
// weight estimators (estimator_stats.h).
//
//   digamma_diff(a, b)  = psi(b) - psi(a)   = sum_{i=0}^{b-a-1} 1/(a+i)
//   trigamma_diff(a, b) = psi'(a) - psi'(b) = sum_{i=0}^{b-a-1} 1/(a+i)^2
//   log_rising_excess(x, d) = lgamma(x+d) - lgamma(x) - d log x
//                           = sum_{i=0}^{d-1} log(1 + i/x)
// for real a, x > 0 and whole b - a, d >= 0. Short runs are summed directly
// (the loop counts iterations, so it ends for any argument); long runs use
// the asymptotic series written as differences of inverse powers, accurate
// to a few units in the last place of the result.
#ifndef AURC_CORE_SPECIAL_H
#define AURC_CORE_SPECIAL_H

#include <cmath>
#include <cstdint>

namespace aurc {

namespace stats_detail {

constexpr double kAsymptotic = 20.0;  // series used from this argument on
constexpr double kDirect = 64.0;      // runs this short are summed directly

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

// sum_{i=0}^{m-1} 1/(a+i)^p, smallest terms first (p = 1 or 2); m <= 2^31.
inline double direct_sum(double a, double m, int p) {
  double s = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(m); i-- > 0;) {
    const double k = a + double(i);
    s += p == 1 ? 1.0 / k : 1.0 / (k * k);
  }
  return s;
}

// (1 + t) log1p(t) - t for t > -1, by its series near 0:
// sum_{k>=2} (-t)^k / (k (k - 1)).
inline double log1p_excess(double t) {
  if (std::fabs(t) > 0.1) return (1.0 + t) * std::log1p(t) - t;
  double term = t * t, sum = 0.0;
  for (int k = 2; k < 20; ++k) {
    sum += term / (double(k) * double(k - 1));
    term *= -t;
  }
  return sum;
}

// lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2) for x >= kAsymptotic;
// the next term of the series is below 1e-19 at x = 20.
inline double stirling_rest(double x) {
  const double i = 1.0 / x, i2 = i * i;
  return i * (1.0 / 12.0 -
              i2 * (1.0 / 360.0 - i2 * (1.0 / 1260.0 - i2 / 1680.0)));
}

}  // namespace stats_detail

// psi(b) - psi(a) for a > 0 and whole b - a >= 0.
inline double digamma_diff(double a, double b) {
  using namespace stats_detail;
  const double m = b - a;
  if (m <= kDirect) return direct_sum(a, m, 1);
  if (a < kAsymptotic) {
    const double j = std::ceil(kAsymptotic - a);
    return direct_sum(a, j, 1) + digamma_diff(a + j, b);
  }
  return std::log1p(m / a) + phi_diff_series(a, b);
}

// psi'(a) - psi'(b) for a > 0 and whole b - a >= 0.
inline double trigamma_diff(double a, double b) {
  using namespace stats_detail;
  const double m = b - a;
  if (m <= kDirect) return direct_sum(a, m, 2);
  if (a < kAsymptotic) {
    const double j = std::ceil(kAsymptotic - a);
    return direct_sum(a, j, 2) + trigamma_diff(a + j, b);
  }
  return trigamma_diff_series(a, b);
}

// (psi(b) - log b) - (psi(a) - log a) for a > 0 and whole b - a >= 0.
inline double phi_diff(double a, double b) {
  using namespace stats_detail;
  if (a >= kAsymptotic) return phi_diff_series(a, b);
  // here the result is at least of the order 1/(2a) >= 1/40: no cancellation
  return digamma_diff(a, b) - std::log(b / a);
}

// sum_{i=0}^{d-1} log(1 + i/x) = lgamma(x + d) - lgamma(x) - d log x for
// x > 0 and whole d >= 0.
inline double log_rising_excess(double x, double d) {
  using namespace stats_detail;
  if (d <= kDirect || x < kAsymptotic) {
    // short runs directly; small x: step up to kAsymptotic first
    const double j = d <= kDirect ? d : std::ceil(kAsymptotic - x);
    double s = 0.0;
    for (std::int64_t i = static_cast<std::int64_t>(j); i-- > 0;)
      s += std::log1p(double(i) / x);
    if (j >= d) return s;
    // the rest: sum_{i=j}^{d-1} log((x+i)/x) = excess(x+j, d-j)
    //           + (d - j) log((x + j) / x)
    return s + log_rising_excess(x + j, d - j) + (d - j) * std::log1p(j / x);
  }
  // Stirling: lgamma(x+d) - lgamma(x) - d log x
  //   = x E(d/x) - log1p(d/x) / 2 + rest(x+d) - rest(x), E = log1p_excess
  const double t = d / x;
  return x * log1p_excess(t) - 0.5 * std::log1p(t) + stirling_rest(x + d) -
         stirling_rest(x);
}

}  // namespace aurc

#endif
