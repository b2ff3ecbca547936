// A second router family registered from the test binary — a slotted ring of pass-through
// routers with a configuration key of its own (ring.slot_cycles) — runs through the same CLI,
// configuration schema, run driver, scoreboard, watchdog and JSON as the torus: the proof that a
// family is one folder plus one registration.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/common/config_keys.h"
#include "systemc/common/family.h"
#include "systemc/net/network.h"
#include "tb/cli/commands.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// The ring family's own part of the configuration (ring.* keys).
struct RingConfig {
  int slot_cycles = 1;  ///< a stop starts a flit of its own only on cycles that are a multiple of this
};

/// The word on a ring link: one flit or nothing.
struct RingFlit {
  bool valid = false;
  int dst = 0;
  uint64_t key = 0;
  uint32_t index = 0;
  bool head = false, tail = false;
  bool operator==(const RingFlit& o) const {
    return valid == o.valid && dst == o.dst && key == o.key && index == o.index && head == o.head && tail == o.tail;
  }
};
std::ostream& operator<<(std::ostream& os, const RingFlit& f) { return os << (f.valid ? "flit" : "-"); }
void sc_trace(sc_core::sc_trace_file* tf, const RingFlit& f, const std::string& name) {
  sc_core::sc_trace(tf, f.valid, name + ".valid");
  sc_core::sc_trace(tf, f.dst, name + ".dst");
}

/// One ring stop: the router and its NIC port in one module. Each cycle the flit on the input
/// link is ejected (addressed here) or forwarded; a free output slot carries the next flit of the
/// local queue. A stuck stop (the watchdog case) keeps every arriving flit and never sends.
class RingStop : public sc_core::sc_module, public NicPort {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<RingFlit> in{"in"};
  sc_core::sc_out<RingFlit> out{"out"};

  RingStop(sc_core::sc_module_name name, Nic& core, int nodes, bool stuck, NetActivity& act, int slot_cycles)
      : sc_module(name), m_core(core), m_nodes(nodes), m_stuck(stuck), m_act(act), m_slot_cycles(uint64_t(slot_cycles)) {
    core.attach(this);
    SC_HAS_PROCESS(RingStop);
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  int channels() const override { return 1; }
  int channel_for(const Destination&, bool) const override { return 0; }
  std::shared_ptr<const std::vector<int>> group_of(const Destination& d) const override {
    if (d.is_region() || d.node < 0 || d.node >= m_nodes) throw ConfigError("ring: one destination node");
    return nullptr;
  }
  void wake() override {}
  uint64_t sent = 0;
  std::vector<RingFlit> held;  ///< a stuck stop's flits

 private:
  void tick() {
    const uint64_t t = current_cycle();
    const RingFlit f = in.read();
    RingFlit o;
    if (f.valid && m_stuck) {
      held.push_back(f);
    } else if (f.valid && f.dst == m_core.node()) {
      m_core.received_flit(t, FlitView{f.key, f.index, f.head, f.tail, 0});
    } else if (f.valid) {
      o = f;
    }
    OutPacket* p = m_core.front(0);
    if (!o.valid && !m_stuck && p && p->ready <= t && t % m_slot_cycles == 0) {
      o.valid = true;
      o.dst = p->rec.dst;
      o.key = p->rec.id;
      o.index = p->sent;
      o.head = p->sent == 0;
      o.tail = p->sent + 1 == p->rec.length;
      m_core.sent_flit(0, t);
    }
    if (o.valid) {
      ++sent;
      m_act.moved(t);
    }
    out.write(o);
  }
  Nic& m_core;
  int m_nodes;
  bool m_stuck;
  NetActivity& m_act;
  uint64_t m_slot_cycles;
};

class RingNetwork : public Network {
 public:
  RingNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt, bool stuck)
      : Network(name, cfg, opt) {
    const int n = m_topo.num_nodes();
    for (int i = 0; i < n; ++i) {
      Nic& core = add_nic(std::make_unique<Nic>(fmt::format("nic_{}", i).c_str(), cfg.nic, i, n, &m_sb, opt.listener));
      m_stops.push_back(std::make_unique<RingStop>(node_name(i).c_str(), core, n, stuck && i == 0, m_activity,
                                                   cfg.part<RingConfig>().slot_cycles));
      m_links.push_back(std::make_unique<sc_core::sc_signal<RingFlit>>(fmt::format("link_{}", i).c_str()));
    }
    for (int i = 0; i < n; ++i) {
      m_stops[size_t(i)]->clk(clk);
      m_stops[size_t(i)]->out(*m_links[size_t(i)]);
      m_stops[size_t(i)]->in(*m_links[size_t((i + n - 1) % n)]);
    }
  }
  std::vector<uint64_t> link_counters() const override {
    std::vector<uint64_t> v;
    for (auto& s : m_stops) v.push_back(s->sent);
    return v;
  }
  std::string link_order() const override { return "link i: from stop i to stop i+1"; }
  void trace(sc_core::sc_trace_file* tf) const override {
    for (auto& l : m_links) sc_trace(tf, l->read(), l->name());
  }
  std::string set_hop_observer(HopObserver*) override { return "the ring reports no hops"; }
  uint64_t zero_load(int src, int dst, uint32_t length) const override {
    return uint64_t((dst - src + num_nodes()) % num_nodes()) + length;
  }
  std::vector<WaitEdge> wait_edges() const override {
    std::vector<WaitEdge> v;
    for (size_t i = 0; i < m_stops.size(); ++i)
      if (!m_stops[i]->held.empty())
        v.push_back(WaitEdge{node_name(int(i)) + ".held", node_name(int(i)) + ".out", m_stops[i]->held.front().key,
                             node_name(m_stops[i]->held.front().dst), int(m_stops[i]->held.size())});
    return v;
  }

