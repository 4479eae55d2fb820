// R glue for the AURC family: converts types, checks interrupts, and calls
// the kernels in core/. Inputs are validated (and NA removed) in R first.
#include "glue.h"
#include "core/aurc.h"
#include "core/scan.h"
#include "core/weight_scale.h"

using namespace aurc;

// [[Rcpp::export(rng = false)]]
double aurc_impl(const Rcpp::NumericVector& score,
                 const Rcpp::NumericVector& loss,
                 const Rcpp::NumericVector& case_weights,
                 const std::string& estimator) {
  const Estimator est = estimator_arg(estimator);
  const std::size_t n = static_cast<std::size_t>(score.size());
  RInterrupt check;
  if (case_weights.size() == 0) {
    SortedLoss sorted;
    sort_with_loss(score.begin(), loss.begin(), n, sorted, check);
    return aurc_estimate(est, sorted, static_cast<double>(n));
  }
  Presorted p;
  presort(score.begin(), n, p, check);
  const PresortedGroups groups{p, loss.begin(), case_weights.begin()};
  return aurc_estimate(est, groups, Rcpp::sum(case_weights));
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector aurc_weights_impl(const Rcpp::NumericVector& score,
                                      const Rcpp::NumericVector& case_weights,
                                      const std::string& estimator) {
  const Estimator est = estimator_arg(estimator);
  const std::size_t n = static_cast<std::size_t>(score.size());
  Presorted p;
  presort(score.begin(), n, p, RInterrupt());
  GroupVectors gv;
  collect_groups(PresortedGroups{p, score.begin(), optional_ptr(case_weights)},
                 gv);
  std::vector<double> w;
  group_weights(est, gv.count, w);
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n));
  std::size_t g = 0;
  for_each_run(p.keys, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k)
      out[static_cast<R_xlen_t>(p.order[k])] = w[g];
    ++g;
  });
  return out;
}

namespace {

// 1-based position that a scan of a double, integer or logical column
// returns (0: none); the column is read without copying.
template <class OnDouble, class OnInt>
double first_in_column(SEXP x, OnDouble on_double, OnInt on_int) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(x));
  std::size_t bad = n;
  if (TYPEOF(x) == REALSXP) {
    bad = on_double(REAL(x), n);
  } else if (TYPEOF(x) == INTSXP || TYPEOF(x) == LGLSXP) {
    bad = on_int(TYPEOF(x) == INTSXP ? INTEGER(x) : LOGICAL(x), n);
  }
  return bad == n ? 0.0 : static_cast<double>(bad + 1);
}

}  // namespace

// 1-based position of the first loss that is present but negative or
// infinite, or above `huge`, 0 if there is none. Long columns are scanned
// on `threads` threads.
// [[Rcpp::export(rng = false)]]
double first_invalid_loss_impl(SEXP loss, int threads, double huge) {
  return first_in_column(
      loss,
      [threads, huge](const double* x, std::size_t n) {
        return first_invalid_loss(x, n, threads, huge);
      },
      [threads](const int* x, std::size_t n) {
        return first_invalid_loss(x, n, NA_INTEGER, threads);
      });
}

// 1-based position of the first case weight that is missing, negative or
// infinite, 0 if there is none.
// [[Rcpp::export(rng = false)]]
double first_invalid_weight_impl(SEXP w, int threads) {
  return first_in_column(
      w,
      [threads](const double* x, std::size_t n) {
        return first_invalid_weight(x, n, threads);
      },
      [threads](const int* x, std::size_t n) {
        return first_invalid_weight(x, n, NA_INTEGER, threads);
      });
}

// anyNA() of a double, integer or logical vector on `threads` threads.
// [[Rcpp::export(rng = false)]]
bool any_na_impl(SEXP x, int threads) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(x));
  if (TYPEOF(x) == REALSXP) return any_nan(REAL(x), n, threads);
  if (TYPEOF(x) == INTSXP) return any_equal(INTEGER(x), n, NA_INTEGER, threads);
  if (TYPEOF(x) == LGLSXP) return any_equal(LOGICAL(x), n, NA_LOGICAL, threads);
  return false;
}

// The largest weight and the total weight (as total * 2^shift) of every
// group of rows offsets[g] .. offsets[g + 1] (0-based), for the rescaling of
// R/weights-scale.R. Double, integer or logical weights, checked before.
// Returns list(max, total, shift), one element per group.
// [[Rcpp::export(rng = false)]]
Rcpp::List weight_summary_impl(SEXP w, const Rcpp::NumericVector& offsets) {
  // read in place (a double copy of 1e7 integer weights costs 80 MB)
  if (TYPEOF(w) != REALSXP && TYPEOF(w) != INTSXP && TYPEOF(w) != LGLSXP)
    Rcpp::stop("expected a numeric, integer or logical vector");
  const std::size_t len = static_cast<std::size_t>(Rf_xlength(w));
  const R_xlen_t G = offsets.size() - 1;
  if (G < 0) Rcpp::stop("`offsets` must have at least one element");
  Rcpp::NumericVector mx(G), total(G), shift(G);
  for (R_xlen_t g = 0; g < G; ++g) {
    const double b = offsets[g], e = offsets[g + 1];
    if (!(b >= 0.0 && e >= b && e <= static_cast<double>(len)))
      Rcpp::stop("`offsets` must be non-decreasing positions in the weights");
    const std::size_t bi = static_cast<std::size_t>(b),
                      ei = static_cast<std::size_t>(e);
    const WeightSummary s =
        TYPEOF(w) == REALSXP  ? weight_summary(REAL(w), bi, ei)
        : TYPEOF(w) == INTSXP ? weight_summary(INTEGER(w), bi, ei)
                              : weight_summary(LOGICAL(w), bi, ei);
    mx[g] = s.max;
    total[g] = s.total;
    shift[g] = s.shift;
  }
  return Rcpp::List::create(Rcpp::_["max"] = mx, Rcpp::_["total"] = total,
                            Rcpp::_["shift"] = shift);
}
