// The configuration schema (every key, default and allowed range in one table), YAML loading,
// overrides and validation.
#include "systemc/common/config.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "systemc/torus/router_models.h"

namespace wormcast {
namespace {

using Values = std::map<std::string, std::string>;

struct Field {
  const char* key;
  const char* def;
  const char* allowed;  ///< shown in errors and in the reference
  const char* help;
  std::function<void(Config&, const std::string&, const Field&)> apply;
};

[[noreturn]] void bad(const Field& f, const std::string& v) {
  throw ConfigError(fmt::format("config: {} = '{}' is invalid; allowed: {}", f.key, v, f.allowed));
}

int64_t to_int(const Field& f, const std::string& v, int64_t lo, int64_t hi) {
  size_t pos = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &pos, 0);
  } catch (...) {
    bad(f, v);
  }
  if (pos != v.size() || x < lo || x > hi) bad(f, v);
  return x;
}

double to_real(const Field& f, const std::string& v, double lo, double hi) {
  size_t pos = 0;
  double x = 0;
  try {
    x = std::stod(v, &pos);
  } catch (...) {
    bad(f, v);
  }
  if (pos != v.size() || !(x >= lo && x <= hi)) bad(f, v);
  return x;
}

bool to_bool(const Field& f, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad(f, v);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

template <class E>
E to_choice(const Field& f, const std::string& v, std::initializer_list<std::pair<const char*, E>> c) {
  for (auto& [name, e] : c)
    if (v == name) return e;
  bad(f, v);
}

#define INT_FIELD(KEY, DEF, LO, HI, MEMBER, HELP)                                          \
  Field {                                                                                  \
    KEY, DEF, #LO ".." #HI, HELP, [](Config& c, const std::string& v, const Field& f) {     \
      c.MEMBER = decltype(c.MEMBER)(to_int(f, v, LO, HI));                                 \
    }                                                                                      \
  }

