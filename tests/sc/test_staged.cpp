// router.pipeline = staged (docs/router.md section 11), read from every hop of a loaded 4x4 torus
// (R = 4, Ld = 1, V = 2, B = 8, tail re-allocation): a head still needs R + Ld cycles per hop, a body
// flit only its switch allocation, traversal and link (3), a head behind a tail in its input VC
// routes and allocates its VC again (3 cycles after that tail at the earliest), and an output VC
// a tail left is taken by a head two cycles later at the earliest (VC allocation, then switch
// allocation). The lumped pipeline, run the same way, shows the shorter gaps the staged one removes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

#include "systemc/common/clock.h"
#include "systemc/net/network.h"
#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

constexpr uint64_t kNone = ~uint64_t(0);

/// The smallest gaps seen, in cycles.
struct Gaps {
  uint64_t head_hop = kNone;       ///< a head's traversal at one router to the next router's
  uint64_t body_hop = kNone;       ///< the same for a body or tail flit
  uint64_t head_after_tail = kNone;  ///< a tail's traversal to the next traversal (a head) from its input VC
  uint64_t vc_reuse = kNone;       ///< a tail's traversal to the next head's on the same output VC
  /// A packet sent to its own node (injected and ejected by one router): its head's traversal to its
  /// tail's. Under B < L the tail's part of this is the NIC's injection credit turn.
  uint64_t own_head_tail = kNone;
  /// The same packets: one body or tail flit's traversal to the next one's (at B = 1 each waits for
  /// the credit of the one before, at the injection and at the ejection port).
  uint64_t own_body_gap = kNone;
  uint64_t own_packets = 0;
  uint64_t hops = 0;
};

struct HopProbe : sc_core::sc_module, HopObserver {
  sc_core::sc_clock clk;
  sw::Topology topo;
  TrafficStats stats;
  std::unique_ptr<Network> net;
  std::unique_ptr<TrafficGen> gen;
  /// (packet, flit) -> (cycle, output VC) of its last hop: the output VC is its input VC at the
  /// next router.
  std::map<std::pair<uint64_t, int>, std::pair<uint64_t, int>> last;
  /// (router, input port, input VC) -> (cycle, was a tail) of its last traversal.
  std::map<std::tuple<int, int, int>, std::pair<uint64_t, bool>> in_vc;
  /// (router, output port, output VC) -> cycle its last tail traversed.
  std::map<std::tuple<int, int, int>, uint64_t> out_tail;
  /// packet -> cycle its head and its last flit traversed, for packets sent to their own node.
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> own_head;
  Gaps gaps;

  HopProbe(sc_core::sc_module_name n, const Config& cfg)
      : sc_module(n), clk("clk", cycle_time()), topo(cfg.net.topology()), stats(0, ~uint64_t(0) / 2, topo.num_nodes()) {
    net = make_network("net", cfg, {});
    gen = std::make_unique<TrafficGen>("traffic", cfg, *net, stats);
    net->clk(clk);
    gen->clk(clk);
    REQUIRE(net->set_hop_observer(this).empty());
  }

  void on_hop(const HopEvent& e) override {
    ++gaps.hops;
    const auto key = std::make_pair(uint64_t(e.packet), int(e.flit));
    const bool injected = e.in_port >= 2 * topo.dims();
    if (injected && e.out_port >= 2 * topo.dims()) {  // to its own node
      if (e.head) own_head[uint64_t(e.packet)] = {e.cycle, e.cycle};
      auto h = own_head.find(uint64_t(e.packet));
      if (!e.head && h != own_head.end()) {
        if (e.flit >= 2) gaps.own_body_gap = std::min(gaps.own_body_gap, e.cycle - h->second.second);
        h->second.second = e.cycle;
      }
      if (e.tail && h != own_head.end()) {
        gaps.own_head_tail = std::min(gaps.own_head_tail, e.cycle - h->second.first);
        ++gaps.own_packets;
        own_head.erase(h);
      }
    }
    int in_vc = -1;
    auto it = last.find(key);
    if (!injected && it != last.end()) {
      const uint64_t d = e.cycle - it->second.first;
      (e.head ? gaps.head_hop : gaps.body_hop) = std::min(e.head ? gaps.head_hop : gaps.body_hop, d);
      in_vc = it->second.second;
    }
    if (e.tail || e.out_port >= 2 * topo.dims())
      last.erase(key);  // its last hop (or it ejects here): nothing follows this flit
    if (e.out_port < 2 * topo.dims()) last[key] = {e.cycle, e.vc};
    if (in_vc >= 0) {
      auto& s = in_vc_state(e.router, e.in_port, in_vc);
      if (e.head && s.second && s.first != kNone) gaps.head_after_tail = std::min(gaps.head_after_tail, e.cycle - s.first);
      s = {e.cycle, e.tail};
    }
    const auto o = std::make_tuple(int(e.router), int(e.out_port), int(e.vc));
    if (e.head) {
      auto t = out_tail.find(o);
      if (t != out_tail.end()) gaps.vc_reuse = std::min(gaps.vc_reuse, e.cycle - t->second);
    }
    if (e.tail) out_tail[o] = e.cycle;
  }

  std::pair<uint64_t, bool>& in_vc_state(int router, int port, int vc) {
    auto k = std::make_tuple(router, port, vc);
    auto it = in_vc.find(k);
    if (it == in_vc.end()) it = in_vc.emplace(k, std::make_pair(kNone, false)).first;
    return it->second;
  }
};

