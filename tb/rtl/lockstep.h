// Lockstep co-simulation of the SystemC router and the Verilated router: identical
// constrained-random stimulus with back-pressure into both, every output compared every cycle.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tb/rtl/lockstep_stimulus.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

struct LockstepOptions {
  uint64_t cycles = 50000;  ///< cycles of stimulus after reset
  uint64_t seed = 1;
  int node = -1;            ///< position of the router; -1: coordinate k/2 + 1 in every dimension
  /// VCD of both routers' ports around the first mismatch (the last `window` cycles before it
  /// and `window` after); empty: none.
  std::string mismatch_vcd;
  int window = 40;
  /// VCD of the whole run (SystemC signals of both routers plus the RTL-side words); empty: none.
  std::string full_vcd;
  /// VCD of every signal inside the Verilated router for the whole run; empty: none.
  std::string rtl_vcd;
  int max_packet = 6;       ///< flits per packet, 1..max_packet
  StimulusLoad load = StimulusLoad::Phases;  ///< offered load (lockstep_stimulus.h)
};

struct LockstepResult {
  bool ok = true;
  uint64_t cycles = 0;          ///< cycles compared
  // What the stimulus exercised (a run that moved nothing proves nothing).
  uint64_t flits_in = 0, flits_out = 0, credits_out = 0, packets_in = 0, single_flit = 0;
  uint64_t stalled_port_cycles = 0;  ///< output-port cycles with credits withheld
  std::vector<uint64_t> flits_out_port;  ///< flits out per output port
  int max_buffered = 0;              ///< most flits held in the SystemC router at once
  int node = 0;
  // The first mismatch (ok == false).
  uint64_t mismatch_cycle = 0;
  std::string mismatch_wire;    ///< "flit_out" or "credit_out"
  int mismatch_port = -1;
  int mismatch_vc = -1;
  std::string systemc_value, rtl_value;
  std::string vcd_written;      ///< path of the mismatch VCD, if one was written
  std::string checker_report;   ///< the first mismatching wires, one line each, and their count
};

std::ostream& operator<<(std::ostream& os, const LockstepResult& r);

/// Elaborates and runs one lockstep simulation (SystemC elaborates once per process).
LockstepResult run_lockstep(const RtlModelInfo& model, const LockstepOptions& opt);

}  // namespace wormcast
