// The one sort: keys of a double vector in ascending order, with a payload.
//
// Doubles are mapped to unsigned 64-bit keys whose unsigned order is the
// numeric order (-0 and +0 map to the same key; -Inf and +Inf sort at the
// ends). The keys are sorted by a stable radix sort, carrying a payload
// along (the original position, or directly the loss so that no gather is
// needed afterwards). NaN must be removed by the caller.
//
// Small inputs (below kHybridSort keys) take an LSD radix sort on 11-bit
// digits over the whole vector; a pass whose digit is the same for every key
// is skipped. Larger ones take one most-significant-digit pass first, on
// the 11 bits below the highest bit in which any two keys differ, which
// splits them into up to 2048 buckets; each bucket is then sorted on its own
// by MSD passes (4 to 11 bits below the highest bit varying within it)
// down to insertion sorts of a few keys. Every pass is stable, so both give
// the one stable order of the keys, and the buckets can be sorted on several
// threads with the same result.
#ifndef AURC_CORE_SORT_H
#define AURC_CORE_SORT_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "interrupt.h"
#include "memory.h"
#include "threads.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace aurc {

inline std::uint64_t sortable_key(double x) {
  if (x == 0.0) x = 0.0;  // fold -0 into +0: they are the same score
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  const std::uint64_t sign = std::uint64_t(1) << 63;
  return (u & sign) ? ~u : (u | sign);
}

// The inverse of sortable_key(): the score of a key (-0 comes back as +0).
inline double key_to_double(std::uint64_t key) {
  const std::uint64_t sign = std::uint64_t(1) << 63;
  const std::uint64_t u = (key & sign) ? (key & ~sign) : ~key;
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

constexpr int kRadixBits = 11;
constexpr int kRadixPasses = (64 + kRadixBits - 1) / kRadixBits;
constexpr std::size_t kRadixBuckets = std::size_t(1) << kRadixBits;

// From this many keys on, the MSD-first sort; with `threads` > 1 (and
// OpenMP) its passes and buckets are shared among threads.
constexpr std::size_t kHybridSort = std::size_t(1) << 16;
// A bucket of more keys than this is sorted on the calling thread with
// interrupt checks (the MSD-first sort again), not inside a worker.
constexpr std::size_t kBucketLarge = std::size_t(1) << 21;

// Stable insertion sort of a few keys (the range is in the cache).
template <class Payload>
void insertion_sort(std::uint64_t* k, Payload* p, std::size_t len) {
  for (std::size_t i = 1; i < len; ++i) {
    const std::uint64_t key = k[i];
    const Payload v = p[i];
    std::size_t j = i;
    for (; j > 0 && k[j - 1] > key; --j) {
      k[j] = k[j - 1];
      p[j] = p[j - 1];
    }
    k[j] = key;
    p[j] = v;
  }
}

// The highest bit in which two of the len keys differ, plus one (0 when
// all are equal): bits [top, 64) are the same in every key.
inline int varying_bits(const std::uint64_t* k, std::size_t len) {
  std::uint64_t any = 0;
  const std::uint64_t k0 = len ? k[0] : 0;
  for (std::size_t i = 0; i < len; ++i) any |= k[i] ^ k0;
  int top = 0;
  while (any) {
    any >>= 1;
    ++top;
  }
  return top;
}

// Stable sort of the len keys k (payload p), kt and pt scratch of len. The
// result lands in k, p, or in kt, pt when `to_scratch`. One MSD pass on the
// bits just below the highest varying bit, as many bits as give a few keys
// per bucket (4 to 11), then each sub-range the same way (its data now in
// the scratch, so the roles swap); insertion sort once a range is small.
template <class Payload>
void sort_range(std::uint64_t* k, Payload* p, std::uint64_t* kt, Payload* pt,
                std::size_t len, bool to_scratch) {
  constexpr std::size_t kMaxBuckets = kRadixBuckets;
  const int top = len > 32 ? varying_bits(k, len) : 0;
  if (top == 0) {  // small, or every key equal
    if (len > 1 && len <= 32) insertion_sort(k, p, len);
    if (to_scratch) {
      std::copy(k, k + len, kt);
      std::copy(p, p + len, pt);
    }
    return;
  }
  int bits = 0;  // floor(log2(len)) - 2, within [4, 11] and at most top
  for (std::size_t m = len >> 2; m > 1; m >>= 1) ++bits;
  bits = std::min(std::max(bits, 4), std::min(kRadixBits, top));
  const int shift = top - bits;
  const std::size_t nb = std::size_t(1) << bits;
  const std::uint64_t mask = nb - 1;
  std::size_t next[kMaxBuckets];
  std::size_t start[kMaxBuckets + 1];
  std::fill(next, next + nb, std::size_t(0));
  for (std::size_t i = 0; i < len; ++i) ++next[(k[i] >> shift) & mask];
  std::size_t first = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    start[b] = first;
    first += next[b];
    next[b] = start[b];
  }
  start[nb] = len;
  for (std::size_t i = 0; i < len; ++i) {
    const std::size_t dst = next[(k[i] >> shift) & mask]++;
    kt[dst] = k[i];
    pt[dst] = p[i];
  }
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t lo = start[b], m = start[b + 1] - lo;
    if (m) sort_range(kt + lo, pt + lo, k + lo, p + lo, m, !to_scratch);
  }
}

