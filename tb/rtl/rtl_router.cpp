// Word conversion and reset sequencing between Flit/Credit ports and the Verilated router.
#include "tb/rtl/rtl_router.h"

#include "tb/rtl/rtl_models.h"

#include "systemc/common/clock.h"
#include "systemc/kernel/cycle_clock.h"

namespace wormcast {

RtlRouterBase::RtlRouterBase(sc_core::sc_module_name name, const RouterParams& params,
                             const sw::Topology& topo, int node, int reset_cycles)
    : RouterBase(name, params, node, nullptr),
      m_np(params.num_ports()),
      m_reset_left(reset_cycles < 1 ? 1 : reset_cycles),
      m_settle(params.credit_delay + 3) {
  if (m_np > kRtlMaxPorts) SC_REPORT_FATAL("wormcast/rtl", "more ports than wc_router_top has");
  // Coordinate d in bits 8d+7:8d (wc_router my_coord_i).
  const sw::Coord c = topo.coord(node);
  for (int d = 0; d < topo.dims(); ++d) m_coord |= uint32_t(c[d] & 0xff) << (8 * d);

  SC_HAS_PROCESS(RtlRouterBase);
  SC_METHOD(on_edge);
  sensitive << clk.pos();
  dont_initialize();
}

// Every flit is a distinct value (its payload numbers packet and flit), so a valid flit on a wire
// is exactly one change of its word: counting changes to valid words counts flits. The model sees
// reset for the first m_reset_left edges.
//
// A router at rest is not evaluated: when it holds no flit (a flit in its buffers or its link
// pipeline counts as held until it leaves at an output port) and neither its inputs nor its outputs
// carried a flit or a credit for m_settle = Cd + 3 edges (a credit's return pipeline, the counter
// update and the release of an output VC that follows it, and a margin of one), its state is a
// fixed point of an edge with idle inputs: nothing in the RTL counts time (arbiter pointers move on
// grants, credit counters on credits). Skipping such edges changes no state and no output; the
// first edge with a flit or a credit at an input is evaluated as ever. The lockstep tests compare
// every output of every edge with this rule in force.
void RtlRouterBase::on_edge() {
  bool idle_in = true;
  for (int p = 0; p < m_np; ++p) {
    const Flit& f = flit_in[p].read();
    const Credit& c = credit_in[p].read();
    idle_in = idle_in && !f.valid && !c.valid;
    const uint64_t w = f.pack();
    if (f.valid && w != m_fi[size_t(p)]) {
      ++m_flits_in;
      if (m_observer) m_inside.emplace(inside_key(f), p);  // after the equal keys already inside
    }
    m_fi[size_t(p)] = w;
    m_ci[size_t(p)] = c.pack();
  }
  if (idle_in && m_quiet >= m_settle && m_flits_in == m_flits_out) return;
  m_rst_n = m_reset_left == 0;
  if (m_reset_left > 0) --m_reset_left;
  const std::array<uint64_t, kRtlMaxPorts> fo = m_fo;
  const std::array<uint32_t, kRtlMaxPorts> co = m_co;
  eval_edge();
  const uint64_t now = current_cycle();
  for (int p = 0; p < m_np; ++p) {
    if (m_fo[size_t(p)] != fo[size_t(p)]) {
      const Flit f = Flit::unpack(m_fo[size_t(p)]);
      if (f.valid) {
        ++m_flits_out;
        count_output(p, now);
        if (m_observer) observe(now, p, f);
      }
      flit_out[p].write(f);
    }
    if (m_co[size_t(p)] != co[size_t(p)]) credit_out[p].write(Credit::unpack(m_co[size_t(p)]));
  }
  bool idle_out = true;
  for (int p = 0; p < m_np; ++p) idle_out = idle_out && m_fo[size_t(p)] == 0 && m_co[size_t(p)] == 0;
  m_quiet = idle_in && idle_out && m_rst_n ? m_quiet + 1 : 0;
}

void RtlRouterBase::set_observer(HopObserver* obs) {
  if (!obs) m_inside.clear();
  m_observer = obs;
}

// The flit f left output port o at edge t: its hop, from the input port it entered by (-1: it
// entered before the observer was set). A flit leaves an output at the edge the SystemC router's
// traversal sends it (the lockstep tests compare every output word of every edge), so the record is
// the SystemC router's.
void RtlRouterBase::observe(uint64_t t, int o, const Flit& f) {
  int in_port = -1;
  const auto it = m_inside.lower_bound(inside_key(f));
  if (it != m_inside.end() && it->first == inside_key(f)) {
    in_port = it->second;
    m_inside.erase(it);
  }
  m_observer->on_hop(HopEvent{t, m_node, in_port, o, f.vc, payload_packet(f.payload), payload_index(f.payload), f.head, f.tail});
}

std::vector<RouterBase::Wait> RtlRouterBase::waiting() const {
  if (m_flits_in == m_flits_out) return {};
  return {Wait{-1, -1, -1, -1, -1, -1, Flit{}, int(m_flits_in - m_flits_out)}};
}

void RtlRouterBase::enable_internal_tracing() { enable_rtl_model_tracing(); }

uint64_t RtlRouterBase::clock_half_period() const {
  sc_core::sc_interface* itf = const_cast<sc_core::sc_in<bool>&>(clk).get_interface();
  if (const auto* c = dynamic_cast<const sc_core::sc_clock*>(itf)) return c->period().value() / 2;
  if (const CycleClock* c = CycleClock::of(itf)) return c->period().value() / 2;
  return 0;
}

void RtlRouterBase::trace_words(sc_core::sc_trace_file* tf, const std::string& prefix) const {
  sc_core::sc_trace(tf, m_rst_n, prefix + ".rst_n");
  for (int p = 0; p < m_np; ++p) {
    const std::string s = std::to_string(p);
    sc_core::sc_trace(tf, m_fi[size_t(p)], prefix + ".flit_i_" + s, 64);
    sc_core::sc_trace(tf, m_fo[size_t(p)], prefix + ".flit_o_" + s, 64);
    sc_core::sc_trace(tf, m_ci[size_t(p)], prefix + ".credit_i_" + s, 5);
    sc_core::sc_trace(tf, m_co[size_t(p)], prefix + ".credit_o_" + s, 5);
  }
}

}  // namespace wormcast
