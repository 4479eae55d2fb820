// Large work buffers: on transparent huge pages, and kept between calls.
//
// The first touch of a fresh page costs a page fault. For the buffers of a
// sort at n = 1e7 (four vectors of 80 MB) the faults on 4 kB pages cost more
// than the sort itself on a virtual machine (measured: 0.22 s to zero 80 MB
// of fresh 4 kB pages, 0.013 s on 2 MB pages). Where Linux offers
// transparent huge pages on request (`madvise`, the common default), a
// large buffer is reserved untouched, marked MADV_HUGEPAGE and only then
// filled, so it is faulted in 2 MB at a time. Elsewhere, or when the kernel
// declines, this is an ordinary allocation.
//
// Even on huge pages, fresh memory made the time of one call bimodal (issue
// 25): at n = 1e7 the same aurc_vec() call took 0.29 s, or 0.45-0.75 s
// right after R had freed another large block, with the same counts of
// page faults and huge-page faults (the cost is in backing fresh pages, not
// in the sort). So the buffers of the sort path (work_vector<T>) come from
// a pool: a buffer of at least kLargeBuffer bytes goes back to the pool
// when its vector is destroyed and is handed out again by the next call,
// already backed. The pool keeps at most workspace_limit() bytes (the R
// option `aurc.workspace`, 512 MiB by default; 0 keeps nothing); above it
// the buffers not just returned are freed first. Thread-safe.
#ifndef AURC_CORE_MEMORY_H
#define AURC_CORE_MEMORY_H

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <type_traits>
#include <vector>

#include "interrupt.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace aurc {

// Buffers of at least this many bytes are worth the advice.
constexpr std::size_t kLargeBuffer = std::size_t(4) << 20;

// Asks for huge pages on the whole 2 MB pages inside [p, p + bytes).
inline void advise_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t b = (a + huge - 1) & ~(huge - 1);
  const std::uintptr_t e = (a + bytes) & ~(huge - 1);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// The pool of large buffers (see the top of this file).
class WorkspacePool {
 public:
  static WorkspacePool& instance() {
    static WorkspacePool* pool = new WorkspacePool();  // never destroyed:
    return *pool;  // buffers may be returned during static destruction
  }

  // A buffer of at least `bytes` bytes: the smallest kept one that fits,
  // else fresh memory advised onto huge pages.
  void* acquire(std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::size_t best = free_.size();
      for (std::size_t i = 0; i < free_.size(); ++i)
        if (free_[i].bytes >= bytes &&
            (best == free_.size() || free_[i].bytes < free_[best].bytes))
          best = i;
      if (best < free_.size()) {
        const Block b = free_[best];
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
        kept_ -= b.bytes;
        used_.push_back(b);
        last_use_ = Clock::now();
        return b.p;
      }
    }
    void* p = ::operator new(bytes);
    advise_huge_pages(p, bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    used_.push_back(Block{p, bytes});
    last_use_ = Clock::now();
    return p;
  }

  // Takes back a buffer from acquire(): kept while the pool stays within
  // its limit, the other kept buffers freed first.
  void release(void* p) {
    std::vector<void*> drop;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last_use_ = Clock::now();
      std::size_t i = 0;
      while (i < used_.size() && used_[i].p != p) ++i;
      if (i == used_.size()) {  // not ours: cannot happen, but never leak
        drop.push_back(p);
      } else {
        const Block b = used_[i];
        used_.erase(used_.begin() + static_cast<std::ptrdiff_t>(i));
        if (b.bytes <= limit_) {
          while (kept_ + b.bytes > limit_ && !free_.empty()) {
            drop.push_back(free_.front().p);
            kept_ -= free_.front().bytes;
            free_.erase(free_.begin());
          }
          free_.push_back(b);
          kept_ += b.bytes;
        } else {
          drop.push_back(b.p);
        }
      }
    }
    for (void* q : drop) ::operator delete(q);
  }

  // Sets the most bytes kept between calls, freeing the oldest kept
  // buffers above it.
  void set_limit(std::size_t bytes) {
    std::vector<void*> drop;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      limit_ = bytes;
      while (kept_ > limit_ && !free_.empty()) {
        drop.push_back(free_.front().p);
        kept_ -= free_.front().bytes;
        free_.erase(free_.begin());
      }
    }
    for (void* q : drop) ::operator delete(q);
  }

  // Frees every kept buffer when no buffer was taken or given back in the
  // last `idle_seconds` seconds (0: at once); buffers in use stay with
  // their calls. Returns the bytes freed. The R glue calls it from a
  // garbage-collection hook (R/workspace.R), so memory goes back to the
  // system when R collects garbage after the package has been idle.
  std::size_t release_kept(double idle_seconds) {
    std::vector<void*> drop;
    std::size_t freed = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const double idle =
          std::chrono::duration<double>(Clock::now() - last_use_).count();
      if (free_.empty() || idle < idle_seconds) return 0;
      for (const Block& b : free_) drop.push_back(b.p);
      freed = kept_;
      free_.clear();
      kept_ = 0;
    }
    for (void* q : drop) ::operator delete(q);
    return freed;
  }

  std::size_t limit() {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_;
  }
  // Bytes kept for the next call (not counting buffers in use).
  std::size_t kept() {
    std::lock_guard<std::mutex> lock(mutex_);
    return kept_;
  }

 private:
  using Clock = std::chrono::steady_clock;
  struct Block {
    void* p;
    std::size_t bytes;
  };
  std::mutex mutex_;
  Clock::time_point last_use_ = Clock::now();
  std::vector<Block> free_, used_;  // free_: oldest first
  std::size_t kept_ = 0;
  std::size_t limit_ = std::size_t(512) << 20;
};

