// The dateline classes are what keeps a torus deadlock free: without them the watchdog fires and
// reports the wait-for graph with a real cycle (JSON and DOT); with them the same load completes.
// And run_traffic refuses a second network in its process (SystemC elaborates once).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {
RunOutcome tornado(const std::string& dateline, const std::string& dot = "") {
  Config cfg = test::config_for("8x8", "torus",
                                {{"router.dateline", dateline}, {"traffic.pattern", "tornado"}, {"traffic.rate", "0.8"},
                                 {"sim.warmup", "100"}, {"sim.measure", "5000"}, {"sim.drain", "200000"},
                                 {"sim.watchdog", "500"}, {"sim.progress", "off"}});
  RunOptions opt;
  opt.deadlock_dot_path = dot;
  return run_traffic(cfg, opt);
}
}  // namespace

TEST_CASE("deadlock: one VC class on a torus deadlocks and the wait-for graph has a real cycle (JSON and DOT)", "[sc]") {
  const std::string dot_path = "deadlock_test_wait_for.dot";
  std::remove(dot_path.c_str());
  const RunOutcome r = tornado("false", dot_path);
  INFO(r.summary);
  REQUIRE(r.exit_code == 3);
  const auto& d = r.result["deadlock"];
  REQUIRE(d["detected"] == true);
  REQUIRE(d["cycle"].get<uint64_t>() - d["last_move"].get<uint64_t>() >= 500);
  const auto& g = d["wait_for"];
  REQUIRE(g["waits"].size() > 0);
  // The graph's edges as reported, waiter -> holder.
  std::set<std::pair<std::string, std::string>> edges;
  for (auto& w : g["waits"]) {
    REQUIRE(w["waiter"].get<std::string>().rfind("r_", 0) == 0);
    REQUIRE(w["occupancy"].get<int>() > 0);
    if (!w["holder"].is_null()) edges.emplace(w["waiter"].get<std::string>(), w["holder"].get<std::string>());
  }
  // The cycle is a real cycle of that graph: every consecutive pair (and last -> first) is an
  // edge, and no buffer repeats.
  const auto& cyc = g["cycle"];
  REQUIRE(cyc.size() >= 2);
  std::set<std::string> distinct;
  for (size_t i = 0; i < cyc.size(); ++i) {
    const std::string a = cyc[i], b = cyc[(i + 1) % cyc.size()];
    INFO(a << " -> " << b);
    REQUIRE(edges.count({a, b}) == 1);
    distinct.insert(a);
  }
  REQUIRE(distinct.size() == cyc.size());
  // Every buffer on the cycle holds flits (it is a waiter itself).
  std::set<std::string> waiters;
  for (auto& w : g["waits"]) waiters.insert(w["waiter"].get<std::string>());
  for (auto& b : cyc) REQUIRE(waiters.count(b.get<std::string>()) == 1);

  // The DOT file: a digraph whose node labels are the buffers and which has exactly the edges.
  std::ifstream in(dot_path);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const std::string dot = text.str();
  REQUIRE(dot.rfind("digraph wait_for {", 0) == 0);
  std::map<std::string, std::string> label;  // n17 -> r_2_3.in_0.vc0
  std::set<std::pair<std::string, std::string>> dot_edges, red;
  std::istringstream lines(dot);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  n", 0) != 0) continue;  // only node and edge statements
    const auto arrow = line.find(" -> ");
    const auto lab = line.find("[label=\"");
    if (arrow != std::string::npos) {
      const std::string a = line.substr(2, arrow - 2);
      const std::string b = line.substr(arrow + 4, line.find_first_of(" ;", arrow + 4) - arrow - 4);
      dot_edges.emplace(a, b);
      if (line.find("color=red") != std::string::npos) red.emplace(a, b);
    } else if (lab != std::string::npos) {
      label[line.substr(2, line.find(' ', 2) - 2)] = line.substr(lab + 8, line.find('"', lab + 8) - lab - 8);
    }
  }
  std::set<std::pair<std::string, std::string>> named;
  for (auto& [a, b] : dot_edges) named.emplace(label.at(a), label.at(b));
  REQUIRE(named == edges);
  REQUIRE(red.size() == cyc.size());
  for (auto& [a, b] : red) REQUIRE(edges.count({label.at(a), label.at(b)}) == 1);
  std::remove(dot_path.c_str());
}

TEST_CASE("deadlock: with dateline classes the same tornado load completes", "[sc]") {
  const RunOutcome r = tornado("true");
  INFO(r.summary);
  REQUIRE(r.exit_code == 5);  // drained and clean; the load is beyond saturation: unstable
  REQUIRE(r.result["status"] == "unstable");
  REQUIRE(r.result["deadlock"]["detected"] == false);
  REQUIRE(r.result["packets"]["outstanding_at_end"] == 0);
}

TEST_CASE("run_traffic: a second network in the process is refused with a ConfigError naming the rule", "[sc]") {
  Config cfg = test::config_for("4x4", "torus", {{"sim.warmup", "10"}, {"sim.measure", "50"}, {"sim.progress", "off"}});
  REQUIRE(run_traffic(cfg, RunOptions{}).exit_code == 0);
  try {
    run_traffic(cfg, RunOptions{});
    FAIL("a second run_traffic call was not refused");
  } catch (const ConfigError& e) {
    REQUIRE(std::string(e.what()).find("a network is built once per process") != std::string::npos);
  }
}
