// Metrics of bootstrap replicates without re-sorting (DEFINITIONS Sec. 7).
//
// The data are C columns (one per method and run) over the same n cases.
// Each column is sorted once (RankingColumn: original positions, the loss
// and the ends of the tie groups, all in ascending score order). A bootstrap
// replicate is a vector of case counts (how often each case was drawn);
// counting a case k times is exactly the data with that row repeated k times
// (DEFINITIONS Sec. 1), so a replicate's metric is one sequential pass over the
// presorted column that sums counts and count-weighted losses per tie group,
// followed by the metric's pass over the groups. No replicate sorts.
//
// Metrics of the oracle order (E-AURC, NAURC) also need the replicate's
// losses in loss order: the column keeps the case positions sorted by loss
// (one more sort per column, only when such a metric is requested), and a
// replicate's groups of equal loss are another sequential pass over them.
//
// The metrics are MetricSpecs (replicate_metrics.h: a metric with its
// options, shared with the bootstrap intervals), made from R's registry of
// metrics (R/metric-registry.R), which alone knows their names, directions
// and inputs: there is no second table of metrics here.
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
#include <type_traits>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "binning.h"
#include "interrupt.h"
#include "replicate_metrics.h"
#include "threads.h"
#include "ties.h"

namespace aurc {

// ---- presorted columns -----------------------------------------------------

struct RankingColumn {
  work_vector<std::size_t> order;      // sorted position -> case position
  std::vector<double> loss;            // loss in ascending score order
  std::vector<std::size_t> group_end;  // exclusive end of each tie group
  // The loss order, for metrics of the oracle (prepare_loss_order(); empty
  // until then). For 0/1 losses nothing is kept: the two loss groups follow
  // from the score groups' totals.
  bool loss_ready = false;
  bool binary_loss = false;
  work_vector<std::size_t> loss_order;      // case positions, ascending loss
  std::vector<double> loss_value;           // the loss of each equal-loss run
  std::vector<std::size_t> loss_group_end;  // exclusive end of each run
  // Equal-width calibration bins of the score as confidence, for ECE
  // (prepare_bins(); empty until then): the score in ascending order and the
  // exclusive end of each bin (empty bins repeat the previous end).
  std::vector<double> score;
  std::vector<std::size_t> bin_end;
  // For the CORP decomposition and the smooth ECE (prepare_cases(); empty
  // until then): the score in ascending order (as above) and the residual
  // correct - confidence = (1 - loss) - score in that order.
  std::vector<double> resid;
  // For the balanced metrics (prepare_classes(); empty until then): the
  // class (0-based) of each case in ascending score order, n_classes in all.
  std::vector<int> cls;
  std::size_t n_classes = 0;
};

template <class Check = NoCheck>
void prepare_column(const double* score, const double* loss, std::size_t n,
                    RankingColumn& col, Check check = Check(),
                    int threads = 1) {
  Presorted p;
  presort(score, n, p, check, threads);
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
                        Check check = Check(), int threads = 1) {
  col.loss_order.clear();
  col.loss_value.clear();
  col.loss_group_end.clear();
  col.binary_loss = true;
  for (std::size_t i = 0; i < n && col.binary_loss; ++i)
    col.binary_loss = loss[i] == 0.0 || loss[i] == 1.0;
  col.loss_ready = true;
  if (col.binary_loss) return;
  Presorted p;
  presort(loss, n, p, check, threads);
  for_each_run(p.keys, [&](std::size_t b, std::size_t e) {
    col.loss_value.push_back(loss[p.order[b]]);
    col.loss_group_end.push_back(e);
  });
  col.loss_order.swap(p.order);
}

// The sorted scores and the ends of k equal-width bins [0, 1/k], (1/k, 2/k],
// ..., the rule of equal_width_bin() (binning.h), which ece_vec() uses.
// The scores must lie in [0, 1] (checked by the caller).
// With `edges` (ascending upper edges of data-driven bins fixed in
// advance) the bins are those instead of k equal-width bins.
inline void prepare_bins(const double* score, std::size_t k,
                         RankingColumn& col,
                         const std::vector<double>& edges = {}) {
  const std::size_t n = col.order.size();
  col.score.resize(n);
  for (std::size_t j = 0; j < n; ++j) col.score[j] = score[col.order[j]];
  if (!edges.empty()) k = edges.size();
  col.bin_end.assign(k, 0);
  for (std::size_t j = 0; j < n; ++j)
    ++col.bin_end[(edges.empty() ? equal_width_bin(col.score[j], k)
                                 : edge_bin(col.score[j], edges)) - 1];
  std::size_t acc = 0;
  for (std::size_t b = 0; b < k; ++b) {
    acc += col.bin_end[b];
    col.bin_end[b] = acc;
  }
}

// The sorted scores (taken as confidences, in [0, 1], checked by the
// caller) and the residuals (1 - loss) - score, for the metrics that read
// the sorted cases (MetricSpec::by_cases()).
inline void prepare_cases(const double* score, RankingColumn& col) {
  const std::size_t n = col.order.size();
  col.score.resize(n);
  col.resid.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    col.score[j] = score[col.order[j]];
    col.resid[j] = (1.0 - col.loss[j]) - col.score[j];
  }
}

