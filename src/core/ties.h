// Tie groups of a score vector, and the rank statistics of DEFINITIONS Sec. 1.
//
// presort() sorts the scores once (ascending) and keeps the sorted keys with
// the original positions; a tie group is a run of equal keys. Metrics read
// the data as a sequence of tie groups, each with a weighted count and a
// weighted loss sum, through a "group source": any type with
//   template <class F> void ascending(F f) const;   // f(count, loss_sum)
//   template <class F> void descending(F f) const;
// Three sources cover every use: SortedLoss (unweighted, the loss sorted
// along with the score, no gather), Presorted (original positions, with
// optional case weights or bootstrap counts), GroupVectors (sums already
// collected per group).
#ifndef AURC_CORE_TIES_H
#define AURC_CORE_TIES_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "interrupt.h"
#include "memory.h"
#include "sort.h"

namespace aurc {

// Calls f(begin, end) for each run of equal keys, ascending or descending.
// (No interrupt check inside: a check in this loop, even a plain load of
// a flag, made the passes 10% slower at n = 1e7. The callers check between
// passes; a pass over 1e8 keys takes about 0.1 s.)
template <class Keys, class F>
void for_each_run(const Keys& keys, F f) {
  const std::size_t n = keys.size();
  std::size_t begin = 0;
  for (std::size_t k = 1; k <= n; ++k) {
    if (k == n || keys[k] != keys[k - 1]) {
      f(begin, k);
      begin = k;
    }
  }
}

template <class Keys, class F>
void for_each_run_reverse(const Keys& keys, F f) {
  std::size_t end = keys.size();
  for (std::size_t k = end; k-- > 0;) {
    if (k == 0 || keys[k] != keys[k - 1]) {
      f(k, end);
      end = k;
    }
  }
}

// Scores sorted once, with original positions: reusable for any loss and
// any case weights or bootstrap counts.
struct Presorted {
  work_vector<std::uint64_t> keys;   // ascending
  work_vector<std::size_t> order;    // order[k]: input position of keys[k]

  std::size_t n() const { return keys.size(); }
};

template <class Check = NoCheck>
void presort(const double* score, std::size_t n, Presorted& p,
             Check check = Check(), int threads = 1) {
  resize_large(p.keys, n);
  resize_large(p.order, n);
  chunked_for(0, n, check, [&](std::size_t i) {
    p.keys[i] = sortable_key(score[i]);
    p.order[i] = i;
  });
  radix_sort(p.keys, p.order, check, threads);
}

// Group source over a Presorted: value[i] summed with weight[i] (null
// weight = 1 per sample). Also used for bootstrap counts as weights.
struct PresortedGroups {
  const Presorted& p;
  const double* value;
  const double* weight;

  template <class F>
  void visit(std::size_t b, std::size_t e, F& f) const {
    double c = 0.0, s = 0.0;
    if (weight) {
      for (std::size_t k = b; k < e; ++k) {
        const std::size_t i = p.order[k];
        c += weight[i];
        s += weight[i] * value[i];
      }
    } else {
      for (std::size_t k = b; k < e; ++k) s += value[p.order[k]];
      c = double(e - b);
    }
    f(c, s);
  }
  template <class F> void ascending(F f) const {
    for_each_run(p.keys, [&](std::size_t b, std::size_t e) { visit(b, e, f); });
  }
  template <class F> void descending(F f) const {
    for_each_run_reverse(p.keys,
                         [&](std::size_t b, std::size_t e) { visit(b, e, f); });
  }
  // every case on its own: tie groups in descending order, the cases of a
  // group in input order (the stable sort's), as f(weight, weight * value)
  template <class F> void cases_descending(F f) const {
    for_each_run_reverse(p.keys, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) {
        const std::size_t i = p.order[k];
        const double wi = weight ? weight[i] : 1.0;
        f(wi, wi * value[i]);
      }
    });
  }
};

// Scores sorted with the loss as payload: the fast path without weights.
struct SortedLoss {
  work_vector<std::uint64_t> keys;
  work_vector<double> loss;

  template <class F>
  void visit(std::size_t b, std::size_t e, F& f) const {
    double s = 0.0;
    for (std::size_t k = b; k < e; ++k) s += loss[k];
    f(double(e - b), s);
  }
  template <class F> void ascending(F f) const {
    for_each_run(keys, [&](std::size_t b, std::size_t e) { visit(b, e, f); });
  }
  template <class F> void descending(F f) const {
    for_each_run_reverse(keys,
                         [&](std::size_t b, std::size_t e) { visit(b, e, f); });
  }
  // every case on its own, as PresortedGroups::cases_descending()
  template <class F> void cases_descending(F f) const {
    for_each_run_reverse(keys, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) f(1.0, loss[k]);
    });
  }
};

template <class Check = NoCheck>
void sort_with_loss(const double* score, const double* loss, std::size_t n,
                    SortedLoss& out, Check check = Check(),
                    int threads = 1) {
  resize_large(out.keys, n);
  resize_large(out.loss, n);
  chunked_for(0, n, check, [&](std::size_t i) {
    out.keys[i] = sortable_key(score[i]);
    out.loss[i] = loss[i];
  });
  radix_sort(out.keys, out.loss, check, threads);
}

// Per-group sums already collected (ascending groups).
struct GroupVectors {
  std::vector<double> count, loss;

  template <class F> void ascending(F f) const {
    for (std::size_t g = 0; g < count.size(); ++g) f(count[g], loss[g]);
  }
  template <class F> void descending(F f) const {
    for (std::size_t g = count.size(); g-- > 0;) f(count[g], loss[g]);
  }
};

// Collects any group source into vectors.
template <class Source>
void collect_groups(const Source& src, GroupVectors& out) {
  out.count.clear();
  out.loss.clear();
  src.ascending([&](double c, double s) {
    out.count.push_back(c);
    out.loss.push_back(s);
  });
}

// The same for a source of at most `n` groups (one per sample): the
// vectors are sized once (push_back's doublings cost a third of the
// influence functions' time at n = 1e6 with distinct scores), and the
// runs are found in the same pass that sums them.
template <class Source>
void collect_groups_sized(const Source& src, std::size_t n,
                          GroupVectors& out) {
  out.count.resize(n);
  out.loss.resize(n);
  std::size_t g = 0;
  src.ascending([&](double c, double s) {
    out.count[g] = c;
    out.loss[g] = s;
    ++g;
  });
  out.count.resize(g);
  out.loss.resize(g);
}
inline void collect_groups(const PresortedGroups& src, GroupVectors& out) {
  collect_groups_sized(src, src.p.order.size(), out);
}
inline void collect_groups(const SortedLoss& src, GroupVectors& out) {
  collect_groups_sized(src, src.keys.size(), out);
}

// Total weighted count of a source.
template <class Source>
double total_count(const Source& src) {
  double n = 0.0;
  src.ascending([&](double c, double) { n += c; });
  return n;
}

}  // namespace aurc

#endif
