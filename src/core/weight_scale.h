// Per-group summaries of case weights for their rescaling by a power of 2
// (R/weights-scale.R): the largest weight and the total weight of every
// group of rows.
//
// The total of weights near the largest double overflows, so it is
// returned as a mantissa and a shift: total = sum * 2^shift, where shift is
// 0 unless the plain sum overflowed, and then 256 (each weight times
// 2^-256; n < 2^64 weights of at most 2^1024 sum to less than 2^832). A
// subnormal total needs no such care: sums of subnormal numbers are exact.
// Two passes only where the first one overflowed.
#ifndef AURC_CORE_WEIGHT_SCALE_H
#define AURC_CORE_WEIGHT_SCALE_H

#include <cmath>
#include <cstddef>

namespace aurc {

struct WeightSummary {
  double max = 0.0;    // the largest weight (0 when every weight is 0)
  double total = 0.0;  // the sum of the weights times 2^-shift
  double shift = 0.0;  // 0 or 256
};

// The weights w[begin .. end) (double, or integer read as double).
template <class T>
WeightSummary weight_summary(const T* w, std::size_t begin, std::size_t end) {
  WeightSummary out;
  double mx = 0.0, s = 0.0;
  for (std::size_t i = begin; i < end; ++i) {
    const double v = static_cast<double>(w[i]);
    s += v;
    if (v > mx) mx = v;
  }
  out.max = mx;
  if (std::isfinite(s)) {
    out.total = s;
    return out;
  }
  const double down = std::ldexp(1.0, -256);
  s = 0.0;
  for (std::size_t i = begin; i < end; ++i)
    s += static_cast<double>(w[i]) * down;
  out.total = s;
  out.shift = 256.0;
  return out;
}

}  // namespace aurc

#endif
