// The draws of the bootstrap intervals (DEFINITIONS Sec. 11): replicates as vectors
// of case counts, made by the fast generator of rng.h, one stream per
// replicate, and evaluated by the block loop of bootstrap.h.
//
// Case positions. The glue puts the cases in one canonical order, the
// ascending order of the first score (ties in input order), and prepares
// every column on it; the first score's column then reads the counts
// sequentially (its sorted order is the identity), which is what makes a
// replicate over a million cases cheap.
//
// What is drawn (ResamplePlan). The sampling units are the cases, or with
// `cluster` the clusters; with `strata` the units of each stratum are drawn
// separately, each stratum keeping its size. A replicate draws, in every
// stratum, as many units as it holds, with replacement:
//   no case weights   units uniformly; a drawn case counts 1
//   case weights      frequency weights: the data with case i repeated w_i
//                     times. Without clusters a replicate draws
//                     round(sum of w in the stratum) rows, case i with
//                     probability w_i / sum(w) (alias method): exactly the
//                     bootstrap of the repeated rows, in distribution.
//                     When the rows outnumber the cases kRowsPerCase times,
//                     the same multinomial counts come from one binomial
//                     draw per case (rng.h), so the cost does not grow with
//                     the weights.
//                     With clusters, clusters are drawn uniformly and a
//                     drawn cluster adds w_i to each of its cases (the
//                     repeated rows stay in their cluster).
//   cluster           a drawn cluster adds its cases (times their weights)
// A replicate's stream is fixed by (seed, replicate number) alone, and the
// order of its draws is fixed, so the counts do not depend on threads.
//
// The jackknife (for the BCa acceleration without influence values) deletes
// one unit at a time: one row of case i (its count w_i - min(1, w_i)), or
// one whole cluster.
#ifndef AURC_CORE_CI_BOOTSTRAP_H
#define AURC_CORE_CI_BOOTSTRAP_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bootstrap.h"
#include "rng.h"

