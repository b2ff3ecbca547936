// The k-ary m-way family's configuration (mway.* keys): its struct, a part of Config, and the keys
// the family registers.
#pragma once

#include <string>
#include <vector>

#include "systemc/common/config.h"

namespace wormcast {

/// The k-ary m-way router family (docs/mway.md): mway.* keys, cfg.part<MwayConfig>().
struct MwayConfig {
  std::string algo = "mst-safe";  ///< unicast, mst, mst-safe, mst-replica, mst-unicast, rd
  int buffers = 4;                ///< buffers per router buffer set (DIM+, DIM-)
  int buffer_length = 5;          ///< flits per buffer
  int injection_buffers = 4;
  int ejection_buffers = 4;
  std::string header_bid = "stat";  ///< stat, blind (docs/mway.md section 4.1)
  std::string model = "sc";         ///< sc (the SystemC fabric) or rtl (its Verilated RTL, built on demand)
};

/// The m-way family's keys: mway.* and the region broadcasts of synthetic traffic.
std::vector<ConfigKey> mway_keys();

}  // namespace wormcast
