// The torus router's Verilog parameters from a configuration and back, the test sets of
// rtl/configs.txt, and the model of a parameter set through the on-demand cache.
#include "tb/rtl/rtl_models.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "systemc/common/limits.h"
#include "systemc/ibt/config.h"
#include "systemc/ibt/network.h"

namespace wormcast {

int rtl_param(const std::string& model, const std::map<std::string, int>& params, const char* key) {
  const auto it = params.find(key);
  if (it == params.end()) throw ConfigError("rtl model " + model + ": no parameter " + key);
  return it->second;
}

namespace {
int param(const RtlModelInfo& m, const char* key) { return rtl_param(m.name, m.params, key); }

/// The iBT parameters may be left out of a torus configuration, and PipelineStaged of a lumped one
/// (rtl/configs.txt).
int param_or(const RtlModelInfo& m, const char* key, int def) {
  const auto it = m.params.find(key);
  return it == m.params.end() ? def : it->second;
}

bool is_ibt(const RtlModelInfo& m) { return param_or(m, "IbtLens", 0) != 0; }

bool g_trace = false;

// The limits of wc_router_top (rtl/wc_pkg.sv, rtl/wc_router_top.sv).
constexpr int kMaxDims = 4, kMaxPorts = 16, kMaxVcs = 16, kMaxBufDepth = 64, kMaxDelay = 8, kMaxIbtLens = 4;
// wc_router_top Allocator (wc_pkg::AllocatorInputFirst, AllocatorOutputFirst, AllocatorIslip).
constexpr int kAllocatorInputFirst = 0, kAllocatorOutputFirst = 1, kAllocatorIslip = 2;

void at_most(const char* key, int value, int lo, int hi, const char* why) {
  if (value < lo || value > hi)
    throw ConfigError(fmt::format("config: {} = {} is beyond the Verilog router (router.model = rtl or mixed); "
                                  "allowed: {}..{} ({}), or router.model = sc",
                                  key, value, lo, hi, why));
}
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
  // Only where set: the ibt family has no router.vc_class (a set without VcClassEntry is hop).
  if (param_or(*this, "VcClassEntry", 0) != 0) ov.emplace_back("router.vc_class", "entry");
  ov.emplace_back("router.pipeline", param_or(*this, "PipelineStaged", 0) != 0 ? "staged" : "lumped");
  // The allocator parameters may be left out of an input-first configuration (rtl/configs.txt).
  const int allocator = param_or(*this, "Allocator", kAllocatorInputFirst);
  if (allocator < kAllocatorInputFirst || allocator > kAllocatorIslip)
    throw ConfigError(fmt::format("rtl model {}: Allocator = {}; allowed: 0..2", name, allocator));
  const char* allocator_name[] = {"input-first", "output-first", "islip"};
  if (allocator != kAllocatorInputFirst) ov.emplace_back("router.allocator", allocator_name[allocator]);
  if (allocator == kAllocatorIslip) {
    ov.emplace_back("router.islip_iterations", std::to_string(param_or(*this, "IslipIters", 1)));
    ov.emplace_back("router.switch_accept", param_or(*this, "SwitchAcceptPort", 0) != 0 ? "port" : "vc");
  }
  return load_config("", ov);
}

RouterParams RtlModelInfo::router_params() const {
  const Config c = config();
  return is_ibt(*this) ? ibt_router_params(c) : derive_router_params(c.net, c.part<RouterConfig>());
}

std::shared_ptr<const PortRouting> RtlModelInfo::routing() const {
  return is_ibt(*this) ? ibt_routing(config()) : nullptr;
}

RtlBuildSpec RtlModelInfo::build_spec(bool trace) const {
  RtlBuildSpec s;
  s.family = "torus";
  s.files = "files.f";
  s.systemc = false;
  s.trace = trace;
  std::string what;
  for (const auto& [k, v] : params) what += fmt::format(" {}={}", k, v);
  s.description = name + (name.find(' ') == std::string::npos ? " (" + what.substr(1) + ")" : "");
  RtlUnit u{"wc_router_top", "Vwc_torus", {}};
  for (const auto& [k, v] : params) u.gargs.push_back(fmt::format("-G{}={}", k, v));
  s.units.push_back(u);
  return s;
}

std::unique_ptr<RtlRouterBase> RtlModelInfo::make(const char* inst, const RouterParams& p, const sw::Topology& topo,
                                                  int node, int reset_cycles) const {
  return load().make_router(inst, p, topo, node, reset_cycles);
}

const RtlPlugin& RtlModelInfo::load() const {
  const RtlPlugin& plugin = load_rtl_plugin(build_spec(g_trace));
  if (!plugin.make_router) throw ConfigError("rtl: the model of " + name + " is not a torus router");
  if (g_trace) plugin.trace_ever_on();
  return plugin;
}

void enable_rtl_model_tracing() { g_trace = true; }

RtlModelInfo rtl_model_of(const Config& cfg) {
  const NetConfig& net = cfg.net;
  const RouterConfig& r = cfg.part<RouterConfig>();
  const bool ibt = net.family == "ibt";
  if (net.family != "torus" && !ibt)
    throw ConfigError(fmt::format("config: net.family = {} has no Verilog torus router; allowed: torus or ibt",
                                  net.family));
  const RouterParams p = ibt ? ibt_router_params(cfg) : derive_router_params(net, r);
  const int dims = int(net.radix.size());
  at_most("net.radix (dimensions)", dims, 1, kMaxDims, "wc_pkg MaxDims");
  RtlModelInfo m;
  const char* radix_key[] = {"Radix0", "Radix1", "Radix2", "Radix3"};
  at_most("net.radix (nodes)", int(std::min<int64_t>(net.nodes(), 1 << 30)), 1, limits::kMaxRtlNodes,
          "a 16-bit destination in the flit word");
  int torus = 0;
  for (int d = 0; d < kMaxDims; ++d) {
    const int k = d < dims ? net.radix[size_t(d)] : 2;
    if (d < dims) at_most("net.radix", k, 2, limits::kMaxRtlRadix, "one coordinate in 8 bits");
    m.params[radix_key[d]] = k;
    if (d < dims && (ibt || net.torus[size_t(d)])) torus |= 1 << d;
  }
  at_most("router ports (network + local)", p.num_ports(), 1, kMaxPorts, "wc_pkg MaxPorts");
  at_most("router.vcs_per_class (VCs per port)", p.num_vcs, 1, kMaxVcs, "a 4-bit VC field");
  at_most("router.buffer_depth", r.buffer_depth, 1, kMaxBufDepth, "wc_router_top BufDepth");
  at_most("router.router_delay", r.router_delay, 1, kMaxDelay, "wc_router_top RouterDelay");
  at_most("router.link_delay", r.link_delay, 0, kMaxDelay, "wc_router_top LinkDelay");
  at_most("router.credit_delay", r.credit_delay, 0, kMaxDelay, "wc_router_top CreditDelay");
  if (p.adaptive || p.valiant)
    throw ConfigError("config: router.routing = min-adaptive and valiant are SystemC only; allowed with router.model "
                      "= rtl or mixed: dor (the routing the Verilog router implements)");
  const bool staged = r.pipeline == RouterPipeline::Staged;
  if (staged && r.router_delay < 3)
    throw ConfigError(fmt::format("config: router.router_delay = {} is invalid with router.pipeline = staged; "
                                  "allowed: 3..8 (a head's route and VC allocation stages before its switch "
                                  "allocation and traversal)",
                                  r.router_delay));
  m.params["NumDims"] = dims;
  m.params["Torus"] = torus;
  m.params["NumLocal"] = p.local;
  m.params["VcsPerClass"] = r.vcs_per_class;
  m.params["Dateline"] = r.dateline ? 1 : 0;
  m.params["BufDepth"] = r.buffer_depth;
  m.params["RouterDelay"] = r.router_delay;
  m.params["LinkDelay"] = r.link_delay;
  m.params["CreditDelay"] = r.credit_delay;
  m.params["VcReallocTail"] = r.vc_realloc == VcRealloc::Tail ? 1 : 0;
  // Only where the rule has two classes to choose from (router.vc_class = entry with
  // router.dateline = false given on the command line changes nothing), so that a hop router's
  // parameter set (and its model) is the one without it.
  const bool entry = r.vc_class == VcClassRule::Entry && p.classes == 2;
  if (entry) m.params["VcClassEntry"] = 1;
  // Only when staged: a lumped router's parameter set, and so its cached model, is unchanged.
  if (staged) m.params["PipelineStaged"] = 1;
  // The allocator parameters only where they differ from input-first, so that an input-first
  // configuration names the model it always did (rtl/configs.txt leaves them out too).
  std::string allocator;
  if (r.allocator == RouterAllocator::OutputFirst) {
    m.params["Allocator"] = kAllocatorOutputFirst;
    allocator = " output-first";
  } else if (r.allocator == RouterAllocator::Islip) {
    m.params["Allocator"] = kAllocatorIslip;
    m.params["IslipIters"] = r.islip_iterations;
    m.params["SwitchAcceptPort"] = r.switch_accept == SwitchAccept::Port ? 1 : 0;
    allocator = fmt::format(" islip{} {}", r.islip_iterations, r.switch_accept == SwitchAccept::Port ? "port" : "vc");
  }
  // The network as its spec names it: ibt, torus, mesh, or each dimension's kind (torus,mesh,...).
  std::string kind = ibt ? "ibt" : torus == (1 << dims) - 1 ? "torus" : torus == 0 ? "mesh" : "";
  if (kind.empty())
    for (int d = 0; d < dims; ++d) kind += std::string(d ? "," : "") + ((torus >> d & 1) != 0 ? "torus" : "mesh");
  std::string name = fmt::format("{} {}", kind, fmt::join(net.radix, "x"));
  if (ibt) {
    const IbtConfig& b = cfg.part<IbtConfig>();
    if (b.routing == IbtRouting::Shortest)
      throw ConfigError("config: ibt.routing = shortest is SystemC only; allowed with router.model = rtl or mixed: "
                        "dor or bypass (the routings the Verilog router implements)");
    at_most("ibt.bypass (lengths)", int(b.bypass.size()), 1, kMaxIbtLens, "wc_pkg MaxIbtLens");
    m.params["IbtLens"] = int(b.bypass.size());
    const char* len_key[] = {"IbtLen0", "IbtLen1", "IbtLen2", "IbtLen3"};
    for (int j = 0; j < kMaxIbtLens; ++j) m.params[len_key[j]] = j < int(b.bypass.size()) ? b.bypass[size_t(j)] : 4;
    m.params["IbtRouting"] = b.routing == IbtRouting::Bypass ? 1 : 0;
    name += fmt::format(" <{}> {}", fmt::join(b.bypass, ","), b.routing == IbtRouting::Bypass ? "bypass" : "dor");
  }
  m.name = fmt::format("{} V={} B={} R={} Ld={} Cd={}{}{}{}{}", name, r.vcs_per_class, r.buffer_depth, r.router_delay,
                       r.link_delay, r.credit_delay, p.local == 1 ? " one-port" : "", r.dateline ? "" : " no-dateline",
                       r.vc_realloc == VcRealloc::Tail ? " tail" : "", allocator);
  if (entry) m.name += " entry";
  if (staged) m.name += " staged";
  return m;
}

std::vector<std::pair<std::string, std::map<std::string, int>>> read_rtl_sets(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("rtl: cannot read " + path);
  std::vector<std::pair<std::string, std::map<std::string, int>>> sets;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || !std::isalpha(static_cast<unsigned char>(line[0]))) continue;
    std::istringstream words(line);
    std::pair<std::string, std::map<std::string, int>> s;
    words >> s.first;
    for (std::string kv; words >> kv;) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) throw ConfigError("rtl: " + path + ": '" + kv + "' is not Name=value");
      s.second[kv.substr(0, eq)] = std::stoi(kv.substr(eq + 1));
    }
    sets.push_back(s);
  }
  return sets;
}

