// Traffic statistics on a hand-computable case: trace-driven packets on an idle 8x8 torus, 20 of
// 4 flits from node 0 to node 1 (1 hop) and 20 to node 9 = (1,1) (2 hops), far apart. Each
// arrives at its zero-load latency (h + 1) R + L (docs/router.md section 7): 6 and 7 cycles. So
// the latency histogram has 20 at 6 and 20 at 7, latency by hops is {1: 6, 2: 7}, and the accepted
// flits per node over the 2000-cycle window are 80 / 2000 = 0.04 at nodes 1 and 9, 0 elsewhere:
// min 0, max 0.04, mean 0.00125, Jain's index (0.08)^2 / (64 * 2 * 0.04^2) = 2/64. Router events:
// r_0_0 switches all 160 flits onto its x+ link (40 VC allocations), r_1_0 ejects the 80 of node 1
// and forwards the other 80 on y+, r_1_1 ejects those: 400 buffer writes, reads and crossbar
// traversals, 240 link traversals, 160 ejections, 100 VC allocations; an idle network holds no
// flit after any edge (mean occupancy 0); r_0_0's x+ output VC 1 (class l/h) carries 160 / 2000.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

TEST_CASE("statistics: histograms, latency by hop count and per-node accepted load on a hand case", "[sc]") {
  {
    std::ofstream t("stats_trace.csv");
    t << "cycle,src,dst,len\n";
    for (int i = 0; i < 20; ++i) t << 100 + 50 * i << ",0,1,4\n" << 125 + 50 * i << ",0,9,4\n";
  }
  REQUIRE(cli({"traffic", "--set", "traffic.trace=stats_trace.csv", "--warmup", "0", "--measure", "2000", "--set",
               "sim.progress=off", "--json", "stats.json"}) == 0);
  std::remove("stats_trace.csv");
  const auto j = take_json("stats.json");
  REQUIRE(!j.is_null());
  const std::vector<uint64_t> hist{0, 0, 0, 0, 0, 0, 20, 20};
  REQUIRE(j["latency_histogram"]["bin_width"] == 1);
  REQUIRE(j["latency_histogram"]["counts"].get<std::vector<uint64_t>>() == hist);
  REQUIRE(j["network_latency_histogram"]["counts"].get<std::vector<uint64_t>>() == hist);
  const auto& by = j["latency_by_hops"];
  REQUIRE(by.size() == 2);
  REQUIRE(by[0]["hops"] == 1);
  REQUIRE(by[0]["packets"] == 20);
  REQUIRE(by[0]["mean"].get<double>() == 6.0);
  REQUIRE(by[1]["hops"] == 2);
  REQUIRE(by[1]["packets"] == 20);
  REQUIRE(by[1]["mean"].get<double>() == 7.0);
  const auto& a = j["accepted_per_node"];
  REQUIRE(a["min"].get<double>() == 0.0);
  REQUIRE(a["max"].get<double>() == Approx(0.04));
  REQUIRE(a["mean"].get<double>() == Approx(0.00125));
  REQUIRE(a["jain_fairness"].get<double>() == Approx(2.0 / 64.0));
  const auto& t = j["router_activity"]["totals"];
  REQUIRE(t["buffer_writes"] == 400);
  REQUIRE(t["buffer_reads"] == 400);
  REQUIRE(t["crossbar_traversals"] == 400);
  REQUIRE(t["link_traversals"] == 240);
  REQUIRE(t["ejections"] == 160);
  REQUIRE(t["vc_allocations"] == 100);
  REQUIRE(t["mean_buffer_occupancy"].get<double>() == 0.0);
  const auto& per = j["router_activity"]["per_router"];
  REQUIRE(per[0]["router"] == "r_0_0");
  REQUIRE(per[0]["link_traversals"] == 160);
  REQUIRE(per[0]["vc_allocations"] == 40);
  REQUIRE(per[1]["ejections"] == 80);
  REQUIRE(per[1]["link_traversals"] == 80);
  REQUIRE(per[9]["ejections"] == 80);
  REQUIRE(j["router_activity"]["vc_utilization"][0][1].get<double>() == Approx(0.08));  // port 0 (x+), VC 1
  // Packets far apart never wait: no blocked edge anywhere.
  REQUIRE(t["blocked_vc"] == 0);
  REQUIRE(t["blocked_credit"] == 0);
  REQUIRE(t["blocked_switch"] == 0);
}

