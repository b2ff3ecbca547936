// The torus router's configuration keys: one row per key (default, allowed values, help), for
// the torus family and every family built of the same router.
#include "systemc/torus/config.h"

#include <algorithm>

#include <fmt/format.h>

#include "systemc/common/config_keys.h"
#include "systemc/common/energy_config.h"
#include "systemc/kernel/lanes.h"

namespace wormcast {
namespace {

const Choices<RouterModel> kRouterModels = {{"sc", RouterModel::SystemC}, {"rtl", RouterModel::Rtl}, {"mixed", RouterModel::Mixed}};
const Choices<LocalPorts> kLocalPorts = {{"all", LocalPorts::All}, {"one", LocalPorts::One}};
const Choices<VcRealloc> kVcRealloc = {{"empty", VcRealloc::Empty}, {"tail", VcRealloc::Tail}};
const Choices<RouterRouting> kRoutings = {
    {"dor", RouterRouting::Dor}, {"min-adaptive", RouterRouting::MinAdaptive}, {"valiant", RouterRouting::Valiant}};
const Choices<RouterPreset> kPresets = {{"none", RouterPreset::None}, {"booksim-iq", RouterPreset::BooksimIq}};
const Choices<RouterPipeline> kPipelines = {{"lumped", RouterPipeline::Lumped}, {"staged", RouterPipeline::Staged}};
const Choices<VcClassRule> kVcClassRules = {{"hop", VcClassRule::Hop}, {"entry", VcClassRule::Entry}};
const Choices<InjectionVc> kInjectionVcs = {{"turn", InjectionVc::Turn}, {"free", InjectionVc::Free}};
const Choices<SwitchAccept> kSwitchAccepts = {{"vc", SwitchAccept::Vc}, {"port", SwitchAccept::Port}};
// router.preset = booksim-iq: the keys it sets unless given (docs/router.md section 11). An
// input-queued router of four 1-cycle stages (route, VC allocation, switch allocation, switch
// traversal: R = 4), staged as BookSim2's, 1-cycle channels (Ld = 1, one extra cycle on the
// injection and on the ejection channel, a credit turn of two cycles: Cd = 1, and at the NIC, which
// has no switch stage to make up for, of one: Cdi = 0; an ejection credit returned as late as a
// router's for a body flit: Cde = 3), output VCs freed
// at the tail, one-iteration iSLIP allocators, dateline classes decided at dimension entry, a NIC
// that takes the first VC with a credit, k/2 ties broken at random per packet, a switch allocator
// whose input ports accept by output port.
const Overrides kBooksimIq = {
    {"router.router_delay", "4"},     {"router.link_delay", "1"},      {"router.credit_delay", "1"},
    {"router.injection_credit_delay", "0"}, {"router.ejection_credit_delay", "3"},
    {"router.injection_delay", "1"},  {"router.ejection_delay", "1"},  {"router.vc_realloc", "tail"},
    {"router.allocator", "islip"},    {"router.islip_iterations", "1"}, {"traffic.tie", "random"},
    {"router.pipeline", "staged"},    {"router.vc_class", "entry"},     {"router.injection_vc", "free"},
    {"router.switch_accept", "port"}};
const Choices<RouterAllocator> kAllocators = {{"input-first", RouterAllocator::InputFirst},
                                              {"output-first", RouterAllocator::OutputFirst},
                                              {"islip", RouterAllocator::Islip}};
const Choices<TiePolicy> kTiePolicies = {{"plus", TiePolicy::Plus}, {"random", TiePolicy::Random}, {"balanced", TiePolicy::Balanced}};

static_assert(kMaxThreads == 64, "sim.threads names the range 1..64");

}  // namespace

std::vector<ConfigKey> torus_router_keys() {
  std::vector<ConfigKey> keys = {
      choice_key("router.model", "sc", kRouterModels, &RouterConfig::model, "sc, rtl or mixed",
                   "router implementation: SystemC, the Verilated Verilog twin (its model built on first use and "
                   "cached: wormcast rtl), or mixed (RTL where the coordinate sum is even)"),
      choice_key("router.local_ports", "all", kLocalPorts, &RouterConfig::local_ports,
                   "all (2n injection/ejection channels) or one", "port model: all-port or one-port"),
      int_key("router.vcs_per_class", "1", 1, 8, &RouterConfig::vcs_per_class, "V: virtual channels per dateline class"),
      {"router.dateline", "true", "true or false", "two VC classes (p, l/h) on tori; false = one class (can deadlock)",
       [](Config& c, const std::string& v, const ConfigKey& f) { c.part<RouterConfig>().dateline = key_bool(f, v); },
       [](const Config& c) { return nlohmann::json(c.part<RouterConfig>().dateline); }},
      int_key("router.buffer_depth", "4", 1, 64, &RouterConfig::buffer_depth, "B: flits per VC buffer"),
      int_key("router.router_delay", "1", 1, 8, &RouterConfig::router_delay, "R: cycles from buffer write to switch"),
      int_key("router.link_delay", "0", 0, 8, &RouterConfig::link_delay, "Ld: extra cycles per network link"),
      int_key("router.credit_delay", "0", 0, 8, &RouterConfig::credit_delay, "Cd: extra cycles before a credit is usable"),
      {"router.injection_credit_delay", "same", "same or 0..8",
       "Cdi: extra cycles before an injection credit is usable at the NIC; same: Cd",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         c.part<RouterConfig>().injection_credit_delay = v == "same" ? -1 : int(key_int(f, v, 0, 8));
       },
       [](const Config& c) {
         const int d = c.part<RouterConfig>().injection_credit_delay;
         return d < 0 ? nlohmann::json("same") : nlohmann::json(d);
       }},
      choice_key("router.vc_realloc", "empty", kVcRealloc, &RouterConfig::vc_realloc, "empty or tail",
                   "when an output VC takes the next packet: its downstream buffer empty and every credit back, "
                   "or once the previous tail has been sent"),
      choice_key("router.allocator", "input-first", kAllocators, &RouterConfig::allocator,
                   "input-first, output-first or islip",
                   "separable allocator of VC and switch allocation (docs/router.md 5.6)"),
      int_key("router.islip_iterations", "1", 1, 8, &RouterConfig::islip_iterations,
                "iterations of the islip allocator"),
      int_key("router.injection_delay", "0", 0, 8, &RouterConfig::injection_delay,
                "Di: extra cycles a flit spends on an injection channel (NIC to router)"),
      int_key("router.ejection_delay", "0", 0, 8, &RouterConfig::ejection_delay,
                "De: extra cycles a flit spends on an ejection channel (router to NIC)"),
      int_key("router.ejection_credit_delay", "0", 0, 8, &RouterConfig::ejection_credit_delay,
                "Cde: cycles the NIC holds an ejection flit's credit before it returns it"),
      choice_key("router.preset", "none", kPresets, &RouterConfig::preset, "none or booksim-iq",
                   "a named router: booksim-iq sets R 4, Ld 1, Cd 1, Cdi 0, Cde 3, Di 1, De 1, vc_realloc tail, allocator islip "
                   "(1 iteration), pipeline staged, vc_class entry, injection_vc free, switch_accept port and "
                   "traffic.tie random, each unless given"),
      choice_key("router.pipeline", "lumped", kPipelines, &RouterConfig::pipeline, "lumped or staged",
                 "lumped: route, VC and switch allocation at one edge; staged: BookSim2's input-queued stages (a "
                 "head routes, then allocates its VC, then competes for the switch; body flits skip the first two; "
                 "R >= 3; docs/router.md section 11)"),
      choice_key("router.switch_accept", "vc", kSwitchAccepts, &RouterConfig::switch_accept, "vc or port",
                 "switch allocation under allocator islip (the other allocators have no such choice): an input "
                 "port accepts one of its VCs whose output granted it, in turn over its VCs (vc), or one output "
                 "that granted it, in turn over the outputs, each output requested by one VC picked in turn before "
                 "(port, BookSim2's)"),
      choice_key("router.injection_vc", "turn", kInjectionVcs, &RouterConfig::injection_vc, "turn or free",
                 "the VC a NIC gives a new packet: the next in turn, waiting for its credits, or the first in turn "
                 "with a credit, as BookSim2's NIC"),
      {"traffic.tie", "plus", "plus, random or balanced",
       "direction of a distance-k/2 torus dimension: always plus, a coin per message from the source's random stream, "
       "or plus and minus in turn per source",
       [](Config& c, const std::string& v, const ConfigKey& f) { c.traffic.tie = key_choice(f, v, kTiePolicies); },
       [](const Config& c) { return nlohmann::json(name_of(kTiePolicies, c.traffic.tie)); }},
      {"sim.threads", "auto", "auto or 1..64",
       "threads that run the torus routers of one clock edge; auto: one below 4096 routers, else one per core "
       "that the load average leaves free (at least one, at most one per 2048 routers); the results do not depend "
       "on it (docs/kernel.md)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         c.sim.threads = v == "auto" ? 0 : int(key_int(f, v, 1, kMaxThreads));
       },
       [](const Config& c) { return c.sim.threads == 0 ? nlohmann::json("auto") : nlohmann::json(c.sim.threads); }},
      {"sim.lanes", "adaptive", "adaptive, timed or always",
       "with more than one thread, an edge with enough routers awake runs in lanes; timed: in lanes or in one "
       "thread, whichever this run measures faster per awake router (each way re-timed now and then); adaptive: "
       "as timed, and in one thread while the machine's other runnable threads leave no core for this run's "
       "other threads; always: in lanes; the results do not depend on it (docs/kernel.md)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         if (v != "adaptive" && v != "timed" && v != "always") bad_value(f, v);
         c.sim.lanes = v == "always" ? LaneRule::Always : v == "timed" ? LaneRule::Timed : LaneRule::Adaptive;
       },
       [](const Config& c) {
         return nlohmann::json(c.sim.lanes == LaneRule::Always  ? "always"
                               : c.sim.lanes == LaneRule::Timed ? "timed"
                                                                : "adaptive");
       }},
      {"sim.schedule", "auto", "auto, cycles or bands",
       "cycles: every router and NIC port acts at every edge of a cycle before the next cycle; bands: between "
       "the run's checks, each node's edges run as soon as its neighbours' previous cycle has, a band of slices of "
       "the network over many cycles at a time, so that a large network's state is read from memory once per "
       "band instead of once per cycle; one thread (sim.threads above 1 is refused), and with no waveform, hop "
       "or delivery trace and more nodes than sim.band_nodes (else cycles); auto: where bands are possible in "
       "one thread, the one of the two that a probe on the run measures faster (timed stretches of both, again every 1,000 cycles and more), else "
       "cycles; the results do not depend on it (docs/kernel.md section 5)",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         if (v != "auto" && v != "cycles" && v != "bands") bad_value(f, v);
         c.sim.schedule = v == "bands" ? Schedule::Bands : v == "cycles" ? Schedule::Cycles : Schedule::Auto;
       },
       [](const Config& c) {
         return nlohmann::json(c.sim.schedule == Schedule::Bands    ? "bands"
                               : c.sim.schedule == Schedule::Cycles ? "cycles"
                                                                    : "auto");
       }},
      {"sim.band_nodes", "1024", "16..1048576",
       "sim.schedule = bands: nodes of the block of the network that runs several cycles at a time; their state "
       "should fit in the cache (docs/kernel.md section 5)",
       [](Config& c, const std::string& v, const ConfigKey& f) { c.sim.band_nodes = int(key_int(f, v, 16, 1 << 20)); },
       [](const Config& c) { return nlohmann::json(c.sim.band_nodes); }},
  };
  for (ConfigKey& k : keys)
    if (k.key == "router.preset")
      k.implies = [](const std::string& v) { return v == "booksim-iq" ? kBooksimIq : Overrides{}; };
  // The router reports its events (router_activity), so the energy model's keys are its too.
  for (ConfigKey& k : energy_keys()) keys.push_back(std::move(k));
  // Only the iSLIP allocators iterate and accept by port (network.cpp, derive_router_params).
  only_with(keys, "router.islip_iterations", "router.allocator", "islip");
  only_with(keys, "router.switch_accept", "router.allocator", "islip");
  // Bands need the SystemC routers in one thread, and a network of more nodes than a block
  // (network.h, bandable()): a block as large as the network, under this value and the default
  // alike, runs cycle by cycle. (sim.threads auto may take one thread on any network.)
  only_where(
      keys, "sim.band_nodes",
      [](const Config& c) {
        const SimConfig& s = c.sim;
        return s.schedule != Schedule::Cycles && s.threads <= 1 && c.part<RouterConfig>().model == RouterModel::SystemC &&
               c.net.nodes() > std::min(s.band_nodes, SimConfig{}.band_nodes);
      },
      "sim.schedule = auto or bands, sim.threads = auto or 1, router.model = sc and more nodes in net.radix than the "
      "smaller of sim.band_nodes and its default 1024",
      {"sim.schedule", "sim.threads", "router.model", "net.radix"},
      {{"sim.schedule", "auto"}, {"sim.threads", "auto"}, {"router.model", "sc"}});
  // Lanes need more than one thread (network.cpp, resolve_threads): sim.threads above 1, or auto on
  // 4096 routers or more (kAutoMinRouters; one thread below); bands run in one.
  only_where(
      keys, "sim.lanes",
      [](const Config& c) {
        return c.sim.schedule != Schedule::Bands && (c.sim.threads > 1 || (c.sim.threads == 0 && c.net.nodes() >= 4096));
      },
      "sim.schedule = auto or cycles and sim.threads above 1, or auto on 4096 or more nodes in net.radix",
      {"sim.threads", "sim.schedule", "net.radix"}, {{"sim.threads", "2"}, {"sim.schedule", "auto"}});
  return keys;
}

