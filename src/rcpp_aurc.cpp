// R glue for the AURC family: converts types, checks interrupts, and calls
// the kernels in core/. Inputs are validated (and NA removed) in R first.
#include "glue.h"
#include "core/aurc.h"
#include "core/scan.h"

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

// 1-based position of the first loss that is present but negative or
// infinite, 0 if there is none. Reads doubles, integers and logicals
// without copying; long columns are scanned on `threads` threads.
// [[Rcpp::export(rng = false)]]
double first_invalid_loss_impl(SEXP loss, int threads) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(loss));
  std::size_t bad = n;
  if (TYPEOF(loss) == REALSXP) {
    bad = first_invalid_loss(REAL(loss), n, threads);
  } else if (TYPEOF(loss) == INTSXP || TYPEOF(loss) == LGLSXP) {
    const int* x = TYPEOF(loss) == INTSXP ? INTEGER(loss) : LOGICAL(loss);
    bad = first_invalid_loss(x, n, NA_INTEGER, threads);
  }
  return bad == n ? 0.0 : static_cast<double>(bad + 1);
}

// Position (1-based) of the first case weight that is missing, negative
// or infinite, 0 if there is none; integers and logicals (NA only) too.
// [[Rcpp::export(rng = false)]]
double first_invalid_weight_impl(SEXP w, int threads) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(w));
  std::size_t bad = n;
  if (TYPEOF(w) == REALSXP) {
    bad = first_invalid_weight(REAL(w), n, threads);
  } else if (TYPEOF(w) == INTSXP || TYPEOF(w) == LGLSXP) {
    const int* x = TYPEOF(w) == INTSXP ? INTEGER(w) : LOGICAL(w);
    for (std::size_t i = 0; i < n && bad == n; ++i)
      if (x[i] == NA_INTEGER || x[i] < 0) bad = i;
  }
  return bad == n ? 0.0 : static_cast<double>(bad + 1);
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
