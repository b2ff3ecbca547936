// The model's time base: one clock cycle is one nanosecond of SystemC time; routers act at the
// rising edge (whole nanoseconds), NICs at the falling edge, node software at whole cycles.
#pragma once

#include <cstdint>

#include <systemc>

namespace wormcast {

inline sc_core::sc_time cycle_time() { return sc_core::sc_time(1, sc_core::SC_NS); }
/// The cycle that the current simulation time lies in.
inline uint64_t current_cycle() {
  static const uint64_t per_cycle = cycle_time().value();
  return uint64_t(sc_core::sc_time_stamp().value() / per_cycle);
}

}  // namespace wormcast
