// The dateline classes are what keeps a torus deadlock free: without them the watchdog fires and
// reports who waits for whom; with them the same load runs to completion.
#include <catch2/catch.hpp>

#include "tb/sim.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {
RunOutcome tornado(const std::string& dateline) {
  Config cfg = test::config_for("8x8", "torus",
                                {{"router.dateline", dateline}, {"traffic.pattern", "tornado"}, {"traffic.rate", "0.8"},
                                 {"sim.warmup", "100"}, {"sim.measure", "5000"}, {"sim.drain", "200000"},
                                 {"sim.watchdog", "500"}, {"sim.progress", "off"}});
  return run_traffic(cfg, RunOptions{});
}
}  // namespace

TEST_CASE("deadlock: one VC class on a torus deadlocks and the watchdog reports a wait-for list", "[sc]") {
  const RunOutcome r = tornado("false");
  INFO(r.summary);
  REQUIRE(r.exit_code == 3);
  const auto& d = r.result["deadlock"];
  REQUIRE(d["detected"] == true);
  REQUIRE(d["cycle"].get<uint64_t>() - d["last_move"].get<uint64_t>() >= 500);
  REQUIRE(d["wait_for"].size() > 0);
  for (auto& w : d["wait_for"]) {
    REQUIRE(w["buffer"].get<std::string>().rfind("r_", 0) == 0);
    REQUIRE(!w["waits_for"].get<std::string>().empty());
  }
}

TEST_CASE("deadlock: with dateline classes the same tornado load completes", "[sc]") {
  const RunOutcome r = tornado("true");
  INFO(r.summary);
  REQUIRE(r.exit_code == 0);
  REQUIRE(r.result["deadlock"]["detected"] == false);
  REQUIRE(r.result["packets"]["outstanding_at_end"] == 0);
}
