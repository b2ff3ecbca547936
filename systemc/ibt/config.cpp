// The interlaced bypass torus family's configuration keys: the torus router's, then its own.
#include "systemc/ibt/config.h"

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
      {"ibt.bypass", "4", "b1,...,bk: each a positive multiple of d*k (d dimensions, k lengths), below n/2, "
       "n a multiple of d*k",
       "bypass lengths of iBT(n^d; <b1..bk>) (docs/router.md section 10)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         std::vector<int>& bypass = c.part<IbtConfig>().bypass;
         bypass.clear();
         for (auto& p : split_list(v, ',')) bypass.push_back(int(key_int(f, p, 1, limits::kMaxRadix)));
         if (bypass.empty() || bypass.size() > 8) bad_value(f, v);
       },
       [](const Config& c) { return nlohmann::json(join(c.part<IbtConfig>().bypass, ",")); }},
      choice_key("ibt.routing", "dor", kIbtRoutings, &IbtConfig::routing, "dor, bypass or shortest",
                   "dor: dimension order over torus links (bypass links only for node programs); bypass: "
                   "the source's bypass ring first where it shortens the path, then dimension order; shortest: "
                   "per dimension align hops and a bypass run, then dimension order, (2 + d) x V VCs per port "
                   "(docs/router.md section 10)"),
       })
    keys.push_back(std::move(k));
  return keys;
}

}  // namespace wormcast