const std::vector<Field>& schema() {
  static const std::vector<Field> fields = {
      {"net.radix", "8x8", "k0xk1x... with 1..4 dimensions, each radix 2..256, at most 65536 nodes",
       "radix per dimension, dimension 0 first",
       [](Config& c, const std::string& v, const Field& f) {
         auto parts = split(v, 'x');
         if (parts.empty() || parts.size() > 4) bad(f, v);
         c.net.radix.clear();
         int64_t nodes = 1;
         for (auto& p : parts) {
           c.net.radix.push_back(int(to_int(f, p, 2, 256)));
           nodes *= c.net.radix.back();
         }
         if (nodes > 65536) bad(f, v);
       }},
      {"net.topology", "torus", "torus, mesh, or a comma list with one of them per dimension",
       "wraparound links per dimension",
       [](Config& c, const std::string& v, const Field& f) {
         auto parts = split(v, ',');
         std::vector<bool> t;
         for (auto& p : parts) t.push_back(to_choice<bool>(f, p, {{"torus", true}, {"mesh", false}}));
         if (t.size() == 1) t.assign(c.net.radix.size(), t[0]);
         if (t.size() != c.net.radix.size()) bad(f, v);
         c.net.torus = t;
       }},
      {"router.model", "sc", "sc, rtl or mixed",
       "router implementation: SystemC, the Verilated Verilog twin (needs a matching rtl/configs.txt "
       "entry), or mixed (RTL where the coordinate sum is even)",
       [](Config& c, const std::string& v, const Field& f) {
         c.router.model = to_choice<RouterModel>(
             f, v, {{"sc", RouterModel::SystemC}, {"rtl", RouterModel::Rtl}, {"mixed", RouterModel::Mixed}});
       }},
      {"router.local_ports", "all", "all (2n injection/ejection channels) or one",
       "port model: all-port or one-port",
       [](Config& c, const std::string& v, const Field& f) {
         c.router.local_ports = to_choice<LocalPorts>(f, v, {{"all", LocalPorts::All}, {"one", LocalPorts::One}});
       }},
      INT_FIELD("router.vcs_per_class", "1", 1, 8, router.vcs_per_class, "V: virtual channels per dateline class"),
      {"router.dateline", "true", "true or false", "two VC classes (p, l/h) on tori; false = one class (can deadlock)",
       [](Config& c, const std::string& v, const Field& f) { c.router.dateline = to_bool(f, v); }},
      INT_FIELD("router.buffer_depth", "4", 1, 64, router.buffer_depth, "B: flits per VC buffer"),
      INT_FIELD("router.router_delay", "1", 1, 8, router.router_delay, "R: cycles from buffer write to switch"),
      INT_FIELD("router.link_delay", "0", 0, 8, router.link_delay, "Ld: extra cycles per network link"),
      INT_FIELD("router.credit_delay", "0", 0, 8, router.credit_delay, "Cd: extra cycles before a credit is usable"),
      INT_FIELD("nic.ts", "0", 0, 1000000, nic.ts, "t_s: software send latency, cycles per send"),
      INT_FIELD("nic.tr", "0", 0, 1000000, nic.tr, "t_r: software receive latency, cycles"),
      INT_FIELD("nic.max_packet", "64", 1, 4096, nic.max_packet, "maximum packet length, flits"),
      {"traffic.pattern", "uniform", "uniform, transpose, bitcomp, tornado, neighbor, hotspot",
       "destination pattern",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.pattern = to_choice<Pattern>(
             f, v,
             {{"uniform", Pattern::Uniform}, {"transpose", Pattern::Transpose},
              {"bitcomp", Pattern::BitComplement}, {"tornado", Pattern::Tornado},
              {"neighbor", Pattern::Neighbor}, {"hotspot", Pattern::Hotspot}});
       }},
      {"traffic.mode", "bernoulli", "bernoulli (packets) or message (messages through the NIC's t_s)",
       "injection process",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.mode = to_choice<InjectionMode>(
             f, v, {{"bernoulli", InjectionMode::Bernoulli}, {"message", InjectionMode::Message}});
       }},
      {"traffic.rate", "0.1", "0..1 (flits per node per cycle)", "offered load",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.rate = to_real(f, v, 0.0, 1.0); }},
      INT_FIELD("traffic.packet_len", "5", 1, 4096, traffic.packet_len, "packet length, flits (bernoulli mode)"),
      INT_FIELD("traffic.message_len", "16", 1, 1000000, traffic.message_len, "message length, flits (message mode)"),
      {"traffic.hotspots", "0", "comma list of node ids 0..N-1", "hotspot destinations",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.hotspots.clear();
         for (auto& p : split(v, ',')) c.traffic.hotspots.push_back(int(to_int(f, p, 0, 65535)));
         if (c.traffic.hotspots.empty()) bad(f, v);
       }},
      {"traffic.hotspot_fraction", "0.1", "0..1", "share of packets sent to a hotspot",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.hotspot_fraction = to_real(f, v, 0.0, 1.0); }},
      INT_FIELD("sim.warmup", "1000", 0, 1000000000, sim.warmup, "cycles before measurement"),
      INT_FIELD("sim.measure", "10000", 1, 1000000000, sim.measure, "measured cycles"),
      INT_FIELD("sim.drain", "100000", 0, 1000000000, sim.drain, "maximum cycles to drain measured packets"),
      INT_FIELD("sim.seed", "1", 0, 0x7fffffffffffffffLL, sim.seed, "random seed"),
      INT_FIELD("sim.watchdog", "2000", 1, 1000000000, sim.watchdog, "deadlock watchdog, cycles without progress"),
      {"sim.progress", "auto", "auto, on, off", "progress line on stderr (auto: only on a terminal)",
       [](Config& c, const std::string& v, const Field& f) {
         if (v != "auto" && v != "on" && v != "off") bad(f, v);
         c.sim.progress = v;
       }},
  };
  return fields;
}

void flatten(const YAML::Node& node, const std::string& prefix, Values& out) {
  if (node.IsMap()) {
    for (auto it : node) {
      const std::string k = it.first.as<std::string>();
      flatten(it.second, prefix.empty() ? k : prefix + "." + k, out);
    }
  } else if (node.IsSequence()) {
    std::string joined;
    const char sep = prefix == "net.radix" ? 'x' : ',';
    for (size_t i = 0; i < node.size(); ++i) {
      if (i) joined += sep;
      joined += node[i].as<std::string>();
    }
    out[prefix] = joined;
  } else if (node.IsScalar()) {
    out[prefix] = node.as<std::string>();
  } else if (!node.IsNull()) {
    throw ConfigError(fmt::format("config: {} has an unsupported YAML value", prefix));
  }
}

}  // namespace

sw::Topology NetConfig::topology() const {
  int r[sw::kMaxDims] = {1, 1, 1, 1};
  bool t[sw::kMaxDims] = {false, false, false, false};
  for (size_t d = 0; d < radix.size(); ++d) {
    r[d] = radix[d];
    t[d] = torus[d];
  }
  return sw::Topology(int(radix.size()), r, t);
}

RouterParams derive_router_params(const NetConfig& net, const RouterConfig& r) {
  RouterParams p;
  p.dims = int(net.radix.size());
  p.local = r.local_ports == LocalPorts::All ? 2 * p.dims : 1;
  const bool any_torus = std::find(net.torus.begin(), net.torus.end(), true) != net.torus.end();
  p.classes = (r.dateline && any_torus) ? 2 : 1;
  p.vcs_per_class = r.vcs_per_class;
  p.num_vcs = p.classes * r.vcs_per_class;
  p.buffer_depth = r.buffer_depth;
  p.router_delay = r.router_delay;
  p.link_delay = r.link_delay;
  p.credit_delay = r.credit_delay;
  return p;
}