// The class of every sorted case, for the balanced metrics
// (MetricSpec::by_classes()); cls: 0-based codes in case position order.
inline void prepare_classes(const int* cls, std::size_t n_classes,
                            RankingColumn& col) {
  const std::size_t n = col.order.size();
  col.cls.resize(n);
  for (std::size_t j = 0; j < n; ++j) col.cls[j] = cls[col.order[j]];
  col.n_classes = n_classes;
}

inline SortedCases sorted_cases(const RankingColumn& col) {
  SortedCases d;
  d.order = col.order.data();
  d.score = col.score.data();
  d.loss = col.loss.data();
  d.group_end = col.group_end.data();
  d.n_groups = col.group_end.size();
  d.n = col.order.size();
  return d;
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
  // raw pointers: through the vectors the compiler reloads them per store
  double* out_count[kBlock];
  double* out_loss[kBlock];
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.resize(G);
    out[r].loss.resize(G);
    out_count[r] = out[r].count.data();
    out_loss[r] = out[r].loss.data();
  }
  const std::size_t* order = col.order.data();
  const double* loss = col.loss.data();
  const std::size_t* group_end = col.group_end.data();
  std::size_t k = 0;
  std::size_t used[kBlock] = {0};
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t end = group_end[g];
    double c[kBlock] = {0.0}, s[kBlock] = {0.0};
    for (; k < end; ++k) {
      const double* w = counts + order[k] * kBlock;
      const double l = loss[k];
      for (std::size_t r = 0; r < kBlock; ++r) {
        c[r] += w[r];
        s[r] += w[r] * l;
      }
    }
    for (std::size_t r = 0; r < kBlock; ++r) {  // keep drawn groups only
      out_count[r][used[r]] = c[r];
      out_loss[r][used[r]] = s[r];
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

// Per-bin sums of a block of kBlock replicates (counts interleaved as for
// replicate_groups_block()) over the equal-width bins prepared by
// prepare_bins(); the score is the confidence and 1 - loss the correctness.
inline void replicate_bins_block(const RankingColumn& col,
                                 const double* counts, BinVectors* out) {
  const std::size_t nb = col.bin_end.size();
  for (std::size_t r = 0; r < kBlock; ++r) {
    out[r].count.assign(nb, 0.0);
    out[r].sum_x.assign(nb, 0.0);
    out[r].sum_y.assign(nb, 0.0);
  }
  std::size_t k = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    double c[kBlock] = {0.0}, sx[kBlock] = {0.0}, sy[kBlock] = {0.0};
    for (; k < col.bin_end[b]; ++k) {
      const double* w = counts + col.order[k] * kBlock;
      const double x = col.score[k], y = 1.0 - col.loss[k];
      for (std::size_t r = 0; r < kBlock; ++r) {
        c[r] += w[r];
        sx[r] += w[r] * x;
        sy[r] += w[r] * y;
      }
    }
    for (std::size_t r = 0; r < kBlock; ++r) {
      out[r].count[b] = c[r];
      out[r].sum_x[b] = sx[r];
      out[r].sum_y[b] = sy[r];
    }
  }
}

