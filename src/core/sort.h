// The one sort: keys of a double vector in ascending order, with a payload.
//
// Doubles are mapped to unsigned 64-bit keys whose unsigned order is the
// numeric order (-0 and +0 map to the same key; -Inf and +Inf sort at the
// ends). The keys are sorted by a stable LSD radix sort on 11-bit digits,
// carrying a payload along (the original position, or directly the loss so
// that no gather is needed afterwards); a pass whose digit is the same for
// every key is skipped. NaN must be removed by the caller.
#ifndef AURC_CORE_SORT_H
#define AURC_CORE_SORT_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "interrupt.h"

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

// Sorts keys ascending, permuting payload alongside (stable).
template <class Payload, class Check = NoCheck>
void radix_sort(std::vector<std::uint64_t>& keys, std::vector<Payload>& payload,
                Check check = Check()) {
  constexpr int kBits = 11;
  constexpr int kPasses = (64 + kBits - 1) / kBits;
  constexpr std::size_t kBuckets = std::size_t(1) << kBits;
  constexpr std::uint64_t kMask = kBuckets - 1;
  const std::size_t n = keys.size();
  if (n < 2) return;

  std::vector<std::array<std::size_t, kBuckets>> count(kPasses);
  for (auto& c : count) c.fill(0);
  chunked_for(0, n, check, [&](std::size_t i) {
    const std::uint64_t k = keys[i];
    for (int p = 0; p < kPasses; ++p) ++count[p][(k >> (p * kBits)) & kMask];
  });

  std::vector<std::uint64_t> keys_tmp;
  std::vector<Payload> payload_tmp;
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
