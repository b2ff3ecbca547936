// Schedule verifier: accepts DCF and Wang–Tseng, rejects broken hand-made schedules, and finds
// EDN's cross-step contention (negative control).
#include <catch2/catch.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/verify.h"
#include "tests/sw/schedule_helpers.h"

using namespace wormcast::sw;
using namespace wormcast::sw::test;


TEST_CASE("verify: DCF is exactly-once and depth contention-free in log2(n) steps", "[sw]") {
  auto [n, steps, sharing] =
      GENERATE(table<int, int, int>({{4, 2, 1}, {8, 3, 16}, {16, 4, 46}, {32, 5, 346}, {64, 6, 882}}));
  const Topology t = square(n);
  for (int src : {at(t, 0, 0), at(t, n - 1, 1), at(t, n / 2, n - 3), at(t, 3, n / 4)}) {
    CAPTURE(n, src);
    const Verdict v = verify(dcf_broadcast(t, src));
    REQUIRE(v.definition1());
    REQUIRE(v.exactly_once);
    REQUIRE(v.stepwise_contention_free);
    REQUIRE(v.depth_contention_free);
    REQUIRE(v.uncovered_pairs == 0);
    REQUIRE(v.steps == steps);
    REQUIRE(v.steps == ceil_log(n, 2));
    REQUIRE(v.sharing_pairs == sharing);
    REQUIRE(v.ok());
  }
}

TEST_CASE("verify: DCF arc-sharing pairs split over Theorem 1's conditions as tabled", "[sw]") {
  auto [n, c3, c4, c1] = GENERATE(table<int, int, int, int>({{16, 37, 2, 7}, {64, 633, 78, 171}}));
  const Verdict v = verify(dcf_broadcast(square(n), 0));
  REQUIRE(v.covered_c3 == c3);
  REQUIRE(v.covered_c4 == c4);
  REQUIRE(v.covered_c1 == c1);
}

TEST_CASE("verify: DCF sol1 is depth contention-free too", "[sw]") {
  for (int n : {4, 8, 16, 32, 64}) {
    CAPTURE(n);
    const Verdict v = verify(dcf_broadcast(square(n), 0, DcfVariant::Sol1));
    REQUIRE(v.ok());
    REQUIRE(v.depth_contention_free);
  }
  REQUIRE(verify(dcf_broadcast(square(64), 0, DcfVariant::Sol1)).sharing_pairs == 903);
}

TEST_CASE("verify: Wang–Tseng on 3-D tori meets Theorem 2's step count, stepwise contention-free", "[sw]") {
  for (int n = 5; n <= 20; ++n) {
    CAPTURE(n);
    const Topology t = parse_net("torus:" + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n));
    const Verdict v = verify(wang_tseng_broadcast(t, t.node(Coord{{1, n - 1, 2}})));
    REQUIRE(v.steps == 3 * ceil_log(n, 7) + 2);
    REQUIRE(v.lower_bound == ceil_log(n * n * n, 7));
    REQUIRE(v.steps >= v.lower_bound);
    REQUIRE(v.stepwise_contention_free);
    REQUIRE(v.definition1());
  }
}

TEST_CASE("verify: Wang–Tseng on 2-D and 4-D tori, literal and suppressed", "[sw]") {
  auto [k, n] = GENERATE(table<int, int>({{2, 6}, {2, 8}, {2, 13}, {4, 3}, {4, 5}, {4, 8}}));
  std::string text = "torus:" + std::to_string(n);
  for (int d = 1; d < k; ++d) text += "x" + std::to_string(n);
  const Topology t = parse_net(text);
  CAPTURE(text);
  const Verdict lean = verify(wang_tseng_broadcast(t, 0));
  REQUIRE(lean.ok());
  REQUIRE(lean.steps == k * ceil_log(n, 2 * k + 1) + k - 1);
  const Verdict literal = verify(wang_tseng_broadcast(t, 0, true));
  REQUIRE(literal.causal);
  REQUIRE(literal.distinct_first_channels);
  REQUIRE(literal.stepwise_contention_free);
  REQUIRE(literal.missing == 0);
}

TEST_CASE("verify: Tseng, recursive doubling and sequential pass Definition 1 and stepwise checks", "[sw]") {
  for (int n : {5, 8, 16, 25, 32}) {
    CAPTURE(n);
    REQUIRE(verify(tseng_broadcast(square(n), 1)).ok());
  }
  REQUIRE(verify(recursive_doubling_broadcast(parse_net("torus:7x9x3"), 11)).ok());
  REQUIRE(verify(sequential_broadcast(parse_net("torus:6x5"), 7)).ok());
}

