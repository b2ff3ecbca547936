// The fabric's VCD trace carries the channel lines and the buffer-state tables, and the GTKWave
// save file made from that dump names the same signals, one group per channel and router.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "tb/out/wave.h"
#include "tests/sc/mway_bench.h"

using namespace wormcast;

TEST_CASE("mway: the VCD trace and the GTKWave save file show channel lines and buffer-state tables", "[sc]") {
  MwayParams p;
  p.radix = {3, 2};
  test::MwayBench b("bench", p);
  const std::string base = "mway_trace_test";
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  b.fab.trace(tf);
  b.submit(b.region(1, 0, b.fab.geometry().full_region(), 5, 0));
  b.run(200);
  sc_core::sc_close_vcd_trace_file(tf);
  REQUIRE(b.complete());
  std::ifstream in(base + ".vcd");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string vcd = ss.str();
  // The VCD writer turns the dotted names into scopes: SystemC.bench.fab.ch_0_0.drv is the
  // variable "drv" in scope ch_0_0.
  // Widths: m = 5 ways (3 bits of Drv, 5 of Ways), 4 buffers (2 bits of Buf), 5 flits (3 bits of
  // Fptr and Rptr).
  for (const char* sig : {"$scope module ch_0_0 $end", " drv [2:0]", " tag [1:0]", " buf [1:0]", " ways [4:0]",
                          " ack ", "$scope module r_d0_1_0 $end", "$scope module minus $end", "$scope module b3 $end",
                          " A ", " F ", " Drv [2:0]", " Buf [1:0]", " Fptr [2:0]", " Rptr [2:0]", " RF "})
    CHECK(vcd.find(sig) != std::string::npos);
  // The save file from the dump's declarations: a group per channel and router, a sub-group per
  // buffer row, every declared signal once, the ways mask in hexadecimal.
  const VcdInfo info = read_vcd_info("--vcd", base + ".vcd");
  std::remove((base + ".vcd").c_str());
  int groups = 0;
  const std::string gtkw = overview_save_file("x.vcd", info, {}, 200, &groups);
  CHECK(gtkw.rfind("[dumpfile] \"x.vcd\"", 0) == 0);
  CHECK(gtkw.find("\n-ch_2_1\n") != std::string::npos);
  CHECK(gtkw.find("\n-r_d1_0_0\n") != std::string::npos);
  CHECK(gtkw.find("\n-minus.b3\n") != std::string::npos);
  CHECK(gtkw.find("SystemC.bench.fab.r_d0_1_0.minus.b3.Rptr[2:0]") != std::string::npos);
  CHECK(gtkw.find("@22\nSystemC.bench.fab.ch_0_0.ways[4:0]") != std::string::npos);
  // A channel's group says at which edge its lines change and how to read the tag.
  const size_t ch = gtkw.find("\n-ch_0_0\n");
  CHECK(gtkw.find("\n-ch_0_0\n@200\n-changes at the rising edge; tag 0 I (idle), 1 H, 2 B, 3 T; drv the driving device; "
                  "packet, flit: its flit's packet id and index (0 = header); drv, ways: 0 x+, 1 x-, 2 y+, 3 y-, 4 node\n") == ch);
  CHECK(gtkw.find("@24\nSystemC.bench.fab.ch_0_0.packet[31:0]\nSystemC.bench.fab.ch_0_0.flit[2:0]\n") != std::string::npos);
  size_t refs = 0;
  for (size_t at = gtkw.find("\nSystemC."); at != std::string::npos; at = gtkw.find("\nSystemC.", at + 1)) ++refs;
  CHECK(refs == info.vars.size());
  CHECK(groups > 0);
}

namespace {

/// The identifier codes of the VCD variables named `name` (any scope), and of the scope path's
/// last module for each, from the declarations.
std::set<std::string> vcd_ids(const std::string& vcd, const std::string& name) {
  std::set<std::string> ids;
  std::istringstream in(vcd);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream w(line);
    std::string var, kind, width, id, n;
    if (!(w >> var >> kind >> width >> id >> n) || var != "$var") continue;
    if (n == name) ids.insert(id);
  }
  return ids;
}

/// Some value change sets a 1-bit variable of `ids` to 1, or gives a vector of `ids` a value
/// with at least `ones` bits set.
bool vcd_reaches(const std::string& vcd, const std::set<std::string>& ids, int ones) {
  std::istringstream in(vcd.substr(vcd.find("$enddefinitions")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > 1 && line[0] == '1' && ones == 1 && ids.count(line.substr(1))) return true;
    if (line.size() > 1 && line[0] == 'b') {
      const auto sp = line.find(' ');
      if (sp == std::string::npos || !ids.count(line.substr(sp + 1))) continue;
      int n = 0;
      for (size_t i = 1; i < sp; ++i) n += line[i] == '1';
      if (n >= ones) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("mway: the VCD of a 3x3 MST-replica run shows Pri, Stat, R, T and the node-interface tables", "[sc]") {
  MwayParams p;
  p.radix = {3, 3};
  p.algorithm = MwayAlgorithm::MstReplica;
  p.buffers = 1;
  test::MwayBench b("bench", p);
  const std::string base = "mway_trace_replica";
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  b.fab.trace(tf);
  // Overlapping waves of all-node broadcasts (a wave every 2..8 cycles) until replicas were made,
  // then drained.
  bool split = false;
  b.on_event = [&](const MwayChannelEvent& e) { split |= e.replica >= 0; };
  uint64_t id = 1;
  for (int wave = 0; wave < 60 && !split; ++wave) {
    for (int n = 0; n < 9; ++n) b.submit(b.region(id++, n, b.fab.geometry().full_region(), 5, current_cycle()));
    sc_core::sc_start(cycle_time() * double(2 + wave % 7));
  }
  b.run(20000);
  sc_core::sc_close_vcd_trace_file(tf);
  REQUIRE(b.complete());
  REQUIRE(b.errors.empty());
  REQUIRE(split);  // the run made replicas
  std::ifstream in(base + ".vcd");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string vcd = ss.str();
  std::remove((base + ".vcd").c_str());
  // Declarations at their widths: m = 5 on a 3x3 mesh (Pri and Stat 5 bits), one router buffer and
  // four injection buffers per set (Buf 2 bits), the node interfaces' tables and loader.
  for (const char* sig : {" pri [4:0]", " stat_free [4:0]", " stat_full [4:0]", " drv [2:0]", " buf [1:0]",
                          "$scope module ni_1_1 $end", "$scope module inj $end", "$scope module ej $end",
                          "$scope module loader $end", " targets [3:0]", " next [2:0]", " R ", " T "})
    CHECK(vcd.find(sig) != std::string::npos);
  // And they move: two drivers requesting one channel at once, a receiver set with a full
  // buffer, a reservation (R), a tail received (T), the loader's rows and flit index.
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "pri"), 2));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "R"), 1));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "T"), 1));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "stat_full"), 1));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "targets"), 1));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "next"), 2));
  // Words are traced as their bits: Tag T (3), the node's Drv (4) and the packet's flit index
  // are values, never x (a signed trace of a 2-bit Tag would show B and T as x).
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "tag"), 2));
  CHECK(vcd_reaches(vcd, vcd_ids(vcd, "flit"), 2));
  CHECK(vcd.find("\nbx", vcd.find("$enddefinitions")) == std::string::npos);
  CHECK(vcd.find("\nb1x", vcd.find("$enddefinitions")) == std::string::npos);
}
