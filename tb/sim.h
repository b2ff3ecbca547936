// Running a traffic experiment: elaboration, warm-up / measure / drain phases, progress, the
// deadlock watchdog, and the JSON result.
#pragma once

#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

#include "systemc/common/config.h"

namespace wormcast {

struct RunOptions {
  std::string json_path;   ///< empty: no JSON file
  std::string vcd_path;    ///< empty: no waveform
  std::string trace_path;  ///< empty: no per-hop CSV
  std::string command = "traffic";
};

struct RunOutcome {
  int exit_code = 0;  ///< 0 ok, 1 scoreboard error or incomplete drain, 3 deadlock
  nlohmann::json result;
  std::string summary;  ///< a few human lines
};

/// Elaborates and simulates one traffic run (one per process: SystemC elaborates once).
RunOutcome run_traffic(const Config& cfg, const RunOptions& opt);

class TorusNetwork;
/// Opens a VCD of every router port of `net` (path may end in .vcd) and writes the GTKWave save
/// file next to it; nullptr when path is empty. Call after elaboration, before simulating.
sc_core::sc_trace_file* open_vcd(const std::string& path, const sc_core::sc_clock& clk, const TorusNetwork& net);

/// Writes text to path atomically (temporary file + rename); throws ConfigError on failure.
void write_file_atomic(const std::string& path, const std::string& text);

/// Progress line on stderr: only on a terminal (mode auto) or when forced on.
class Progress {
 public:
  Progress(const std::string& mode, uint64_t total);
  void update(uint64_t cycle);
  void done();

 private:
  bool m_on;
  uint64_t m_total;
  double m_start, m_last = 0;
};

}  // namespace wormcast
