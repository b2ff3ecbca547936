// router.vc_realloc: with `tail` two packets share one downstream VC buffer and arrive in order;
// with `empty` the second packet's head never enters that buffer while the first is still in it.
#include <catch2/catch.hpp>

#include "systemc/torus/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

struct Outcome {
  int shared_cycles = 0;   ///< cycles in which a tail at the front of the watched VC has flits behind it
  int front_tail_cycles = 0;  ///< cycles in which a tail is at the front of the watched VC
  std::vector<sw::Delivery> got;
  uint64_t scoreboard_errors = 0;
};

// An 8-node ring (one dimension, V = 1, B = 8, R = 3): node 0 sends packets A (tag 1) and B
// (tag 2), 5 flits each, to node 2. Both leave router 0 on output plus in class l/h, which has a
// single VC w = 1, and enter router 1 on input 1 (from its minus neighbour), VC 1. A's tail waits
// R = 3 cycles in router 1; under `tail` router 0 gives VC 1 to B in the cycle after A's tail left
// it, so B's head reaches router 1 before A's tail has gone on.
Outcome two_packets(const std::string& policy) {
  const Config cfg = config_for("8", "torus",
                                {{"router.vc_realloc", policy}, {"router.router_delay", "3"},
                                 {"router.buffer_depth", "8"}, {"router.vcs_per_class", "1"}});
  Bench bench("bench", cfg);
  auto& net = dynamic_cast<TorusNetwork&>(bench.net);
  Outcome out;
  bench.body = [&](Bench& b) {
    b.net.nic(0).submit(2, 5, false, 1, 0);
    b.net.nic(0).submit(2, 5, false, 2, 0);
    // Sample router 1 in the middle of every cycle t. The SystemC router commits cycle t's
    // switch traversal at edge t, so its FIFOs then hold exactly the flits that stay past cycle
    // t: a tail at the front with a flit behind it means both packets are in the buffer.
    b.wait_cycles(0.5);
    for (int c = 0; c < 60; ++c) {
      for (const auto& w : net.router(1).waiting()) {
        if (w.in_port != 1 || w.in_vc != 1 || !w.front.tail) continue;
        ++out.front_tail_cycles;
        // The front is A's tail: any further flit in this FIFO belongs to B.
        if (w.occupancy >= 2) ++out.shared_cycles;
      }
      b.wait_cycles(1);
    }
    for (int i = 0; i < 2; ++i) {
      sw::Delivery d;
      if (b.wait_delivery(2, 1000, d)) out.got.push_back(d);
    }
  };
  sc_core::sc_start();
  out.scoreboard_errors = bench.net.scoreboard().error_count();
  return out;
}

void check_in_order(const Outcome& o) {
  REQUIRE(o.got.size() == 2);
  CHECK(o.got[0].tag == 1);
  CHECK(o.got[1].tag == 2);
  CHECK(o.got[0].length == 5);
  CHECK(o.got[1].length == 5);
  CHECK(o.got[0].arrival < o.got[1].arrival);
  CHECK(o.scoreboard_errors == 0);
}

}  // namespace

TEST_CASE("vc realloc: with tail, two packets occupy one downstream VC buffer at once and arrive in order",
          "[sc]") {
  const Outcome o = two_packets("tail");
  CHECK(o.front_tail_cycles >= 2);  // A's and B's tails both passed the front of router 1's VC
  CHECK(o.shared_cycles >= 1);
  check_in_order(o);
}

TEST_CASE("vc realloc: with empty, the next packet enters a downstream VC buffer only after the previous left it",
          "[sc]") {
  const Outcome o = two_packets("empty");
  CHECK(o.front_tail_cycles >= 2);
  CHECK(o.shared_cycles == 0);
  check_in_order(o);
}
