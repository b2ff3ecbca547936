// k-ary m-way geometry and route math (sw/topology/mway.h) against the counts and rules of
// docs/mway.md and the paper's worked examples.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <stdexcept>

#include "sw/topology/mway.h"

using wormcast::sw::MwayGeometry;
using wormcast::sw::MwayRegion;

namespace {
MwayRegion rect(const MwayGeometry& g, std::vector<int> lo, std::vector<int> hi) {
  MwayRegion r;
  for (int d = 0; d < g.dims(); ++d) {
    r.lo[d] = lo[size_t(d)];
    r.hi[d] = hi[size_t(d)];
  }
  return r;
}

/// Nodes reached by the MST tree from `src`: every sub-Region's entry channel, recursively.
std::map<int, int> mst_reach(const MwayGeometry& g, const MwayRegion& r, int src) {
  std::map<int, int> count;
  std::function<void(const MwayRegion&, int, bool)> walk = [&](const MwayRegion& reg, int ch, bool source) {
    const uint32_t w = g.mst_ways(reg, ch, source);
    for (int p = 0; p < g.ways(); ++p) {
      if (!(w >> p & 1)) continue;
      const MwayRegion s = g.sub_region(reg, ch, p);
      if (p == g.node_way()) {
        ++count[ch];
        continue;
      }
      const int next = g.neighbor(ch, p);
      REQUIRE(next >= 0);
      REQUIRE(g.contains(s, next));
      walk(s, next, false);
    }
  };
  walk(r, src, true);
  return count;
}

std::map<int, int> forward_reach(const MwayGeometry& g, const MwayRegion& r, int src, bool rd) {
  std::map<int, int> count;
  std::function<void(const MwayRegion&, int)> walk = [&](const MwayRegion& reg, int ch) {
    for (auto& s : rd ? g.rd_sends(reg, ch) : g.mst_unicast_sends(reg, ch)) {
      REQUIRE(g.contains(s.region, s.dst));
      ++count[s.dst];
      walk(s.region, s.dst);
    }
  };
  walk(r, src);
  return count;
}
}  // namespace

TEST_CASE("mway topology: channel and router counts match Fig. 1, a 9-D and a 10-D hypercube", "[sw]") {
  const MwayGeometry g44({4, 4});
  CHECK(g44.num_channels() == 16);
  CHECK(g44.num_routers() == 24);
  CHECK(g44.ways() == 5);
  const MwayGeometry h9(std::vector<int>(9, 2));
  CHECK(h9.num_channels() == 512);
  CHECK(h9.num_routers() == 2304);
  CHECK(h9.ways() == 19);
  const MwayGeometry h10(std::vector<int>(10, 2));
  CHECK(h10.num_channels() == 1024);
  CHECK(h10.num_routers() == 5120);
  const MwayGeometry g3({3, 5, 2});
  CHECK(g3.num_routers() == 2 * 5 * 2 + 3 * 4 * 2 + 3 * 5 * 1);
}

TEST_CASE("mway topology: router numbering is a bijection and driver/way numbers agree", "[sw]") {
  for (auto radix : {std::vector<int>{4, 4}, std::vector<int>{3, 5, 2}, std::vector<int>(6, 2)}) {
    const MwayGeometry g(radix);
    std::vector<int> seen(size_t(g.num_routers()), 0);
    for (int d = 0; d < g.dims(); ++d) {
      for (int c = 0; c < g.num_channels(); ++c) {
        const int r = g.router(d, c);
        if (g.coord_of(c, d) == g.radix(d) - 1) {
          CHECK(r == -1);
          continue;
        }
        REQUIRE(r >= 0);
        REQUIRE(r < g.num_routers());
        ++seen[size_t(r)];
        CHECK(g.router_dim(r) == d);
        CHECK(g.router_low(r) == c);
        CHECK(g.router_high(r) == g.neighbor(c, 2 * d));
      }
    }
    for (int s : seen) CHECK(s == 1);
    // The DIM+ set of a router receives way 2d on its low channel and drives its high channel as
    // driver 2d; the DIM- set receives way 2d+1 on the high channel and drives the low one.
    for (int r = 0; r < g.num_routers(); ++r) {
      const int d = g.router_dim(r);
      CHECK(g.way_router(g.set_in_channel(r, 0), 2 * d) == r);
      CHECK(g.driver_router(g.set_out_channel(r, 0), 2 * d) == r);
      CHECK(g.way_router(g.set_in_channel(r, 1), 2 * d + 1) == r);
      CHECK(g.driver_router(g.set_out_channel(r, 1), 2 * d + 1) == r);
    }
  }
}

TEST_CASE("mway topology: MST ways follow the paper's X+ buffer and Y+ buffer rules", "[sw]") {
  const MwayGeometry g({4, 4});
  const MwayRegion full = g.full_region();
  const int src = g.channel({1, 1});
  CHECK(g.mst_ways(full, src, true) == 0b01111u);  // X+, X-, Y+, Y- and not the node
  const MwayRegion xp = g.sub_region(full, src, 0);
  CHECK(xp == rect(g, {2, 0}, {3, 3}));
  const int c21 = g.channel({2, 1});
  CHECK(g.mst_ways(xp, c21, false) == 0b11101u);  // X+, Y+, Y-, node; never X-
  const MwayRegion yp = g.sub_region(full, src, 2);
  CHECK(yp == rect(g, {1, 2}, {1, 3}));
  CHECK(g.mst_ways(yp, g.channel({1, 2}), false) == 0b10100u);  // Y+ and node only
}

