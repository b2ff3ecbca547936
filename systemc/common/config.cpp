// The configuration schema (every key, its family, default and allowed range in one table), YAML
// loading, overrides, validation and the echo generated from the same table.
#include "systemc/common/config.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <charconv>
#include <fstream>
#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "systemc/common/family.h"
#include "systemc/common/lanes.h"
#include "systemc/common/limits.h"

namespace wormcast {
namespace {

using Values = std::map<std::string, std::string>;

struct Field {
  const char* key;
  const char* families;  ///< nullptr: every family; else a comma list ("torus", "torus,ibt")
  const char* def;
  const char* allowed;  ///< shown in errors and in the reference
  const char* help;
  std::function<void(Config&, const std::string&, const Field&)> apply;
  std::function<nlohmann::json(const Config&)> show;  ///< the effective value, for echo()
};

/// Edit distance (insertions, deletions, substitutions) between a and b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// "; did you mean 'router.buffer_depth'?" for the schema key nearest to an unknown one: within
/// a third of its length in edits, or the only key with the same name after the section.
std::string nearest_key_hint(const std::string& key);

bool in_family(const Field& f, const std::string& family) {
  if (!f.families) return true;
  for (auto& p : split_list(f.families, ','))
    if (p == family) return true;
  return false;
}

[[noreturn]] void bad(const Field& f, const std::string& v) {
  throw ConfigError(fmt::format("config: {} = '{}' is invalid; allowed: {}", f.key, v, f.allowed));
}

int64_t to_int(const Field& f, const std::string& v, int64_t lo, int64_t hi) {
  try {
    return parse_int(f.key, v, lo, hi);
  } catch (const ConfigError&) {
    bad(f, v);
  }
}

double to_real(const Field& f, const std::string& v, double lo, double hi) {
  try {
    return parse_real(f.key, v, lo, hi);
  } catch (const ConfigError&) {
    bad(f, v);
  }
}

bool to_bool(const Field& f, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad(f, v);
}

/// One name table per enum, used both to parse and to echo.
template <class E>
using Choices = std::vector<std::pair<const char*, E>>;

const Choices<RouterModel> kRouterModels = {{"sc", RouterModel::SystemC}, {"rtl", RouterModel::Rtl}, {"mixed", RouterModel::Mixed}};
const Choices<LocalPorts> kLocalPorts = {{"all", LocalPorts::All}, {"one", LocalPorts::One}};
const Choices<Pattern> kPatterns = {{"uniform", Pattern::Uniform},   {"transpose", Pattern::Transpose},
                                    {"bitcomp", Pattern::BitComplement}, {"tornado", Pattern::Tornado},
                                    {"neighbor", Pattern::Neighbor}, {"hotspot", Pattern::Hotspot},
                                    {"bitrev", Pattern::BitReverse}, {"shuffle", Pattern::Shuffle},
                                    {"butterfly", Pattern::Butterfly}, {"randperm", Pattern::RandPerm}};
const Choices<InjectionProcess> kProcesses = {{"bernoulli", InjectionProcess::Bernoulli}, {"onoff", InjectionProcess::OnOff}};
const Choices<RegionMode> kRegions = {{"all", RegionMode::All}, {"random", RegionMode::Random}};
const Choices<VcRealloc> kVcRealloc = {{"empty", VcRealloc::Empty}, {"tail", VcRealloc::Tail}};
const Choices<RouterRouting> kRoutings = {
    {"dor", RouterRouting::Dor}, {"min-adaptive", RouterRouting::MinAdaptive}, {"valiant", RouterRouting::Valiant}};
const Choices<RouterPreset> kPresets = {{"none", RouterPreset::None}, {"booksim-iq", RouterPreset::BooksimIq}};
// router.preset = booksim-iq: the keys it sets unless given (docs/router.md section 11). An
// input-queued router of four 1-cycle stages (route, VC allocation, switch allocation, switch
// traversal: R = 4) and 1-cycle channels (Ld = 1 and one extra cycle on the injection and on
// the ejection channel), output VCs freed at the tail, one-iteration iSLIP allocators, k/2 ties
// broken at random per packet.
const std::pair<const char*, const char*> kBooksimIq[] = {
    {"router.router_delay", "4"},     {"router.link_delay", "1"},      {"router.credit_delay", "0"},
    {"router.injection_delay", "1"},  {"router.ejection_delay", "1"},  {"router.vc_realloc", "tail"},
    {"router.allocator", "islip"},    {"router.islip_iterations", "1"}, {"traffic.tie", "random"}};
const Choices<RouterAllocator> kAllocators = {{"input-first", RouterAllocator::InputFirst},
                                              {"output-first", RouterAllocator::OutputFirst},
                                              {"islip", RouterAllocator::Islip}};
const Choices<TiePolicy> kTiePolicies = {{"plus", TiePolicy::Plus}, {"random", TiePolicy::Random}, {"balanced", TiePolicy::Balanced}};
const Choices<IbtRouting> kIbtRoutings = {{"dor", IbtRouting::Dor}, {"bypass", IbtRouting::Bypass}};
const Choices<InjectionMode> kModes = {{"bernoulli", InjectionMode::Bernoulli}, {"message", InjectionMode::Message}};

template <class E>
E to_choice(const Field& f, const std::string& v, const Choices<E>& c) {
  for (auto& [name, e] : c)
    if (v == name) return e;
  bad(f, v);
}

template <class E>
std::string name_of(const Choices<E>& c, E e) {
  for (auto& [name, x] : c)
    if (x == e) return name;
  return "?";
}

template <class T>
std::string join(const std::vector<T>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + fmt::format("{}", v[i]);
  return s;
}

#define INT_FIELD(KEY, FAM, DEF, LO, HI, MEMBER, HELP)                                         \
  Field {                                                                                      \
    KEY, FAM, DEF, #LO ".." #HI, HELP,                                                         \
        [](Config& c, const std::string& v, const Field& f) {                                 \
          c.MEMBER = decltype(c.MEMBER)(to_int(f, v, LO, HI));                                 \
        },                                                                                     \
        [](const Config& c) { return nlohmann::json(c.MEMBER); }                               \
  }

#define CHOICE_FIELD(KEY, FAM, DEF, TABLE, MEMBER, ALLOWED, HELP)                              \
  Field {                                                                                      \
    KEY, FAM, DEF, ALLOWED, HELP,                                                              \
        [](Config& c, const std::string& v, const Field& f) { c.MEMBER = to_choice(f, v, TABLE); }, \
        [](const Config& c) { return nlohmann::json(name_of(TABLE, c.MEMBER)); }               \
  }

const char* const kTorus = "torus";
const char* const kMway = "mway";
const char* const kIbt = "ibt";
/// The torus router's keys: the torus family and the interlaced bypass torus built of the same router.
const char* const kTorusRouter = "torus,ibt";

static_assert(kMaxLanes == 8, "sim.threads names the range 1..8");

const std::vector<Field>& schema() {
  static const std::vector<Field> fields = {
      {"net.family", nullptr, "torus", "a registered router family (see the list below)",
       "router family: which routers, links and NIC adapters build the network",
       [](Config& c, const std::string& v, const Field&) { c.net.family = v; },  // checked in load_config
       [](const Config& c) { return nlohmann::json(c.net.family); }},
      {"net.radix", nullptr, "8x8", "k0xk1x... with 1..16 dimensions (torus family: 1..4), each radix 2..256, at most 65536 nodes",
       "radix per dimension, dimension 0 first",
       [](Config& c, const std::string& v, const Field& f) {
         auto parts = split_list(v, 'x');
         if (parts.empty() || parts.size() > size_t(sw::kMaxDims)) bad(f, v);
         c.net.radix.clear();
         int64_t nodes = 1;
         for (auto& p : parts) {
           c.net.radix.push_back(int(to_int(f, p, 2, limits::kMaxRadix)));
           nodes *= c.net.radix.back();
         }
         if (nodes > limits::kMaxNodes) bad(f, v);
         c.net.torus.resize(c.net.radix.size(), c.net.torus.empty() ? true : c.net.torus.back());
       },
       [](const Config& c) { return nlohmann::json(join(c.net.radix, "x")); }},
      {"net.topology", kTorus, "torus", "torus, mesh, or a comma list with one of them per dimension",
       "wraparound links per dimension",
       [](Config& c, const std::string& v, const Field& f) {
         std::vector<bool> t;
         for (auto& p : split_list(v, ',')) {
           if (p != "torus" && p != "mesh") bad(f, v);
           t.push_back(p == "torus");
         }
         if (t.size() == 1) t.assign(c.net.radix.size(), t[0]);
         if (t.size() != c.net.radix.size()) bad(f, v);
         c.net.torus = t;
       },
       [](const Config& c) {
         const auto& t = c.net.torus;
         if (std::all_of(t.begin(), t.end(), [](bool x) { return x; })) return nlohmann::json("torus");
         if (std::none_of(t.begin(), t.end(), [](bool x) { return x; })) return nlohmann::json("mesh");
         std::string s;
         for (size_t d = 0; d < t.size(); ++d) s += std::string(d ? "," : "") + (t[d] ? "torus" : "mesh");
         return nlohmann::json(s);
       }},
      CHOICE_FIELD("router.model", kTorusRouter, "sc", kRouterModels, router.model, "sc, rtl or mixed",
                   "router implementation: SystemC, the Verilated Verilog twin (needs a matching rtl/configs.txt "
                   "entry), or mixed (RTL where the coordinate sum is even)"),
      CHOICE_FIELD("router.local_ports", kTorusRouter, "all", kLocalPorts, router.local_ports,
                   "all (2n injection/ejection channels) or one", "port model: all-port or one-port"),
      INT_FIELD("router.vcs_per_class", kTorusRouter, "1", 1, 8, router.vcs_per_class, "V: virtual channels per dateline class"),
      {"router.dateline", kTorusRouter, "true", "true or false", "two VC classes (p, l/h) on tori; false = one class (can deadlock)",
       [](Config& c, const std::string& v, const Field& f) { c.router.dateline = to_bool(f, v); },
       [](const Config& c) { return nlohmann::json(c.router.dateline); }},
      INT_FIELD("router.buffer_depth", kTorusRouter, "4", 1, 64, router.buffer_depth, "B: flits per VC buffer"),
      INT_FIELD("router.router_delay", kTorusRouter, "1", 1, 8, router.router_delay, "R: cycles from buffer write to switch"),
      INT_FIELD("router.link_delay", kTorusRouter, "0", 0, 8, router.link_delay, "Ld: extra cycles per network link"),
      INT_FIELD("router.credit_delay", kTorusRouter, "0", 0, 8, router.credit_delay, "Cd: extra cycles before a credit is usable"),
      CHOICE_FIELD("router.vc_realloc", kTorusRouter, "empty", kVcRealloc, router.vc_realloc, "empty or tail",
                   "when an output VC takes the next packet: its downstream buffer empty and every credit back, "
                   "or once the previous tail has been sent"),
      CHOICE_FIELD("router.allocator", kTorusRouter, "input-first", kAllocators, router.allocator,
                   "input-first, output-first or islip",
                   "separable allocator of VC and switch allocation (router.model = rtl: input-first only)"),
      INT_FIELD("router.islip_iterations", kTorusRouter, "1", 1, 8, router.islip_iterations,
                "iterations of the islip allocator"),
      INT_FIELD("router.injection_delay", kTorusRouter, "0", 0, 8, router.injection_delay,
                "Di: extra cycles a flit spends on an injection channel (NIC to router)"),
      INT_FIELD("router.ejection_delay", kTorusRouter, "0", 0, 8, router.ejection_delay,
                "De: extra cycles a flit spends on an ejection channel (router to NIC)"),
      CHOICE_FIELD("router.routing", kTorus, "dor", kRoutings, router.routing, "dor, min-adaptive or valiant",
                   "dimension-order routing; minimal adaptive routing with the dimension-order VCs as escape VCs "
                   "(Duato's protocol; docs/router.md section 12; SystemC); or Valiant's "
                   "two-phase routing, dimension order to a random intermediate node and on to the destination "
                   "on a second VC set (docs/router.md section 13; SystemC only)"),
      INT_FIELD("router.adaptive_vcs", kTorus, "2", 1, 8, router.adaptive_vcs,
                "min-adaptive: adaptive VCs per port, beyond the escape VCs (classes x vcs_per_class)"),
      CHOICE_FIELD("router.preset", kTorusRouter, "none", kPresets, router.preset, "none or booksim-iq",
                   "a named router: booksim-iq sets R 4, Ld 1, Cd 0, Di 1, De 1, vc_realloc tail, allocator islip "
                   "(1 iteration) and traffic.tie random, each unless given"),
      {"mway.algo", kMway, "mst-safe", "unicast, mst, mst-safe, mst-replica, mst-unicast, rd",
       "how a region broadcast travels (docs/mway.md section 8); unicast: dimension-order unicasts only",
       [](Config& c, const std::string& v, const Field& f) {
         for (const char* a : {"unicast", "mst", "mst-safe", "mst-replica", "mst-unicast", "rd"})
           if (v == a) {
             c.mway.algo = v;
             return;
           }
         bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(c.mway.algo); }},
      INT_FIELD("mway.buffers", kMway, "4", 1, 32, mway.buffers, "buffers per router buffer set (DIM+ and DIM-)"),
      INT_FIELD("mway.buffer_length", kMway, "5", 1, 4096, mway.buffer_length,
                "flits per buffer (mst-safe, mst-replica: at least nic.max_packet, a whole packet)"),
      INT_FIELD("mway.injection_buffers", kMway, "4", 1, 32, mway.injection_buffers, "node interface injection buffers"),
      INT_FIELD("mway.ejection_buffers", kMway, "4", 1, 32, mway.ejection_buffers, "node interface ejection buffers"),
      {"ibt.bypass", kIbt, "4", "b1,...,bk: each a positive multiple of d*k (d dimensions, k lengths), below n/2, "
       "n a multiple of d*k",
       "bypass lengths of iBT(n^d; <b1..bk>) (docs/router.md section 10)",
       [](Config& c, const std::string& v, const Field& f) {
         c.ibt.bypass.clear();
         for (auto& p : split_list(v, ',')) c.ibt.bypass.push_back(int(to_int(f, p, 1, limits::kMaxRadix)));
         if (c.ibt.bypass.empty() || c.ibt.bypass.size() > 8) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(join(c.ibt.bypass, ",")); }},
      CHOICE_FIELD("ibt.routing", kIbt, "dor", kIbtRoutings, ibt.routing, "dor or bypass",
                   "dor: dimension order over torus links (bypass links only for node programs); bypass: "
                   "bypass links first where they shorten the path, then dimension order (docs/router.md section 10)"),
      INT_FIELD("nic.ts", nullptr, "0", 0, 1000000, nic.ts, "t_s: software send latency, cycles per send"),
      INT_FIELD("nic.tr", nullptr, "0", 0, 1000000, nic.tr, "t_r: software receive latency, cycles"),
      INT_FIELD("nic.max_packet", nullptr, "64", 1, 4096, nic.max_packet, "maximum packet length, flits"),
      CHOICE_FIELD("traffic.pattern", nullptr, "uniform", kPatterns, traffic.pattern,
                   "uniform, transpose, bitcomp, tornado, neighbor, hotspot, bitrev, shuffle, butterfly, randperm",
                   "destination pattern (bitrev, shuffle, butterfly: 2^b nodes; transpose: radices symmetric)"),
      CHOICE_FIELD("traffic.process", nullptr, "bernoulli", kProcesses, traffic.process, "bernoulli or onoff",
                   "injection process: every cycle independently, or on/off bursts (burst_alpha, burst_beta)"),
      {"traffic.burst_alpha", nullptr, "0.1", "0..1 (exclusive of 0)", "onoff: probability per cycle of off -> on",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.burst_alpha = to_real(f, v, 0.0, 1.0);
         if (c.traffic.burst_alpha <= 0) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(c.traffic.burst_alpha); }},
      {"traffic.burst_beta", nullptr, "0.1", "0..1", "onoff: probability per cycle of on -> off",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.burst_beta = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.burst_beta); }},
      {"traffic.sizes", nullptr, "", "empty, A-B (uniform range), or LEN:WEIGHT,LEN:WEIGHT,... (lengths 1..4096)",
       "packet (message) length distribution; empty: always traffic.packet_len (message_len)",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.sizes.clear();
         if (v.empty()) return;
         const auto dash = v.find('-');
         if (dash != std::string::npos && v.find(':') == std::string::npos) {
           const int a = int(to_int(f, v.substr(0, dash), 1, 4096)), b = int(to_int(f, v.substr(dash + 1), 1, 4096));
           if (a > b) bad(f, v);
           for (int l = a; l <= b; ++l) c.traffic.sizes.emplace_back(l, 1.0);
           return;
         }
         for (auto& part : split_list(v, ',')) {
           const auto colon = part.find(':');
           if (colon == std::string::npos) bad(f, v);
           c.traffic.sizes.emplace_back(int(to_int(f, part.substr(0, colon), 1, 4096)),
                                        to_real(f, part.substr(colon + 1), 0.0, 1e9));
         }
         double total = 0;
         for (auto& [l, w] : c.traffic.sizes) total += w;
         if (!(total > 0)) bad(f, v);
       },
       [](const Config& c) {
         std::string s;
         for (auto& [l, w] : c.traffic.sizes) s += fmt::format("{}{}:{}", s.empty() ? "" : ",", l, w);
         return nlohmann::json(s);
       }},
      {"traffic.trace", nullptr, "", "a readable CSV file (cycle,src,dst,len per line, header optional)",
       "inject exactly these messages instead of synthetic traffic",
       [](Config& c, const std::string& v, const Field&) { c.traffic.trace = v; },
       [](const Config& c) { return nlohmann::json(c.traffic.trace); }},
      CHOICE_FIELD("traffic.mode", nullptr, "bernoulli", kModes, traffic.mode,
                   "bernoulli (packets) or message (messages through the NIC's t_s)", "injection process"),
      {"traffic.rate", nullptr, "0.1", "0..1 (flits per node per cycle)", "offered load",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.rate = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.rate); }},
      INT_FIELD("traffic.packet_len", nullptr, "5", 1, 4096, traffic.packet_len, "packet length, flits (bernoulli mode)"),
      INT_FIELD("traffic.message_len", nullptr, "16", 1, 1000000, traffic.message_len, "message length, flits (message mode)"),
      {"traffic.hotspots", nullptr, "0", "comma list of node ids 0..N-1", "hotspot destinations",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.hotspots.clear();
         for (auto& p : split_list(v, ',')) c.traffic.hotspots.push_back(int(to_int(f, p, 0, limits::kMaxNodes - 1)));
         if (c.traffic.hotspots.empty()) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(join(c.traffic.hotspots, ",")); }},
      {"traffic.hotspot_fraction", nullptr, "0.1", "0..1", "share of packets sent to a hotspot",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.hotspot_fraction = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.hotspot_fraction); }},
      {"traffic.broadcast_fraction", kMway, "0", "0..1", "share of messages that are region broadcasts",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.broadcast_fraction = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.broadcast_fraction); }},
      CHOICE_FIELD("traffic.region", kMway, "all", kRegions, traffic.region, "all or random",
                   "broadcast region: the whole network, or a random rectangle (uniform corners per dimension)"),
      INT_FIELD("traffic.source_queue", nullptr, "1000", 1, 1000000, traffic.source_queue,
                "packets waiting at a source, at most; traffic generated beyond is dropped, counted and the run "
                "marked unstable"),
      CHOICE_FIELD("traffic.tie", kTorusRouter, "plus", kTiePolicies, traffic.tie, "plus, random or balanced",
                   "direction of a distance-k/2 torus dimension: always plus, a coin per message from the source's "
                   "random stream, or plus and minus in turn per source"),
      INT_FIELD("sim.warmup", nullptr, "1000", 0, 1000000000, sim.warmup, "cycles before measurement"),
      INT_FIELD("sim.measure", nullptr, "10000", 1, 1000000000, sim.measure, "measured cycles"),
      INT_FIELD("sim.drain", nullptr, "100000", 0, 1000000000, sim.drain, "maximum cycles to drain measured packets"),
      INT_FIELD("sim.seed", nullptr, "1", 0, 9223372036854775807, sim.seed, "random seed"),
      INT_FIELD("sim.watchdog", nullptr, "2000", 1, 1000000000, sim.watchdog, "deadlock watchdog, cycles without progress"),
      INT_FIELD("sim.livelock", nullptr, "1000000", 1, 1000000000, sim.livelock,
                "livelock watchdog, cycles without a delivered flit while flits keep moving"),
      INT_FIELD("sim.latency_threshold", nullptr, "0", 0, 1000000000, sim.latency_threshold,
                "traffic: a mean packet latency above this many cycles marks the run unstable (0: no threshold)"),
      INT_FIELD("sim.threads", kTorusRouter, "1", 1, 8, sim.threads,
                "threads that run the torus routers of one clock edge (the results do not depend on it)"),
      {"sim.progress", nullptr, "auto", "auto, on, off", "progress line on stderr (auto: only on a terminal)",
       [](Config& c, const std::string& v, const Field& f) {
         if (v != "auto" && v != "on" && v != "off") bad(f, v);
         c.sim.progress = v;
       },
       [](const Config& c) { return nlohmann::json(c.sim.progress); }},
  };
  return fields;
}

