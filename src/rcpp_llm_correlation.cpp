// R glue for the influence values of Kendall's tau-b
// (R/ci-influence-llm-correlation.R): the row sums
// c_i = sum_j sign(x_i - x_j) sign(y_i - y_j) of every output in
// O(n log n), by two passes of a Fenwick tree over the ranks of y.
// Inputs are validated in R first.
#include "glue.h"

#include <vector>

namespace {

// Counts of the y ranks inserted so far (1-based ranks).
class Fenwick {
 public:
  explicit Fenwick(std::size_t n) : tree_(n + 1, 0.0) {}
  void add(std::size_t i) {
    for (; i < tree_.size(); i += i & (~i + 1)) tree_[i] += 1.0;
  }
  // the number inserted with rank <= i
  double prefix(std::size_t i) const {
    double s = 0.0;
    for (; i > 0; i -= i & (~i + 1)) s += tree_[i];
    return s;
  }

 private:
  std::vector<double> tree_;
};

}  // namespace

// `group`: the tie group of x of each output, outputs in ascending order of
// x (groups numbered 1, 2, ... in that order); `y_rank`: the dense rank of
// y (1..n_y) in the same order. Returns c_i in that order.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector kendall_row_sums_impl(const Rcpp::IntegerVector& group,
                                          const Rcpp::IntegerVector& y_rank,
                                          int n_y) {
  const std::size_t n = static_cast<std::size_t>(group.size());
  if (static_cast<std::size_t>(y_rank.size()) != n || n_y < 0) {
    Rcpp::stop("kendall_row_sums_impl(): inconsistent input");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (y_rank[i] < 1 || y_rank[i] > n_y) {
      Rcpp::stop("kendall_row_sums_impl(): y rank out of range");
    }
  }
  Rcpp::NumericVector out(n);
  // ascending pass: the outputs of smaller x (sign(x_i - x_j) = +1);
  // descending pass: those of larger x (-1). A tie group is queried before
  // it is inserted, so tied x count 0.
  for (int pass = 0; pass < 2; ++pass) {
    Fenwick tree(static_cast<std::size_t>(n_y));
    double inserted = 0.0;
    const double sign = pass == 0 ? 1.0 : -1.0;
    std::size_t k = 0;
    while (k < n) {
      std::size_t end = k + 1;
      const std::size_t first = pass == 0 ? k : n - 1 - k;
      while (end < n) {
        const std::size_t next = pass == 0 ? end : n - 1 - end;
        if (group[next] != group[first]) break;
        ++end;
      }
      for (std::size_t m = k; m < end; ++m) {
        const std::size_t i = pass == 0 ? m : n - 1 - m;
        const std::size_t r = static_cast<std::size_t>(y_rank[i]);
        const double below = tree.prefix(r - 1);
        const double above = inserted - tree.prefix(r);
        out[i] += sign * (below - above);
      }
      for (std::size_t m = k; m < end; ++m) {
        const std::size_t i = pass == 0 ? m : n - 1 - m;
        tree.add(static_cast<std::size_t>(y_rank[i]));
        inserted += 1.0;
      }
      k = end;
    }
  }
  return out;
}
