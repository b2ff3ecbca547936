// One-port gossip (Sec. 7.2 of Juurlink, Sibeyn, Rao): every one-port generator passes the
// verifier with the one-port rule on rings and tori; Sec. 7.2's closed forms against the one-port
// step cost; the black/white Approach 1-1.
#include <catch2/catch.hpp>

#include <string>

#include "sw/gossip/closed_form.h"
#include "sw/gossip/gossip.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/verify.h"

using namespace wormcast::sw;

namespace {

Topology ring(int n) { return parse_net("torus:" + std::to_string(n)); }
Topology torus(int n, int d = 2) {
  std::string s = "torus:" + std::to_string(n);
  for (int i = 1; i < d; ++i) s += "x" + std::to_string(n);
  return parse_net(s);
}

GossipSpec one_port(GossipAlgo a, CircParams c = {}) {
  GossipSpec s;
  s.algo = a;
  s.ports = PortModel::OnePort;
  s.coloured = false;
  s.circ = c;
  return s;
}

GossipSpec one_port_high_dim(const std::string& digits, CircParams c = {}) {
  GossipSpec s = one_port(GossipAlgo::HighDimGos);
  for (char d : digits) {
    LineSpec l;
    l.algo = d == '1' ? LineAlgo::Approach1 : d == '2' ? LineAlgo::Approach2 : LineAlgo::Circgos;
    l.circ = c;
    s.phases.push_back(l);
  }
  return s;
}

void require_one_port_valid(const Schedule& s) {
  VerifyOptions o;
  o.one_port = true;
  const Verdict v = verify(s, o);
  INFO(s.algo << "\n" << format_verdict(s, v));
  REQUIRE(v.one_port_checked);
  REQUIRE(v.complete);
  REQUIRE(v.chunk_causal);
  REQUIRE(v.stepwise_contention_free);
  REQUIRE(v.one_port);
  REQUIRE(v.ok());
}

CostParams one_port_cost(double r) {
  CostParams p;
  p.r = r;
  p.ports = PortModel::OnePort;
  return p;
}

}  // namespace

TEST_CASE("gossip one-port: Approach 1 and 2 on rings 2..40 pass the one-port verifier", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    const GossipSchedule g1 = generate_gossip(ring(n), one_port(GossipAlgo::Approach1));
    REQUIRE(g1.schedule.num_steps == n - 1);  // Sec. 7.2: n - 1 steps
    require_one_port_valid(g1.schedule);
    const GossipSchedule g2 = generate_gossip(ring(n), one_port(GossipAlgo::Approach2));
    REQUIRE(g2.schedule.num_steps == 2 * ceil_log(n, 2));  // ceil(log2 n) each way
    require_one_port_valid(g2.schedule);
  }
}

TEST_CASE("gossip one-port: CIRCGOS(a1, a2, k) on rings 2..40 for every a1 and several a2, k", "[sw]") {
  for (int n = 2; n <= 40; ++n)
    for (int a1 = 2; a1 <= n; ++a1)
      for (int a2 : {2, 3, a1})
        for (int k : {1, 2, 3}) {
          if (a2 > n) continue;
          CAPTURE(n, a1, a2, k);
          require_one_port_valid(generate_gossip(ring(n), one_port(GossipAlgo::Circgos, CircParams{a1, a2, k})).schedule);
        }
}

TEST_CASE("gossip one-port: Approach i-j and HIGH-DIM-GOS with CIRCGOS on tori 3x3..12x12 and 3x3x3..5x5x5", "[sw]") {
  for (int n = 3; n <= 12; ++n) {
    CAPTURE(n);
    for (const char* ij : {"11", "12", "21", "22"}) {
      CAPTURE(ij);
      require_one_port_valid(generate_gossip(torus(n), one_port_high_dim(ij)).schedule);
    }
    require_one_port_valid(generate_gossip(torus(n), one_port_high_dim("cc", CircParams{std::min(n, 3), 2, 1})).schedule);
  }
  for (int n = 3; n <= 5; ++n) {
    CAPTURE(n);
    require_one_port_valid(generate_gossip(torus(n, 3), one_port_high_dim("111")).schedule);
    require_one_port_valid(generate_gossip(torus(n, 3), one_port_high_dim("221")).schedule);
  }
}

TEST_CASE("gossip one-port: TORGOS(a1, a2, k) on tori 3x3..12x12 for every a1 dividing n, CUBGOS on 3-D", "[sw]") {
  for (int n = 3; n <= 12; ++n)
    for (int a1 = 2; a1 <= n; ++a1) {
      if (n % a1) continue;
      for (int a2 : {2, 3, a1})
        for (int k : {1, 2, 4}) {
          CAPTURE(n, a1, a2, k);
          require_one_port_valid(generate_gossip(torus(n), one_port(GossipAlgo::Torgos, CircParams{a1, a2, k})).schedule);
        }
    }
  for (int n : {3, 4, 6})
    for (int a1 = 2; a1 <= n; ++a1) {
      if (n % a1) continue;
      CAPTURE(n, a1);
      require_one_port_valid(generate_gossip(torus(n, 3), one_port(GossipAlgo::Cubgos, CircParams{a1, 2, 1})).schedule);
    }
}