/// Keys whose value may be a YAML list of scalars (joined with the key's separator).
bool takes_list(const std::string& key) {
  return key == "net.radix" || key == "net.topology" || key == "traffic.hotspots";
}

[[noreturn]] void bad_yaml(const std::string& path, const YAML::Mark& m, const std::string& what) {
  throw ConfigError(fmt::format("config: '{}' line {} column {}: {}{}", path, m.line + 1, m.column + 1, what,
                                what.find("allowed") == std::string::npos
                                    ? "; allowed: one YAML document, a map of sections with one value per key"
                                    : ""));
}

std::string scalar_text(const std::string& path, const std::string& key, const YAML::Node& n) {
  if (n.IsNull()) bad_yaml(path, n.Mark(), fmt::format("{} has an empty value", key));
  if (!n.IsScalar())
    bad_yaml(path, n.Mark(), fmt::format("{} must be a single value, not a {}", key, n.IsMap() ? "map" : "list"));
  return n.Scalar();
}

/// The strict shape of a configuration: a map of sections, each a map of key -> scalar (a flat
/// list of scalars for the list keys). Duplicate keys, non-scalar keys, empty values and deeper
/// nesting are errors with their line and column; the fixed depth also bounds recursive aliases.
void flatten(const std::string& path, const YAML::Node& root, Values& out) {
  if (root.IsNull()) return;  // an empty file: every default
  if (!root.IsMap()) bad_yaml(path, root.Mark(), "expected a map of sections (net:, router:, traffic:, ...)");
  std::set<std::string> sections;
  for (auto it : root) {
    if (!it.first.IsScalar()) bad_yaml(path, it.first.Mark(), "a section name must be a plain word");
    const std::string sec = it.first.Scalar();
    if (!sections.insert(sec).second) bad_yaml(path, it.first.Mark(), fmt::format("duplicate section '{}'", sec));
    const YAML::Node& body = it.second;
    if (!body.IsMap()) bad_yaml(path, body.Mark(), fmt::format("section '{}' must be a map of keys", sec));
    std::set<std::string> keys;
    for (auto kv : body) {
      if (!kv.first.IsScalar()) bad_yaml(path, kv.first.Mark(), fmt::format("a key of section '{}' must be a plain word", sec));
      const std::string key = sec + "." + kv.first.Scalar();
      if (!keys.insert(key).second) bad_yaml(path, kv.first.Mark(), fmt::format("duplicate key '{}'", key));
      const YAML::Node& v = kv.second;
      if (v.IsSequence() && takes_list(key)) {
        if (v.size() == 0) bad_yaml(path, v.Mark(), fmt::format("{} has an empty list", key));
        std::string joined;
        const char sep = key == "net.radix" ? 'x' : ',';
        for (size_t i = 0; i < v.size(); ++i) {
          if (i) joined += sep;
          joined += scalar_text(path, key, v[i]);
        }
        out[key] = joined;
      } else {
        out[key] = scalar_text(path, key, v);
      }
    }
  }
}

