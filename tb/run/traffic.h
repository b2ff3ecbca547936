// Synthetic traffic on any router family: Bernoulli packet or message injection with the classic
// destination patterns, the measurement of latency and throughput, and the traffic run.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "systemc/common/config.h"
#include "systemc/net/network.h"
#include "tb/out/recorders.h"

namespace wormcast {

/// Destination of a packet from `src` under a pattern (uniform and hotspot draw from rng; randperm
/// looks up `perm`, the run's fixed permutation of the nodes). A pattern may map a node to itself:
/// such a packet goes through its own router (0 hops).
int pattern_destination(const sw::Topology& t, const TrafficConfig& cfg, int src, std::mt19937_64& rng,
                        const std::vector<int>& perm = {});

/// One message of a traffic trace (traffic.trace).
struct TraceEntry {
  uint64_t cycle;
  int src, dst;
  uint32_t len;
};
/// Reads cycle,src,dst,len lines (a header line and blank lines are skipped), sorted by cycle
/// (stable); throws ConfigError naming the file, line and field.
std::vector<TraceEntry> read_traffic_trace(const std::string& path, int nodes);

/// Latency samples as an exact histogram (count per latency value): memory grows with the largest
/// latency, not with the number of samples; mean and percentiles are those of the sorted samples.
class LatencyHistogram {
 public:
  void add(uint64_t latency);
  /// count, mean, p50, p99, max ({"count": 0} when empty).
  nlohmann::json summary() const;
  /// The distribution in at most `max_bins` bins of equal width (a whole number of cycles):
  /// {"bin_width": w, "counts": [c0, c1, ...]} where c_i counts latencies in [i w, (i+1) w).
  nlohmann::json bins(size_t max_bins = 64) const;

 private:
  std::vector<uint64_t> m_count;  ///< [latency] samples
  uint64_t m_n = 0;
  uint64_t m_sum = 0;  ///< exact (a long double holds it exactly too, for the mean)
};

/// Latency and throughput over the measurement window.
class TrafficStats : public PacketListener {
 public:
  TrafficStats(uint64_t window_begin, uint64_t window_end, int nodes)
      : m_begin(window_begin), m_end(window_end), m_nodes(nodes) {}
  void on_packet(const PacketRecord& rec) override;
  void on_generated(uint64_t cycle, uint32_t flits);
  /// Hops of a packet's route (the network's, through its intermediate node under Valiant routing;
  /// -1: unknown), for latency by hop count.
  void set_hops(std::function<int(const PacketRecord&)> hops) { m_hops = std::move(hops); }
  /// Measured packets (created inside the window) not delivered yet.
  uint64_t measured_outstanding() const { return m_measured_created - m_measured_done; }
  /// Rates over `window` measured cycles: the ones actually run (a deadlock cuts the window short).
  nlohmann::json report(uint64_t window) const;
  /// Packets not generated because their source queue was full (traffic.source_queue).
  uint64_t dropped() const { return m_dropped; }
  /// Mean latency and count of the measured packets created in each quarter of the window.
  static constexpr int kQuarters = 4;
  double quarter_mean(int q) const { return m_qn[q] ? double(m_qsum[q]) / double(m_qn[q]) : 0.0; }
  uint64_t quarter_count(int q) const { return m_qn[q]; }

 private:
  uint64_t m_begin, m_end;
  uint64_t m_dropped = 0;
  int m_nodes;
  uint64_t m_measured_created = 0, m_measured_done = 0;
  uint64_t m_offered_flits = 0, m_accepted_flits = 0;
  uint64_t m_qsum[kQuarters] = {}, m_qn[kQuarters] = {};
  std::function<int(const PacketRecord&)> m_hops;
  std::vector<std::pair<uint64_t, uint64_t>> m_by_hops;  ///< [hops] (latency sum, packets)
  std::vector<uint64_t> m_node_accepted;                 ///< [node] flits accepted in the window
  LatencyHistogram m_latency, m_net_latency;
  LatencyHistogram m_message_latency;  ///< per packet, at its last addressed node
  friend class TrafficGen;
};

class TrafficGen : public sc_core::sc_module, private ClockRider {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  TrafficGen(sc_core::sc_module_name name, const Config& cfg, Network& net, TrafficStats& stats);
  /// Stop generating from this cycle on (the drain phase).
  void stop_at(uint64_t cycle) { m_stop = cycle; }

 private:
  void tick();
  /// Bound to a CycleClock: rides it (its one process, sensitive to the rising edge, does nothing
  /// that a call at the rising edge would not).
  void end_of_elaboration() override {
    if (CycleClock* cc = CycleClock::of(clk.get_interface())) cc->ride(this);
  }
  bool fusable() const override { return true; }
  int edge_requests() const override { return 1; }
  void rising(uint64_t) override { tick(); }
  uint64_t next_gap(std::mt19937_64& rng) const;
  /// Whether node s generates in cycle t (the injection process).
  bool generates(int s, uint64_t t);
  uint32_t draw_length(std::mt19937_64& rng) const;
  /// Node s generates a packet/message in cycle t.
  void create(int s, uint64_t t);
  void emit(int s, uint64_t t, const Destination& d, uint32_t len, bool tie);
  /// A region broadcast's destination from node s (never only s itself).
  Destination region(int s, std::mt19937_64& rng) const;
  /// The tie bit of node s's next unicast message (traffic.tie).
  bool next_tie(int s, std::mt19937_64& rng);

  Config m_cfg;
  Network& m_net;
  TrafficStats& m_stats;
  sw::Topology m_topo;
  uint64_t m_cycle = 0, m_stop = ~uint64_t(0);
  uint32_t m_len;
  double m_p;  ///< per-cycle probability of a new packet/message at a node (while on, for onoff)
  double m_log_q = 0;  ///< log1p(-m_p), the geometric gap's denominator
  std::vector<std::mt19937_64> m_rng;
  std::vector<uint64_t> m_next;
  /// Bernoulli process: (next arrival, node), earliest first and by node on equal cycles, so a
  /// cycle visits only the nodes that generate in it, in node order.
  std::priority_queue<std::pair<uint64_t, int>, std::vector<std::pair<uint64_t, int>>, std::greater<>> m_due;
  std::vector<uint8_t> m_on;            ///< onoff: node in its on state
  std::discrete_distribution<int> m_size;  ///< index into cfg.traffic.sizes
  std::vector<int> m_perm;              ///< randperm: destination of each node
  std::vector<TraceEntry> m_trace;
  size_t m_trace_next = 0;
  std::vector<uint8_t> m_tie_next;  ///< [node] tie bit of its next message under balanced
};

/// The stability verdict of a traffic run (docs/statistics.md): unstable when it did not drain,
/// a source queue overflowed, accepted < 0.95 offered (with at least 1000 measured packets and a
/// window of at least 10 mean network latencies), the
/// mean latency of the window's last quarter is above 1.5 times its first (with at least 50 packets
/// in each), or the mean latency is above sim.latency_threshold (when set).
struct Stability {
  bool stable = true;
  std::vector<std::string> reasons;
  nlohmann::json to_json() const;
};
Stability stability_verdict(const Config& cfg, const TrafficStats& stats, const nlohmann::json& report, bool drained);

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

/// Elaborates and simulates one traffic run (one per process: SystemC elaborates once).
RunOutcome run_traffic(const Config& cfg, const RunOptions& opt);

}  // namespace wormcast
