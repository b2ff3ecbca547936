// The one run driver of every simulating command and every router family: warm-up / measure /
// drain phases, the progress line, the deadlock watchdog with its wait-for graph, a typed run
// status with one status -> exit-code mapping, and the result JSON's common part.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/common/config.h"
#include "systemc/net/activity.h"
#include "systemc/net/wait_for.h"
#include "tb/out/recorders.h"

namespace wormcast {

class Network;

enum class RunStatus {
  Ok,
  Deadlock,         ///< the watchdog fired: no flit moved for sim.watchdog cycles while flits were in flight
  DrainTimeout,     ///< traffic: measured packets not delivered within sim.drain
  Timeout,          ///< node programs: still busy at the cycle limit
  ScoreboardError,  ///< a flit lost, duplicated, reordered or misdelivered, or a packet stranded in a NIC
  Livelock,         ///< flits kept moving but none was delivered for sim.livelock cycles
  Unstable,         ///< traffic: drained and clean, but the stability verdict is unstable (beyond saturation)
  SoftwareFault,    ///< node programs (node.cpu = rv32): a core stopped on an illegal instruction or a bus error
};
/// "ok", "deadlock", "drain_timeout", "timeout", "scoreboard_error", "livelock", "unstable",
/// "software_fault".
const char* status_name(RunStatus s);
/// 0 ok, 3 deadlock, 4 livelock, 5 unstable or did not drain (drain_timeout), 6 a node processor's
/// fault (software_fault), 1 every other failure (2 is bad input, before any simulation).
int exit_code(RunStatus s);

/// How long a run lasts and when it is over.
struct RunPhases {
  uint64_t warmup = 0;   ///< the measurement window is [warmup, warmup + measure)
  uint64_t measure = 0;
  uint64_t limit = 0;    ///< stop at this cycle with status on_limit
  RunStatus on_limit = RunStatus::DrainTimeout;
  uint64_t max_step = 1000;  ///< cycles simulated between checks (steps end at warmup, warmup + measure and limit)
  /// Without a window (warmup + measure 0): the cycles the run is expected to take (an analytic
  /// prediction), the progress line's estimated total; 0: unknown.
  uint64_t expected = 0;
  /// True when the run is complete (checked after every step, after the watchdog).
  std::function<bool(uint64_t cycle)> finished;
  /// Cycles to stop at exactly, and what to do there (the recordings' --vcd-window). The stops do
  /// not move the checks (finished, the watchdog, the limit): a run ends where it would without
  /// them, and a stop at the cycle it ends is not taken.
  std::vector<uint64_t> stops;
  std::function<void(uint64_t cycle)> at;
  /// Take the routers' activity counts at the window's ends (RunResult::act_begin, act_end: only a
  /// result's router_activity and energy read them; a copy per router, kept to the end of the run).
  bool router_activity = true;
};

struct RunResult {
  RunStatus status = RunStatus::Ok;
  uint64_t cycles = 0;
  double wall_seconds = 0;
  std::vector<uint64_t> links_begin, links_end;  ///< Network::link_counters at the window's ends
  std::vector<uint64_t> inj_begin, inj_end;      ///< Network::injection_counters at the window's ends
  std::vector<std::pair<std::string, uint64_t>> uses_begin, uses_end;  ///< Network::link_cycles at the window's ends
  std::vector<RouterActivity> act_begin, act_end;  ///< Network::router_activity at the window's ends
  std::vector<bool> act_counted;
  uint64_t window = 0;                           ///< measured cycles actually simulated
  uint64_t last_move = 0;
  uint64_t last_delivery = ~uint64_t(0);         ///< cycle of the last ejected flit (livelock report; ~0: none)
  WaitForGraph wait_for;                         ///< when the watchdog fired
  /// When the watchdog fired: the packets in flight by class (docs/architecture.md, completion).
  bool watchdog = false;
  uint64_t stalled_deadlocked = 0;  ///< a buffer holding it (or allocated to it) waits into a wait-for cycle
  uint64_t stalled_lost = 0;        ///< flits some node lacks are in no buffer that waits: lost (exit 1)
  uint64_t stalled_blocked = 0;     ///< waits, through others, on a buffer that waits for nothing
  uint64_t stalled_unclassified = 0;  ///< the family cannot say (a buffer names only its front packet)
};

/// Simulates `net` (elaborated, recorders attached) through the phases. When the watchdog fires
/// the wait-for graph is built and, when opt.deadlock_dot_path is set, written as DOT, and every
/// packet in flight is classified: held in a buffer that waits into a wait-for cycle (deadlock,
/// status Deadlock) or lost (its missing flits in no buffer, or in buffers whose waits end at one
/// that waits for nothing: status ScoreboardError, each packet named with the nodes that lack
/// which flits). Packets left in a NIC's source queue with the network idle at the limit are
/// stranded: status ScoreboardError, the packets named. Recordings are held to the plan's size
/// limit while running.
RunResult drive(Network& net, const SimConfig& sim, const RunPhases& phases, const RecordOptions& opt);
/// Refuses (ConfigError) a sim.watchdog or sim.livelock window below `quiet`, the network's
/// longest quiet time (Network::longest_quiet, Family::longest_quiet): drive() on its network,
/// `config --check` before any network is built.
void check_quiet_windows(const SimConfig& sim, uint64_t quiet);

/// The result JSON's common part: wormcast, config, status, cycles, packets, links, scoreboard,
/// deadlock.
nlohmann::json common_result(const std::string& command, const Config& cfg, const RunResult& r, const Network& net);

/// The program exits right after its run (the `wormcast` program): a run then leaves its network
/// undestroyed, since SystemC's object registry takes time quadratic in the number of objects to
/// tear down (64x64: seconds; 128x128: minutes), and the process ends without destructors.
/// Libraries and tests leave this off.
void set_exit_after_run(bool on);
bool exit_after_run();

/// Owns a run's top module. When the program exits right after its run (set_exit_after_run), the
/// top is left undestroyed on every way out of the run, an error thrown mid-run included: no
/// quadratic teardown, and no SystemC thread unwound just before the process ends.
template <class T>
struct RunTopDeleter {
  void operator()(T* p) const {
    if (!exit_after_run()) delete p;
  }
};
template <class T>
using RunTopPtr = std::unique_ptr<T, RunTopDeleter<T>>;

/// Progress line on stderr: only on a terminal (mode auto) or when forced on.
class Progress {
 public:
  /// total 0: unknown (no ETA); estimated: the total is a prediction (shown as ~total).
  Progress(const std::string& mode, uint64_t total, bool estimated = false);
  /// The phase ("warm-up", "measure", "drain") and, past the total, the work left.
  void update(uint64_t cycle, const char* phase = nullptr, uint64_t in_flight = 0);
  void done();

 private:
  bool m_on;
  uint64_t m_total;
  bool m_estimated;
  double m_start, m_last = 0;
};

}  // namespace wormcast
