// Areas over part of the risk-coverage curve, and the prediction rejection
// ratio (issue 27; R/metric-partial.R documents the definitions).
//
// A group source (ties.h) in descending score order gives the tie groups,
// each with its (weighted) count c and loss sum s; `above` and `loss_above`
// are the count and loss of the groups before it, n the total count.
// Coverage is measured in counts: u in [0, n], coverage u / n.
//
// * partial_aurc(): the area under the selective risk curve over coverage
//   [lo, hi] with the interpolation of fd-shifts (Traub et al. 2024): a tie
//   group is accepted gradually at its mean loss s / c, so along its
//   segment u in [above, above + c] the risk is
//     R(u) = (loss_above + (s / c)(u - above)) / u
//          = s / c + (loss_above - (s / c) above) / u,
//   whose integral is closed form (a linear and a log term). This is the
//   expected risk curve when ties are broken at random. Unnormalised, as
//   fd-shifts: the area, not the mean risk over the range.
// * partial_augrc(): the same for the generalized risk
//   G(u) = (loss_above + (s / c)(u - above)) / n, linear along a segment;
//   over [0, 1] this is the trapezoid AUGRC exactly.
// * step_window(): the integral over u in [a, b] of the tie-closed step
//   curve of the "alpha" AURC (a group's whole segment has the risk of its
//   tie-closed accepted set, loss_above_g / above_g, both including g).
//   Over [0, n], divided by n, it is the "alpha" AURC.
// * oracle_step_window(): the same integral for the oracle order (losses
//   ascending, strict order: a block of equal loss of count c is floor(c)
//   units and a remainder, as OracleSource in oracle.h), with long runs of
//   units in closed form,
//     sum_{k = k1}^{k2} (S + k l) / (P + k)
//       = (k2 - k1 + 1) l + (S - P l)(psi(P + k2 + 1) - psi(P + k1)).
// * prr_value(): the prediction rejection ratio over the rejection window
//   [0, r] (LM-Polygraph's max_rejection, Vashurin et al. 2025): with
//   A = step_window(n - r n, n) / (r n) and A* its oracle value,
//     PRR = (mean loss - A) / (mean loss - A*),
//   the share of the oracle's gain over a random order (whose expected
//   value is the mean loss at every coverage) that the score achieves.
//   At r = 1 it is 1 - NAURC of the "alpha" estimator.
#ifndef AURC_CORE_PARTIAL_H
#define AURC_CORE_PARTIAL_H

#include <algorithm>
#include <cmath>
#include <limits>

#include "failure.h"
#include "oracle.h"
#include "special.h"

namespace aurc {

template <class Source>
double partial_aurc(const Source& src, double n, double lo, double hi) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double a = lo * n, b = hi * n;
  double above = 0.0, loss_above = 0.0, area = 0.0;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double u1 = std::max(above, a), u2 = std::min(above + c, b);
    if (u2 > u1) {
      const double rate = s / c;
      area += rate * (u2 - u1);
      // zero for the first group (above = 0), where u1 may be 0
      const double k = loss_above - rate * above;
      if (k != 0.0 && u1 > 0.0) area += k * std::log1p((u2 - u1) / u1);
    }
    above += c;
    loss_above += s;
  });
  return area / n;
}

template <class Source>
double partial_augrc(const Source& src, double n, double lo, double hi) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double a = lo * n, b = hi * n;
  double above = 0.0, loss_above = 0.0, area = 0.0;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double u1 = std::max(above, a), u2 = std::min(above + c, b);
    if (u2 > u1) {
      const double rate = s / c;
      const double d1 = u1 - above, d2 = u2 - above;
      area += loss_above * (u2 - u1) + 0.5 * rate * (d2 - d1) * (d2 + d1);
    }
    above += c;
    loss_above += s;
  });
  return area / (n * n);
}

template <class Source>
double step_window(const Source& src, double a, double b) {
  double above = 0.0, loss_above = 0.0, acc = 0.0;
  src.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double start = above;
    above += c;
    loss_above += s;
    const double overlap = std::min(above, b) - std::max(start, a);
    if (overlap > 0.0) acc += overlap * loss_above / above;
  });
  return acc;
}

