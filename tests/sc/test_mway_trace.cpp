// The fabric's VCD trace carries the channel lines and the buffer-state tables, and the GTKWave
// save file made from that dump names the same signals, one group per channel and router.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

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
  for (const char* sig : {"$scope module ch_0_0 $end", " drv [31:0]", " tag [31:0]", " buf [31:0]", " ways [31:0]",
                          " ack ", "$scope module r_d0_1_0 $end", "$scope module minus $end", "$scope module b3 $end",
                          " A ", " F ", " Drv [31:0]", " Buf [31:0]", " Fptr [31:0]", " Rptr [31:0]", " RF "})
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
  CHECK(gtkw.find("SystemC.bench.fab.r_d0_1_0.minus.b3.Rptr[31:0]") != std::string::npos);
  CHECK(gtkw.find("@22\nSystemC.bench.fab.ch_0_0.ways[31:0]") != std::string::npos);
  size_t refs = 0;
  for (size_t at = gtkw.find("\nSystemC."); at != std::string::npos; at = gtkw.find("\nSystemC.", at + 1)) ++refs;
  CHECK(refs == info.vars.size());
  CHECK(groups > 0);
}
