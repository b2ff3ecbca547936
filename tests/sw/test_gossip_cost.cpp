// Gossip cost: Lemma 4 exact, the closed forms of Lemmas 5 and 7 against the step-by-step cost of
// the generated schedules where the paper's assumptions hold, and the search against Table 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "sw/gossip/closed_form.h"
#include "sw/gossip/gossip.h"
#include "sw/gossip/search.h"
#include "sw/schedule/cost.h"

using namespace wormcast::sw;

namespace {

Topology ring(int n) { return parse_net("torus:" + std::to_string(n)); }

GossipSchedule ring_gossip(GossipAlgo algo, int n, int a = 3, int b = 1) {
  GossipSpec s;
  s.algo = algo;
  s.circ = CircParams::from_ab(a, b);
  return generate_gossip(ring(n), s);
}

double phase_time(const GossipSchedule& g, const ScheduleCost& c, const std::string& prefix) {
  double t = 0;
  for (const PhaseSpan& p : g.phases)
    if (p.name.rfind(prefix, 0) == 0)
      for (int s = p.first_step; s <= p.last_step; ++s) t += c.steps[size_t(s - 1)].time;
  return t;
}

CostParams at(double r) {
  CostParams p;
  p.r = r;
  return p;
}

}  // namespace

TEST_CASE("gossip cost: Approach 1 takes exactly floor(n/2) (1 + r) (Lemma 4)", "[sw]") {
  for (int n = 2; n <= 40; ++n)
    for (double r : {0.0, 2.0, 10.0, 250.0}) {
      CAPTURE(n, r);
      const GossipSchedule g = ring_gossip(GossipAlgo::Approach1, n);
      REQUIRE(g.schedule.num_steps == n / 2);
      REQUIRE(schedule_cost(g.schedule, at(r)).total == Approx(approach1_time(n, r)));
    }
  REQUIRE(approach1_time(27, 2) == 39);  // Table 1
  REQUIRE(approach1_time(729, 250) == 91364);
}

TEST_CASE("gossip cost: eq. 2's bound (with N - 1) is below every ring schedule's cost, and met by Approach 1 at r = 0",
          "[sw]") {
  for (int n = 2; n <= 40; ++n)
    for (double r : {0.0, 2.0, 10.0}) {
      CAPTURE(n, r);
      for (GossipAlgo algo : {GossipAlgo::Approach1, GossipAlgo::Approach2})
        REQUIRE(schedule_cost(ring_gossip(algo, n).schedule, at(r)).total >= lower_bound_eq2(n, 2, r) - 1e-9);
    }
  // Approach 1 on odd rings at r = 0 takes (n - 1)/2, the bound itself (the paper's N/Delta exceeds it).
  for (int n : {3, 5, 9, 27}) REQUIRE(schedule_cost(ring_gossip(GossipAlgo::Approach1, n).schedule, at(0)).total ==
                                    Approx(lower_bound_eq2(n, 2, 0)));
}

TEST_CASE("gossip cost: Approach 2 for n = 3^k is sum (3^i + r) + k (n + r), within n/2 of Lemma 4", "[sw]") {
  for (int n : {3, 9, 27, 81, 243})
    for (double r : {2.0, 50.0}) {
      CAPTURE(n, r);
      const GossipSchedule g = ring_gossip(GossipAlgo::Approach2, n);
      const int k = int(std::lround(std::log(n) / std::log(3)));
      REQUIRE(g.schedule.num_steps == 2 * k);
      const double t = schedule_cost(g.schedule, at(r)).total;
      REQUIRE(t == Approx(approach2_sum(n, r)));
      // Lemma 4 drops the concentration's (n - 1)/2.
      REQUIRE(t - approach2_time(n, r) == Approx((n - 1) / 2.0));
    }
}

TEST_CASE("gossip cost: Table 1's Approach 2 entries are Lemma 4 minus 1, log3 n exact in double but for 243", "[sw]") {
  // The paper's 16 Approach 2 entries (Table 1) are k (n + 2 r) - 1, k = log3 n: not a floating
  // log3 n just below k, which IEEE double gives only for n = 243 (docs/experiments/gossip.md).
  auto [n, k, p2, p10, p50, p250] = GENERATE(table<int, int, int, int, int, int>(
      {{27, 3, 92, 140, 380, 1580}, {81, 4, 339, 403, 723, 2323}, {243, 5, 1234, 1314, 1714, 3714},
       {729, 6, 4397, 4493, 4973, 7373}}));
  CAPTURE(n);
  REQUIRE((std::log(double(n)) / std::log(3.0) == double(k)) == (n != 243));
  const int paper[] = {p2, p10, p50, p250};
  const double rs[] = {2, 10, 50, 250};
  for (int c = 0; c < 4; ++c) {
    REQUIRE(paper[c] == k * (n + 2 * int(rs[c])) - 1);
    REQUIRE(std::lround(approach2_time(n, rs[c])) == paper[c] + 1);
    // The proof's exact sum lies (n - 1)/2 above Lemma 4, not below it.
    REQUIRE(approach2_sum(n, rs[c]) == Approx(k * (n + 2 * rs[c]) + (n - 1) / 2.0));
  }
}

