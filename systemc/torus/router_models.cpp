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

const std::vector<std::string>& rtl_build_keys() {
  static const std::vector<std::string> keys = {
      "net.family",         "net.radix",         "net.topology",       "router.local_ports", "router.vcs_per_class",
      "router.dateline",    "router.buffer_depth", "router.router_delay", "router.link_delay", "router.credit_delay",
      "router.vc_realloc",  "ibt.bypass",        "ibt.routing"};
  return keys;
}

namespace {
/// The values of rtl_build_keys() in c, as text from its echo ("" for a key its family does not have).
std::vector<std::string> build_values(const Config& c) {
  const nlohmann::json echo = c.echo();
  std::vector<std::string> values;
  for (const std::string& key : rtl_build_keys()) {
    const size_t dot = key.find('.');
    const auto section = echo.find(key.substr(0, dot));
    const auto v = section == echo.end() ? echo.end() : section->find(key.substr(dot + 1));
    values.push_back(section == echo.end() || v == section->end() ? "" : v->is_string() ? v->get<std::string>() : v->dump());
  }
  return values;
}

/// Indices into rtl_build_keys() of the values that differ.
std::vector<size_t> differing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<size_t> d;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k] != b[k]) d.push_back(k);
  return d;
}
}  // namespace

std::vector<std::string> rtl_build_diff(const Config& build, const Config& cfg) {
  std::vector<std::string> keys;
  for (size_t k : differing(build_values(build), build_values(cfg))) keys.push_back(rtl_build_keys()[k]);
  return keys;
}

std::string rtl_mismatch(const Config& cfg, const std::vector<RtlBuild>& builds) {
  const char* model = cfg.part<RouterConfig>().model == RouterModel::Mixed ? "mixed" : "rtl";
  if (builds.empty())
    return fmt::format("config: router.model = {} has no Verilated build in this program; allowed: sc", model);
  const std::vector<std::string>& key = rtl_build_keys();
  const std::vector<std::string> value = build_values(cfg);
  // The keys in which each build differs from cfg; the nearest build differs in the fewest.
  std::vector<std::vector<std::string>> build_value(builds.size());
  std::vector<std::vector<size_t>> diff(builds.size());
  size_t best = 0;
  for (size_t b = 0; b < builds.size(); ++b) {
    build_value[b] = build_values(builds[b].config);
    diff[b] = differing(build_value[b], value);
    if (diff[b].size() < diff[best].size()) best = b;
  }
  if (diff[best].size() == 1) {
    // One key away: the values of that key a build has with every other key as given.
    const size_t k = diff[best][0];
    std::vector<std::string> allowed;
    for (size_t b = 0; b < builds.size(); ++b) {
      const std::string& v = build_value[b][k];
      if (diff[b].size() == 1 && diff[b][0] == k && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
        allowed.push_back(v);
    }
    return fmt::format("config: {} = {} has no Verilated build (router.model = {}); allowed with the other keys as "
                       "given: {} (rtl/configs.txt), or router.model = sc",
                       key[k], value[k], model, fmt::join(allowed, ", "));
  }
  std::vector<std::string> keys;
  for (size_t i = 0; i < diff[best].size() && i < 3; ++i)
    keys.push_back(fmt::format("{} {}", key[diff[best][i]], build_value[best][diff[best][i]]));
  const size_t more = diff[best].size() - keys.size();
  return fmt::format("config: router.model = {} has no Verilated build for {} = {}{}; the nearest, {}, has {}{}; "
                     "allowed: those values (rtl/configs.txt), or router.model = sc",
                     model, key[diff[best][0]], value[diff[best][0]],
                     fmt::format(" and {} more key{}", diff[best].size() - 1, diff[best].size() > 2 ? "s" : ""),
                     builds[best].name, fmt::join(keys, ", "),
                     more ? fmt::format(" and {} more", more) : "");
}

void check_rtl_model(const Config& c) {
  const RouterConfig& r = c.part<RouterConfig>();
  if (r.model == RouterModel::SystemC) return;
  // (With another allocator rtl_router_maker refuses the configuration, naming the allocator.)
  if (r.allocator == RouterAllocator::InputFirst && (r.pipeline != RouterPipeline::Lumped || r.vc_class != VcClassRule::Hop))
    throw ConfigError("config: router.pipeline = staged and router.vc_class = entry are SystemC only; allowed "
                      "with router.model = rtl or mixed: lumped and hop (the rules the RTL router implements)");
  rtl_router_maker(c);  // throws when no RTL build matches
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
