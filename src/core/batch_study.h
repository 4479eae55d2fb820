// The finite-sample study of Zhou et al. Sec. 4 (DEFINITIONS Sec. 6): a test set is
// split at random into disjoint batches of size b and every estimator is
// computed on every batch.
//
// The full set is sorted once (BatchData). A split is a permutation of the
// samples: position j goes to batch j / b (the last n mod b positions are
// left out). One pass over the global ascending order drops every sample
// into its batch's slot, so each batch comes out already sorted (its ranks
// within the batch follow from the global order) and the estimators of
// aurc.h run on it directly: O(n) per split and estimator, no sort.
#ifndef AURC_CORE_BATCH_STUDY_H
#define AURC_CORE_BATCH_STUDY_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aurc.h"
#include "interrupt.h"
#include "sort.h"
#include "ties.h"

namespace aurc {

// The full set sorted once.
struct BatchData {
  work_vector<std::uint64_t> keys;   // ascending sort keys
  std::vector<double> loss;          // loss in the same order
  std::vector<std::size_t> position; // position[i]: sorted slot of sample i
  std::size_t n() const { return keys.size(); }
};

template <class Check = NoCheck>
void prepare_batch_data(const double* score, const double* loss,
                        std::size_t n, BatchData& out, Check check = Check()) {
  Presorted p;
  presort(score, n, p, check);
  out.keys.swap(p.keys);
  out.loss.resize(n);
  out.position.resize(n);
  chunked_for(0, n, check, [&](std::size_t k) {
    out.loss[k] = loss[p.order[k]];
    out.position[p.order[k]] = k;
  });
}

// Group source over a contiguous slice of sorted keys and losses.
struct SliceGroups {
  const std::uint64_t* keys;
  const double* loss;
  std::size_t n;

  template <class F> void ascending(F f) const {
    std::size_t b = 0;
    for (std::size_t k = 1; k <= n; ++k) {
      if (k == n || keys[k] != keys[k - 1]) {
        double s = 0.0;
        for (std::size_t i = b; i < k; ++i) s += loss[i];
        f(double(k - b), s);
        b = k;
      }
    }
  }
  template <class F> void descending(F f) const {
    std::size_t e = n;
    for (std::size_t k = n; k-- > 0;) {
      if (k == 0 || keys[k] != keys[k - 1]) {
        double s = 0.0;
        for (std::size_t i = k; i < e; ++i) s += loss[i];
        f(double(e - k), s);
        e = k;
      }
    }
  }
};

// Scratch space reused across splits.
struct BatchWorkspace {
  std::vector<std::size_t> batch_at;  // batch of the sample in sorted slot k
  std::vector<std::size_t> next;      // next free slot of each batch
  std::vector<std::uint64_t> keys;
  std::vector<double> loss;
};

constexpr std::size_t kNoBatch = static_cast<std::size_t>(-1);

// One split: perm is a permutation of 0..n-1 (0-based), b the batch size
// (1 <= b <= n). Writes n / b batches x n_est estimates to out, batch-major:
// out[batch * n_est + e].
template <class Check = NoCheck>
void batch_estimates(const BatchData& d, const std::size_t* perm,
                     std::size_t b, const Estimator* est, std::size_t n_est,
                     double* out, BatchWorkspace& ws, Check check = Check()) {
  const std::size_t n = d.n();
  const std::size_t n_batches = n / b, used = n_batches * b;
  ws.batch_at.assign(n, kNoBatch);
  chunked_for(0, used, check, [&](std::size_t j) {
    ws.batch_at[d.position[perm[j]]] = j / b;
  });
  ws.next.resize(n_batches);
  for (std::size_t g = 0; g < n_batches; ++g) ws.next[g] = g * b;
  ws.keys.resize(used);
  ws.loss.resize(used);
  chunked_for(0, n, check, [&](std::size_t k) {
    const std::size_t g = ws.batch_at[k];
    if (g == kNoBatch) return;
    const std::size_t slot = ws.next[g]++;
    ws.keys[slot] = d.keys[k];
    ws.loss[slot] = d.loss[k];
  });
  const double nb = static_cast<double>(b);
  chunked_for(0, n_batches, check, [&](std::size_t g) {
    const SliceGroups src{ws.keys.data() + g * b, ws.loss.data() + g * b, b};
    for (std::size_t e = 0; e < n_est; ++e)
      out[g * n_est + e] = aurc_estimate(est[e], src, nb);
  });
}

}  // namespace aurc

#endif
