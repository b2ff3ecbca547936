// The per-packet record as CSV, one line per packet copy delivered whole (a multi-destination
// packet: one per node that received it), written atomically at the end:
//   packet,src,dst,via,flits,created,injected,arrived,hops,latency,network_latency
// latency = arrived - created and network_latency = arrived - injected, the samples of the JSON
// result's `latency` and `network_latency` (docs/statistics.md) for the packets created in the
// measured window. Within a cycle the lines are sorted (arrived, dst, packet), so the file does not
// depend on the order in which the kernel ran the NICs; one cycle is buffered at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "systemc/nic/scoreboard.h"
#include "tb/out/csv_file.h"

namespace wormcast {

class PacketCsv : public PacketObserver {
 public:
  /// hops: the network hops of a unicast's route (-1: the family does not say). Empty in the file
  /// then, and for a copy of a multi-destination packet.
  PacketCsv(const std::string& path, std::function<int(const PacketRecord&)> hops)
      : m_file(path, "packet,src,dst,via,flits,created,injected,arrived,hops,latency,network_latency"),
        m_hops(std::move(hops)) {}
  void on_packet_done(const PacketRecord& r) override {
    if (!m_cycle.empty() && m_cycle.front().arrived != r.arrived) flush();
    m_cycle.push_back(
        Line{r.id, r.src, r.dst, r.via, r.length, r.created, r.injected, r.arrived, r.group ? -1 : m_hops(r)});
  }
  /// Completes the file; false when it could not be written.
  bool finish() {
    flush();
    return m_file.commit();
  }

 private:
  struct Line {
    uint64_t id;
    int src, dst, via;
    uint32_t flits;
    uint64_t created, injected, arrived;
    int hops;
  };
  void flush() {
    std::sort(m_cycle.begin(), m_cycle.end(),
              [](const Line& a, const Line& b) { return std::tie(a.dst, a.id) < std::tie(b.dst, b.id); });
    for (const Line& l : m_cycle) {
      std::ostream& o = m_file.out();
      o << l.id << ',' << l.src << ',' << l.dst << ',';
      if (l.via >= 0) o << l.via;
      o << ',' << l.flits << ',' << l.created << ',' << l.injected << ',' << l.arrived << ',';
      if (l.hops >= 0) o << l.hops;
      o << ',' << l.arrived - l.created << ',' << l.arrived - l.injected << '\n';
    }
    m_cycle.clear();
  }

  CsvFile m_file;
  std::function<int(const PacketRecord&)> m_hops;
  std::vector<Line> m_cycle;  ///< the current cycle's packets
};

}  // namespace wormcast
