// Calibration bins (DEFINITIONS Sec. 8): the confidences are sorted once, then
// every binning is a linear pass that returns the bins as end positions in
// the sorted array; per-bin sums follow in one more pass.
//
// Binnings
//   breaks       bins (e_{b-1}, e_b], the first one closed on the left:
//                [e_0, e_1]. Equal-width bins use e_b = b / k (one exact
//                division per edge, never an accumulated 1/k).
//   equal_mass   k groups of nearly equal weight: boundary b is the edge of
//                a tie group nearest to b * W / k (the lower edge when both
//                are equally near), so ties are never split and, without
//                ties and unit weights, sizes differ by at most one.
//                Boundaries that coincide are dropped (fewer bins).
//   adaptive     Ding et al. (2020), grown from the highest confidence down.
//                A bin is full once its weight exceeds its target
//                0.25 (z / eps)^2, eps = its confidence range so far
//                (target infinite while eps = 0). The next unit opens a new
//                bin only if the weight from that unit down exceeds
//                min_remaining and the current bin's lowest confidence
//                exceeds the overall lowest one by more than min_range;
//                otherwise everything left joins the current (last) bin.
//                A last bin short of its (finite) target then takes
//                floor(needed * n_b / W) from every other bin b (in
//                proportion to its weight); the moved boundaries are put
//                back on the nearest tie-group edge (the one moving fewer
//                samples when equally near) and boundaries that coincide
//                are dropped, so no bin is ever empty.
//                Units are tie groups ("adaptive") or single samples in
//                the order of the input among ties ("ding2020", the
//                authors' code: ties may be split, and the top-up takes
//                floor(needed * n_last / n) from every bin alike).
// The adaptive binnings read the data in descending order: sort with
// descending = true (ties keep the input order, as the authors' stable
// sort of the confidences in reverse does).
#ifndef AURC_CORE_BINNING_H
#define AURC_CORE_BINNING_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "interrupt.h"
#include "memory.h"
#include "sort.h"

namespace aurc {

// Confidence x, correctness y (0/1) and weight w of every sample, sorted by
// x ascending (or descending). w empty: every sample counts once.
struct CalibSorted {
  work_vector<double> x, y, w;
  bool descending = false;

  std::size_t n() const { return x.size(); }
  double weight(std::size_t k) const { return w.empty() ? 1.0 : w[k]; }
  double total() const {
    if (w.empty()) return double(x.size());
    double s = 0.0;
    for (double v : w) s += v;
    return s;
  }
};

// The one sort. Stable: tied confidences keep the input order, in both
// directions. `weight` may be null.
template <class Check = NoCheck>
void calib_sort(const double* conf, const double* correct,
                const double* weight, std::size_t n, bool descending,
                CalibSorted& out, Check check = Check(), int threads = 1) {
  const double sgn = descending ? -1.0 : 1.0;
  work_vector<std::uint64_t> keys;
  resize_large(keys, n);
  out.descending = descending;
  if (!weight) {
    resize_large(out.y, n);
    out.w.clear();
    chunked_for(0, n, check, [&](std::size_t i) {
      keys[i] = sortable_key(sgn * conf[i]);
      out.y[i] = correct[i];
    });
    radix_sort(keys, out.y, check, threads);
  } else {
    work_vector<std::size_t> order;
    resize_large(order, n);
    chunked_for(0, n, check, [&](std::size_t i) {
      keys[i] = sortable_key(sgn * conf[i]);
      order[i] = i;
    });
    radix_sort(keys, order, check, threads);
    resize_large(out.y, n);
    resize_large(out.w, n);
    chunked_for(0, n, check, [&](std::size_t k) {
      out.y[k] = correct[order[k]];
      out.w[k] = weight[order[k]];
    });
  }
  resize_large(out.x, n);
  chunked_for(0, n, check, [&](std::size_t k) {
    const double v = key_to_double(keys[k]);
    out.x[k] = descending ? (v == 0.0 ? 0.0 : -v) : v;
  });
}

// 1-based equal-width bin of x in [0, 1] among k bins (0, 1/k], ...,
// ((k-1)/k, 1], x = 0 in bin 1. Edges are b / k, compared exactly, so the
// result agrees with bins_breaks() on the edges b / k.
// The 1-based bin of x among bins given by their ascending upper edges
// (bin b holds (upper[b-1], upper[b]]; values above the last edge go to the
// last bin): data-driven bins (adaptive, equal-mass) fixed in advance.
inline std::size_t edge_bin(double x, const std::vector<double>& upper) {
  const std::size_t k = upper.size();
  const std::size_t b = static_cast<std::size_t>(
      std::lower_bound(upper.begin(), upper.end(), x) - upper.begin());
  return b < k ? b + 1 : k;
}

inline std::size_t equal_width_bin(double x, std::size_t k) {
  const double kd = double(k);
  double c = std::ceil(x * kd);
  if (!(c >= 1.0)) c = 1.0;
  if (c > kd) c = kd;
  std::size_t b = std::size_t(c);
  if (b > 1 && x <= double(b - 1) / kd) {
    --b;
  } else if (b < k && x > double(b) / kd) {
    ++b;
  }
  return b;
}

// Bins with given edges (ascending data): ends[b] = one past the last
// sample of bin b; empty bins repeat the previous end.
inline void bins_breaks(const CalibSorted& d, const std::vector<double>& edges,
                        std::vector<std::size_t>& ends) {
  ends.clear();
  const std::size_t n = d.n();
  const std::size_t nb = edges.size() < 2 ? 1 : edges.size() - 1;
  std::size_t k = 0;
  for (std::size_t b = 1; b < nb; ++b) {
    while (k < n && d.x[k] <= edges[b]) ++k;
    ends.push_back(k);
  }
  ends.push_back(n);
}

// Calls f(begin, end, weight) for each run of equal confidences, in array
// order.
template <class F>
void for_each_tie_run(const CalibSorted& d, F f) {
  const std::size_t n = d.n();
  std::size_t begin = 0;
  double c = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    c += d.weight(k);
    if (k + 1 == n || d.x[k + 1] != d.x[k]) {
      f(begin, k + 1, c);
      begin = k + 1;
      c = 0.0;
    }
  }
}

