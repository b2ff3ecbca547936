// Builders and the validity check the gossip tests share.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "sw/gossip/gossip.h"
#include "sw/schedule/verify.h"

namespace wormcast::sw::test {

/// The n x ... x n network of d dimensions, every one of `kind` ("torus" or "mesh").
inline Topology cube(const std::string& kind, int n, int d) {
  std::string s = kind + ":" + std::to_string(n);
  for (int i = 1; i < d; ++i) s += "x" + std::to_string(n);
  return parse_net(s);
}

/// `a` with CIRCGOS parameters (a1, b) in Lemma 5's form.
inline GossipSpec gossip_spec(GossipAlgo a, int a1 = 3, int b = 1, bool coloured = true) {
  GossipSpec s;
  s.algo = a;
  s.coloured = coloured;
  s.circ = CircParams::from_ab(a1, b);
  return s;
}

/// Complete, chunk-causal and overlap-free; returns the verdict for further checks.
inline Verdict require_valid(const Schedule& s) {
  const Verdict v = verify(s);
  INFO(format_verdict(s, v));
  REQUIRE(v.gossip);
  REQUIRE(v.complete);
  REQUIRE(v.chunk_causal);
  REQUIRE(v.stepwise_contention_free);
  REQUIRE(v.ok());
  return v;
}

}  // namespace wormcast::sw::test