// The MSD-first sort of k[0..n) (payload p; kt, pt scratch of n), result in
// k, p. On `threads` threads thread t owns the slice [n t / T, n (t + 1) / T)
// for the counting and the MSD pass and scatters it in order after every
// smaller digit and, within its digit, after the slices of earlier threads:
// the order of the one-thread pass. Buckets are then sorted independently,
// in batches with check() between them on the calling thread; buckets
// larger than kBucketLarge by this function again, on the calling thread.
template <class Payload, class Check>
void msd_sort(std::uint64_t* k, Payload* p, std::uint64_t* kt, Payload* pt,
              std::size_t n, Check& check, int threads) {
  constexpr int kBits = kRadixBits;
  constexpr std::size_t kBuckets = kRadixBuckets;
  constexpr std::uint64_t kMask = kBuckets - 1;
  constexpr std::size_t kSegment = 16 * kChunk;
#ifndef _OPENMP
  threads = 1;
#endif
  if (n < 2) return;
  threads = usable_threads(threads);  // 1 in a forked child (threads.h)
  const std::size_t T = static_cast<std::size_t>(threads);
  std::vector<std::size_t> lo(T + 1);
  for (std::size_t t = 0; t <= T; ++t) lo[t] = n / T * t + (n % T) * t / T;
  const std::size_t longest = lo[1] - lo[0];
  // body(t, b, e) on every thread t for its part [b, e) of each segment
  auto segments = [&](auto body) {
    for (std::size_t s0 = 0; s0 < longest; s0 += kSegment) {
      check();
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
      {
#ifdef _OPENMP
        const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
#else
        const std::size_t t = 0;
#endif
        const std::size_t len = lo[t + 1] - lo[t];
        if (s0 < len) body(t, lo[t] + s0, lo[t] + std::min(len, s0 + kSegment));
      }
    }
  };

  // the highest bit in which two keys differ
  std::vector<std::uint64_t> diff(T, 0);
  segments([&](std::size_t t, std::size_t b, std::size_t e) {
    const std::uint64_t k0 = k[0];
    std::uint64_t d = diff[t];
    for (std::size_t i = b; i < e; ++i) d |= k[i] ^ k0;
    diff[t] = d;
  });
  std::uint64_t any = 0;
  for (std::uint64_t d : diff) any |= d;
  if (any == 0) return;  // all keys equal
  int top = 64;
  while (!((any >> (top - 1)) & 1u)) --top;  // bits [top, 64) all equal
  const int shift = top > kBits ? top - kBits : 0;

  std::vector<std::array<std::size_t, kBuckets>> count(T);
  for (auto& c : count) c.fill(0);
  segments([&](std::size_t t, std::size_t b, std::size_t e) {
    std::array<std::size_t, kBuckets>& c = count[t];
    for (std::size_t i = b; i < e; ++i) ++c[(k[i] >> shift) & kMask];
  });
  std::vector<std::size_t> start(kBuckets + 1);
  std::size_t first = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    start[b] = first;
    for (std::size_t t = 0; t < T; ++t) {
      const std::size_t here = count[t][b];
      count[t][b] = first;
      first += here;
    }
  }
  start[kBuckets] = n;
  segments([&](std::size_t t, std::size_t b, std::size_t e) {
    std::array<std::size_t, kBuckets>& c = count[t];
    for (std::size_t i = b; i < e; ++i) {
      const std::size_t dst = c[(k[i] >> shift) & kMask]++;
      kt[dst] = k[i];
      pt[dst] = p[i];
    }
  });

  // each bucket sorted from kt back into k
  auto bucket = [&](std::size_t b) {
    const std::size_t from = start[b], m = start[b + 1] - from;
    sort_range(kt + from, pt + from, k + from, p + from, m, true);
  };
  std::size_t b0 = 0;
  while (b0 < kBuckets) {
    check();
    const std::size_t m0 = start[b0 + 1] - start[b0];
    if (m0 > kBucketLarge) {  // large: the whole machinery again
      const std::size_t from = start[b0];
      msd_sort(kt + from, pt + from, k + from, p + from, m0, check, threads);
      std::copy(kt + from, kt + from + m0, k + from);
      std::copy(pt + from, pt + from + m0, p + from);
      ++b0;
      continue;
    }
    // a batch: the following buckets up to about kSegment keys per thread
    std::size_t b1 = b0, keys_in = 0;
    while (b1 < kBuckets && keys_in < kSegment * T &&
           start[b1 + 1] - start[b1] <= kBucketLarge) {
      keys_in += start[b1 + 1] - start[b1];
      ++b1;
    }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1)