/// The configuration file's text; a directory, FIFO or device is refused before it is opened
/// (opening a FIFO would block).
std::string read_config_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw ConfigError(fmt::format("config: cannot read '{}': {}; allowed: a readable YAML file", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw ConfigError(fmt::format("config: '{}' is a directory; allowed: a YAML file", path));
  if (!S_ISREG(st.st_mode)) throw ConfigError(fmt::format("config: '{}' is not a regular file; allowed: a YAML file", path));
  if (st.st_size > (1 << 20)) throw ConfigError(fmt::format("config: '{}' is larger than 1 MiB; allowed: at most 1 MiB", path));
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw ConfigError(fmt::format("config: cannot read '{}'; allowed: a readable YAML file", path));
  return text;
}

bool is_torus_kind(const std::string& kind) {
  for (auto& p : split_list(kind, ','))
    if (p != "torus" && p != "mesh") return false;
  return !kind.empty();
}

Config build_config(Values values, const Overrides& overrides);

/// Counts documents and where each starts, building nothing.
class DocumentCounter : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

void load_yaml_text(const std::string& name, const std::string& text, Values& values) {
  try {
    // At most three documents are looked at: the library's own LoadAll never ends (and grows
    // without bound) on a stray ',' at the top level, which it takes for an endless run of empty
    // documents, all starting at the same place.
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentCounter counter;
    for (int i = 0; i < 3 && parser.HandleNextDocument(counter); ++i) {
    }
    const auto& at = counter.starts;
    if (at.size() > 1) {
      const bool stuck = at[1].pos == at[0].pos || (at.size() > 2 && at[2].pos == at[1].pos);
      bad_yaml(name, at[1], stuck ? "cannot be read as YAML here (a stray ',' or similar)"
                              : "more than one YAML document; give one configuration per file");
    }
    if (!counter.starts.empty()) flatten(name, YAML::Load(text), values);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw ConfigError(fmt::format("config: '{}': {}", name, e.msg));
    bad_yaml(name, e.mark, e.msg);
  }
}

}  // namespace

