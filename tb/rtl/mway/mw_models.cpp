// The m-way RTL builds: their parameters as MwayParams, and the library for mway.model = rtl.
#include "tb/rtl/mway/mw_models.h"

#include "systemc/common/config.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

namespace {
int param(const MwRtlModelInfo& m, const char* key) { return rtl_param(m.name, m.params, key); }
}  // namespace

MwayParams MwRtlModelInfo::mway_params() const {
  MwayParams p;
  const char* radix_key[] = {"Radix0", "Radix1", "Radix2", "Radix3"};
  p.radix.clear();
  for (int d = 0; d < param(*this, "NumDims"); ++d) p.radix.push_back(param(*this, radix_key[d]));
  p.algorithm = MwayAlgorithm(param(*this, "Algorithm"));
  p.buffers = param(*this, "Buffers");
  p.buffer_length = param(*this, "BufLen");
  p.injection_buffers = param(*this, "InjBuffers");
  p.ejection_buffers = param(*this, "EjBuffers");
  p.max_message_length = param(*this, "MaxMsgLen");
  p.header_bid = param(*this, "HeaderBid") ? MwayHeaderBid::Blind : MwayHeaderBid::Stat;
  return p;
}

int MwRtlModelInfo::id_width() const { return param(*this, "IdW"); }

std::unique_ptr<MwayRtlFabric> MwRtlModelInfo::make(sc_core::sc_module_name name, const MwayParams& params) const {
  return std::make_unique<MwayRtlFabric>(name, params, id_width(), units);
}

const MwRtlModelInfo& find_mway_rtl_model(const std::string& name) {
  std::string known;
  for (const auto& m : mway_rtl_models()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw ConfigError("unknown m-way RTL configuration '" + name + "'; built: " + known);
}

void install_mway_rtl_fabrics() {
  MwayRtlLibrary lib;
  lib.make = [](sc_core::sc_module_name name, const MwayParams& p) -> std::unique_ptr<MwayFabricIf> {
    for (const auto& m : mway_rtl_models()) {
      if (!m.test_hook.empty()) continue;  // a deliberately broken build: lockstep tests only
      const MwayParams b = m.mway_params();
      if (b.radix == p.radix && b.algorithm == p.algorithm && b.buffers == p.buffers &&
          b.buffer_length == p.buffer_length && b.injection_buffers == p.injection_buffers &&
          b.ejection_buffers == p.ejection_buffers && b.max_message_length == p.max_message_length &&
          b.header_bid == p.header_bid)
        return m.make(name, p);
    }
    return nullptr;
  };
  lib.builds = [] {
    std::vector<std::pair<std::string, MwayParams>> v;
    for (const auto& m : mway_rtl_models())
      if (m.test_hook.empty()) v.emplace_back(m.name, m.mway_params());
    return v;
  };
  install_mway_rtl_library(std::move(lib));
}

}  // namespace wormcast
