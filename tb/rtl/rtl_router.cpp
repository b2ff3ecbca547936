// Word conversion and reset sequencing between Flit/Credit ports and the Verilated router.
#include "tb/rtl/rtl_router.h"

#include "tb/rtl/rtl_models.h"

#include "systemc/common/clock.h"

namespace wormcast {

RtlRouterBase::RtlRouterBase(sc_core::sc_module_name name, const RouterParams& params,
                             const sw::Topology& topo, int node, int reset_cycles)
    : RouterBase(name, params, node, nullptr),
      m_fi("flit_i", kRtlMaxPorts),
      m_fo("flit_o", kRtlMaxPorts),
      m_ci("credit_i", kRtlMaxPorts),
      m_co("credit_o", kRtlMaxPorts),
      m_np(params.num_ports()),
      m_reset_left(reset_cycles < 1 ? 1 : reset_cycles) {
  if (m_np > kRtlMaxPorts) SC_REPORT_FATAL("wormcast/rtl", "more ports than wc_router_top has");
  // Coordinate d in bits 8d+7:8d (wc_router my_coord_i).
  const sw::Coord c = topo.coord(node);
  uint32_t coord = 0;
  for (int d = 0; d < topo.dims(); ++d) coord |= uint32_t(c[d] & 0xff) << (8 * d);
  m_coord.write(coord);

  SC_HAS_PROCESS(RtlRouterBase);
  SC_METHOD(drive_inputs);
  for (int p = 0; p < m_np; ++p) sensitive << flit_in[p] << credit_in[p];
  dont_initialize();
  SC_METHOD(drive_outputs);
  for (int p = 0; p < m_np; ++p) sensitive << m_fo[p] << m_co[p];
  dont_initialize();
  // Reset is released at a falling edge, away from the rising edge the model samples it at.
  SC_METHOD(count_reset);
  sensitive << clk.neg();
  dont_initialize();
}

// Every flit is a distinct value (its payload numbers packet and flit), so a valid flit on a wire
// is exactly one value change: counting changes to valid values counts flits.
void RtlRouterBase::drive_inputs() {
  for (int p = 0; p < m_np; ++p) {
    const Flit& f = flit_in[p].read();
    if (flit_in[p].event() && f.valid) ++m_flits_in;
    m_fi[p].write(f.pack());
    m_ci[p].write(credit_in[p].read().pack());
  }
}

void RtlRouterBase::drive_outputs() {
  for (int p = 0; p < m_np; ++p) {
    if (m_fo[p].event()) {
      const Flit f = Flit::unpack(m_fo[p].read());
      if (f.valid) {
        ++m_flits_out;
        count_output(p, current_cycle());
      }
      flit_out[p].write(f);
    }
    credit_out[p].write(Credit::unpack(m_co[p].read()));
  }
}

std::vector<RouterBase::Wait> RtlRouterBase::waiting() const {
  if (m_flits_in == m_flits_out) return {};
  return {Wait{-1, -1, -1, -1, -1, -1, Flit{}, int(m_flits_in - m_flits_out)}};
}

void RtlRouterBase::count_reset() {
  if (--m_reset_left == 0) {
    m_rst_n.write(true);
    next_trigger(m_never);  // done: this method never runs again
  }
}

void RtlRouterBase::enable_internal_tracing() { enable_rtl_model_tracing(); }

void RtlRouterBase::trace_words(sc_core::sc_trace_file* tf, const std::string& prefix) const {
  sc_core::sc_trace(tf, m_rst_n, prefix + ".rst_n");
  for (int p = 0; p < m_np; ++p) {
    const std::string s = std::to_string(p);
    sc_core::sc_trace(tf, m_fi[p], prefix + ".flit_i_" + s);
    sc_core::sc_trace(tf, m_fo[p], prefix + ".flit_o_" + s);
    sc_core::sc_trace(tf, m_ci[p], prefix + ".credit_i_" + s);
    sc_core::sc_trace(tf, m_co[p], prefix + ".credit_o_" + s);
  }
}

}  // namespace wormcast
