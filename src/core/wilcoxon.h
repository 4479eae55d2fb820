// Wilcoxon signed-rank test on paired values, and Holm's adjustment
// (DEFINITIONS Sec. 7). Both follow the conventions of R's stats package exactly:
//
// signed_rank_test(x, y, m, alternative, correct) is
//   stats::wilcox.test(x, y, paired = TRUE, alternative =, correct =)
// with the default exact = NULL:
// - pairs where x or y is missing (NaN), or whose difference d = x - y is
//   NaN (Inf - Inf), are dropped; no pair left gives NaN;
// - zero differences are dropped; n = the number of non-zero ones;
// - V = sum of the (average) ranks of |d| over the positive d;
// - exact null distribution (the counting recursion of psignrank) when
//   n < 50 and there are neither ties among |d| nor dropped zeros;
// - otherwise z = (V - n(n+1)/4 - CORR) / sigma with
//   sigma^2 = n(n+1)(2n+1)/24 - sum_t (t^3 - t)/48 over tie groups of |d|
//   and CORR = -0.5 ("less"), 0.5 ("greater"), sign(z) 0.5 ("two.sided")
//   when `correct`, 0 otherwise;
// - every difference zero (n = 0) gives p = 1 (R would give NaN).
//
// holm_adjust(p, m, out) is stats::p.adjust(p, "holm"): missing p-values
// stay missing and are not counted.
#ifndef AURC_CORE_WILCOXON_H
#define AURC_CORE_WILCOXON_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace aurc {

enum class Alternative { less, greater, two_sided };

inline bool parse_alternative(const std::string& name, Alternative& out) {
  if (name == "less") out = Alternative::less;
  else if (name == "greater") out = Alternative::greater;
  else if (name == "two.sided") out = Alternative::two_sided;
  else return false;
  return true;
}

// Standard normal distribution function; lower tail unless `upper`.
inline double normal_cdf(double z, bool upper = false) {
  if (std::isnan(z)) return z;
  const double x = (upper ? z : -z) / std::sqrt(2.0);
  return 0.5 * std::erfc(x);
}

// Null distribution of the signed-rank statistic V for n untied non-zero
// differences: count[k] = number of subsets of {1, ..., n} summing to k,
// for k up to half the maximum u = n(n+1)/2 (the distribution is
// symmetric).
class SignedRankDistribution {
 public:
  explicit SignedRankDistribution(int n) : n_(n) {
    u_ = n * (n + 1) / 2;
    c_ = u_ / 2;
    count_.assign(static_cast<std::size_t>(c_) + 1, 0.0);
    count_[0] = 1.0;
    if (c_ >= 1) count_[1] = 1.0;
    if (n == 1) return;  // {}, {1}: counts 1, 1
    // add the elements 2, ..., n one at a time, the standard recursion
    for (int j = 2; j <= n; ++j) {
      const int end = std::min(j * (j + 1) / 2, c_);
      for (int i = end; i >= j; --i) count_[i] += count_[i - j];
    }
  }

  double count(int k) const {
    if (k < 0 || k > u_) return 0.0;
    if (k > c_) k = u_ - k;
    return count_[static_cast<std::size_t>(k)];
  }

  // P(V <= q) (or P(V > q) when `upper`), summed as stats::psignrank does:
  // over the shorter tail, complemented when needed.
  double cdf(double q, bool upper) const {
    const double n = n_;
    q = std::nearbyint(q + 1e-7);
    if (q < 0.0) return upper ? 1.0 : 0.0;
    if (q >= n * (n + 1) / 2) return upper ? 0.0 : 1.0;
    const double f = std::exp(-n * std::log(2.0));
    double p = 0.0;
    bool lower = !upper;
    if (q <= n * (n + 1) / 4) {
      for (int i = 0; i <= static_cast<int>(q); ++i) p += count(i) * f;
    } else {
      const double r = n * (n + 1) / 2 - q;
      for (int i = 0; i < static_cast<int>(r); ++i) p += count(i) * f;
      lower = !lower;
    }
    return lower ? p : 0.5 - p + 0.5;
  }

 private:
  int n_, u_, c_;
  std::vector<double> count_;
};

struct SignedRankResult {
  double statistic;  // V
  double p_value;
  double n;          // non-zero differences used
  bool exact;
};

// Workspace reused across tests (no allocation per call once warm).
struct SignedRankWork {
  std::vector<double> d, a, rank;
  std::vector<std::size_t> idx;
};

