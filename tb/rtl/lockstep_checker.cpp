// Lockstep checker: compares the SystemC and the Verilated router's outputs wire by wire.
#include "tb/rtl/lockstep_checker.h"

#include <sstream>

namespace wormcast {

bool LockstepChecker::step(uint64_t c, const std::vector<Flit>& systemc_flit,
                           const std::vector<Flit>& rtl_flit,
                           const std::vector<Credit>& systemc_credit,
                           const std::vector<Credit>& rtl_credit) {
  bool pass = true;
  for (size_t p = 0; p < systemc_flit.size(); ++p) {
    if (systemc_flit[p] != rtl_flit[p]) {
      pass = false;
      record(c, "flit_out", int(p), systemc_flit[p], rtl_flit[p]);
    }
    if (!(systemc_credit[p] == rtl_credit[p])) {
      pass = false;
      record(c, "credit_out", int(p), systemc_credit[p], rtl_credit[p]);
    }
  }
  return pass;
}

template <class T>
void LockstepChecker::record(uint64_t c, const char* wire, int port, const T& systemc,
                             const T& rtl) {
  // The packed word next to the fields: it is what a waveform viewer shows.
  std::ostringstream sa, sb;
  sa << systemc << " (0x" << std::hex << systemc.pack() << ")";
  sb << rtl << " (0x" << std::hex << rtl.pack() << ")";
  LockstepMismatch m{c, wire, port, systemc.valid ? systemc.vc : rtl.vc, sa.str(), sb.str()};
  if (m_count++ == 0) m_first = m;
  if (m_errors.size() < m_max_errors) {
    m_errors.push_back("cycle " + std::to_string(m.cycle) + ": " + m.wire + "[" +
                       std::to_string(m.port) + "] vc " + std::to_string(m.vc) + ": systemc " +
                       m.systemc_value + ", rtl " + m.rtl_value);
  }
}

void LockstepChecker::report(std::ostream& os, size_t shown) const {
  for (size_t i = 0; i < m_errors.size() && i < shown; ++i) os << m_errors[i] << "\n";
  if (ok())
    os << "lockstep checker: no mismatch\n";
  else
    os << "lockstep checker: " << m_count << " mismatching wire-cycles, first at cycle "
       << m_first.cycle << "\n";
}

}  // namespace wormcast
