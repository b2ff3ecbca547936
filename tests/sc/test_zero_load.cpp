// Zero-load latency: for every (src, dst) pair, T = s + t_s + (h+1)*R + h*Ld + L + t_r
// (docs/router.md section 7), several lengths, software latencies and pipeline settings. Under
// Valiant routing h is the two-phase path's length, hops(src, mid) + hops(mid, dst) (section 13),
// checked hop by hop from the router's hop events.
#include <catch2/catch.hpp>

#include "systemc/torus/flit.h"
#include "systemc/torus/params.h"
#include "systemc/torus/valiant.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

struct Mismatch {
  int src, dst, len;
  uint64_t got, want;
};

// Valiant: the hops of the one packet in flight (its head's network hops, from the hop events)
// must be hops(src, mid) on phase-1 VCs followed by hops(mid, dst) on phase-2 VCs, mid being the
// packet's documented draw. Returns "" or what is wrong; `h` gets the path length.
std::string check_valiant_path(const Bench& b, const RouterParams& rp, uint64_t seed, int s, int d, bool tie,
                               uint64_t& h) {
  const sw::Topology& t = b.net.topology();
  std::vector<HopEvent> head;
  for (auto& e : b.hops)
    if (e.head && e.out_port < rp.net_ports()) head.push_back(e);
  if (b.hops.empty()) return "no hop events";
  const uint64_t packet = b.hops.front().packet;  // ids stay below 2^24 here: the event's id is the record's
  const int mid = valiant_intermediate(seed, packet, t.num_nodes());
  const int h1 = t.hops(s, mid, tie), h2 = t.hops(mid, d, tie);
  h = uint64_t(h1 + h2);
  if (head.size() != h) return "path of " + std::to_string(head.size()) + " hops via " + std::to_string(mid);
  for (size_t i = 0; i < head.size(); ++i) {
    const bool phase2 = int(i) >= h1;
    if ((head[i].vc >= rp.escape_vcs()) != phase2) return "hop " + std::to_string(i) + " on the wrong VC set";
    if (int(i) == h1 && head[i].router != mid) return "phase 2 does not start at " + std::to_string(mid);
  }
  return "";
}

void zero_load(const Config& cfg, std::vector<uint32_t> lengths, uint64_t bubble_per_packet = 0) {
  Bench bench("bench", cfg);
  const RouterParams rp = derive_router_params(bench.net.config().net, bench.net.config().part<RouterConfig>());
  const bool valiant = rp.valiant;
  std::vector<Mismatch> bad;
  std::string bad_path;
  uint64_t checked = 0;
  bench.record_hops = valiant;
  bench.body = [&](Bench& b) {
    const sw::Topology& t = b.net.topology();
    uint32_t salt = 0;
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        for (uint32_t len : lengths) {
          const bool tie = t.has_tie(s, d) && (++salt % 2);
          const uint64_t start = current_cycle();
          b.hops.clear();
          b.net.nic(s).submit(d, len, tie, 0, start);
          sw::Delivery got;
          REQUIRE(b.wait_delivery(d, 100000, got));
          uint64_t h = uint64_t(t.hops(s, d, tie));
          if (valiant) {
            const std::string why = check_valiant_path(b, rp, cfg.sim.seed, s, d, tie, h);
            if (!why.empty() && bad_path.empty())
              bad_path = std::to_string(s) + "->" + std::to_string(d) + ": " + why;
          }
          const uint64_t want = start + uint64_t(cfg.nic.ts) + (h + 1) * uint64_t(rp.router_delay) +
                                h * uint64_t(rp.link_delay) + uint64_t(rp.injection_delay + rp.ejection_delay) + len +
                                uint64_t(cfg.nic.tr) +
                                bubble_per_packet * ((len - 1) / uint32_t(cfg.nic.max_packet));
          if (got.visible != want || current_cycle() != want) bad.push_back({s, d, int(len), got.visible, want});
          ++checked;
          b.wait_until(current_cycle() + 2);  // the NIC's processor is free again after t_s
          b.wait_until(current_cycle() + uint64_t(cfg.nic.ts));
        }
      }
  };
  sc_core::sc_start();
  const int n = bench.net.num_nodes();
  INFO("first mismatch: " << (bad.empty() ? std::string("none")
                                          : std::to_string(bad[0].src) + "->" + std::to_string(bad[0].dst) + " L=" +
                                                std::to_string(bad[0].len) + " got " + std::to_string(bad[0].got) +
                                                " want " + std::to_string(bad[0].want)));
  CHECK(bad.empty());
  INFO("first wrong Valiant path: " << bad_path);
  CHECK(bad_path.empty());
  REQUIRE(checked == uint64_t(n) * uint64_t(n - 1) * lengths.size());
  REQUIRE(bench.net.scoreboard().error_count() == 0);
  REQUIRE(bench.net.scoreboard().in_flight() == 0);
}

}  // namespace

