// The RTL library of the network builder: a build serves a network when its Verilog parameters
// equal the network and router configuration (the router's own coordinates are an input port, so
// one build serves every node).
#include "tb/rtl/rtl_network.h"

#include "systemc/torus/router_models.h"
#include "tb/rtl/mway/mw_models.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

void install_rtl_routers() {
  RtlRouterLibrary lib;
  lib.find = [](const Config& cfg) -> RouterMaker {
    for (const auto& m : rtl_models()) {
      if (!m.test_hook.empty()) continue;  // a deliberately broken build: lockstep tests only
      if (!rtl_build_diff(m.config(), cfg).empty()) continue;
      const RtlFactory make = m.make;
      return [make](const char* name, const RouterParams& params, const sw::Topology& topo, int node,
                    NetActivity* activity) -> std::unique_ptr<RouterBase> {
        std::unique_ptr<RtlRouterBase> r = make(name, params, topo, node, 1);
        r->set_activity(activity);
        return r;
      };
    }
    return {};
  };
  lib.builds = [] {
    std::vector<RtlBuild> v;
    for (const auto& m : rtl_models())
      if (m.test_hook.empty()) v.push_back(RtlBuild{m.name, m.config()});
    return v;
  };
  lib.enable_internal_tracing = [] { RtlRouterBase::enable_internal_tracing(); };
  install_rtl_library(std::move(lib));
  install_mway_rtl_fabrics();
}

}  // namespace wormcast
