// Validation scans over a whole column, on several threads for long ones.
//
// Before the one sort a metric checks its loss column (present values must
// be finite and non-negative) and looks for missing values in both
// columns. At n = 1e7 these serial passes over 80 MB each were a tenth of
// the time of `aurc_vec()` on two threads, so they split the column into
// one slice per thread like the sort does. Results do not depend on the
// thread count: the first invalid position is the smallest over the slices.
#ifndef AURC_CORE_SCAN_H
#define AURC_CORE_SCAN_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace aurc {

// Columns shorter than this are scanned on one thread.
constexpr std::size_t kParallelScan = std::size_t(1) << 16;

// Position of the first element in [0, n) for which `bad(i)` holds, n if
// none; slices of the range on `threads` threads.
template <class Bad>
std::size_t first_where(std::size_t n, int threads, Bad bad) {
  threads = usable_threads(threads);  // 1 in a forked child (threads.h)
  if (threads < 2 || n < kParallelScan) {
    for (std::size_t i = 0; i < n; ++i) {
      if (bad(i)) return i;
    }
    return n;
  }
  std::size_t first = n;
  const std::size_t slices = static_cast<std::size_t>(threads);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads) \
    reduction(min : first)
#endif
  for (std::size_t s = 0; s < slices; ++s) {
    const std::size_t begin = n / slices * s;
    const std::size_t end = s + 1 == slices ? n : n / slices * (s + 1);
    for (std::size_t i = begin; i < end; ++i) {
      if (bad(i)) {
        first = std::min(first, i);
        break;
      }
    }
  }
  return first;
}

// First case weight that is missing (NaN/NA), negative or infinite.
inline std::size_t first_invalid_weight(const double* x, std::size_t n,
                                        int threads) {
  return first_where(n, threads, [x](std::size_t i) {
    return std::isnan(x[i]) || x[i] < 0.0 || std::isinf(x[i]);
  });
}

// First integer (or logical) case weight that is missing (`na`) or
// negative.
inline std::size_t first_invalid_weight(const int* x, std::size_t n, int na,
                                        int threads) {
  return first_where(n, threads,
                     [x, na](std::size_t i) { return x[i] == na || x[i] < 0; });
}

// First double loss that is present (not NaN/NA) but negative or infinite,
// or above `huge` (a finite loss so large that sums of it may overflow:
// the caller tells it from an invalid one, so the one scan finds both).
inline std::size_t first_invalid_loss(
    const double* x, std::size_t n, int threads,
    double huge = std::numeric_limits<double>::infinity()) {
  return first_where(n, threads, [x, huge](std::size_t i) {
    return !std::isnan(x[i]) && (x[i] < 0.0 || !(x[i] <= huge) ||
                                 std::isinf(x[i]));
  });
}

// First integer or logical loss that is present but negative; `na` is the
// missing value code (R's NA_INTEGER).
inline std::size_t first_invalid_loss(const int* x, std::size_t n, int na,
                                      int threads) {
  return first_where(n, threads,
                     [x, na](std::size_t i) { return x[i] != na && x[i] < 0; });
}

// Whether any element is NaN (R's NA_real_ is a NaN).
inline bool any_nan(const double* x, std::size_t n, int threads) {
  return first_where(n, threads,
                     [x](std::size_t i) { return std::isnan(x[i]); }) < n;
}

// Whether any element equals `na`.
inline bool any_equal(const int* x, std::size_t n, int na, int threads) {
  return first_where(n, threads, [x, na](std::size_t i) { return x[i] == na; }) <
         n;
}

}  // namespace aurc

#endif
