// The k-ary m-way family's configuration keys: one row per key (default, allowed values, help).
#include "systemc/mway/config.h"

#include "systemc/common/config_keys.h"

namespace wormcast {
namespace {
const Choices<RegionMode> kRegions = {{"all", RegionMode::All}, {"random", RegionMode::Random}};
}  // namespace

std::vector<ConfigKey> mway_keys() {
  std::vector<ConfigKey> keys = {
      {"mway.algo", "mst-safe", "unicast, mst, mst-safe, mst-replica, mst-unicast, rd",
       "how a region broadcast travels (docs/mway.md section 8); unicast: dimension-order unicasts only",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         for (const char* a : {"unicast", "mst", "mst-safe", "mst-replica", "mst-unicast", "rd"})
           if (v == a) {
             c.part<MwayConfig>().algo = v;
             return;
           }
         bad_value(f, v);
       },
       [](const Config& c) { return nlohmann::json(c.part<MwayConfig>().algo); }},
      int_key("mway.buffers", "4", 1, 32, &MwayConfig::buffers, "buffers per router buffer set (DIM+ and DIM-)"),
      int_key("mway.buffer_length", "5", 1, 4096, &MwayConfig::buffer_length,
                "flits per buffer (mst-safe, mst-replica: at least nic.max_packet, a whole packet)"),
      int_key("mway.injection_buffers", "4", 1, 32, &MwayConfig::injection_buffers, "node interface injection buffers"),
      int_key("mway.ejection_buffers", "4", 1, 32, &MwayConfig::ejection_buffers, "node interface ejection buffers"),
      {"mway.header_bid", "stat", "stat, blind",
       "when a header bids for its channel (docs/mway.md section 4.1): stat, only when the Stat lines show a free "
       "buffer in the way it must allocate next (any way for mst); blind, in every cycle",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         if (v != "stat" && v != "blind") bad_value(f, v);
         c.part<MwayConfig>().header_bid = v;
       },
       [](const Config& c) { return nlohmann::json(c.part<MwayConfig>().header_bid); }},
      {"mway.model", "sc", "sc or rtl",
       "fabric implementation: SystemC, or the Verilated Verilog twin (its model built on first use and cached: wormcast rtl)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         if (v != "sc" && v != "rtl") bad_value(f, v);
         c.part<MwayConfig>().model = v;
       },
       [](const Config& c) { return nlohmann::json(c.part<MwayConfig>().model); }},
      {"traffic.broadcast_fraction", "0", "0..1", "share of messages that are region broadcasts",
       [](Config& c, const std::string& v, const ConfigKey& f) { c.traffic.broadcast_fraction = key_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.broadcast_fraction); }},
      {"traffic.region", "all", "all or random",
       "broadcast region: the whole network, or a random rectangle (uniform corners per dimension)",
       [](Config& c, const std::string& v, const ConfigKey& f) { c.traffic.region = key_choice(f, v, kRegions); },
       [](const Config& c) { return nlohmann::json(name_of(kRegions, c.traffic.region)); }},
  };
  // Only a region broadcast draws a region (tb/run/traffic_gen.cpp).
  only_where(
      keys, "traffic.region", [](const Config& c) { return c.traffic.broadcast_fraction > 0; },
      "traffic.broadcast_fraction above 0", {"traffic.broadcast_fraction"}, {{"traffic.broadcast_fraction", "1"}});
  return keys;
}

}  // namespace wormcast