#endif
    for (long long b = static_cast<long long>(b0);
         b < static_cast<long long>(b1); ++b)
      bucket(static_cast<std::size_t>(b));
    b0 = b1;
  }
}

// Sorts keys ascending, permuting payload alongside (stable). The result
// does not depend on `threads`.
template <class Keys, class Payloads, class Check = NoCheck>
void radix_sort(Keys& keys, Payloads& payload, Check check = Check(),
                int threads = 1) {
  constexpr int kBits = kRadixBits;
  constexpr int kPasses = kRadixPasses;
  constexpr std::size_t kBuckets = kRadixBuckets;
  constexpr std::uint64_t kMask = kBuckets - 1;
  const std::size_t n = keys.size();
  if (n < 2) return;
  Keys keys_tmp;
  Payloads payload_tmp;
  if (n >= kHybridSort) {
    resize_large(keys_tmp, n);
    resize_large(payload_tmp, n);
    msd_sort(keys.data(), payload.data(), keys_tmp.data(), payload_tmp.data(),
             n, check, threads);
    return;
  }

  std::vector<std::array<std::size_t, kBuckets>> count(kPasses);
  for (auto& c : count) c.fill(0);
  chunked_for(0, n, check, [&](std::size_t i) {
    const std::uint64_t k = keys[i];
    for (int p = 0; p < kPasses; ++p) ++count[p][(k >> (p * kBits)) & kMask];
  });

  for (int p = 0; p < kPasses; ++p) {
    auto& c = count[p];
    bool trivial = false;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      if (c[b] == n) trivial = true;
      if (c[b] != 0) break;
    }
    if (trivial) continue;
    std::size_t first = 0;  // exclusive prefix sums: first slot of a bucket
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::size_t here = c[b];
      c[b] = first;
      first += here;
    }
    if (keys_tmp.empty()) {
      keys_tmp.resize(n);
      payload_tmp.resize(n);
    }
    const int shift = p * kBits;
    chunked_for(0, n, check, [&](std::size_t i) {
      const std::size_t dst = c[(keys[i] >> shift) & kMask]++;
      keys_tmp[dst] = keys[i];
      payload_tmp[dst] = payload[i];
    });
    keys.swap(keys_tmp);
    payload.swap(payload_tmp);
  }
}

}  // namespace aurc

#endif
