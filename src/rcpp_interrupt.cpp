// R glue for the interrupt poll of core/interrupt.h, installed when the
// shared library is loaded: the core's long serial passes read R's flag of
// a pending interrupt (set by R's SIGINT handler, declared in R's public
// header R_ext/GraphicsDevice.h) and, when it is set, call R's check:
// Rcpp::checkUserInterrupt() throws, and R turns it into an interrupt
// once the C++ stack, and the work buffers on it, have unwound.
#include "glue.h"

#include <R_ext/GraphicsEngine.h>

namespace {

void check_r_interrupt() { Rcpp::checkUserInterrupt(); }

struct InstallInterruptPoll {
  InstallInterruptPoll() {
    aurc::interrupt_flag() = &R_interrupts_pending;
    aurc::interrupt_poll() = &check_r_interrupt;
  }
};
const InstallInterruptPoll install_at_load;

}  // namespace