Overrides net_spec_overrides(const std::string& option, const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw ConfigError(fmt::format("{} '{}': expected KIND:SHAPE, e.g. torus:8x8, mesh:4x4x4, torus,mesh:8x4", option, spec));
  return {{"net.topology", spec.substr(0, colon)}, {"net.radix", spec.substr(colon + 1)}};
}

std::pair<std::string, std::string> parse_override(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set '{}': expected key=value, e.g. router.buffer_depth=8", arg));
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

Config load_config(const std::string& yaml_path, const Overrides& overrides) {
  Values values;
  if (!yaml_path.empty()) {
    YAML::Node root;
    try {
      root = YAML::LoadFile(yaml_path);
    } catch (const YAML::BadFile&) {
      throw ConfigError(fmt::format("config: cannot read '{}'", yaml_path));
    } catch (const YAML::Exception& e) {
      throw ConfigError(fmt::format("config: '{}': {}", yaml_path, e.msg));
    }
    flatten(root, "", values);
  }
  for (auto& [k, v] : overrides) values[k] = v;

  std::set<std::string> known;
  for (auto& f : schema()) known.insert(f.key);
  for (auto& [k, v] : values)
    if (!known.count(k))
      throw ConfigError(fmt::format("config: unknown key '{}' (see `wormcast config` for the keys)", k));

  Config c;
  for (auto& f : schema()) {
    auto it = values.find(f.key);
    f.apply(c, it == values.end() ? std::string(f.def) : it->second, f);
  }
  const int nodes = c.net.topology().num_nodes();
  for (int h : c.traffic.hotspots)
    if (h >= nodes)
      throw ConfigError(fmt::format("config: traffic.hotspots = {} is invalid; allowed: node ids 0..{}", h, nodes - 1));
  if (derive_router_params(c.net, c.router).num_vcs > 16)
    throw ConfigError("config: router.vcs_per_class is invalid; allowed: at most 16 VCs per port (8 with dateline classes)");
  if (c.router.model != RouterModel::SystemC) rtl_router_maker(c);  // throws when no RTL build matches
  return c;
}

nlohmann::json Config::echo() const {
  nlohmann::json j;
  std::string radix_s;
  for (size_t d = 0; d < net.radix.size(); ++d) radix_s += (d ? "x" : "") + std::to_string(net.radix[d]);
  std::string topo;
  for (size_t d = 0; d < net.torus.size(); ++d) topo += std::string(d ? "," : "") + (net.torus[d] ? "torus" : "mesh");
  if (std::all_of(net.torus.begin(), net.torus.end(), [](bool t) { return t; })) topo = "torus";
  if (std::none_of(net.torus.begin(), net.torus.end(), [](bool t) { return t; })) topo = "mesh";
  static const char* patterns[] = {"uniform", "transpose", "bitcomp", "tornado", "neighbor", "hotspot"};
  std::string hs;
  for (size_t i = 0; i < traffic.hotspots.size(); ++i) hs += (i ? "," : "") + std::to_string(traffic.hotspots[i]);
  j["net"] = {{"radix", radix_s}, {"topology", topo}};
  static const char* models[] = {"sc", "rtl", "mixed"};
  j["router"] = {{"model", models[int(router.model)]},
                 {"local_ports", router.local_ports == LocalPorts::All ? "all" : "one"},
                 {"vcs_per_class", router.vcs_per_class},
                 {"dateline", router.dateline},
                 {"buffer_depth", router.buffer_depth},
                 {"router_delay", router.router_delay},
                 {"link_delay", router.link_delay},
                 {"credit_delay", router.credit_delay}};
  j["nic"] = {{"ts", nic.ts}, {"tr", nic.tr}, {"max_packet", nic.max_packet}};
  j["traffic"] = {{"pattern", patterns[int(traffic.pattern)]},
                  {"mode", traffic.mode == InjectionMode::Bernoulli ? "bernoulli" : "message"},
                  {"rate", traffic.rate},
                  {"packet_len", traffic.packet_len},
                  {"message_len", traffic.message_len},
                  {"hotspots", hs},
                  {"hotspot_fraction", traffic.hotspot_fraction}};
  j["sim"] = {{"warmup", sim.warmup}, {"measure", sim.measure}, {"drain", sim.drain},
              {"seed", sim.seed},     {"watchdog", sim.watchdog}, {"progress", sim.progress}};
  return j;
}

std::string config_reference() {
  std::string s;
  for (auto& f : schema()) s += fmt::format("  {:<26} default {:<10} {}\n  {:<26} allowed: {}\n", f.key, f.def, f.help, "", f.allowed);
  return s;
}

}  // namespace wormcast
