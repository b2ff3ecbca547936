// Channel-level rules of docs/mway.md section 5: header delivery to exactly the ways named,
// ordered reservation and retry (MST-safe), content matching of body flits, and the replica split.
#include <catch2/catch.hpp>

#include <random>

#include "tests/sc/mway_bench.h"

using namespace wormcast;

namespace {
/// Random mixed load on a 4x4 mesh: unicasts and whole-mesh broadcasts.
void random_load(test::MwayBench& b, uint64_t cycles, int percent) {
  const auto& g = b.fab.geometry();
  std::mt19937 rng(11);
  uint64_t id = 1;
  for (uint64_t t = 0; t < cycles; ++t) {
    for (int s = 0; s < g.num_channels(); ++s) {
      if (int(rng() % 100) >= percent) continue;
      if (rng() % 4 == 0) {
        b.submit(b.region(id++, s, g.full_region(), 5, t));
      } else {
        int d = int(rng() % uint32_t(g.num_channels()));
        if (d == s) d = (d + 3) % g.num_channels();
        b.submit(b.unicast(id++, s, d, 2 + uint32_t(rng() % 4), t));
      }
    }
  }
}

/// The blocking scenario of sections 5.1 and 7: a 40-flit unicast from (1,0) to (1,3) holds the
/// only Y+ buffer of channel (1,1) while node (1,1) broadcasts to the whole 4x4 mesh.
struct Blocked {
  static constexpr uint64_t kUnicast = 1, kBroadcast = 2;
  MwayParams params(MwayAlgorithm alg) {
    MwayParams p;
    p.radix = {4, 4};
    p.algorithm = alg;
    p.buffers = 1;
    p.buffer_length = 40;
    p.max_message_length = 40;
    return p;
  }
  void submit(test::MwayBench& b) {
    const auto& g = b.fab.geometry();
    b.submit(b.unicast(kUnicast, g.channel({1, 0}), g.channel({1, 3}), 40, 0));
    b.submit(b.region(kBroadcast, g.channel({1, 1}), g.full_region(), 5, 5));
  }
};
}  // namespace

