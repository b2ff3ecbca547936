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

template <class V>
bool RtlRouter<V>::trace_internals(const std::string& vcd_path) {
  m_vcd = std::make_unique<VerilatedVcdSc>();
  m_model.trace(m_vcd.get(), 99);
  m_vcd->open(vcd_path.c_str());
  return true;
}

}  // namespace wormcast
