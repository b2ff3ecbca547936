// The choice between lanes and one thread (systemc/kernel/lanes.h, sim.lanes = adaptive): fed the
// edge times of a machine where one way is the faster, it settles on that way, follows a change
// of the machine (a competing process taking a core), and spends few edges on the slower way.
#include <catch2/catch.hpp>

#include "systemc/kernel/lanes.h"

using namespace wormcast;

namespace {
/// Runs `edges` edges of `awake` members each, lanes costing lanes_ns and one thread one_ns per
/// member; counts the edges that ran in lanes.
uint32_t drive(LaneChoice& c, uint32_t edges, double lanes_ns, double one_ns, uint32_t awake = 1000) {
  uint32_t in_lanes = 0;
  for (uint32_t e = 0; e < edges; ++e) {
    const bool lanes = c.lanes();
    in_lanes += lanes;
    c.timed((lanes ? lanes_ns : one_ns) * awake, awake);
  }
  return in_lanes;
}
}  // namespace

TEST_CASE("lane choice: lanes stay chosen where they pay, the probes of one thread are few") {
  LaneChoice c;
  const uint32_t edges = 20000;
  const uint32_t in_lanes = drive(c, edges, 100, 170);
  CHECK(c.switches() == 0);
  CHECK(c.lanes());
  // Lanes win by far (r = 0.59): probes of 8 edges after the first epoch and then every 64 epochs
  // of 16 (20 probes), not after 1, 2, 4, 8, 16 and 32 epochs first.
  CHECK(edges - in_lanes <= 8 * 20);
  CHECK(edges - in_lanes > 0);
}

TEST_CASE("lane choice: a narrow win doubles the gap between probes") {
  LaneChoice c;
  const uint32_t edges = 20000;
  const uint32_t in_lanes = drive(c, edges, 100, 125);  // r = 0.8: lanes win, not by far
  CHECK(c.switches() == 0);
  // Probes after 1, 2, 4, 8, 16, 32 and then every 64 epochs of 16: 24 probes.
  CHECK(edges - in_lanes > 8 * 20);
  CHECK(edges - in_lanes < edges / 50);
}

TEST_CASE("lane choice: one thread is chosen where lanes cost more, and lanes again once they pay") {
  LaneChoice c;
  drive(c, 24, 300, 170);  // a competing process: lanes wait for the core it holds
  CHECK(c.switches() == 1);  // after one epoch in lanes and one probe
  drive(c, 176, 300, 170);
  CHECK(c.switches() == 1);
  CHECK_FALSE(c.lanes());
  const uint32_t in_lanes = drive(c, 20000, 300, 170);
  CHECK(c.switches() == 1);
  CHECK(in_lanes < 20000 / 50);
  // The competitor is gone: a probe finds lanes faster and the choice goes back.
  const uint32_t later = drive(c, 20000, 100, 170);
  CHECK(c.switches() == 2);
  CHECK(c.lanes());
  CHECK(later > 20000 - 20000 / 10);
}

TEST_CASE("lane choice: lanes must pay clearly, with a band between the two thresholds") {
  LaneChoice c;
  drive(c, 2000, 100, 102);  // lanes 2 % faster (r = 0.98): not enough to keep them
  CHECK(c.switches() == 1);
  CHECK_FALSE(c.lanes());
  drive(c, 20000, 100, 110);  // lanes faster, r = 0.909: in the band, one thread stays
  CHECK(c.switches() == 1);
  CHECK_FALSE(c.lanes());
  drive(c, 20000, 100, 125);  // r = 0.8: lanes take over
  CHECK(c.switches() == 2);
  CHECK(c.lanes());
  drive(c, 20000, 100, 110);  // in the band again: lanes stay
  CHECK(c.switches() == 2);
  CHECK(c.lanes());
}
