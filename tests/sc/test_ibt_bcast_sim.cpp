// Pipelined k-packet broadcasts of the step simulator run as node programs on the cycle-accurate
// ibt family (`wormcast ibt bcast --simulate`): every node of the group other than the source
// receives every packet exactly once (program receive counts, the scoreboard, the step-trace
// check), and with no software latency a step costs at most one hop's zero-load time,
// (h + 1) R + L = L + 2 cycles (a node sends as soon as its packets of earlier steps are in, so a
// send the step simulator delayed for a busy link may go earlier); the global broadcast of 8
// packets on iBT(16^2; <4>) takes exactly T (L + 2) cycles.
#include <catch2/catch.hpp>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

void bcast(std::vector<std::string> args, int len, const std::string& json, bool exact = false) {
  args.insert(args.begin(), {"ibt", "bcast"});
  args.insert(args.end(), {"--simulate", "--len", std::to_string(len), "--set", "sim.progress=off", "--json", json});
  REQUIRE(cli(args) == 0);
  const auto j = take_json(json);
  REQUIRE(!j.is_null());
  const auto& s = j["simulation"];
  REQUIRE(s["status"] == "ok");
  REQUIRE(s["every_node_has_every_packet_once"] == true);
  REQUIRE(s["step_trace_errors"].empty());
  REQUIRE(s["errors"].empty());
  const int steps = s["steps"];
  REQUIRE(steps > 0);
  const int cycles = s["measured_cycles"];
  CHECK(cycles <= steps * (len + 2));
  CHECK(cycles > (steps - 1) * (len + 2) / 2);
  if (exact) CHECK(cycles == steps * (len + 2));
  REQUIRE(s["messages"].get<int64_t>() == j["sends"].get<int64_t>());
}

}  // namespace

TEST_CASE("ibt bcast --simulate: global broadcast of 8 packets on iBT 16x16 b=4", "[sc]") {
  bcast({"--net", "ibt:16x16", "--bypass", "4", "--algo", "global", "-k", "8"}, 4, "ibt_sim_global.json", true);
}

TEST_CASE("ibt bcast --simulate: line broadcast of 6 packets on iBT 24x24 b=4+8 in dimension 1", "[sc]") {
  bcast({"--net", "ibt:24x24", "--bypass", "4,8", "--algo", "line", "--dim", "1", "-k", "6", "--source", "5,7"}, 3,
        "ibt_sim_line.json");
}

TEST_CASE("ibt bcast --simulate: rectangular broadcast of 8 packets on iBT 12x12 b=4", "[sc]") {
  bcast({"--net", "ibt:12x12", "--bypass", "4", "--algo", "rect", "-k", "8", "--source", "3"}, 5, "ibt_sim_rect.json");
}

TEST_CASE("ibt bcast --simulate: torus spanning trees of 8 packets on torus 8x8", "[sc]") {
  bcast({"--net", "torus:8x8", "--algo", "trees", "-k", "8"}, 4, "ibt_sim_trees.json");
}