// Equal-mass bins (ascending data, k >= 1).
inline void bins_equal_mass(const CalibSorted& d, std::size_t k,
                            std::vector<std::size_t>& ends) {
  ends.clear();
  const std::size_t n = d.n();
  const double total = d.total();
  const double kd = double(k);
  std::size_t b = 1;
  double lo = 0.0;
  for_each_tie_run(d, [&](std::size_t begin, std::size_t end, double c) {
    const double hi = lo + c;
    // target b * W / k lies in (lo, hi]: put the boundary on the nearer edge
    while (b < k && kd * hi >= double(b) * total) {
      const double twice = 2.0 * double(b) * total;
      const std::size_t pos = (twice <= kd * (lo + hi)) ? begin : end;
      if (pos > 0 && pos < n && (ends.empty() || pos > ends.back()))
        ends.push_back(pos);
      ++b;
    }
    lo = hi;
  });
  ends.push_back(n);
}

struct AdaptiveSettings {
  double z = 1.645;
  double min_remaining = 40.0;
  double min_range = 0.05;
  bool ding2020 = false;  // units are samples; the authors' top-up
};

// Outcome of the adaptive binning.
enum class AdaptiveStatus {
  ok = 0,
  ding_infinite_target = 1,  // authors' code: overflow (last bin one value)
  ding_nonpositive_bin = 2   // authors' code: a bin count <= 0 after top-up
};

// Adaptive bins (descending data): ends in descending array order.
inline AdaptiveStatus bins_adaptive(const CalibSorted& d,
                                    const AdaptiveSettings& s,
                                    std::vector<std::size_t>& ends) {
  ends.clear();
  const std::size_t n = d.n();
  if (n == 0) return AdaptiveStatus::ok;
  const double inf = std::numeric_limits<double>::infinity();
  const double total = d.total();
  const double lowest = d.x[n - 1];
  std::vector<double> num;  // weight per bin
  double count = 0.0, bmin = 0.0, bmax = 0.0, target = inf, before = 0.0;
  bool fresh = true;

  auto unit = [&](std::size_t begin, std::size_t end, double c) {
    if (count > target && total - before > s.min_remaining &&
        bmin - lowest > s.min_range) {
      num.push_back(count);
      ends.push_back(begin);
      count = 0.0;
      fresh = true;
    }
    const double v = d.x[begin];
    if (fresh) {
      bmin = bmax = v;
      fresh = false;
    }
    count += c;
    bmin = std::min(bmin, v);
    bmax = std::max(bmax, v);
    if (bmax == bmin) {
      target = inf;
    } else {
      const double t = s.z / (bmax - bmin);
      target = t * t * 0.25;
    }
    before += c;
    (void)end;
  };
  if (s.ding2020) {
    for (std::size_t k = 0; k < n; ++k) unit(k, k + 1, d.weight(k));
  } else {
    for_each_tie_run(d, unit);
  }
  num.push_back(count);
  ends.push_back(n);

  const std::size_t nb = num.size();
  const std::size_t last = nb - 1;
  if (nb < 2 || !(target - num[last] > 0.0)) return AdaptiveStatus::ok;
  const double needed = target - num[last];

  if (s.ding2020) {
    if (!std::isfinite(needed)) return AdaptiveStatus::ding_infinite_target;
    // the same amount from every bin (the authors' code uses the last
    // bin's count where each bin's own count was meant)
    const double extract = std::trunc(needed * num[last] / total);
    double cum = 0.0;
    for (std::size_t b = 0; b < last; ++b) {
      const double fin = num[b] - extract;
      if (!(fin > 0.0)) return AdaptiveStatus::ding_nonpositive_bin;
      cum += fin;
      ends[b] = std::size_t(cum);
    }
    return AdaptiveStatus::ok;
  }

  if (!std::isfinite(needed)) return AdaptiveStatus::ok;  // eps = 0: no top-up
  // proportional top-up; each moved boundary back onto the nearest unit
  // edge (the one nearer the old boundary, which moves fewer samples, when
  // equally near); coinciding boundaries merge bins
  std::vector<double> target_cum;  // moved boundaries, cumulative weight
  double cum = 0.0, prev = 0.0;
  for (std::size_t b = 0; b < last; ++b) {
    cum += num[b] - std::floor(needed * num[b] / total);
    prev = std::max(cum, prev);
    target_cum.push_back(prev);
  }
  // one more walk over the tie groups: boundary p inside the group spanning
  // cumulative weight (lo, hi] goes to hi when hi - p <= p - lo, else lo
  std::vector<std::size_t> moved;
  std::size_t t = 0;
  double lo = 0.0;
  std::size_t lo_pos = 0;
  auto place = [&](std::size_t pos) {
    if (pos > 0 && pos < n && (moved.empty() || pos > moved.back()))
      moved.push_back(pos);
  };
  if (d.w.empty() && d.descending) {
    // unit weights: boundary p is a whole number of samples, so the tie
    // group holding sample p - 1 is found by binary search, not a walk
    for (const double p : target_cum) {
      if (!(p > 0.0)) continue;
      const double v = d.x[std::size_t(p) - 1];
      const auto run = std::equal_range(d.x.begin(), d.x.end(), v,
                                        std::greater<double>());
      const std::size_t b = std::size_t(run.first - d.x.begin());
      const std::size_t e = std::size_t(run.second - d.x.begin());
      place((double(e) - p <= p - double(b)) ? e : b);
    }
    moved.push_back(n);
    ends.swap(moved);
    return AdaptiveStatus::ok;
  }
  for_each_tie_run(d, [&](std::size_t, std::size_t end, double c) {
    const double hi = lo + c;
    while (t < target_cum.size() && target_cum[t] <= hi) {
      const double p = target_cum[t];
      if (p > 0.0) place((hi - p <= p - lo) ? end : lo_pos);
      ++t;
    }
    lo = hi;
    lo_pos = end;
  });
  moved.push_back(n);
  ends.swap(moved);
  return AdaptiveStatus::ok;
}

