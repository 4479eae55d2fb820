// R glue for the AURC family: converts types, checks interrupts, and calls
// the kernels in core/. Inputs are validated (and NA removed) in R first.
#include "glue.h"
#include "core/aurc.h"

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
// without copying.
// [[Rcpp::export(rng = false)]]
double first_invalid_loss_impl(SEXP loss) {
  const R_xlen_t n = Rf_xlength(loss);
  if (TYPEOF(loss) == REALSXP) {
    const double* x = REAL(loss);
    for (R_xlen_t i = 0; i < n; ++i) {
      if (std::isnan(x[i])) continue;
      if (x[i] < 0.0 || std::isinf(x[i])) return static_cast<double>(i + 1);
    }
  } else if (TYPEOF(loss) == INTSXP || TYPEOF(loss) == LGLSXP) {
    const int* x = TYPEOF(loss) == INTSXP ? INTEGER(loss) : LOGICAL(loss);
    for (R_xlen_t i = 0; i < n; ++i) {
      if (x[i] != NA_INTEGER && x[i] < 0) return static_cast<double>(i + 1);
    }
  }
  return 0.0;
}
