// The energy model (docs/energy.md): per-event energies of a router from a technology table,
// scaled to the configured flit width, buffer size and port count, multiplied by the router event
// counts of the measurement window (RouterActivity), plus the leakage of the input buffers.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/common/energy_config.h"
#include "systemc/net/activity.h"

namespace wormcast {

/// One technology: the energies DSENT computes for its router building blocks (docs/energy.md
/// gives the source of every number and the error of each fit). Energies in pJ for 64-bit flits.
struct TechnologyTable {
  const char* name;         ///< as energy.technology spells it
  const char* node;         ///< process, threshold flavour and supply
  double vdd;               ///< V
  /// Input-port buffer (flip-flop RAM of N = VCs x depth flits), pJ per flit written or read:
  /// a + b N + c log2 N.
  double write_a, write_b, write_c;
  double read_a, read_b, read_c;
  /// Multiplexer crossbar, pJ per flit traversing a P x P crossbar: a + b P.
  double xbar_a, xbar_b;
  /// Matrix arbiter, pJ per arbitration among N requesters, at the N DSENT was run for.
  std::vector<std::pair<int, double>> arbiter;
  double link_fj_per_bit_mm;  ///< repeated global wire, fJ per bit per mm
  double leak_uw_per_bit;     ///< input-buffer leakage, uW per buffer bit
};

const TechnologyTable& technology_table(EnergyTechnology t);

/// Energy per event of one router, pJ, for its shape and the configured flit width and link length.
struct EventEnergies {
  double buffer_write = 0, buffer_read = 0, crossbar = 0, switch_allocation = 0, vc_allocation = 0;
  double link = 0;                   ///< one flit over one network link
  double leakage_per_bit_cycle = 0;  ///< one buffer bit for one clock period
  uint64_t buffer_bits = 0;          ///< ports x VCs x depth x flit bits
};

/// pJ per arbitration among n requesters (0 for n <= 1: nothing to arbitrate).
double arbiter_energy(const TechnologyTable& t, int n);
EventEnergies event_energies(const EnergyConfig& cfg, const RouterShape& shape, double period_ns);

/// The result's `energy` object: per router (node order) and in total, energy by component over
/// the measurement window (`counts`: each router's window counts), energy per delivered flit and
/// average power at the clock period. `counted[i]` false: router i's internal events are unknown
/// (an RTL router seen at its ports). per_router false: the totals only (no per_router array).
nlohmann::json energy_report(const EnergyConfig& cfg, const RouterShape& shape, double period_ns,
                             const std::vector<RouterActivity>& counts, const std::vector<std::string>& names,
                             const std::vector<bool>& counted, uint64_t window, bool per_router = true);

}  // namespace wormcast