 private:
  std::vector<std::unique_ptr<RingStop>> m_stops;
  std::vector<std::unique_ptr<sc_core::sc_signal<RingFlit>>> m_links;
};

void register_ring(const std::string& name, bool stuck) {
  Family f;
  f.name = name;
  f.help = "test family: a slotted ring of pass-through stops";
  f.keys = {int_key("ring.slot_cycles", "1", 1, 16, &RingConfig::slot_cycles,
                    "a stop starts a flit of its own only every this many cycles")};
  f.validate = [](Config& c) {
    if (c.net.radix.size() != 1) throw ConfigError("config: net.radix is invalid; allowed: one dimension for a ring");
  };
  f.make = [stuck](sc_core::sc_module_name n, const Config& cfg, const NetworkOptions& opt) -> std::unique_ptr<Network> {
    return std::make_unique<RingNetwork>(n, cfg, opt, stuck);
  };
  register_family(f);
}

using test::cli;

/// What `wormcast <args>` prints on stdout, and its exit code.
std::pair<int, std::string> cli_output(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::streambuf* saved = std::cout.rdbuf(out.rdbuf());
  const int rc = cli(args);
  std::cout.rdbuf(saved);
  return {rc, out.str()};
}

/// The result file, removed after reading; it must exist.
nlohmann::json read_json(const std::string& path) {
  auto j = test::take_json(path);
  REQUIRE(!j.is_null());
  return j;
}

}  // namespace

TEST_CASE("family: a toy ring family runs uniform traffic through the torus's CLI, driver and scoreboard", "[sc]") {
  register_ring("ring", false);
  const std::string json = "family_ring_result.json";
  std::remove(json.c_str());
  REQUIRE(cli({"traffic", "--net", "ring:12", "--rate", "0.05", "--len", "3", "--warmup", "200", "--measure", "3000",
               "--json", json, "--set", "sim.progress=off"}) == 0);
  const nlohmann::json j = read_json(json);
  REQUIRE(j["status"] == "ok");
  REQUIRE(j["config"]["net"]["family"] == "ring");
  REQUIRE(j["config"].count("router") == 0);  // the torus keys are not echoed for another family
  REQUIRE(j["scoreboard"]["errors"] == 0);
  const uint64_t injected = j["packets"]["injected"];
  REQUIRE(injected > 300);
  REQUIRE(j["packets"]["delivered"] == injected);
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  REQUIRE(j["links"]["utilization"].size() == 12);
  REQUIRE(j["links"]["mean_utilization"].get<double>() > 0);
  REQUIRE(j["latency"]["count"].get<int>() > 300);
  // Uniform traffic on a 12-stop unidirectional ring: 6.5 hops on average (+ 3 flits).
  REQUIRE(j["network_latency"]["mean"].get<double>() > 6.5 + 3 - 1);
  REQUIRE(j["deadlock"]["detected"] == false);
}

TEST_CASE("family: the watchdog stops a toy ring whose stop holds every flit (a stall without a wait-for cycle: exit "
          "1, not a deadlock; its wait edge reported)",
          "[sc]") {
  register_ring("ring-stuck", true);
  const std::string json = "family_ring_stuck.json";
  std::remove(json.c_str());
  REQUIRE(cli({"traffic", "--net", "ring-stuck:6", "--rate", "0.05", "--len", "2", "--warmup", "0", "--measure",
               "2000", "--json", json, "--set", "sim.progress=off", "--set", "sim.watchdog=300"}) == 1);
  const nlohmann::json j = read_json(json);
  REQUIRE(j["status"] == "scoreboard_error");
  REQUIRE(j["deadlock"]["detected"] == false);
  const auto& waits = j["stall"]["wait_for"]["waits"];
  REQUIRE(waits.size() == 1);
  REQUIRE(waits[0]["waiter"] == "n_0.held");
  REQUIRE(waits[0]["occupancy"].get<int>() > 0);
  REQUIRE(j["stall"]["wait_for"]["cycle"].empty());
  REQUIRE(j["stall"]["lost"] == 0);
  bool said = false;
  for (auto& e : j["scoreboard"]["first_errors"])
    said |= e.get<std::string>().find("a stall that is not a deadlock") != std::string::npos;
  REQUIRE(said);
}

