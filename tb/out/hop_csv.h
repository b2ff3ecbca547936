// The canonical per-hop record as CSV (one record format for every router model), written atomically at the end.
#pragma once

#include <string>

#include "systemc/net/activity.h"
#include "tb/out/csv_file.h"

namespace wormcast {

class HopCsv : public HopObserver {
 public:
  explicit HopCsv(const std::string& path) : m_file(path, "cycle,router,in_port,out_port,vc,packet,flit,head,tail") {}
  void on_hop(const HopEvent& e) override {
    m_file.out() << e.cycle << ',' << e.router << ',' << e.in_port << ',' << e.out_port << ',' << e.vc << ','
                 << e.packet << ',' << e.flit << ',' << int(e.head) << ',' << int(e.tail) << '\n';
  }
  /// Completes the file; false when it could not be written.
  bool finish() { return m_file.commit(); }

 private:
  CsvFile m_file;
};

}  // namespace wormcast
