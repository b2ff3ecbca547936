// The RTL library of the network builder: the router of a network's parameter set, its model built
// on demand (the router's own coordinates are an input port, so one model serves every node).
#include "tb/rtl/rtl_network.h"

#include "systemc/torus/router_models.h"
#include "tb/rtl/mway/mw_models.h"
#include "tb/rtl/rtl_cache.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

void install_rtl_routers_at(const char* prefix) {
  if (prefix) set_rtl_install_prefix(prefix);
  RtlRouterLibrary lib;
  lib.check = [](const Config& cfg) { rtl_model_of(cfg); };
  lib.find = [](const Config& cfg) -> RouterMaker {
    auto model = std::make_shared<const RtlModelInfo>(rtl_model_of(cfg));
    // Built (or loaded) now, before the first router: a failed build ends the run before cycle 0.
    model->load();
    return [model](const char* name, const RouterParams& params, const sw::Topology& topo, int node,
                   NetActivity* activity) -> std::unique_ptr<RouterBase> {
      std::unique_ptr<RtlRouterBase> r = model->make(name, params, topo, node, 1);
      r->set_activity(activity);
      return r;
    };
  };
  lib.enable_internal_tracing = [] { enable_rtl_model_tracing(); };
  install_rtl_library(std::move(lib));
  install_mway_rtl_fabrics();
}

}  // namespace wormcast
