// The scoreboard's packet table under a long random sequence of injections and deliveries (every
// packet found, completed once and forgotten, the stranded list exact), and its error reports.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <string>

#include "systemc/nic/scoreboard.h"

using namespace wormcast;

namespace {

FlitView flit_of(const Scoreboard& sb, uint64_t id, uint32_t index, uint32_t length) {
  FlitView f;
  f.key = sb.key_of(id);
  f.index = index;
  f.head = index == 0;
  f.tail = index + 1 == length;
  return f;
}

PacketRecord packet(uint64_t id, int src, int dst, uint32_t length) {
  PacketRecord r;
  r.id = id;
  r.src = src;
  r.dst = dst;
  r.length = length;
  return r;
}

bool any_error_contains(const Scoreboard& sb, const std::string& text) {
  for (const std::string& e : sb.errors())
    if (e.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("scoreboard: 50,000 packets injected and delivered in random order are each completed once, "
          "and the packets left are the stranded ones",
          "[sc]") {
  // A 14-bit key keeps many keys on one probe run of the table and reuses keys of delivered packets.
  Scoreboard sb(0x3fff, 0xff);
  std::mt19937_64 rng(11);
  struct Live {
    uint32_t length, sent;
    int dst;
  };
  std::map<uint64_t, Live> live;  // id -> packet
  std::set<uint64_t> keys;
  uint64_t next_id = 1, completed = 0;
  for (int step = 0; step < 200000; ++step) {
    const bool inject = live.empty() || (next_id < 50000 && rng() % 100 < 45 && live.size() < 3000);
    if (inject) {
      uint64_t id = next_id + (rng() % 7) * 0x4000;  // ids differ from their keys
      if (keys.count(sb.key_of(id))) {
        ++next_id;
        continue;
      }
      ++next_id;
      const int src = int(rng() % 64), dst = int(rng() % 64);
      const PacketRecord r = packet(id, src, dst, 1 + uint32_t(rng() % 4));
      sb.on_inject(r);
      live[id] = Live{r.length, 0, r.dst};
      keys.insert(sb.key_of(id));
    } else {
      auto it = live.begin();
      std::advance(it, long(rng() % live.size()));
      Live& p = it->second;
      const PacketRecord* done = sb.on_eject(p.dst, uint64_t(step), flit_of(sb, it->first, p.sent, p.length));
      ++p.sent;
      if (p.sent == p.length) {
        REQUIRE(done != nullptr);
        REQUIRE(done->id == it->first);
        REQUIRE(done->last);
        ++completed;
        keys.erase(sb.key_of(it->first));
        live.erase(it);
      } else {
        REQUIRE(done == nullptr);
      }
    }
    REQUIRE(sb.in_flight() == live.size());
  }
  REQUIRE(sb.errors().empty());
  CHECK(completed > 40000);
  CHECK(sb.delivered_packets() == completed);
  const std::vector<PacketRecord> left = sb.stranded(live.size() + 1);
  REQUIRE(left.size() == live.size());
  auto it = live.begin();
  for (const PacketRecord& r : left) CHECK(r.id == (it++)->first);
}


TEST_CASE("scoreboard: an unknown, reordered, misdelivered or repeated flit and a colliding packet id are "
          "reported",
          "[sc]") {
  Scoreboard sb(0xffff, 0xff);
  const PacketRecord a = packet(7, 1, 2, 3);
  sb.on_inject(a);
  PacketRecord twin = a;
  twin.id = 7 + 0x10000;  // the same key
  sb.on_inject(twin);
  REQUIRE(sb.error_count() == 1);
  CHECK(any_error_contains(sb, "collides with packet 7"));
  CHECK(sb.in_flight() == 1);

  CHECK(sb.on_eject(2, 10, flit_of(sb, 99, 0, 1)) == nullptr);
  CHECK(any_error_contains(sb, "unknown packet"));
  CHECK(sb.on_eject(2, 11, flit_of(sb, 7, 1, 3)) == nullptr);  // flit 1 before flit 0
  CHECK(any_error_contains(sb, "expected flit 0"));

  sb.on_inject(packet(8, 1, 2, 1));
  CHECK(sb.in_flight() == 2);
  CHECK(sb.on_eject(3, 12, flit_of(sb, 8, 0, 1)) == nullptr);  // the wrong node
  CHECK(any_error_contains(sb, "delivered to node 3"));
  const uint64_t errors = sb.error_count();
  const PacketRecord* done = sb.on_eject(2, 13, flit_of(sb, 8, 0, 1));
  REQUIRE(done != nullptr);
  CHECK(done->id == 8);
  CHECK(done->arrived == 14);
  CHECK(sb.error_count() == errors);
  CHECK(sb.in_flight() == 1);
  CHECK(sb.on_eject(2, 14, flit_of(sb, 8, 0, 1)) == nullptr);  // once more: packet 8 is gone
  CHECK(sb.error_count() == errors + 1);
  CHECK(sb.stranded(10).size() == 1);
  CHECK(sb.stranded(10)[0].id == 7);
}
