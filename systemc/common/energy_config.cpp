// The energy.* configuration keys: one row per key with its default, allowed range and help.
#include "systemc/common/energy_config.h"

#include <fmt/format.h>

#include "systemc/common/config_keys.h"

namespace wormcast {
namespace {

const Choices<EnergyTechnology> kTechnologies = {{"dsent-45nm", EnergyTechnology::Dsent45},
                                                 {"dsent-32nm", EnergyTechnology::Dsent32}};

}  // namespace

const char* technology_name(EnergyTechnology t) {
  for (auto& [name, e] : kTechnologies)
    if (e == t) return name;
  return "?";
}

std::vector<ConfigKey> energy_keys() {
  return {
      choice_key("energy.technology", "dsent-45nm", kTechnologies, &EnergyConfig::technology,
                 "dsent-45nm or dsent-32nm",
                 "technology table of the per-event energies (docs/energy.md): DSENT's 45 nm bulk LVT at 1.0 V "
                 "or 32 nm bulk LVT at 0.9 V"),
      int_key("energy.flit_bits", "64", 8, 1024, &EnergyConfig::flit_bits,
              "flit width in bits: buffer, crossbar and link energies and buffer leakage scale with it"),
      {"energy.link_length_mm", "1", "0..100 (mm)", "length of one network link (a folded torus: twice the tile pitch)",
       [](Config& c, const std::string& v, const ConfigKey& k) {
         c.part<EnergyConfig>().link_length_mm = key_real(k, v, 0.0, 100.0);
       },
       [](const Config& c) { return nlohmann::json(c.part<EnergyConfig>().link_length_mm); }},
      {"energy.clock_period_ns", "auto", "auto (the clock the network runs on) or 0.01..1000 (ns)",
       "clock period that turns the window's energy into average power",
       [](Config& c, const std::string& v, const ConfigKey& k) {
         c.part<EnergyConfig>().clock_period_ns = v == "auto" ? 0.0 : key_real(k, v, 0.01, 1000.0);
       },
       [](const Config& c) {
         const double p = c.part<EnergyConfig>().clock_period_ns;
         return p > 0 ? nlohmann::json(p) : nlohmann::json("auto");
       }},
  };
}

}  // namespace wormcast
