// Configuration of a run: plain structs, every default and range in one schema table
// (config.cpp), loaded from YAML plus `--set key=value` overrides and validated in one place.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/topology/topology.h"

namespace wormcast {

/// A mistake the user made (bad key, value out of range, bad CLI): one line, exit code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NetConfig {
  std::string family = "torus";  ///< router family (systemc/common/family.h), net.family
  std::vector<int> radix{8, 8};
  std::vector<bool> torus{true, true};
  sw::Topology topology() const;
  /// Nodes of the network: the product of the radixes.
  int64_t nodes() const {
    int64_t n = 1;
    for (int k : radix) n *= k;
    return n;
  }
};

struct NicConfig {
  int64_t ts = 0;          ///< software send latency, cycles
  int64_t tr = 0;          ///< software receive latency, cycles
  int max_packet = 64;     ///< flits per packet, messages longer than this are split
};

/// The node processor (node.cpu): the native C++ program on an SC_THREAD with t_s / t_r as
/// constants, or the node firmware on an RV32IMAC instruction-set model (docs/cpu.md).
enum class CpuKind { Native, Rv32 };
/// Instruction classes of the RV32 core's cost model (node.cpu_cpi), in the key's order.
enum class InsnClass : uint8_t { Alu, Mul, Div, Load, Store, Branch, Jump, System, Count };

struct NodeConfig {
  CpuKind cpu = CpuKind::Native;
  /// Core cycles per network cycle, as the exact fraction clock_num / clock_den (node.cpu_clock_ratio).
  int64_t clock_num = 1, clock_den = 1;
  /// Network cycles a core may run ahead of the network (temporal decoupling); 1: exact.
  int64_t quantum = 1;
  /// Core cycles per instruction, by InsnClass (node.cpu_cpi).
  std::vector<int> cpi = std::vector<int>(size_t(InsnClass::Count), 1);
  int64_t ram = 65536;  ///< bytes of RAM per core (node.cpu_ram)
};

enum class Pattern {
  Uniform, UniformAll, Transpose, BitComplement, Tornado, Neighbor, Hotspot, BitReverse, Shuffle, Butterfly, RandPerm
};
enum class InjectionMode { Bernoulli, Message };
/// When a node generates: independently every cycle, or in on/off bursts (a two-state Markov
/// chain per node: off -> on with probability burst_alpha per cycle, on -> off with burst_beta).
enum class InjectionProcess { Bernoulli, OnOff };
/// The random stream of each traffic source (traffic.rng): a 64-bit Mersenne twister (2,504 bytes
/// per source), a counter-based generator (8 bytes per source; other numbers), or auto: the twister
/// up to kAutoTwisterSources sources, the counter-based generator beyond.
enum class TrafficRng { Auto, Twister, Counter };
inline constexpr int kAutoTwisterSources = 65536;
/// Region of a broadcast message: the whole network or a random rectangle.
enum class RegionMode { All, Random };
/// The tie bit synthetic traffic puts on a torus packet's head (docs/router.md section 5.2):
/// always plus, a fair coin per message, or plus and minus in turn per source node.
enum class TiePolicy { Plus, Random, Balanced };

struct TrafficConfig {
  Pattern pattern = Pattern::Uniform;
  InjectionMode mode = InjectionMode::Bernoulli;
  double rate = 0.1;            ///< offered load, flits per node per cycle
  int packet_len = 5;           ///< flits (bernoulli mode)
  int message_len = 16;         ///< flits (message mode; split into packets of nic.max_packet)
  std::vector<int> hotspots{0};
  double hotspot_fraction = 0.1;
  InjectionProcess process = InjectionProcess::Bernoulli;
  double burst_alpha = 0.1, burst_beta = 0.1;
  /// Packet (message) lengths and their weights; empty: always packet_len (message_len).
  std::vector<std::pair<int, double>> sizes;
  std::string trace;  ///< CSV cycle,src,dst,len to inject instead of synthetic traffic ("": none)
  double broadcast_fraction = 0;  ///< share of messages that are region broadcasts (families with regions)
  RegionMode region = RegionMode::All;
  int source_queue = 1000;  ///< packets a node's source queue holds; new ones beyond are dropped and counted
  TiePolicy tie = TiePolicy::Plus;  ///< torus family: direction of distance-k/2 dimensions
  TrafficRng rng = TrafficRng::Auto;  ///< the sources' random streams
  /// The generator a network of `sources` nodes uses.
  bool twister(int sources) const {
    return rng == TrafficRng::Twister || (rng == TrafficRng::Auto && sources <= kAutoTwisterSources);
  }
};

