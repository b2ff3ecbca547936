// Minimal adaptive routing (docs/router.md section 12): every packet delivered exactly once, at
// and beyond saturation, with no deadlock (the comparison with dimension order on transpose is
// tests/cli/routing_beats_dor.sh: two runs, two processes).
#include <catch2/catch.hpp>

#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

TEST_CASE("min-adaptive: 8x8 torus, uniform beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:8x8", "uniform", "0.7", "200000", {"router.routing=min-adaptive"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 1000000);
}

TEST_CASE("min-adaptive: 8x8 torus under iSLIP allocators, transpose beyond saturation, 100k cycles, everything "
          "delivered once",
          "[sc]") {
  const auto j = drained_run("torus:8x8", "transpose", "0.7", "100000",
                             {"router.routing=min-adaptive", "router.allocator=islip", "router.islip_iterations=2"});
  CHECK(j["config"]["router"]["allocator"] == "islip");
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 300000);
}

TEST_CASE("min-adaptive: 4x4x4 torus, transpose beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:4x4x4", "transpose", "0.6", "200000",
                             {"router.routing=min-adaptive", "router.adaptive_vcs=1", "router.vc_realloc=tail"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 500000);
}
