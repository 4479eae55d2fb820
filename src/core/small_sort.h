// The one sort for small inputs, as met group by group in grouped data.
//
// radix_sort() (sort.h) has a fixed cost of six 2048-bucket histograms per
// call, which dominates when thousands of groups of a few dozen rows are
// sorted one after another. For n <= kSmallSort a stable comparison sort of
// the same keys gives exactly the same order (both are stable on the same
// keys), at a cost proportional to the group. The *_any() functions below
// fill the same structures as sort_with_loss(), presort() and calib_sort()
// and pick the sort by size, so the grouped glue gets identical results.
#ifndef AURC_CORE_SMALL_SORT_H
#define AURC_CORE_SMALL_SORT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "binning.h"
#include "sort.h"
#include "ties.h"

namespace aurc {

constexpr std::size_t kSmallSort = 256;

// Stable ascending sort of keys with payload: insertion sort up to 32
// elements, else a stable sort of positions.
template <class Keys, class Payloads>
void small_sort(Keys& keys, Payloads& payload) {
  const std::size_t n = keys.size();
  if (n <= 32) {
    insertion_sort(keys.data(), payload.data(), n);
    return;
  }
  std::vector<std::size_t> pos(n);
  std::iota(pos.begin(), pos.end(), std::size_t(0));
  std::stable_sort(pos.begin(), pos.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] < keys[b];
  });
  Keys k2(n);
  Payloads p2(n);
  for (std::size_t i = 0; i < n; ++i) {
    k2[i] = keys[pos[i]];
    p2[i] = payload[pos[i]];
  }
  keys.swap(k2);
  payload.swap(p2);
}

template <class Keys, class Payloads, class Check>
void sort_keys_any(Keys& keys, Payloads& payload, Check& check) {
  if (keys.size() <= kSmallSort) {
    small_sort(keys, payload);
  } else {
    radix_sort(keys, payload, check);
  }
}

// As sort_with_loss() (ties.h).
template <class Check>
void sort_with_loss_any(const double* score, const double* loss, std::size_t n,
                        SortedLoss& out, Check& check, int threads = 1) {
  if (n > kSmallSort) {
    sort_with_loss(score, loss, n, out, check, threads);
    return;
  }
  out.keys.resize(n);
  out.loss.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.keys[i] = sortable_key(score[i]);
    out.loss[i] = loss[i];
  }
  small_sort(out.keys, out.loss);
}

// As presort() (ties.h).
template <class Check>
void presort_any(const double* score, std::size_t n, Presorted& p,
                 Check& check, int threads = 1) {
  if (n > kSmallSort) {
    presort(score, n, p, check, threads);
    return;
  }
  p.keys.resize(n);
  p.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    p.keys[i] = sortable_key(score[i]);
    p.order[i] = i;
  }
  small_sort(p.keys, p.order);
}

// As calib_sort() (binning.h).
template <class Check>
void calib_sort_any(const double* conf, const double* correct,
                    const double* weight, std::size_t n, bool descending,
                    CalibSorted& out, Check& check, int threads = 1) {
  if (n > kSmallSort) {
    calib_sort(conf, correct, weight, n, descending, out, check, threads);
    return;
  }
  const double sgn = descending ? -1.0 : 1.0;
  std::vector<std::uint64_t> keys(n);
  out.descending = descending;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = sortable_key(sgn * conf[i]);
    order[i] = i;
  }
  small_sort(keys, order);
  out.y.resize(n);
  if (weight) {
    out.w.resize(n);
  } else {
    out.w.clear();
  }
  out.x.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.y[k] = correct[order[k]];
    if (weight) out.w[k] = weight[order[k]];
    const double v = key_to_double(keys[k]);
    out.x[k] = descending ? (v == 0.0 ? 0.0 : -v) : v;
  }
}

}  // namespace aurc

#endif