// Weighted counts in k equal-width bins (edges j / k), by one merge over the
// sorted data in ascending order.
inline void equal_width_histogram(const CalibSorted& d, std::size_t k,
                                  std::vector<double>& out) {
  out.assign(k, 0.0);
  const std::size_t n = d.n();
  std::size_t b = 1;
  double edge = 1.0 / double(k);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t idx = d.descending ? n - 1 - i : i;
    const double x = d.x[idx];
    while (b < k && !(x <= edge)) {
      ++b;
      edge = double(b) / double(k);
    }
    out[b - 1] += d.weight(idx);
  }
}

// Per-bin sums over ranges of the sorted array (in its order).
struct BinStats {
  std::vector<double> n, sum_x, sum_y, min_x, max_x;
};

inline void bin_stats(const CalibSorted& d,
                      const std::vector<std::size_t>& ends, BinStats& out) {
  const std::size_t nb = ends.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.n.assign(nb, 0.0);
  out.sum_x.assign(nb, 0.0);
  out.sum_y.assign(nb, 0.0);
  out.min_x.assign(nb, nan);
  out.max_x.assign(nb, nan);
  std::size_t k = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    double c = 0.0, sx = 0.0, sy = 0.0;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (; k < ends[b]; ++k) {
      const double w = d.weight(k);
      c += w;
      sx += w * d.x[k];
      sy += w * d.y[k];
      lo = std::min(lo, d.x[k]);
      hi = std::max(hi, d.x[k]);
    }
    out.n[b] = c;
    out.sum_x[b] = sx;
    out.sum_y[b] = sy;
    if (lo <= hi) {
      out.min_x[b] = lo;
      out.max_x[b] = hi;
    }
  }
  if (d.descending) {
    std::reverse(out.n.begin(), out.n.end());
    std::reverse(out.sum_x.begin(), out.sum_x.end());
    std::reverse(out.sum_y.begin(), out.sum_y.end());
    std::reverse(out.min_x.begin(), out.min_x.end());
    std::reverse(out.max_x.begin(), out.max_x.end());
  }
}

// ECE and MCE from per-bin sums (non-empty bins only).
inline void calibration_errors(const BinStats& st, double& ece, double& mce) {
  double total = 0.0, acc = 0.0, mx = 0.0;
  for (std::size_t b = 0; b < st.n.size(); ++b) {
    if (!(st.n[b] > 0.0)) continue;
    const double gap = std::fabs(st.sum_y[b] / st.n[b] - st.sum_x[b] / st.n[b]);
    total += st.n[b];
    acc += st.n[b] * gap;
    mx = std::max(mx, gap);
  }
  if (!(total > 0.0)) {
    ece = mce = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  ece = acc / total;
  mce = mx;
}

}  // namespace aurc

#endif
