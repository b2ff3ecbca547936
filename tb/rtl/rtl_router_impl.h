// Members of RtlRouter<V> that need the Verilated model and Verilator's tracing classes;
// included only by the plugin that instantiates the model (tb/rtl/plugin_torus.h).
#pragma once

#include <verilated.h>
#include <verilated_vcd_c.h>

#include "tb/rtl/rtl_router.h"

namespace wormcast {

template <class V>
RtlRouter<V>::~RtlRouter() {
  close_internals();
}

template <class V>
void RtlRouter<V>::close_internals() {
#if VM_TRACE
  if (m_vcd) m_vcd->close();
#endif
  m_vcd.reset();
}

// Edge k of the model is evaluated at the kernel's rising edge k: the inputs are the words the
// neighbours wrote in the cycle before (the current values of the input signals), the outputs
// those of the new state; the falling edge follows at once (it changes nothing: the model has no
// negative-edge logic, but Verilator sees a rising edge only after a low clock).
template <class V>
void RtlRouter<V>::eval_edge() {
  V& m = m_model;
  m.rst_ni = m_rst_n;
  m.my_coord_i = m_coord;
#define WC_RTL_IN(n)  \
  m.flit_i_##n = m_fi[n]; \
  m.credit_i_##n = m_ci[n];
  WC_RTL_IN(0) WC_RTL_IN(1) WC_RTL_IN(2) WC_RTL_IN(3) WC_RTL_IN(4) WC_RTL_IN(5) WC_RTL_IN(6) WC_RTL_IN(7)
  WC_RTL_IN(8) WC_RTL_IN(9) WC_RTL_IN(10) WC_RTL_IN(11) WC_RTL_IN(12) WC_RTL_IN(13) WC_RTL_IN(14) WC_RTL_IN(15)
#undef WC_RTL_IN
  if (!m_vcd) {
    // One evaluation per edge: the model's record of the clock's last value is set low, so the
    // high clock is a rising edge again (Verilator 5's trigger state, __Vtrigrprev). With a
    // waveform, the falling edge is evaluated and drawn instead.
    m.rootp->__Vtrigrprev__TOP__clk_i = 0;
    m.clk_i = 1;
    m.eval();
  } else {
    m.clk_i = 1;
    m.eval();
    dump(0);
  }
#define WC_RTL_OUT(n) \
  m_fo[n] = m.flit_o_##n; \
  m_co[n] = m.credit_o_##n;
  WC_RTL_OUT(0) WC_RTL_OUT(1) WC_RTL_OUT(2) WC_RTL_OUT(3) WC_RTL_OUT(4) WC_RTL_OUT(5) WC_RTL_OUT(6) WC_RTL_OUT(7)
  WC_RTL_OUT(8) WC_RTL_OUT(9) WC_RTL_OUT(10) WC_RTL_OUT(11) WC_RTL_OUT(12) WC_RTL_OUT(13) WC_RTL_OUT(14)
  WC_RTL_OUT(15)
#undef WC_RTL_OUT
  if (m_vcd) {
    m.clk_i = 0;
    m.eval();
    dump(m_half_period);
  }
}

template <class V>
void RtlRouter<V>::dump(uint64_t offset) {
#if VM_TRACE
  m_vcd->dump(static_cast<uint64_t>(sc_core::sc_time_stamp().value() + offset));
#else
  (void)offset;
#endif
}

// A model built without --trace (VM_TRACE 0, the default for speed) cannot dump its signals: the
// program asks for a traced build when a run wants them (enable_rtl_internal_tracing).
template <class V>
bool RtlRouter<V>::trace_internals(const std::string& vcd_path) {
#if VM_TRACE
  // The falling edge is drawn half a period after the rising one (the clock of the port `clk`).
  m_half_period = clock_half_period();
  m_vcd = std::make_unique<VerilatedVcdC>();
  m_model.trace(m_vcd.get(), 99);
  m_vcd->set_time_unit("1ps");
  m_vcd->set_time_resolution("1ps");
  m_vcd->open(vcd_path.c_str());
  return true;
#else
  (void)vcd_path;
  return false;
#endif
}

}  // namespace wormcast
