// Interrupt hook for long loops.
//
// The kernels in src/core know nothing of R. Long loops are cut into chunks of
// kChunk iterations and call a user-supplied functor between chunks; the R
// glue passes one that checks for a user interrupt (and throws), the
// stand-alone C++ tests pass NoCheck.
#ifndef AURC_CORE_INTERRUPT_H
#define AURC_CORE_INTERRUPT_H

#include <cstddef>

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

}  // namespace aurc

#endif
