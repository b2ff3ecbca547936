// The interlaced bypass torus family's configuration (ibt.* keys): its struct, a part of Config,
// and the keys the family registers (its own and the torus router's).
#pragma once

#include <vector>

#include "systemc/common/config.h"

namespace wormcast {

/// Unicast routing on an interlaced bypass torus (docs/router.md section 10): dimension order over
/// the torus links only; bypass links of the source's ring first where they shorten the path, then
/// dimension order; or shortest over align and bypass phases on every dimension's rings.
enum class IbtRouting { Dor, Bypass, Shortest };

/// The interlaced bypass torus family iBT(n^d; <b1..bk>): ibt.* keys, cfg.part<IbtConfig>().
struct IbtConfig {
  std::vector<int> bypass{4};  ///< b1..bk
  IbtRouting routing = IbtRouting::Dor;
  int layers = 0;  ///< layers of shortest routing; 0: auto, d*k + 3 (ibt_layers: at most what fits)
};

/// The ibt family's keys: the torus router's and ibt.*.
std::vector<ConfigKey> ibt_keys();

}  // namespace wormcast
