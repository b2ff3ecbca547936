// The canonical per-hop record as CSV (conventions rule 12), written atomically at the end.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

#include "systemc/torus/router.h"

namespace wormcast {

class HopCsv : public HopObserver {
 public:
  explicit HopCsv(const std::string& path) : m_out(path + ".tmp"), m_path(path) {
    m_out << "cycle,router,in_port,out_port,vc,packet,flit,head,tail\n";
  }
  void on_hop(const HopEvent& e) override {
    m_out << e.cycle << ',' << e.router << ',' << e.in_port << ',' << e.out_port << ',' << e.vc << ','
          << payload_packet(e.flit.payload) << ',' << payload_index(e.flit.payload) << ','
          << int(e.flit.head) << ',' << int(e.flit.tail) << '\n';
  }
  void finish() {
    m_out.close();
    std::rename((m_path + ".tmp").c_str(), m_path.c_str());
  }

 private:
  std::ofstream m_out;
  std::string m_path;
};

}  // namespace wormcast
