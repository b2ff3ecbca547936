// Printing and waveform tracing of flit and credit words.
#include "systemc/torus/flit.h"

namespace wormcast {

std::ostream& operator<<(std::ostream& os, const Flit& f) {
  if (!f.valid) return os << "-";
  return os << (f.head ? "H" : "") << (f.tail ? "T" : "") << (!f.head && !f.tail ? "B" : "")
            << " vc" << int(f.vc) << " dst" << f.dst << (f.tie ? " tie-" : "") << " pkt"
            << payload_packet(f.payload) << "." << payload_index(f.payload);
}

std::ostream& operator<<(std::ostream& os, const Credit& c) {
  if (!c.valid) return os << "-";
  return os << "cr vc" << int(c.vc);
}

void sc_trace(sc_core::sc_trace_file* tf, const Flit& f, const std::string& name) {
  sc_core::sc_trace(tf, f.valid, name + ".valid");
  sc_core::sc_trace(tf, f.head, name + ".head");
  sc_core::sc_trace(tf, f.tail, name + ".tail");
  sc_core::sc_trace(tf, f.tie, name + ".tie");
  sc_core::sc_trace(tf, f.vc, name + ".vc", 4);
  sc_core::sc_trace(tf, f.dst, name + ".dst", 16);
  sc_core::sc_trace(tf, f.payload, name + ".payload", 32);
}

void sc_trace(sc_core::sc_trace_file* tf, const Credit& c, const std::string& name) {
  sc_core::sc_trace(tf, c.valid, name + ".valid");
  sc_core::sc_trace(tf, c.vc, name + ".vc", 4);
}

}  // namespace wormcast
