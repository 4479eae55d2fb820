// Smooth ECE (Blasiok & Nakkiran 2024): kernel smoothing of the residuals
// r_i = y_i - f_i with a reflected Gaussian kernel on [0, 1].
//
// No sort is needed. Every evaluation deposits the (weighted) residuals and
// weights on an equally spaced grid by linear binning (a sample at f between
// nodes g and g + delta, a = (f - g) / delta, gives (1 - a) to g and a to
// g + delta), convolves the grid with the kernel inside a window, and sums.
// Cost: O(n) for the deposit plus O(grid * window) for the convolution,
// which does not grow with n.
//
// Two recipes (SmoothMethod):
//   relplot  the authors' library `relplot` (apple/ml-calibration, commit
//            18ff21a of Nov 2025), step by step: deposit on m = floor(max(2000,
//            round(20 / sigma)) / 2) + 1 nodes; discrete convolution with
//            the Gaussian density evaluated at the node offsets, truncated
//            at distance 1/2 and reflected once at each end (node 0 and
//            node m-1 are the mirrors and are not doubled, so a sample at
//            exactly 0 or 1 carries half its weight); linear interpolation
//            of the smoothed residual and smoothed weight at G = max(200,
//            round(10 / sigma)) equally spaced points t_k; then
//            smECE = sum_k |R(t_k)| / sum_k (D(t_k) + 1e-4).
//   fine     the definition: smECE_sigma = int_0^1 |g(t)| dt with
//            g(t) = (1/W) sum_i w_i r_i K(t, f_i) and K the reflected
//            Gaussian kernel with all its images (K integrates to 1 over
//            [0, 1]; a node at 0 or 1 is its own image and counts twice);
//            trapezoid rule on G = max(200, ceil(10 / sigma)) + 1
//            points; the kernel sums at those points come from a deposit on
//            a grid 40 times finer (spacing delta <= sigma / 400), so the
//            binning error of the result is at most about
//            0.121 (delta / sigma)^2 <= 7.6e-7. The Gaussian is cut at
//            9 sigma (mass beyond: 2e-19).
#ifndef AURC_CORE_SMOOTH_ECE_H
#define AURC_CORE_SMOOTH_ECE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "interrupt.h"

