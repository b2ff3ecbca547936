// Gossip schedules: every generator's schedule gives all chunks to every node, only forwards
// held chunks and never uses a directed link twice in a step; Lemma 4 exact; the diagonals.
#include <catch2/catch.hpp>

#include <string>

#include "sw/gossip/gossip.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/verify.h"

using namespace wormcast::sw;

namespace {

Topology ring(int n) { return parse_net("torus:" + std::to_string(n)); }

GossipSpec ring_spec(GossipAlgo a, int a1 = 3, int b = 1) {
  GossipSpec s;
  s.algo = a;
  s.circ = CircParams::from_ab(a1, b);
  return s;
}

void require_valid(const Schedule& s) {
  const Verdict v = verify(s);
  INFO(format_verdict(s, v));
  REQUIRE(v.gossip);
  REQUIRE(v.complete);
  REQUIRE(v.chunk_causal);
  REQUIRE(v.stepwise_contention_free);
  REQUIRE(v.ok());
}

}  // namespace

TEST_CASE("gossip verifier: Approach 1 and 2 on rings 2..40 are complete, causal, overlap-free", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    require_valid(generate_gossip(ring(n), ring_spec(GossipAlgo::Approach1)).schedule);
    require_valid(generate_gossip(ring(n), ring_spec(GossipAlgo::Approach2)).schedule);
  }
}

TEST_CASE("gossip verifier: CIRCGOS on rings 2..40 for every a and several b", "[sw]") {
  for (int n = 2; n <= 40; ++n)
    for (int a = 2; a <= n; ++a)
      for (int b : {a / 2, a / 2 + 1, a - 1, a + 2}) {
        if (2 * b - a + 2 < 1) continue;
        CAPTURE(n, a, b);
        require_valid(generate_gossip(ring(n), ring_spec(GossipAlgo::Circgos, a, b)).schedule);
      }
}
