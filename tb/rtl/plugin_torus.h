// The plugin of a Verilated torus router, built on demand (tb/rtl/rtl_cache.h): the generated
// plugin source includes the model's header (class Vwc_torus, Verilator --cc) and then this file.
#pragma once

#include "Vwc_torus___024root.h"  // the model's state, for its clock trigger (rtl_router_impl.h)
#include "tb/rtl/rtl_plugin.h"
#include "tb/rtl/rtl_router_impl.h"

namespace {
std::unique_ptr<wormcast::RtlRouterBase> wc_make_router(const char* name, const wormcast::RouterParams& params,
                                                        const wormcast::sw::Topology& topo, int node,
                                                        int reset_cycles) {
  return std::make_unique<wormcast::RtlRouter<Vwc_torus>>(name, params, topo, node, reset_cycles);
}
void wc_trace_ever_on() { Verilated::traceEverOn(true); }
}  // namespace

extern "C" __attribute__((visibility("default"))) const wormcast::RtlPlugin* WC_RTL_PLUGIN_ENTRY() {
  static const wormcast::RtlPlugin plugin{wormcast::kRtlPluginAbi, &wc_make_router, nullptr, &wc_trace_ever_on};
  return &plugin;
}
