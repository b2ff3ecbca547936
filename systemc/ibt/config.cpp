// The interlaced bypass torus family's configuration keys: the torus router's, then its own.
#include "systemc/ibt/config.h"

#include "sw/topology/ibt.h"
#include "systemc/common/config_keys.h"
#include "systemc/common/limits.h"
#include "systemc/torus/config.h"

namespace wormcast {
namespace {
const Choices<IbtRouting> kIbtRoutings = {{"dor", IbtRouting::Dor}, {"bypass", IbtRouting::Bypass},
                                            {"shortest", IbtRouting::Shortest}};
}  // namespace

std::vector<ConfigKey> ibt_keys() {
  std::vector<ConfigKey> keys = torus_router_keys();
  for (ConfigKey& k : std::vector<ConfigKey>{
      {"ibt.bypass", sw::kDefaultBypass, "b1,...,bk: 1..8 lengths, each a positive multiple of d*k (d dimensions, k "
       "lengths), below n/2, n a multiple of d*k",
       "bypass lengths of iBT(n^d; <b1..bk>) (docs/router.md section 10)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         std::vector<int>& bypass = c.part<IbtConfig>().bypass;
         bypass.clear();
         try {  // an error quotes the whole list, not the entry
           for (auto& p : split_list(v, ',')) bypass.push_back(int(key_int(f, p, 1, limits::kMaxRadix)));
         } catch (const ConfigError&) {
           bad_value(f, v);
         }
         if (bypass.empty() || bypass.size() > 8) bad_value(f, v);
       },
       [](const Config& c) { return nlohmann::json(join(c.part<IbtConfig>().bypass, ",")); }},
      choice_key("ibt.routing", "dor", kIbtRoutings, &IbtConfig::routing, "dor, bypass or shortest",
                   "dor: dimension order over torus links (bypass links only for node programs); bypass: "
                   "the source's bypass ring first where it shortens the path, then dimension order; shortest: "
                   "ibt.layers layers of align hops and a bypass run each, then dimension order, "
                   "(2 + layers) x V VCs per port (docs/router.md section 10)"),
      {"ibt.layers", "auto", "auto (d*k + 3, at most what fits in 16 VCs at V = 1) or 1..14",
       "layers of ibt.routing = shortest: each align hops and a run on one bypass ring, the rings in "
       "turn; more layers come closer to the distance and need more VC classes (docs/router.md section 10)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         c.part<IbtConfig>().layers = v == "auto" ? 0 : int(key_int(f, v, 1, limits::kMaxVcs - 2));
       },
       [](const Config& c) {
         const int l = c.part<IbtConfig>().layers;
         return l ? nlohmann::json(l) : nlohmann::json("auto");
       }},
       })
    keys.push_back(std::move(k));
  only_with(keys, "ibt.layers", "ibt.routing", "shortest");
  // Dimension order routes over the torus links alone: the bypass lengths then only make the
  // network valid, where the default is not (a radix of 8 or less has no bypass of length 4).
  only_where(
      keys, "ibt.bypass",
      [](const Config& c) {
        if (c.part<IbtConfig>().routing != IbtRouting::Dor) return true;
        std::vector<int> def;
        for (auto& p : split_list(sw::kDefaultBypass, ',')) def.push_back(std::stoi(p));
        try {
          sw::IbtTopology(c.net.radix[0], int(c.net.radix.size()), def);
        } catch (const sw::IbtConfigError&) {
          return true;
        }
        return false;
      },
      fmt::format("ibt.routing = bypass or shortest, or on a net.radix the default {} is no valid bypass for",
                  sw::kDefaultBypass),
      {"ibt.routing"},
      {{"ibt.routing", "bypass"}});
  return keys;
}

}  // namespace wormcast
