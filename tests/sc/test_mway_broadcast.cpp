// Every node of a Region receives a broadcast exactly once, for every algorithm, on meshes and a
// hypercube, from several sources, for sub-Regions and for Regions that do not contain the source;
// unicast and broadcast messages mix in one run.
#include <catch2/catch.hpp>

#include <random>

#include "tests/sc/mway_bench.h"

using namespace wormcast;

namespace {
/// Broadcasts from several sources to the whole mesh, to a sub-Region around the source and to a
/// Region beside it. Plain MST runs them one at a time (it can deadlock under load); the others
/// all at once, staggered by 2 cycles.
void exactly_once(MwayAlgorithm alg, std::vector<int> radix) {
  MwayParams p;
  p.radix = radix;
  p.algorithm = alg;
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  const int n = g.num_channels();
  std::vector<MwayMessage> msgs;
  uint64_t id = 1;
  for (int s : {0, n / 2 + 1, n - 1, n / 3}) {
    std::vector<int> lo(size_t(g.dims())), hi(size_t(g.dims())), olo(size_t(g.dims())), ohi(size_t(g.dims()));
    for (int d = 0; d < g.dims(); ++d) {
      const int x = g.coord_of(s, d), k = g.radix(d);
      lo[size_t(d)] = std::max(0, x - 1);
      hi[size_t(d)] = std::min(k - 1, x + 2);
      olo[size_t(d)] = 0;
      ohi[size_t(d)] = k - 1;
    }
    // Beside the source: the other half of dimension 0.
    const int x0 = g.coord_of(s, 0), k0 = g.radix(0);
    if (x0 < k0 / 2) {
      olo[0] = k0 / 2;
    } else {
      ohi[0] = k0 / 2 - 1;
    }
    for (const auto& r : {g.full_region(), test::make_region(g, lo, hi), test::make_region(g, olo, ohi)})
      msgs.push_back(b.region(id++, s, r, 5, 0));
  }
  if (alg == MwayAlgorithm::Mst) {
    for (auto m : msgs) {
      m.created = sc_core::sc_time_stamp().value() / cycle_time().value();
      b.submit(m);
      b.run(5000);
      REQUIRE(b.errors.empty());
      REQUIRE(b.complete());
    }
  } else {
    uint64_t t = 0;
    for (auto m : msgs) {
      m.created = t;
      t += 2;
      b.submit(m);
    }
    b.run(20000);
  }
  INFO("missing deliveries: " << b.missing());
  for (auto& e : b.errors) FAIL_CHECK(e);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(b.fab.idle());
  REQUIRE(b.fab.buffered_flits() == 0);
  size_t deliveries = 0;
  for (auto& m : msgs) deliveries += b.fab.addressed(m).size();
  REQUIRE(b.tail_cycle.size() == deliveries);
}
}  // namespace

#define MWAY_EXACTLY_ONCE(ALG, NAME, ...)                                                                   \
  TEST_CASE("mway: " NAME " reaches every Region node exactly once on 4x4", "[sc]") {                     \
    exactly_once(MwayAlgorithm::ALG, {4, 4});                                                              \
  }                                                                                                        \
  TEST_CASE("mway: " NAME " reaches every Region node exactly once on 8x8", "[sc]") {                     \
    exactly_once(MwayAlgorithm::ALG, {8, 8});                                                              \
  }                                                                                                        \
  TEST_CASE("mway: " NAME " reaches every Region node exactly once on 4x4x4", "[sc]") {                   \
    exactly_once(MwayAlgorithm::ALG, {4, 4, 4});                                                           \
  }                                                                                                        \
  TEST_CASE("mway: " NAME " reaches every Region node exactly once on a 6-D hypercube", "[sc]") {         \
    exactly_once(MwayAlgorithm::ALG, {2, 2, 2, 2, 2, 2});                                                  \
  }

MWAY_EXACTLY_ONCE(Mst, "MST")
MWAY_EXACTLY_ONCE(MstSafe, "MST-safe")
MWAY_EXACTLY_ONCE(MstReplica, "MST-replica")
MWAY_EXACTLY_ONCE(MstUnicast, "MST-unicast")
MWAY_EXACTLY_ONCE(RecursiveDoubling, "recursive doubling")