TEST_CASE("family: keys of another family are refused with exit 2 naming the family", "[sc]") {
  register_ring("ring", false);
  REQUIRE(cli({"traffic", "--net", "ring:8", "--set", "router.vcs_per_class=2"}) == 2);
  REQUIRE(cli({"traffic", "--net", "ring:4x4"}) == 2);          // the family's own rule
  REQUIRE(cli({"traffic", "--net", "nosuchfamily:8"}) == 2);    // not registered
  REQUIRE_THROWS_WITH(load_config("", {{"net.family", "ring"}, {"net.radix", "8"}, {"router.dateline", "false"}}),
                      Catch::Contains("router.dateline belongs to the torus and ibt families"));
}

TEST_CASE("family: a toy family's own key is in the schema, `wormcast config`, --set, YAML and the echo", "[sc]") {
  register_ring("ring", false);
  // `wormcast config` lists it with its default, range and family.
  const auto [rc, reference] = cli_output({"config"});
  REQUIRE(rc == 0);
  REQUIRE_THAT(reference, Catch::Contains("ring.slot_cycles"));
  REQUIRE_THAT(reference, Catch::Contains("a stop starts a flit of its own only every this many cycles [family ring"));
  REQUIRE_THAT(reference, Catch::Contains("allowed: 1..16"));

  // --set and YAML: applied within the range, a one-line error naming the key and range outside it.
  REQUIRE(load_config("", {{"net.family", "ring"}, {"net.radix", "8"}}).part<RingConfig>().slot_cycles == 1);
  REQUIRE(load_config("", {{"net.family", "ring"}, {"net.radix", "8"}, {"ring.slot_cycles", "5"}})
              .part<RingConfig>()
              .slot_cycles == 5);
  const Config y = load_config_text("ring.yaml", "net:\n  family: ring\n  radix: 8\nring:\n  slot_cycles: 3\n");
  REQUIRE(y.part<RingConfig>().slot_cycles == 3);
  REQUIRE(y.echo()["ring"]["slot_cycles"] == 3);
  REQUIRE(y.echo().count("router") == 0);
  REQUIRE_THROWS_WITH(load_config("", {{"net.family", "ring"}, {"net.radix", "8"}, {"ring.slot_cycles", "17"}}),
                      "config: ring.slot_cycles = '17' is invalid; allowed: 1..16 (a decimal integer)");
  REQUIRE_THROWS_WITH(load_config_text("ring.yaml", "net:\n  family: ring\n  radix: 8\nring:\n  slot_cycles: 0\n"),
                      "config: ring.slot_cycles = '0' is invalid; allowed: 1..16 (a decimal integer)");
  REQUIRE_THROWS_WITH(load_config("", {{"ring.slot_cycles", "2"}}),
                      Catch::Contains("ring.slot_cycles belongs to the ring family; allowed with net.family = torus"));
  REQUIRE_THROWS_WITH(load_config("", {{"net.family", "ring"}, {"net.radix", "8"}, {"ring.slot_cycle", "2"}}),
                      Catch::Contains("did you mean 'ring.slot_cycles'?"));
  // A fraction inside the range is refused as not an integer (the range alone read as if it held it).
  REQUIRE(key_value_error("ring.slot_cycles", "2.5") == "'2.5' is invalid; allowed: 1..16 (a decimal integer) (key ring.slot_cycles)");
  REQUIRE(key_value_error("ring.slot_cycles", "0") == "'0' is invalid; allowed: 1..16 (a decimal integer) (key ring.slot_cycles)");
  REQUIRE(cli({"traffic", "--net", "ring:8", "--set", "ring.slot_cycles=0"}) == 2);
  REQUIRE(cli({"config", "--check", "--set", "net.family=ring", "--set", "net.radix=8", "--set",
               "ring.slot_cycles=99"}) == 2);
  // The torus's keys do not know it, and the torus's echo does not show it.
  REQUIRE(load_config("", {}).echo().count("ring") == 0);
}

TEST_CASE("family: a toy family's own key changes its run and is echoed into the result", "[sc]") {
  register_ring("ring", false);
  const std::string json = "family_ring_slots.json";
  std::remove(json.c_str());
  REQUIRE(cli({"traffic", "--net", "ring:8", "--rate", "0.02", "--len", "1", "--warmup", "100", "--measure", "4000",
               "--json", json, "--set", "sim.progress=off", "--set", "ring.slot_cycles=8"}) == 0);
  const nlohmann::json j = read_json(json);
  REQUIRE(j["status"] == "ok");
  REQUIRE(j["config"]["ring"]["slot_cycles"] == 8);
  // One-flit packets on an 8-stop ring travel 4.5 hops on average (+ 1 cycle to eject): with a
  // slot every cycle the mean latency at this load is about 5.5; a flit that waits for the next
  // of every 8th cycle waits 3.5 cycles more on average (10.2 measured).
  REQUIRE(j["latency"]["mean"].get<double>() > 5.5 + 2);
}
