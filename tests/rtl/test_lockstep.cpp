// Lockstep runs: the Verilated router and the SystemC router agree on every output wire in
// every cycle under constrained-random stimulus, and a deliberately broken RTL build is caught.
#include <map>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "tb/rtl/lockstep.h"

using namespace wormcast;

namespace {

std::string out_path(const std::string& name) { return std::string(WC_TEST_OUT_DIR) + "/" + name; }

/// One lockstep run that must agree for `cycles` cycles; every flit out returned its credit.
LockstepResult run_agreeing(const std::string& config, uint64_t seed, int node, uint64_t cycles,
                            StimulusLoad load = StimulusLoad::Phases) {
  LockstepOptions opt;
  opt.cycles = cycles;
  opt.seed = seed;
  opt.node = node;
  opt.load = load;
  opt.mismatch_vcd = out_path("lockstep_" + config + "_mismatch.vcd");
  const LockstepResult r = run_lockstep(find_rtl_model(config), opt);
  INFO(r);
  REQUIRE(r.ok);
  REQUIRE(r.cycles >= opt.cycles);
  CHECK(r.credits_out == r.flits_out);
  return r;
}

// node: the router's position. Coordinates past the middle of a torus dimension let a plus
// port carry both dateline classes, so that with V = 1 two input ports can contend for it.
void check_agreement(const std::string& config, uint64_t seed, int node) {
  const RouterParams p = find_rtl_model(config).router_params();
  const LockstepResult r = run_agreeing(config, seed, node, 50000);
  INFO(r);
  // The run must have exercised the router: traffic through every phase, single-flit and long
  // packets, withheld credits, and buffers filled well beyond one flit per port.
  CHECK(r.flits_out > 50000 / 2);
  CHECK(r.single_flit > 100);
  CHECK(r.packets_in > r.single_flit * 2);
  CHECK(r.stalled_port_cycles > 1000);
  CHECK(r.max_buffered >= p.num_ports() * p.buffer_depth / 2);
}

/// The deliberately broken build <base>_bug (test hook `hook`) must be caught within 50,000
/// cycles and reported with cycle, port, VC, both values and a waveform that covers the mismatch
/// cycle and marks it.
LockstepResult check_caught(const std::string& base, const std::string& hook, uint64_t seed, int node,
                            const std::string& vcd) {
  const RtlModelInfo& bug = find_rtl_model(base + "_bug");
  REQUIRE(bug.test_hook == hook);
  std::map<std::string, int> without_hook = bug.params;
  REQUIRE(without_hook.erase(hook.substr(0, hook.find('='))) == 1);
  REQUIRE(without_hook == find_rtl_model(base).params);
  LockstepOptions opt;
  opt.cycles = 50000;
  opt.seed = seed;
  opt.node = node;
  opt.window = 20;
  opt.mismatch_vcd = out_path(vcd);
  std::remove(opt.mismatch_vcd.c_str());
  const LockstepResult r = run_lockstep(bug, opt);
  INFO(r);
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatch_cycle > 2);
  CHECK(r.mismatch_cycle < opt.cycles);
  CHECK((r.mismatch_wire == "flit_out" || r.mismatch_wire == "credit_out"));
  CHECK(r.mismatch_port >= 0);
  CHECK(r.mismatch_port < bug.router_params().num_ports());
  CHECK(r.mismatch_vc >= 0);
  CHECK(r.systemc_value != r.rtl_value);
  std::ostringstream text;
  text << r;
  CHECK(text.str().find("MISMATCH at cycle " + std::to_string(r.mismatch_cycle)) != std::string::npos);
  REQUIRE(r.vcd_written == opt.mismatch_vcd);
  std::ifstream file(opt.mismatch_vcd);
  REQUIRE(file.good());
  const std::string body((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string port = std::to_string(r.mismatch_port);
  CHECK(body.find("rtl_" + r.mismatch_wire + "_" + port) != std::string::npos);
  CHECK(body.find("systemc_" + r.mismatch_wire + "_" + port) != std::string::npos);
  CHECK(body.find("\n#" + std::to_string(r.mismatch_cycle) + "\n1") != std::string::npos);
  return r;
}

}  // namespace

TEST_CASE("lockstep: 2-D all-port torus V=1 B=4 agrees with SystemC for 50k cycles", "[rtl]") {
  check_agreement("torus8x8_v1b4", 1, 5 + 8 * 2);  // (5,2)
}

TEST_CASE("lockstep: 3-D all-port torus V=2 B=8 R=2 agrees with SystemC for 50k cycles",
          "[rtl]") {
  check_agreement("torus4x4x4_v2b8r2", 2, 2 + 4 * 1 + 16 * 3);  // (2,1,3)
}

TEST_CASE("lockstep: 2-D one-port mesh V=2 B=4 agrees with SystemC for 50k cycles", "[rtl]") {
  check_agreement("mesh8x8_1p_v2b4", 3, 0 + 8 * 3);  // (0,3): port 1 unconnected
}

TEST_CASE("lockstep: mixed torus/mesh 5x6 with link and credit delays agrees with SystemC for "
          "50k cycles", "[rtl]") {
  check_agreement("mixed5x6_delays", 4, 3 + 5 * 4);  // (3,4)
}

TEST_CASE("lockstep: a build whose switch-allocator pointer stays on the winner is caught and "
          "reported with cycle and port and VC and both values and a waveform", "[rtl]") {
  check_caught("torus8x8_v1b4", "BugSaPtr=1", 1, 5 + 8 * 2, "lockstep_bug_mismatch.vcd");
}

TEST_CASE("lockstep: 2-D all-port torus V=1 B=4 with tail VC re-allocation agrees with SystemC "
          "for 50k cycles", "[rtl]") {
  REQUIRE(find_rtl_model("torus8x8_v1b4_tail").router().vc_realloc == VcRealloc::Tail);
  check_agreement("torus8x8_v1b4_tail", 5, 5 + 8 * 2);  // (5,2)
}

TEST_CASE("lockstep: mixed torus/mesh 5x6 with delays and tail VC re-allocation agrees with "
          "SystemC for 50k cycles", "[rtl]") {
  REQUIRE(find_rtl_model("mixed5x6_delays_tail").router().vc_realloc == VcRealloc::Tail);
  check_agreement("mixed5x6_delays_tail", 6, 3 + 5 * 4);  // (3,4)
}

TEST_CASE("lockstep: 2-D all-port torus V=1 B=4 with the dateline class decided at dimension entry "
          "agrees with SystemC for 50k cycles", "[rtl]") {
  const RtlModelInfo& m = find_rtl_model("torus8x8_v1b4_entry");
  REQUIRE(m.router().vc_class == VcClassRule::Entry);
  REQUIRE(m.router_params().vc_class_entry);
  check_agreement("torus8x8_v1b4_entry", 11, 5 + 8 * 2);  // (5,2)
}

TEST_CASE("lockstep: mixed torus/mesh 5x6 V=2 with delays and the dateline class decided at "
          "dimension entry agrees with SystemC for 50k cycles", "[rtl]") {
  REQUIRE(find_rtl_model("mixed5x6_delays_entry").router_params().vc_class_entry);
  check_agreement("mixed5x6_delays_entry", 12, 3 + 5 * 4);  // (3,4)
}

TEST_CASE("lockstep: 2-D all-port torus V=2 B=8 with the staged pipeline (R=4 Ld=1 Cd=1, tail) agrees "
          "with SystemC for 50k cycles", "[rtl]") {
  const RouterConfig r = find_rtl_model("torus8x8_v2b8_staged").router();
  REQUIRE(r.pipeline == RouterPipeline::Staged);
  REQUIRE(r.vc_realloc == VcRealloc::Tail);
  check_agreement("torus8x8_v2b8_staged", 11, 5 + 8 * 2);  // (5,2)
}

TEST_CASE("lockstep: one-port torus/mesh 5x6 with the staged pipeline (R=3) and 2-flit buffers agrees "
          "with SystemC for 50k cycles", "[rtl]") {
  REQUIRE(find_rtl_model("mixed5x6_1p_b2_staged").router().pipeline == RouterPipeline::Staged);
  check_agreement("mixed5x6_1p_b2_staged", 12, 3 + 5 * 4);  // (3,4)
}

TEST_CASE("lockstep: 2-D all-port torus V=2 with one-iteration iSLIP accepting by output port agrees with "
          "SystemC for 50k cycles", "[rtl]") {
  const RouterConfig r = find_rtl_model("torus4x4_v2b4_islip1port").router();
  REQUIRE(r.allocator == RouterAllocator::Islip);
  REQUIRE(r.islip_iterations == 1);
  REQUIRE(r.switch_accept == SwitchAccept::Port);
  check_agreement("torus4x4_v2b4_islip1port", 11, 3 + 4 * 2);  // (3,2)
}

TEST_CASE("lockstep: 2-D all-port torus V=2 with delays, tail VC re-allocation and three-iteration iSLIP "
          "accepting by VC agrees with SystemC for 50k cycles", "[rtl]") {
  const RouterConfig r = find_rtl_model("torus8x8_v2b4_islip3vc").router();
  REQUIRE(r.allocator == RouterAllocator::Islip);
  REQUIRE(r.islip_iterations == 3);
  REQUIRE(r.switch_accept == SwitchAccept::Vc);
  check_agreement("torus8x8_v2b4_islip3vc", 12, 5 + 8 * 2);  // (5,2)
}

TEST_CASE("lockstep: 2-D one-port mesh V=2 with output-first allocation agrees with SystemC for 50k cycles",
          "[rtl]") {
  REQUIRE(find_rtl_model("mesh6x6_1p_v2b3_of").router().allocator == RouterAllocator::OutputFirst);
  check_agreement("mesh6x6_1p_v2b3_of", 13, 2 + 6 * 3);  // (2,3)
}

namespace {

/// The iBT(16^2; <4>) router (bypass+ = port 4, bypass- = port 5, local ports 6..11) for 100,000
/// cycles at one offered load; its bypass ports must carry traffic both ways.
LockstepResult run_ibt(const std::string& config, uint64_t seed, int node, StimulusLoad load) {
  const RtlModelInfo& model = find_rtl_model(config);
  const LockstepResult r = run_agreeing(config, seed, node, 100000, load);
  INFO(r);
  REQUIRE(r.flits_out_port.size() == size_t(model.router_params().num_ports()));
  const int bypass = 2 * model.router_params().dims;
  CHECK(r.flits_out_port[size_t(bypass)] > 2000);
  CHECK(r.flits_out_port[size_t(bypass + 1)] > 2000);
  return r;
}

}  // namespace

TEST_CASE("lockstep: iBT 16x16 b=4 with bypass routing agrees with SystemC for 100k cycles at "
          "low load", "[rtl]") {
  const LockstepResult r = run_ibt("ibt16x16_b4", 8, 9 + 16 * 9, StimulusLoad::Low);  // (9,9): species 0
  INFO(r);
  // A flit in 5 % of the cycles on each of 12 input ports, the downstream always ready: what goes
  // in comes out, and the buffers stay far from full.
  CHECK(r.flits_in > 12 * 100000 / 20 * 9 / 10);
  CHECK(r.flits_out > r.flits_in - 100);
  CHECK(r.max_buffered < 12 * 2 * 4 / 2);
}

TEST_CASE("lockstep: iBT 16x16 b=4 with bypass routing agrees with SystemC for 100k cycles at "
          "saturating load", "[rtl]") {
  const LockstepResult r = run_ibt("ibt16x16_b4", 9, 2 + 16 * 13, StimulusLoad::Saturating);  // (2,13): species 1
  INFO(r);
  // Every input port sends whenever it has a credit: the buffers fill, credits are withheld.
  CHECK(r.flits_out > 50000);
  CHECK(r.stalled_port_cycles > 1000);
  CHECK(r.max_buffered >= 12 * 2 * 4 * 3 / 4);
}

TEST_CASE("lockstep: iBT 16x16 b=4 with dimension-order routing agrees with SystemC for 50k cycles",
          "[rtl]") {
  check_agreement("ibt16x16_b4_dor", 10, 9 + 16 * 9);  // (9,9)
}

TEST_CASE("lockstep: an iBT build whose bypass plan prefers minus on a tie is caught and reported "
          "with cycle and port and VC and both values and a waveform", "[rtl]") {
  const LockstepResult r = check_caught("ibt16x16_b4", "BugIbtTie=1", 8, 9 + 16 * 9, "lockstep_ibt_bug_mismatch.vcd");
  INFO(r);
  // The head goes out on bypass- instead of bypass+ (or waits for a VC there): the first
  // difference is a flit on one of them, or the credit of a head that came in on one.
  CHECK((r.mismatch_port == 4 || r.mismatch_port == 5));
}