template <class LossSource>
double oracle_step_window(const LossSource& by_loss, double a, double b) {
  constexpr double kUnitLoop = 64.0;
  double above = 0.0, loss_above = 0.0, acc = 0.0;
  // one unit (or a remainder) of count c and loss rate l
  auto unit = [&](double c, double l) {
    const double start = above;
    above += c;
    loss_above += c * l;
    const double overlap = std::min(above, b) - std::max(start, a);
    if (overlap > 0.0) acc += overlap * loss_above / above;
  };
  by_loss.ascending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double l = s / c, whole = std::floor(c), rem = c - whole;
    if (whole <= kUnitLoop) {
      for (double k = 0.0; k < whole; k += 1.0) unit(1.0, l);
    } else {
      const double P = above, S = loss_above;
      // unit k covers [P + k - 1, P + k] with risk (S + k l) / (P + k);
      // units k1..k2 lie wholly inside [a, b]
      const double k1 = std::max(1.0, std::ceil(a - P) + 1.0);
      const double k2 = std::min(whole, std::floor(b - P));
      if (k2 >= k1) {
        acc += (k2 - k1 + 1.0) * l +
               (S - P * l) * digamma_diff(P + k1, P + k2 + 1.0);
      }
      // the (at most two) units cut by a or b
      const double cut[2] = {std::floor(a - P) + 1.0, std::ceil(b - P)};
      for (int j = 0; j < 2; ++j) {
        const double k = cut[j];
        if (j == 1 && k == cut[0]) break;
        if (k < 1.0 || k > whole || (k >= k1 && k <= k2)) continue;
        const double overlap =
            std::min(P + k, b) - std::max(P + k - 1.0, a);
        if (overlap > 0.0) acc += overlap * (S + k * l) / (P + k);
      }
      above = P + whole;
      loss_above = S + whole * l;
    }
    if (rem > 0.0) unit(rem, l);
  });
  return acc;
}

// How PRR reads tied scores (prr(ties =), R/metric-llm.R):
// * group:    a tie group is accepted at once (step_window(), the default);
// * random:   the expectation when ties are broken uniformly at random: a
//             group of count c and loss sum s is accepted one case at a
//             time, the k-th at the expected cumulative loss
//             loss_above + k s / c, which is oracle_step_window()'s unit
//             rule with rate s / c over the score's groups in descending
//             order (ScoreGroupsAsUnits);
// * position: LM-Polygraph's rule, one case at a time in the order of a
//             stable sort of the uncertainty (within a tie group, input
//             order): the unit rule over the cases (a source with
//             cases_descending(), CasesInOrder).
enum class PrrTies { group = 0, random = 1, position = 2 };

template <class Source>
struct ScoreGroupsAsUnits {
  const Source& src;
  template <class F> void ascending(F f) const { src.descending(f); }
};

template <class Source>
struct CasesInOrder {
  const Source& src;
  template <class F> void ascending(F f) const { src.cases_descending(f); }
};

// The position-by-position curve of LM-Polygraph: the cases in the order
// of the source's cases_descending(), one unit of count at a time (a case
// of weight w counts as w rows in a row, the expansion of whole weights;
// without weights every case is one unit), oracle_step_window()'s unit
// rule; NaN for a source without cases (the bootstrap's group vectors).
struct IgnoreGroup {
  template <class... T> void operator()(T...) const {}
};
template <class Source>
auto step_window_cases(const Source& src, double a, double b, int)
    -> decltype(src.cases_descending(IgnoreGroup()), double()) {
  return oracle_step_window(CasesInOrder<Source>{src}, a, b);
}
template <class Source>
double step_window_cases(const Source&, double, double, long) {
  return std::numeric_limits<double>::quiet_NaN();
}

// The score's step-curve integral over [a, b] under the tie rule `ties`.
template <class Source>
double prr_score_window(const Source& by_score, double a, double b,
                        PrrTies ties) {
  switch (ties) {
    case PrrTies::random:
      return oracle_step_window(ScoreGroupsAsUnits<Source>{by_score}, a, b);
    case PrrTies::position:
      return step_window_cases(by_score, a, b, 0);
    default:
      return step_window(by_score, a, b);
  }
}

template <class Source, class LossSource>
double prr_value(const Source& by_score, const LossSource& by_loss, double n,
                 double max_rejection, PrrTies ties = PrrTies::group) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(n > 0.0) || loss_is_constant(by_loss)) return nan;
  const double width = max_rejection * n;
  if (!(width > 0.0)) return nan;
  const double a = n - width;
  const double mean = total_loss(by_score) / n;
  const double area =
      prr_score_window(by_score, a, n, ties) / width;
  const double optimum = oracle_step_window(by_loss, a, n) / width;
  const double denom = mean - optimum;
  if (!(denom > 0.0)) return nan;
  return (mean - area) / denom;
}

}  // namespace aurc

#endif
