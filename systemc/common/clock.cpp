// The process-wide cycle period and the current cycle.
#include "systemc/common/clock.h"

namespace wormcast {

namespace {
sc_core::sc_time& period() {
  static sc_core::sc_time p(1, sc_core::SC_NS);
  return p;
}
uint64_t& period_ticks() {
  static uint64_t t = period().value();
  return t;
}
}  // namespace

sc_core::sc_time cycle_time() { return period(); }

void set_cycle_time(const sc_core::sc_time& p) {
  period() = p;
  period_ticks() = p.value();
}

uint64_t current_cycle() { return sc_core::sc_time_stamp().value() / period_ticks(); }

}  // namespace wormcast
