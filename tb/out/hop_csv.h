// The canonical per-hop record as CSV (one record format for every router model), written atomically at the end.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "systemc/net/activity.h"
#include "tb/out/csv_file.h"

namespace wormcast {

/// The rows of one cycle are written sorted by router and input port (the rows of one router and
/// input port, an m-way crossing's receivers, in the order they were reported), so that the file
/// does not depend on the order in which the routers of a cycle ran or a router reported its
/// grants: SystemC and RTL routers write the same file.
class HopCsv : public HopObserver {
 public:
  explicit HopCsv(const std::string& path) : m_file(path, "cycle,router,in_port,out_port,vc,packet,flit,head,tail") {}
  void on_hop(const HopEvent& e) override {
    if (!m_cycle.empty() && e.cycle > m_cycle.back().cycle) flush();
    m_cycle.push_back(e);
  }
  /// Completes the file; false when it could not be written.
  bool finish() {
    flush();
    return m_file.commit();
  }

 private:
  void flush() {
    std::stable_sort(m_cycle.begin(), m_cycle.end(), [](const HopEvent& a, const HopEvent& b) {
      return std::tie(a.cycle, a.router, a.in_port) < std::tie(b.cycle, b.router, b.in_port);
    });
    for (const HopEvent& e : m_cycle)
      m_file.out() << e.cycle << ',' << e.router << ',' << e.in_port << ',' << e.out_port << ',' << e.vc << ','
                   << e.packet << ',' << e.flit << ',' << int(e.head) << ',' << int(e.tail) << '\n';
    m_cycle.clear();
  }

  CsvFile m_file;
  std::vector<HopEvent> m_cycle;  ///< the rows of the latest cycle reported, not yet written
};

}  // namespace wormcast
