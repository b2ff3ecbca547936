// Lockstep co-simulation of the SystemC m-way fabric and the RTL one (Verilated units behind the
// same fabric interface): identical random unicast and region-broadcast messages into both, and
// at every cycle every channel's lines (Drv, Tag, Buf, Ways, Ack, Pri, Stat), every buffer-state
// table, every loader, queue and delivery compared; the first cycle that differs is reported
// field by field.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tb/rtl/mway/mw_models.h"

namespace wormcast {

struct MwLockstepOptions {
  uint64_t cycles = 100000;        ///< cycles compared
  uint64_t seed = 1;
  double rate = 0.01;              ///< messages generated per node per cycle
  double broadcast_fraction = 0.5; ///< share of region broadcasts (random rectangles) among them
  size_t queue_limit = 4;          ///< a node generates only while its source queue is shorter
  size_t shown = 8;                ///< differing fields listed in the report
};

struct MwLockstepResult {
  bool ok = true;
  uint64_t cycles = 0;  ///< cycles compared
  // What the run exercised (a run that moved nothing proves nothing).
  uint64_t unicasts = 0, broadcasts = 0, deliveries = 0;
  uint64_t header_ack = 0, header_progress = 0, header_refused = 0, body_tail = 0;
  uint64_t splits = 0, reservations = 0, max_queued = 0;
  // The first mismatch (ok == false).
  uint64_t mismatch_cycle = 0;
  uint64_t mismatch_fields = 0;             ///< fields that differ in that cycle
  std::vector<std::string> mismatches;      ///< the first `shown` of them: "name: systemc X, rtl Y"
};

std::ostream& operator<<(std::ostream& os, const MwLockstepResult& r);

/// Elaborates and runs one lockstep simulation of build `model` (SystemC elaborates once per process).
MwLockstepResult run_mway_lockstep(const MwRtlModelInfo& model, const MwLockstepOptions& opt);

}  // namespace wormcast