TEST_CASE("gossip cost: CIRCGOS phases 2 and 3 equal Lemma 5 when n is a power of a and k divides n", "[sw]") {
  // (n, a, b): n = a^R; Phase 1 matches as well, up to Lemma 5's n/(2a) for (n/a - 1)/2, when
  // n/a is a power of 3 (the ternary concentration is then exact).
  auto [n, a, b] = GENERATE(table<int, int, int>({{27, 3, 1}, {81, 3, 2}, {81, 9, 4}, {81, 9, 5}, {64, 4, 2},
                                                  {64, 8, 4}, {243, 3, 1}, {729, 9, 4}, {125, 5, 2}, {256, 4, 3}}));
  const int k = 2 * b - a + 2;
  for (double r : {2.0, 10.0, 50.0}) {
    CAPTURE(n, a, b, r);
    const GossipSchedule g = ring_gossip(GossipAlgo::Circgos, n, a, b);
    const ScheduleCost c = schedule_cost(g.schedule, at(r));
    const ClosedForm f = circgos_time(n, a, b, r, HalfRule::Floor);
    REQUIRE(phase_time(g, c, "2") == Approx(f.phases[1].second));
    if (n % k == 0) REQUIRE(phase_time(g, c, "3") == Approx(f.phases[2].second));
    const int g0 = n / a;
    int p = 1;
    while (p < g0) p *= 3;
    if (p == g0) REQUIRE(phase_time(g, c, "1") == Approx(f.phases[0].second - 0.5));
  }
}

TEST_CASE("gossip cost: TORGOS step by step equals Lemma 7's sums before their approximation", "[sw]") {
  // Lemma 7's proof sums packet sizes n/a, n, n a, ..., n^2/a (Phases 2, 3, 4b) and n a^t / k
  // (4a, t = 1..L-1); the lemma then replaces the geometric sums by n^2/(a-1).
  auto [n, a, b] = GENERATE(table<int, int, int>({{9, 3, 1}, {27, 3, 1}, {27, 3, 2}, {16, 4, 2}, {8, 2, 1}}));
  for (bool coloured : {false, true}) {
    GossipSpec s;
    s.algo = GossipAlgo::Torgos;
    s.coloured = coloured;
    s.circ = CircParams::from_ab(a, b);
    const GossipSchedule g = generate_gossip(parse_net("torus:" + std::to_string(n) + "x" + std::to_string(n)), s);
    const double r = 10, f = coloured ? 0.5 : 1.0;
    const int k = 2 * b - a + 2;
    const int L = int(std::lround(std::log(n) / std::log(a)));
    double sizes = 0, fill = 0;
    for (double m = double(n) / a; m <= double(n) * n / a + 0.5; m *= a) sizes += m;
    for (int t = 1; t < L; ++t) fill += b * (n * std::pow(a, t) / k);
    const ScheduleCost c = schedule_cost(g.schedule, at(r));
    CAPTURE(n, a, b, coloured);
    REQUIRE(phase_time(g, c, "2") + phase_time(g, c, "3") + phase_time(g, c, "4b") ==
            Approx((a / 2) * (f * sizes + (L + 1) * r)));
    if (n % k == 0) REQUIRE(phase_time(g, c, "4a") == Approx(f * fill + (L - 1) * b * r));
  }
}

TEST_CASE("gossip search: n = 729 finds Table 1's (a, b) and times with the tables' a/2", "[sw]") {
  // Table 1, n = 729: r -> (time, a, b). The paper evaluates floor(a/2) as a/2 (HalfRule::Half).
  auto [r, time, a, b] = GENERATE(table<double, int, int, int>({{2, 828, 138, 179}, {10, 1449, 36, 42}, {50, 2895, 12, 11}, {250, 6755, 4, 2}}));
  SearchOptions o;
  o.half = HalfRule::Half;
  const SearchResult w = search_circgos(729, r, o);
  CAPTURE(r);
  REQUIRE(w.a == a);
  REQUIRE(w.b == b);
  REQUIRE(std::lround(w.time) == time);
}

TEST_CASE("gossip search: over r = 2..250 on n = 729 the best time never falls as r grows", "[sw]") {
  // Every schedule's cost grows with r, so the minimum over schedules cannot fall (its speed, well
  // under a second for the whole range, is measured as a whole process, not asserted here).
  double prev = 0;
  for (int r = 2; r <= 250; ++r) {
    const SearchResult w = search_circgos(729, r);
    CAPTURE(r);
    REQUIRE(w.time > 0);
    REQUIRE(w.time >= prev - 1e-9);
    prev = w.time;
  }
}

