// Route math of sw/topology: dimension order, shortest direction, tie rule, dateline classes.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "sw/topology/path.h"

using namespace wormcast::sw;

namespace {
Topology torus2(int kx, int ky) {
  int r[] = {kx, ky};
  bool t[] = {true, true};
  return Topology(2, r, t);
}
}  // namespace

TEST_CASE("topology: node ids are mixed radix, dimension 0 fastest", "[sw]") {
  Topology t = torus2(5, 3);
  REQUIRE(t.num_nodes() == 15);
  Coord c = t.coord(7);
  REQUIRE(c[0] == 2);
  REQUIRE(c[1] == 1);
  REQUIRE(t.node(c) == 7);
}

TEST_CASE("topology: ties go positive unless the tie bit asks for negative", "[sw]") {
  Topology t = torus2(8, 8);
  const int src = t.node(Coord{{0, 0}});
  const int dst = t.node(Coord{{4, 0}});
  REQUIRE(t.route(src, dst, false).port == 0);
  REQUIRE(t.route(src, dst, true).port == 1);
  REQUIRE(route_path(t, src, dst, false).size() == 4);
  REQUIRE(route_path(t, src, dst, true).size() == 4);
  REQUIRE(t.has_tie(src, dst));
  REQUIRE_FALSE(t.has_tie(src, t.node(Coord{{3, 0}})));
}

TEST_CASE("topology: dateline class is p until the wraparound link is taken", "[sw]") {
  Topology t = torus2(8, 8);
  // From x=6 to x=1 going plus: 6->7 and 7->0 are p, 0->1 is l/h.
  const int dst = t.node(Coord{{1, 0}});
  auto cls = [&](int x) { return t.route(t.node(Coord{{x, 0}}), dst, false).vclass; };
  REQUIRE(t.route(t.node(Coord{{6, 0}}), dst, false).port == 0);
  REQUIRE(cls(6) == VcClass::P);
  REQUIRE(cls(7) == VcClass::P);
  REQUIRE(cls(0) == VcClass::LH);
}

TEST_CASE("topology: every path is dimension ordered and shortest", "[sw]") {
  int r[] = {5, 4, 3};
  bool tor[] = {true, false, true};
  Topology t(3, r, tor);
  for (int s = 0; s < t.num_nodes(); ++s)
    for (int d = 0; d < t.num_nodes(); ++d) {
      auto arcs = route_path(t, s, d, false);
      REQUIRE(int(arcs.size()) == t.hops(s, d, false));
      int last_dim = -1;
      for (auto& a : arcs) {
        REQUIRE(a.port / 2 >= last_dim);
        last_dim = a.port / 2;
      }
      int expect = 0;
      for (int dim = 0; dim < 3; ++dim) {
        const int diff = t.coord_of(d, dim) - t.coord_of(s, dim);
        const int a = diff < 0 ? -diff : diff;
        expect += tor[dim] ? (a < r[dim] - a ? a : r[dim] - a) : a;
      }
      REQUIRE(int(arcs.size()) == expect);
    }
}