TEST_CASE("mway topology: the MST tree reaches every Region node but the source exactly once", "[sw]") {
  for (auto radix : {std::vector<int>{4, 4}, std::vector<int>{8, 8}, std::vector<int>{4, 4, 4},
                     std::vector<int>(6, 2), std::vector<int>{3, 5, 2}}) {
    const MwayGeometry g(radix);
    const MwayRegion full = g.full_region();
    for (int src = 0; src < g.num_channels(); src += 5) {
      const auto reach = mst_reach(g, full, src);
      CHECK(int(reach.size()) == g.num_channels() - 1);
      CHECK(reach.count(src) == 0);
      for (auto& [n, k] : reach) CHECK(k == 1);
    }
  }
}

TEST_CASE("mway topology: MST-unicast and recursive doubling reach a Region exactly once", "[sw]") {
  const MwayGeometry g({8, 8});
  const MwayRegion full = g.full_region();
  for (bool rd : {false, true}) {
    for (int src : {0, 9, 37, 63}) {
      const auto reach = forward_reach(g, full, src, rd);
      CHECK(reach.size() == 63);
      CHECK(reach.count(src) == 0);
      for (auto& [n, k] : reach) CHECK(k == 1);
    }
  }
  const MwayGeometry g3({5, 3, 3});
  const MwayRegion sub = rect(g3, {1, 0, 1}, {4, 2, 2});
  const int s = g3.channel({2, 1, 1});
  CHECK(forward_reach(g3, sub, s, true).size() == size_t(g3.size(sub) - 1));
  CHECK(forward_reach(g3, sub, s, false).size() == size_t(g3.size(sub) - 1));
}

TEST_CASE("mway topology: recursive doubling sends of the worked 8x8 examples", "[sw]") {
  const MwayGeometry g({8, 8});
  const MwayRegion full = g.full_region();
  auto sends = g.rd_sends(full, g.channel({0, 0}));
  REQUIRE(sends.size() == 6);
  const std::vector<std::vector<int>> dst0 = {{4, 0}, {2, 0}, {1, 0}, {0, 4}, {0, 2}, {0, 1}};
  for (size_t i = 0; i < 6; ++i) CHECK(sends[i].dst == g.channel(dst0[i]));
  CHECK(sends[0].region == rect(g, {4, 0}, {7, 7}));
  CHECK(sends[3].region == rect(g, {0, 4}, {0, 7}));
  sends = g.rd_sends(full, g.channel({2, 5}));
  REQUIRE(sends.size() == 6);
  const std::vector<std::vector<int>> dst1 = {{6, 5}, {0, 5}, {3, 5}, {2, 1}, {2, 7}, {2, 4}};
  for (size_t i = 0; i < 6; ++i) CHECK(sends[i].dst == g.channel(dst1[i]));
  CHECK(sends[1].region == rect(g, {0, 0}, {1, 7}));
  CHECK(sends[4].region == rect(g, {2, 6}, {2, 7}));
}

TEST_CASE("mway topology: replica Region is the part of R the suffix of the way order covers", "[sw]") {
  const MwayGeometry g({4, 4});
  const MwayRegion full = g.full_region();
  const int src = g.channel({1, 1});
  // Ways X+ X- taken; the replica carries Y+ and Y-: the column x = 1.
  CHECK(g.suffix_region(full, src, 2) == rect(g, {1, 0}, {1, 3}));
  CHECK(g.suffix_region(full, src, 1) == rect(g, {0, 0}, {1, 3}));
  CHECK(g.suffix_region(full, src, 3) == rect(g, {1, 0}, {1, 1}));
  // The suffix Region's own ways at the holder are exactly the suffix of the original ways.
  for (int first = 0; first < g.ways(); ++first) {
    const uint32_t all = g.mst_ways(full, src, false);
    const uint32_t suffix = all & ~((1u << first) - 1);
    CHECK(g.mst_ways(g.suffix_region(full, src, first), src, false) == suffix);
  }
  CHECK(MwayGeometry::is_order_prefix(0b0011, 0b1111));
  CHECK(MwayGeometry::is_order_prefix(0b0101, 0b1101));
  CHECK_FALSE(MwayGeometry::is_order_prefix(0b0100, 0b1101));
  CHECK_FALSE(MwayGeometry::is_order_prefix(0b1001, 0b1111));
  CHECK(MwayGeometry::is_order_prefix(0, 0b1111));
}

TEST_CASE("mway topology: dimension-order ways and entry nodes", "[sw]") {
  const MwayGeometry g({3, 3, 3});
  for (int a = 0; a < g.num_channels(); ++a) {
    for (int b = 0; b < g.num_channels(); ++b) {
      int cur = a, steps = 0;
      while (cur != b) {
        const int w = g.dor_way(cur, b);
        REQUIRE(w < g.node_way());
        cur = g.neighbor(cur, w);
        REQUIRE(cur >= 0);
        ++steps;
      }
      CHECK(steps == g.hops(a, b));
      CHECK(g.dor_way(b, b) == g.node_way());
    }
  }
  const MwayRegion r = rect(g, {1, 1, 0}, {2, 2, 0});
  CHECK(g.entry_node(r, g.channel({0, 2, 2})) == g.channel({1, 2, 0}));
  CHECK_THROWS_AS(MwayGeometry({1, 4}), std::invalid_argument);
  CHECK_THROWS_AS(MwayGeometry(std::vector<int>(17, 2)), std::invalid_argument);
}
