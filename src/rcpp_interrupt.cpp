// R glue for the interrupt poll of core/interrupt.h: installed when the
// shared library is loaded, so the long serial passes of the core answer
// Ctrl-C (Rcpp::checkUserInterrupt() throws; R turns it into an interrupt
// once the C++ stack, and the work buffers on it, have unwound).
#include "glue.h"

namespace {

void check_r_interrupt() { Rcpp::checkUserInterrupt(); }

struct InstallInterruptPoll {
  InstallInterruptPoll() { aurc::interrupt_poll() = &check_r_interrupt; }
};
const InstallInterruptPoll install_at_load;

}  // namespace
