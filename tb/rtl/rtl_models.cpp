// Conversion of a Verilated configuration's parameters into the SystemC model's configuration.
#include "tb/rtl/rtl_models.h"

#include <string>

#include "systemc/ibt/network.h"

namespace wormcast {

int rtl_param(const std::string& model, const std::map<std::string, int>& params, const char* key) {
  const auto it = params.find(key);
  if (it == params.end()) throw ConfigError("rtl model " + model + ": no parameter " + key);
  return it->second;
}

namespace {
int param(const RtlModelInfo& m, const char* key) { return rtl_param(m.name, m.params, key); }

/// The iBT parameters may be left out of a torus configuration (rtl/configs.txt).
int param_or(const RtlModelInfo& m, const char* key, int def) {
  const auto it = m.params.find(key);
  return it == m.params.end() ? def : it->second;
}

bool is_ibt(const RtlModelInfo& m) { return param_or(m, "IbtLens", 0) != 0; }
}  // namespace

Config RtlModelInfo::config() const {
  const int dims = param(*this, "NumDims");
  const int torus = param(*this, "Torus");
  const char* radix_key[] = {"Radix0", "Radix1", "Radix2", "Radix3"};
  std::string radix, topology;
  for (int d = 0; d < dims; ++d) {
    radix += (d ? "x" : "") + std::to_string(param(*this, radix_key[d]));
    topology += std::string(d ? "," : "") + ((torus >> d & 1) != 0 ? "torus" : "mesh");
  }
  Overrides ov{{"net.family", is_ibt(*this) ? "ibt" : "torus"}, {"net.radix", radix}};
  if (is_ibt(*this)) {
    const char* len_key[] = {"IbtLen0", "IbtLen1", "IbtLen2", "IbtLen3"};
    std::string bypass;
    for (int j = 0; j < param(*this, "IbtLens"); ++j) bypass += (j ? "," : "") + std::to_string(param(*this, len_key[j]));
    ov.emplace_back("ibt.bypass", bypass);
    ov.emplace_back("ibt.routing", param_or(*this, "IbtRouting", 0) != 0 ? "bypass" : "dor");
  } else {
    ov.emplace_back("net.topology", topology);
  }
  ov.emplace_back("router.local_ports", param(*this, "NumLocal") == 1 ? "one" : "all");
  ov.emplace_back("router.vcs_per_class", std::to_string(param(*this, "VcsPerClass")));
  ov.emplace_back("router.dateline", param(*this, "Dateline") != 0 ? "true" : "false");
  ov.emplace_back("router.buffer_depth", std::to_string(param(*this, "BufDepth")));
  ov.emplace_back("router.router_delay", std::to_string(param(*this, "RouterDelay")));
  ov.emplace_back("router.link_delay", std::to_string(param(*this, "LinkDelay")));
  ov.emplace_back("router.credit_delay", std::to_string(param(*this, "CreditDelay")));
  ov.emplace_back("router.vc_realloc", param(*this, "VcReallocTail") != 0 ? "tail" : "empty");
  return load_config("", ov);
}

RouterParams RtlModelInfo::router_params() const {
  const Config c = config();
  return is_ibt(*this) ? ibt_router_params(c) : derive_router_params(c.net, c.part<RouterConfig>());
}

std::shared_ptr<const PortRouting> RtlModelInfo::routing() const {
  return is_ibt(*this) ? ibt_routing(config()) : nullptr;
}

const RtlModelInfo& find_rtl_model(const std::string& name) {
  std::string known;
  for (const auto& m : rtl_models()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw ConfigError("unknown RTL configuration '" + name + "'; built: " + known);
}

}  // namespace wormcast