TEST_CASE("gossip one-port: the black/white Approach 1-1 on n x n tori, n even, in n steps", "[sw]") {
  for (int n = 2; n <= 12; n += 2) {
    CAPTURE(n);
    const GossipSchedule g = generate_gossip(torus(n), one_port(GossipAlgo::Approach11BlackWhite));
    // 2 x 2 gossip (2 steps) + Approach 1 on rings of n/2 submeshes, rows and columns (n/2 - 1 each).
    REQUIRE(g.schedule.num_steps == n);
    require_one_port_valid(g.schedule);
  }
  for (int n : {3, 5, 9}) {
    CAPTURE(n);
    REQUIRE_THROWS_AS(generate_gossip(torus(n), one_port(GossipAlgo::Approach11BlackWhite)), GossipParamError);
  }
  REQUIRE_THROWS_AS(generate_gossip(ring(8), one_port(GossipAlgo::Approach11BlackWhite)), GossipParamError);
}

TEST_CASE("gossip one-port: coloured (interleaved) variants are refused", "[sw]") {
  GossipSpec s = one_port(GossipAlgo::Torgos, CircParams{2, 2, 1});
  s.coloured = true;
  REQUIRE_THROWS_AS(generate_gossip(torus(8), s), GossipParamError);
  GossipSpec h = one_port_high_dim("11");
  h.coloured = true;
  REQUIRE_THROWS_AS(generate_gossip(torus(8), h), GossipParamError);
}

TEST_CASE("gossip one-port cost: Approach 1 takes exactly (n - 1)(2 + 2r) (Sec. 7.2)", "[sw]") {
  for (int n = 2; n <= 40; ++n)
    for (double r : {0.0, 2.0, 4.2, 250.0}) {
      CAPTURE(n, r);
      const GossipSchedule g = generate_gossip(ring(n), one_port(GossipAlgo::Approach1));
      REQUIRE(schedule_cost(g.schedule, one_port_cost(r)).total == Approx(approach1_one_port_time(n, r)));
    }
}

TEST_CASE("gossip one-port cost: Approach 2 for n = 2^k is sum (2^i + r) + k (n + r), n - 1 above Sec. 7.2", "[sw]") {
  for (int k = 1; k <= 7; ++k)
    for (double r : {2.0, 50.0}) {
      const int n = 1 << k;
      CAPTURE(n, r);
      const double t = schedule_cost(generate_gossip(ring(n), one_port(GossipAlgo::Approach2)).schedule, one_port_cost(r)).total;
      REQUIRE(t == Approx(approach2_one_port_sum(n, r)));
      // Sec. 7.2's ceil(log2 n)(n + 2r) drops the concentration's n - 1.
      REQUIRE(t - approach2_one_port_time(n, r) == Approx(n - 1));
    }
}

TEST_CASE("gossip one-port cost: Approaches 1-1 2-1 2-2 are Sec. 7.2's forms per phase (packets of n in phase 2)", "[sw]") {
  for (int n : {2, 4, 8, 16})
    for (double r : {1.0, 4.2, 30.0}) {
      CAPTURE(n, r);
      const double t11 = schedule_cost(generate_gossip(torus(n), one_port_high_dim("11")).schedule, one_port_cost(r)).total;
      REQUIRE(t11 == Approx(approach1_one_port_time(n, r) + n * approach1_one_port_time(n, r / n)));
      const double t22 = schedule_cost(generate_gossip(torus(n), one_port_high_dim("22")).schedule, one_port_cost(r)).total;
      REQUIRE(t22 == Approx(approach2_one_port_sum(n, r) + n * approach2_one_port_sum(n, r / n)));
      // The paper prints no one-port Approach i-j; composed per phase like Lemma 6, with Approach 2
      // as its exact sum (Sec. 7.2's ceil(log2 n)(n + 2r) drops the concentration's n - 1).
      const double t21 = schedule_cost(generate_gossip(torus(n), one_port_high_dim("21")).schedule, one_port_cost(r)).total;
      REQUIRE(t21 == Approx(approach2_one_port_sum(n, r) + n * approach1_one_port_time(n, r / n)));
      REQUIRE(t21 - (approach2_one_port_time(n, r) + n * approach1_one_port_time(n, r / n)) == Approx(n - 1));
    }
}

TEST_CASE("gossip one-port cost: a PU's sends and receipts of a step add up; all-port schedules pay for it", "[sw]") {
  // All-port Approach 1 on a ring: every PU sends two and receives two unit packets per step.
  GossipSpec s;
  s.algo = GossipAlgo::Approach1;
  const Schedule a1 = generate_gossip(ring(9), s).schedule;
  REQUIRE(schedule_cost(a1, one_port_cost(3)).total == Approx(4 * (1 + 3) * 4));
  CostParams all;
  all.r = 3;
  REQUIRE(schedule_cost(a1, all).total == Approx(4 * (1 + 3)));
  // The black/white Approach 1-1 on 8 x 8: 2(1 + r) + 2(2 + r) + 3 * 2(4 + r) + 3 * 2(16 + r).
  const Schedule bw = generate_gossip(torus(8), one_port(GossipAlgo::Approach11BlackWhite)).schedule;
  for (double r : {0.0, 4.0, 20.0}) {
    CAPTURE(r);
    REQUIRE(schedule_cost(bw, one_port_cost(r)).total == Approx(2 * (1 + r) + 2 * (2 + r) + 6 * (4 + r) + 6 * (16 + r)));
  }
}
