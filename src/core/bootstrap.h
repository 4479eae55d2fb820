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
// Metrics of the oracle order (E-AURC, NAURC) also need the replicate's
// losses in loss order: the column keeps the case positions sorted by loss
// (one more sort per column, only when such a metric is requested), and a
// replicate's groups of equal loss are another sequential pass over them.
//
// Metrics are looked up by name in a small registry (name, direction,
// binary?, needs the loss order?, function of the replicate's groups);
// adding a metric is one line in metric_registry(). The registry is the
// one table of directions and binary flags: R reads it
// (ranking_kernel_metrics_impl()).
//
// Replicates run in parallel (OpenMP) when compiled with it: each thread
// writes only its own slots of the preallocated result, and every
// replicate's arithmetic is the same whatever the thread count, so results
// do not depend on it.
#ifndef AURC_CORE_BOOTSTRAP_H
#define AURC_CORE_BOOTSTRAP_H

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "augrc.h"
#include "aurc.h"
#include "failure.h"
#include "interrupt.h"
#include "oracle.h"
#include "ties.h"

namespace aurc {

// ---- metric registry -------------------------------------------------------

// What a metric sees of one replicate: the tie groups of the score
// (ascending, count and count-weighted loss sum per group), the groups of
// equal loss in ascending loss (only for metrics that need the oracle
// order, null otherwise) and the total count n.
struct ReplicateGroups {
  const GroupVectors& by_score;
  const GroupVectors* by_loss;
  double n;
};

using GroupMetric = double (*)(const ReplicateGroups&);

struct MetricEntry {
  const char* name;
  bool higher_better;  // direction: true when a higher value is better
  bool binary;         // loss must be a 0/1 failure indicator
  bool by_loss;        // needs the groups in loss order (the oracle)
  GroupMetric fn;      // metric of one replicate
};

// The metrics of the package's metric functions, each with its default
// options: "eaurc" is eaurc_vec() (estimator "alpha", exact optimum),
// "naurc" naurc_vec() (estimator "alpha"), "eaugrc" eaugrc_vec(),
// "failure_aupr" failure_aupr_vec().
inline const std::vector<MetricEntry>& metric_registry() {
  using G = const ReplicateGroups&;
  static const std::vector<MetricEntry> registry = {
      {"aurc", false, false, false,
       [](G g) { return aurc_estimate(Estimator::alpha, g.by_score, g.n); }},
      {"aurc_alpha_prime", false, false, false,
       [](G g) {
         return aurc_estimate(Estimator::alpha_prime, g.by_score, g.n);
       }},
      {"aurc_sele", false, false, false,
       [](G g) { return aurc_estimate(Estimator::sele, g.by_score, g.n); }},
      {"aurc_2sele", false, false, false,
       [](G g) {
         return aurc_estimate(Estimator::two_sele, g.by_score, g.n);
       }},
      {"aurc_trapezoid", false, false, false,
       [](G g) {
         return aurc_estimate(Estimator::trapezoid, g.by_score, g.n);
       }},
      {"augrc", false, false, false,
       [](G g) { return augrc_trapezoid(g.by_score, g.n); }},
      {"augrc_step", false, false, false,
       [](G g) { return augrc_step(g.by_score, g.n); }},
      {"failure_auroc", true, true, false,
       [](G g) { return failure_auroc(g.by_score); }},
      {"failure_aupr", true, true, false,
       [](G g) { return failure_aupr(g.by_score); }},
      {"eaurc", false, false, true,
       [](G g) {
         return aurc_estimate(Estimator::alpha, g.by_score, g.n) -
                aurc_oracle(Estimator::alpha, *g.by_loss, g.n);
       }},
      {"eaugrc", false, true, false,
       [](G g) {
         const double err = total_loss(g.by_score) / g.n;
         return augrc_trapezoid(g.by_score, g.n) - 0.5 * err * err;
       }},
      {"naurc", false, false, true,
       [](G g) {
         return naurc_value(aurc_estimate(Estimator::alpha, g.by_score, g.n),
                            aurc_oracle(Estimator::alpha, *g.by_loss, g.n),
                            total_loss(g.by_score) / g.n);
       }},
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
  // The loss order, for metrics of the oracle (prepare_loss_order(); empty
  // until then). For 0/1 losses nothing is kept: the two loss groups follow
  // from the score groups' totals.
  bool loss_ready = false;
  bool binary_loss = false;
  std::vector<std::size_t> loss_order;      // case positions, ascending loss
  std::vector<double> loss_value;           // the loss of each equal-loss run
  std::vector<std::size_t> loss_group_end;  // exclusive end of each run
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

// One sort of the loss (skipped for 0/1 losses): the case positions in
// ascending loss and the ends of the runs of equal loss.
template <class Check = NoCheck>
void prepare_loss_order(const double* loss, std::size_t n, RankingColumn& col,
                        Check check = Check()) {
  col.loss_order.clear();
  col.loss_value.clear();
  col.loss_group_end.clear();
  col.binary_loss = true;
  for (std::size_t i = 0; i < n && col.binary_loss; ++i)
    col.binary_loss = loss[i] == 0.0 || loss[i] == 1.0;
  col.loss_ready = true;
  if (col.binary_loss) return;
  Presorted p;
  presort(loss, n, p, check);
  for_each_run(p.keys, [&](std::size_t b, std::size_t e) {
    col.loss_value.push_back(loss[p.order[b]]);
    col.loss_group_end.push_back(e);
  });
  col.loss_order.swap(p.order);
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

// Groups of equal loss, ascending loss, of a block of kBlock replicates
// (counts interleaved as for replicate_groups_block(); by_score: the
// block's score groups). The loss order was fixed when the column was
// prepared, so this is one sequential pass, or for 0/1 losses two groups
// from the totals of the score groups (counts of correct cases and of
// failures; exact, as the sums are whole numbers), as eaurc_vec() builds
// them. Otherwise groups with no case drawn are left out, as in
// replicate_groups_block(), and a group of loss l and count c has loss sum
// c * l.
inline void replicate_loss_groups_block(const RankingColumn& col,
                                        const double* counts,
                                        const GroupVectors* by_score,
                                        GroupVectors* out) {
  if (col.binary_loss) {
    for (std::size_t r = 0; r < kBlock; ++r) {
      const double total = total_count(by_score[r]);
      const double fail = total_loss(by_score[r]);
      out[r].count = {total - fail, fail};
      out[r].loss = {0.0, fail};
    }
    return;
  }
  const std::size_t G = col.loss_group_end.size();
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.resize(G);
    out[r].loss.resize(G);
  }
  std::size_t k = 0;
  std::size_t used[kBlock] = {0};
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t end = col.loss_group_end[g];
    double c[kBlock] = {0.0};
    for (; k < end; ++k) {
      const double* w = counts + col.loss_order[k] * kBlock;
      for (std::size_t r = 0; r < kBlock; ++r) c[r] += w[r];
    }
    const double l = col.loss_value[g];
    for (std::size_t r = 0; r < kBlock; ++r) {
      out[r].count[used[r]] = c[r];
      out[r].loss[used[r]] = c[r] * l;
      used[r] += (c[r] > 0.0);
    }
  }
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.resize(used[r]);
    out[r].loss.resize(used[r]);
  }
}

// True when one of the metrics needs the loss order.
inline bool needs_loss_order(const std::vector<const MetricEntry*>& metrics) {
  for (const MetricEntry* m : metrics)
    if (m->by_loss) return true;
  return false;
}

// ---- the replicate loop ----------------------------------------------------

// Metric values of every replicate, column and metric.
//   cols     prepared columns; when a metric needs the loss order
//            (needs_loss_order()), also prepare_loss_order() on each (a
//            column without it gets NaN for those metrics)
//   indices  n x B, column-major: the 1-based case positions drawn in each
//            replicate (validated by the caller: every value in 1..n); with
//            replicate_rows, B x n instead (one row per replicate, the layout
//            users hand in, read without a transposed copy)
//   out      B x C x M, column-major (replicate fastest)
// Replicates are processed in blocks of kBlock, blocks in parallel; check()
// runs on the calling thread between chunks of blocks. Returns the number of
// threads used.
template <class Check = NoCheck>
int bootstrap_metrics(const std::vector<RankingColumn>& cols, std::size_t n,
                      const int* indices, std::size_t B,
                      const std::vector<const MetricEntry*>& metrics,
                      int threads, double* out, Check check = Check(),
                      bool replicate_rows = false) {
  const std::size_t C = cols.size(), M = metrics.size();
  if (threads < 1) threads = 1;
#ifndef _OPENMP
  threads = 1;
#endif
  const bool need_loss = needs_loss_order(metrics);
  const double nan = std::numeric_limits<double>::quiet_NaN();
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
      std::vector<GroupVectors> groups(kBlock), loss_groups(kBlock);
#ifdef _OPENMP
#pragma omp for schedule(dynamic)
#endif
      for (long long kk = static_cast<long long>(lo);
           kk < static_cast<long long>(hi); ++kk) {
        const std::size_t b0 = static_cast<std::size_t>(kk) * kBlock;
        const std::size_t nb = (B - b0 > kBlock) ? kBlock : B - b0;
        std::fill(counts.begin(), counts.end(), 0.0);
        if (replicate_rows) {
          for (std::size_t i = 0; i < n; ++i) {
            const int* draws = indices + b0 + i * B;  // case i, replicates
            for (std::size_t r = 0; r < nb; ++r)
              counts[static_cast<std::size_t>(draws[r] - 1) * kBlock + r] +=
                  1.0;
          }
        } else {
          for (std::size_t r = 0; r < nb; ++r) {
            const int* draw = indices + (b0 + r) * n;
            for (std::size_t i = 0; i < n; ++i)
              counts[static_cast<std::size_t>(draw[i] - 1) * kBlock + r] +=
                  1.0;
          }
        }
        for (std::size_t c = 0; c < C; ++c) {
          replicate_groups_block(cols[c], counts.data(), groups.data());
          const bool have_loss = need_loss && cols[c].loss_ready;
          if (have_loss)
            replicate_loss_groups_block(cols[c], counts.data(), groups.data(),
                                        loss_groups.data());
          for (std::size_t r = 0; r < nb; ++r) {
            const ReplicateGroups g{groups[r],
                                    have_loss ? &loss_groups[r] : nullptr,
                                    total};
            for (std::size_t m = 0; m < M; ++m)
              out[b0 + r + B * (c + C * m)] =
                  (metrics[m]->by_loss && !have_loss) ? nan
                                                      : metrics[m]->fn(g);
          }
        }
      }
    }
  }
  return threads;
}

}  // namespace aurc

#endif
