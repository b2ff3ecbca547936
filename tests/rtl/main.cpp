// sc_main of the rtl test executable: runs the Catch2 session (one test case per process), with the
// models built on demand into the build tree's cache and the RTL's named assertions compiled in.
#define CATCH_CONFIG_RUNNER
#include <cstdlib>

#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  setenv("WORMCAST_RTL_CACHE", WC_RTL_TEST_CACHE, 0);
  setenv("WORMCAST_RTL_ASSERT", "1", 0);
  return Catch::Session().run(argc, argv);
}
