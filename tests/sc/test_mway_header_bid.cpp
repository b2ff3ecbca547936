// Stat-aware header bidding (docs/mway.md section 4.1): a header bids only when the Stat lines
// show a free buffer where it must allocate next; the blind rule, kept as an option, lets refused
// headers take the channel from the body flits. Measured by the channel-line breakdown.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// MST-safe on 4x4x4 past saturation (all-broadcast at 0.03 flits/node/cycle), 3,000 cycles
/// without draining: the channel-line breakdown of links.cycles.
nlohmann::json line_use(const std::string& bid, const std::string& json) {
  const int rc = test::cli({"mway", "--net", "mesh:4x4x4", "--algo", "mst-safe", "--rate", "0.03", "--warmup", "1000",
                            "--measure", "2000", "--set", "sim.drain=0", "--set", "mway.header_bid=" + bid, "--set",
                            "sim.progress=off", "--json", json});
  const auto j = test::take_json(json);
  INFO("exit " << rc);
  REQUIRE(!j.is_null());
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["config"]["mway"]["header_bid"] == bid);
  return j["links"]["cycles"];
}

}  // namespace

/// The breakdown's shares add up to the whole, and body and tail flits move.
static void require_whole(const nlohmann::json& c) {
  double sum = 0;
  for (auto& [k, v] : c.items()) sum += v.get<double>();
  REQUIRE(sum == Approx(1.0).margin(1e-5));
  REQUIRE(c["body_tail"].get<double>() > 0.05);
}

TEST_CASE("mway header bids: with Stat a header never takes the channel without gaining a buffer", "[sc]") {
  const auto stat = line_use("stat", "mway_bid_stat.json");
  INFO(stat.dump());
  REQUIRE(stat["header_ack0_none"].get<double>() == 0.0);
  require_whole(stat);
}

TEST_CASE("mway header bids: blind, refused headers take channel cycles and gain nothing", "[sc]") {
  const auto blind = line_use("blind", "mway_bid_blind.json");
  INFO(blind.dump());
  REQUIRE(blind["header_ack0_none"].get<double>() > 0.01);
  require_whole(blind);
}

TEST_CASE("mway header bids: mway.header_bid outside stat, blind is refused in one line (exit 2)", "[sc]") {
  REQUIRE(test::cli({"mway", "--net", "mesh:4x4", "--set", "mway.header_bid=sometimes"}) == 2);
  REQUIRE(test::cli({"mway", "--net", "mesh:4x4", "--set", "mway.header_bid=blind", "--warmup", "0", "--measure", "100",
                     "--set", "sim.progress=off"}) == 0);
}
