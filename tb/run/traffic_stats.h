// Latency and throughput of the packets a traffic run delivers, over its measurement window.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/nic/nic.h"
#include "tb/run/latency_histogram.h"
#include "tb/run/steady_state.h"

namespace wormcast {

/// Latency and throughput over the measurement window.
class TrafficStats : public PacketListener {
 public:
  TrafficStats(uint64_t window_begin, uint64_t window_end, int nodes)
      : m_begin(window_begin), m_end(window_end), m_nodes(nodes) {
    m_series.init(window_end);
  }
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
  /// A message of `flits` flits in `packets` packets to `targets` nodes was submitted in `cycle`:
  /// it owes flits x targets flit-copies and `packets` completed packets.
  void on_submitted(uint64_t cycle, uint32_t flits, size_t targets, uint32_t packets);
  /// Samples what is owed at the start of `cycle` (every cycle of [0, window end), in order).
  void sample(uint64_t cycle);
  /// The per-period series of the steady-state verdict.
  const SteadySeries& series() const { return m_series; }
  /// Bands (systemc/kernel/cycle_clock.h): the cycles [c0, c1) run node by node, so what is owed
  /// changes out of cycle order; the changes are kept per cycle and band_end samples each cycle
  /// of [c0, c1) in order, as the cycles would have.
  void band_begin(uint64_t c0, uint64_t c1);
  void band_end(uint64_t c0, uint64_t c1);
  /// Cycle by cycle again after bands: the changes count at once.
  void band_leave() { m_banded = false; }

 private:
  uint64_t m_begin, m_end;
  uint64_t m_dropped = 0;
  int m_nodes;
  uint64_t m_measured_created = 0, m_measured_done = 0;
  uint64_t m_offered_flits = 0, m_accepted_flits = 0;
  /// Flits submitted in the window and the flit-copies they owe (flits x destinations).
  uint64_t m_submitted_flits = 0, m_submitted_copies = 0;
  std::function<int(const PacketRecord&)> m_hops;
  std::vector<std::pair<uint64_t, uint64_t>> m_by_hops;  ///< [hops] (latency sum, packets)
  std::vector<uint64_t> m_node_accepted;                 ///< [node] flits accepted in the window
  LatencyHistogram m_latency, m_net_latency;
  /// Per measured message, at its last packet's last addressed node (a unicast packet, a region
  /// broadcast's last copy, a message of several packets its last packet).
  LatencyHistogram m_message_latency;
  /// Messages of several packets: the packets complete so far, until the last.
  std::unordered_map<uint64_t, uint32_t> m_message_done;
  SteadySeries m_series;
  uint64_t m_owed_copies = 0, m_owed_packets = 0;  ///< now
  double m_period_copies = 0, m_period_packets = 0;  ///< sums over the current period's cycles
  /// Bands: per cycle of the band from m_band_c0, the copies and packets submitted and delivered.
  bool m_banded = false;
  uint64_t m_band_c0 = 0;
  struct Owed {
    uint64_t copies_in = 0, packets_in = 0, copies_out = 0, packets_out = 0;
  };
  std::vector<Owed> m_band;
  friend class TrafficGen;
};

}  // namespace wormcast
