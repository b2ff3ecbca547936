// The interface between the program and a Verilated model built on demand (tb/rtl/rtl_cache.h):
// the plugin's one exported symbol returns this table of factories. The plugin is compiled against
// the same headers as the program (their hash is part of the cache key), so C++ types cross it.
#pragma once

#include <cstdint>
#include <memory>

#include "sw/topology/mway.h"
#include "sw/topology/topology.h"
#include "systemc/torus/params.h"

namespace wormcast {

class RtlRouterBase;
class MwRtlUnits;
struct MwLayout;
struct MwNetlist;

/// Raised with every change of this table's layout: a plugin of another layout is rebuilt.
inline constexpr uint32_t kRtlPluginAbi = 1;

struct RtlPlugin {
  uint32_t abi = kRtlPluginAbi;
  /// Torus family: the Verilated wc_router_top behind RouterBase's ports (null for other families).
  std::unique_ptr<RtlRouterBase> (*make_router)(const char* name, const RouterParams& params,
                                                const sw::Topology& topo, int node, int reset_cycles) = nullptr;
  /// m-way family: the three Verilated units wired as wc_mw_fabric wires them.
  std::unique_ptr<MwRtlUnits> (*make_units)(const MwLayout& layout, const MwNetlist& netlist,
                                            const sw::MwayGeometry& geometry) = nullptr;
  /// Verilated::traceEverOn(true) of the plugin's runtime (models built afterwards can trace).
  void (*trace_ever_on)() = nullptr;
};

}  // namespace wormcast

/// The symbol a plugin exports: returns its table (static storage).
#define WC_RTL_PLUGIN_ENTRY wormcast_rtl_plugin_v1
#define WC_RTL_PLUGIN_NAME "wormcast_rtl_plugin_v1"