TEST_CASE("zero-load: 5x5 torus, every pair, t_s = t_r = 0", "[sc]") {
  zero_load(config_for("5x5", "torus"), {1, 4, 16});
}

TEST_CASE("zero-load: 5x5 torus, every pair, t_s = 7, t_r = 3", "[sc]") {
  zero_load(config_for("5x5", "torus", {{"nic.ts", "7"}, {"nic.tr", "3"}}), {1, 4, 16});
}

TEST_CASE("zero-load: 4x4x4 torus, every pair, tie bits, t_s = 0, t_r = 0", "[sc]") {
  zero_load(config_for("4x4x4", "torus"), {1, 5, 9});
}

TEST_CASE("zero-load: 4x4x4 torus, R = 2, Ld = 1, V = 2, t_s = 5, t_r = 2", "[sc]") {
  zero_load(config_for("4x4x4", "torus",
                       {{"router.router_delay", "2"}, {"router.link_delay", "1"}, {"router.vcs_per_class", "2"},
                        {"nic.ts", "5"}, {"nic.tr", "2"}}),
            {1, 5, 9});
}

// B = 8: an injection channel's delay lengthens the NIC's credit loop, and a packet longer than
// the local buffer would wait for a credit (as with any channel whose round trip exceeds B).
TEST_CASE("zero-load: 4x4x4 torus, injection delay 2 and ejection delay 3 add 5 cycles to every pair", "[sc]") {
  zero_load(config_for("4x4x4", "torus",
                       {{"router.injection_delay", "2"}, {"router.ejection_delay", "3"}, {"router.router_delay", "2"},
                        {"router.buffer_depth", "8"}, {"nic.ts", "1"}}),
            {1, 5});
}

TEST_CASE("zero-load: 8x8 torus under the booksim-iq preset (R 4, Ld 1, Di 1, De 1)", "[sc]") {
  zero_load(config_for("8x8", "torus",
                       {{"router.preset", "booksim-iq"}, {"router.vcs_per_class", "2"}, {"router.buffer_depth", "8"}}),
            {1, 5});
}

TEST_CASE("zero-load: 4x4x4 torus under min-adaptive routing: minimal routes, the same latency", "[sc]") {
  zero_load(config_for("4x4x4", "torus", {{"router.routing", "min-adaptive"}, {"router.buffer_depth", "8"}}), {1, 5});
}

// Valiant (docs/router.md section 13): every pair's latency is that of its two-phase path, whose
// hops are checked one by one (phase 1 to the drawn intermediate node on the first VC set, phase 2
// on the second); the intermediate node is any node, the source and the destination included.
TEST_CASE("zero-load: 4x4x4 torus under valiant routing: the latency of the path through the intermediate node", "[sc]") {
  zero_load(config_for("4x4x4", "torus", {{"router.routing", "valiant"}, {"router.buffer_depth", "8"}}), {1, 5});
}

TEST_CASE("zero-load: 5x5 torus under valiant routing with R = 2 and Ld = 1 and V = 2 and seed 7", "[sc]") {
  zero_load(config_for("5x5", "torus",
                       {{"router.routing", "valiant"}, {"router.router_delay", "2"}, {"router.link_delay", "1"},
                        {"router.vcs_per_class", "2"}, {"sim.seed", "7"}, {"nic.ts", "3"}, {"nic.tr", "2"}}),
            {1, 4});
}

TEST_CASE("zero-load: 6x4 mesh under valiant routing: one class per phase", "[sc]") {
  zero_load(config_for("6x4", "mesh", {{"router.routing", "valiant"}}), {1, 5});
}

TEST_CASE("zero-load: 8x8 mesh, every pair, t_s = 3, t_r = 4", "[sc]") {
  zero_load(config_for("8x8", "mesh", {{"nic.ts", "3"}, {"nic.tr", "4"}}), {1, 5, 12});
}

TEST_CASE("zero-load: 8x8 mesh one-port multi-packet messages with 2 VCs", "[sc]") {
  zero_load(config_for("8x8", "mesh",
                       {{"router.local_ports", "one"}, {"router.vcs_per_class", "2"}, {"nic.max_packet", "4"}, {"nic.ts", "2"}}),
            {3, 4, 13});
}

// With a single VC a packet boundary costs one cycle at the first router: the output VC is free
// again only when the previous tail's credit is back (docs/router.md section 7).
TEST_CASE("zero-load: 8x8 mesh one-port multi-packet messages with 1 VC add one cycle per boundary", "[sc]") {
  zero_load(config_for("8x8", "mesh", {{"router.local_ports", "one"}, {"nic.max_packet", "4"}, {"nic.ts", "2"}}),
            {3, 4, 13}, 1);
}
