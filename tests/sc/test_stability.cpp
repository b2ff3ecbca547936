// The stability verdict of a traffic run and its exit code (5: unstable or did not drain; 1 stays
// for scoreboard errors): a light load is stable (exit 0); beyond saturation the sources' queues
// overflow and the backlog keeps growing (exit 5, status unstable, the reasons listed); a run
// that cannot drain within sim.drain is drain_timeout (exit 5) with its undelivered measured
// packets counted; a mean latency above sim.latency_threshold is unstable.
#include <cmath>

#include <catch2/catch.hpp>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

nlohmann::json traffic(const std::vector<std::string>& extra, int want_exit, const std::string& json) {
  std::vector<std::string> a{"traffic", "--net", "torus:8x8", "--warmup", "500", "--measure", "4000", "--set",
                             "sim.progress=off", "--json", json};
  a.insert(a.end(), extra.begin(), extra.end());
  REQUIRE(cli(a) == want_exit);
  auto j = take_json(json);
  REQUIRE(!j.is_null());
  REQUIRE(j["scoreboard"]["errors"] == 0);
  return j;
}

bool has_reason(const nlohmann::json& j, const std::string& part) {
  for (auto& r : j["stability"]["reasons"])
    if (r.get<std::string>().find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("stability: a light load is stable, exit 0, its backlog flat within the tolerance", "[sc]") {
  const auto j = traffic({"--rate", "0.05"}, 0, "stab_light.json");
  REQUIRE(j["status"] == "ok");
  REQUIRE(j["stability"]["verdict"] == "stable");
  REQUIRE(j["stability"]["reasons"].empty());
  REQUIRE(j["throughput"]["stable"] == true);
  REQUIRE(j["throughput"]["measured_undelivered"] == 0);
  const double tol = j["stability"]["tolerance"];
  for (const char* series : {"backlog", "packets_owed"}) {
    const auto& ci = j["stability"][series]["relative_ci95"];
    REQUIRE(ci[0].get<double>() >= -tol);
    REQUIRE(ci[1].get<double>() <= tol);
  }
  REQUIRE(j["stability"]["warmup"]["transient_over"] == true);
  // The batch-means latency agrees with the whole window's within its interval (plus rounding).
  const auto& lat = j["stability"]["latency"];
  REQUIRE(lat["batches"] == 20);
  REQUIRE(std::abs(lat["mean"].get<double>() - j["latency"]["mean"].get<double>()) <=
          lat["ci95_half_width"].get<double>() + 0.01);
}

TEST_CASE("stability: beyond saturation the run is unstable, exit 5, with its reasons", "[sc]") {
  const auto j = traffic({"--rate", "0.9", "--set", "traffic.source_queue=20"}, 5, "stab_sat.json");
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["stability"]["verdict"] == "unstable");
  REQUIRE(has_reason(j, "dropped at full source queues"));
  REQUIRE(has_reason(j, "keeps growing"));
  REQUIRE(j["throughput"]["stable"] == false);
  REQUIRE(j["throughput"]["accepted"].get<double>() < 0.95 * j["throughput"]["offered"].get<double>());
}

TEST_CASE("stability: a run that cannot drain is drain_timeout, exit 5, its undelivered packets counted", "[sc]") {
  const auto j = traffic({"--rate", "0.6", "--set", "sim.drain=0"}, 5, "stab_drain.json");
  REQUIRE(j["status"] == "drain_timeout");
  REQUIRE(has_reason(j, "did not drain"));
  REQUIRE(j["throughput"]["measured_undelivered"].get<uint64_t>() > 0);
  REQUIRE(j["throughput"]["measured_undelivered"].get<uint64_t>() ==
          j["throughput"]["measured_packets"].get<uint64_t>() - j["throughput"]["measured_delivered"].get<uint64_t>());
}

TEST_CASE("stability: a mean latency above sim.latency_threshold is unstable, exit 5", "[sc]") {
  // At 0.05 flits/node/cycle the 8x8 torus's mean latency is about 10 cycles: above a threshold of 5.
  const auto j = traffic({"--rate", "0.05", "--set", "sim.latency_threshold=5"}, 5, "stab_thr.json");
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["stability"]["reasons"].size() == 1);
  REQUIRE(has_reason(j, "sim.latency_threshold = 5"));
  REQUIRE(j["latency"]["mean"].get<double>() > 5.0);
}
