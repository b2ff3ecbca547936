// Gossip on meshes: every generator's mesh schedule is complete, causal and overlap-free, Approach 1
// delivers every chunk exactly once, and the step counts equal the formulas of closed_form.h
// (CIRCGOS on every linear array 2..40: test_gossip.cpp, with the rings).
#include <catch2/catch.hpp>

#include <string>

#include "sw/gossip/closed_form.h"
#include "sw/gossip/gossip.h"
#include "sw/schedule/verify.h"
#include "tests/sw/gossip_helpers.h"

using namespace wormcast::sw;

namespace {

using test::require_valid;

Topology mesh(int n, int d) { return test::cube("mesh", n, d); }

GossipSpec spec(GossipAlgo a, int a1 = 3, int b = 1, bool coloured = true) { return test::gossip_spec(a, a1, b, coloured); }

GossipSpec approaches(const std::string& digits, bool coloured) {
  GossipSpec s;
  s.algo = GossipAlgo::HighDimGos;
  s.coloured = coloured;
  for (char c : digits) s.phases.push_back(LineSpec{c == '1' ? LineAlgo::Approach1 : LineAlgo::Approach2, {}});
  return s;
}

/// n = a^R for some R >= 1.
bool power_of(int n, int a) {
  long long p = a;
  while (p < n) p *= a;
  return p == n;
}

}  // namespace

TEST_CASE("gossip mesh: Approach 1 on linear arrays 2..40 delivers every chunk exactly once in n - 1 steps", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    const Schedule s = generate_gossip(mesh(n, 1), spec(GossipAlgo::Approach1)).schedule;
    const Verdict v = require_valid(s);
    REQUIRE(v.repeated_chunks == 0);
    REQUIRE(s.num_steps == approach1_line_steps(n));
    REQUIRE(s.num_steps == n - 1);
  }
}

TEST_CASE("gossip mesh: Approach 2 on linear arrays 2..40 takes 2 ceil(log3 n) steps, as on the ring", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    const Schedule s = generate_gossip(mesh(n, 1), spec(GossipAlgo::Approach2)).schedule;
    require_valid(s);
    REQUIRE(s.num_steps == approach2_steps(n));
  }
}

TEST_CASE("gossip mesh: CIRCGOS on a line of n = a^R PUs takes ceil(log3(n/a)) + (a - 1) + (R - 1) b steps", "[sw]") {
  int cases = 0;
  for (int n : {4, 8, 9, 16, 25, 27, 32, 36, 49, 64, 81})
    for (int a = 2; a <= n; ++a) {
      if (!power_of(n, a)) continue;
      for (int b : {a / 2, a / 2 + 1, a}) {
        if (2 * b - a + 2 < 1) continue;
        CAPTURE(n, a, b);
        const GossipSchedule g = generate_gossip(mesh(n, 1), spec(GossipAlgo::Circgos, a, b));
        require_valid(g.schedule);
        REQUIRE(g.schedule.num_steps == circgos_line_steps(n, a, b));
        ++cases;
      }
    }
  REQUIRE(cases > 30);
  REQUIRE(circgos_line_steps(12, 3, 1) == -1);  // not a power of a: no formula
}

TEST_CASE("gossip mesh: Approach i-j on 2-D meshes, the Paragon's 14x10 included, coloured and not", "[sw]") {
  for (const auto& [n0, n1] : {std::pair<int, int>{14, 10}, {10, 14}, {2, 2}, {3, 5}, {7, 4}, {9, 9}, {12, 12}})
    for (const char* ij : {"11", "12", "21", "22"})
      for (bool coloured : {true, false}) {
        CAPTURE(n0, n1, ij, coloured);
        const Topology t = parse_net("mesh:" + std::to_string(n0) + "x" + std::to_string(n1));
        const Schedule s = generate_gossip(t, approaches(ij, coloured)).schedule;
        const Verdict v = require_valid(s);
        auto line = [](char c, int n) { return c == '1' ? approach1_line_steps(n) : approach2_steps(n); };
        // Phase f runs colour c along axis (f + c) mod 2; the phase lasts as long as its longest line.
        const int want = coloured ? std::max(line(ij[0], n0), line(ij[0], n1)) + std::max(line(ij[1], n1), line(ij[1], n0))
                                  : line(ij[0], n0) + line(ij[1], n1);
        REQUIRE(s.num_steps == want);
        if (std::string(ij) == "11") REQUIRE(v.repeated_chunks == 0);
      }
}