// ---- the fused pass of AURC and AUGRC ---------------------------------------
//
// The default AURC (estimator "alpha") and AUGRC (trapezoid) are both one
// descending pass over the tie groups with the same running loss sum, and
// need nothing else. When every requested metric is one of them, a block's
// groups are never stored: one descending pass over the column forms each
// group's sums for the kBlock replicates (in the same order of additions as
// replicate_groups_block()) and advances both metrics at once. The values
// are those of aurc_alpha() and augrc_trapezoid() on the stored groups,
// operation for operation (an empty group, left out there, adds exact zeros
// here); the total count is the descending sum of the groups, exactly
// total_count() whenever the counts are whole numbers (always, except with
// fractional case weights, where the two sums may differ in the last bit).
inline bool metric_streams(const MetricSpec& m) {
  return (m.kind == MetricKind::aurc && m.estimator == Estimator::alpha) ||
         (m.kind == MetricKind::augrc && !m.step);
}
inline bool metrics_stream(const std::vector<MetricSpec>& metrics) {
  if (metrics.empty()) return false;
  for (const MetricSpec& m : metrics)
    if (!metric_streams(m)) return false;
  return true;
}

// Running state of one replicate: the count and loss above the current
// group, and the two sums (aurc_alpha() and augrc_trapezoid()).
struct StreamLanes {
  double above[kBlock], loss_above[kBlock], acc_aurc[kBlock],
      acc_augrc[kBlock];
};

// One descending pass over a column for a block of replicates (counts
// interleaved as for replicate_groups_block(); as double, or as float when
// every count is a whole number, which float holds exactly, so the sums are
// the same). With_aurc: also the AURC sum (one division per group and
// replicate; skipped when not requested).
// On x86-64 Linux with GCC the pass is also compiled for AVX2 and the
// version the processor supports is picked at load time (twice the lanes
// per division; IEEE division and addition give the same bits either way,
// and no multiply-add is contracted as FMA is not enabled).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define AURC_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define AURC_SIMD_CLONES
#endif
template <bool With_aurc, class Count>
AURC_SIMD_CLONES void stream_block(const RankingColumn& col,
                                   const Count* counts, StreamLanes& st) {
  double above[kBlock] = {0.0}, loss_above[kBlock] = {0.0},
         acc_a[kBlock] = {0.0}, acc_g[kBlock] = {0.0};
  const std::size_t* order = col.order.data();
  const double* loss = col.loss.data();
  const std::size_t* group_end = col.group_end.data();
  for (std::size_t g = col.group_end.size(); g-- > 0;) {
    const std::size_t begin = g > 0 ? group_end[g - 1] : 0;
    const std::size_t end = group_end[g];
    double c[kBlock] = {0.0}, s[kBlock] = {0.0};
    for (std::size_t k = begin; k < end; ++k) {
      const Count* w = counts + order[k] * kBlock;
      const double l = loss[k];
      for (std::size_t r = 0; r < kBlock; ++r) {
        const double x = static_cast<double>(w[r]);
        c[r] += x;
        s[r] += x * l;
      }
    }
    // (the lanes in SIMD: the divisions dominate; each lane's arithmetic is
    // unchanged, so this only makes the pass faster)
#ifdef _OPENMP
#pragma omp simd
#endif
    for (std::size_t r = 0; r < kBlock; ++r) {
      // augrc_trapezoid(): acc += c * (loss_above + s / 2), then loss_above
      acc_g[r] += c[r] * (loss_above[r] + 0.5 * s[r]);
      above[r] += c[r];
      loss_above[r] += s[r];
      if (With_aurc) {
        // aurc_alpha(): acc += c * loss_above / above for drawn groups
        // an empty group adds an exact zero (0 * loss_above / above; before
        // the first drawn group above is 0 and is replaced by 1, so no NaN)
        const double d = above[r] + static_cast<double>(above[r] == 0.0);
        acc_a[r] += c[r] * loss_above[r] / d;
      }
    }
  }
  for (std::size_t r = 0; r < kBlock; ++r) {
    st.above[r] = above[r];
    st.loss_above[r] = loss_above[r];
    st.acc_aurc[r] = acc_a[r];
    st.acc_augrc[r] = acc_g[r];
  }
}

