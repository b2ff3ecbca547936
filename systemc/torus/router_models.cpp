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
/// Where a SystemC-only value came from when the preset set it.
const char* preset_note(const Config& cfg) {
  return cfg.part<RouterConfig>().preset == RouterPreset::BooksimIq ? " (router.preset = booksim-iq sets it)" : "";
}

void check_allocator(const Config& cfg) {
  if (cfg.part<RouterConfig>().allocator != RouterAllocator::InputFirst)
    throw ConfigError(fmt::format("config: router.allocator = {} is SystemC only{}; allowed with router.model = "
                                  "rtl or mixed: input-first (the allocator the RTL router implements)",
                                  cfg.part<RouterConfig>().allocator == RouterAllocator::Islip ? "islip" : "output-first",
                                  preset_note(cfg)));
}

const RtlRouterLibrary& installed() {
  const RtlRouterLibrary& lib = library();
  if (!lib.find)
    throw ConfigError("config: router.model = rtl/mixed is unavailable in this program; allowed: sc (a program "
                      "runs the Verilog router once it calls install_rtl_routers(), tb/rtl/rtl_network.h)");
  return lib;
}
}  // namespace

RouterMaker rtl_router_maker(const Config& cfg) {
  check_allocator(cfg);
  return installed().find(cfg);
}

void check_as_rtl(const Config& cfg) {
  Config as_run = cfg;
  as_run.part<RouterConfig>().model = RouterModel::Rtl;
  const Family* family = find_family(as_run.net.family);
  if (family && family->validate) family->validate(as_run);
  check_rtl_model(as_run);
}

void check_rtl_model(const Config& c) {
  const RouterConfig& r = c.part<RouterConfig>();
  if (r.model == RouterModel::SystemC) return;
  // Every SystemC-only setting at once, each with what the RTL router implements (and the
  // preset, when it set them): one refusal, not one per try.
  std::vector<std::pair<std::string, std::string>> only;
  if (r.allocator != RouterAllocator::InputFirst)
    only.emplace_back(fmt::format("router.allocator = {}", r.allocator == RouterAllocator::Islip ? "islip" : "output-first"),
                      "input-first");
  if (r.pipeline != RouterPipeline::Lumped) only.emplace_back("router.pipeline = staged", "lumped");
  if (r.vc_class != VcClassRule::Hop) only.emplace_back("router.vc_class = entry", "hop");
  if (only.size() == 1 && r.allocator != RouterAllocator::InputFirst) check_allocator(c);
  if (only.size() == 1)
    throw ConfigError(fmt::format("config: {} is SystemC only{}; allowed with router.model = rtl or mixed: {} (the rule "
                                  "the RTL router implements)",
                                  only[0].first, preset_note(c), only[0].second));
  if (!only.empty()) {
    std::string keys, allowed;
    for (size_t i = 0; i < only.size(); ++i) {
      const char* sep = i == 0 ? "" : i + 1 == only.size() ? " and " : ", ";
      keys += sep + only[i].first;
      allowed += sep + only[i].second;
    }
    throw ConfigError(fmt::format("config: {} are SystemC only{}; allowed with router.model = rtl or mixed: {} (the "
                                  "rules the RTL router implements)",
                                  keys, r.preset == RouterPreset::BooksimIq ? " (router.preset = booksim-iq sets them)" : "",
                                  allowed));
  }
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