namespace {

// Blocking on a hand case: a 4-node mesh (1-D) with one VC per port, a 4-flit packet from node 0
// to node 2 (2 hops, zero-load latency 7) injected at cycle 100 and one from node 1 to node 2 (1
// hop, 6) injected at `second`. Both need r_1's x+ output VC; the loser's head waits for it until
// the winner's tail has left and the VC is free again. Only that head ever waits, and only for an
// output VC, so the blocked edges (all at one input VC of r_1) add up to the delay the two packets
// suffer together: sum of latencies minus 7 + 6.
void blocking_case(int second, int losing_input_vc) {
  // Files of this case's own (the cases run in parallel processes in one directory).
  const std::string trace = "blocking_trace_" + std::to_string(second) + ".csv";
  const std::string json = "blocking_" + std::to_string(second) + ".json";
  {
    std::ofstream t(trace);
    t << "cycle,src,dst,len\n100,0,2,4\n" << second << ",1,2,4\n";
  }
  REQUIRE(cli({"traffic", "--net", "mesh:4", "--set", "router.vcs_per_class=1", "--set", "traffic.trace=" + trace,
               "--warmup", "0", "--measure", "400", "--set", "sim.progress=off", "--json", json}) == 0);
  std::remove(trace.c_str());
  const auto j = take_json(json);
  REQUIRE(!j.is_null());
  uint64_t latency_sum = 0, packets = 0;
  const auto counts = j["latency_histogram"]["counts"].get<std::vector<uint64_t>>();
  for (size_t l = 0; l < counts.size(); ++l) {
    latency_sum += l * counts[l];
    packets += counts[l];
  }
  REQUIRE(packets == 2);
  const uint64_t delay = latency_sum - (7 + 6);
  REQUIRE(delay > 0);
  const auto& t = j["router_activity"]["totals"];
  REQUIRE(t["blocked_vc"].get<uint64_t>() == delay);
  REQUIRE(t["blocked_credit"] == 0);
  REQUIRE(t["blocked_switch"] == 0);
  const auto& r1 = j["router_activity"]["vc_blocking"][1];  // r_1; ports x+, x-, local 0, local 1
  std::vector<uint64_t> expect(4, 0);
  expect[size_t(losing_input_vc)] = delay;
  REQUIRE(r1["vc"].get<std::vector<uint64_t>>() == expect);
  REQUIRE(j["router_activity"]["per_router"][1]["blocked_vc"].get<uint64_t>() == delay);
}

}  // namespace

TEST_CASE("statistics: blocking - the packet through r_1 from x- waits for the output VC the local one holds", "[sc]") {
  blocking_case(100, 1);  // node 1's packet reaches r_1 first: node 0's head waits at input x- (port 1)
}

TEST_CASE("statistics: blocking - the local packet at r_1 waits for the output VC the through one holds", "[sc]") {
  blocking_case(102, 2);  // node 0's packet is there first: node 1's head waits at its local input (port 2)
}

TEST_CASE("statistics: uniform traffic serves every node about equally (Jain's index near 1)", "[sc]") {
  REQUIRE(cli({"traffic", "--rate", "0.1", "--warmup", "1000", "--measure", "20000", "--set", "sim.progress=off",
               "--json", "stats_u.json"}) == 0);
  const auto j = take_json("stats_u.json");
  const auto& a = j["accepted_per_node"];
  REQUIRE(a["jain_fairness"].get<double>() > 0.99);
  REQUIRE(a["min"].get<double>() > 0.08);
  REQUIRE(a["max"].get<double>() < 0.12);
  uint64_t n = 0;
  for (auto& c : j["latency_histogram"]["counts"]) n += c.get<uint64_t>();
  REQUIRE(n == j["latency"]["count"].get<uint64_t>());
  uint64_t by = 0;
  for (auto& h : j["latency_by_hops"]) by += h["packets"].get<uint64_t>();
  REQUIRE(by == j["latency"]["count"].get<uint64_t>());
  // Router events under load: every flit read was written (the buffers start and end the window
  // nearly empty at this load), ejections match the accepted load, and contention holds flits.
  const auto& t = j["router_activity"]["totals"];
  const double writes = t["buffer_writes"], reads = t["buffer_reads"];
  REQUIRE(std::abs(writes - reads) < 200);
  REQUIRE(t["ejections"].get<double>() == Approx(a["mean"].get<double>() * 64 * 20000).epsilon(0.01));
  REQUIRE(t["mean_buffer_occupancy"].get<double>() > 0.0);
  REQUIRE(reads == Approx(t["link_traversals"].get<double>() + t["ejections"].get<double>()));
}