int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi) {
  const char* b = text.data();
  const char* e = b + text.size();
  const char* digits = b + (text.size() > 0 && text[0] == '-');
  int64_t x = 0;
  const auto r = std::from_chars(b, e, x, 10);
  const bool decimal = digits < e && !(*digits == '0' && digits + 1 < e);  // no leading zeros: 010 is not octal 8
  if (text.empty() || r.ec == std::errc::result_out_of_range || r.ec != std::errc() || r.ptr != e || !decimal ||
      x < lo || x > hi)
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: a decimal integer {}..{}", what, text, lo, hi));
  return x;
}

double parse_real(const std::string& what, const std::string& text, double lo, double hi) {
  // Decimal notation only: digits, one point, an optional exponent; no sign +, hex, inf, nan, spaces.
  const auto ok_char = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'; };
  bool valid = !text.empty() && std::all_of(text.begin(), text.end(), ok_char) && text[0] != '+' &&
               text.find_first_of("0123456789") != std::string::npos;
  double x = 0;
  if (valid) {
    // A value too small for a normal double (5e-324, 1e-400) is that small number or 0, not an
    // error (std::stod would refuse it); only a value too large is out of range.
    char* stop = nullptr;
    errno = 0;
    x = std::strtod(text.c_str(), &stop);
    valid = stop == text.c_str() + text.size() && std::isfinite(x) &&
            !(errno == ERANGE && std::fabs(x) > std::numeric_limits<double>::min());
  }
  if (!valid || !(x >= lo && x <= hi))
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: a decimal number {}..{}", what, text, lo, hi));
  return x;
}

