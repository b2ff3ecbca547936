// The Verilated router (rtl/wc_router_top.sv) behind the port shape of RouterBase: Flit and
// Credit sc_vector ports, converted to and from the model's 64-bit flit and 5-bit credit words.
#pragma once

#include <cstdint>

#include <memory>
#include <string>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/router_base.h"

class VerilatedVcdSc;  // verilated_vcd_sc.h pulls in systemc.h (global using-directives)

namespace wormcast {

/// Ports of the Verilated top (wc_pkg::MaxPorts): ports num_ports()..15 are tied off.
inline constexpr int kRtlMaxPorts = 16;

/// Everything that does not depend on the Verilated class: ports, word conversion, reset.
class RtlRouterBase : public RouterBase {
 public:
  /// The model is held in reset for the first reset_cycles rising edges (at least 1: Verilator
  /// starts with all state zero, not in the reset state); inputs must stay invalid until then.
  RtlRouterBase(sc_core::sc_module_name name, const RouterParams& params,
                const sw::Topology& topo, int node, int reset_cycles = 1);

  const char* model() const override { return "rtl"; }
  /// The flits the router holds (in minus out, counted at its ports), as one entry.
  std::vector<Wait> waiting() const override;

  /// The model-side words, for waveforms.
  void trace_words(sc_core::sc_trace_file* tf, const std::string& prefix) const;
  /// VCD of every signal inside the Verilated model, from now on. Call after elaboration
  /// (sc_start(SC_ZERO_TIME)), with Verilated::traceEverOn(true) before the model was built.
  bool trace_internals(const std::string& vcd_path) override = 0;
  /// Verilated::traceEverOn(true): needed before a model is built for trace_internals.
  static void enable_internal_tracing();

 protected:
  sc_core::sc_signal<bool> m_rst_n{"rst_n", false};
  sc_core::sc_signal<uint32_t> m_coord{"coord"};
  sc_core::sc_vector<sc_core::sc_signal<uint64_t>> m_fi, m_fo;
  sc_core::sc_vector<sc_core::sc_signal<uint32_t>> m_ci, m_co;

 private:
  void drive_inputs();
  void drive_outputs();
  void count_reset();

  int m_np;
  uint64_t m_flits_in = 0, m_flits_out = 0;
  int m_reset_left;
  sc_core::sc_event m_never;
};

/// V is a Verilated wc_router_top (e.g. Vwc_torus8x8_v1b4) built with the same parameters as
/// `params` (rtl/configs.txt is the single source of both).
template <class V>
class RtlRouter : public RtlRouterBase {
 public:
  RtlRouter(sc_core::sc_module_name name, const RouterParams& params, const sw::Topology& topo,
            int node, int reset_cycles = 1)
      : RtlRouterBase(name, params, topo, node, reset_cycles), m_model("rtl") {
    m_model.clk_i(clk);
    m_model.rst_ni(m_rst_n);
    m_model.my_coord_i(m_coord);
#define WC_RTL_BIND(n)                 \
    m_model.flit_i_##n(m_fi[n]);       \
    m_model.flit_o_##n(m_fo[n]);       \
    m_model.credit_i_##n(m_ci[n]);     \
    m_model.credit_o_##n(m_co[n]);
    WC_RTL_BIND(0) WC_RTL_BIND(1) WC_RTL_BIND(2) WC_RTL_BIND(3)
    WC_RTL_BIND(4) WC_RTL_BIND(5) WC_RTL_BIND(6) WC_RTL_BIND(7)
    WC_RTL_BIND(8) WC_RTL_BIND(9) WC_RTL_BIND(10) WC_RTL_BIND(11)
    WC_RTL_BIND(12) WC_RTL_BIND(13) WC_RTL_BIND(14) WC_RTL_BIND(15)
#undef WC_RTL_BIND
  }

  ~RtlRouter() override;  // rtl_router_impl.h, with trace_internals

  V& model() { return m_model; }

  bool trace_internals(const std::string& vcd_path) override;
  void close_internals() override;

 private:
  V m_model;
  std::unique_ptr<VerilatedVcdSc> m_vcd;
};

}  // namespace wormcast
