// Conversion of a Verilated configuration's parameters into the SystemC model's configuration.
#include "tb/rtl/rtl_models.h"

namespace wormcast {

int rtl_param(const std::string& model, const std::map<std::string, int>& params, const char* key) {
  const auto it = params.find(key);
  if (it == params.end()) throw ConfigError("rtl model " + model + ": no parameter " + key);
  return it->second;
}

namespace {
int param(const RtlModelInfo& m, const char* key) { return rtl_param(m.name, m.params, key); }
}  // namespace

NetConfig RtlModelInfo::net() const {
  NetConfig n;
  const int dims = param(*this, "NumDims");
  const int torus = param(*this, "Torus");
  const char* radix_key[] = {"Radix0", "Radix1", "Radix2", "Radix3"};
  n.radix.clear();
  n.torus.clear();
  for (int d = 0; d < dims; ++d) {
    n.radix.push_back(param(*this, radix_key[d]));
    n.torus.push_back((torus >> d & 1) != 0);
  }
  return n;
}

RouterConfig RtlModelInfo::router() const {
  RouterConfig r;
  r.local_ports = param(*this, "NumLocal") == 1 ? LocalPorts::One : LocalPorts::All;
  r.vcs_per_class = param(*this, "VcsPerClass");
  r.dateline = param(*this, "Dateline") != 0;
  r.buffer_depth = param(*this, "BufDepth");
  r.router_delay = param(*this, "RouterDelay");
  r.link_delay = param(*this, "LinkDelay");
  r.credit_delay = param(*this, "CreditDelay");
  r.vc_realloc = param(*this, "VcReallocTail") != 0 ? VcRealloc::Tail : VcRealloc::Empty;
  return r;
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
