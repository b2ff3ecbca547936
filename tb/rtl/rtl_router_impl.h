// Members of RtlRouter<V> that need the Verilator tracing classes; included only where the
// Verilated models are instantiated (their headers pull in systemc.h anyway).
#pragma once

#include <verilated.h>
#include <verilated_vcd_sc.h>

#include "tb/rtl/rtl_router.h"

namespace wormcast {

template <class V>
RtlRouter<V>::~RtlRouter() {
  if (m_vcd) m_vcd->close();
}

template <class V>
void RtlRouter<V>::close_internals() {
  if (m_vcd) m_vcd->close();
  m_vcd.reset();
}

// A model built without --trace (VM_TRACE 0, the default for speed) cannot dump its signals: the
// program asks for a traced build when a run wants them (enable_rtl_internal_tracing).
template <class V>
bool RtlRouter<V>::trace_internals(const std::string& vcd_path) {
#if VM_TRACE
  m_vcd = std::make_unique<VerilatedVcdSc>();
  m_model.trace(m_vcd.get(), 99);
  m_vcd->open(vcd_path.c_str());
  return true;
#else
  (void)vcd_path;
  return false;
#endif
}

}  // namespace wormcast
