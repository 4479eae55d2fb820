// Metrics of bootstrap replicates without re-sorting (SPEC Sec. 7).
//
// The data are C columns (one per method and run) over the same n cases.
// Each column is sorted once (RankingColumn: original positions, the loss
// and the ends of the tie groups, all in ascending score order). A bootstrap
// replicate is a vector of case counts (how often each case was drawn);
// counting a case k times is exactly the data with that row repeated k times
// (SPEC Sec. 1), so a replicate's metric is one sequential pass over the
// presorted column that sums counts and count-weighted losses per tie group,
// followed by the metric's pass over the groups. No replicate sorts.
//
// Metrics are looked up by name in a small registry (name, direction,
// binary?, function of the groups and n); adding a metric is one line in
// metric_registry(). Replicates run in parallel (OpenMP) when compiled with
// it: each thread writes only its own slots of the preallocated result, and
// every replicate's arithmetic is the same whatever the thread count, so
// results do not depend on it.
#ifndef AURC_CORE_BOOTSTRAP_H
#define AURC_CORE_BOOTSTRAP_H

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "augrc.h"
#include "aurc.h"
#include "interrupt.h"
#include "ties.h"

namespace aurc {

// ---- metric registry -------------------------------------------------------

using GroupMetric = double (*)(const GroupVectors&, double);

struct MetricEntry {
  const char* name;
  bool higher_better;  // direction: true when a higher value is better
  bool binary;         // loss must be a 0/1 failure indicator
  GroupMetric fn;      // metric from ascending tie groups and total count n
};

inline const std::vector<MetricEntry>& metric_registry() {
  static const std::vector<MetricEntry> registry = {
      {"aurc", false, false,
       [](const GroupVectors& g, double n) {
         return aurc_estimate(Estimator::alpha, g, n);
       }},
      {"aurc_alpha_prime", false, false,
       [](const GroupVectors& g, double n) {
         return aurc_estimate(Estimator::alpha_prime, g, n);
       }},
      {"aurc_sele", false, false,
       [](const GroupVectors& g, double n) {
         return aurc_estimate(Estimator::sele, g, n);
       }},
      {"aurc_2sele", false, false,
       [](const GroupVectors& g, double n) {
         return aurc_estimate(Estimator::two_sele, g, n);
       }},
      {"aurc_trapezoid", false, false,
       [](const GroupVectors& g, double n) {
         return aurc_estimate(Estimator::trapezoid, g, n);
       }},
      {"augrc", false, false,
       [](const GroupVectors& g, double n) { return augrc_trapezoid(g, n); }},
      {"augrc_step", false, false,
       [](const GroupVectors& g, double n) { return augrc_step(g, n); }},
      {"failure_auroc", true, true,
       [](const GroupVectors& g, double) { return failure_auroc(g); }},
  };
  return registry;
}

// Null for an unknown name.
inline const MetricEntry* find_metric(const std::string& name) {
  for (const MetricEntry& e : metric_registry())
    if (name == e.name) return &e;
  return nullptr;
}

// ---- presorted columns -----------------------------------------------------

struct RankingColumn {
  std::vector<std::size_t> order;      // sorted position -> case position
  std::vector<double> loss;            // loss in ascending score order
  std::vector<std::size_t> group_end;  // exclusive end of each tie group
};

template <class Check = NoCheck>
void prepare_column(const double* score, const double* loss, std::size_t n,
                    RankingColumn& col, Check check = Check()) {
  Presorted p;
  presort(score, n, p, check);
  col.loss.resize(n);
  for (std::size_t k = 0; k < n; ++k) col.loss[k] = loss[p.order[k]];
  col.group_end.clear();
  for_each_run(p.keys,
               [&](std::size_t, std::size_t e) { col.group_end.push_back(e); });
  col.order.swap(p.order);
}

// Tie-group counts and count-weighted loss sums of one replicate, given the
// counts of the cases by original position. One sequential pass. Groups
// with no case drawn are left out: the result is exactly the tie groups of
// the resampled data (every metric gets the same value either way, as an
// empty group adds nothing; leaving them out saves the metric passes work).
inline void replicate_groups(const RankingColumn& col, const double* counts,
                             GroupVectors& out) {
  const std::size_t G = col.group_end.size();
  out.count.clear();
  out.loss.clear();
  std::size_t k = 0;
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t end = col.group_end[g];
    double c = 0.0, s = 0.0;
    for (; k < end; ++k) {
      const double w = counts[col.order[k]];
      c += w;
      s += w * col.loss[k];
    }
    if (c > 0.0) {
      out.count.push_back(c);
      out.loss.push_back(s);
    }
  }
}

