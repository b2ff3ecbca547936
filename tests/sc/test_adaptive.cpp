// Minimal adaptive routing (docs/router.md section 12): every packet delivered exactly once, at
// and beyond saturation, with no deadlock (the comparison with dimension order on transpose is
// tests/cli/test_adaptive_transpose.sh: two runs, two processes).
#include <catch2/catch.hpp>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

// A run of `measure` cycles whose injection then stops and whose network drains: every packet
// injected (measured or not) is delivered, the scoreboard is clean, nothing is left anywhere.
nlohmann::json drained_run(const std::string& net, const std::string& pattern, const std::string& rate,
                           const std::string& measure, const std::vector<std::string>& sets) {
  std::vector<std::string> args{"traffic", "--net", net, "--rate", rate, "--warmup", "0", "--measure", measure,
                                "--set", "traffic.pattern=" + pattern, "--set", "sim.drain=200000", "--set",
                                "sim.progress=off", "--json", "adaptive.json"};
  for (auto& s : sets) args.insert(args.end(), {"--set", s});
  const int rc = cli(args);
  auto j = take_json("adaptive.json");
  INFO("exit " << rc << ", status " << j["status"]);
  REQUIRE((rc == 0 || rc == 5));  // ok, or unstable beyond saturation: never a deadlock or a lost flit
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["in_flight_at_end"] == 0);
  REQUIRE(j["packets"]["injected"] == j["packets"]["delivered"]);
  REQUIRE(j["throughput"]["measured_undelivered"] == 0);
  return j;
}

}  // namespace

TEST_CASE("min-adaptive: 8x8 torus, uniform beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:8x8", "uniform", "0.7", "200000", {"router.routing=min-adaptive"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 1000000);
}

TEST_CASE("min-adaptive: 4x4x4 torus, transpose beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:4x4x4", "transpose", "0.6", "200000",
                             {"router.routing=min-adaptive", "router.adaptive_vcs=1", "router.vc_realloc=tail"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 500000);
}
