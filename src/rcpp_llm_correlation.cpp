// R glue for the row sums of Kendall's tau-b (src/core/kendall.h), behind
// the influence values of R/ci-influence-llm-correlation.R. Inputs are
// validated in R first; the ranks are checked here before any access.
#include "glue.h"
#include "core/kendall.h"

// `group`: the tie group of x of each output, outputs in ascending order of
// x (groups numbered 1, 2, ... in that order); `y_rank`: the dense rank of
// y (1..n_y) in the same order; `w`: the weights in that order (empty: 1
// each). Returns c_i in that order.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector kendall_row_sums_impl(const Rcpp::IntegerVector& group,
                                          const Rcpp::IntegerVector& y_rank,
                                          int n_y,
                                          const Rcpp::NumericVector& w) {
  const std::size_t n = static_cast<std::size_t>(group.size());
  if (static_cast<std::size_t>(y_rank.size()) != n || n_y < 0 ||
      (w.size() != 0 && static_cast<std::size_t>(w.size()) != n)) {
    Rcpp::stop("kendall_row_sums_impl(): inconsistent input");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (y_rank[i] < 1 || y_rank[i] > n_y) {
      Rcpp::stop("kendall_row_sums_impl(): y rank out of range");
    }
  }
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n));
  aurc::kendall_row_sums(group.begin(), y_rank.begin(), n,
                         static_cast<std::size_t>(n_y), out.begin(),
                         w.size() ? w.begin() : nullptr);
  return out;
}
