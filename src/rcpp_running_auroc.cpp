// R glue for the running AUROC of selective curves
// (src/core/running_auroc.h, R/curve-selective-metrics.R): checks the
// ranks and ends before any access, answers Ctrl-C.
#include "glue.h"
#include "core/running_auroc.h"

// truth: 0/1 (1 the event); rank: 1-based ranks of the estimate, at most
// n_ranks; w: weights; ends: 1-based, increasing, the last equal to the
// number of rows. Returns one value per end (NA without both classes).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector running_auroc_impl(const Rcpp::NumericVector& truth,
                                       const Rcpp::IntegerVector& rank,
                                       const Rcpp::NumericVector& w,
                                       const Rcpp::IntegerVector& ends,
                                       int n_ranks) {
  const R_xlen_t n = truth.size();
  if (rank.size() != n || w.size() != n)
    Rcpp::stop("truth, rank and w must have one length");
  if (n_ranks < 0) Rcpp::stop("n_ranks must be non-negative");
  for (R_xlen_t k = 0; k < n; ++k)
    if (rank[k] == NA_INTEGER || rank[k] < 1 || rank[k] > n_ranks)
      Rcpp::stop("rank must lie in 1..n_ranks");
  for (R_xlen_t g = 0; g < ends.size(); ++g)
    if (ends[g] == NA_INTEGER || ends[g] < 1 || ends[g] > n ||
        (g > 0 && ends[g] <= ends[g - 1]))
      Rcpp::stop("ends must be increasing positions in 1..n");
  Rcpp::NumericVector out(ends.size(), NA_REAL);
  aurc::running_auroc(truth.begin(), rank.begin(), w.begin(),
                      static_cast<std::size_t>(n), ends.begin(),
                      static_cast<std::size_t>(ends.size()),
                      static_cast<std::size_t>(n_ranks), out.begin(),
                      [] { Rcpp::checkUserInterrupt(); });
  for (R_xlen_t g = 0; g < out.size(); ++g)
    if (std::isnan(out[g])) out[g] = NA_REAL;
  return out;
}
