// The m-way units' Verilog parameters from MwayParams and back, the test sets, and the RTL
// fabric of a parameter set through the on-demand cache.
#include "tb/rtl/mway/mw_models.h"

#include <fmt/format.h>

#include "systemc/common/config.h"
#include "systemc/common/limits.h"
#include "tb/rtl/mway/mw_layout.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

namespace {
int param(const MwRtlModelInfo& m, const char* key) { return rtl_param(m.name, m.params, key); }

constexpr int kMaxDims = 4;  // wc_mw_pkg MaxDims
constexpr int kIdW = 32;     // the packet id field of the header word

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

RtlBuildSpec MwRtlModelInfo::build_spec() const {
  const MwayParams p = mway_params();
  const MwLayout l(p, id_width());
  const auto bug = params.find("Bug");
  const std::vector<std::string> common = {
      fmt::format("-GNumDims={}", l.n),      fmt::format("-GCoordW={}", l.coord_w),
      fmt::format("-GIdW={}", l.id_w),       fmt::format("-GLenW={}", l.len_w),
      fmt::format("-GIdxW={}", l.idx_w),     fmt::format("-GBufN={}", l.buf_n),
      fmt::format("-GAlgorithm={}", int(p.algorithm)),
      fmt::format("-GBug={}", bug == params.end() ? 0 : bug->second)};
  const std::string bid = fmt::format("-GHeaderBid={}", param(*this, "HeaderBid"));
  RtlBuildSpec s;
  s.family = "mway";
  s.files = "mway/files.f";
  s.systemc = false;
  // The units know the network only through CoordW: one build serves every radix of that width.
  s.description = fmt::format("m-way {}-D CoordW={} {} buffers {}x{} inj {} ej {} len {}{}{}", l.n, l.coord_w,
                              to_string(p.algorithm), p.buffers, p.buffer_length, p.injection_buffers,
                              p.ejection_buffers, p.max_message_length,
                              p.header_bid == MwayHeaderBid::Blind ? " blind" : "",
                              test_hook.empty() ? "" : " " + test_hook);
  RtlUnit router{"wc_mw_router", "Vwc_mw_router", common};
  router.gargs.insert(router.gargs.end(), {fmt::format("-GRows={}", l.rows), fmt::format("-GBufLen={}", l.buf_len), bid});
  RtlUnit node{"wc_mw_node_if", "Vwc_mw_node", common};
  node.gargs.insert(node.gargs.end(), {fmt::format("-GInjRows={}", l.inj), fmt::format("-GEjRows={}", l.ej),
                                       fmt::format("-GBufLen={}", l.buf_len), bid});
  RtlUnit channel{"wc_mw_channel", "Vwc_mw_channel", common};
  s.units = {router, node, channel};
  return s;
}

std::unique_ptr<MwayRtlFabric> MwRtlModelInfo::make(sc_core::sc_module_name name, const MwayParams& params) const {
  const RtlPlugin& plugin = load_rtl_plugin(build_spec());
  if (!plugin.make_units) throw ConfigError("rtl: the model of " + this->name + " is not an m-way fabric");
  return std::make_unique<MwayRtlFabric>(name, params, id_width(), plugin.make_units);
}

MwRtlModelInfo mway_rtl_model_of(const MwayParams& p) {
  if (p.dims() > kMaxDims)
    throw ConfigError(fmt::format("config: net.radix has {} dimensions, beyond the Verilog m-way router "
                                  "(mway.model = rtl); allowed: 1..{} (wc_mw_pkg MaxDims), or mway.model = sc",
                                  p.dims(), kMaxDims));
  MwRtlModelInfo m;
  const char* radix_key[] = {"Radix0", "Radix1", "Radix2", "Radix3"};
  for (int d = 0; d < kMaxDims; ++d) m.params[radix_key[d]] = d < p.dims() ? p.radix[size_t(d)] : 2;
  m.params["NumDims"] = p.dims();
  m.params["Buffers"] = p.buffers;
  m.params["BufLen"] = p.buffer_length;
  m.params["InjBuffers"] = p.injection_buffers;
  m.params["EjBuffers"] = p.ejection_buffers;
  m.params["MaxMsgLen"] = p.max_message_length;
  m.params["Algorithm"] = int(p.algorithm);
  m.params["HeaderBid"] = p.header_bid == MwayHeaderBid::Blind ? 1 : 0;
  m.params["IdW"] = kIdW;
  m.name = fmt::format("mway {}", fmt::join(p.radix, "x"));
  return m;
}

const std::vector<MwRtlModelInfo>& mway_rtl_test_models() {
  static const std::vector<MwRtlModelInfo> models = [] {
    std::vector<MwRtlModelInfo> v;
    for (auto& [name, params] : read_rtl_sets(rtl_source_dir() + "/mway/configs.txt"))
      v.push_back(MwRtlModelInfo{name, params, ""});
    // The deliberately broken builds of the first set (MST-safe): the reservation order swapped,
    // and a content search that ignores T. The lockstep test must catch both.
    if (!v.empty())
      for (const auto& [suffix, bug] : {std::pair<const char*, int>{"_bug_order", 1}, {"_bug_cam", 2}}) {
        MwRtlModelInfo b = v[0];
        b.name += suffix;
        b.test_hook = fmt::format("Bug={}", bug);
        b.params["Bug"] = bug;
        v.push_back(b);
      }
    return v;
  }();
  return models;
}

const MwRtlModelInfo& find_mway_rtl_model(const std::string& name) {
  return find_test_set(mway_rtl_test_models(), name, "m-way RTL");
}

void install_mway_rtl_fabrics() {
  MwayRtlLibrary lib;
  lib.check = [](const MwayParams& p) { mway_rtl_model_of(p); };
  lib.make = [](sc_core::sc_module_name name, const MwayParams& p) -> std::unique_ptr<MwayFabricIf> {
    return mway_rtl_model_of(p).make(name, p);
  };
  install_mway_rtl_library(std::move(lib));
}

}  // namespace wormcast
