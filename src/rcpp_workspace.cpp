// R glue for the pool of large work buffers (core/memory.h): the option
// `aurc.workspace` sets its limit.
#include "glue.h"

using namespace aurc;

// Sets the most bytes of work buffers kept between calls (Inf: no limit)
// and returns the bytes kept now.
// [[Rcpp::export(rng = false)]]
double set_workspace_limit_impl(double bytes) {
  const double most = static_cast<double>(static_cast<std::size_t>(-1) / 2);
  set_workspace_limit(bytes >= most ? static_cast<std::size_t>(-1) / 2
                                    : static_cast<std::size_t>(bytes));
  return static_cast<double>(workspace_kept());
}

// The bytes of work buffers kept for the next call.
// [[Rcpp::export(rng = false)]]
double workspace_kept_impl() { return static_cast<double>(workspace_kept()); }

// Frees the kept buffers when the pool has been idle for `idle_seconds`
// (0: at once); returns the bytes freed.
// [[Rcpp::export(rng = false)]]
double release_workspace_impl(double idle_seconds) {
  return static_cast<double>(release_workspace(idle_seconds));
}
