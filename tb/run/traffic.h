// The traffic run on any router family: elaborates a network and its traffic generator, runs
// warm-up, measurement and drain, and judges the result (the steady-state verdict).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "systemc/common/clock.h"
#include "systemc/common/config.h"
#include "systemc/kernel/cycle_clock.h"
#include "tb/out/recorders.h"
#include "tb/run/patterns.h"
#include "tb/run/steady_state.h"
#include "tb/run/traffic_gen.h"
#include "tb/run/traffic_stats.h"

namespace wormcast {

/// The stability verdict of a traffic run (docs/statistics.md): the steady-state verdict on what
/// the run owes over its window (judge_steady_state), made unstable also when the run did not
/// drain, a source queue overflowed, or the mean latency is above sim.latency_threshold (when set).
struct Stability {
  SteadyVerdict steady;
  std::vector<std::string> reasons;  ///< the steady verdict's and the others'
  SteadyOutcome outcome = SteadyOutcome::Undecided;
  nlohmann::json to_json() const;
};
/// `crossing`: the network's zero-load crossing (Network::zero_load_crossing), the verdict's shortest batch.
Stability stability_verdict(const Config& cfg, const TrafficStats& stats, const nlohmann::json& report, bool drained,
                            uint64_t crossing);

/// A traffic run's design: the network of cfg.net.family and its traffic generator, on a clock of
/// its own (a CycleClock of cycle_time()) or on the caller's.
struct TrafficTop : sc_core::sc_module {
  std::unique_ptr<CycleClock> own_clk;  ///< null when the caller's clock drives the run
  const sc_core::sc_signal_in_if<bool>& clk;
  std::unique_ptr<Network> net;
  std::unique_ptr<TrafficGen> traffic;
  TrafficTop(sc_core::sc_module_name n, const Config& cfg, TrafficStats& stats, const NetworkOptions& opt,
             const sc_core::sc_signal_in_if<bool>* clock = nullptr);
};

/// The traffic run's outputs; without a plan of the caller's (opt.plan) run_traffic plans and
/// commits its own.
struct RunOptions : RecordOptions {
  std::string json_path;   ///< empty: no JSON file
  std::string command = "traffic";
  /// Build RunOutcome::result. The command line asks for it only when a JSON file is wanted: on a
  /// large network the results (per router, per link) take a noticeable part of a short run.
  bool want_result = true;
};

struct RunOutcome {
  int exit_code = 0;  ///< exit_code(status)
  nlohmann::json result;  ///< null unless RunOptions::want_result or a JSON file
  std::string summary;  ///< a few human lines
};

/// Elaborates and simulates one traffic run (one per process: SystemC elaborates once): what
/// `wormcast traffic` does, on a clock of the run's own (a cycle of cycle_time(), 1 ns).
RunOutcome run_traffic(const Config& cfg, const RunOptions& opt);
/// The same run inside a SystemC top of the caller's, from sc_main before simulation has started:
/// the network and traffic generator are built under the top-level module "top" and clocked by
/// `clk` (any period; it must start at time 0 with a rising edge, duty cycle 0.5); the run's
/// sc_start calls also simulate the caller's other modules. Cycle counts and results are those of
/// `wormcast traffic` for the same configuration and seed. Throws ConfigError on a bad
/// configuration (one line: the field and what is allowed).
RunOutcome run_traffic(const Config& cfg, sc_core::sc_clock& clk, const RunOptions& opt = {});

}  // namespace wormcast