namespace aurc {

enum class SmoothMethod { relplot, fine };

// Samples: confidence f in [0, 1], residual r = y - f, weight w (empty: 1).
struct SmoothData {
  const double* f = nullptr;
  const double* r = nullptr;
  const double* w = nullptr;
  std::size_t n = 0;
};

constexpr double kSqrt2Pi = 2.5066282746310002;

// Linear binning onto m >= 2 nodes j / (m - 1) (relplot's rounding rule:
// node index truncated and clipped to [0, m - 2]).
template <class Check>
inline void smooth_deposit(const SmoothData& d, std::size_t m,
                           std::vector<double>& res, std::vector<double>& wt,
                           Check& check) {
  res.assign(m, 0.0);
  wt.assign(m, 0.0);
  const double scale = double(m - 1);
  chunked_for(0, d.n, check, [&](std::size_t i) {
    const double t = d.f[i] * scale;
    std::size_t b = static_cast<std::size_t>(t);
    if (b > m - 2) b = m - 2;
    const double frac = t - double(b);
    const double wi = d.w ? d.w[i] : 1.0;
    const double ri = d.r[i] * wi;
    res[b] += (1.0 - frac) * ri;
    res[b + 1] += frac * ri;
    wt[b] += (1.0 - frac) * wi;
    wt[b + 1] += frac * wi;
  });
}

// ---- relplot recipe ----

inline std::size_t relplot_grid_nodes(double sigma) {
  const double e = std::max(2000.0, std::nearbyint(20.0 / sigma));
  return static_cast<std::size_t>(e) / 2 + 1;
}

inline std::size_t relplot_eval_points(double sigma) {
  return static_cast<std::size_t>(
      std::max(200.0, std::nearbyint(10.0 / sigma)));
}

// relplot's convolution of `v` (m nodes, m odd) with its kernel: window of
// (m - 1) / 2 nodes each side, one reflection at each end. Offsets whose
// kernel value underflows to 0 are skipped (they add exactly 0).
inline void relplot_convolve(const std::vector<double>& v, double sigma,
                             std::vector<double>& out) {
  const std::size_t m = v.size();
  const long h = static_cast<long>((m - 1) / 2);
  const double step = 1.0 / double(m - 1);
  long reach = static_cast<long>(std::ceil(40.0 * sigma * double(m - 1)));
  if (reach > h) reach = h;
  std::vector<double> ker(2 * reach + 1);
  const double norm = kSqrt2Pi * sigma;
  for (long d = -reach; d <= reach; ++d) {
    const double t = double(h + d) * step - 0.5;
    ker[d + reach] = std::exp(-t * t / (2.0 * sigma * sigma)) / norm;
  }
  const long last = static_cast<long>(m) - 1;
  out.assign(m, 0.0);
  for (long p = 0; p <= last; ++p) {
    double s = 0.0;
    for (long d = -reach; d <= reach; ++d) {
      long q = p + d;
      if (q < 0) q = -q;
      if (q > last) q = 2 * last - q;
      s += v[static_cast<std::size_t>(q)] * ker[d + reach];
    }
    out[static_cast<std::size_t>(p)] = s;
  }
}

// relplot's linear interpolation of node values y (node j at j / (m - 1))
// at t.
inline double relplot_interpolate(const std::vector<double>& y, double t) {
  const std::size_t m = y.size();
  const double bucket = 1.0 / double(m - 1);
  double ti = t * double(m - 1);
  std::size_t k = static_cast<std::size_t>(ti);
  if (k > m - 2) k = m - 2;
  const double frac = (t - double(k) * bucket) / bucket;
  return y[k] * (1.0 - frac) + y[k + 1] * frac;
}

// numpy.linspace(0, 1, g)[k].
inline double linspace01(std::size_t k, std::size_t g) {
  if (k + 1 == g) return 1.0;
  return double(k) * (1.0 / double(g - 1));
}

// Smoothed residual R(t) and weight D(t) at the points t (relplot's
// apply(); D without its 1e-4).
template <class Check>
inline void relplot_smooth(const SmoothData& d, double sigma,
                           const std::vector<double>& t,
                           std::vector<double>& res_t,
                           std::vector<double>& wt_t, Check& check) {
  std::vector<double> res, wt, sres, swt;
  smooth_deposit(d, relplot_grid_nodes(sigma), res, wt, check);
  check();
  relplot_convolve(res, sigma, sres);
  relplot_convolve(wt, sigma, swt);
  res_t.resize(t.size());
  wt_t.resize(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    res_t[k] = relplot_interpolate(sres, t[k]);
    wt_t[k] = relplot_interpolate(swt, t[k]);
  }
}

constexpr double kRelplotEps = 1e-4;

// ---- fine recipe ----

constexpr std::size_t kFineStride = 40;
constexpr double kFineCut = 9.0;

inline std::size_t fine_eval_intervals(double sigma) {
  return static_cast<std::size_t>(std::max(200.0, std::ceil(10.0 / sigma)));
}

// Kernel sums g_res(t_k), g_wt(t_k) at t_k = k / (G - 1), k = 0..G-1, from
// a deposit on the grid j / ((G - 1) * stride); full reflection (the
// reflected node positions are folded back into [0, 1] with period 2).
template <class Check>
inline void fine_smooth(const SmoothData& d, double sigma, std::size_t g,
                        std::vector<double>& res_t, std::vector<double>& wt_t,
                        bool need_weight, Check& check,
                        bool allow_sparse = true) {
  const std::size_t m = (g - 1) * kFineStride + 1;
  std::vector<double> res, wt;
  smooth_deposit(d, m, res, wt, check);
  check();
  const double delta = 1.0 / double(m - 1);
  const long last = static_cast<long>(m) - 1;
  const long reach =
      static_cast<long>(std::ceil(kFineCut * sigma / delta));
  std::vector<double> ker(static_cast<std::size_t>(reach) + 1);
  const double norm = kSqrt2Pi * sigma;
  for (long j = 0; j <= reach; ++j) {
    const double u = double(j) * delta / sigma;
    ker[static_cast<std::size_t>(j)] = std::exp(-0.5 * u * u) / norm;
  }
  // the grid extended by `reach` nodes on each side with its reflections
  // (folded back into [0, 1] with period 2), so the window sum below is a
  // contiguous dot product. A node at 0 or 1 is its own mirror image: the
  // kernel of a sample at f = 1 is phi(t - 1) + phi(t - (2 - 1)), twice
  // phi(t - 1), so such nodes count twice (otherwise a sample at exactly 0
  // or 1 would carry half its weight).
  const long period = 2 * last;
  const std::size_t ext_n = static_cast<std::size_t>(last + 1 + 2 * reach);
  std::vector<double> ext_res(ext_n), ext_wt(ext_n);
  for (long j = -reach; j <= last + reach; ++j) {
    long q = j % period;
    if (q < 0) q += period;
    const double mult = (q == 0 || q == last) ? 2.0 : 1.0;
    if (q > last) q = period - q;
    const std::size_t at = static_cast<std::size_t>(j + reach);
    ext_res[at] = mult * res[static_cast<std::size_t>(q)];
    ext_wt[at] = mult * wt[static_cast<std::size_t>(q)];
  }
  res_t.assign(g, 0.0);
  wt_t.assign(g, 0.0);
  // Few occupied nodes (few samples or tied confidences, e.g. in bootstrap
  // replicates): the residual sums visit only the nonzero nodes, in the
  // same order of j as the dense loop, so the sums are identical (a term
  // with both nodes 0 adds exactly 0; one with one node 0 is a * k either
  // way).
  std::vector<std::size_t> nz;
  for (std::size_t p = 0; p < ext_n; ++p)
    if (ext_res[p] != 0.0) nz.push_back(p);
  const bool sparse = allow_sparse && nz.size() * 16 < ext_n;
  for (std::size_t k = 0; k < g; ++k) {
    // node c of the grid is ext[c + reach]
    const std::size_t c = k * kFineStride + static_cast<std::size_t>(reach);
    double sr = ext_res[c] * ker[0], sw = ext_wt[c] * ker[0];
    const std::size_t rr = static_cast<std::size_t>(reach);
    if (sparse) {
      // nz[right] the first occupied node > c; nz[left - 1] the last < c
      std::size_t right = static_cast<std::size_t>(
          std::upper_bound(nz.begin(), nz.end(), c) - nz.begin());
      std::size_t left = static_cast<std::size_t>(
          std::lower_bound(nz.begin(), nz.end(), c) - nz.begin());
      while (true) {
        const std::size_t dl = left > 0 ? c - nz[left - 1] : rr + 1;
        const std::size_t dr = right < nz.size() ? nz[right] - c : rr + 1;
        const std::size_t j = dl < dr ? dl : dr;
        if (j > rr) break;
        sr += (ext_res[c - j] + ext_res[c + j]) * ker[j];
        if (dl == j) --left;
        if (dr == j) ++right;
      }
    } else {
      for (std::size_t j = 1; j <= rr; ++j) {
        sr += (ext_res[c - j] + ext_res[c + j]) * ker[j];
      }
    }
    if (need_weight) {
      for (std::size_t j = 1; j <= static_cast<std::size_t>(reach); ++j)
        sw += (ext_wt[c - j] + ext_wt[c + j]) * ker[j];
    }
    res_t[k] = sr;
    wt_t[k] = sw;
    if ((k & 1023) == 1023) check();
  }
}

// smECE_sigma of the data. total: the sum of the weights.
template <class Check>
inline double smooth_ece_sigma(const SmoothData& d, double total,
                               double sigma, SmoothMethod method,
                               Check& check) {
  std::vector<double> res_t, wt_t;
  if (method == SmoothMethod::relplot) {
    const std::size_t g = relplot_eval_points(sigma);
    std::vector<double> t(g);
    for (std::size_t k = 0; k < g; ++k) t[k] = linspace01(k, g);
    relplot_smooth(d, sigma, t, res_t, wt_t, check);
    double num = 0.0, den = 0.0;
    for (std::size_t k = 0; k < g; ++k) {
      num += std::fabs(res_t[k]);
      den += wt_t[k] + kRelplotEps;
    }
    return num / den;
  }
  const std::size_t g = fine_eval_intervals(sigma) + 1;
  fine_smooth(d, sigma, g, res_t, wt_t, false, check);
  double s = 0.0;
  for (std::size_t k = 0; k < g; ++k) {
    const double a = std::fabs(res_t[k]);
    s += (k == 0 || k + 1 == g) ? 0.5 * a : a;
  }
  return s / double(g - 1) / total;
}

// The bandwidth of relplot's smECE(): sigma = 1 if 1 < smECE_1; otherwise
// ten bisection steps on (0, 1) keeping smECE_lo > lo (or lo < eps) and
// smECE_hi <= hi; the result is the upper end `hi`.
struct SmoothResult {
  double value = 0.0;
  double sigma = 0.0;
};

template <class Check>
inline SmoothResult smooth_ece_search(const SmoothData& d, double total,
                                      SmoothMethod method, double eps,
                                      int steps, Check& check) {
  auto too_small = [&](double s) {
    return s < eps || s < smooth_ece_sigma(d, total, s, method, check);
  };
  SmoothResult out;
  double hi = 1.0;
  if (!too_small(1.0)) {
    double lo = 0.0;
    for (int i = 0; i < steps; ++i) {
      const double mid = (hi + lo) / 2.0;
      if (too_small(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }
  out.sigma = hi;
  out.value = smooth_ece_sigma(d, total, hi, method, check);
  return out;
}

}  // namespace aurc

#endif
