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
/// One Verilated build: its rtl/configs.txt name and a configuration of the network and router it
/// implements (the keys of rtl_build_keys() are the build's; the others are defaults).
struct RtlBuild {
  std::string name;
  Config config;
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

/// The keys a build fixes: the family, the network shape, the router keys of its Verilog
/// parameters and the family's own keys that shape its router (ibt.bypass, ibt.routing).
const std::vector<std::string>& rtl_build_keys();
/// The keys of rtl_build_keys() in which a build's configuration differs from cfg (none: the build
/// serves cfg).
std::vector<std::string> rtl_build_diff(const Config& build, const Config& cfg);

/// Why no build serves cfg, as one short line: the key in which the nearest build differs with
/// the values the builds allow for it (or the nearest build's differing keys), and router.model = sc.
std::string rtl_mismatch(const Config& cfg, const std::vector<RtlBuild>& builds);

/// The RTL maker for cfg; throws ConfigError naming router.model when there is none.
RouterMaker rtl_router_maker(const Config& cfg);
/// A family's validation step for router.model = rtl / mixed: the router rules the RTL does not
/// implement and a matching build (rtl_router_maker); nothing under router.model = sc. Throws
/// ConfigError.
void check_rtl_model(const Config& cfg);

/// Lets RTL routers built from now on dump their internal signals (a no-op without RTL).
void enable_rtl_internal_tracing();

/// Whether node `node` gets an RTL router under cfg.part<RouterConfig>().model.
bool node_is_rtl(const Config& cfg, const sw::Topology& topo, int node);

}  // namespace wormcast
