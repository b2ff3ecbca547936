// Zero-load latency of the m-way fabric against the formulas of docs/mway.md section 9.
#include <catch2/catch.hpp>

#include "tests/sc/mway_bench.h"

using namespace wormcast;

namespace {
void unicast_all_pairs(std::vector<int> radix, uint32_t len) {
  MwayParams p;
  p.radix = radix;
  p.algorithm = MwayAlgorithm::UnicastOnly;
  p.max_message_length = int(len);
  p.buffer_length = 2;  // wormhole buffers: zero-load latency does not depend on their length
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  uint64_t t = 0, id = 1;
  std::map<uint64_t, std::pair<int, int>> pair_of;
  for (int s = 0; s < g.num_channels(); ++s) {
    for (int d = 0; d < g.num_channels(); ++d) {
      if (s == d) continue;
      b.submit(b.unicast(id, s, d, len, t));
      pair_of[id] = {s, d};
      ++id;
      t += uint64_t(g.hops(s, d)) + len + 3;  // the previous message is gone: zero load
    }
  }
  b.run(t + 1000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  for (auto& [pid, sd] : pair_of) {
    const uint64_t created = b.expect[pid].created;
    const uint64_t got = b.tail_cycle[{pid, sd.second}];
    INFO("src " << sd.first << " dst " << sd.second);
    REQUIRE(got == created + uint64_t(g.hops(sd.first, sd.second)) + len);
    REQUIRE(b.inject_cycle[pid] == created + 1);
  }
}
}  // namespace

TEST_CASE("mway: unicast zero-load latency is h + L for every pair of a 4x4 mesh", "[sc]") { unicast_all_pairs({4, 4}, 5); }

TEST_CASE("mway: unicast zero-load latency is h + L for every pair of a 3x3x3 mesh", "[sc]") {
  unicast_all_pairs({3, 3, 3}, 4);
}

TEST_CASE("mway: tree broadcast zero-load latency is h(src v) + L at every node inside and outside the Region", "[sc]") {
  MwayParams p;
  p.radix = {5, 4};
  p.algorithm = MwayAlgorithm::MstSafe;
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  const uint32_t L = 5;
  struct Case {
    uint64_t id;
    int src;
    sw::MwayRegion r;
    uint64_t created;
  };
  std::vector<Case> cases;
  uint64_t t = 0;
  for (int s : {0, 7, 12, 19}) {
    cases.push_back({uint64_t(cases.size() + 1), s, g.full_region(), t});
    t += 60;
  }
  cases.push_back({uint64_t(cases.size() + 1), 0, test::make_region(g, {2, 1}, {4, 3}), t});  // outside
  for (auto& c : cases) b.submit(b.region(c.id, c.src, c.r, L, c.created));
  b.run(t + 500);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  for (auto& c : cases) {
    const bool inside = g.contains(c.r, c.src);
    const int e = g.entry_node(c.r, c.src);
    for (int v : b.fab.addressed(b.region(c.id, c.src, c.r, L, c.created))) {
      INFO("packet " << c.id << " node " << v);
      uint64_t want = c.created + uint64_t(g.hops(c.src, v)) + L;
      if (!inside) want = c.created + uint64_t(g.hops(c.src, e)) + L + (v == e ? 0 : uint64_t(g.hops(e, v)) + L);
      REQUIRE(b.tail_cycle[{c.id, v}] == want);
    }
  }
}
