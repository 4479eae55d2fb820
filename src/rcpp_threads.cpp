// R glue for the thread rule of core/threads.h: the process that loads the
// shared library is recorded when it is loaded, so that a process forked
// from it later (parallel::mclapply() and the like) runs every kernel on
// one thread instead of waiting for OpenMP workers it does not have.
#include "glue.h"
#include "core/threads.h"

namespace {

struct RecordOwnerProcess {
  RecordOwnerProcess() { aurc::record_owner_process(); }
};
const RecordOwnerProcess record_at_load;

}  // namespace

// TRUE in a process forked from the one that loaded the package.
// [[Rcpp::export(rng = false)]]
bool in_forked_child_impl() { return aurc::in_forked_child(); }
