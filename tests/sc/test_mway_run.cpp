// The m-way family through the same CLI, run driver, scoreboard, watchdog and JSON as the torus:
// plain MST deadlocks on the configuration of docs/mway.md section 10 (exit 3, a wait-for cycle in
// the JSON and the DOT file); MST-safe and MST-replica complete the same run with a clean
// scoreboard; region broadcasts reach every addressed node exactly once on a 9-D hypercube.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/cli/commands.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

using test::cli;

/// The result file, removed after reading; it must exist.
nlohmann::json read_json(const std::string& path) {
  auto j = test::take_json(path);
  REQUIRE(!j.is_null());
  return j;
}

/// All 16 nodes of a 4x4 broadcast at a high rate into one 2-flit buffer per set.
int tight_run(const std::string& algo, const std::string& json, const std::string& dot) {
  std::vector<std::string> args{"mway", "--net", "mesh:4x4", "--algo", algo, "--len", "2", "--buffers", "1", "--rate",
                                "0.3", "--warmup", "0", "--measure", "300", "--set", "mway.injection_buffers=1",
                                "--set", "mway.ejection_buffers=1", "--set", "sim.watchdog=200", "--set",
                                "sim.progress=off", "--json", json};
  if (!dot.empty()) args.insert(args.end(), {"--deadlock-dot", dot});  // an empty path is refused
  return cli(args);
}

}  // namespace

TEST_CASE("mway run: plain MST deadlocks (exit 3) with a real wait-for cycle in the JSON and the DOT file", "[sc]") {
  const std::string json = "mway_mst_dl.json", dot = "mway_mst_dl.dot";
  std::remove(dot.c_str());
  REQUIRE(tight_run("mst", json, dot) == 3);
  const auto j = read_json(json);
  REQUIRE(j["status"] == "deadlock");
  const auto& g = j["deadlock"]["wait_for"];
  std::set<std::pair<std::string, std::string>> edges;
  for (auto& w : g["waits"])
    if (!w["holder"].is_null()) edges.emplace(w["waiter"], w["holder"]);
  const auto& cyc = g["cycle"];
  REQUIRE(cyc.size() >= 2);
  for (size_t i = 0; i < cyc.size(); ++i) REQUIRE(edges.count({cyc[i], cyc[(i + 1) % cyc.size()]}) == 1);
  std::ifstream in(dot);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::remove(dot.c_str());
  for (auto& b : cyc) REQUIRE(text.str().find("label=\"" + b.get<std::string>() + "\", color=red") != std::string::npos);
}

TEST_CASE("mway run: MST-safe completes the run on which plain MST deadlocks, scoreboard clean", "[sc]") {
  const std::string json = "mway_safe.json", dot = "mway_safe.dot";
  std::remove(dot.c_str());
  // Far past saturation: the stability verdict may call the run unstable (exit 5); it must
  // complete with every copy delivered and no deadlock.
  const int rc = tight_run("mst-safe", json, dot);
  REQUIRE((rc == 0 || rc == 5));
  const auto j = read_json(json);
  REQUIRE((j["status"] == "ok" || j["status"] == "unstable"));
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  REQUIRE(j["packets"]["injected"].get<uint64_t>() > 50);
  REQUIRE(j["packets"]["delivered"] == j["packets"]["injected"].get<uint64_t>() * 15);  // 15 others each
  REQUIRE(!std::ifstream(dot).good());  // no deadlock, no DOT file
}

TEST_CASE("mway run: MST-replica completes the run on which plain MST deadlocks, scoreboard clean", "[sc]") {
  const std::string json = "mway_replica.json";
  const int rc = tight_run("mst-replica", json, "");
  REQUIRE((rc == 0 || rc == 5));  // as MST-safe above
  const auto j = read_json(json);
  REQUIRE((j["status"] == "ok" || j["status"] == "unstable"));
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["delivered"] == j["packets"]["injected"].get<uint64_t>() * 15);
}

TEST_CASE("mway run: random-region broadcasts mixed with unicasts on a 9-cube, each addressed node once", "[sc]") {
  const std::string json = "mway_cube.json";
  REQUIRE(cli({"mway", "--net", "cube:9", "--algo", "mst-replica", "--rate", "0.0005", "--broadcast-fraction", "0.5",
               "--region", "random", "--warmup", "0", "--measure", "1500", "--set", "sim.progress=off", "--json",
               json}) == 0);
  const auto j = read_json(json);
  REQUIRE(j["config"]["net"]["radix"] == "2x2x2x2x2x2x2x2x2");
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > j["packets"]["injected"].get<uint64_t>());
  REQUIRE(j["links"]["injection_rate"].get<double>() > 0);
  REQUIRE(j["message_latency"]["count"].get<int>() > 40);  // about 0.0005 * 512 * 1500 / 5 = 77 messages
}

TEST_CASE("mway run: MST-safe with a buffer shorter than the message is refused (exit 2), plain MST is not", "[sc]") {
  REQUIRE(cli({"mway", "--net", "mesh:4x4", "--algo", "mst-safe", "--buffer-length", "2", "--len", "5"}) == 2);
  REQUIRE(cli({"mway", "--net", "cube:17"}) == 2);
  REQUIRE(cli({"mway", "--net", "cube:16"}) == 2);  // 33 ways: beyond the 32-bit way mask
  REQUIRE(cli({"mway", "--net", "mesh:4x4", "--set", "router.vcs_per_class=2"}) == 2);  // a torus key
  REQUIRE(cli({"mway", "--net", "mesh:4x4", "--algo", "mst", "--buffer-length", "2", "--len", "5", "--rate", "0.001",
               "--warmup", "0", "--measure", "200", "--set", "sim.progress=off"}) == 0);
}
