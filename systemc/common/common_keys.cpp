// The keys every family reads (net.family, net.radix, nic.*, traffic.*, sim.*): one row per key
// with its default, allowed values and help; a family's own keys come with its registration.
#include <algorithm>
#include <cmath>

#include "systemc/common/config_keys.h"
#include "systemc/common/limits.h"

namespace wormcast {
namespace {

using Field = ConfigKey;

int64_t to_int(const Field& f, const std::string& v, int64_t lo, int64_t hi) { return key_int(f, v, lo, hi); }
double to_real(const Field& f, const std::string& v, double lo, double hi) { return key_real(f, v, lo, hi); }
[[noreturn]] void bad(const Field& f, const std::string& v) { bad_value(f, v); }

const Choices<CpuKind> kCpus = {{"native", CpuKind::Native}, {"rv32", CpuKind::Rv32}};
// node.cpu_cpi's class names, in InsnClass order.
const char* const kInsnClassNames[] = {"alu", "mul", "div", "load", "store", "branch", "jump", "system"};

std::string cpi_text(const std::vector<int>& cpi) {
  std::string s;
  for (size_t i = 0; i < cpi.size(); ++i) s += fmt::format("{}{}:{}", i ? "," : "", kInsnClassNames[i], cpi[i]);
  return s;
}

/// traffic.sizes: A-B or LEN:WEIGHT,... into c.traffic.sizes (throws ConfigError).
void parse_sizes(Config& c, const std::string& v, const Field& f) {
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
}

int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

const Choices<Pattern> kPatterns = {{"uniform", Pattern::Uniform},   {"uniform-all", Pattern::UniformAll},
                                    {"transpose", Pattern::Transpose},
                                    {"bitcomp", Pattern::BitComplement}, {"tornado", Pattern::Tornado},
                                    {"neighbor", Pattern::Neighbor}, {"hotspot", Pattern::Hotspot},
                                    {"bitrev", Pattern::BitReverse}, {"shuffle", Pattern::Shuffle},
                                    {"butterfly", Pattern::Butterfly}, {"randperm", Pattern::RandPerm}};
// What each pattern does (tb/run/patterns.cpp), in the order of kPatterns.
const std::vector<PatternHelp> kPatternHelp = {
    {"uniform", "a node other than the source, each equally likely"},
    {"uniform-all", "any node, the source included (its packet goes through its own router, 0 hops), as BookSim2's "
                    "uniform"},
    {"transpose", "the node with the source's coordinates in reverse order (needs radices symmetric under that "
                  "reversal, e.g. 8x8, 4x6x4)"},
    {"bitcomp", "in every dimension, coordinate k-1-x (the bit complement on power-of-two radices)"},
    {"tornado", "in every dimension, coordinate x + ceil(k/2) - 1 mod k (almost half-way round)"},
    {"neighbor", "the next node in dimension 0, x0 + 1 mod k0"},
    {"hotspot", "one of traffic.hotspots with probability traffic.hotspot_fraction, else as uniform"},
    {"bitrev", "the node whose id has the source id's b = log2 N bits reversed (N a power of two)"},
    {"shuffle", "the source id rotated left by one bit (N a power of two)"},
    {"butterfly", "the source id with its most and least significant bits swapped (N a power of two)"},
    {"randperm", "a random permutation of the nodes drawn once per run from sim.seed (its own node possible)"},
};

std::string pattern_names() {
  std::string s;
  for (const PatternHelp& p : kPatternHelp) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

const Choices<InjectionProcess> kProcesses = {{"bernoulli", InjectionProcess::Bernoulli}, {"onoff", InjectionProcess::OnOff}};
const Choices<TrafficRng> kRngs = {
    {"auto", TrafficRng::Auto}, {"mt19937_64", TrafficRng::Twister}, {"counter", TrafficRng::Counter}};
const Choices<ResultArrays> kResultArrays = {
    {"auto", ResultArrays::Auto}, {"on", ResultArrays::On}, {"off", ResultArrays::Off}};
const Choices<InjectionMode> kModes = {{"bernoulli", InjectionMode::Bernoulli}, {"message", InjectionMode::Message}};

template <class E>
E to_choice(const Field& f, const std::string& v, const Choices<E>& c) {
  return key_choice(f, v, c);
}

#define INT_FIELD(KEY, DEF, LO, HI, MEMBER, HELP)                                              \
  Field {                                                                                      \
    KEY, DEF, #LO ".." #HI, HELP,                                                         \
        [](Config& c, const std::string& v, const Field& f) {                                 \
          c.MEMBER = decltype(c.MEMBER)(to_int(f, v, LO, HI));                                 \
        },                                                                                     \
        [](const Config& c) { return nlohmann::json(c.MEMBER); }                               \
  }

#define CHOICE_FIELD(KEY, DEF, TABLE, MEMBER, ALLOWED, HELP)                                   \
  Field {                                                                                      \
    KEY, DEF, ALLOWED, HELP,                                                              \
        [](Config& c, const std::string& v, const Field& f) { c.MEMBER = to_choice(f, v, TABLE); }, \
        [](const Config& c) { return nlohmann::json(name_of(TABLE, c.MEMBER)); }               \
  }

/// The keys that take effect only where other keys allow (ConfigKey::applies): the RV32 core's
/// settings, the on/off process's, the hotspot pattern's, and the two lengths, which a length
/// distribution (traffic.sizes) replaces (tb/run/traffic_gen.cpp).
std::vector<Field> with_needs(std::vector<Field> fields) {
  for (const char* k : {"node.cpu_clock_ratio", "node.cpu_quantum", "node.cpu_cpi", "node.cpu_ram"})
    only_with(fields, k, "node.cpu", "rv32");
  for (const char* k : {"traffic.burst_alpha", "traffic.burst_beta"}) only_with(fields, k, "traffic.process", "onoff");
  for (const char* k : {"traffic.hotspots", "traffic.hotspot_fraction"}) only_with(fields, k, "traffic.pattern", "hotspot");
  only_where(
      fields, "traffic.message_len",
      [](const Config& c) { return c.traffic.mode == InjectionMode::Message && c.traffic.sizes.empty(); },
      "traffic.mode = message and traffic.sizes empty", {"traffic.mode", "traffic.sizes"},
      {{"traffic.mode", "message"}, {"traffic.sizes", ""}});
  // The mway family's nic.max_packet follows traffic.packet_len unless given (systemc/mway/network.cpp):
  // there it also applies while the two are equal.
  only_where(
      fields, "traffic.packet_len",
      [](const Config& c) {
        return (c.traffic.mode == InjectionMode::Bernoulli && c.traffic.sizes.empty()) ||
               (c.net.family == "mway" && c.nic.max_packet == c.traffic.packet_len);
      },
      "traffic.mode = bernoulli and traffic.sizes empty, or in the mway family while nic.max_packet follows it",
      {"traffic.mode", "traffic.sizes"}, {{"traffic.mode", "bernoulli"}, {"traffic.sizes", ""}});
  return fields;
}

}  // namespace

const std::vector<ConfigKey>& common_keys() {
  static const std::vector<Field> fields = with_needs({
      {"net.family", "torus", "a registered router family (see the list below)",
       "router family: which routers, links and NIC adapters build the network",
       [](Config& c, const std::string& v, const Field&) { c.net.family = v; },  // checked in load_config
       [](const Config& c) { return nlohmann::json(c.net.family); }},
      {"net.radix", "8x8", "k0xk1x... (in YAML also a list [k0, k1, ...]) with 1..16 dimensions, each radix 2..1024, at most 1048576 nodes; a family may allow less (its entry in the families list)",
       "radix per dimension, dimension 0 first (the ibt family's default: 16x16)",
       [](Config& c, const std::string& v, const Field& f) {
         auto parts = split_list(v, 'x');
         if (parts.empty() || parts.size() > size_t(sw::kMaxDims)) bad(f, v);
         c.net.radix.clear();
         int64_t nodes = 1;
         for (auto& p : parts) {
           // (A bad radix names the whole value: "4x" is one net.radix, not an empty radix.)
           try {
             c.net.radix.push_back(int(to_int(f, p, 2, limits::kMaxRadix)));
           } catch (const ConfigError&) {
             bad(f, v);
           }
           nodes *= c.net.radix.back();
         }
         if (nodes > limits::kMaxNodes) bad(f, v);
         c.net.torus.resize(c.net.radix.size(), c.net.torus.empty() ? true : c.net.torus.back());
       },
       [](const Config& c) { return nlohmann::json(join(c.net.radix, "x")); }, 'x'},
      INT_FIELD("nic.ts", "0", 0, 1000000, nic.ts, "t_s: software send latency, cycles per send"),
      INT_FIELD("nic.tr", "0", 0, 1000000, nic.tr, "t_r: software receive latency, cycles (node programs; synthetic traffic, which has no receiving software, refuses it)"),
      INT_FIELD("nic.max_packet", "64", 1, 4096, nic.max_packet,
                "maximum packet length, flits (the mway family's default: traffic.packet_len, one message one packet)"),
      CHOICE_FIELD("node.cpu", "native", kCpus, node.cpu, "native or rv32",
                   "node processor: native (the node program as C++ on the host, software cost nic.ts / nic.tr) "
                   "or rv32 (the node firmware on an RV32IMAC instruction-set model per node, docs/cpu.md)"),
      {"node.cpu_clock_ratio", "1", "0.001..1000 (not 0; at most 3 decimals)",
       "rv32: core cycles per network cycle (0.5: the core runs at half the network clock)",
       [](Config& c, const std::string& v, const Field& f) {
         const double r = to_real(f, v, 0.001, 1000.0);
         const int64_t milli = int64_t(r * 1000.0 + 0.5);
         if (std::abs(r * 1000.0 - double(milli)) > 1e-6) bad(f, v);
         const int64_t g = gcd64(milli, 1000);
         c.node.clock_num = milli / g;
         c.node.clock_den = 1000 / g;
       },
       [](const Config& c) { return nlohmann::json(double(c.node.clock_num) / double(c.node.clock_den)); }},
      INT_FIELD("node.cpu_quantum", "1", 1, 1000000, node.quantum,
                "rv32: network cycles a core may run ahead of the network before it synchronises (temporal "
                "decoupling); 1 is exact, larger is faster and approximate"),
      {"node.cpu_cpi", "alu:1,mul:1,div:1,load:1,store:1,branch:1,jump:1,system:1",
       "comma list of CLASS:CYCLES, CLASS one of alu, mul, div, load, store, branch, jump, system, each at most "
       "once; CYCLES 1..1000 (classes not named keep 1)",
       "rv32: core cycles per instruction by class (a load or store to the NIC adds the NIC's annotated delay)",
       [](Config& c, const std::string& v, const Field& f) {
         if (v.empty()) bad(f, v);  // (split_list gives no part: it would keep every class at 1)
         c.node.cpi.assign(size_t(InsnClass::Count), 1);
         uint32_t named = 0;  // the classes given so far (a class given twice is refused)
         for (auto& part : split_list(v, ',')) {
           const auto colon = part.find(':');
           if (colon == std::string::npos) bad(f, v);
           const std::string name = part.substr(0, colon);
           size_t i = 0;
           while (i < size_t(InsnClass::Count) && name != kInsnClassNames[i]) ++i;
           if (i == size_t(InsnClass::Count) || (named >> i & 1)) bad(f, v);
           named |= uint32_t(1) << i;
           try {
             c.node.cpi[i] = int(to_int(f, part.substr(colon + 1), 1, 1000));
           } catch (const ConfigError&) {
             bad(f, v);  // the whole value in the message, not the one number
           }
         }
       },
       [](const Config& c) { return nlohmann::json(cpi_text(c.node.cpi)); }},
      {"node.cpu_ram", "65536", "4096..16777216, a multiple of 4096 (bytes)",
       "rv32: RAM per core: the firmware, the node's program table and a 4 KiB stack must fit",
       [](Config& c, const std::string& v, const Field& f) {
         c.node.ram = to_int(f, v, 4096, 16777216);
         if (c.node.ram % 4096) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(c.node.ram); }},
      {"traffic.pattern", "uniform", pattern_names(),
       "destination pattern (uniform: any other node; uniform-all: any node, the source included, as BookSim2's "
       "uniform; bitrev, shuffle, butterfly: 2^b nodes; transpose: radices symmetric)",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.pattern = to_choice(f, v, kPatterns); },
       [](const Config& c) { return nlohmann::json(name_of(kPatterns, c.traffic.pattern)); }},
      CHOICE_FIELD("traffic.process", "bernoulli", kProcesses, traffic.process, "bernoulli or onoff",
                   "injection process: every cycle independently, or on/off bursts (burst_alpha, burst_beta; each source "
                   "starts on with probability alpha / (alpha + beta))"),
      {"traffic.burst_alpha", "0.1", "0..1 (exclusive of 0)", "onoff: probability per cycle of off -> on",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.burst_alpha = to_real(f, v, 0.0, 1.0);
         if (c.traffic.burst_alpha <= 0) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(c.traffic.burst_alpha); }},
      {"traffic.burst_beta", "0.1", "0..1", "onoff: probability per cycle of on -> off",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.burst_beta = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.burst_beta); }},
      {"traffic.sizes", "", "empty, A-B (uniform range), or LEN:WEIGHT,LEN:WEIGHT,... (lengths 1..4096)",
       "packet (message) length distribution; empty: always traffic.packet_len (message_len)",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.sizes.clear();
         if (v.empty()) return;
         try {
           parse_sizes(c, v, f);
         } catch (const ConfigError&) {
           bad(f, v);  // the whole value, not the part that failed
         }
       },
       [](const Config& c) {
         std::string s;
         for (auto& [l, w] : c.traffic.sizes) s += fmt::format("{}{}:{}", s.empty() ? "" : ",", l, w);
         return nlohmann::json(s);
       }},
      {"traffic.trace", "", "a readable regular CSV file (cycle,src,dst,len per line; an optional first line naming those four columns)",
       "inject exactly these messages instead of synthetic traffic (every cycle below sim.warmup + sim.measure; a "
       "half-way tie by traffic.tie); the drawn traffic's keys (rate, pattern, lengths, process, hotspots, source queue, "
       "region) given on the command line with it are refused",
       [](Config& c, const std::string& v, const Field&) { c.traffic.trace = v; },
       [](const Config& c) { return nlohmann::json(c.traffic.trace); }},
      CHOICE_FIELD("traffic.mode", "bernoulli", kModes, traffic.mode,
                   "bernoulli (length traffic.packet_len) or message (length traffic.message_len)",
                   "which key gives the length of what a source injects; in both modes an arrival is one message "
                   "that the NIC sends after its t_s (nic.ts) as packets of at most nic.max_packet flits (the mway "
                   "family refuses a traffic.packet_len above nic.max_packet)"),
      {"traffic.rate", "0.1", "0..1 (flits per node per cycle)", "offered load",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.rate = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.rate); }},
      INT_FIELD("traffic.packet_len", "5", 1, 4096, traffic.packet_len, "packet length, flits (bernoulli mode; a longer one than nic.max_packet is sent as several packets)"),
      INT_FIELD("traffic.message_len", "16", 1, 1000000, traffic.message_len, "message length, flits (message mode)"),
      {"traffic.hotspots", "0", "comma list of node ids 0..N-1", "hotspot destinations",
       [](Config& c, const std::string& v, const Field& f) {
         c.traffic.hotspots.clear();
         try {  // an error quotes the whole list, not the entry
           for (auto& p : split_list(v, ',')) c.traffic.hotspots.push_back(int(to_int(f, p, 0, limits::kMaxNodes - 1)));
         } catch (const ConfigError&) {
           bad(f, v);
         }
         if (c.traffic.hotspots.empty()) bad(f, v);
       },
       [](const Config& c) { return nlohmann::json(join(c.traffic.hotspots, ",")); }, ','},
      {"traffic.hotspot_fraction", "0.1", "0..1", "share of packets sent to a hotspot",
       [](Config& c, const std::string& v, const Field& f) { c.traffic.hotspot_fraction = to_real(f, v, 0.0, 1.0); },
       [](const Config& c) { return nlohmann::json(c.traffic.hotspot_fraction); }},
      INT_FIELD("traffic.source_queue", "1000", 1, 1000000, traffic.source_queue,
                "packets waiting at a source, at most; traffic generated beyond is dropped, counted and the run "
                "marked unstable (drawn traffic: a trace's messages are all injected)"),
      CHOICE_FIELD("traffic.rng", "auto", kRngs, traffic.rng, "auto, mt19937_64 or counter",
                   "each source's random stream: a 64-bit Mersenne twister seeded from (sim.seed, node) (2.5 KB per "
                   "source), or a counter-based generator (SplitMix64 from the same seed and node, 8 bytes per source; "
                   "other numbers than the twister's); auto: mt19937_64 up to 65,536 sources, counter beyond"),
      INT_FIELD("sim.warmup", "1000", 0, 1000000000, sim.warmup, "cycles before measurement"),
      INT_FIELD("sim.measure", "10000", 1, 1000000000, sim.measure, "measured cycles"),
      INT_FIELD("sim.drain", "100000", 0, 1000000000, sim.drain, "maximum cycles to drain the packets in flight after the measurement (every one, warm-up packets included)"),
      INT_FIELD("sim.seed", "1", 0, 9223372036854775807, sim.seed, "random seed"),
      INT_FIELD("sim.watchdog", "2000", 1, 1000000000, sim.watchdog, "deadlock watchdog, cycles without progress (at least the network's longest quiet time: its longest one-flit crossing or credit round trip)"),
      INT_FIELD("sim.livelock", "1000000", 1, 1000000000, sim.livelock,
                "livelock watchdog, cycles without a delivered flit while flits keep moving (at least the network's longest quiet time)"),
      INT_FIELD("sim.latency_threshold", "0", 0, 1000000000, sim.latency_threshold,
                "traffic: a mean packet latency above this many cycles marks the run unstable (0: no threshold)"),
      {"sim.progress", "auto", "auto, on, off", "progress line on stderr (auto: only on a terminal)",
       [](Config& c, const std::string& v, const Field& f) {
         if (v != "auto" && v != "on" && v != "off") bad(f, v);
         c.sim.progress = v;
       },
       [](const Config& c) { return nlohmann::json(c.sim.progress); }},
      CHOICE_FIELD("sim.result_arrays", "auto", kResultArrays, sim.result_arrays, "auto, on, off",
                   "the result's per-router and per-link arrays (router_activity per_router, vc_utilization, "
                   "vc_blocking; energy per_router; links utilization); auto: only up to 65,536 nodes, whose arrays "
                   "take about a kilobyte of JSON per node (the totals are always there)"),
  });
  return fields;
}

const std::vector<PatternHelp>& pattern_help() { return kPatternHelp; }

}  // namespace wormcast