Gaps run_gaps(const std::string& pipeline) {
  const Config cfg = test::config_for(
      "4x4", "torus",
      {{"router.router_delay", "4"}, {"router.link_delay", "1"}, {"router.vcs_per_class", "2"},
       {"router.buffer_depth", "8"}, {"router.vc_realloc", "tail"}, {"router.allocator", "islip"},
       {"router.pipeline", pipeline}, {"traffic.rate", "0.7"}, {"traffic.packet_len", "5"}, {"sim.seed", "2"}});
  HopProbe probe("probe", cfg);
  sc_core::sc_start(cycle_time() * 6000.0);
  INFO(pipeline << ": " << probe.gaps.hops << " hops");
  REQUIRE(probe.gaps.hops > 100000);
  REQUIRE(probe.net->scoreboard().error_count() == 0);
  return probe.gaps;
}

/// The booksim-iq preset on a lightly loaded 4x4 torus, one-port NICs, sources that may pick
/// themselves, V = 2, L = 5, B = buffer, Cdi = injection credit delay, Cde = ejection credit delay.
Gaps run_preset(int buffer, int cdi, int cde = 3) {
  const Config cfg = test::config_for(
      "4x4", "torus",
      {{"router.preset", "booksim-iq"}, {"router.vcs_per_class", "2"}, {"router.buffer_depth", std::to_string(buffer)},
       {"router.injection_credit_delay", std::to_string(cdi)}, {"router.ejection_credit_delay", std::to_string(cde)},
       {"router.local_ports", "one"},
       {"traffic.pattern", "uniform-all"}, {"traffic.rate", "0.05"}, {"traffic.packet_len", "5"}, {"sim.seed", "3"}});
  HopProbe probe("probe", cfg);
  sc_core::sc_start(cycle_time() * 20000.0);
  INFO("B " << buffer << ", Cdi " << cdi << ", Cde " << cde << ": " << probe.gaps.own_packets << " packets to their own node");
  REQUIRE(probe.gaps.own_packets > 20);
  REQUIRE(probe.net->scoreboard().error_count() == 0);
  return probe.gaps;
}

}  // namespace

// The NIC decides a head in cycle c, the router traverses it at c + 5 and, with Cdi = 0, the NIC may
// send the flit that waited for that credit in c + 6 (docs/router.md section 11), as BookSim2's NIC;
// a flit sent in cycle s traverses at s + 3 at the earliest. Cde = 0 here, so that the ejection port's
// credits do not hold the packet back (with the preset's Cde = 3 and B = 4 the tail also waits for
// the head's ejection credit, until c + 10, as in BookSim2). (One network per test case: SystemC
// elaborates once per process.)
TEST_CASE("booksim-iq: B 4 L 5: the tail is sent in c + 6 and follows the body flits without a gap", "[sc]") {
  CHECK(run_preset(4, 0, 0).own_head_tail == 4);  // head c + 5, body c + 6..8, tail c + 9
}

TEST_CASE("booksim-iq: B 4 L 5 under Cde 3: the tail waits for the head's ejection credit", "[sc]") {
  CHECK(run_preset(4, 0).own_head_tail == 5);  // the head ejects at c + 5, its credit counts at c + 10
}

TEST_CASE("booksim-iq: B 3 L 5: the fourth flit waits for the head's credit, one cycle's gap", "[sc]") {
  CHECK(run_preset(3, 0, 0).own_head_tail == 5);  // head c + 5, body c + 6, 7, then c + 9, tail c + 10
}

TEST_CASE("booksim-iq: B 4 L 5 under Cdi 1: the tail is sent one cycle later", "[sc]") {
  CHECK(run_preset(4, 1, 0).own_head_tail == 5);
}

TEST_CASE("booksim-iq: B 5 L 5: the NIC never waits for a credit within a packet whatever Cdi", "[sc]") {
  CHECK(run_preset(5, 1, 0).own_head_tail == 4);
}

// B = 1: a flit sent in cycle s traverses at s + 3 and its credit lets the NIC send the next one in
// s + 4, so the injection side spaces body flits 4 cycles apart; at the ejection port the credit of
// a flit that traversed at edge e is usable at e + 2 + Cde, BookSim2's 5 cycles under Cde = 3.
TEST_CASE("booksim-iq: B 1: the ejection credit returns 5 cycles after the flit's traversal (Cde 3)", "[sc]") {
  CHECK(run_preset(1, 0).own_body_gap == 5);
}

TEST_CASE("booksim-iq: B 1 under Cde 0: the injection side's 4 cycles set the pace", "[sc]") {
  CHECK(run_preset(1, 0, 0).own_body_gap == 4);
}

TEST_CASE("staged pipeline: a body flit hops in 3 cycles, a head in 5, a head behind a tail and a freed output VC wait",
          "[sc]") {
  const Gaps g = run_gaps("staged");
  CHECK(g.head_hop == 5);         // route, VC allocation, switch allocation, traversal, link
  CHECK(g.body_hop == 3);         // switch allocation, traversal, link
  CHECK(g.head_after_tail == 3);  // route and VC allocation again after the tail left
  CHECK(g.vc_reuse == 2);         // VC allocation sees the tail's release, then switch allocation
}

TEST_CASE("staged pipeline: the lumped pipeline under the same load has the shorter gaps", "[sc]") {
  const Gaps g = run_gaps("lumped");
  CHECK(g.head_hop == 5);
  CHECK(g.body_hop == 5);         // every flit waits R + Ld at every router
  CHECK(g.head_after_tail == 1);  // the next head leaves right behind the tail
  CHECK(g.vc_reuse == 1);         // tail re-allocation: the next edge
}