inline SignedRankResult signed_rank_test(const double* x, const double* y,
                                         std::size_t m, Alternative alt,
                                         bool correct, SignedRankWork& w) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  w.d.clear();
  bool any_complete = false, zeroes = false;
  for (std::size_t i = 0; i < m; ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) continue;
    const double di = x[i] - y[i];
    if (std::isnan(di)) continue;
    any_complete = true;
    if (di == 0.0) {
      zeroes = true;
      continue;
    }
    w.d.push_back(di);
  }
  if (!any_complete) return {nan, nan, 0.0, false};
  const std::size_t n = w.d.size();
  if (n == 0) return {0.0, 1.0, 0.0, false};

  // average ranks of |d|, ties by exact equality
  w.a.resize(n);
  for (std::size_t i = 0; i < n; ++i) w.a[i] = std::fabs(w.d[i]);
  w.idx.resize(n);
  std::iota(w.idx.begin(), w.idx.end(), std::size_t(0));
  const std::vector<double>& a = w.a;
  std::sort(w.idx.begin(), w.idx.end(),
            [&a](std::size_t i, std::size_t j) { return a[i] < a[j]; });
  w.rank.resize(n);
  bool ties = false;
  double tie_sum = 0.0;  // sum over tie groups of t^3 - t
  for (std::size_t b = 0; b < n;) {
    std::size_t e = b + 1;
    while (e < n && a[w.idx[e]] == a[w.idx[b]]) ++e;
    const double t = static_cast<double>(e - b);
    const double r =
        0.5 * (static_cast<double>(b + 1) + static_cast<double>(e));
    for (std::size_t k = b; k < e; ++k) w.rank[w.idx[k]] = r;
    if (e - b > 1) {
      ties = true;
      tie_sum += t * t * t - t;
    }
    b = e;
  }
  double v = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (w.d[i] > 0.0) v += w.rank[i];

  const double nn = static_cast<double>(n);
  if (n < 50 && !ties && !zeroes) {
    const SignedRankDistribution dist(static_cast<int>(n));
    double p;
    switch (alt) {
      case Alternative::less: p = dist.cdf(v, false); break;
      case Alternative::greater: p = dist.cdf(v - 1.0, true); break;
      default: {
        p = (v > nn * (nn + 1) / 4) ? dist.cdf(v - 1.0, true)
                                    : dist.cdf(v, false);
        p = std::min(2.0 * p, 1.0);
      }
    }
    return {v, p, nn, true};
  }
  double z = v - nn * (nn + 1) / 4;
  const double sigma =
      std::sqrt(nn * (nn + 1) * (2 * nn + 1) / 24 - tie_sum / 48);
  double corr = 0.0;
  if (correct) {
    switch (alt) {
      case Alternative::less: corr = -0.5; break;
      case Alternative::greater: corr = 0.5; break;
      default: corr = (z > 0) ? 0.5 : ((z < 0) ? -0.5 : 0.0);
    }
  }
  z = (z - corr) / sigma;
  double p;
  switch (alt) {
    case Alternative::less: p = normal_cdf(z); break;
    case Alternative::greater: p = normal_cdf(z, true); break;
    default: p = 2.0 * std::min(normal_cdf(z), normal_cdf(z, true));
  }
  return {v, p, nn, false};
}

// Holm's step-down adjustment, as stats::p.adjust(p, "holm").
inline void holm_adjust(const double* p, std::size_t m, double* out) {
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < m; ++i) {
    out[i] = p[i];
    if (!std::isnan(p[i])) keep.push_back(i);
  }
  const std::size_t n = keep.size();
  if (n <= 1) return;
  std::stable_sort(keep.begin(), keep.end(),
                   [p](std::size_t i, std::size_t j) { return p[i] < p[j]; });
  double run = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < n; ++k) {
    const double v = static_cast<double>(n - k) * p[keep[k]];
    run = std::max(run, v);
    out[keep[k]] = std::min(1.0, run);
  }
}

// Every ordered pair (i, j), i != j, of the K columns of a column-major
// m x K matrix: test x = column i against y = column j. Results in the
// order i = 0..K-1 (outer), j = 0..K-1 without i (inner).
inline void signed_rank_pairs(const double* values, std::size_t m,
                              std::size_t K, Alternative alt, bool correct,
                              double* statistic, double* p_value) {
  SignedRankWork w;
  std::size_t k = 0;
  for (std::size_t i = 0; i < K; ++i) {
    for (std::size_t j = 0; j < K; ++j) {
      if (i == j) continue;
      const SignedRankResult r = signed_rank_test(values + i * m,
                                                  values + j * m, m, alt,
                                                  correct, w);
      statistic[k] = r.statistic;
      p_value[k] = r.p_value;
      ++k;
    }
  }
}

}  // namespace aurc

#endif
