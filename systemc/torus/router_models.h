// Which router model builds each node of a network (router.model): the SystemC router, or a
// Verilated Verilog router from the library of RTL builds a program links in (tb/rtl).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/torus/config.h"
#include "systemc/torus/router_base.h"

namespace wormcast {

/// Builds the router of one node.
using RouterMaker = std::function<std::unique_ptr<RouterBase>(
    const char* name, const RouterParams& params, const sw::Topology& topo, int node, NetActivity* activity)>;

/// The Verilated routers a program was linked with. Each build has fixed parameters (Verilog
/// parameters are elaboration-time), so a network can use RTL routers only when one build matches
/// its network and router configuration exactly.
/// One Verilated build: its rtl/configs.txt name and the network and router it implements.
struct RtlBuild {
  std::string name;
  NetConfig net;
  RouterConfig router;
};

struct RtlRouterLibrary {
  /// The maker for cfg's network and router parameters; empty when no build matches.
  std::function<RouterMaker(const Config& cfg)> find;
  /// The builds, for the error that names the nearest one (rtl_mismatch).
  std::function<std::vector<RtlBuild>()> builds;
  /// Lets routers built from now on dump their internals (RouterBase::trace_internals).
  std::function<void()> enable_internal_tracing;
};

/// Makes RTL routers available to router.model = rtl / mixed (called once, before any network).
void install_rtl_library(RtlRouterLibrary lib);

/// Why no build serves cfg, as one short line: the key in which the nearest build differs with
/// the values the builds allow for it (or the nearest build's differing keys), and router.model = sc.
std::string rtl_mismatch(const Config& cfg, const std::vector<RtlBuild>& builds);

/// The RTL maker for cfg; throws ConfigError naming router.model when there is none.
RouterMaker rtl_router_maker(const Config& cfg);

/// Lets RTL routers built from now on dump their internal signals (a no-op without RTL).
void enable_rtl_internal_tracing();

/// Whether node `node` gets an RTL router under cfg.part<RouterConfig>().model.
bool node_is_rtl(const Config& cfg, const sw::Topology& topo, int node);

}  // namespace wormcast