/// The result's per-router and per-link arrays (sim.result_arrays): auto keeps them up to
/// kResultArrayNodes nodes.
enum class ResultArrays { Auto, On, Off };
/// sim.lanes: how an edge that could run in lanes decides (docs/kernel.md section 3).
enum class LaneRule { Adaptive, Timed, Always };
/// sim.schedule: how a run's cycles are scheduled (docs/kernel.md sections 4 and 5).
enum class Schedule { Auto, Cycles, Bands };
constexpr int kResultArrayNodes = 65536;

struct SimConfig {
  uint64_t warmup = 1000;
  uint64_t measure = 10000;
  uint64_t drain = 100000;      ///< at most this many cycles to deliver what is in flight
  uint64_t seed = 1;
  uint64_t watchdog = 2000;     ///< cycles without any flit moving while flits are in flight
  uint64_t livelock = 1000000;  ///< cycles without any flit delivered while flits keep moving
  uint64_t latency_threshold = 0;  ///< traffic: a mean packet latency above this marks the run unstable (0: off)
  std::string progress = "auto";
  ResultArrays result_arrays = ResultArrays::Auto;
  /// Whether the result of a network of `nodes` nodes carries its per-router and per-link arrays.
  bool arrays(int nodes) const {
    return result_arrays == ResultArrays::On || (result_arrays == ResultArrays::Auto && nodes <= kResultArrayNodes);
  }
  int threads = 0;  ///< threads that run a network's routers at an edge, 0: auto (docs/kernel.md)
  /// sim.lanes: an edge that could run in lanes runs in lanes or in one thread, whichever measures
  /// faster (Adaptive, Timed), or always in lanes (Always); Adaptive also runs it in one thread
  /// while the machine has no free core for the other threads.
  LaneRule lanes = LaneRule::Adaptive;
  /// sim.schedule: Bands, the cycles between the driver's checks run block by block of the
  /// network's nodes (systemc/kernel/cycle_clock.h; docs/kernel.md section 5), in one thread;
  /// Cycles, cycle by cycle; Auto, bands when the network runs in one thread and has at least
  /// 4 blocks of sim.band_nodes nodes (systemc/torus/network.cpp), else cycles.
  Schedule schedule = Schedule::Auto;
  int band_nodes = 1024;  ///< sim.band_nodes: nodes of a tile's block in bands
};

struct Config {
  NetConfig net;
  NicConfig nic;
  NodeConfig node;
  TrafficConfig traffic;
  SimConfig sim;
  /// A family's own part of the configuration (its struct, written by the keys it registers, e.g.
  /// the router keys): created with its defaults on first use.
  template <class T>
  T& part() {
    std::any& a = m_parts[std::type_index(typeid(T))];
    if (!a.has_value()) a = T{};
    return *std::any_cast<T>(&a);
  }
  /// The part of type T; its defaults when no key of it was applied (another family's part).
  template <class T>
  const T& part() const {
    static const T defaults{};
    auto it = m_parts.find(std::type_index(typeid(T)));
    return it == m_parts.end() ? defaults : *std::any_cast<T>(&it->second);
  }
  /// The effective configuration, key -> value, as echoed into results.
  nlohmann::json echo() const;

 private:
  std::map<std::type_index, std::any> m_parts;
};

/// Flat `section.key` -> text value overrides, applied in order.
using Overrides = std::vector<std::pair<std::string, std::string>>;

/// One row of the configuration schema: a key with its default, allowed values and help, how a
/// value is applied and how the effective value is echoed. The keys every family reads are in
/// config.cpp; a family brings its own with its registration (Family::keys, family.h), and the
/// schema, `wormcast config`, `--set`, YAML and the echo list them with the family's name.
struct ConfigKey {
  std::string key;      ///< "section.name"
  std::string def;      ///< default value, as text
  std::string allowed;  ///< shown in errors and in the reference
  std::string help;
  /// Parses `value` into the configuration; throws ConfigError (bad_value) when it is not allowed.
  std::function<void(Config&, const std::string& value, const ConfigKey&)> apply;
  std::function<nlohmann::json(const Config&)> show;  ///< the effective value, for echo()
  char list_sep = 0;  ///< a YAML list of scalars is joined with this separator (0: one scalar only)
  /// Other keys a value stands for, set unless given (a named preset); null: none.
  std::function<Overrides(const std::string& value)> implies = nullptr;
  /// Where the key takes effect: where `applies` holds (null: everywhere). `where` names that
  /// condition as the reference and a refusal show it ("traffic.mode = bernoulli and traffic.sizes
  /// empty"); `reads` are the keys it reads, shown with their values in a refusal; `switches` are
  /// those of them that turn the key on, each with a value that does (the network's shape and
  /// family are no switches: they are where the key is used). A value other than the default given
  /// on the command line where it takes no effect is refused (load_config, refuse_without_effect),
  /// not silently ignored, unless the switches the command line sets are what keep it off.
  std::function<bool(const Config&)> applies = nullptr;
  std::string where = {};
  std::vector<std::string> reads = {};
  Overrides switches = {};
};

