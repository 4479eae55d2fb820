// A Fenwick (binary indexed) tree of weights by 1-based rank: add a weight
// at a rank, and the total weight at ranks 1..i, each in O(log n). Used by
// the running AUROC of selective curves (running_auroc.h) and the row sums
// of Kendall's tau-b (kendall.h). No R headers.
#ifndef AURC_CORE_FENWICK_H
#define AURC_CORE_FENWICK_H

#include <cstddef>
#include <vector>

namespace aurc {

class Fenwick {
 public:
  explicit Fenwick(std::size_t n) : tree_(n, 0.0) {}
  // adds w at rank i (1..n)
  void add(std::size_t i, double w) {
    for (; i <= tree_.size(); i += i & (~i + 1)) tree_[i - 1] += w;
  }
  // the total weight at ranks 1..i (0 for i = 0)
  double prefix(std::size_t i) const {
    double s = 0.0;
    for (; i > 0; i -= i & (~i + 1)) s += tree_[i - 1];
    return s;
  }

 private:
  std::vector<double> tree_;
};

}  // namespace aurc

#endif