// The value of a streamed metric from its lane's state.
inline double stream_value(const MetricSpec& m, const StreamLanes& st,
                           std::size_t r) {
  const double n = st.above[r];
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  if (m.kind == MetricKind::aurc) return st.acc_aurc[r] / n;
  return st.acc_augrc[r] / (n * n);
}

// Fillers that can write whole counts in single precision (half the memory
// traffic of the fused pass) say so with whole_counts() and take a float
// buffer; the others always get doubles.
template <class F, class = void>
struct has_whole_counts : std::false_type {};
template <class F>
struct has_whole_counts<
    F, decltype(void(std::declval<const F&>().whole_counts()))>
    : std::true_type {};
template <class F>
bool fills_whole_counts(const F& f, std::true_type) {
  return f.whole_counts();
}
template <class F>
bool fills_whole_counts(const F&, std::false_type) {
  return false;
}
template <class F>
void fill_whole_counts(const F& f, std::size_t b0, std::size_t nb,
                       float* counts, std::true_type) {
  f(b0, nb, counts);
}
template <class F>
void fill_whole_counts(const F&, std::size_t, std::size_t, float*,
                       std::false_type) {}

// True when one of the metrics needs the loss order (or the bins).
inline bool needs_loss_order(const std::vector<MetricSpec>& metrics) {
  for (const MetricSpec& m : metrics)
    if (m.by_loss()) return true;
  return false;
}
inline bool needs_bins(const std::vector<MetricSpec>& metrics) {
  for (const MetricSpec& m : metrics)
    if (m.by_bins()) return true;
  return false;
}
inline bool needs_cases(const std::vector<MetricSpec>& metrics) {
  for (const MetricSpec& m : metrics)
    if (m.by_cases()) return true;
  return false;
}
inline bool needs_classes(const std::vector<MetricSpec>& metrics) {
  for (const MetricSpec& m : metrics)
    if (m.by_classes()) return true;
  return false;
}

// ---- the replicate loop ----------------------------------------------------

