// Long loaded runs at and above saturation: no deadlock, every flit delivered exactly once and
// in order (the scoreboard), the accepted throughput reported.
#include <catch2/catch.hpp>

#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

void saturate(const std::string& radix, const std::string& rate) {
  Config cfg = test::config_for(radix, "torus",
                                {{"traffic.rate", rate}, {"sim.warmup", "1000"}, {"sim.measure", "200000"},
                                 {"sim.drain", "2000000"}, {"sim.progress", "off"}});
  RunOptions opt;
  const RunOutcome r = run_traffic(cfg, opt);
  const auto& j = r.result;
  INFO(r.summary);
  REQUIRE(r.exit_code == 5);  // drained and clean; beyond saturation the verdict is unstable
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["stability"]["verdict"] == "unstable");
  REQUIRE(j["deadlock"]["detected"] == false);
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["injected"].get<uint64_t>() > 100000);
  REQUIRE(j["packets"]["delivered"] == j["packets"]["injected"]);
  REQUIRE(j["packets"]["outstanding_at_end"] == 0);
  // Above saturation: the network accepts less than is offered, and still more than nothing.
  const double accepted = j["throughput"]["accepted"].get<double>();
  const double offered = j["throughput"]["offered"].get<double>();
  REQUIRE(accepted > 0.1);
  REQUIRE(accepted < offered);
  REQUIRE(j["throughput"]["measured_delivered"] == j["throughput"]["measured_packets"]);
}

}  // namespace

TEST_CASE("saturation: 8x8 torus above saturation for 200k cycles delivers every flit once and in order", "[sc][slow]") {
  saturate("8x8", "0.35");
}

TEST_CASE("saturation: 4x4x4 torus above saturation for 200k cycles delivers every flit once and in order", "[sc][slow]") {
  saturate("4x4x4", "0.6");
}
