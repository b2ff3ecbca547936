// Configuration of a run: plain structs, every default and range in one schema table
// (config.cpp), loaded from YAML plus `--set key=value` overrides and validated in one place.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/topology/topology.h"

namespace wormcast {

/// A mistake the user made (bad key, value out of range, bad CLI): one line, exit code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class LocalPorts { All, One };
/// Which model implements the routers: the SystemC router, the Verilated Verilog twin, or both in
/// a checkerboard (RTL where the coordinate sum is even).
enum class RouterModel { SystemC, Rtl, Mixed };
/// When an output VC may be given to the next packet (docs/router.md section 5.3): once the
/// downstream buffer is empty and every credit is back, or as soon as the tail has been sent.
enum class VcRealloc { Empty, Tail };
/// The separable allocator of VC and switch allocation (docs/router.md section 5.6).
enum class RouterAllocator { InputFirst, OutputFirst, Islip };
/// A named set of router.* (and traffic.tie) values (docs/router.md section 11).
enum class RouterPreset { None, BooksimIq };
/// The torus family's routing function (docs/router.md sections 12 and 13).
enum class RouterRouting { Dor, MinAdaptive, Valiant };

struct NetConfig {
  std::string family = "torus";  ///< router family (systemc/common/family.h), net.family
  std::vector<int> radix{8, 8};
  std::vector<bool> torus{true, true};
  sw::Topology topology() const;
};

struct RouterConfig {
  RouterModel model = RouterModel::SystemC;
  LocalPorts local_ports = LocalPorts::All;
  int vcs_per_class = 1;
  bool dateline = true;
  int buffer_depth = 4;
  int router_delay = 1;
  int link_delay = 0;
  int credit_delay = 0;
  VcRealloc vc_realloc = VcRealloc::Empty;
  RouterAllocator allocator = RouterAllocator::InputFirst;
  int islip_iterations = 1;
  int injection_delay = 0;  ///< extra cycles on each injection channel (NIC to router)
  int ejection_delay = 0;   ///< extra cycles on each ejection channel (router to NIC)
  RouterPreset preset = RouterPreset::None;
  RouterRouting routing = RouterRouting::Dor;
  int adaptive_vcs = 2;     ///< min-adaptive: adaptive VCs per port beyond the escape (DOR) VCs
};

struct NicConfig {
  int64_t ts = 0;          ///< software send latency, cycles
  int64_t tr = 0;          ///< software receive latency, cycles
  int max_packet = 64;     ///< flits per packet, messages longer than this are split
};

/// The k-ary m-way router family (docs/mway.md): mway.* keys.
struct MwayConfig {
  std::string algo = "mst-safe";  ///< unicast, mst, mst-safe, mst-replica, mst-unicast, rd
  int buffers = 4;                ///< buffers per router buffer set (DIM+, DIM-)
  int buffer_length = 5;          ///< flits per buffer
  int injection_buffers = 4;
  int ejection_buffers = 4;
  std::string header_bid = "stat";  ///< stat, blind (docs/mway.md section 4.1)
};

/// Unicast routing on an interlaced bypass torus (docs/router.md section 10): dimension order over
/// the torus links only, or bypass links first where they shorten the path, then dimension order.
enum class IbtRouting { Dor, Bypass };

/// The interlaced bypass torus family iBT(n^d; <b1..bk>): ibt.* keys.
struct IbtConfig {
  std::vector<int> bypass{4};  ///< b1..bk
  IbtRouting routing = IbtRouting::Dor;
};

enum class Pattern {
  Uniform, Transpose, BitComplement, Tornado, Neighbor, Hotspot, BitReverse, Shuffle, Butterfly, RandPerm
};
enum class InjectionMode { Bernoulli, Message };
/// When a node generates: independently every cycle, or in on/off bursts (a two-state Markov
/// chain per node: off -> on with probability burst_alpha per cycle, on -> off with burst_beta).
enum class InjectionProcess { Bernoulli, OnOff };
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
};

struct SimConfig {
  uint64_t warmup = 1000;
  uint64_t measure = 10000;
  uint64_t drain = 100000;      ///< at most this many cycles to deliver what is in flight
  uint64_t seed = 1;
  uint64_t watchdog = 2000;     ///< cycles without any flit moving while flits are in flight
  uint64_t livelock = 1000000;  ///< cycles without any flit delivered while flits keep moving
  uint64_t latency_threshold = 0;  ///< traffic: a mean packet latency above this marks the run unstable (0: off)
  std::string progress = "auto";
  int threads = 1;  ///< threads that run a network's routers at an edge (docs/router.md 5.7)
};

struct Config {
  NetConfig net;
  RouterConfig router;
  MwayConfig mway;
  IbtConfig ibt;
  NicConfig nic;
  TrafficConfig traffic;
  SimConfig sim;
  /// The effective configuration, key -> value, as echoed into results.
  nlohmann::json echo() const;
};

/// Flat `section.key` -> text value overrides, applied in order.
using Overrides = std::vector<std::pair<std::string, std::string>>;

/// Builds a Config from an optional YAML file and overrides; throws ConfigError.
Config load_config(const std::string& yaml_path, const Overrides& overrides);
/// "torus:8x8", "mesh:4x4x4", "torus,mesh:8x4" -> net.family torus with net.topology and net.radix;
/// "FAMILY:SHAPE" for another registered family -> net.family and net.radix.
Overrides net_spec_overrides(const std::string& option, const std::string& spec);
/// Parses "key=value" (throws ConfigError naming the argument).
std::pair<std::string, std::string> parse_override(const std::string& arg);
/// The schema as help text: key, families, default, allowed values.
std::string config_reference();
/// A strict decimal integer: digits with an optional '-', no '+', no leading zeros (010 is not
/// octal), no hex, no spaces, not empty; overflow and values outside lo..hi are errors. Throws
/// ConfigError "<what> = '<text>' is invalid; allowed: ...".
int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi);
/// A strict finite decimal number (optional exponent) in lo..hi; throws like parse_int.
double parse_real(const std::string& what, const std::string& text, double lo, double hi);
/// Checks one value of one key as load_config would (ranges that depend on other keys aside): ""
/// when it is allowed, else "'<value>' is invalid; allowed: ... (key <key>)".
std::string key_value_error(const std::string& key, const std::string& value);
/// load_config on YAML text instead of a file (`name` appears in errors); throws ConfigError.
Config load_config_text(const std::string& name, const std::string& text, const Overrides& overrides = {});
/// Splits "a<sep>b<sep>c" (an empty trailing field counts).
std::vector<std::string> split_list(const std::string& s, char sep);

}  // namespace wormcast