// Metric values of every replicate, column and metric, for replicates whose
// counts come from `fill`.
//   cols     prepared columns; when a metric needs the loss order
//            (needs_loss_order()), also prepare_loss_order() on each (a
//            column without it gets NaN for those metrics), and likewise
//            prepare_bins() for ECE, MCE and the debiased l2 error, and
//            prepare_cases() for the CORP parts and the smooth ECE
//   rows     the number of case positions the columns' `order` refers to
//   fill     fill(b0, nb, counts): writes the counts of replicates
//            b0 .. b0 + nb - 1 (nb <= kBlock) into counts, interleaved
//            (counts[i * kBlock + r]), every count of those lanes (zero
//            for cases not drawn: the buffer holds the previous block's
//            counts); called from worker threads, so it must only read
//            shared state
//   out      B x C x M, column-major (replicate fastest)
// Replicates are processed in blocks of kBlock, blocks in parallel; check()
// runs on the calling thread between chunks of blocks, and so does
// progress(d), d = the number of replicates done. Returns the number of
// threads used.
template <class Fill, class Check = NoCheck, class Progress = NoProgress>
int replicate_metrics(const std::vector<RankingColumn>& cols, std::size_t rows,
                      std::size_t B, const std::vector<MetricSpec>& metrics,
                      int threads, const Fill& fill, double* out,
                      Check check = Check(), Progress progress = Progress()) {
  const std::size_t C = cols.size(), M = metrics.size();
  threads = usable_threads(threads);  // 1 in a forked child (threads.h)
#ifndef _OPENMP
  threads = 1;
#endif
  const bool need_loss = needs_loss_order(metrics);
  const bool need_bins = needs_bins(metrics);
  const bool need_cases = needs_cases(metrics);
  const bool need_classes = needs_classes(metrics);
  const bool stream = metrics_stream(metrics);
  const has_whole_counts<Fill> whole_tag{};
  const bool use_float = stream && fills_whole_counts(fill, whole_tag);
  bool stream_aurc = false;
  for (const MetricSpec& m : metrics)
    stream_aurc = stream_aurc || m.kind == MetricKind::aurc;
  const std::size_t n_blocks = (B + kBlock - 1) / kBlock;
  // blocks between two interrupt checks: 4 per thread, fewer for large
  // data (about 2^23 case-replicates, a fraction of a second, per check;
  // at least one block per thread)
  const std::size_t per_check =
      (std::size_t(1) << 23) / (rows * kBlock > 0 ? rows * kBlock : 1);
  const std::size_t chunk =
      std::max(static_cast<std::size_t>(threads),
               std::min(4 * static_cast<std::size_t>(threads), per_check));
  // one workspace per thread, kept over all chunks (allocated and touched
  // once: fresh pages for every chunk cost more than the draws)
  struct Workspace {
    std::vector<double> counts;
    std::vector<float> counts_f;  // when use_float
    std::vector<GroupVectors> groups, loss_groups;
    std::vector<BinVectors> bins;
    std::vector<double> case_work[4];  // CORP stacks, smooth ECE weights
    BalancedWork balanced;
  };
  // (sized here, so nothing is allocated inside the parallel region)
  std::size_t max_groups = 2, max_bins = 0;
  for (const RankingColumn& col : cols) {
    max_groups = std::max(max_groups, col.group_end.size());
    max_groups = std::max(max_groups, col.loss_group_end.size());
    max_bins = std::max(max_bins, col.bin_end.size());
  }
  std::vector<Workspace> work(static_cast<std::size_t>(threads));
  for (Workspace& w : work) {
    if (use_float)
      assign_large(w.counts_f, rows * kBlock, 0.0f);
    else
      assign_large(w.counts, rows * kBlock, 0.0);
    w.groups.resize(kBlock);
    w.loss_groups.resize(kBlock);
    w.bins.resize(kBlock);
    for (std::size_t r = 0; r < kBlock && !stream; ++r) {
      w.groups[r].count.reserve(max_groups);
      w.groups[r].loss.reserve(max_groups);
      if (need_loss) {
        w.loss_groups[r].count.reserve(max_groups);
        w.loss_groups[r].loss.reserve(max_groups);
      }
      if (need_bins) {
        w.bins[r].count.reserve(max_bins);
        w.bins[r].sum_x.reserve(max_bins);
        w.bins[r].sum_y.reserve(max_bins);
      }
    }
    if (need_cases)
      for (std::vector<double>& v : w.case_work) v.reserve(rows);
  }
  for (std::size_t lo = 0; lo < n_blocks; lo += chunk) {
    check();
    const std::size_t hi = (n_blocks - lo > chunk) ? lo + chunk : n_blocks;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1)
#endif
    {
#ifdef _OPENMP
      Workspace& ws = work[static_cast<std::size_t>(omp_get_thread_num())];
#else
      Workspace& ws = work[0];
#endif
      std::vector<double>& counts = ws.counts;
      std::vector<GroupVectors>& groups = ws.groups;
      std::vector<GroupVectors>& loss_groups = ws.loss_groups;
      std::vector<BinVectors>& bins = ws.bins;
#ifdef _OPENMP
#pragma omp for schedule(dynamic)
#endif
      for (long long kk = static_cast<long long>(lo);
           kk < static_cast<long long>(hi); ++kk) {
        const std::size_t b0 = static_cast<std::size_t>(kk) * kBlock;
        const std::size_t nb = (B - b0 > kBlock) ? kBlock : B - b0;
        if (use_float)
          fill_whole_counts(fill, b0, nb, ws.counts_f.data(), whole_tag);
        else
          fill(b0, nb, counts.data());
        if (stream) {
          StreamLanes st;
          for (std::size_t c = 0; c < C; ++c) {
            if (use_float) {
              if (stream_aurc)
                stream_block<true>(cols[c], ws.counts_f.data(), st);
              else
                stream_block<false>(cols[c], ws.counts_f.data(), st);
            } else if (stream_aurc) {
              stream_block<true>(cols[c], counts.data(), st);
            } else {
              stream_block<false>(cols[c], counts.data(), st);
            }
            for (std::size_t r = 0; r < nb; ++r)
              for (std::size_t m = 0; m < M; ++m)
                out[b0 + r + B * (c + C * m)] =
                    stream_value(metrics[m], st, r);
          }
          continue;
        }
        for (std::size_t c = 0; c < C; ++c) {
          replicate_groups_block(cols[c], counts.data(), groups.data());
          const bool have_loss = need_loss && cols[c].loss_ready;
          if (have_loss)
            replicate_loss_groups_block(cols[c], counts.data(), groups.data(),
                                        loss_groups.data());
          const bool have_bins = need_bins && !cols[c].bin_end.empty();
          if (have_bins)
            replicate_bins_block(cols[c], counts.data(), bins.data());
          const bool have_cases = need_cases && !cols[c].resid.empty();
          const bool have_classes = need_classes && !cols[c].cls.empty();
          for (std::size_t r = 0; r < nb; ++r) {
            const double total = total_count(groups[r]);
            ReplicateCases rc;
            if (have_cases) {
              rc.sorted = sorted_cases(cols[c]);
              rc.resid = cols[c].resid.data();
              rc.counts = counts.data() + r;
              rc.stride = kBlock;
              rc.work = ws.case_work;
            }
            ReplicateClasses rk;
            if (have_classes) {
              rk.sorted = sorted_cases(cols[c]);
              rk.cls = cols[c].cls.data();
              rk.K = cols[c].n_classes;
              rk.counts = counts.data() + r;
              rk.stride = kBlock;
              rk.work = &ws.balanced;
            }
            const ReplicateGroups g{groups[r],
                                    have_loss ? &loss_groups[r] : nullptr,
                                    total, have_bins ? &bins[r] : nullptr,
                                    have_cases ? &rc : nullptr,
                                    have_classes ? &rk : nullptr};
            for (std::size_t m = 0; m < M; ++m)
              out[b0 + r + B * (c + C * m)] = evaluate_metric(metrics[m], g);
          }
        }
      }
    }
    progress(hi * kBlock < B ? hi * kBlock : B);
  }
  return threads;
}

