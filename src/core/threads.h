// How many OpenMP threads a kernel may start: never more than one in a
// process forked from the one that loaded the package.
//
// GNU OpenMP (libgomp) keeps a pool of worker threads after the first
// parallel region. fork() copies only the calling thread, so in a forked
// child (parallel::mclapply(), mcparallel(), future's multicore plan, tune
// on forks) the pool's bookkeeping says its workers exist while they do
// not: the child's first parallel region of two or more threads waits for
// them for ever. A region of one thread never touches the pool (data.table
// relies on the same), so a forked child runs every kernel on its calling
// thread: the same results, as the kernels' results never depend on the
// thread count. The parent's pool is untouched and keeps working.
//
// A child is recognised by its process id: the id of the process that
// loaded the package is taken when the shared library is loaded (a static
// initialiser, see src/rcpp_threads.cpp) and compared with getpid() on
// every threaded call (one system call, about 0.1 microseconds). Unlike a
// pthread_atfork() handler this leaves nothing behind when the library is
// unloaded.
#ifndef AURC_CORE_THREADS_H
#define AURC_CORE_THREADS_H

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define AURC_HAVE_FORK 1
#endif

namespace aurc {

// The process that loaded the package (0: not recorded, any process may
// start threads).
inline long& owner_process() {
  static long pid = 0;
  return pid;
}

inline long current_process() {
#ifdef AURC_HAVE_FORK
  return static_cast<long>(getpid());
#else
  return 0;
#endif
}

// Records this process as the one whose threads are safe to use.
inline void record_owner_process() { owner_process() = current_process(); }

// True in a process forked after record_owner_process().
inline bool in_forked_child() {
  const long owner = owner_process();
  return owner != 0 && owner != current_process();
}

// The threads a kernel may use when asked for `threads`: at least 1, and
// exactly 1 in a forked child.
inline int usable_threads(int threads) {
  if (threads < 2) return 1;
  return in_forked_child() ? 1 : threads;
}

}  // namespace aurc

#endif
