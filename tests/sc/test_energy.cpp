// The energy model on a hand-counted case: two packets on an idle 4x4 mesh with disjoint routes.
// Packet A, 4 flits from node 0 = (0,0) to node 2 = (2,0), crosses r_0_0, r_1_0, r_2_0 (2 hops);
// packet B, 6 flits from node 15 = (3,3) to node 12 = (0,3), crosses r_3_3, r_2_3, r_1_3, r_0_3
// (3 hops). A packet of L flits over h hops is written into, read out of and switched through
// h + 1 routers (L (h + 1) of each), gets h + 1 VC grants, crosses h links (L h link flits) and
// delivers L flits. So: 12 + 24 = 36 writes, reads, crossbar traversals and switch grants, 3 + 4
// = 7 VC grants, 8 + 18 = 26 link flits, 10 delivered flits. The router of a 4x4 mesh with all-port
// NICs has P = 4 + 4 = 8 ports, one VC per port (no dateline classes on a mesh) of B = 4 flits.
// The per-event energies are worked out here from the 45 nm technology table (docs/energy.md),
// not read back from the program.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

// docs/energy.md, technology table dsent-45nm (64-bit flits, pJ).
constexpr double kWriteA = 0.6303, kWriteB = 0.0832, kWriteC = 0.1357;
constexpr double kReadA = 0.3396, kReadB = 0.0935, kReadC = 0.0733;
constexpr double kXbarA = 0.1729, kXbarB = 0.1775;
constexpr double kArbiter8 = 0.3411;     // matrix arbiter, 8 requesters
constexpr double kLinkFjPerBitMm = 40.36;
constexpr double kLeakUwPerBit = 2.407;

void write_trace(const std::string& path) {
  std::ofstream t(path);
  t << "cycle,src,dst,len\n10,0,2,4\n20,15,12,6\n";
}

}  // namespace

