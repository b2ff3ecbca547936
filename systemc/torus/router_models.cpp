// The router-model registry: the RTL library a program installed, and the per-node choice.
#include "systemc/torus/router_models.h"

#include <fmt/format.h>

namespace wormcast {

namespace {
RtlRouterLibrary& library() {
  static RtlRouterLibrary lib;
  return lib;
}
}  // namespace

void install_rtl_library(RtlRouterLibrary lib) { library() = std::move(lib); }

RouterMaker rtl_router_maker(const Config& cfg) {
  if (cfg.part<RouterConfig>().allocator != RouterAllocator::InputFirst)
    throw ConfigError(fmt::format("config: router.allocator = {} is SystemC only; allowed with router.model = "
                                  "rtl or mixed: input-first (the allocator the RTL router implements)",
                                  cfg.part<RouterConfig>().allocator == RouterAllocator::Islip ? "islip" : "output-first"));
  const RtlRouterLibrary& lib = library();
  if (!lib.find)
    throw ConfigError("config: router.model = rtl/mixed is unavailable; allowed: sc (this program was built "
                      "without the Verilog router, WORMCAST_RTL=OFF)");
  RouterMaker m = lib.find(cfg);
  if (!m)
    throw ConfigError(fmt::format(
        "config: router.model = rtl/mixed has no Verilated build for this network and router; allowed: sc, or "
        "the parameters of an rtl/configs.txt entry: {}",
        lib.describe()));
  return m;
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
