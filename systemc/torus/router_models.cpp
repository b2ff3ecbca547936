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
/// A SystemC-only setting ("router.pipeline = staged") and what the RTL router implements instead.
using SystemcOnly = std::pair<std::string, std::string>;

/// The SystemC-only settings of r.
std::vector<SystemcOnly> systemc_only(const RouterConfig& r) {
  std::vector<SystemcOnly> only;
  if (r.pipeline != RouterPipeline::Lumped) only.emplace_back("router.pipeline = staged", "lumped");
  if (r.vc_class != VcClassRule::Hop) only.emplace_back("router.vc_class = entry", "hop");
  return only;
}

/// Refuses the configuration naming every SystemC-only setting at once (and the preset, when it
/// set them): one refusal, not one per try.
void refuse_systemc_only(const RouterConfig& r, const std::vector<SystemcOnly>& only) {
  if (only.empty()) return;
  std::string keys, allowed;
  for (size_t i = 0; i < only.size(); ++i) {
    const char* sep = i == 0 ? "" : i + 1 == only.size() ? " and " : ", ";
    keys += sep + only[i].first;
    allowed += sep + only[i].second;
  }
  const bool one = only.size() == 1;
  throw ConfigError(fmt::format("config: {} {} SystemC only{}; allowed with router.model = rtl or mixed: {} (the rule{} "
                                "the RTL router implements)",
                                keys, one ? "is" : "are",
                                r.preset == RouterPreset::BooksimIq ? one ? " (router.preset = booksim-iq sets it)"
                                                                          : " (router.preset = booksim-iq sets them)"
                                                                    : "",
                                allowed, one ? "" : "s"));
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
  refuse_systemc_only(r, systemc_only(r));
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