const std::vector<RtlModelInfo>& rtl_test_models() {
  static const std::vector<RtlModelInfo> models = [] {
    std::vector<RtlModelInfo> v;
    for (auto& [name, params] : read_rtl_sets(rtl_source_dir() + "/configs.txt"))
      v.push_back(RtlModelInfo{name, params, ""});
    // The deliberately broken builds, each a test set with one test-hook parameter: the lockstep
    // tests must catch them. BugSaPtr: the switch-allocator output pointers stay on the winner
    // (the first set); BugIbtTie: the iBT bypass plan prefers minus on a tie of plus and minus.
    const std::vector<std::pair<std::string, std::string>> mutants = {{v.empty() ? "" : v[0].name, "BugSaPtr"},
                                                                      {"ibt16x16_b4", "BugIbtTie"}};
    for (const auto& [base, hook] : mutants)
      for (size_t i = 0, n = v.size(); i < n; ++i)
        if (v[i].name == base) {
          RtlModelInfo bug = v[i];
          bug.name += "_bug";
          bug.test_hook = hook + "=1";
          bug.params[hook] = 1;
          v.push_back(bug);
        }
    return v;
  }();
  return models;
}

const RtlModelInfo& find_rtl_model(const std::string& name) { return find_test_set(rtl_test_models(), name, "RTL"); }

}  // namespace wormcast
