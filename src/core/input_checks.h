// The summary behind the warnings about inputs that look like mistakes
// (R/suspicious-input.R): on at most `m` evenly spread rows of a score and
// a loss, the correlation of the two over all rows, over the rows with a
// score below 0.5 and over those above 0.5, and the range and shape of the
// loss. Two passes over the sample (means, then centred sums), so large
// values lose no precision to cancellation. No R headers.
#ifndef AURC_CORE_INPUT_CHECKS_H
#define AURC_CORE_INPUT_CHECKS_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace aurc {

struct PairMoments {
  double m = 0, mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
  // Pearson correlation; NaN with fewer than 2 pairs or a constant side.
  double r() const {
    if (m < 2 || !(sxx > 0) || !(syy > 0))
      return std::numeric_limits<double>::quiet_NaN();
    return sxy / std::sqrt(sxx * syy);
  }
};

struct InputSummary {
  PairMoments all, low, high;   // all rows; score < 0.5; score > 0.5
  double score_min = 0, score_max = 0;
  double loss_min = 0, loss_max = 0;
  double loss_zero_one = 1;     // 1 when every loss is 0 or 1
  double loss_above_half = 0;   // share of losses above 0.5
  double rows = 0;              // finite pairs in the sample
};

// The sampled positions: all of 0..n-1 when n <= m, else m positions
// round(k (n - 1) / (m - 1)), k = 0..m-1 (strictly increasing for n > m).
inline std::vector<std::size_t> spread_positions(std::size_t n,
                                                 std::size_t m) {
  std::vector<std::size_t> pos;
  if (n <= m) {
    pos.resize(n);
    for (std::size_t i = 0; i < n; ++i) pos[i] = i;
    return pos;
  }
  pos.resize(m);
  const double step = double(n - 1) / double(m - 1);
  for (std::size_t k = 0; k < m; ++k)
    pos[k] = static_cast<std::size_t>(std::floor(k * step + 0.5));
  return pos;
}

// `score(i)`, `loss(i)`: the values at row i (any accessor).
template <class Score, class Loss>
InputSummary summarise_input(std::size_t n, std::size_t m, Score score,
                             Loss loss) {
  InputSummary out;
  const std::vector<std::size_t> pos = spread_positions(n, m);
  std::vector<double> s, l;
  s.reserve(pos.size());
  l.reserve(pos.size());
  for (std::size_t i : pos) {
    const double x = score(i), y = loss(i);
    if (std::isfinite(x) && std::isfinite(y)) {
      s.push_back(x);
      l.push_back(y);
    }
  }
  const std::size_t k = s.size();
  out.rows = double(k);
  if (k == 0) return out;
  out.score_min = out.score_max = s[0];
  out.loss_min = out.loss_max = l[0];
  // pass 1: means
  for (std::size_t j = 0; j < k; ++j) {
    const double x = s[j], y = l[j];
    if (x < out.score_min) out.score_min = x;
    if (x > out.score_max) out.score_max = x;
    if (y < out.loss_min) out.loss_min = y;
    if (y > out.loss_max) out.loss_max = y;
    if (y != 0.0 && y != 1.0) out.loss_zero_one = 0;
    if (y > 0.5) out.loss_above_half += 1;
    PairMoments& part = x < 0.5 ? out.low : out.high;
    out.all.m += 1;
    out.all.mx += x;
    out.all.my += y;
    if (x != 0.5) {
      part.m += 1;
      part.mx += x;
      part.my += y;
    }
  }
  out.loss_above_half /= double(k);
  for (PairMoments* p : {&out.all, &out.low, &out.high}) {
    if (p->m > 0) {
      p->mx /= p->m;
      p->my /= p->m;
    }
  }
  // pass 2: centred sums
  auto add = [](PairMoments& p, double x, double y) {
    const double dx = x - p.mx, dy = y - p.my;
    p.sxx += dx * dx;
    p.syy += dy * dy;
    p.sxy += dx * dy;
  };
  for (std::size_t j = 0; j < k; ++j) {
    const double x = s[j], y = l[j];
    add(out.all, x, y);
    if (x < 0.5) add(out.low, x, y);
    if (x > 0.5) add(out.high, x, y);
  }
  return out;
}

}  // namespace aurc

#endif  // AURC_CORE_INPUT_CHECKS_H
