// The run's clock (systemc/kernel/cycle_clock.h, docs/kernel.md section 4): fused, it calls its
// riders' rising and then falling edges once per cycle at the cycle's start; a process of anyone
// else waiting for its edges, or a rider that does not allow it, keeps it a toggled signal with
// the edges of an sc_clock. (A network's results with the fused clock against the signal clock:
// tests/cli/test_threads.sh.) Stretchable riders run up to the driver's horizon in one activation.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/kernel/cycle_clock.h"

using namespace wormcast;

namespace {

struct Log {
  std::vector<std::string> calls;
};

struct Rider : ClockRider {
  Log& log;
  std::string id;
  bool allow;
  int requests;
  Rider(Log& l, std::string i, bool a = true, int r = 0) : log(l), id(std::move(i)), allow(a), requests(r) {}
  bool stretch = false;  ///< stretchable(): nothing but its edges acts between two cycles
  bool fusable() const override { return allow; }
  int edge_requests() const override { return requests; }
  bool stretchable() const override { return stretch; }
  void rising(uint64_t t) override { record("rise", t); }
  void falling(uint64_t t) override { record("fall", t); }
  void record(const char* what, uint64_t t) {
    // The cycle, the simulation time in ns and the edge stamp the edge sets use.
    log.calls.push_back(id + " " + what + " " + std::to_string(t) + " @" +
                        std::to_string(sc_core::sc_time_stamp().value() / 1000) + " #" + std::to_string(g_edge_stamp));
  }
};

// A module with one process sensitive to the clock's rising and one to its falling edge.
struct Listener : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"};
  std::vector<uint64_t> pos, neg;  ///< edge times in ps
  explicit Listener(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(Listener);
    SC_METHOD(on_pos);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(on_neg);
    sensitive << clk.neg();
    dont_initialize();
  }
  void on_pos() { pos.push_back(sc_core::sc_time_stamp().value()); }
  void on_neg() { neg.push_back(sc_core::sc_time_stamp().value()); }
};

/// A clock of period_ns with a Listener bound to it and the given riders.
struct ListenedClock {
  CycleClock clk;
  Listener l{"l"};
  ListenedClock(int period_ns, std::initializer_list<Rider*> riders)
      : clk("clk", sc_core::sc_time(period_ns, sc_core::SC_NS)) {
    set_cycle_time(clk.period());
    l.clk(clk.signal());
    for (Rider* r : riders) clk.ride(r);
  }
};

}  // namespace

TEST_CASE("fused clock: each cycle every rider's rising edge, then every rider's falling edge") {
  Log log;
  Rider a(log, "a"), b(log, "b");
  CycleClock clk("clk", sc_core::sc_time(1, sc_core::SC_NS));
  set_cycle_time(clk.period());
  clk.ride(&a);
  clk.ride(&b);
  sc_core::sc_start(sc_core::sc_time(3, sc_core::SC_NS));
  REQUIRE(std::string(clk.mode()) == "fused");
  const std::vector<std::string> want = {
      "a rise 0 @0 #0", "b rise 0 @0 #0", "a fall 0 @0 #1", "b fall 0 @0 #1",
      "a rise 1 @1 #2", "b rise 1 @1 #2", "a fall 1 @1 #3", "b fall 1 @1 #3",
      "a rise 2 @2 #4", "b rise 2 @2 #4", "a fall 2 @2 #5", "b fall 2 @2 #5",
  };
  REQUIRE(log.calls == want);
  REQUIRE_FALSE(clk.signal().read());  // the signal never toggles
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));  // the next chunk goes on from cycle 3
  REQUIRE(log.calls.size() == 16);
  REQUIRE(log.calls[12] == "a rise 3 @3 #6");
}

TEST_CASE("cycle clock: a process of a non-rider waiting for its edges keeps it a signal with sc_clock's edges") {
  Log log;
  Rider a(log, "a", true, 0);
  ListenedClock c(2, {&a});
  auto& [clk, l] = c;
  sc_core::sc_start(sc_core::sc_time(7, sc_core::SC_NS));
  REQUIRE(std::string(clk.mode()) == "signal");
  REQUIRE(log.calls.empty());  // in signal mode riders act through their own processes
  REQUIRE(l.pos == std::vector<uint64_t>{0, 2000, 4000, 6000});
  REQUIRE(l.neg == std::vector<uint64_t>{1000, 3000, 5000});
}

