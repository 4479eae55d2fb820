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

// A poll for long serial work that takes no Check argument: the first
// touch of the large work buffers (grow_large() in memory.h), which at
// n = 1e8 took 1.8 s in which Ctrl-C was not answered. The poll reads a
// flag that the host sets asynchronously when an interrupt is pending (the
// R glue points it at R's own, R_interrupts_pending) and only then calls
// the host's check, out of line, which throws (src/rcpp_interrupt.cpp). It
// never calls the check inside an OpenMP parallel region (an exception
// must not leave one, even a region of one thread). The stand-alone C++
// tests install their own flag and check, or none. (The tie-group passes
// of ties.h do not poll: even this plain load in their loop made them 10%
// slower; their callers check between passes.)
using InterruptPoll = void (*)();
inline InterruptPoll& interrupt_poll() {
  static InterruptPoll poll = nullptr;
  return poll;
}
inline const volatile int*& interrupt_flag() {
  static const volatile int* flag = nullptr;
  return flag;
}
#if defined(__GNUC__)
#define AURC_COLD __attribute__((noinline, cold))
#else
#define AURC_COLD
#endif
AURC_COLD inline void poll_interrupt_pending() {
  const InterruptPoll poll = interrupt_poll();
  if (!poll) return;
#ifdef _OPENMP
  if (omp_get_level() > 0) return;
#endif
  poll();
}
// Whether an interrupt is pending (a plain load, no call).
inline bool interrupt_pending() {
  const volatile int* flag = interrupt_flag();
  return flag != nullptr && *flag != 0;
}
inline void poll_interrupt() {
  if (interrupt_pending()) poll_interrupt_pending();
}

}  // namespace aurc

#endif
