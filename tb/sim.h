// Running a traffic experiment: elaboration, warm-up / measure / drain phases, progress, the
// deadlock watchdog, and the JSON result.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "systemc/common/config.h"

namespace wormcast {

/// The optional recordings of a run (empty path: not written).
struct RecordOptions {
  std::string vcd_path;         ///< VCD of every router port, GTKWave save file next to it
  std::string fst_path;         ///< the same as FST (recorded as VCD, converted by vcd2fst at the end)
  std::string trace_path;       ///< per-hop CSV (SystemC routers only)
  std::string deliveries_path;  ///< per-flit delivery CSV: cycle,node,src,packet,flit,vc
  std::vector<std::string> rtl_vcd;  ///< "r_x_y=FILE.vcd": every signal inside that RTL router
};

struct RunOptions : RecordOptions {
  std::string json_path;   ///< empty: no JSON file
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

/// Throws ConfigError when `cfg` cannot produce a recording asked for (call before elaboration).
void check_record_options(const Config& cfg, const RecordOptions& opt);

class HopCsv;
class DeliveryCsv;
/// The recordings of one run: attached after elaboration, written by finish().
class Recorders {
 public:
  Recorders(const RecordOptions& opt, const sc_core::sc_clock& clk, TorusNetwork& net);
  ~Recorders();
  void finish();

 private:
  RecordOptions m_opt;
  TorusNetwork& m_net;
  std::unique_ptr<HopCsv> m_hops;
  std::unique_ptr<DeliveryCsv> m_deliveries;
  sc_core::sc_trace_file* m_vcd = nullptr;
  std::string m_fst_vcd;  ///< the temporary VCD behind --fst
};

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
