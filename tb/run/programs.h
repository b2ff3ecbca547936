// Running node programs (sw/ NodeProgram objects) on the cycle-accurate network: one node CPU per
// node behind its NIC's TLM socket, until every program is idle and the network is empty.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/hal/node_api.h"
#include "sw/runtime/program_table.h"
#include "sw/schedule/analytic.h"
#include "systemc/common/config.h"
#include "systemc/torus/params.h"
#include "tb/out/recorders.h"
#include "tb/run/driver.h"

namespace wormcast {

struct MessageTiming {
  int src = -1, dst = -1;
  uint32_t length = 0;
  uint32_t tag = 0;
  uint64_t message = 0;   ///< the source NIC's message id: (its n-th message) * N + source
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
  /// node.cpu = rv32: the cores' measured software cost (per node and the summary with the
  /// effective t_s and t_r, docs/cpu.md); null on the native processor.
  nlohmann::json cpu;
  double effective_ts = 0, effective_tr = 0;  ///< network cycles (rv32)
  /// rv32: what the summary line says the effective t_s and t_r are the means of.
  std::string effective_paths() const {
    return !cpu.is_null() && cpu.value("effective_ts_boot_included", false)
               ? "mean per send path, the boot included as every send starts at reset / per receive path"
               : "mean per send / receive path";
  }
};

class CoreObserver;
class FirmwareImage;

/// node.cpu = rv32: what each node's firmware runs. The NodeProgram objects then only say which
/// nodes run at all (nullptr: no program, the core halts).
struct FirmwareTables {
  std::vector<sw::NodeTable> tables;  ///< per node
  uint32_t length = 1;                ///< flits of a send without a per-send length
  CoreObserver* observer = nullptr;   ///< told of every send and pop (e.g. a gossip watch)
  const FirmwareImage* image = nullptr;  ///< another firmware than the built-in one (tests)
};

struct ProgramRunOptions : RecordOptions {
  /// The run ends as a timeout after this many cycles (a backstop: the watchdog ends a stalled run
  /// long before). Commands that know the schedule's contention-free time size it by
  /// program_cycle_limit.
  uint64_t max_cycles = kDefaultProgramLimit;
  /// The contention-free (analytic) cycles the run is expected to take, 0: unknown. Only the
  /// progress line's estimate of what is left reads it.
  uint64_t predicted = 0;
  static constexpr uint64_t kDefaultProgramLimit = 50000000;
  const FirmwareTables* firmware = nullptr;  ///< required with node.cpu = rv32
};

/// The cycle limit of a program run whose contention-free (analytic) time is `predicted` cycles:
/// at least the default, and room for four times the prediction (blocking makes a run longer than
/// its analytic time), plus `software` cycles for work the prediction leaves out (rv32_room).
inline uint64_t program_cycle_limit(uint64_t predicted, uint64_t software = 0) {
  constexpr uint64_t kMax = ~uint64_t(0);
  const uint64_t room = predicted > (kMax - 1000000) / 4 ? kMax : 4 * predicted + 1000000;
  const uint64_t limit = room > ProgramRunOptions::kDefaultProgramLimit ? room : ProgramRunOptions::kDefaultProgramLimit;
  return software > kMax - limit ? kMax : limit + software;
}

/// node.cpu = rv32: the network cycles the cores' own work may take, which an analytic time leaves
/// out (there t_s = t_r = 0, the rv32 default): 10,000 instructions, plus 1,000 per event (a send,
/// a receipt, or a step of a node's receipt table; measured: at most 533 per node in a 32x32
/// recursive-doubling broadcast, 51,398 for a node's 500 sends and receipts in a 250-node gossip;
/// docs/schedules.md) of the events whose work may add up: in a step-synchronous table (gossip)
/// the busiest node's events of each step, summed over the steps; else those of the heaviest chain
/// of nodes each sending to the next (a node's sends wait for its receipts), or of every node when
/// the sends form a cycle; times the network cycles of the slowest instruction class at the core's
/// clock (node.cpu_cpi, node.cpu_clock_ratio). 0 on the native processor.
uint64_t rv32_room(const Config& cfg, const std::vector<sw::NodeTable>& tables);

/// The analytic router model's parameters for cfg's network of router parameters rp (its R, Ld, Di,
/// De, port model and, for a family with a routing of its own, the routes' hops and first ports)
/// with software latencies t_s and t_r.
sw::AnalyticParams router_analytic_params(const Config& cfg, const RouterParams& rp, bool one_port, uint64_t t_s,
                                          uint64_t t_r);

/// A message of `longest` flits is longer than the buffers, which are shallower than the credit
/// round trip of the configured delays (RouterParams::streaming_depth): it waits for credits on an
/// idle path, which the analytic router model leaves out.
bool credit_limited(const RouterParams& rp, uint64_t longest);
/// Under router.vc_realloc = empty an output VC is free again only when its tail's last credit has
/// returned, so messages of `len` flits sent back to back on one channel wait for a VC when
/// (vcs_per_class - 1) * len < R + Ld + Cd.
bool vc_reuse_limited(const RouterParams& rp, uint64_t len);
/// The lines a program run prints under its analytic times for either case; empty for neither.
std::string credit_limit_note(const RouterParams& rp, uint64_t longest);

/// Elaborates the network of `cfg` with programs[i] on node i (nullptr: an idle node) and runs it.
/// One call per process (SystemC elaborates once).
ProgramRun run_programs(const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
                        const ProgramRunOptions& opt);

}  // namespace wormcast

namespace wormcast {

/// `cfg` on the native processor with t_s and t_r set (the native twin of an RV32 run), quiet.
Config native_with(const Config& cfg, int64_t ts, int64_t tr);

/// A second run whose parameters are known only after this process's own run (e.g. the native
/// processor with the t_s and t_r the RV32 cores measured): SystemC elaborates once per process, so
/// a child forked now, before this process elaborates, waits for the two numbers, runs `run` with
/// them and hands back its result. Without a result() call the child exits unused; it dies with
/// this process.
class DeferredRun {
 public:
  explicit DeferredRun(std::function<uint64_t(int64_t a, int64_t b)> run);
  ~DeferredRun();
  DeferredRun(const DeferredRun&) = delete;
  DeferredRun& operator=(const DeferredRun&) = delete;
  /// The child's result for (a, b); false when the child failed (its reason on stderr).
  bool result(int64_t a, int64_t b, uint64_t& out);

 private:
  void reap();
  int m_sock = -1;  ///< this side of the socket pair to the child
  int m_pid = -1;
};

}  // namespace wormcast
