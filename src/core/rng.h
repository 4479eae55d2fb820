// A small, fast random number generator for the bootstrap draws (DEFINITIONS
// Sec. 11), with one independent stream per replicate so the draws do not
// depend on how replicates are spread over threads.
//
//   SplitMix64      Steele, Lea & Flood (2014): a 64-bit mixer, used to seed
//   Xoshiro256pp    xoshiro256++ 1.0 (Blackman & Vigna 2019), 256-bit state
//   replicate_stream(seed, b)  the generator of replicate b: its state comes
//                   from SplitMix64 seeded with a hash of (seed, b), so
//                   streams of different replicates start far apart
//   uniform_below(g, n)  an unbiased integer in [0, n) (Lemire 2019,
//                   multiply-shift with rejection)
//   AliasTable      Walker's alias method (Vose's construction): draws
//                   index i with probability w_i / sum(w) in O(1)
// The single seed is drawn from R's RNG by the glue, so set.seed()
// reproduces every draw.
#ifndef AURC_CORE_RNG_H
#define AURC_CORE_RNG_H

#include <cstddef>
#include <cmath>
#include <cstdint>
#include <vector>

namespace aurc {

inline std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    state += 0x9e3779b97f4a7c15ULL;
    return splitmix64_mix(state);
  }
};