// The same for a block of kBlock replicates at once: counts interleaved
// case-major, counts[i * kBlock + r] = count of case i in replicate r of
// the block, so each case's counts share one cache line and the column is
// read once per block rather than once per replicate. Each replicate's
// sums are accumulated in the same order as replicate_groups(), so the
// results are identical to it.
constexpr std::size_t kBlock = 8;

inline void replicate_groups_block(const RankingColumn& col,
                                   const double* counts, GroupVectors* out) {
  const std::size_t G = col.group_end.size();
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.resize(G);
    out[r].loss.resize(G);
  }
  std::size_t k = 0;
  std::size_t used[kBlock] = {0};
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t end = col.group_end[g];
    double c[kBlock] = {0.0}, s[kBlock] = {0.0};
    for (; k < end; ++k) {
      const double* w = counts + col.order[k] * kBlock;
      const double l = col.loss[k];
      for (std::size_t r = 0; r < kBlock; ++r) {
        c[r] += w[r];
        s[r] += w[r] * l;
      }
    }
    for (std::size_t r = 0; r < kBlock; ++r) {  // keep drawn groups only
      out[r].count[used[r]] = c[r];
      out[r].loss[used[r]] = s[r];
      used[r] += (c[r] > 0.0);
    }
  }
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.resize(used[r]);
    out[r].loss.resize(used[r]);
  }
}

// ---- the replicate loop ----------------------------------------------------

// Metric values of every replicate, column and metric.
//   indices  n x B, column-major: the 1-based case positions drawn in each
//            replicate (validated by the caller: every value in 1..n)
//   out      B x C x M, column-major (replicate fastest)
// Replicates are processed in blocks of kBlock, blocks in parallel; check()
// runs on the calling thread between chunks of blocks. Returns the number of
// threads used.
template <class Check = NoCheck>
int bootstrap_metrics(const std::vector<RankingColumn>& cols, std::size_t n,
                      const int* indices, std::size_t B,
                      const std::vector<const MetricEntry*>& metrics,
                      int threads, double* out, Check check = Check()) {
  const std::size_t C = cols.size(), M = metrics.size();
  if (threads < 1) threads = 1;
#ifndef _OPENMP
  threads = 1;
#endif
  const std::size_t n_blocks = (B + kBlock - 1) / kBlock;
  const std::size_t chunk = 4 * static_cast<std::size_t>(threads);
  const double total = static_cast<double>(n);
  for (std::size_t lo = 0; lo < n_blocks; lo += chunk) {
    check();
    const std::size_t hi = (n_blocks - lo > chunk) ? lo + chunk : n_blocks;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
      std::vector<double> counts(n * kBlock);
      std::vector<GroupVectors> groups(kBlock);
#ifdef _OPENMP
#pragma omp for schedule(dynamic)
#endif
      for (long long kk = static_cast<long long>(lo);
           kk < static_cast<long long>(hi); ++kk) {
        const std::size_t b0 = static_cast<std::size_t>(kk) * kBlock;
        const std::size_t nb = (B - b0 > kBlock) ? kBlock : B - b0;
        std::fill(counts.begin(), counts.end(), 0.0);
        for (std::size_t r = 0; r < nb; ++r) {
          const int* draw = indices + (b0 + r) * n;
          for (std::size_t i = 0; i < n; ++i)
            counts[static_cast<std::size_t>(draw[i] - 1) * kBlock + r] += 1.0;
        }
        for (std::size_t c = 0; c < C; ++c) {
          replicate_groups_block(cols[c], counts.data(), groups.data());
          for (std::size_t r = 0; r < nb; ++r)
            for (std::size_t m = 0; m < M; ++m)
              out[b0 + r + B * (c + C * m)] = metrics[m]->fn(groups[r], total);
        }
      }
    }
  }
  return threads;
}

}  // namespace aurc

#endif
