// The edge set that runs a network's routers (docs/kernel.md): members act at every
// edge while awake, in the order added; a sleeping member woken at time T acts at the first edge
// after T, so a wake in the same time step as an edge waits for the next one, and a member woken
// through a LinkSignal it reads acts at the edge after the value changed.
#include <catch2/catch.hpp>

#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/kernel/edge_set.h"
#include "systemc/kernel/link_signal.h"

using namespace wormcast;

namespace {

struct Value {
  bool valid = false;
  int x = 0;
  bool operator==(const Value& o) const { return valid == o.valid && x == o.x; }
};

/// Acts at the edges it is awake for, records them, sleeps after `awake_for` edges per wake.
struct Recorder : EdgeMember {
  int id, awake_for, left = 0;
  std::vector<std::pair<uint64_t, int>>* log;
  Waker waker;
  Recorder(int i, int n, std::vector<std::pair<uint64_t, int>>* l) : id(i), awake_for(n), left(n), log(l) {}
  bool on_edge(uint64_t t) override {
    log->push_back({t, id});
    if (--left > 0) return true;
    left = awake_for;
    return false;
  }
};

struct Bench : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_core::sc_time(1, sc_core::SC_NS)};
  EdgeSet set{"set", true};
  std::vector<std::pair<uint64_t, int>> log;
  Recorder a{0, 2, &log}, b{1, 1, &log}, c{2, 1, &log};
  LinkSignal<Value> wire{"wire"};
  LinkBank bank{"bank"};
  LinkQueue<Value> queue{bank};
  uint32_t mask = 0;
  std::vector<uint64_t> seen_cycles;

  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name n) : sc_module(n) {
    set.clk(clk);
    set.add(&a, &a.waker);
    set.add(&b, &b.waker);
    set.add(&c, &c.waker);
    wire.set_queue(&queue);
    wire.set_reader(&c.waker);
    wire.set_valid_mask(&mask, 1);
    SC_THREAD(drive);
  }

  void drive() {
    // All three act at edge 0; a stays awake for edge 1, b and c sleep after edge 0.
    wait(sc_core::sc_time(5, sc_core::SC_NS));      // the time of edge 5, before or after the set ran
    b.waker.wake();                                 // same time step as edge 5: acts at edge 6
    wait(sc_core::sc_time(2300, sc_core::SC_PS));   // 7.3 ns: between edges 7 and 8
    b.waker.wake();                                 // acts at edge 8
    wait(sc_core::sc_time(2200, sc_core::SC_PS));   // 9.5 ns
    wire.write(Value{true, 7});                     // committed at 9.5 ns: c acts at edge 10
    wait(sc_core::SC_ZERO_TIME);
    wait(sc_core::SC_ZERO_TIME);
    seen_cycles.push_back(mask);
    wire.write(Value{true, 7});                     // the same value again, then (same delta) invalid:
    wire.write(Value{false, 0});                    // the last write of the delta is the value; c is
                                                    // already woken for edge 10 and acts once
    wait(sc_core::SC_ZERO_TIME);
    wait(sc_core::SC_ZERO_TIME);
    seen_cycles.push_back(mask);
  }
};

}  // namespace

TEST_CASE("edge set: members act in order while awake and a woken member acts at the first edge after the wake", "[sc]") {
  set_cycle_time(sc_core::sc_time(1, sc_core::SC_NS));
  Bench bench("bench");
  sc_core::sc_start(sc_core::sc_time(12500, sc_core::SC_PS));
  const std::vector<std::pair<uint64_t, int>> want = {
      {0, 0}, {0, 1}, {0, 2},  // all three at the first edge, in the order added
      {1, 0},                  // a's second edge
      {6, 1},                  // woken in the time step of edge 5
      {8, 1},                  // woken at 7.3 ns
      {10, 2},                 // woken by the wire's change at 9.5 ns
  };
  CHECK(bench.log == want);
  REQUIRE(bench.seen_cycles.size() == 2);
  CHECK(bench.seen_cycles[0] == 1);  // the reader's valid mask follows the committed value
  CHECK(bench.seen_cycles[1] == 0);
  CHECK(bench.wire.read() == Value{false, 0});
}