TEST_CASE("verify: redundant Tseng re-sends are reported as duplicates", "[sw]") {
  const Verdict v = verify(tseng_broadcast(square(16), 0, true));
  REQUIRE_FALSE(v.exactly_once);
  REQUIRE(v.duplicates == 7);
  REQUIRE(v.missing == 0);
  REQUIRE(v.stepwise_contention_free);
  REQUIRE_FALSE(v.ok());
}

TEST_CASE("verify: EDN is not depth contention-free (negative control)", "[sw]") {
  for (int n : {8, 16, 32, 64}) {
    CAPTURE(n);
    const Verdict v = verify(edn_broadcast(square(n), 0));
    REQUIRE(v.ok());  // exactly-once, Definition 1 and stepwise contention-free ...
    REQUIRE(v.steps == ceil_log(n, 2));
    REQUIRE_FALSE(v.depth_contention_free);  // ... but not depth contention-free
    REQUIRE(v.uncovered_pairs > 0);
    REQUIRE(v.first_uncovered.valid());
  }
  // The pair the 8x8 check reports first: the top step's tie-broken (0,0)->(4,4) runs x-
  // then y- and shares an arc with a later unicast that Theorem 1 does not cover.
  const Topology t = square(8);
  const Schedule s = edn_broadcast(t, 0);
  const Verdict v = verify(s);
  REQUIRE(v.uncovered_pairs == 5);
  const Unicast& a = s.unicasts[size_t(v.first_uncovered.first)];
  REQUIRE(a.step == 1);
  REQUIRE(a.tie_negative);
  REQUIRE_THAT(describe_pair(s, v.first_uncovered), Catch::Contains("share arc"));
}

TEST_CASE("verify: rejects a hand-made schedule that delivers twice", "[sw]") {
  const Topology t = square(4);
  Schedule s = dcf_broadcast(t, 0);
  REQUIRE(verify(s).ok());
  // The source also sends to (0,3), which already got the message in step 1: causal, on a free
  // channel (y-, while its other step-2 send leaves on x+), but a second delivery.
  add(s, 0, at(t, 0, 3), 2, 1);
  const Verdict v = verify(s);
  REQUIRE(v.causal);
  REQUIRE(v.distinct_first_channels);
  REQUIRE_FALSE(v.exactly_once);
  REQUIRE(v.duplicates == 1);
  REQUIRE(v.missing == 0);
  REQUIRE_FALSE(v.definition1());
  REQUIRE_FALSE(v.ok());
  REQUIRE_THAT(v.errors.front(), Catch::Contains("(0,3) receives the message 2 times"));
}

TEST_CASE("verify: rejects two unicasts of one step sharing a channel", "[sw]") {
  const Topology t = square(4);
  Schedule s = hand_made(t, 2);
  add(s, 0, at(t, 1, 0), 1, 0);
  add(s, 0, at(t, 0, 1), 1, 1);
  // Step 2: (0,0)->(2,1) runs x+ through (1,0) (a tie, so positive) and (1,0)->(3,0) starts
  // on the same arc (1,0) x+.
  add(s, 0, at(t, 2, 1), 2, 0);
  add(s, at(t, 1, 0), at(t, 3, 0), 2, 0);
  const Verdict v = verify(s);
  REQUIRE(v.causal);
  REQUIRE(v.distinct_first_channels);
  REQUIRE_FALSE(v.stepwise_contention_free);
  REQUIRE(v.stepwise_conflicts == 1);
  REQUIRE(v.first_stepwise_conflict.arc == Arc{at(t, 1, 0), 0});
  REQUIRE_FALSE(v.depth_contention_free);
  REQUIRE_FALSE(v.ok());
}

TEST_CASE("verify: rejects a send before the sender holds the message", "[sw]") {
  const Topology t = square(4);
  Schedule s = hand_made(t, 2);
  add(s, 0, at(t, 1, 0), 2, 0);
  add(s, at(t, 1, 0), at(t, 2, 0), 2, 0);
  add(s, at(t, 2, 0), at(t, 3, 0), 1, 0);
  const Verdict v = verify(s);
  REQUIRE_FALSE(v.causal);
  REQUIRE(v.causality_violations == 2);
  REQUIRE_FALSE(v.source_only_first_step);
  REQUIRE(v.missing == 12);
}

TEST_CASE("verify: step count against the lower bound ceil(log_{2n+1} N)", "[sw]") {
  REQUIRE(verify(dcf_broadcast(square(16), 0)).lower_bound == 4);  // 5^4 = 625 >= 256
  REQUIRE(verify(dcf_broadcast(square(32), 0)).lower_bound == 5);
  REQUIRE(verify(sequential_broadcast(square(4), 0)).lower_bound == 2);
}