class Xoshiro256pp {
 public:
  explicit Xoshiro256pp(std::uint64_t seed) {
    SplitMix64 sm{seed};
    for (std::uint64_t& x : s_) x = sm.next();
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t s_[4];
};

inline Xoshiro256pp replicate_stream(std::uint64_t seed, std::uint64_t b) {
  return Xoshiro256pp(seed ^ splitmix64_mix(b + 0x632be59bd9b4e019ULL));
}

// Uniform in [0, 1) with 53 random bits.
inline double uniform01(Xoshiro256pp& g) {
  return static_cast<double>(g.next() >> 11) * (1.0 / 9007199254740992.0);
}

// Unbiased integer in [0, n), n >= 1.
inline std::uint64_t uniform_below(Xoshiro256pp& g, std::uint64_t n) {
#ifdef __SIZEOF_INT128__
  __extension__ typedef unsigned __int128 u128;
  u128 m = static_cast<u128>(g.next()) * n;
  std::uint64_t low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<u128>(g.next()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
#else
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do {
    x = g.next();
  } while (x >= limit);
  return x % n;
#endif
}

// Poisson(1) by inversion of one 64-bit uniform u: X = #{k : u >= T_k},
// T_k = P(X <= k) 2^64 (k = 0 .. 19; P(X > 19) < 2^-64). A table over the
// top 12 bits of u gives X at once, except in the few cells that hold a
// threshold, where the full comparison decides; so X is exactly the
// inversion of u, in one table look-up nearly always.
struct Poisson1 {
  static constexpr int kBits = 12;
  static constexpr std::uint8_t kSplit = 255;  // cell holds a threshold
  std::uint64_t threshold[20];
  std::uint8_t cell[1 << kBits];
  Poisson1() {
    double p = 0.36787944117144233;  // exp(-1)
    double cdf = 0.0;
    for (int k = 0; k < 20; ++k) {
      cdf += p;
      p /= static_cast<double>(k + 1);
      const double t = cdf * 18446744073709551616.0;  // 2^64
      threshold[k] = t >= 18446744073709551615.0
                         ? UINT64_MAX
                         : static_cast<std::uint64_t>(t);
    }
    threshold[19] = UINT64_MAX;
    const int shift = 64 - kBits;
    for (std::uint64_t c = 0; c < (std::uint64_t(1) << kBits); ++c) {
      const std::uint64_t lo = c << shift;
      const std::uint64_t hi = lo | ((std::uint64_t(1) << shift) - 1);
      const int a = full(lo), b = full(hi);
      cell[c] = a == b ? static_cast<std::uint8_t>(a) : kSplit;
    }
  }
  int full(std::uint64_t u) const {
    int k = 0;
    while (k < 19 && u >= threshold[k]) ++k;
    return k;
  }
  int operator()(Xoshiro256pp& g) const {
    const std::uint64_t u = g.next();
    const std::uint8_t c = cell[u >> (64 - kBits)];
    return c != kSplit ? c : full(u);
  }
  // Several draws from one 64-bit word (kPerWord = 5 of 12 bits each): the
  // draw from the top kBits bits `top` of a uniform, exactly as
  // operator()(): the cell decides nearly always; in a cell that holds a
  // threshold the uniform's remaining 52 bits are drawn fresh from g (its
  // top kBits bits are `top` either way), and the full comparison decides.
  // So each draw is the inversion of its own 64-bit uniform, the same
  // distribution as operator()(), for a fifth of the generator calls.
  static constexpr int kPerWord = 64 / kBits;
  int from_top(std::uint64_t top, Xoshiro256pp& g) const {
    const std::uint8_t c = cell[top];
    if (c != kSplit) return c;
    return full((top << (64 - kBits)) | (g.next() >> kBits));
  }
};

inline const Poisson1& poisson1() {
  static const Poisson1 p;
  return p;
}

struct AliasTable {
  std::vector<double> prob;         // keep i with this probability
  std::vector<std::size_t> alias;   // else take alias[i]
};

// w: n >= 1 non-negative weights with a positive sum.
inline void build_alias(const double* w, std::size_t n, AliasTable& t) {
  t.prob.assign(n, 0.0);
  t.alias.assign(n, 0);
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) total += w[i];
  std::vector<double> p(n);
  std::vector<std::size_t> small, large;
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = w[i] * static_cast<double>(n) / total;
    (p[i] < 1.0 ? small : large).push_back(i);
  }
  while (!small.empty() && !large.empty()) {
    const std::size_t s = small.back(), l = large.back();
    small.pop_back();
    t.prob[s] = p[s];
    t.alias[s] = l;
    p[l] = (p[l] + p[s]) - 1.0;
    if (p[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // what is left has probability 1 up to rounding
  for (std::size_t i : large) {
    t.prob[i] = 1.0;
    t.alias[i] = i;
  }
  for (std::size_t i : small) {
    t.prob[i] = 1.0;
    t.alias[i] = i;
  }
}

inline std::size_t alias_draw(const AliasTable& t, Xoshiro256pp& g) {
  const std::size_t i =
      static_cast<std::size_t>(uniform_below(g, t.prob.size()));
  return uniform01(g) < t.prob[i] ? i : t.alias[i];
}

// log(a!) - log(b!) for whole a, b >= 0, given d = a - b exactly (beyond
// 2^53 a and b themselves are rounded, their difference must not be):
// accurate to about 1e-6 in absolute terms even where both are near 1e21.
// Below 2^20 through lgamma(); above, Stirling's series with the
// cancelling leading terms written as log1p and the exact difference.
inline double log_factorial_ratio(double a, double b, double d) {
  if (a < 1048576.0 && b < 1048576.0)
    return std::lgamma(a + 1.0) - std::lgamma(b + 1.0);
  // log Gamma(z) = (z - 1/2) log z - z + log(2 pi) / 2 + 1/(12 z)
  //                - 1/(360 z^3) + 1/(1260 z^5) - ..., z = a + 1, y = b + 1
  const double z = a + 1.0, y = b + 1.0;
  auto tail = [](double x) {
    const double x2 = x * x;
    return 1.0 / (12.0 * x) - 1.0 / (360.0 * x * x2) +
           1.0 / (1260.0 * x * x2 * x2);
  };
  if (y < 16.0 || z < 16.0)  // one small, one large: no cancellation
    return std::lgamma(z) - std::lgamma(y);
  // (z - 1/2) log z - (y - 1/2) log y = (z - 1/2) log1p(d / y) + d log y
  return (z - 0.5) * std::log1p(d / y) + d * std::log(y) - d + tail(z) -
         tail(y);
}

// Binomial(n, p) for whole n >= 0 (a double) and p in [0, 1] (beyond 2^53,
// where n and the draws are rounded, the mean and variance still hold):
// inversion (sequential search) when n min(p, 1 - p) < 10, else Hormann's
// transformed rejection with squeeze, BTRS (W. Hormann, "The generation of
// binomial random variates", J. Statist. Comput. Simul. 46, 1993), with
// the acceptance test in log_factorial_ratio(), so the draw costs O(1)
// whatever n. Exact in distribution up to floating-point rounding.
inline double binomial_draw(double n, double p, Xoshiro256pp& g) {
  if (!(n >= 1.0) || !(p > 0.0)) return 0.0;
  if (p >= 1.0) return n;
  if (p > 0.5) return n - binomial_draw(n, 1.0 - p, g);
  const double q = 1.0 - p;
  if (n * p < 10.0) {
    // inversion: P(0) = q^n, P(k) = P(k - 1) (n - k + 1) / k * p / q
    const double r0 = std::exp(n * std::log1p(-p)), s = p / q;
    for (;;) {
      double u = uniform01(g), r = r0, k = 0.0;
      while (u > r && k < n) {
        u -= r;
        k += 1.0;
        r *= (n - k + 1.0) / k * s;
        if (r <= 0.0) break;  // the tail underflowed: draw again
      }
      if (u <= r || k >= n) return k;
    }
  }
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = n * p + 0.5;
  const double vr = 0.92 - 4.2 / b;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double lpq = std::log(p / q);
  const double m = std::floor((n + 1.0) * p);
  for (;;) {
    const double u = uniform01(g) - 0.5;
    double v = uniform01(g);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = std::log(v * alpha / (a / (us * us) + b));
    // log f(k) / f(m) = log m! - log k! + log (n - m)! - log (n - k)!
    //                   + (k - m) log(p / q)
    const double lf = log_factorial_ratio(m, k, m - k) +
                      log_factorial_ratio(n - m, n - k, k - m) +
                      (k - m) * lpq;
    if (v <= lf) return k;
  }
}

}  // namespace aurc

#endif
