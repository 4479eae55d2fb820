// The oracle ordering and the excess metrics built on it (DEFINITIONS Sec. 4).
//
// The oracle ranks samples by loss: the lowest loss most confident, the
// highest loss least confident, in a strict order (every sample its own
// threshold; ties in loss are broken arbitrarily, which does not change any
// value). Every AURC estimator is minimal on this order, so
//   E-AURC = AURC - AURC*,   AURC* = the same estimator on the oracle order,
//   NAURC  = (AURC - AURC*) / (mean(loss) - AURC*)   (Cattelan & Silva 2024).
//
// OracleSource turns any group source whose groups are ordered by loss
// (ascending keys = ascending loss, e.g. a SortedLoss built from the loss
// itself, or PresortedGroups over the loss with case weights or bootstrap
// counts) into a group source in oracle-confidence order. A block of equal
// loss with weighted count c is split into floor(c) groups of count 1 and,
// when c is not an integer, one last group with the fractional remainder
// (placed least confident within the block). With integer weights this is
// exactly the data with rows repeated.
//
// aurc_oracle() does not visit those units one by one (a case weight of
// 1e16 would loop 1e16 times): a run of K > 64 units of equal loss l enters
// each estimator in closed form at group level,
//   alpha      sum_j (S + j l) / (A + j) = K l + (S - A l)(psi(A+K+1) - psi(A+1))
//   trapezoid  the same sum of risks, minus half the last, plus half the
//              previous risk
//   sele       l sum_j (B + j) / n = l (K / n) (B + (K + 1) / 2) (2sele: twice)
//   alpha'     l sum_j -log(1 - (B + j) / (n + 1))
//              = l (-K log1p(-(B + K) / (n + 1)) - log_rising_excess(x, K)),
//              x = n + 1 - B - K
// with A, S the count and loss above the run and B the count below it;
// shorter runs are visited unit by unit, exactly as OracleSource does.
#ifndef AURC_CORE_ORACLE_H
#define AURC_CORE_ORACLE_H

#include <algorithm>
#include <cmath>
#include <limits>

#include "aurc.h"
#include "special.h"

namespace aurc {

template <class LossSource>
struct OracleSource {
  const LossSource& by_loss;

  // most confident first: lowest loss first, units then the remainder
  template <class F> void descending(F f) const {
    by_loss.ascending([&](double c, double s) {
      if (!(c > 0.0)) return;
      const double l = s / c;
      const double whole = std::floor(c);
      const double rem = c - whole;
      for (double k = 0.0; k < whole; k += 1.0) f(1.0, l);
      if (rem > 0.0) f(rem, rem * l);
    });
  }
  // least confident first: highest loss first, the remainder then units
  template <class F> void ascending(F f) const {
    by_loss.descending([&](double c, double s) {
      if (!(c > 0.0)) return;
      const double l = s / c;
      const double whole = std::floor(c);
      const double rem = c - whole;
      if (rem > 0.0) f(rem, rem * l);
      for (double k = 0.0; k < whole; k += 1.0) f(1.0, l);
    });
  }
};

template <class LossSource>
OracleSource<LossSource> oracle_source(const LossSource& by_loss) {
  return OracleSource<LossSource>{by_loss};
}

namespace oracle_detail {

constexpr double kUnitLoop = 64.0;  // runs this short are visited unit by unit

// Oracle alpha: most confident (lowest loss) first, units then remainder.
template <class LossSource>
double alpha(const LossSource& by_loss, double n) {
  double above = 0.0, loss_above = 0.0, acc = 0.0;
  auto step = [&](double c, double s) {
    above += c;
    loss_above += s;
    acc += c * loss_above / above;
  };
  by_loss.ascending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double l = s / c, whole = std::floor(c), rem = c - whole;
    if (whole <= kUnitLoop) {
      for (double k = 0.0; k < whole; k += 1.0) step(1.0, l);
    } else {
      acc += whole * l + (loss_above - above * l) *
                             digamma_diff(above + 1.0, above + whole + 1.0);
      above += whole;
      loss_above += whole * l;
    }
    if (rem > 0.0) step(rem, rem * l);
  });
  return acc / n;
}

