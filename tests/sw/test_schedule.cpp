// Schedule IR helpers: network names, chunk sets, translation to another source, redundancy removal.
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "sw/schedule/schedule.h"
#include "tests/sw/schedule_helpers.h"

using namespace wormcast::sw;
using namespace wormcast::sw::test;

TEST_CASE("parse_net: accepts what describe prints", "[sw]") {
  for (const char* text : {"torus:16x16", "mesh:4x4x4", "torus,mesh:8x4", "torus:5x5x5x5", "torus:7"}) {
    const Topology t = parse_net(text);
    REQUIRE(describe(t) == text);
  }
  const Topology t = parse_net("torus,mesh:8x4");
  REQUIRE(t.dims() == 2);
  REQUIRE(t.radix(0) == 8);
  REQUIRE(t.torus(0));
  REQUIRE_FALSE(t.torus(1));
}

TEST_CASE("parse_net: rejects malformed networks with one line", "[sw]") {
  const char* bad = GENERATE("torus", "torus:", "torus:16x", "ring:4x4", "torus:1x4", "torus:4x4x4x4x4",
                             "torus:0x4", "torus:-4x4", "torus,mesh:4x4x4", "torus:4096x4096x2",
                             "torus:99999x2", "torus:4 x4", "torus:08x8", "torus:0008x8", "mesh:8x010");
  CAPTURE(bad);
  try {
    parse_net(bad);
    FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    REQUIRE(msg.find('\n') == std::string::npos);
    REQUIRE(msg.find("network") != std::string::npos);
  }
}

TEST_CASE("chunk set: add, contains, count and equality ignore trailing words", "[sw]") {
  ChunkSet a = ChunkSet::single(0);
  a.add(70);
  REQUIRE(a.contains(0));
  REQUIRE(a.contains(70));
  REQUIRE_FALSE(a.contains(1));
  REQUIRE(a.count() == 2);
  REQUIRE(a.ids() == std::vector<int>{0, 70});
  ChunkSet b = ChunkSet::single(70);
  b.add(ChunkSet::single(0));
  REQUIRE(a == b);
  REQUIRE(ChunkSet::single(3) != ChunkSet::single(4));
}

TEST_CASE("chunk set: random adds of far-apart and nearby chunks agree with a plain set", "[sw]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    ChunkSet a, b;
    std::set<int> ra, rb;
    // Chunks near each other (one word) and far apart (a schedule on thousands of nodes).
    const int span = round % 2 ? 200 : 100000;
    const int adds = int(rng() % 40);
    for (int i = 0; i < adds; ++i) {
      const int c = int(rng() % uint32_t(span));
      const bool to_a = rng() % 2;
      (to_a ? a : b).add(c);
      (to_a ? ra : rb).insert(c);
    }
    if (rng() % 3 == 0) {  // b a subset of a
      b = a;
      rb = ra;
    }
    REQUIRE(b.ids() == std::vector<int>(rb.begin(), rb.end()));
    REQUIRE(a.ids() == std::vector<int>(ra.begin(), ra.end()));
    REQUIRE(a.count() == int(ra.size()));
    int missing = -1;
    for (int c : rb)
      if (!ra.count(c)) {
        missing = c;
        break;
      }
    REQUIRE(b.first_missing_from(a) == missing);
    REQUIRE(b.subset_of(a) == (missing < 0));
    for (int probe = 0; probe < 20; ++probe) {
      const int c = int(rng() % uint32_t(span));
      REQUIRE(a.contains(c) == (ra.count(c) == 1));
    }
    ChunkSet u = a;
    u.add(b);
    std::set<int> ru = ra;
    ru.insert(rb.begin(), rb.end());
    REQUIRE(u.ids() == std::vector<int>(ru.begin(), ru.end()));
    REQUIRE((u == a) == (ru == ra));
    ChunkSet v = b;
    v.add(a);
    REQUIRE(v == u);
  }
}

TEST_CASE("schedule: translation moves every node and keeps hop counts and first ports", "[sw]") {
  const Topology t = parse_net("torus:8x8");
  Schedule s = hand_made(t, 1);
  add(s, 0, t.node(Coord{{4, 3}}), 1);  // x distance 4 is a tie
  const Unicast u = s.unicasts[0];
  const int to = t.node(Coord{{6, 7}});
  const Schedule m = translate(s, to);
  REQUIRE(m.source == to);
  REQUIRE(m.unicasts[0].src == to);
  REQUIRE(m.unicasts[0].dst == t.node(Coord{{2, 2}}));
  REQUIRE(t.hops(m.unicasts[0].src, m.unicasts[0].dst, false) == t.hops(0, u.dst, false));
  REQUIRE(first_port(t, m.unicasts[0]) == first_port(t, u));
}

TEST_CASE("schedule: drop_redundant removes re-sends and renumbers send orders", "[sw]") {
  const Topology t = parse_net("torus:4x4");
  Schedule s = hand_made(t, 2);
  add(s, 0, 1, 1, 0);
  add(s, 0, 4, 1, 1);
  add(s, 1, 0, 2, 0);  // the source already holds it
  add(s, 1, 4, 2, 1);  // informed in step 1
  add(s, 1, 2, 2, 2);  // new
  drop_redundant(s);
  REQUIRE(s.unicasts.size() == 3);
  REQUIRE(s.unicasts[2].src == 1);
  REQUIRE(s.unicasts[2].dst == 2);
  REQUIRE(s.unicasts[2].order == 0);
}

TEST_CASE("schedule: ceil_log is exact at powers", "[sw]") {
  REQUIRE(ceil_log(1, 5) == 0);
  REQUIRE(ceil_log(5, 5) == 1);
  REQUIRE(ceil_log(6, 5) == 2);
  REQUIRE(ceil_log(256, 5) == 4);
  REQUIRE(ceil_log(1024, 2) == 10);
  REQUIRE(ceil_log(1025, 2) == 11);
}
