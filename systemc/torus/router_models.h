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

/// The Verilated routers of a program (tb/rtl installs them): a router of any parameter set the
/// Verilog expresses, its model built on demand (Verilog parameters are elaboration-time, so each
/// parameter set is its own model; the router's coordinates are an input port, so one model serves
/// every node of a network).
struct RtlRouterLibrary {
  /// Throws ConfigError naming the key and the limit when the RTL cannot express cfg (builds nothing).
  std::function<void(const Config& cfg)> check;
  /// The maker for cfg's network and router parameters (its model built now when the cache has none).
  std::function<RouterMaker(const Config& cfg)> find;
  /// Lets routers built from now on dump their internals (RouterBase::trace_internals).
  std::function<void()> enable_internal_tracing;
};

/// Makes RTL routers available to router.model = rtl / mixed (called once, before any network).
void install_rtl_library(RtlRouterLibrary lib);

/// The RTL maker for cfg; throws ConfigError naming router.model when there is none.
RouterMaker rtl_router_maker(const Config& cfg);
/// A family's validation step for router.model = rtl / mixed: the router rules and limits the RTL
/// does not implement (nothing is built); nothing under router.model = sc. Throws ConfigError.
void check_rtl_model(const Config& cfg);
/// cfg's family rules as a run with router.model = rtl applies them (cfg itself unchanged): what a
/// tool that runs the Verilated router of cfg's parameter set alone (rtl build, the lockstep
/// co-simulation) refuses, so that no SystemC-only key it was given is silently dropped.
void check_as_rtl(const Config& cfg);

/// Lets RTL routers built from now on dump their internal signals (a no-op without RTL).
void enable_rtl_internal_tracing();

/// Whether node `node` gets an RTL router under cfg.part<RouterConfig>().model.
bool node_is_rtl(const Config& cfg, const sw::Topology& topo, int node);

}  // namespace wormcast