// Oracle trapezoid rule over the selective risk curve (as aurc_trapezoid).
template <class LossSource>
double trapezoid(const LossSource& by_loss, double n) {
  double area = 0.0, above = 0.0, loss_above = 0.0, prev = 0.0;
  bool first = true;
  auto step = [&](double c, double s) {
    above += c;
    loss_above += s;
    const double risk = loss_above / above;
    area += (c / n) * (first ? risk : 0.5 * (risk + prev));
    first = false;
    prev = risk;
  };
  by_loss.ascending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double l = s / c, whole = std::floor(c), rem = c - whole;
    if (whole <= kUnitLoop) {
      for (double k = 0.0; k < whole; k += 1.0) step(1.0, l);
    } else if (first) {
      // every unit has risk l; the first counts its full width
      area += whole * l / n;
      above = whole;
      loss_above = whole * l;
      prev = l;
      first = false;
    } else {
      const double risks =
          whole * l + (loss_above - above * l) *
                          digamma_diff(above + 1.0, above + whole + 1.0);
      above += whole;
      loss_above += whole * l;
      const double last = loss_above / above;
      area += (risks - 0.5 * last + 0.5 * prev) / n;
      prev = last;
    }
    if (rem > 0.0) step(rem, rem * l);
  });
  return area;
}

// Oracle rank-weighted estimators: least confident (highest loss) first,
// remainder then units.
template <class LossSource>
double rank_weighted(Estimator est, const LossSource& by_loss, double n) {
  double below = 0.0, acc = 0.0;
  auto step = [&](double c, double s) {
    below += c;
    acc += rank_weight(est, below, n) * s;
  };
  by_loss.descending([&](double c, double s) {
    if (!(c > 0.0)) return;
    const double l = s / c, whole = std::floor(c), rem = c - whole;
    if (rem > 0.0) step(rem, rem * l);
    if (whole <= kUnitLoop) {
      for (double k = 0.0; k < whole; k += 1.0) step(1.0, l);
      return;
    }
    double sum;  // sum_{j=1}^{whole} w(below + j)
    if (est == Estimator::alpha_prime) {
      // x >= 1 exactly; rounding of huge counts must not push it below
      const double x = std::max(1.0, n + 1.0 - below - whole);
      const double q = (below + whole) / (n + 1.0);
      const double log_x = q < 0.5 ? std::log1p(-q) : std::log(x / (n + 1.0));
      sum = -whole * log_x - log_rising_excess(x, whole);
    } else {
      // (whole / n) first: whole * below overflows once the counts pass
      // 1e154, though the sum itself is at most n + 1
      sum = (whole / n) * (below + 0.5 * (whole + 1.0));
      if (est == Estimator::two_sele) sum *= 2.0;
    }
    acc += l * sum;
    below += whole;
  });
  return acc / n;
}

}  // namespace oracle_detail

// AURC* of one estimator; n is the total (weighted) count. Equal to
// aurc_estimate(est, oracle_source(by_loss), n) up to rounding, in time
// linear in the number of loss groups whatever the weights.
template <class LossSource>
double aurc_oracle(Estimator est, const LossSource& by_loss, double n) {
  if (!(n > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  switch (est) {
    case Estimator::alpha: return oracle_detail::alpha(by_loss, n);
    case Estimator::trapezoid: return oracle_detail::trapezoid(by_loss, n);
    default: return oracle_detail::rank_weighted(est, by_loss, n);
  }
}

// The asymptotic optimum of Geifman et al. for binary failures with error
// rate err: err + (1 - err) log(1 - err), with its limit 1 at err = 1.
inline double aurc_asymptotic_optimum(double err) {
  if (err == 1.0) return 1.0;
  if (!(err < 1.0)) return std::numeric_limits<double>::quiet_NaN();
  return err + (1.0 - err) * std::log1p(-err);
}

// NAURC from the AURC, its oracle value and the mean loss; NaN when the
// denominator is not positive (every loss equal).
// Whether every loss (of positive weight) is the same: the loss groups
// (one group per distinct loss, ascending) hold at most one group of
// positive count; stops at the second, so a bootstrap replicate pays no
// extra pass. NAURC and PRR are undefined then; their denominators,
// computed in floating point, are not exactly 0 when the constant is not a
// binary fraction (0.7 gave 0, 1 or -1/3 instead of NA).
inline bool loss_is_constant(const GroupVectors& by_loss) {
  std::size_t groups = 0;
  for (double count : by_loss.count)
    if (count > 0.0 && ++groups > 1) return false;
  return true;
}

inline double naurc_value(double aurc, double optimum, double mean_loss) {
  const double denom = mean_loss - optimum;
  if (!(denom > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return (aurc - optimum) / denom;
}

}  // namespace aurc

#endif