TEST_CASE("cycle clock: a rider whose own processes wait for the edges and says so is still run fused") {
  Log log;
  Rider a(log, "a", true, 2);  // declares the listener's two requests as its own
  ListenedClock c(1, {&a});
  auto& [clk, l] = c;
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_NS));
  REQUIRE(std::string(clk.mode()) == "fused");
  REQUIRE(l.pos.empty());
  REQUIRE(l.neg.empty());
  REQUIRE(log.calls.size() == 4);
}

TEST_CASE("cycle clock: a rider that does not allow it keeps it a signal") {
  Log log;
  Rider a(log, "a"), b(log, "b", false);
  ListenedClock c(1, {&a, &b});
  auto& [clk, l] = c;
  sc_core::sc_start(sc_core::sc_time(3, sc_core::SC_NS));
  REQUIRE(std::string(clk.mode()) == "signal");
  REQUIRE(log.calls.empty());
  REQUIRE(l.pos == std::vector<uint64_t>{0, 1000, 2000});
}

TEST_CASE("cycle clock: without riders it is a signal") {
  ListenedClock c(1, {});
  auto& [clk, l] = c;
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_NS));
  REQUIRE(std::string(clk.mode()) == "signal");
  REQUIRE(l.pos == std::vector<uint64_t>{0, 1000});
  REQUIRE(l.neg == std::vector<uint64_t>{500, 1500});
}

namespace {

/// A fused clock of 1 ns with riders a and b (stretchable as given) run under horizon 3 for its
/// first 3 cycles; the log of their calls.
struct StretchRun {
  Log log;
  Rider a{log, "a"}, b{log, "b"};
  CycleClock clk{"clk", sc_core::sc_time(1, sc_core::SC_NS)};
  StretchRun(bool a_stretch, bool b_stretch) {
    a.stretch = a_stretch;
    b.stretch = b_stretch;
    set_cycle_time(clk.period());
    clk.ride(&a);
    clk.ride(&b);
    run(3, 3);
  }
  /// sc_start for `cycles` cycles under the horizon `horizon` (0: none).
  static void run(uint64_t horizon, int cycles) {
    set_clock_horizon(horizon);
    sc_core::sc_start(sc_core::sc_time(cycles, sc_core::SC_NS));
    set_clock_horizon(0);
  }
};

}  // namespace

TEST_CASE("fused clock: stretchable riders run every cycle up to the driver's horizon in one activation") {
  // The same calls in the same order with the same cycles and edge stamps as cycle by cycle; the
  // simulation time is that of the stretch's first cycle throughout it.
  StretchRun r(true, true);
  REQUIRE(std::string(r.clk.mode()) == "fused");
  const std::vector<std::string> want = {
      "a rise 0 @0 #0", "b rise 0 @0 #0", "a fall 0 @0 #1", "b fall 0 @0 #1",
      "a rise 1 @0 #2", "b rise 1 @0 #2", "a fall 1 @0 #3", "b fall 1 @0 #3",
      "a rise 2 @0 #4", "b rise 2 @0 #4", "a fall 2 @0 #5", "b fall 2 @0 #5",
  };
  REQUIRE(r.log.calls == want);
  // The next stretch starts at its own first cycle; without a horizon, cycle by cycle again.
  StretchRun::run(5, 2);
  REQUIRE(r.log.calls.size() == 20);
  REQUIRE(r.log.calls[12] == "a rise 3 @3 #6");
  REQUIRE(r.log.calls[16] == "a rise 4 @3 #8");
  StretchRun::run(0, 2);
  REQUIRE(r.log.calls.size() == 28);
  REQUIRE(r.log.calls[20] == "a rise 5 @5 #10");
  REQUIRE(r.log.calls[24] == "a rise 6 @6 #12");
}

TEST_CASE("fused clock: one rider that is not stretchable keeps it cycle by cycle under a horizon") {
  StretchRun r(true, false);
  REQUIRE(std::string(r.clk.mode()) == "fused");
  REQUIRE(r.log.calls.size() == 12);
  REQUIRE(r.log.calls[4] == "a rise 1 @1 #2");
  REQUIRE(r.log.calls[8] == "a rise 2 @2 #4");
}
