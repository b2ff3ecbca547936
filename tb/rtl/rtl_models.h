// The Verilated torus (and iBT) router of one parameter set: the Verilog parameters of a network
// and router configuration (and back), and the model, built on demand (tb/rtl/rtl_cache.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "systemc/common/config.h"
#include "systemc/torus/config.h"
#include "systemc/torus/params.h"
#include "systemc/torus/routing.h"
#include "tb/rtl/rtl_cache.h"
#include "tb/rtl/rtl_router.h"

namespace wormcast {

struct RtlModelInfo {
  std::string name;                   ///< a test set's name (rtl/configs.txt), else a description
  std::map<std::string, int> params;  ///< wc_router_top parameters, Name -> value
  std::string test_hook;              ///< "BugSaPtr=1" for a deliberately broken build, else empty

  /// The configuration with the same parameters: net.family ibt when IbtLens > 0 (its bypass
  /// lengths and routing), else torus; the keys no parameter fixes at their defaults.
  Config config() const;
  NetConfig net() const { return config().net; }
  RouterConfig router() const { return config().part<RouterConfig>(); }
  sw::Topology topology() const { return net().topology(); }
  /// The SystemC router's parameters for this build (the ibt family's two bypass ports included).
  RouterParams router_params() const;
  /// The SystemC router's routing: null for the torus family (dimension order by the topology),
  /// BypassRouting for the ibt family.
  std::shared_ptr<const PortRouting> routing() const;

  /// What the cache builds for this parameter set (with --trace when `trace`).
  RtlBuildSpec build_spec(bool trace) const;
  /// The plugin of this parameter set (built now if the cache has none).
  const RtlPlugin& load() const;
  /// The Verilated router (its model built now if the cache has none); with internal tracing
  /// when enable_rtl_model_tracing() was called before.
  std::unique_ptr<RtlRouterBase> make(const char* name, const RouterParams& params, const sw::Topology& topo, int node,
                                      int reset_cycles) const;
};

/// Parameter `key` of the Verilated configuration `model`; throws ConfigError when it has none.
int rtl_param(const std::string& model, const std::map<std::string, int>& params, const char* key);

/// The parameter set of cfg's network and router. Throws ConfigError naming the key and the
/// limit when the RTL cannot express cfg (before anything is built).
RtlModelInfo rtl_model_of(const Config& cfg);

/// The test sets of rtl/configs.txt (and the deliberately broken builds, "<name>_bug"), read from
/// the RTL sources: what the tests and the lint run, not what the product supports.
const std::vector<RtlModelInfo>& rtl_test_models();
/// The one named `name`; throws ConfigError naming the known ones.
const RtlModelInfo& find_rtl_model(const std::string& name);

/// Models made from now on are built with --trace and can dump their internals.
void enable_rtl_model_tracing();

/// The test set named `name` among `models` (either family's); throws ConfigError naming the known
/// ones, `what` saying whose.
template <class M>
const M& find_test_set(const std::vector<M>& models, const std::string& name, const char* what) {
  std::string known;
  for (const M& m : models) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw ConfigError(std::string("unknown ") + what + " test set '" + name + "'; allowed: " + known);
}

/// "name Key=value ..." lines of a configs.txt ('#' comments), as (name, parameters).
std::vector<std::pair<std::string, std::map<std::string, int>>> read_rtl_sets(const std::string& path);

}  // namespace wormcast
