// CORP reliability (Dimitriadis, Gneiting & Jordan 2021): isotonic
// regression of the outcome on the confidence by pool-adjacent-violators,
// tied confidences pooled, and the score decomposition
// mean score = MCB - DSC + UNC.
//
// Input: tie groups in ascending confidence, each with its weight and its
// weighted sum of outcomes (one pass over the sorted data). PAV is then a
// single stack pass over the groups: a new group is merged with the block
// before it while that block's mean is >= its own (so every block mean is
// strictly greater than the one before; adjacent blocks never have equal
// means). Linear in the number of groups.
#ifndef AURC_CORE_PAV_H
#define AURC_CORE_PAV_H

#include <cmath>
#include <cstddef>
#include <vector>

namespace aurc {

// Tie groups of sorted confidences x (ascending) with outcomes y and weights
// w (empty: 1).
struct TieGroups {
  std::vector<double> x, weight, sum_y;
  std::vector<std::size_t> count;  // samples (rows) per group
};

template <class V>
void tie_groups(const V& x, const V& y, const V& w, TieGroups& g) {
  g = TieGroups();
  // reserve: no reallocation when every confidence is distinct (untouched
  // capacity costs no memory traffic)
  g.x.reserve(x.size());
  g.weight.reserve(x.size());
  g.sum_y.reserve(x.size());
  g.count.reserve(x.size());
  const std::size_t n = x.size();
  for (std::size_t k = 0; k < n; ++k) {
    const double wk = w.empty() ? 1.0 : w[k];
    if (k == 0 || x[k] != x[k - 1]) {
      g.x.push_back(x[k]);
      g.weight.push_back(0.0);
      g.sum_y.push_back(0.0);
      g.count.push_back(0);
    }
    g.weight.back() += wk;
    g.sum_y.back() += wk * y[k];
    g.count.back() += 1;
  }
}

// PAV over groups with weights `weight` and outcome sums `sum_y` (groups of
// weight 0 are skipped and get the value of the block they fall in, or NaN
// when no block covers them). Returns the block of every group (block ids
// ascending) and every block's first/last group, weight and mean.
struct PavFit {
  std::vector<std::size_t> block_of;  // per group
  std::vector<std::size_t> first, last;
  std::vector<double> weight, mean;
};

inline void pav(const std::vector<double>& weight,
                const std::vector<double>& sum_y, PavFit& fit) {
  const std::size_t m = weight.size();
  // the stack of blocks lives in arrays of size m; `top` blocks are open
  fit.first.resize(m);
  fit.last.resize(m);
  fit.weight.resize(m);
  fit.mean.resize(m);
  std::vector<double> sum(m);
  std::size_t top = 0;
  for (std::size_t k = 0; k < m; ++k) {
    if (!(weight[k] > 0)) continue;
    std::size_t b = top++;
    fit.first[b] = k;
    fit.last[b] = k;
    fit.weight[b] = weight[k];
    sum[b] = sum_y[k];
    fit.mean[b] = sum_y[k] / weight[k];
    while (b > 0 && !(fit.mean[b - 1] < fit.mean[b])) {
      fit.weight[b - 1] += fit.weight[b];
      sum[b - 1] += sum[b];
      fit.last[b - 1] = fit.last[b];
      fit.mean[b - 1] = sum[b - 1] / fit.weight[b - 1];
      --top;
      --b;
    }
  }
  fit.first.resize(top);
  fit.last.resize(top);
  fit.weight.resize(top);
  fit.mean.resize(top);
  fit.block_of.assign(m, 0);
  for (std::size_t b = 0; b < top; ++b)
    for (std::size_t k = fit.first[b]; k <= fit.last[b]; ++k)
      fit.block_of[k] = b;
}

// Score S(p, y) of a probability p for a 0/1 outcome y.
enum class CorpScore { brier, log };

inline double corp_score(double p, double y, CorpScore s) {
  if (s == CorpScore::brier) return (p - y) * (p - y);
  const double q = y > 0.5 ? p : 1.0 - p;
  return -std::log(q);
}

// Expected score of a probability c for outcomes with mean c (the entropy
// term): c (1 - c) for Brier, -c log c - (1 - c) log(1 - c) for log.
inline double corp_entropy(double c, CorpScore s) {
  if (s == CorpScore::brier) return c * (1.0 - c);
  double h = 0.0;
  if (c > 0.0) h -= c * std::log(c);
  if (c < 1.0) h -= (1.0 - c) * std::log(1.0 - c);
  return h;
}

struct CorpDecomposition {
  double mean_score = 0, mcb = 0, dsc = 0, unc = 0;
};

// Decomposition from the tie groups (confidence x_g, weight W_g, weighted
// outcome sum S_g) and their PAV fit. With S(p, y) the score:
// mean score = (1/W) sum_g [S_g S(x_g, 1) + (W_g - S_g) S(x_g, 0)];
// UNC = S-entropy of the overall outcome mean; Sc = (1/W) sum_b W_b
// entropy(c_b) (the mean score of the PAV fit: a block's outcome mean is its
// fitted value c_b); MCB = mean score - Sc; DSC = UNC - Sc.
inline CorpDecomposition corp_decompose(const std::vector<double>& x,
                                        const std::vector<double>& weight,
                                        const std::vector<double>& sum_y,
                                        const PavFit& fit, CorpScore s) {
  CorpDecomposition out;
  double total = 0.0, ones = 0.0, score = 0.0;
  for (std::size_t g = 0; g < x.size(); ++g) {
    total += weight[g];
    ones += sum_y[g];
    const double zeros = weight[g] - sum_y[g];
    if (sum_y[g] > 0) score += sum_y[g] * corp_score(x[g], 1.0, s);
    if (zeros > 0) score += zeros * corp_score(x[g], 0.0, s);
  }
  double sc = 0.0;
  for (std::size_t b = 0; b < fit.mean.size(); ++b)
    sc += fit.weight[b] * corp_entropy(fit.mean[b], s);
  out.mean_score = score / total;
  sc /= total;
  out.unc = corp_entropy(ones / total, s);
  out.mcb = out.mean_score - sc;
  out.dsc = out.unc - sc;
  return out;
}

// One step of pool-adjacent-violators on a stack of blocks (weight, outcome
// sum, mean): pushes a block of weight gw > 0 and outcome sum gs, then pools
// it with its predecessors while their means do not increase.
inline void pav_push(std::vector<double>& bw, std::vector<double>& bs,
                     std::vector<double>& bm, double gw, double gs) {
  bw.push_back(gw);
  bs.push_back(gs);
  bm.push_back(gs / gw);
  std::size_t b = bm.size() - 1;
  while (b > 0 && !(bm[b - 1] < bm[b])) {
    bw[b - 1] += bw[b];
    bs[b - 1] += bs[b];
    bm[b - 1] = bs[b - 1] / bw[b - 1];
    bw.pop_back();
    bs.pop_back();
    bm.pop_back();
    --b;
  }
}

// The decomposition straight from the sorted samples, without tie-group or
// block tables: one pass forms each tie group, adds its score and pushes it
// on the PAV stack. The same sums in the same order as tie_groups() + pav()
// + corp_decompose(), so the result is identical; used when only the
// decomposition is wanted.
template <class V>
CorpDecomposition corp_decompose_sorted(const V& x, const V& y, const V& w,
                                        CorpScore s) {
  const std::size_t n = x.size();
  std::vector<double> bw, bs, bm;  // block weight, outcome sum, mean
  bw.reserve(n);
  bs.reserve(n);
  bm.reserve(n);
  double total = 0.0, ones = 0.0, score = 0.0;
  std::size_t k = 0;
  while (k < n) {
    const double xv = x[k];
    double gw = 0.0, gs = 0.0;
    for (; k < n && x[k] == xv; ++k) {
      const double wk = w.empty() ? 1.0 : w[k];
      gw += wk;
      gs += wk * y[k];
    }
    total += gw;
    ones += gs;
    const double zeros = gw - gs;
    if (gs > 0) score += gs * corp_score(xv, 1.0, s);
    if (zeros > 0) score += zeros * corp_score(xv, 0.0, s);
    if (!(gw > 0)) continue;
    pav_push(bw, bs, bm, gw, gs);
  }
  CorpDecomposition out;
  double sc = 0.0;
  for (std::size_t b = 0; b < bm.size(); ++b)
    sc += bw[b] * corp_entropy(bm[b], s);
  out.mean_score = score / total;
  sc /= total;
  out.unc = corp_entropy(ones / total, s);
  out.mcb = out.mean_score - sc;
  out.dsc = out.unc - sc;
  return out;
}

}  // namespace aurc

#endif
