// Shared pieces of the R glue (src/rcpp_*.cpp): the interrupt check handed to
// the core kernels and argument decoding that must fail with an R error.
#ifndef AURC_GLUE_H
#define AURC_GLUE_H

#include <RcppArmadillo.h>

#include <string>

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

// Null pointer for an empty vector: "no case weights".
inline const double* optional_ptr(const Rcpp::NumericVector& x) {
  return x.size() ? x.begin() : nullptr;
}

}  // namespace aurc

#endif