Config load_config_text(const std::string& name, const std::string& text, const Overrides& overrides) {
  Values values;
  load_yaml_text(name, text, values);
  return build_config(values, overrides);
}

std::string key_value_error(const std::string& key, const std::string& value) {
  auto it = std::find_if(schema().begin(), schema().end(), [&](const Field& f) { return key == f.key; });
  if (it == schema().end()) return fmt::format("unknown key '{}'", key);
  Config scratch;
  try {
    it->apply(scratch, value, *it);
  } catch (const ConfigError&) {
    return fmt::format("'{}' is invalid; allowed: {} (key {})", value, it->allowed, key);
  }
  return "";
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

sw::Topology NetConfig::topology() const {
  int r[sw::kMaxDims];
  bool t[sw::kMaxDims];
  for (size_t d = 0; d < radix.size() && d < size_t(sw::kMaxDims); ++d) {
    r[d] = radix[d];
    t[d] = d < torus.size() && torus[d];
  }
  return sw::Topology(int(radix.size()), r, t);
}

Overrides net_spec_overrides(const std::string& option, const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw ConfigError(fmt::format("{} '{}' is invalid; allowed: KIND:SHAPE, e.g. torus:8x8, mesh:4x4x4, torus,mesh:8x4", option, spec));
  const std::string kind = spec.substr(0, colon), shape = spec.substr(colon + 1);
  if (is_torus_kind(kind)) return {{"net.family", "torus"}, {"net.radix", shape}, {"net.topology", kind}};
  if (!find_family(kind))
    throw ConfigError(fmt::format("{} '{}': KIND is invalid; allowed: torus, mesh, a comma list of them, or a family ({})",
                                  option, spec, join(family_names(), ", ")));
  return {{"net.family", kind}, {"net.radix", shape}};
}

std::pair<std::string, std::string> parse_override(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set '{}' is invalid; allowed: key=value, e.g. router.buffer_depth=8", arg));
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

Config load_config(const std::string& yaml_path, const Overrides& overrides) {
  Values values;
  if (!yaml_path.empty()) load_yaml_text(yaml_path, read_config_file(yaml_path), values);
  return build_config(values, overrides);
}

namespace {
std::string nearest_key_hint(const std::string& key) {
  const Field* best = nullptr;
  size_t best_d = std::string::npos;
  const std::string tail = key.substr(key.find('.') == std::string::npos ? 0 : key.find('.') + 1);
  const Field* same_tail = nullptr;
  int tails = 0;
  for (const Field& f : schema()) {
    const size_t d = edit_distance(key, f.key);
    if (d < best_d) {
      best_d = d;
      best = &f;
    }
    const std::string k = f.key;
    if (k.substr(k.find('.') + 1) == tail) {
      same_tail = &f;
      ++tails;
    }
  }
  if (best && best_d <= std::max<size_t>(2, key.size() / 3)) return fmt::format("; did you mean '{}'?", best->key);
  if (tails == 1) return fmt::format("; did you mean '{}'?", same_tail->key);
  return "";
}
}  // namespace

namespace {

Config build_config(Values values, const Overrides& overrides) {
  for (auto& [k, v] : overrides) values[k] = v;

  const std::string family = values.count("net.family") ? values["net.family"] : "torus";
  const Family* fam = find_family(family);
  if (!fam)
    throw ConfigError(fmt::format("config: net.family = '{}' is invalid; allowed: {}", family, join(family_names(), ", ")));
  for (auto& kv : values) {
    const std::string& k = kv.first;  // a named reference: C++17 lambdas cannot capture a structured binding
    auto it = std::find_if(schema().begin(), schema().end(), [&](const Field& f) { return k == f.key; });
    if (it == schema().end())
      throw ConfigError(fmt::format("config: unknown key '{}'{}; allowed: the keys `wormcast config` lists", k,
                                    nearest_key_hint(k)));
    if (!in_family(*it, family))
      throw ConfigError(fmt::format("config: {} belongs to the {} famil{}; allowed with net.family = {}: the keys "
                                    "`wormcast config` lists for it",
                                    k, join(split_list(it->families, ','), " and "),
                                    std::string(it->families).find(',') == std::string::npos ? "y" : "ies", family));
  }

  // A preset (a key of the torus and ibt families, checked above) supplies the values of the keys
  // it names that are not given.
  const auto preset = values.find("router.preset");
  if (preset != values.end() && preset->second == "booksim-iq")
    for (auto& [k, v] : kBooksimIq) values.emplace(k, v);

  Config c;
  for (auto& f : schema()) {
    auto it = values.find(f.key);
    f.apply(c, it == values.end() ? std::string(f.def) : it->second, f);
  }
  const sw::Topology topo = c.net.topology();
  const int nodes = topo.num_nodes();
  const Pattern pat = c.traffic.pattern;
  if ((pat == Pattern::BitReverse || pat == Pattern::Shuffle || pat == Pattern::Butterfly) && (nodes & (nodes - 1)))
    throw ConfigError(fmt::format("config: traffic.pattern = {} is invalid for {} nodes; allowed: a power-of-two "
                                  "node count",
                                  name_of(kPatterns, pat), nodes));
  if (pat == Pattern::Transpose)
    for (int d = 0; d < topo.dims(); ++d)
      if (topo.radix(d) != topo.radix(topo.dims() - 1 - d))
        throw ConfigError("config: traffic.pattern = transpose is invalid on this net.radix; allowed: radices "
                          "symmetric under reversing the dimension order (e.g. 8x8, 4x6x4)");
  if (c.traffic.process == InjectionProcess::OnOff) {
    double mean = c.traffic.mode == InjectionMode::Message ? c.traffic.message_len : c.traffic.packet_len;
    if (!c.traffic.sizes.empty()) {
      double w = 0, lw = 0;
      for (auto& [l, x] : c.traffic.sizes) {
        w += x;
        lw += l * x;
      }
      mean = lw / w;
    }
    const double on = c.traffic.burst_alpha / (c.traffic.burst_alpha + c.traffic.burst_beta);
    if (c.traffic.rate / mean / on > 1.0)
      throw ConfigError(fmt::format("config: traffic.rate = {} is invalid with traffic.process = onoff; allowed: at "
                                    "most {:.4g} (one message per cycle while on, on {:.3g} of the time)",
                                    c.traffic.rate, mean * on, on));
  }
  for (int h : c.traffic.hotspots)
    if (h >= nodes)
      throw ConfigError(fmt::format("config: traffic.hotspots = {} is invalid; allowed: node ids 0..{}", h, nodes - 1));
  if (fam->validate) fam->validate(c);
  return c;
}

}  // namespace

nlohmann::json Config::echo() const {
  nlohmann::json j;
  for (auto& f : schema()) {
    if (!in_family(f, net.family)) continue;
    const std::string key = f.key;
    const auto dot = key.find('.');
    j[key.substr(0, dot)][key.substr(dot + 1)] = f.show(*this);
  }
  return j;
}

std::string config_reference() {
  std::string s;
  for (auto& f : schema())
    s += fmt::format("  {:<26} default {:<10} {}{}\n  {:<26} allowed: {}\n", f.key, f.def, f.help,
                     f.families ? fmt::format(" [family {}]", f.families) : "", "", f.allowed);
  s += "\n  families:\n";
  for (auto& name : family_names()) s += fmt::format("    {:<10} {}\n", name, find_family(name)->help);
  return s;
}

}  // namespace wormcast