/// "config: <key> = '<value>' is invalid; allowed: <allowed>", as a ConfigError.
/// `kind`: appended to the allowed values (e.g. " (a decimal integer)").
[[noreturn]] void bad_value(const ConfigKey& k, const std::string& value, const char* kind = "");

/// Whether the command line sets a key (load_config: any override) or the command fixes it.
using KeyTest = std::function<bool(const std::string& key)>;
/// Throws the ConfigError load_config gives a command-line `value` of `key` that takes no effect in
/// c (ConfigKey::applies false, the value not the default); nothing where it does, and nothing
/// where the switches `given` sets, which the user chose, are what keep it off (a sweep's shared
/// --set). A switch `fixed` by the command itself (ibt bcast --simulate: ibt.routing) neither lets
/// the value through nor is suggested; the line suggests setting the switches left to the file or
/// their defaults that would turn the key on.
void refuse_without_effect(const Config& c, const std::string& key, const std::string& value, const KeyTest& given,
                           const KeyTest& fixed = nullptr);

/// Builds a Config from an optional YAML file and overrides; throws ConfigError.
Config load_config(const std::string& yaml_path, const Overrides& overrides);
/// The value the YAML file at yaml_path gives `key`, as its text (none for no file, or a file that
/// does not set it). Throws ConfigError as load_config does for a file it cannot read.
std::optional<std::string> config_file_value(const std::string& yaml_path, const std::string& key);
/// A command's own defaults (overrides placed before the command line's --set) less those whose
/// key the YAML file `yaml_path` sets ("" : no file): the file's values stand above them.
Overrides unless_in_file(const std::string& yaml_path, Overrides defaults);
/// --net KIND:SHAPE as overrides: a family's own KIND word (Family::net_kind; the torus family's
/// "torus:8x8", "mesh:4x4x4", "torus,mesh:8x4") or "FAMILY:SHAPE" -> net.family and net.radix.
Overrides net_spec_overrides(const std::string& option, const std::string& spec);
/// Parses "key=value" (throws ConfigError naming the argument).
std::pair<std::string, std::string> parse_override(const std::string& arg);
/// The schema as help text: key, default, allowed values and the families of a family's key.
std::string config_reference();
/// The same reference as Markdown (`wormcast config --markdown`, the block of docs/reference.md between
/// its reference markers): a table of every key (default, allowed values, meaning, family), the
/// families, and the traffic patterns with what each does.
std::string config_reference_markdown();
/// A strict decimal integer: digits with an optional '-', no '+', no leading zeros (010 is not
/// octal), no hex, no spaces, not empty; overflow and values outside lo..hi are errors. Throws
/// ConfigError "<what> = '<text>' is invalid; allowed: ...".
int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi);
/// A strict finite decimal number (optional exponent) in lo..hi; throws like parse_int.
double parse_real(const std::string& what, const std::string& text, double lo, double hi);
/// Checks one value of one key as load_config would (ranges that depend on other keys aside): ""
/// when it is allowed, else "'<value>' is invalid; allowed: ... (key <key>)".
std::string key_value_error(const std::string& key, const std::string& value);
/// The schema's row of `key` (a common key or any family's), nullptr when there is none.
const ConfigKey* find_config_key(const std::string& key);
/// The families whose key `key` is (empty: a common key, or none).
std::vector<std::string> config_key_families(const std::string& key);
/// load_config on YAML text instead of a file (`name` appears in errors); throws ConfigError.
Config load_config_text(const std::string& name, const std::string& text, const Overrides& overrides = {});
/// Splits "a<sep>b<sep>c" (an empty trailing field counts).
std::vector<std::string> split_list(const std::string& s, char sep);

}  // namespace wormcast
