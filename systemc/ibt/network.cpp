// The ibt family: configuration rules and the builder (the torus network with bypass ports).
#include "systemc/ibt/network.h"

#include <fmt/format.h>

#include <algorithm>

#include "systemc/common/limits.h"
#include "systemc/ibt/config.h"
#include "systemc/ibt/routing.h"
#include "systemc/torus/config.h"
#include "systemc/torus/router_models.h"

namespace wormcast {

sw::IbtTopology ibt_topology(const Config& cfg) {
  const auto& radix = cfg.net.radix;
  for (int r : radix)
    if (r != radix[0])
      throw ConfigError(fmt::format("config: net.radix is invalid for the ibt family; allowed: n x n x ... x n "
                                    "(every dimension the same radix)"));
  std::string bypass;
  for (size_t j = 0; j < cfg.part<IbtConfig>().bypass.size(); ++j) bypass += (j ? "," : "") + std::to_string(cfg.part<IbtConfig>().bypass[j]);
  try {
    return sw::IbtTopology(radix[0], int(radix.size()), cfg.part<IbtConfig>().bypass);
  } catch (const sw::IbtConfigError& e) {
    std::string why = e.what();  // "--bypass: ..." / "--net: ...": the rule without the option's name
    if (why.rfind("--", 0) == 0 && why.find(": ") != std::string::npos) why = why.substr(why.find(": ") + 2);
    throw ConfigError(fmt::format("config: ibt.bypass = '{}' with net.radix n = {}, d = {} is invalid: {}", bypass,
                                  radix[0], radix.size(), why));
  }
}

namespace {
/// VC classes per port of shortest routing with `layers` layers: max(C + L, 2 ceil(L / dk)).
int shortest_classes(int dateline_classes, int layers, int dk) {
  return std::max(dateline_classes + layers, 2 * ((layers + dk - 1) / dk));
}

/// The most layers (1..14) whose classes fit in a port's VCs, one VC per class.
int most_layers(int dateline_classes, int dk) {
  int most = 0;
  while (most < 14 && shortest_classes(dateline_classes, most + 1, dk) <= limits::kMaxVcs) ++most;
  return most;
}
}  // namespace

int ibt_layers(const Config& cfg) {
  const IbtConfig& ibt = cfg.part<IbtConfig>();
  if (ibt.routing != IbtRouting::Shortest) return 0;
  if (ibt.layers) return ibt.layers;
  // auto: d*k + 3 (ShortestTable::auto_layers), at most the layers whose classes fit in a port's VCs
  // (from d*k = 12 on: six bypass lengths in 2-D, four in 3-D).
  const int dk = int(cfg.net.radix.size() * ibt.bypass.size());
  const int classes = derive_router_params(cfg.net, cfg.part<RouterConfig>(), 2).classes;
  return std::min(dk + 3, most_layers(classes, dk));
}

RouterParams ibt_router_params(const Config& cfg) {
  RouterParams p = derive_router_params(cfg.net, cfg.part<RouterConfig>(), 2);  // bypass+ and bypass- (docs/router.md section 10)
  if (const int layers = ibt_layers(cfg)) {
    // One align class per layer; the runs' two classes per d*k layers fit in them when d*k >= 2.
    const int dk = int(cfg.net.radix.size() * cfg.part<IbtConfig>().bypass.size());
    p.num_vcs = shortest_classes(p.classes, layers, dk) * p.vcs_per_class;
  }
  return p;
}

std::shared_ptr<const PortRouting> ibt_routing(const Config& cfg) {
  return std::make_shared<BypassRouting>(ibt_topology(cfg), cfg.net.topology(), cfg.part<IbtConfig>().routing,
                                         ibt_router_params(cfg).classes, ibt_layers(cfg));
}

IbtNetwork::IbtNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt)
    : TorusNetwork(name, cfg, opt, ibt_router_params(cfg), ibt_routing(cfg)), m_ibt(ibt_topology(cfg)) {}

Family ibt_family() {
  Family f;
  f.name = "ibt";
  f.help = "interlaced bypass torus iBT(n^d; <b1..bk>): the torus router with two bypass ports per node "
           "(docs/router.md section 10); --net ibt:16x16 --set ibt.bypass=4";
  f.keys = ibt_keys();
  f.validate = [](Config& c) {
    check_bands_threads(c.sim.threads, c.sim.schedule);
    c.net.torus.assign(c.net.radix.size(), true);  // an iBT is a torus with bypass links
    if (c.net.radix.size() > size_t(limits::kMaxDims))
      throw ConfigError(fmt::format("config: net.radix has {} dimensions; allowed for the ibt family: 1..{}",
                                    c.net.radix.size(), limits::kMaxDims));
    ibt_topology(c);
    if (c.part<RouterConfig>().pipeline == RouterPipeline::Staged && c.part<RouterConfig>().router_delay < 3)
      throw ConfigError(fmt::format("config: router.router_delay = {} is invalid with router.pipeline = staged; "
                                    "allowed: 3..8",
                                    c.part<RouterConfig>().router_delay));
    const RouterParams rp = ibt_router_params(c);
    if (const int layers = ibt_layers(c); layers && rp.num_vcs > limits::kMaxVcs) {
      const int classes = rp.num_vcs / rp.vcs_per_class;  // max(C + L, 2 ceil(L / dk)): 28 at most
      if (classes > limits::kMaxVcs) {
        // Not even one VC per class: the layers are too many (a 1-D network of one bypass length,
        // d*k = 1, needs two run classes per layer).
        const int dk = int(c.net.radix.size() * c.part<IbtConfig>().bypass.size());
        const int most = most_layers(rp.classes, dk);
        throw ConfigError(fmt::format("config: ibt.layers = {} is invalid for this network: {} VC classes per port, "
                                      "at most {} VCs; allowed: 1..{}",
                                      layers, classes, limits::kMaxVcs, most));
      }
      throw ConfigError(fmt::format("config: router.vcs_per_class = {} is invalid with ibt.routing = shortest and {}{} "
                                    "layers; allowed: 1..{} ({} VC classes per port, at most {} VCs)",
                                    rp.vcs_per_class, c.part<IbtConfig>().layers ? "" : "ibt.layers = auto: ", layers,
                                    limits::kMaxVcs / classes, classes, limits::kMaxVcs));
    }
    if (rp.num_vcs > limits::kMaxVcs)
      throw ConfigError(fmt::format("config: router.vcs_per_class is invalid; allowed: at most {} VCs per port ({} "
                                    "with dateline classes)",
                                    limits::kMaxVcs, limits::kMaxVcsPerClass));
    check_rtl_model(c);
  };
  f.node_name = [](const Config& c, int node) { return router_name(c.net.topology(), node); };  // its routers' names
  f.routing = ibt_routing;
  f.longest_quiet = [](const Config& c) {
    return TorusNetwork::longest_quiet_of(ibt_router_params(c), c.net.topology(), ibt_routing(c).get());
  };
  // The common default radix (8x8) has no valid bypass of the default 4 (below n/2 = 4): an ibt
  // configuration that names no radix is iBT(16^2; <4>), the papers' network of that bypass.
  f.defaults = [](const auto&) { return Overrides{{"net.radix", "16x16"}}; };
  f.make = [](sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt) -> std::unique_ptr<Network> {
    return std::make_unique<IbtNetwork>(name, cfg, opt);
  };
  return f;
}

}  // namespace wormcast