TEST_CASE("mway: a whole-network broadcast on a 10-D hypercube reaches all 1023 other nodes in 10 + L cycles", "[sc]") {
  MwayParams p;
  p.radix = std::vector<int>(10, 2);
  p.algorithm = MwayAlgorithm::MstReplica;
  test::MwayBench b("bench", p);
  b.submit(b.region(1, 0, b.fab.geometry().full_region(), 5, 0));
  b.submit(b.region(2, 1023, b.fab.geometry().full_region(), 5, 100));
  b.run(2000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(b.tail_cycle.size() == 2 * 1023);
  // Zero load: node v has the tail at created + h(src, v) + L, the farthest (h = 10) at + 15.
  const auto& g = b.fab.geometry();
  for (auto& [k, c] : b.tail_cycle) {
    const int src = k.first == 1 ? 0 : 1023;
    REQUIRE(c == b.expect[k.first].created + uint64_t(g.hops(src, k.second)) + 5);
  }
}

TEST_CASE("mway: MST-safe broadcasts on a 9-D hypercube reach all 511 other nodes at h + L", "[sc]") {
  MwayParams p;
  p.radix = std::vector<int>(9, 2);
  p.algorithm = MwayAlgorithm::MstSafe;
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  REQUIRE(g.ways() == 19);
  for (int s : {0, 137, 511}) b.submit(b.region(uint64_t(s + 1), s, g.full_region(), 5, uint64_t(s) * 2));
  b.run(2000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(b.tail_cycle.size() == 3 * 511);
  for (int s : {0, 137, 511}) {
    uint64_t last = 0;
    for (int v = 0; v < g.num_channels(); ++v)
      if (v != s) last = std::max(last, b.tail_cycle[{uint64_t(s + 1), v}]);
    REQUIRE(last == uint64_t(s) * 2 + 9 + 5);  // the farthest node is 9 hops away
  }
}

TEST_CASE("mway: unicast and MST-safe broadcast messages mix under random load and all arrive", "[sc]") {
  MwayParams p;
  p.radix = {6, 6};
  p.algorithm = MwayAlgorithm::MstSafe;
  p.buffers = 2;
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  std::mt19937 rng(7);
  uint64_t id = 1;
  for (uint64_t t = 0; t < 400; ++t) {
    for (int s = 0; s < g.num_channels(); ++s) {
      if (rng() % 100 >= 3) continue;
      if (rng() % 10 == 0) {
        const int a = int(rng() % 6), c = int(rng() % 6);
        b.submit(b.region(id++, s, test::make_region(g, {std::min(a, c), 0}, {std::max(a, c), 5}), 5, t));
      } else {
        int d = int(rng() % uint32_t(g.num_channels()));
        if (d == s) d = (d + 1) % g.num_channels();
        b.submit(b.unicast(id++, s, d, 2 + uint32_t(rng() % 4), t));
      }
    }
  }
  b.run(50000);
  for (auto& e : b.errors) FAIL_CHECK(e);
  INFO("missing deliveries: " << b.missing());
  REQUIRE(b.complete());
  REQUIRE(b.fab.idle());
  uint64_t sum = 0;
  for (auto f : b.fab.channel_flits()) sum += f;
  REQUIRE(sum == b.fab.flits_moved());
}

TEST_CASE("mway: parameters and messages outside the contract are refused with the reason", "[sc]") {
  MwayParams p;
  p.algorithm = MwayAlgorithm::MstSafe;
  p.buffer_length = 4;
  p.max_message_length = 5;
  REQUIRE_THROWS_WITH(p.validate(), Catch::Contains("buffer_length") && Catch::Contains("virtual cut-through"));
  p.algorithm = MwayAlgorithm::MstReplica;
  REQUIRE_THROWS_AS(p.validate(), std::invalid_argument);
  p.algorithm = MwayAlgorithm::Mst;
  REQUIRE_NOTHROW(p.validate());
  p.buffers = 0;
  REQUIRE_THROWS_WITH(p.validate(), Catch::Contains("buffers: 1..32"));
  p.buffers = 4;
  p.radix = {4, 1};
  REQUIRE_THROWS_WITH(p.validate(), Catch::Contains("radix[1]"));
  p.radix = {4, 4};
  p.algorithm = MwayAlgorithm::UnicastOnly;
  test::MwayBench b("bench", p);
  REQUIRE_THROWS_AS(b.fab.submit(0, b.region(1, 0, b.fab.geometry().full_region(), 5, 0)), std::invalid_argument);
  REQUIRE_THROWS_AS(b.fab.submit(0, b.unicast(2, 0, 0, 5, 0)), std::invalid_argument);
  REQUIRE_THROWS_AS(b.fab.submit(0, b.unicast(3, 0, 1, 6, 0)), std::invalid_argument);
  REQUIRE(b.fab.node_name(6) == "ni_2_1");
  REQUIRE(b.fab.channel_name(6) == "ch_2_1");
  REQUIRE(std::string(b.fab.node_interface(6).name()) == "bench.fab.ni_2_1");
  REQUIRE(std::string(b.fab.router(0).plus.name()) == "bench.fab.r_d0_0_0.plus");
}
