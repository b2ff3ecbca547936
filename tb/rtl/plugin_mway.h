// The plugin of the Verilated m-way units, built on demand (tb/rtl/rtl_cache.h): the generated
// plugin source includes the headers of Vwc_mw_router, Vwc_mw_node and Vwc_mw_channel (Verilator
// --cc) and then this file.
#pragma once

#include "tb/rtl/mway/mw_rtl_units.h"
#include "tb/rtl/rtl_plugin.h"

namespace {
std::unique_ptr<wormcast::MwRtlUnits> wc_make_units(const wormcast::MwLayout& layout,
                                                    const wormcast::MwNetlist& netlist,
                                                    const wormcast::sw::MwayGeometry& geometry) {
  return std::make_unique<wormcast::MwRtlUnitsImpl<Vwc_mw_router, Vwc_mw_node, Vwc_mw_channel>>(layout, netlist,
                                                                                               geometry);
}
void wc_trace_ever_on() { Verilated::traceEverOn(true); }
}  // namespace

extern "C" __attribute__((visibility("default"))) const wormcast::RtlPlugin* WC_RTL_PLUGIN_ENTRY() {
  static const wormcast::RtlPlugin plugin{wormcast::kRtlPluginAbi, nullptr, &wc_make_units, &wc_trace_ever_on};
  return &plugin;
}
