// The router-model registry: the RTL library a program installed, and the per-node choice.
#include "systemc/torus/router_models.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "systemc/common/family.h"

namespace wormcast {

namespace {
RtlRouterLibrary& library() {
  static RtlRouterLibrary lib;
  return lib;
}
}  // namespace

void install_rtl_library(RtlRouterLibrary lib) { library() = std::move(lib); }

namespace {
const RtlRouterLibrary& installed() {
  const RtlRouterLibrary& lib = library();
  if (!lib.find)
    throw ConfigError("config: router.model = rtl/mixed is unavailable in this program; allowed: sc (a program "
                      "runs the Verilog router once it calls install_rtl_routers(), tb/rtl/rtl_network.h)");
  return lib;
}
}  // namespace

RouterMaker rtl_router_maker(const Config& cfg) { return installed().find(cfg); }

void check_as_rtl(const Config& cfg) {
  Config as_run = cfg;
  as_run.part<RouterConfig>().model = RouterModel::Rtl;
  const Family* family = find_family(as_run.net.family);
  if (family && family->validate) family->validate(as_run);
  check_rtl_model(as_run);
}

void check_rtl_model(const Config& c) {
  if (c.part<RouterConfig>().model == RouterModel::SystemC) return;
  const RtlRouterLibrary& lib = installed();
  if (lib.check) lib.check(c);
}

void enable_rtl_internal_tracing() {
  if (library().enable_internal_tracing) library().enable_internal_tracing();
}

bool node_is_rtl(const Config& cfg, const sw::Topology& topo, int node) {
  switch (cfg.part<RouterConfig>().model) {
    case RouterModel::SystemC: return false;
    case RouterModel::Rtl: return true;
    case RouterModel::Mixed: {
      int sum = 0;
      for (int d = 0; d < topo.dims(); ++d) sum += topo.coord_of(node, d);
      return sum % 2 == 0;
    }
  }
  return false;
}

}  // namespace wormcast