TEST_CASE("energy: two packets on an idle 4x4 mesh cost their hand-counted events", "[sc]") {
  write_trace("energy_trace.csv");
  const uint64_t window = 300;
  REQUIRE(cli({"traffic", "--net", "mesh:4x4", "--set", "traffic.trace=energy_trace.csv", "--warmup", "0", "--measure",
               std::to_string(window), "--set", "energy.link_length_mm=1.5", "--set", "energy.clock_period_ns=2",
               "--set", "sim.progress=off", "--json", "energy.json"}) == 0);
  std::remove("energy_trace.csv");
  const auto j = take_json("energy.json");
  REQUIRE(!j.is_null());

  // The events, from router_activity (unchanged by the energy model).
  const auto& t = j["router_activity"]["totals"];
  REQUIRE(t["buffer_writes"] == 36);
  REQUIRE(t["buffer_reads"] == 36);
  REQUIRE(t["vc_allocations"] == 7);
  REQUIRE(t["link_traversals"] == 26);
  REQUIRE(t["ejections"] == 10);

  // Per-event energies: N = V B = 4 flits per input port, P = 8 ports, W = 64 bits, 1.5 mm links,
  // a 2 ns clock.
  const double n = 4, p = 8, bits = 64, period_ns = 2;
  const double write = kWriteA + kWriteB * n + kWriteC * std::log2(n);  // 1.2345
  const double read = kReadA + kReadB * n + kReadC * std::log2(n);      // 0.8602
  const double xbar = kXbarA + kXbarB * p;                              // 1.5929
  const double sa = kArbiter8;        // V = 1: no input-port stage; an 8:1 output-port stage
  const double va = kArbiter8;        // V = 1: no input stage; (P x V) = 8 requesters at the output VC
  const double link = bits * 1.5 * kLinkFjPerBitMm * 1e-3;  // 3.87456
  const double leak_bit_cycle = kLeakUwPerBit * period_ns * 1e-3;
  const double buffer_bits = p * 1 * 4 * bits;  // 2048 per router
  const auto& e = j["energy"];
  REQUIRE(e["technology"] == "dsent-45nm");
  REQUIRE(e["router"]["ports"] == 8);
  REQUIRE(e["router"]["vcs"] == 1);
  REQUIRE(e["router"]["buffer_bits"] == 2048);
  REQUIRE(e["clock_period_ns"].get<double>() == 2.0);
  REQUIRE(e["per_event_pj"]["buffer_write"].get<double>() == Approx(write).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["buffer_read"].get<double>() == Approx(read).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["crossbar"].get<double>() == Approx(xbar).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["switch_allocation"].get<double>() == Approx(sa).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["vc_allocation"].get<double>() == Approx(va).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["link"].get<double>() == Approx(link).epsilon(1e-5));

  // The window's energy, by component and in total, per delivered flit and as power.
  const double leakage = 16 * buffer_bits * double(window) * leak_bit_cycle;
  const double dynamic = 36 * (write + read + xbar + sa) + 7 * va + 26 * link;
  const double total = dynamic + leakage;
  const auto& et = e["totals"];
  REQUIRE(et["buffer_write_pj"].get<double>() == Approx(36 * write).epsilon(1e-5));
  REQUIRE(et["buffer_read_pj"].get<double>() == Approx(36 * read).epsilon(1e-5));
  REQUIRE(et["crossbar_pj"].get<double>() == Approx(36 * xbar).epsilon(1e-5));
  REQUIRE(et["switch_allocation_pj"].get<double>() == Approx(36 * sa).epsilon(1e-5));
  REQUIRE(et["vc_allocation_pj"].get<double>() == Approx(7 * va).epsilon(1e-5));
  REQUIRE(et["link_pj"].get<double>() == Approx(26 * link).epsilon(1e-5));
  REQUIRE(et["leakage_pj"].get<double>() == Approx(leakage).epsilon(1e-5));
  REQUIRE(et["dynamic_pj"].get<double>() == Approx(dynamic).epsilon(1e-5));
  REQUIRE(et["total_pj"].get<double>() == Approx(total).epsilon(1e-5));
  REQUIRE(et["delivered_flits"] == 10);
  REQUIRE(et["pj_per_delivered_flit"].get<double>() == Approx(total / 10).epsilon(1e-5));
  REQUIRE(et["power_w"].get<double>() == Approx(total * 1e-12 / (double(window) * period_ns * 1e-9)).epsilon(1e-5));

  // One router: r_0_0 writes, reads and switches A's 4 flits, grants it one VC and sends 4 flits
  // on its x+ link; r_0_3 delivers B's 6 flits and sends nothing on a link.
  const auto& r0 = e["per_router"][0];
  REQUIRE(r0["router"] == "r_0_0");
  const double r0_total = 4 * (write + read + xbar + sa) + va + 4 * link + buffer_bits * double(window) * leak_bit_cycle;
  REQUIRE(r0["total_pj"].get<double>() == Approx(r0_total).epsilon(1e-5));
  REQUIRE(r0["pj_per_delivered_flit"].get<double>() == Approx(r0_total / 10).epsilon(1e-5));
  const auto& r12 = e["per_router"][12];
  REQUIRE(r12["router"] == "r_0_3");
  REQUIRE(r12["link_pj"].get<double>() == 0.0);
  REQUIRE(r12["buffer_write_pj"].get<double>() == Approx(6 * write).epsilon(1e-5));
  // An idle router costs its leakage only.
  const auto& idle = e["per_router"][5];
  REQUIRE(idle["dynamic_pj"].get<double>() == 0.0);
  REQUIRE(idle["leakage_pj"].get<double>() == Approx(buffer_bits * double(window) * leak_bit_cycle).epsilon(1e-5));
}

TEST_CASE("energy: the flit width scales buffers, crossbar, links and leakage; the clock defaults to the run's", "[sc]") {
  write_trace("energy_trace_w.csv");
  REQUIRE(cli({"traffic", "--net", "mesh:4x4", "--set", "traffic.trace=energy_trace_w.csv", "--warmup", "0",
               "--measure", "300", "--set", "energy.flit_bits=128", "--set", "energy.technology=dsent-32nm", "--set",
               "sim.progress=off", "--json", "energy_w.json"}) == 0);
  std::remove("energy_trace_w.csv");
  const auto j = take_json("energy_w.json");
  const auto& e = j["energy"];
  REQUIRE(e["technology"] == "dsent-32nm");
  REQUIRE(e["clock_period_ns"].get<double>() == 1.0);  // the command line's own clock
  REQUIRE(e["router"]["buffer_bits"] == 8 * 4 * 128);
  // docs/energy.md, dsent-32nm: write 0.3489 + 0.0460 N + 0.0744 log2 N at 64 bits, twice that at 128.
  REQUIRE(e["per_event_pj"]["buffer_write"].get<double>() == Approx(2 * (0.3489 + 0.0460 * 4 + 0.0744 * 2)).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["link"].get<double>() == Approx(128 * 32.40e-3).epsilon(1e-5));
  REQUIRE(e["per_event_pj"]["leakage_per_bit_cycle"].get<double>() == Approx(2.050e-3).epsilon(1e-5));
}
