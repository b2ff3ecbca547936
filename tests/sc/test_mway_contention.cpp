// The m-way family under contention: MST-replica loads every replica of a message being loaded,
// however nested (docs/mway.md section 7), and when the watchdog fires every packet in flight is
// classified by the completion contract — a lost tail is a named scoreboard error (exit 1), a
// deadlock comes with its wait-for cycle (exit 3).
#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/kernel/cycle_clock.h"
#include "systemc/mway/network.h"
#include "tb/run/driver.h"
#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// The reproducer: all-broadcast MST-replica, 2 buffers per set, 0.015 flits/node/cycle.
std::vector<std::string> reproducer(const std::string& net, const std::string& json) {
  return {"mway", "--net", net, "--algo", "mst-replica", "--buffers", "2", "--region", "all", "--rate", "0.015",
          "--seed", "13", "--set", "sim.progress=off", "--json", json};
}

/// Exactly once: every injected packet delivered to every other node, nothing left, no error.
// The reproducers run past the family's saturation (the steady-state verdict may call them
// unstable, exit 5); what counts here is that every copy arrives exactly once.
void require_clean(const nlohmann::json& j, int nodes) {
  REQUIRE((j["status"] == "ok" || j["status"] == "unstable"));
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  REQUIRE(j["packets"]["injected"].get<uint64_t>() > 100);
  REQUIRE(j["packets"]["delivered"] == j["packets"]["injected"].get<uint64_t>() * uint64_t(nodes - 1));
}

/// The reproducer's configuration, built without the command line (so a test hook can be set).
Config reproducer_config() {
  return load_config("", {{"net.family", "mway"},
                          {"net.radix", "4x4x4"},
                          {"traffic.packet_len", "5"},
                          {"nic.max_packet", "5"},
                          {"mway.buffer_length", "5"},
                          {"mway.buffers", "2"},
                          {"mway.algo", "mst-replica"},
                          {"traffic.rate", "0.015"},
                          {"traffic.broadcast_fraction", "1"},
                          {"traffic.region", "all"},
                          {"sim.seed", "13"},
                          {"sim.watchdog", "500"},
                          {"sim.progress", "off"}});
}


}  // namespace

TEST_CASE("mway contention: MST-replica on 4x4x4 (2 buffers, 0.015, seed 13) delivers every copy exactly once",
          "[sc]") {
  const std::string json = "mway_contention_444.json";
  const int code = test::cli(reproducer("mesh:4x4x4", json));
  REQUIRE((code == 0 || code == 5));
  require_clean(test::take_json(json), 64);
}

TEST_CASE("mway contention: MST-replica on 5x7 (2 buffers, 0.015, seed 13) delivers every copy exactly once", "[sc]") {
  const std::string json = "mway_contention_57.json";
  const int code = test::cli(reproducer("mesh:5x7", json));
  REQUIRE((code == 0 || code == 5));
  require_clean(test::take_json(json), 35);
}

TEST_CASE("mway completion: a replica left unloaded is lost data (exit 1) naming the packet and the nodes that lack "
          "its tail, not a deadlock",
          "[sc]") {
  const Config cfg = reproducer_config();
  TrafficStats stats(0, 2000, 64);
  NetworkOptions nopt;
  nopt.listener = &stats;
  TrafficTop top("top", cfg, stats, nopt);
  top.traffic->stop_at(2000);
  Network& net = *top.net;
  auto& fabric = dynamic_cast<MwayNetwork&>(net).fabric();
  for (int i = 0; i < fabric.num_nodes(); ++i) fabric.node_interface(i).set_fault_skip_nested_replicas(true);

  RunPhases ph;
  ph.measure = 2000;
  ph.limit = 20000;
  ph.finished = [&](uint64_t cycle) { return cycle >= 2000 && net.outstanding() == 0; };
  const RunResult r = drive(net, cfg.sim, ph, RecordOptions{});
  REQUIRE(r.watchdog);
  REQUIRE(r.status == RunStatus::ScoreboardError);
  REQUIRE(exit_code(r.status) == 1);
  REQUIRE(r.stalled_lost >= 1);
  REQUIRE(r.wait_for.cycle.empty());
  // The message names the packet, the nodes lacking the tail (flit 4), and the injection buffer
  // nobody loads.
  bool named = false;
  for (const std::string& e : net.scoreboard().errors())
    if (e.find("never completed") != std::string::npos && e.find("lacks flit 4") != std::string::npos &&
        e.find(".inj.b") != std::string::npos && e.find("lost flits") != std::string::npos)
      named = true;
  INFO(net.scoreboard().errors().front());
  REQUIRE(named);
}

TEST_CASE("mway completion: every packet in flight at a plain-MST deadlock waits into the wait-for cycle (exit 3)",
          "[sc]") {
  const Config cfg = load_config("", {{"net.family", "mway"},
                                      {"net.radix", "4x4"},
                                      {"traffic.packet_len", "2"},
                                      {"nic.max_packet", "2"},
                                      {"mway.buffer_length", "2"},
                                      {"mway.buffers", "1"},
                                      {"mway.injection_buffers", "1"},
                                      {"mway.ejection_buffers", "1"},
                                      {"mway.algo", "mst"},
                                      {"traffic.rate", "0.3"},
                                      {"traffic.broadcast_fraction", "1"},
                                      {"sim.watchdog", "200"},
                                      {"sim.progress", "off"}});
  TrafficStats stats(0, 300, 16);
  NetworkOptions nopt;
  nopt.listener = &stats;
  TrafficTop top("top", cfg, stats, nopt);
  top.traffic->stop_at(300);
  Network& net = *top.net;
  RunPhases ph;
  ph.measure = 300;
  ph.limit = 5000;
  ph.finished = [&](uint64_t cycle) { return cycle >= 300 && net.outstanding() == 0; };
  const RunResult r = drive(net, cfg.sim, ph, RecordOptions{});
  REQUIRE(r.status == RunStatus::Deadlock);
  REQUIRE(exit_code(r.status) == 3);
  REQUIRE(r.wait_for.cycle.size() >= 2);
  REQUIRE(r.stalled_lost == 0);
  REQUIRE(r.stalled_unclassified == 0);
  REQUIRE(r.stalled_deadlocked == net.scoreboard().in_flight());
  REQUIRE(net.scoreboard().error_count() == 0);
}
