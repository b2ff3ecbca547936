// The optional recordings of a run, for any router family: port/channel waveforms (VCD or FST,
// with a GTKWave save file), the per-hop CSV, the per-flit delivery CSV, the per-packet CSV, router
// internals.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

namespace wormcast {

class Network;
class OutputPlan;
class HopCsv;
class DeliveryCsv;
class PacketCsv;

/// The optional recordings of a run (empty path: not written).
struct RecordOptions {
  std::string vcd_path;         ///< VCD of every router port, GTKWave save file next to it
  std::string fst_path;         ///< the same as FST (recorded as VCD, converted by vcd2fst at the end)
  std::string trace_path;       ///< per-hop CSV
  std::string deliveries_path;  ///< per-flit delivery CSV: cycle,node,src,packet,flit,vc
  std::string packets_path;     ///< per-packet CSV (tb/out/packet_csv.h)
  std::vector<std::string> rtl_vcd;  ///< "r_x_y=FILE.vcd": every signal inside that router
  std::string deadlock_dot_path;  ///< the wait-for graph as Graphviz DOT, written on a deadlock
  std::string vcd_routers;  ///< "r_0_0,r_1_0": the VCD/FST holds only these routers ("": all)
  std::string vcd_window;   ///< "START:END": the VCD/FST covers cycles [START, END) only ("": all)
  std::string max_output_size = "4G";  ///< limit on traces and waveforms together (parse_size)
  /// Where the files go: planned by plan_recordings before elaboration, committed by the plan's
  /// owner when the run is over (run_traffic and run_programs own one when this is null).
  OutputPlan* plan = nullptr;
};

/// Throws ConfigError when a recording cannot be made at all (call before elaboration).
void check_record_options(const RecordOptions& opt);
/// Plans every recording file of opt in plan (paths checked, temporaries made) and sets the plan's
/// size limit; throws ConfigError naming the option.
void plan_recordings(OutputPlan& plan, const RecordOptions& opt);
/// Refuses (ConfigError) recordings estimated larger than opt.max_output_size: `cycles` simulated
/// on `nodes` nodes, `flits` flits per node per cycle travelling `hops` hops on average.
void check_recording_estimate(const RecordOptions& opt, int nodes, uint64_t cycles, double flits, double hops);

/// The recordings of one run: attached after elaboration, before cycle 0, into the temporaries of
/// the output plan; finish() completes them, the plan's owner commits them.
class Recorders {
 public:
  /// What else a run traces into its waveform when it opens (e.g. the node processors), told which
  /// nodes the waveform holds (`traced[node]`; empty: every node, as without --vcd-routers).
  using MoreTraces = std::function<void(sc_core::sc_trace_file*, const std::vector<bool>& traced)>;
  /// `more`: traces what else the run has into a waveform when it opens.
  Recorders(const RecordOptions& opt, const sc_core::sc_signal_in_if<bool>& clk, Network& net,
            MoreTraces more = nullptr);
  ~Recorders();
  void finish();
  /// Cycles at which the run driver must stop and call at(cycle): the --vcd-window bounds.
  std::vector<uint64_t> stops() const;
  void at(uint64_t cycle);

 private:
  RecordOptions m_opt;
  OutputPlan* m_plan;
  Network& m_net;
  std::unique_ptr<HopCsv> m_hops;
  std::unique_ptr<DeliveryCsv> m_deliveries;
  std::unique_ptr<PacketCsv> m_packets;
  sc_core::sc_trace_file* m_vcd = nullptr;
  std::string m_fst_vcd;  ///< the temporary VCD behind --fst
  // --vcd-window: the waveform is opened at m_from and closed at m_to.
  uint64_t m_from = 0, m_to = ~uint64_t(0);
  bool m_windowed = false, m_opened = false;
  std::string m_vcd_tmp, m_gtkw, m_shown;
  const sc_core::sc_signal_in_if<bool>* m_clk = nullptr;
  MoreTraces m_more;
  std::vector<bool> m_traced;  ///< --vcd-routers: [node] the waveform holds it (empty: every node)
};

}  // namespace wormcast
