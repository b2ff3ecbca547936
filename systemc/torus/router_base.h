// What the network builder needs of a router, whichever model implements it: the port shape of
// docs/router.md (flit and credit wires per port), activity counters and the deadlock report.
// TorusRouter (SystemC) and RtlRouter (the Verilated Verilog twin) both derive from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/common/port_array.h"
#include "systemc/net/activity.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/params.h"

namespace wormcast {

class RouterBase : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  PortArray<sc_core::sc_in<Flit>> flit_in;
  PortArray<sc_core::sc_out<Flit>> flit_out;
  PortArray<sc_core::sc_in<Credit>> credit_in;
  PortArray<sc_core::sc_out<Credit>> credit_out;

  /// ports false: a router of a network built with plain links (docs/kernel.md), which
  /// wires its boxes directly and has no port objects (the arrays are empty).
  RouterBase(sc_core::sc_module_name name, const RouterParams& params, int node, NetActivity* activity,
             bool ports = true)
      : sc_module(name),
        flit_in("in", ports ? params.num_ports() : 0),
        flit_out("out", ports ? params.num_ports() : 0),
        credit_in("credit_in", ports ? params.num_ports() : 0),
        credit_out("credit_out", ports ? params.num_ports() : 0),
        m_p(params),
        m_node(node),
        m_activity(activity),
        m_out_count(size_t(params.num_ports()), 0) {}

  int node() const { return m_node; }
  const RouterParams& params() const { return m_p; }
  /// Counters to update for every flit that leaves (nullptr: none).
  void set_activity(NetActivity* activity) { m_activity = activity; }
  /// Flits sent out of each output port since start (link utilization).
  /// Flits sent per output port so far.
  virtual std::vector<uint64_t> output_flits() const { return m_out_count; }
  /// "sc" or "rtl".
  virtual const char* model() const = 0;
  /// Every hop from now on (nullptr: stop). Both models report every flit that leaves an output
  /// port, at the edge it leaves, with the input port it entered by.
  virtual void set_observer(HopObserver* obs) = 0;

  /// One waiting input VC, for the deadlock report. in_port -1: the router can only say how many
  /// flits it holds (occupancy), not where (an RTL router seen from its ports).
  struct Wait {
    int in_port, in_vc;
    int out_port, out_vc;  ///< out_vc -1: still waiting for a VC of vc_lo..vc_hi
    int vc_lo, vc_hi;
    Flit front;
    int occupancy;
  };
  virtual std::vector<Wait> waiting() const = 0;
  /// Dump every signal inside the router to a VCD from now on; false when the model has no
  /// internals to show (the SystemC router: its state is in the port waveform and --trace).
  virtual bool trace_internals(const std::string& /*vcd_path*/) { return false; }
  /// Closes the waveform of trace_internals (flushed, complete); no-op when none is open.
  virtual void close_internals() {}
  /// The router's event counts at cycle `now` (false: the model counts only what its ports show,
  /// an RTL router; then link and ejected flits are filled from the ports and the rest is zero).
  virtual bool activity(uint64_t /*now*/, RouterActivity& a) const {
    a = RouterActivity{};
    const std::vector<uint64_t> out = output_flits();
    for (int o = 0; o < m_p.num_ports(); ++o) (o < m_p.net_ports() ? a.link_flits : a.ejected_flits) += out[size_t(o)];
    return false;
  }

 protected:
  /// A flit left output port o in cycle t.
  void count_output(int o, uint64_t t) {
    ++m_out_count[size_t(o)];
    if (m_activity) m_activity->moved(t);
  }
  /// n > 0 flits left in cycle t (for a model that keeps its output counts itself and overrides
  /// output_flits).
  void count_moves(uint64_t t, uint64_t n) {
    if (m_activity) m_activity->moved(t, n);
  }

  RouterParams m_p;
  int m_node;
  NetActivity* m_activity;

 private:
  std::vector<uint64_t> m_out_count;
};

}  // namespace wormcast
