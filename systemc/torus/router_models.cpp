// The router-model registry: the RTL library a program installed, and the per-node choice.
#include "systemc/torus/router_models.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
  if (!m) throw ConfigError(rtl_mismatch(cfg, lib.builds ? lib.builds() : std::vector<RtlBuild>{}));
  return m;
}

namespace {
/// The keys a build fixes, each as the text of its value.
struct BuildKey {
  const char* key;
  std::string (*value)(const NetConfig& n, const RouterConfig& r);
};
const BuildKey kBuildKeys[] = {
    {"net.radix", [](const NetConfig& n, const RouterConfig&) { return fmt::format("{}", fmt::join(n.radix, "x")); }},
    {"net.topology",
     [](const NetConfig& n, const RouterConfig&) {
       std::string s;
       bool same = true;
       for (size_t d = 0; d < n.torus.size(); ++d) {
         s += std::string(d ? "," : "") + (n.torus[d] ? "torus" : "mesh");
         same = same && n.torus[d] == n.torus[0];
       }
       return same && !n.torus.empty() ? std::string(n.torus[0] ? "torus" : "mesh") : s;
     }},
    {"router.local_ports",
     [](const NetConfig&, const RouterConfig& r) { return std::string(r.local_ports == LocalPorts::All ? "all" : "one"); }},
    {"router.vcs_per_class", [](const NetConfig&, const RouterConfig& r) { return std::to_string(r.vcs_per_class); }},
    {"router.dateline", [](const NetConfig&, const RouterConfig& r) { return std::string(r.dateline ? "true" : "false"); }},
    {"router.buffer_depth", [](const NetConfig&, const RouterConfig& r) { return std::to_string(r.buffer_depth); }},
    {"router.router_delay", [](const NetConfig&, const RouterConfig& r) { return std::to_string(r.router_delay); }},
    {"router.link_delay", [](const NetConfig&, const RouterConfig& r) { return std::to_string(r.link_delay); }},
    {"router.credit_delay", [](const NetConfig&, const RouterConfig& r) { return std::to_string(r.credit_delay); }},
    {"router.vc_realloc",
     [](const NetConfig&, const RouterConfig& r) { return std::string(r.vc_realloc == VcRealloc::Tail ? "tail" : "empty"); }},
};
}  // namespace

std::string rtl_mismatch(const Config& cfg, const std::vector<RtlBuild>& builds) {
  const char* model = cfg.part<RouterConfig>().model == RouterModel::Mixed ? "mixed" : "rtl";
  if (builds.empty())
    return fmt::format("config: router.model = {} has no Verilated build in this program; allowed: sc", model);
  // The keys in which each build differs from cfg; the nearest build differs in the fewest.
  std::vector<std::vector<size_t>> diff(builds.size());
  size_t best = 0;
  for (size_t b = 0; b < builds.size(); ++b) {
    for (size_t k = 0; k < std::size(kBuildKeys); ++k)
      if (kBuildKeys[k].value(builds[b].net, builds[b].router) != kBuildKeys[k].value(cfg.net, cfg.part<RouterConfig>()))
        diff[b].push_back(k);
    if (diff[b].size() < diff[best].size()) best = b;
  }
  const auto value = [&](size_t k) { return kBuildKeys[k].value(cfg.net, cfg.part<RouterConfig>()); };
  if (diff[best].size() == 1) {
    // One key away: the values of that key a build has with every other key as given.
    const size_t k = diff[best][0];
    std::vector<std::string> allowed;
    for (size_t b = 0; b < builds.size(); ++b) {
      const std::string v = kBuildKeys[k].value(builds[b].net, builds[b].router);
      if (diff[b].size() == 1 && diff[b][0] == k && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
        allowed.push_back(v);
    }
    return fmt::format("config: {} = {} has no Verilated build (router.model = {}); allowed with the other keys as "
                       "given: {} (rtl/configs.txt), or router.model = sc",
                       kBuildKeys[k].key, value(k), model, fmt::join(allowed, ", "));
  }
  std::vector<std::string> keys;
  for (size_t i = 0; i < diff[best].size() && i < 3; ++i)
    keys.push_back(fmt::format("{} {}", kBuildKeys[diff[best][i]].key,
                               kBuildKeys[diff[best][i]].value(builds[best].net, builds[best].router)));
  const size_t more = diff[best].size() - keys.size();
  return fmt::format("config: router.model = {} has no Verilated build for {} = {}{}; the nearest, {}, has {}{}; "
                     "allowed: those values (rtl/configs.txt), or router.model = sc",
                     model, kBuildKeys[diff[best][0]].key, value(diff[best][0]),
                     fmt::format(" and {} more key{}", diff[best].size() - 1, diff[best].size() > 2 ? "s" : ""),
                     builds[best].name, fmt::join(keys, ", "),
                     more ? fmt::format(" and {} more", more) : "");
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
