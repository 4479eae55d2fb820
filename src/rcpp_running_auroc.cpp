// The running AUROC of selective_curve(metric = "auroc")
// (R/curve-selective-metrics.R, running_auroc()): the weighted AUROC of
// the estimate for truth == 1 among the first rows, at every tie-group end
// of the score. Each pair enters when the later of its two rows is added,
// with w_i w_j (1(e_pos > e_neg) + 1(equal) / 2); two Fenwick trees hold
// the weights added so far of the positives and the negatives by rank of
// the estimate. The same operations in the same order as the R loop it
// replaces, so the values are the same.
#include "glue.h"

#include <vector>

namespace {

double fenwick_prefix(const std::vector<double>& tree, std::size_t i) {
  double s = 0.0;
  while (i > 0) {
    s += tree[i - 1];
    i -= i & (~i + 1);
  }
  return s;
}

void fenwick_add(std::vector<double>& tree, std::size_t i, double w) {
  const std::size_t m = tree.size();
  while (i <= m) {
    tree[i - 1] += w;
    i += i & (~i + 1);
  }
}

}  // namespace

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
  std::vector<double> tree_pos(static_cast<std::size_t>(n_ranks), 0.0);
  std::vector<double> tree_neg(static_cast<std::size_t>(n_ranks), 0.0);
  Rcpp::NumericVector out(ends.size());
  double num = 0.0, total_pos = 0.0, total_neg = 0.0;
  R_xlen_t g = 0;
  for (R_xlen_t k = 0; k < n && g < ends.size(); ++k) {
    if ((k & 0xffff) == 0) Rcpp::checkUserInterrupt();
    const std::size_t i = static_cast<std::size_t>(rank[k]);
    const bool pos = truth[k] == 1;
    const std::vector<double>& other = pos ? tree_neg : tree_pos;
    const double upto = fenwick_prefix(other, i);
    const double below = fenwick_prefix(other, i - 1);
    if (pos) {
      num = num + w[k] * (below + (upto - below) / 2);
      total_pos = total_pos + w[k];
      fenwick_add(tree_pos, i, w[k]);
    } else {
      num = num + w[k] * (total_pos - upto + (upto - below) / 2);
      total_neg = total_neg + w[k];
      fenwick_add(tree_neg, i, w[k]);
    }
    if (k + 1 == ends[g]) {
      out[g] = (total_pos > 0 && total_neg > 0) ? num / (total_pos * total_neg)
                                                 : NA_REAL;
      ++g;
    }
  }
  return out;
}
