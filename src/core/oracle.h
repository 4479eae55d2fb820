// The oracle ordering and the excess metrics built on it (SPEC Sec. 4).
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
#ifndef AURC_CORE_ORACLE_H
#define AURC_CORE_ORACLE_H

#include <cmath>
#include <limits>

#include "aurc.h"

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

// AURC* of one estimator; n is the total (weighted) count.
template <class LossSource>
double aurc_oracle(Estimator est, const LossSource& by_loss, double n) {
  return aurc_estimate(est, oracle_source(by_loss), n);
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
inline double naurc_value(double aurc, double optimum, double mean_loss) {
  const double denom = mean_loss - optimum;
  if (!(denom > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return (aurc - optimum) / denom;
}

}  // namespace aurc

#endif