namespace aurc {

// Weighted strata with at least this many rows per case draw their counts
// by sequential binomials (O(cases), whatever the weights' size) instead of
// one alias draw per row (O(rows)); below it the alias draws are cheaper.
constexpr double kRowsPerCase = 32.0;

struct ResamplePlan {
  std::size_t n = 0;  // case positions
  // units of each stratum: unit_ids[stratum_begin[s] .. stratum_begin[s+1])
  std::vector<std::size_t> stratum_begin, unit_ids;
  std::vector<std::size_t> draws;  // draws per stratum
  bool weighted = false;           // weighted cases, no clusters
  std::vector<AliasTable> alias;   // per stratum, when weighted
  // weighted strata whose rows outnumber their cases kRowsPerCase times or
  // more: multinomial counts by sequential binomials (rows = the number of
  // rows, total = the sum of the weights)
  std::vector<char> binomial;
  std::vector<double> rows, total;
  // clusters: the cases of unit u are cases[case_begin[u] .. case_begin[u+1])
  bool clustered = false;
  std::vector<std::size_t> case_begin, cases;
  std::vector<double> mult;  // per case: its weight (1 without weights)
  std::size_t n_units = 0;
  // powers of 2 the counts of drawn replicates (draw_scale) and of the
  // full data and jackknife (jack_scale) are multiplied by, so counts
  // stand within [2^-64, 2^64] whatever the weights' scale; 1 unless
  // set_count_scales() is called (only for metrics invariant to scaling
  // the counts)
  double draw_scale = 1.0, jack_scale = 1.0;
};

// The power of 2 that brings m into [1, 2) when m lies outside
// [2^-64, 2^64]; else 1 (counts in range stay exactly as they are). A
// subnormal m would need up to 2^1074, which overflows to Inf: 2^1023
// brings every positive subnormal to at least 2^-51, within the range.
inline double pow2_scale(double m) {
  const double lo = 5.421010862427522e-20, hi = 18446744073709551616.0;
  if (!(m > 0.0) || !std::isfinite(m) || (m >= lo && m <= hi)) return 1.0;
  const int e = -std::ilogb(m);
  return std::ldexp(1.0, e > 1023 ? 1023 : e);
}

// Sets the count scales of a plan from its weights: the largest count of
// a drawn replicate is at most the rows of a stratum (weighted cases) or
// the total weight (clusters); of the full data, the largest weight.
inline void set_count_scales(ResamplePlan& p) {
  double most_w = 0.0, total = 0.0;
  for (double w : p.mult) {
    most_w = w > most_w ? w : most_w;
    total += w;
  }
  double most_draw = 0.0;
  if (p.weighted)
    for (double r : p.rows) most_draw = r > most_draw ? r : most_draw;
  else if (p.clustered)
    most_draw = total;
  p.draw_scale = pow2_scale(most_draw);
  p.jack_scale = pow2_scale(most_w);
}

// weight: null or n non-negative weights; stratum: null or n codes in
//   0 .. n_strata - 1; cluster: null or n codes in 0 .. n_clusters - 1
//   (each cluster within one stratum, checked by the caller).
// Units with zero weight (cases of weight 0; clusters whose cases all have
// weight 0) are never drawn.
inline void make_plan(std::size_t n, const double* weight, const int* stratum,
                      std::size_t n_strata, const int* cluster,
                      std::size_t n_clusters, ResamplePlan& p) {
  p = ResamplePlan();
  p.n = n;
  if (!stratum) n_strata = 1;
  p.clustered = cluster != nullptr;
  p.mult.assign(n, 1.0);
  if (weight)
    for (std::size_t i = 0; i < n; ++i) p.mult[i] = weight[i];
  std::vector<double> unit_w;
  std::vector<std::size_t> unit_stratum;
  if (p.clustered) {
    p.n_units = n_clusters;
    p.case_begin.assign(n_clusters + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++p.case_begin[cluster[i] + 1];
    for (std::size_t u = 0; u < n_clusters; ++u)
      p.case_begin[u + 1] += p.case_begin[u];
    p.cases.resize(n);
    std::vector<std::size_t> next(p.case_begin.begin(), p.case_begin.end() - 1);
    unit_w.assign(n_clusters, 0.0);
    unit_stratum.assign(n_clusters, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t u = static_cast<std::size_t>(cluster[i]);
      p.cases[next[u]++] = i;
      unit_w[u] += p.mult[i];
      if (stratum) unit_stratum[u] = static_cast<std::size_t>(stratum[i]);
    }
  } else {
    p.n_units = n;
    p.weighted = weight != nullptr;
    unit_w = p.mult;
    unit_stratum.assign(n, 0);
    if (stratum)
      for (std::size_t i = 0; i < n; ++i)
        unit_stratum[i] = static_cast<std::size_t>(stratum[i]);
  }
  p.stratum_begin.assign(n_strata + 1, 0);
  for (std::size_t u = 0; u < p.n_units; ++u)
    if (unit_w[u] > 0.0) ++p.stratum_begin[unit_stratum[u] + 1];
  for (std::size_t s = 0; s < n_strata; ++s)
    p.stratum_begin[s + 1] += p.stratum_begin[s];
  p.unit_ids.resize(p.stratum_begin[n_strata]);
  {
    std::vector<std::size_t> next(p.stratum_begin.begin(),
                                  p.stratum_begin.end() - 1);
    for (std::size_t u = 0; u < p.n_units; ++u)
      if (unit_w[u] > 0.0) p.unit_ids[next[unit_stratum[u]]++] = u;
  }
  p.draws.assign(n_strata, 0);
  if (p.weighted) {
    p.alias.resize(n_strata);
    p.binomial.assign(n_strata, 0);
    p.rows.assign(n_strata, 0.0);
    p.total.assign(n_strata, 0.0);
  }
  for (std::size_t s = 0; s < n_strata; ++s) {
    const std::size_t b = p.stratum_begin[s], e = p.stratum_begin[s + 1];
    if (e == b) continue;
    if (p.weighted) {
      double total = 0.0;
      for (std::size_t k = b; k < e; ++k) total += unit_w[p.unit_ids[k]];
      const double d = std::floor(total + 0.5);
      p.rows[s] = d < 1.0 ? 1.0 : d;
      p.total[s] = total;
      // (a double: the rows may be beyond any integer type)
      if (p.rows[s] >= kRowsPerCase * static_cast<double>(e - b)) {
        p.binomial[s] = 1;
        continue;
      }
      std::vector<double> w(e - b);
      for (std::size_t k = b; k < e; ++k) w[k - b] = unit_w[p.unit_ids[k]];
      build_alias(w.data(), e - b, p.alias[s]);
      p.draws[s] = static_cast<std::size_t>(p.rows[s]);
    } else {
      p.draws[s] = e - b;
    }
  }
}

// The draws of replicate b: calls add(case, amount) for each drawn unit
// (the general path: case weights or clusters).
template <class Add>
void draw_replicate(const ResamplePlan& p, std::uint64_t seed, std::uint64_t b,
                    Add add) {
  Xoshiro256pp g = replicate_stream(seed, b);
  for (std::size_t s = 0; s + 1 < p.stratum_begin.size(); ++s) {
    const std::size_t begin = p.stratum_begin[s];
    const std::uint64_t size = p.stratum_begin[s + 1] - begin;
    if (size == 0) continue;
    if (p.weighted && p.binomial[s]) {
      // multinomial(rows, w / total) counts: case k gets Binomial(rows
      // left, w_k / weight left); the last case takes the rows left
      double left = p.rows[s], mass = p.total[s];
      for (std::size_t k = 0; k < size && left > 0.0; ++k) {
        const std::size_t u = p.unit_ids[begin + k];
        const double w = p.mult[u];
        const double x = k + 1 == size || !(mass > w)
                             ? left
                             : binomial_draw(left, w / mass, g);
        if (x > 0.0) add(u, x);
        left -= x;
        mass -= w;
      }
      continue;
    }
    for (std::size_t d = 0; d < p.draws[s]; ++d) {
      const std::size_t k =
          p.weighted ? alias_draw(p.alias[s], g)
                     : static_cast<std::size_t>(uniform_below(g, size));
      const std::size_t u = p.unit_ids[begin + k];
      if (p.clustered) {
        for (std::size_t j = p.case_begin[u]; j < p.case_begin[u + 1]; ++j)
          add(p.cases[j], p.mult[p.cases[j]]);
      } else {
        add(u, 1.0);
      }
    }
  }
}

// The fast path without case weights or clusters: counts of every case
// drawn at once, in case order, so no write is scattered. Independent
// Poisson(1) counts conditioned on their sum being the stratum's size are
// exactly the multinomial counts of drawing that many cases with
// replacement; the condition is met exactly by drawing more cases uniformly
// when the sum falls short, or taking away draws uniformly at random
// (without replacement, from the drawn multiset, by rejection) when it is
// over. Both are O(sqrt(n)) on average. The counts of replicate b0 + r are
// written to counts[i * stride + r], every case's.
inline bool plan_is_fast(const ResamplePlan& p) {
  return !p.weighted && !p.clustered;
}

//
// Several replicates (lanes) are drawn together, case by case, so each
// case's counts of the block are written at once (one cache line) rather
// than in one strided pass per replicate; each lane uses only its own
// stream, in the same order as when drawn alone, so the counts are those of
// draw_fast(..., nb = 1) for every replicate.
// (Count: double, or float, which holds every count exactly.)
template <class Count>
void draw_fast(const ResamplePlan& p, std::uint64_t seed, std::uint64_t b0,
               std::size_t nb, Count* counts, std::size_t stride) {
  std::vector<Xoshiro256pp> g;
  g.reserve(nb);
  for (std::size_t r = 0; r < nb; ++r)
    g.push_back(replicate_stream(seed, b0 + r));
  const Poisson1& pois = poisson1();
  std::vector<std::size_t> total(nb);
  std::vector<int> most(nb);
  for (std::size_t s = 0; s + 1 < p.stratum_begin.size(); ++s) {
    const std::size_t begin = p.stratum_begin[s];
    const std::size_t size = p.stratum_begin[s + 1] - begin;
    if (size == 0) continue;
    const std::size_t* unit = p.unit_ids.data() + begin;
    std::fill(total.begin(), total.end(), 0);
    std::fill(most.begin(), most.end(), 0);
    // kPerWord cases at a time: one generator word per lane gives their
    // draws (Poisson1::from_top()), so a lane's stream is used in the same
    // order whatever the number of lanes
    constexpr std::size_t per = Poisson1::kPerWord;
    for (std::size_t k0 = 0; k0 < size; k0 += per) {
      const std::size_t k1 = size - k0 > per ? k0 + per : size;
      for (std::size_t r = 0; r < nb; ++r) {
        std::uint64_t u = g[r].next();
        for (std::size_t k = k0; k < k1; ++k) {
          const int x = pois.from_top(u >> (64 - Poisson1::kBits), g[r]);
          u <<= Poisson1::kBits;
          counts[unit[k] * stride + r] = static_cast<Count>(x);
          total[r] += static_cast<std::size_t>(x);
          most[r] = x > most[r] ? x : most[r];
        }
      }
    }
    for (std::size_t r = 0; r < nb; ++r) {
      Xoshiro256pp& gr = g[r];
      for (; total[r] < size; ++total[r]) {
        const std::size_t k =
            static_cast<std::size_t>(uniform_below(gr, size));
        Count& c = counts[unit[k] * stride + r];
        c += static_cast<Count>(1);
        if (c > most[r]) ++most[r];
      }
      // take away one draw uniformly from the drawn multiset: case k with
      // probability counts_k / total, by rejection against the largest
      const double bound = static_cast<double>(most[r]);
      while (total[r] > size) {
        const std::size_t k =
            static_cast<std::size_t>(uniform_below(gr, size));
        Count& c = counts[unit[k] * stride + r];
        if (uniform01(gr) * bound < c) {
          c -= static_cast<Count>(1);
          --total[r];
        }
      }
    }
  }
}

// Counts of replicate b, one per case position (for tests and checks).
inline void replicate_counts(const ResamplePlan& p, std::uint64_t seed,
                             std::uint64_t b, double* counts) {
  if (plan_is_fast(p)) {
    draw_fast(p, seed, b, 1, counts, 1);
    return;
  }
  for (std::size_t i = 0; i < p.n; ++i) counts[i] = 0.0;
  draw_replicate(p, seed, b, [&](std::size_t i, double a) { counts[i] += a; });
}

// Fillers for replicate_metrics() (bootstrap.h).

// Drawn replicates first + 0, first + 1, ...
struct PlanFill {
  const ResamplePlan& plan;
  std::uint64_t seed;
  // the fast path's counts are whole numbers: the fused AURC/AUGRC pass
  // takes them in single precision (bootstrap.h)
  bool whole_counts() const { return plan_is_fast(plan); }
  void operator()(std::size_t b0, std::size_t nb, float* counts) const {
    draw_fast(plan, seed, b0, nb, counts, kBlock);
  }
  void operator()(std::size_t b0, std::size_t nb, double* counts) const {
    if (plan_is_fast(plan)) {  // writes every count
      draw_fast(plan, seed, b0, nb, counts, kBlock);
      return;
    }
    std::fill(counts, counts + plan.n * kBlock, 0.0);
    const double scale = plan.draw_scale;
    for (std::size_t r = 0; r < nb; ++r)
      draw_replicate(plan, seed, b0 + r, [&](std::size_t i, double a) {
        counts[i * kBlock + r] += a * scale;
      });
  }
};

// Replicates given as drawn case positions: idx is B x m, column-major
// (replicate b's draws at b, b + B, ...), 1-based positions mapped to case
// positions by `position` (0-based). Each draw counts 1 (one row).
struct IndexFill {
  const int* idx;
  std::size_t B, m;
  const std::vector<std::size_t>& position;
  void operator()(std::size_t b0, std::size_t nb, double* counts) const {
    std::fill(counts, counts + position.size() * kBlock, 0.0);
    for (std::size_t r = 0; r < nb; ++r)
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t i = position[static_cast<std::size_t>(
            idx[b0 + r + B * j] - 1)];
        counts[i * kBlock + r] += 1.0;
      }
  }
};

// The full data (one "replicate" with the case weights as counts) and the
// jackknife: replicate u deletes unit u (see the top of this file).
struct JackknifeFill {
  const ResamplePlan& plan;
  bool full;  // true: no deletion
  void operator()(std::size_t b0, std::size_t nb, double* counts) const {
    const double scale = plan.jack_scale;
    for (std::size_t r = 0; r < nb; ++r) {
      for (std::size_t i = 0; i < plan.n; ++i)
        counts[i * kBlock + r] = plan.mult[i] * scale;
      if (full) continue;
      const std::size_t u = b0 + r;
      if (plan.clustered) {
        for (std::size_t j = plan.case_begin[u]; j < plan.case_begin[u + 1];
             ++j)
          counts[plan.cases[j] * kBlock + r] = 0.0;
      } else {
        const double w = plan.mult[u];
        counts[u * kBlock + r] = (w - (w < 1.0 ? w : 1.0)) * scale;
      }
    }
  }
};

// The weight of each jackknife unit in the acceleration: the number of rows
// it stands for (w_i for a case, 1 for a cluster; 0 for units never drawn).
inline void jackknife_unit_weights(const ResamplePlan& p,
                                   std::vector<double>& out) {
  out.assign(p.n_units, 0.0);
  for (std::size_t k = 0; k < p.unit_ids.size(); ++k) {
    const std::size_t u = p.unit_ids[k];
    out[u] = p.clustered ? 1.0 : p.mult[u];
  }
}

}  // namespace aurc

#endif
