// Interrupt hook for long loops.
//
// The kernels in src/core know nothing of R. Long loops are cut into chunks of
// kChunk iterations and call a user-supplied functor between chunks; the R
// glue passes one that checks for a user interrupt (and throws), the
// stand-alone C++ tests pass NoCheck.
#ifndef AURC_CORE_INTERRUPT_H
#define AURC_CORE_INTERRUPT_H

#include <cstddef>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace aurc {

constexpr std::size_t kChunk = 65536;

struct NoCheck {
  void operator()() const {}
};

// Progress hook: told how many units of work (replicates, splits) are done,
// on the calling thread, between chunks. The R glue passes one that updates
// a progress bar; NoProgress does nothing.
struct NoProgress {
  void operator()(std::size_t /* done */) const {}
};

// Calls body(i) for i in [begin, end), calling check() every kChunk
// iterations (outside the inner loop, so the body stays branch-free).
template <class Body, class Check>
inline void chunked_for(std::size_t begin, std::size_t end, Check& check,
                        Body body) {
  for (std::size_t lo = begin; lo < end; lo += kChunk) {
    check();
    const std::size_t hi = (end - lo > kChunk) ? lo + kChunk : end;
    for (std::size_t i = lo; i < hi; ++i) body(i);
  }
}

// A poll for the long serial passes that take no Check argument: the
// tie-group passes of ties.h, which every metric makes over the sorted
// scores (at n = 1e8, several passes of 0.3 s or more each, and an
// interrupt waited for all of them: 3.5 s, or 5-14 s under load). The R
// glue installs a function that checks for a user interrupt and throws
// (src/rcpp_interrupt.cpp); the stand-alone C++ tests install none or
// their own. It is called only outside OpenMP parallel regions (an
// exception must not leave one, even a region of one thread).
using InterruptPoll = void (*)();
inline InterruptPoll& interrupt_poll() {
  static InterruptPoll poll = nullptr;
  return poll;
}
inline void poll_interrupt() {
  const InterruptPoll poll = interrupt_poll();
  if (!poll) return;
#ifdef _OPENMP
  if (omp_get_level() > 0) return;
#endif
  poll();
}

}  // namespace aurc

#endif