TEST_CASE("gossip mesh: HIGH-DIM-GOS with CIRCGOS phases on 2-D and 3-D meshes", "[sw]") {
  for (const char* net : {"mesh:14x10", "mesh:9x9", "mesh:4x4x4", "mesh:6x5x4"})
    for (bool coloured : {true, false}) {
      const Topology t = parse_net(net);
      GossipSpec s;
      s.algo = GossipAlgo::HighDimGos;
      s.coloured = coloured;
      for (int f = 0; f < t.dims(); ++f) s.phases.push_back(LineSpec{LineAlgo::Circgos, CircParams::from_ab(2 + f % 2, 1)});
      CAPTURE(net, coloured);
      require_valid(generate_gossip(t, s).schedule);
    }
}

TEST_CASE("gossip mesh: TORGOS and TORGOS' on n x n meshes 2..12 for every a dividing n", "[sw]") {
  for (int n = 2; n <= 12; ++n)
    for (int a = 2; a <= n; ++a) {
      if (n % a) continue;
      for (int b : {a / 2, a / 2 + 1})
        for (bool coloured : {true, false}) {
          if (2 * b - a + 2 < 1) continue;
          CAPTURE(n, a, b, coloured);
          const GossipSchedule g = generate_gossip(mesh(n, 2), spec(GossipAlgo::Torgos, a, b, coloured));
          require_valid(g.schedule);
          if (power_of(n, a)) REQUIRE(g.schedule.num_steps == diagonal_mesh_steps(n, 2, a, b));
        }
    }
}

TEST_CASE("gossip mesh: CUBGOS and CUBGOS' on 3-D meshes 2..6, 8, 9 and the 3^4 mesh, steps by formula", "[sw]") {
  int formula_cases = 0;
  for (int n : {2, 3, 4, 5, 6, 8, 9})
    for (int a = 2; a <= n; ++a) {
      if (n % a) continue;
      for (bool coloured : {true, false}) {
        const int b = a / 2 + (n == 9 ? 1 : 0);
        CAPTURE(n, a, b, coloured);
        const GossipSchedule g = generate_gossip(mesh(n, 3), spec(GossipAlgo::Cubgos, a, b, coloured));
        require_valid(g.schedule);
        if (power_of(n, a)) {
          REQUIRE(g.schedule.num_steps == diagonal_mesh_steps(n, 3, a, b));
          ++formula_cases;
        }
      }
    }
  REQUIRE(formula_cases >= 12);
  const GossipSchedule g4 = generate_gossip(mesh(3, 4), spec(GossipAlgo::Cubgos, 3, 1, true));
  require_valid(g4.schedule);
  REQUIRE(g4.schedule.num_steps == diagonal_mesh_steps(3, 4, 3, 1));
}

TEST_CASE("gossip mesh: the torus step formula holds for TORGOS' and CUBGOS' on n = a^R tori", "[sw]") {
  for (int d : {2, 3})
    for (int n : {4, 8, 9, 27})
      for (int a : {2, 3, 9}) {
        if (!power_of(n, a) || (d == 3 && n > 9)) continue;
        const int b = a / 2;
        CAPTURE(d, n, a, b);
        const GossipSchedule g = generate_gossip(parse_net(d == 2 ? "torus:" + std::to_string(n) + "x" + std::to_string(n)
                                                                  : "torus:" + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n)),
                                                 spec(d == 2 ? GossipAlgo::Torgos : GossipAlgo::Cubgos, a, b, true));
        REQUIRE(g.schedule.num_steps == diagonal_torus_steps(n, d, a, b));
        // A mesh pays for its missing wrap-around links: never fewer steps than the torus.
        REQUIRE(diagonal_mesh_steps(n, d, a, b) >= diagonal_torus_steps(n, d, a, b));
      }
}

TEST_CASE("gossip mesh: one-port, the black/white Approach 1-1 and mixed torus/mesh networks are refused", "[sw]") {
  GossipSpec one = spec(GossipAlgo::Approach1);
  one.ports = PortModel::OnePort;
  REQUIRE_THROWS_WITH(generate_gossip(mesh(8, 1), one), Catch::Contains("--port"));
  REQUIRE_THROWS_WITH(generate_gossip(mesh(8, 2), spec(GossipAlgo::Approach11BlackWhite)), Catch::Contains("torus"));
  REQUIRE_THROWS_AS(generate_gossip(parse_net("torus,mesh:8x4"), approaches("11", false)), GossipParamError);
  REQUIRE_THROWS_WITH(generate_gossip(mesh(9, 2), spec(GossipAlgo::Torgos, 2, 1)), Catch::Contains("--a must divide"));
}

TEST_CASE("gossip mesh: lower bounds — the corner bound of a linear array is n - 1, met by Approach 1's transfer", "[sw]") {
  REQUIRE(lower_bound_mesh_corner(16, 1) == Approx(15));
  REQUIRE(lower_bound_mesh_corner(140, 2) == Approx(69.5));
  REQUIRE(approach1_line_time(16, 0) == Approx(15));
  REQUIRE(approach1_line_time(16, 2) == Approx(45));
}
