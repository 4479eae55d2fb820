// Shared pieces of the R glue (src/rcpp_*.cpp): the interrupt check handed to
// the core kernels and argument decoding that must fail with an R error.
#ifndef AURC_GLUE_H
#define AURC_GLUE_H

#include <Rcpp.h>

#include <string>

#include "core/memory.h"
#include "core/rank_weights.h"
#include "core/ties.h"

namespace aurc {

// Passed to core kernels; runs on the master thread only.
struct RInterrupt {
  void operator()() const { Rcpp::checkUserInterrupt(); }
};

// Passed to core kernels as their progress hook; runs on the master thread
// only. Calls the R function `fn(done)` (a progress bar update, see
// R/progress.R), or nothing when `fn` is NULL.
struct RProgress {
  SEXP fn;
  void operator()(std::size_t done) const {
    if (Rf_isNull(fn)) return;
    Rcpp::Function f(fn);
    f(static_cast<double>(done));
  }
};

// Interrupt check for loops over many small groups: the kernels call it
// about once per call on a small group, and R is asked only every 256th
// time. Groups of a chunk (kChunk rows) or more should use RInterrupt.
struct ThrottledInterrupt {
  std::size_t* calls;
  void operator()() const {
    if ((++*calls & 255u) == 0) Rcpp::checkUserInterrupt();
  }
};

inline Estimator estimator_arg(const std::string& name) {
  Estimator est;
  if (!parse_estimator(name, est)) Rcpp::stop("unknown estimator '" + name + "'");
  return est;
}

// A double view of an R double, integer or logical vector: the vector
// itself for doubles, else a converted copy (NA as NaN) in a buffer on large
// pages (core/memory.h). Converting in R with as.double() costs a fresh R
// vector, whose page faults cost more than the sort at n = 1e7.
class DoubleColumn {
 public:
  explicit DoubleColumn(SEXP x) : n_(static_cast<std::size_t>(Rf_xlength(x))) {
    if (TYPEOF(x) == REALSXP) {
      data_ = REAL(x);
      return;
    }
    if (TYPEOF(x) != INTSXP && TYPEOF(x) != LGLSXP)
      Rcpp::stop("expected a numeric, integer or logical vector");
    const int* v = TYPEOF(x) == INTSXP ? INTEGER(x) : LOGICAL(x);
    resize_large(copy_, n_);
    for (std::size_t i = 0; i < n_; ++i)
      copy_[i] = v[i] == NA_INTEGER ? R_NaN : static_cast<double>(v[i]);
    data_ = copy_.data();
  }
  const double* begin() const { return data_; }
  std::size_t size() const { return n_; }

 private:
  std::size_t n_;
  const double* data_ = nullptr;
  work_vector<double> copy_;
};

// Null pointer for an empty vector: "no case weights".
inline const double* optional_ptr(const Rcpp::NumericVector& x) {
  return x.size() ? x.begin() : nullptr;
}

}  // namespace aurc

#endif
