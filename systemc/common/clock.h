// The model's time base: one cycle is one period of the clock the network is bound to (a platform
// may use any period; until a network is elaborated, 1 ns). Routers act at the rising edge, NICs
// at the falling edge, node software at whole cycles; cycle numbers never depend on the period.
#pragma once

#include <cstdint>

#include <systemc>

namespace wormcast {

/// The period of one cycle.
sc_core::sc_time cycle_time();
/// Sets the period (Network does, at the end of elaboration, from the clock bound to its clk);
/// one value per process, as SystemC elaborates once per process.
void set_cycle_time(const sc_core::sc_time& period);
/// The cycle that the current simulation time lies in.
uint64_t current_cycle();

}  // namespace wormcast