TEST_CASE("gossip search: TORGOS' n = 27 finds Table 2's (a, b) with a/2", "[sw]") {
  auto [r, time, a, b] = GENERATE(table<double, int, int, int>({{10, 409, 9, 8}, {50, 929, 4, 2}, {200, 2458, 3, 1}, {500, 5458, 3, 1}}));
  SearchOptions o;
  o.half = HalfRule::Half;
  const SearchResult w = search_diagonal(27, 2, r, 2, o);
  CAPTURE(r);
  REQUIRE(w.a == a);
  REQUIRE(w.b == b);
  REQUIRE(std::lround(w.time) == time);
}

TEST_CASE("gossip cost: the hop term of eq. 1 adds hops * t_d/(l t_f) to each step's slowest unicast", "[sw]") {
  const GossipSchedule g = ring_gossip(GossipAlgo::Approach1, 9);
  CostParams p = at(2);
  p.hop_term = true;
  p.hop = 0.5;
  REQUIRE(schedule_cost(g.schedule, p).total == Approx(4 * (2 + 1 + 0.5)));
  REQUIRE(message_time(3, 10, 5, 1, 2) == 5 + 3 + 20);
}

TEST_CASE("gossip search: CUBGOS' at a = n also searches b (Lemma 9's Phase 4a term depends on b)", "[sw]") {
  // n = 81, r = 10: the paper's Table 3 lists (81, 161). With a = n, Phase 4a's start-up term
  // (log_a n - 1) b r vanishes and its transfer term falls as b grows, so the search walks b to
  // its bound 2n; fixing b = floor(a/2) (k = 1) evaluated the term at its largest.
  SearchOptions o;
  o.half = HalfRule::Half;
  const SearchResult w = search_diagonal(81, 3, 10, 3, o);
  REQUIRE(w.a == 81);
  REQUIRE(w.b == 162);
  REQUIRE(w.time == Approx(cubgos_time(81, 3, 81, 162, 10, HalfRule::Half, 3).total));
  REQUIRE(w.time < cubgos_time(81, 3, 80, 162, 10, HalfRule::Half, 3).total);
  REQUIRE(w.time < cubgos_time(81, 3, 81, 40, 10, HalfRule::Half, 3).total);
  REQUIRE(w.time == Approx(90913.7).margin(0.05));
}

TEST_CASE("gossip search: Table 3 follows 1/3 written as 0.333 (evaluation variant, not our value)", "[sw]") {
  SearchOptions o;
  o.half = HalfRule::Half;
  o.share = 0.333;
  SECTION("CUBGOS'") {
    auto [n, r, time, a, b] = GENERATE(table<int, double, int, int, int>(
        {{27, 10, 3806, 21, 19}, {27, 50, 4881, 10, 7}, {27, 250, 8695, 6, 3}, {27, 1000, 20237, 3, 1},
         {81, 50, 94605, 41, 30}, {81, 250, 105506, 19, 13}, {81, 1000, 132439, 10, 6}}));
    const SearchResult w = search_diagonal(n, 3, r, 3, o);
    CAPTURE(n, r);
    REQUIRE(w.a == a);
    REQUIRE(w.b == b);
    REQUIRE(std::lround(w.time) == time);
    // Our value (exact 1/3) is 0.1% of the transfer terms above.
    SearchOptions exact = o;
    exact.share = 0;
    REQUIRE(search_diagonal(n, 3, r, 3, exact).time > w.time + 3);
  }
  SECTION("HIGH-DIM-GOS' with CIRCGOS, a = n by Lemma 5") {
    auto [n, r, time, a] = GENERATE(table<int, double, int, int>(
        {{27, 10, 3873, 27}, {27, 50, 5074, 27}, {27, 250, 10195, 27}, {27, 1000, 27291, 13},
         {81, 10, 91658, 81}, {81, 50, 95008, 81}, {81, 250, 108390, 81}, {81, 1000, 152861, 81}}));
    o.lemma5_at_n = true;
    const HighDimResult h = search_high_dim(n, 3, r, true, o);
    CAPTURE(n, r);
    REQUIRE(h.phases.back().a == a);
    REQUIRE(std::lround(h.time) == time);
  }
  SECTION("HIGH-DIM-GOS' with Approach 1/2: 0.333 leaves the paper 1.6-2.3 below (rule not identified)") {
    // The four entries of the row that come near the paper: same approach code, the paper 1.66 to
    // 2.21 below the 0.333 evaluation. The paper states no per-phase rounding, so none is applied.
    auto [n, r, time, code, gap] = GENERATE(table<int, double, int, std::string, double>(
        {{9, 1000, 12119, "111", 2.21}, {27, 1000, 28909, "221", 2.08}, {81, 250, 110238, "221", 1.66},
         {81, 1000, 152238, "221", 1.66}}));
    const HighDimResult h = search_high_dim(n, 3, r, false, o);
    CAPTURE(n, r);
    REQUIRE(h.approaches == code);
    REQUIRE(h.time - time == Approx(gap).margin(0.005));
  }
}
