// The energy model's configuration (energy.* keys, docs/energy.md): which technology table, the
// flit width and link length the per-event energies are scaled to, and the clock that turns
// energy into power. A part of Config, registered by every family that reports router events.
#pragma once

#include <vector>

#include "systemc/common/config.h"

namespace wormcast {

/// A technology table of per-event energies (systemc/net/energy.cpp, docs/energy.md).
enum class EnergyTechnology { Dsent45, Dsent32 };

/// cfg.part<EnergyConfig>().
struct EnergyConfig {
  EnergyTechnology technology = EnergyTechnology::Dsent45;
  int flit_bits = 64;           ///< datapath width the buffer, crossbar and link energies scale with
  double link_length_mm = 1.0;  ///< length of one network link (a folded torus's links: twice the tile pitch)
  /// The clock period for average power, ns; 0: the period of the clock the network ran on.
  double clock_period_ns = 0;
};

/// The energy.* keys (default, allowed range, help), for the families whose networks report
/// router events (Network::router_activity).
std::vector<ConfigKey> energy_keys();

/// The name of a technology table, as the key energy.technology spells it.
const char* technology_name(EnergyTechnology t);

}  // namespace wormcast