std::vector<ConfigKey> torus_keys() {
  std::vector<ConfigKey> keys = {
      {"net.topology", "torus", "torus, mesh, or a comma list with one of them per dimension",
       "wraparound links per dimension",
       [](Config& c, const std::string& v, const ConfigKey& f) {
         std::vector<bool> t;
         for (auto& p : split_list(v, ',')) {
           if (p != "torus" && p != "mesh") bad_value(f, v);
           t.push_back(p == "torus");
         }
         if (t.size() == 1) t.assign(c.net.radix.size(), t[0]);
         if (t.size() != c.net.radix.size()) bad_value(f, v);
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
  };
  keys.back().list_sep = ',';
  for (ConfigKey& k : torus_router_keys()) keys.push_back(std::move(k));
  for (ConfigKey& k : std::vector<ConfigKey>{
      choice_key("router.routing", "dor", kRoutings, &RouterConfig::routing, "dor, min-adaptive or valiant",
                   "dimension-order routing; minimal adaptive routing with the dimension-order VCs as escape VCs "
                   "(Duato's protocol; docs/router.md section 12; SystemC); or Valiant's "
                   "two-phase routing, dimension order to a random intermediate node and on to the destination "
                   "on a second VC set (docs/router.md section 13; SystemC only)"),
      int_key("router.adaptive_vcs", "2", 1, 8, &RouterConfig::adaptive_vcs,
                "min-adaptive: adaptive VCs per port, beyond the escape VCs (classes x vcs_per_class)"),
      choice_key("router.vc_class", "hop", kVcClassRules, &RouterConfig::vc_class, "hop or entry",
                 "dateline VC class decided at every router from the rest of the path (hop), or where the packet "
                 "enters a dimension and kept through it, as BookSim2's dim_order_torus (entry)"),
       })
    keys.push_back(std::move(k));
  only_with(keys, "router.adaptive_vcs", "router.routing", "min-adaptive");
  // The entry rule picks between the two dateline classes of a torus dimension (router.h,
  // route_of_step); a mesh, or one class, has no choice to make.
  only_where(
      keys, "router.vc_class",
      [](const Config& c) {
        return c.part<RouterConfig>().dateline && std::find(c.net.torus.begin(), c.net.torus.end(), true) != c.net.torus.end();
      },
      "router.dateline = true and a torus dimension in net.topology", {"router.dateline", "net.topology"},
      {{"router.dateline", "true"}});
  return keys;
}

void check_bands_threads(int threads, Schedule schedule) {
  if (schedule == Schedule::Bands && threads > 1)
    throw ConfigError(fmt::format("config: sim.threads = {} is invalid with sim.schedule = bands, which runs in one "
                                  "thread; allowed: auto or 1",
                                  threads));
}

}  // namespace wormcast
