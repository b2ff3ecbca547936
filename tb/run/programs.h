// Running node programs (sw/ NodeProgram objects) on the cycle-accurate network: one node CPU per
// node behind its NIC's TLM socket, until every program is idle and the network is empty.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/hal/node_api.h"
#include "systemc/common/config.h"
#include "tb/out/recorders.h"
#include "tb/run/driver.h"

namespace wormcast {

struct MessageTiming {
  int src = -1, dst = -1;
  uint32_t length = 0;
  uint32_t tag = 0;
  uint64_t created = 0;   ///< software called send()
  uint64_t ready = 0;     ///< t_s done: the NIC may start it
  uint64_t injected = 0;  ///< head entered the injection channel
  uint64_t arrived = 0;   ///< tail at the receiving NIC (end of cycle)
  int hops = 0;
  /// Cycles beyond the zero-load time from `injected` to `arrived` ((h+1)R + h*Ld + L): time spent
  /// in the network waiting for a channel, a VC or a credit that another packet held. (Waiting
  /// for the node's own injection channel, busy with an earlier send, is not counted here.)
  uint64_t blocked = 0;
};

struct ProgramRun {
  RunStatus status = RunStatus::Ok;
  int exit_code = 0;          ///< exit_code(status)
  uint64_t cycles = 0;
  std::vector<uint64_t> first_visible;  ///< per node, first delivery seen by software (~0: none)
  std::vector<uint32_t> deliveries;     ///< per node, messages delivered
  std::vector<MessageTiming> messages;  ///< in delivery order
  uint64_t blocked_cycles = 0;          ///< sum over messages
  uint64_t blocked_messages = 0;
  uint64_t injection_wait_cycles = 0;   ///< sum of injected - ready: the sender's own channel busy
  nlohmann::json deadlock;              ///< the deadlock part of common_result
  std::vector<std::string> errors;
};

struct ProgramRunOptions : RecordOptions {
  uint64_t max_cycles = 50000000;
};

/// Elaborates the network of `cfg` with programs[i] on node i (nullptr: an idle node) and runs it.
/// One call per process (SystemC elaborates once).
ProgramRun run_programs(const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
                        const ProgramRunOptions& opt);

}  // namespace wormcast
