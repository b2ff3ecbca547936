// Every hop of every packet follows the dimension-ordered shortest path (tie rule and tie bit
// included) and uses a VC of the dateline class that sw/topology assigns.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "sw/topology/path.h"
#include "systemc/torus/params.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

void check_routes(const Config& cfg) {
  Bench bench("bench", cfg);
  bench.record_hops = true;
  // The NIC numbers a node's packets seq * N + src (one packet per message here): packet ->
  // (dst, tie) as submitted.
  std::map<uint64_t, std::pair<int, bool>> sent;
  bench.body = [&](Bench& b) {
    const sw::Topology& t = b.net.topology();
    std::vector<uint64_t> seq(size_t(t.num_nodes()), 0);
    std::mt19937_64 rng(7);
    for (int cycle = 0; cycle < 4000; ++cycle) {
      for (int s = 0; s < t.num_nodes(); ++s) {
        if (rng() % 40) continue;
        const int d = int(rng() % uint64_t(t.num_nodes()));
        if (d == s) continue;
        const bool tie = rng() & 1;
        b.net.nic(s).submit(d, 1 + uint32_t(rng() % 6), tie, 0, current_cycle());
        sent[seq[size_t(s)]++ * uint64_t(t.num_nodes()) + uint64_t(s)] = {d, tie};
      }
      b.wait_until(current_cycle() + 1);
    }
    b.wait_until(current_cycle() + 2000);
  };
  sc_core::sc_start();
  const sw::Topology& t = bench.net.topology();
  const RouterParams rp = derive_router_params(bench.net.config().net, bench.net.config().part<RouterConfig>());
  const int n = t.num_nodes();
  // Group the head-flit hops by packet; ids are seq * N + src, so src = id mod N (N | 2^24).
  std::map<uint64_t, std::vector<HopEvent>> by_packet;
  for (auto& h : bench.hops)
    if (h.head) by_packet[h.packet].push_back(h);
  REQUIRE(by_packet.size() > 1000);
  REQUIRE(by_packet.size() == sent.size());
  size_t hops_checked = 0;
  for (auto& [pkt, hops] : by_packet) {
    const int src = int(pkt % uint64_t(n));
    REQUIRE(sent.count(pkt) == 1);
    const auto [dst, tie] = sent.at(pkt);
    const auto arcs = sw::route_path(t, src, dst, tie);
    REQUIRE(hops.size() == arcs.size() + 1);  // plus the ejection at the destination
    for (size_t i = 0; i < arcs.size(); ++i) {
      REQUIRE(hops[i].router == arcs[i].node);
      REQUIRE(hops[i].out_port == arcs[i].port);
      const sw::RouteStep rs = t.route(arcs[i].node, dst, tie);
      if (rp.classes == 2 && t.torus(arcs[i].port / 2)) REQUIRE(hops[i].vc / rp.vcs_per_class == int(rs.vclass));
      ++hops_checked;
    }
    REQUIRE(hops.back().router == dst);
    REQUIRE(hops.back().out_port >= 2 * t.dims());
  }
  REQUIRE(hops_checked > 3000);
  REQUIRE(bench.net.scoreboard().error_count() == 0);
  REQUIRE(bench.net.scoreboard().in_flight() == 0);
}

}  // namespace

TEST_CASE("route: 8x8 torus, every hop is dimension ordered with the dateline class, V = 2", "[sc]") {
  check_routes(config_for("8x8", "torus", {{"router.vcs_per_class", "2"}}));
}

TEST_CASE("route: 4x4x4 torus with a mesh dimension, every hop dimension ordered", "[sc]") {
  check_routes(config_for("4x4x4", "torus,mesh,torus"));
}
