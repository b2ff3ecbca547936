// The per-flit delivery trace as CSV: cycle,node,src,packet,flit,vc, one line per flit leaving the
// network, written atomically at the end. Within a cycle the lines are sorted (cycle, node,
// packet, flit), so the file does not depend on the order in which the kernel ran the NICs; one
// cycle is buffered at a time.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "systemc/nic/scoreboard.h"
#include "tb/out/csv_file.h"

namespace wormcast {

class DeliveryCsv : public DeliveryObserver {
 public:
  explicit DeliveryCsv(const std::string& path) : m_file(path, "cycle,node,src,packet,flit,vc") {}
  void on_delivery(const FlitDelivery& d) override {
    if (!m_cycle.empty() && m_cycle.front().cycle != d.cycle) flush();
    m_cycle.push_back(d);
  }
  /// Completes the file; false when it could not be written.
  bool finish() {
    flush();
    return m_file.commit();
  }

 private:
  void flush() {
    std::sort(m_cycle.begin(), m_cycle.end(), [](const FlitDelivery& a, const FlitDelivery& b) {
      return std::tie(a.node, a.packet, a.flit) < std::tie(b.node, b.packet, b.flit);
    });
    for (const auto& e : m_cycle)
      m_file.out() << e.cycle << ',' << e.node << ',' << e.src << ',' << e.packet << ',' << e.flit << ',' << int(e.vc) << '\n';
    m_cycle.clear();
  }

  CsvFile m_file;
  std::vector<FlitDelivery> m_cycle;  ///< the current cycle's deliveries
};

}  // namespace wormcast