// Replicates given as drawn case positions (the ranking, DEFINITIONS Sec. 7).
//   indices  n x B, column-major: the 1-based case positions drawn in each
//            replicate (validated by the caller: every value in 1..n); with
//            replicate_rows, B x n instead (one row per replicate, the layout
//            users hand in, read without a transposed copy)
//   out      B x C x M, column-major (replicate fastest)
template <class Check = NoCheck, class Progress = NoProgress>
int bootstrap_metrics(const std::vector<RankingColumn>& cols, std::size_t n,
                      const int* indices, std::size_t B,
                      const std::vector<MetricSpec>& specs,
                      int threads, double* out, Check check = Check(),
                      Progress progress = Progress(),
                      bool replicate_rows = false) {
  auto fill = [&](std::size_t b0, std::size_t nb, double* counts) {
    std::fill(counts, counts + n * kBlock, 0.0);
    if (replicate_rows) {
      for (std::size_t i = 0; i < n; ++i) {
        const int* draws = indices + b0 + i * B;  // case i, replicates
        for (std::size_t r = 0; r < nb; ++r)
          counts[static_cast<std::size_t>(draws[r] - 1) * kBlock + r] += 1.0;
      }
    } else {
      for (std::size_t r = 0; r < nb; ++r) {
        const int* draw = indices + (b0 + r) * n;
        for (std::size_t i = 0; i < n; ++i)
          counts[static_cast<std::size_t>(draw[i] - 1) * kBlock + r] += 1.0;
      }
    }
  };
  return replicate_metrics(cols, n, B, specs, threads, fill, out, check,
                           progress);
}

}  // namespace aurc

#endif