TEST_CASE("mway: a header reaches every receiver named in Ways in the same cycle and none other", "[sc]") {
  MwayParams p;
  p.algorithm = MwayAlgorithm::MstSafe;
  p.buffers = 2;
  test::MwayBench b("bench", p);
  size_t headers = 0, multi = 0;
  b.on_event = [&](const MwayChannelEvent& e) {
    if (e.tag != MwayTag::H || !e.ack) return;
    ++headers;
    if (__builtin_popcount(e.ways) > 1) ++multi;
    CHECK(e.accepted == e.ways);
    CHECK(int(e.receivers.size()) == __builtin_popcount(e.ways));
    // After the edge, exactly the named sets hold an open row for (Drv, Buf), each with the header.
    MwayChannel& ch = b.fab.channel(e.channel);
    uint32_t holders = 0;
    for (int w = 0; w < b.fab.geometry().ways(); ++w) {
      MwayBufferSet* s = ch.receiver(w);
      if (!s) continue;
      for (int i = 0; i < s->size(); ++i) {
        const auto& row = s->entry(i);
        if (row.a && !row.r && !row.t && row.drv == e.drv && row.buf == e.buf && row.pkt.id == e.packet) {
          CHECK(!(holders >> w & 1));
          holders |= 1u << w;
        }
      }
    }
    CHECK(holders == e.ways);
  };
  random_load(b, 300, 4);
  b.run(50000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(headers > 500);
  REQUIRE(multi > 50);
}

namespace {

/// The Blocked scene under MST-safe with the given header bidding: the broadcast header's refused
/// bids on channel (1,1) (each reserving X+ and X-; Y+ blocked, Y- not before Y+), and the check
/// that it advances in the cycle the Y+ buffer is free.
int blocked_header_attempts(MwayHeaderBid bid) {
  Blocked s;
  MwayParams p = s.params(MwayAlgorithm::MstSafe);
  p.header_bid = bid;
  test::MwayBench b("bench", p);
  const auto& g = b.fab.geometry();
  b.record = true;
  s.submit(b);
  b.run(2000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  const int c11 = g.channel({1, 1}), c12 = g.channel({1, 2});
  uint64_t unicast_tail_left = 0, advanced = 0;
  int attempts = 0;
  for (auto& e : b.events) {
    if (e.packet == Blocked::kUnicast && e.channel == c12 && e.tag == MwayTag::T) unicast_tail_left = e.cycle;
    if (e.packet != Blocked::kBroadcast || e.channel != c11 || e.tag != MwayTag::H) continue;
    REQUIRE(advanced == 0);  // no attempt after the header advanced
    REQUIRE(e.ways == 0b01111u);
    if (e.ack) {
      advanced = e.cycle;
      REQUIRE(e.accepted == 0b01111u);
    } else {
      ++attempts;
      REQUIRE(e.accepted == 0);
      REQUIRE(e.reserved == 0b00011u);  // X+ and X- reserved, Y+ blocked, Y- not before Y+
    }
  }
  REQUIRE(unicast_tail_left > 0);
  // The Y+ buffer is free from the cycle after its tail left; the header advances in that cycle.
  REQUIRE(advanced == unicast_tail_left + 1);
  return attempts;
}

}  // namespace

TEST_CASE("mway: MST-safe (blind bids) holds and retries a header while one way has no free buffer and advances in "
          "the cycle the last way allocates",
          "[sc]") {
  REQUIRE(blocked_header_attempts(MwayHeaderBid::Blind) > 10);
}

TEST_CASE("mway: MST-safe (Stat bids) reserves once, then bids again only in the cycle Stat shows the blocked way's "
          "free buffer, and advances then",
          "[sc]") {
  REQUIRE(blocked_header_attempts(MwayHeaderBid::Stat) == 1);
}

TEST_CASE("mway: MST-safe never reserves a later way of the order before an earlier one", "[sc]") {
  MwayParams p;
  p.algorithm = MwayAlgorithm::MstSafe;
  p.buffers = 1;
  test::MwayBench b("bench", p);
  size_t partial = 0;
  b.on_event = [&](const MwayChannelEvent& e) {
    if (e.tag != MwayTag::H) return;
    if (!e.ack) {
      CHECK(e.accepted == 0);  // the header never advances on part of its ways
      CHECK(sw::MwayGeometry::is_order_prefix(e.reserved, e.ways));
      if (e.reserved) ++partial;
    }
  };
  random_load(b, 300, 5);
  b.run(50000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(partial > 20);
}

TEST_CASE("mway: a body flit is accepted only by the buffers whose Drv and Buf match", "[sc]") {
  // Unit level: the content search of the allocation/mapping unit.
  std::vector<MwayBufferEntry> table(5);
  auto set = [&](int i, int drv, int buf, bool r, bool t) {
    table[size_t(i)].a = true;
    table[size_t(i)].drv = drv;
    table[size_t(i)].buf = buf;
    table[size_t(i)].r = r;
    table[size_t(i)].t = t;
  };
  set(0, 1, 0, false, false);
  set(1, 1, 1, false, false);
  set(2, 2, 0, false, false);
  set(3, 1, 0, true, false);   // a reservation does not take body flits
  set(4, 1, 0, false, true);   // nor does a buffer that already has its tail
  MwayAllocMap amu(table);
  std::vector<int> hits;
  amu.match(1, 0, [&](int i) { hits.push_back(i); });
  REQUIRE(hits == std::vector<int>{0});
  REQUIRE(amu.reserved_for(1, 0) == 3);
  REQUIRE(amu.free_buffer() == -1);

  // Network level: every body or tail flit goes to exactly the buffers that took its header.
  MwayParams p;
  p.algorithm = MwayAlgorithm::Mst;
  p.buffers = 3;
  p.buffer_length = 2;  // wormhole: flits of several messages interleave on every channel
  test::MwayBench b("bench", p);
  std::map<std::tuple<int, int, int>, std::vector<std::pair<int, int>>> took;  // (ch, drv, buf)
  size_t bodies = 0;
  b.on_event = [&](const MwayChannelEvent& e) {
    const auto key = std::make_tuple(e.channel, e.drv, e.buf);
    if (e.tag == MwayTag::H) {
      for (auto& r : e.receivers) took[key].push_back(r);
      return;
    }
    if (e.tag == MwayTag::I) return;
    ++bodies;
    auto want = took[key];
    auto got = e.receivers;
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(got == want);
    if (e.tag == MwayTag::T) took.erase(key);
  };
  // One message at a time per source keeps plain MST away from deadlock; sources overlap.
  const auto& g = b.fab.geometry();
  for (int s = 0; s < g.num_channels(); ++s) b.submit(b.region(uint64_t(s + 1), s, g.full_region(), 5, uint64_t(s) * 12));
  for (int s = 0; s < g.num_channels(); ++s)
    b.submit(b.unicast(uint64_t(100 + s), s, g.num_channels() - 1 - s, 5, uint64_t(s) * 12 + 3));
  b.run(20000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(bodies > 100);
}

TEST_CASE("mway: an MST-replica replica carries exactly the ways the original could not take with the split Region and both halves deliver", "[sc]") {
  Blocked s;
  test::MwayBench b("bench", s.params(MwayAlgorithm::MstReplica));
  const auto& g = b.fab.geometry();
  b.record = true;
  s.submit(b);
  b.run(2000);
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());  // every node of the mesh but (1,1) has the broadcast exactly once
  const int c11 = g.channel({1, 1});
  int splits = 0;
  int replica_row = -1;
  for (auto& e : b.events) {
    if (e.packet != Blocked::kBroadcast || e.channel != c11 || e.tag != MwayTag::H) continue;
    if (e.replica >= 0) {
      ++splits;
      REQUIRE(e.ways == 0b01111u);
      REQUIRE(e.accepted == 0b00011u);       // the original advances on X+ and X-
      REQUIRE(e.replica_ways == 0b01100u);   // the replica carries Y+ and Y-
      REQUIRE(e.replica_region == test::make_region(g, {1, 0}, {1, 3}));  // the column x = 1
      replica_row = e.replica;
    } else if (splits) {
      REQUIRE(e.buf == replica_row);          // later attempts are the replica's
      if (e.ack) REQUIRE(e.accepted == 0b01100u);
    }
  }
  REQUIRE(splits == 1);
  // The replica reached Y+ and Y-, the original X+ and X-: node (1,0) (Y-) and (1,2) (Y+) and
  // (0,1), (2,1) each got it once, which complete() and the exactly-once checker confirm.
  REQUIRE(b.tail_cycle.count({Blocked::kBroadcast, g.channel({1, 0})}) == 1);
  REQUIRE(b.tail_cycle.count({Blocked::kBroadcast, g.channel({1, 2})}) == 1);
}
