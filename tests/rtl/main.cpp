// sc_main of the rtl test executable: runs the Catch2 session (one test case per process), with the
// models built on demand into the build tree's cache and the RTL's named assertions compiled in.
#define CATCH_CONFIG_RUNNER
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <catch2/catch.hpp>
#include <systemc>

/// Cycles of each m-way lockstep run (tests/rtl/test_mway_lockstep.cpp): the default suite's, or
/// --mway-lockstep-cycles N (the `long` label's 100,000).
uint64_t g_mway_lockstep_cycles = 40000;

int sc_main(int argc, char* argv[]) {
  setenv("WORMCAST_RTL_CACHE", WC_RTL_TEST_CACHE, 0);
  setenv("WORMCAST_RTL_ASSERT", "1", 0);
  Catch::Session session;
  uint64_t cycles = g_mway_lockstep_cycles;
  using Catch::clara::Opt;
  session.cli(session.cli() | Opt(cycles, "cycles")["--mway-lockstep-cycles"](
                                  "cycles of each m-way lockstep run (default 40000)"));
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  if (cycles < 1000) {
    std::fprintf(stderr, "--mway-lockstep-cycles: %llu is out of range (1000 or more)\n", (unsigned long long)cycles);
    return 2;
  }
  g_mway_lockstep_cycles = cycles;
  return session.run();
}
