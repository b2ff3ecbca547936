// Valiant's two-phase routing (docs/router.md section 13): every packet delivered exactly once, at
// and beyond saturation, with no deadlock, on the inline input-first path and on the allocator
// units; a refused combination exits 2. (Its zero-load paths are in test_zero_load.cpp, the
// comparison with dimension order on tornado in tests/cli/test_valiant.sh.)
#include <catch2/catch.hpp>

#include "systemc/torus/valiant.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

TEST_CASE("valiant: 8x8 torus, uniform beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:8x8", "uniform", "0.6", "200000", {"router.routing=valiant"});
  REQUIRE(j["status"] == "unstable");  // beyond saturation, and still drained clean
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 300000);
}

TEST_CASE("valiant: 8x8 torus, tornado beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:8x8", "tornado", "0.6", "200000", {"router.routing=valiant", "traffic.tie=random"});
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 300000);
}

// The allocator units (section 5.6) route through the same route(): 50k cycles, as that path is
// several times slower than the inline input-first one.
TEST_CASE("valiant: 8x8 torus, transpose beyond saturation with V = 2 and islip and tail re-allocation, 50k cycles", "[sc]") {
  const auto j = drained_run("torus:8x8", "transpose", "0.4", "50000",
                             {"router.routing=valiant", "router.vcs_per_class=2", "router.allocator=islip",
                              "router.vc_realloc=tail", "traffic.tie=balanced"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 100000);
}

TEST_CASE("valiant: 4x4x4 torus, uniform beyond saturation, 200k cycles, everything delivered once", "[sc]") {
  const auto j = drained_run("torus:4x4x4", "uniform", "0.7", "200000", {"router.routing=valiant"});
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 500000);
}

TEST_CASE("valiant: 4x4x4 torus, transpose beyond saturation, one local port, 200k cycles", "[sc]") {
  const auto j = drained_run("torus:4x4x4", "transpose", "0.6", "200000",
                             {"router.routing=valiant", "router.local_ports=one", "router.buffer_depth=2"});
  REQUIRE(j["packets"]["delivered"].get<uint64_t>() > 300000);
}

// The draw: uniform over every node (a chi-square test on 64 nodes, 64k packets, far beyond its
// 0.1 % quantile only when broken), a function of the seed and the packet alone.
TEST_CASE("valiant: the intermediate node is uniform over the nodes and fixed by seed and packet", "[sc]") {
  const int n = 64, draws = 65536;
  std::vector<int> count(n, 0);
  for (int i = 0; i < draws; ++i) ++count[size_t(valiant_intermediate(1, uint64_t(i) * 64 + 5, n))];
  double chi2 = 0;
  for (int c : count) chi2 += (c - draws / double(n)) * (c - draws / double(n)) / (draws / double(n));
  INFO("chi-square " << chi2);
  REQUIRE(chi2 < 110.0);  // 63 degrees of freedom: 0.1 % quantile about 103.4
  REQUIRE(valiant_intermediate(1, 12345, n) == valiant_intermediate(1, 12345, n));
  int same = 0;
  for (uint64_t p = 0; p < 1000; ++p) same += valiant_intermediate(1, p, n) == valiant_intermediate(2, p, n);
  REQUIRE(same < 60);  // another seed, other draws (about 1000 / 64 agree by chance)
}
