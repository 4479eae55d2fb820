// R glue for src/core/input_checks.h: the summary of a sample of a score
// and a loss behind the warnings of R/suspicious-input.R. Reads double,
// integer and logical vectors in place (no copy of a long column).
#include <Rcpp.h>

#include "core/input_checks.h"

using namespace aurc;

namespace {

// The pointer is taken once: REAL() and INTEGER() are function calls in
// R's API, and calling one per element made the summary of 1e3 rows cost
// half as much as sorting them.
struct Reader {
  const double* real = nullptr;
  const int* whole = nullptr;  // integer or logical (NA_LOGICAL == NA_INTEGER)
  explicit Reader(SEXP x) {
    switch (TYPEOF(x)) {
      case REALSXP:
        real = REAL(x);
        break;
      case INTSXP:
        whole = INTEGER(x);
        break;
      case LGLSXP:
        whole = LOGICAL(x);
        break;
      default:
        break;
    }
  }
  double operator()(std::size_t i) const {
    if (real) return real[i];
    if (!whole) return R_NaN;
    const int v = whole[i];
    return v == NA_INTEGER ? R_NaN : double(v);
  }
};

}  // namespace

// Correlations (r and the number of pairs) over all sampled rows, those
// with a score below 0.5 and those above, and the loss's shape.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector input_summary_impl(SEXP score, SEXP loss, double m) {
  const std::size_t n = static_cast<std::size_t>(Rf_xlength(score));
  if (static_cast<std::size_t>(Rf_xlength(loss)) != n)
    Rcpp::stop("score and loss must have the same length");
  const InputSummary s = summarise_input(
      n, static_cast<std::size_t>(m), Reader(score), Reader(loss));
  return Rcpp::NumericVector::create(
      Rcpp::Named("rows") = s.rows, Rcpp::Named("r") = s.all.r(),
      Rcpp::Named("m_low") = s.low.m, Rcpp::Named("r_low") = s.low.r(),
      Rcpp::Named("m_high") = s.high.m, Rcpp::Named("r_high") = s.high.r(),
      Rcpp::Named("score_min") = s.score_min,
      Rcpp::Named("score_max") = s.score_max,
      Rcpp::Named("loss_min") = s.loss_min,
      Rcpp::Named("loss_max") = s.loss_max,
      Rcpp::Named("loss_zero_one") = s.loss_zero_one,
      Rcpp::Named("loss_above_half") = s.loss_above_half,
      Rcpp::Named("score_mean") = s.all.mx,
      Rcpp::Named("loss_mean") = s.all.my);
}