inline void set_workspace_limit(std::size_t bytes) {
  WorkspacePool::instance().set_limit(bytes);
}
inline std::size_t workspace_limit() {
  return WorkspacePool::instance().limit();
}
inline std::size_t workspace_kept() {
  return WorkspacePool::instance().kept();
}
inline std::size_t release_workspace(double idle_seconds = 0) {
  return WorkspacePool::instance().release_kept(idle_seconds);
}

// std::allocator, except that blocks of at least kLargeBuffer bytes come
// from and go back to the WorkspacePool.
template <class T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() noexcept = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLargeBuffer) return static_cast<T*>(::operator new(bytes));
    return static_cast<T*>(WorkspacePool::instance().acquire(bytes));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kLargeBuffer) {
      ::operator delete(p);
    } else {
      WorkspacePool::instance().release(p);
    }
  }
};
template <class T, class U>
bool operator==(const PoolAllocator<T>&, const PoolAllocator<U>&) {
  return true;
}
template <class T, class U>
bool operator!=(const PoolAllocator<T>&, const PoolAllocator<U>&) {
  return false;
}

// The vectors of the sort path.
template <class T>
using work_vector = std::vector<T, PoolAllocator<T>>;

// Grows v (capacity already reserved) to n elements, in steps of 2^20
// elements with poll_interrupt() between them: filling fresh memory is
// its first touch, and at n = 1e8 the page faults of the sort's buffers
// (3.2 GB) took 1.8 s in which Ctrl-C was not answered. Value-initialised
// (resize(m): a memset for numbers), or copies of `value` when given.
template <class T, class A>
void grow_large(std::vector<T, A>& v, std::size_t n) {
  constexpr std::size_t kStep = std::size_t(1) << 20;
  while (n - v.size() > kStep) {
    poll_interrupt();
    v.resize(v.size() + kStep);
  }
  v.resize(n);
}
template <class T, class A>
void grow_large(std::vector<T, A>& v, std::size_t n, const T& value) {
  constexpr std::size_t kStep = std::size_t(1) << 20;
  while (n - v.size() > kStep) {
    poll_interrupt();
    v.resize(v.size() + kStep, value);
  }
  v.resize(n, value);
}

// Resizes v to n elements, value-initialised. The old contents are not
// kept when new memory is needed: callers overwrite every element.
template <class T, class A>
void resize_large(std::vector<T, A>& v, std::size_t n) {
  if (v.capacity() < n && n * sizeof(T) >= kLargeBuffer) {
    std::vector<T, A>().swap(v);
    v.reserve(n);  // fresh (or kept by the pool) and untouched
    if (!std::is_same<A, PoolAllocator<T>>::value)
      advise_huge_pages(v.data(), n * sizeof(T));
  }
  if (n <= v.size()) {
    v.resize(n);
  } else {
    grow_large(v, n);
  }
}

// As resize_large(), every element set to `value`.
template <class T, class A>
void assign_large(std::vector<T, A>& v, std::size_t n, const T& value) {
  if (v.capacity() < n && n * sizeof(T) >= kLargeBuffer) {
    std::vector<T, A>().swap(v);
    v.reserve(n);
    if (!std::is_same<A, PoolAllocator<T>>::value)
      advise_huge_pages(v.data(), n * sizeof(T));
  }
  v.clear();
  grow_large(v, n, value);
}

}  // namespace aurc

#endif
