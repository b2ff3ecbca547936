// m-way lockstep runs: the RTL fabric (Verilated units of rtl/mway/) and the SystemC fabric agree
// on every channel's lines and every buffer-state table in every cycle (40,000 cycles a run in the
// default suite, 100,000 under the `long` label), for MST-safe, MST-replica
// and MST-unicast on a 4x4 mesh, a 4x4x4 mesh and a 4-cube, at a low and a saturating load of
// mixed unicasts and region broadcasts; and the deliberately broken builds are caught.
#include <catch2/catch.hpp>

#include <string>

#include "tb/rtl/mway/mw_lockstep.h"

using namespace wormcast;

/// Cycles of each run: 40,000 in the default suite, 100,000 under the `long` label (tests/rtl/main.cpp).
extern uint64_t g_mway_lockstep_cycles;

namespace {

enum class Load { Low, Saturating };

MwLockstepResult run(const std::string& config, Load load, uint64_t seed) {
  MwLockstepOptions opt;
  opt.cycles = g_mway_lockstep_cycles;
  opt.seed = seed;
  opt.rate = load == Load::Low ? 0.002 : 0.05;
  opt.broadcast_fraction = 0.3;
  return run_mway_lockstep(find_mway_rtl_model(config), opt);
}

void check_agreement(const std::string& config, Load load, uint64_t seed) {
  const MwRtlModelInfo& model = find_mway_rtl_model(config);
  const MwayAlgorithm alg = model.mway_params().algorithm;
  const MwLockstepResult r = run(config, load, seed);
  INFO(r);
  REQUIRE(r.ok);
  REQUIRE(r.cycles >= g_mway_lockstep_cycles);
  // The run exercised the fabric: both kinds of message, every kind of channel cycle.
  CHECK(r.unicasts > 200);
  CHECK(r.broadcasts > 100);
  CHECK(r.deliveries > 5000);
  CHECK(r.header_ack > 1000);
  CHECK(r.body_tail > 1000);
  if (load == Load::Saturating) {
    // Messages wait at their sources; a tree's header waits at its ways: it reserves (MST-safe,
    // MST-replica) or splits (MST-replica). A unicast header bids only when its way has a free
    // buffer (Stat), so under MST-unicast every header is taken when it is driven.
    CHECK(r.max_queued >= 4);
    if (alg != MwayAlgorithm::MstUnicast) CHECK(r.reservations > 100);
    if (alg == MwayAlgorithm::MstReplica) CHECK(r.splits > 10);
  }
}

void check_caught(const std::string& config) {
  const MwRtlModelInfo& model = find_mway_rtl_model(config);
  REQUIRE_FALSE(model.test_hook.empty());
  const MwLockstepResult r = run(config, Load::Saturating, 1);
  INFO(r);
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatch_cycle > 0);
  CHECK(r.mismatch_cycle < g_mway_lockstep_cycles);
  CHECK(r.mismatch_fields > 0);
  REQUIRE_FALSE(r.mismatches.empty());
  // A field of the model's hierarchy with both values.
  CHECK(r.mismatches.front().find(": systemc ") != std::string::npos);
  CHECK(r.mismatches.front().find(", rtl ") != std::string::npos);
}

}  // namespace

TEST_CASE("mway lockstep: mesh 4x4 MST-safe agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4_safe", Load::Low, 1);
}
TEST_CASE("mway lockstep: mesh 4x4 MST-safe agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4_safe", Load::Saturating, 2);
}
TEST_CASE("mway lockstep: mesh 4x4 MST-replica agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4_replica", Load::Low, 3);
}
TEST_CASE("mway lockstep: mesh 4x4 MST-replica agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4_replica", Load::Saturating, 4);
}
TEST_CASE("mway lockstep: mesh 4x4 MST-unicast agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4_unicast", Load::Low, 5);
}
TEST_CASE("mway lockstep: mesh 4x4 MST-unicast agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4_unicast", Load::Saturating, 6);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-safe agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4x4_safe", Load::Low, 7);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-safe agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4x4_safe", Load::Saturating, 8);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-replica agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4x4_replica", Load::Low, 9);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-replica agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4x4_replica", Load::Saturating, 10);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-unicast agrees with SystemC at low load", "[rtl]") {
  check_agreement("mesh4x4x4_unicast", Load::Low, 11);
}
TEST_CASE("mway lockstep: mesh 4x4x4 MST-unicast agrees with SystemC at saturation", "[rtl]") {
  check_agreement("mesh4x4x4_unicast", Load::Saturating, 12);
}
TEST_CASE("mway lockstep: 4-cube MST-safe agrees with SystemC at low load", "[rtl]") {
  check_agreement("cube4_safe", Load::Low, 13);
}
TEST_CASE("mway lockstep: 4-cube MST-safe agrees with SystemC at saturation", "[rtl]") {
  check_agreement("cube4_safe", Load::Saturating, 14);
}
TEST_CASE("mway lockstep: 4-cube MST-replica agrees with SystemC at low load", "[rtl]") {
  check_agreement("cube4_replica", Load::Low, 15);
}
TEST_CASE("mway lockstep: 4-cube MST-replica agrees with SystemC at saturation", "[rtl]") {
  check_agreement("cube4_replica", Load::Saturating, 16);
}
TEST_CASE("mway lockstep: 4-cube MST-unicast agrees with SystemC at low load", "[rtl]") {
  check_agreement("cube4_unicast", Load::Low, 17);
}
TEST_CASE("mway lockstep: 4-cube MST-unicast agrees with SystemC at saturation", "[rtl]") {
  check_agreement("cube4_unicast", Load::Saturating, 18);
}
TEST_CASE("mway lockstep: a build whose ordered reservation starts at the highest way is caught with the first "
          "mismatching field and both values",
          "[rtl]") {
  check_caught("mesh4x4_safe_bug_order");
}
TEST_CASE("mway lockstep: a build whose content search ignores T is caught with the first mismatching field and "
          "both values",
          "[rtl]") {
  check_caught("mesh4x4_safe_bug_cam");
}
