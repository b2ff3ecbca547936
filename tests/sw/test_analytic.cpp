// Analytic backend: Hou, Wang and Hsu's closed forms for DCF and EDN, and the timing rules one by one.
#include <catch2/catch.hpp>

#include "sw/broadcast/broadcast.h"
#include "tests/sw/schedule_helpers.h"
#include "sw/schedule/analytic.h"

using namespace wormcast::sw;
using namespace wormcast::sw::test;

namespace {

AnalyticParams paper(uint64_t ts, uint64_t tr) {
  AnalyticParams p;
  p.model = TimingModel::Paper;
  p.t_s = ts;
  p.t_r = tr;
  p.t_c = 1;
  p.c = 0;
  return p;
}

/// n = 4^k or 2*4^k -> (k, prime).
std::pair<long long, bool> dcf_k(int n) {
  long long k = 0;
  int m = n;
  while (m >= 4 && m % 4 == 0) {
    m /= 4;
    ++k;
  }
  return {m == 2 ? k : k, m == 2};
}

long long pow4(long long e) {
  long long r = 1;
  while (e--) r *= 4;
  return r;
}

/// Hou, Wang and Hsu Sec. 6.1 hop term: 4(4^k-1)/3 on 4^k, 2(4^(k+1)-1)/3 on 2*4^k.
long long seed_hops(int n) {
  auto [k, prime] = dcf_k(n);
  return prime ? 2 * (pow4(k + 1) - 1) / 3 : 4 * (pow4(k) - 1) / 3;
}

long long dcf_closed(int n, long long ts, long long tr, long long L) {
  auto [k, prime] = dcf_k(n);
  if (prime) return (5 * k + 3) * ts + seed_hops(n) + (2 * k + 1) * (L + tr);
  return 5 * k * ts + seed_hops(n) + 2 * k * (L + tr);
}

long long edn_closed(int n, long long ts, long long tr, long long L) {
  auto [k, prime] = dcf_k(n);
  if (prime) return 3 * (2 * k + 1) * ts + seed_hops(n) + (2 * k + 1) * (L + tr);
  return 6 * k * ts + seed_hops(n) + 2 * k * (L + tr);
}

/// A program that sends a fixed list at start or on its first receive and records receipts.
class ScriptProgram final : public NodeProgram {
 public:
  struct Send {
    int dst;
    uint32_t len;
    bool tie_negative;
  };
  std::vector<Send> at_start, on_first;
  std::vector<std::pair<uint64_t, Delivery>> seen;  // (now() in the callback, delivery)

  void on_start(NodeApi& api) override { fire(api, at_start); }
  void on_receive(NodeApi& api, const Delivery& d) override {
    seen.push_back({api.now(), d});
    if (seen.size() == 1) fire(api, on_first);
  }

 private:
  static void fire(NodeApi& api, const std::vector<Send>& list) {
    for (const Send& s : list) {
      SendOptions o;
      o.tie_negative = s.tie_negative;
      api.send(s.dst, s.len, o);
    }
  }
};

std::vector<NodeProgram*> slots(const Topology& t, std::vector<std::pair<int, ScriptProgram*>> progs) {
  std::vector<NodeProgram*> v(size_t(t.num_nodes()), nullptr);
  for (auto& p : progs) v[size_t(p.first)] = p.second;
  return v;
}

}  // namespace

TEST_CASE("analytic: DCF reproduces Hou, Wang and Hsu's closed forms (tabled values)", "[sw]") {
  auto [n, ts, L, expect] = GENERATE(table<int, int, int, long long>({
      {4, 0, 32, 68},      {4, 200, 32, 1468},   {4, 200, 1024, 3452},
      {16, 0, 32, 148},    {16, 200, 32, 2948},  {16, 200, 1024, 6916},
      {64, 0, 32, 276},    {64, 200, 32, 4476},  {64, 200, 1024, 10428},
      {8, 0, 32, 106},     {8, 200, 32, 2306},   {32, 0, 32, 202},
      {32, 200, 32, 3802}, {128, 0, 32, 394},    {128, 200, 32, 5394},
  }));
  CAPTURE(n, ts, L);
  REQUIRE(dcf_closed(n, ts, ts, L) == expect);
  const AnalyticResult r = run_schedule_analytic(dcf_broadcast(square(n), 0), uint32_t(L), paper(ts, ts));
  REQUIRE(r.all_received(0));
  REQUIRE((long long)r.latency == expect);
  REQUIRE(r.overlapping_pairs == 0);
}

TEST_CASE("analytic: DCF matches the closed form for other t_s, t_r, L and sources", "[sw]") {
  auto [ts, tr, L] = GENERATE(table<int, int, int>({{0, 0, 1}, {7, 3, 1}, {1, 0, 64}, {200, 0, 64},
                                                    {0, 200, 256}, {50, 20, 1024}, {200, 200, 1}}));
  for (int n : {4, 8, 16, 32}) {
    CAPTURE(n, ts, tr, L);
    const Topology t = square(n);
    const AnalyticResult r =
        run_schedule_analytic(dcf_broadcast(t, t.node(Coord{{n - 1, 2}})), uint32_t(L), paper(ts, tr));
    REQUIRE((long long)r.latency == dcf_closed(n, ts, tr, L));
    REQUIRE(r.overlapping_pairs == 0);
  }
}

TEST_CASE("analytic: EDN reproduces the closed form's software and length terms", "[sw]") {
  // The EDN-Z stand-in's critical chain (every step's third, 2m-hop target) has 2(n-1) hops; the
  // seed charges EDN the DCF hop sum. Everything else — 3 t_s per step, L and t_r per step —
  // matches exactly, so the difference is (2(n-1) - seed hops) * t_c for every t_s, t_r and L.
  auto [n, ts, L, seed_value] = GENERATE(table<int, int, int, long long>({
      {4, 200, 32, 1668}, {16, 200, 32, 3348}, {64, 200, 32, 5076}, {8, 200, 32, 2506},
      {32, 200, 32, 4202}, {4, 0, 32, 68},     {16, 0, 32, 148},    {64, 0, 32, 276},
      {8, 0, 32, 106},     {32, 0, 32, 202},
  }));
  CAPTURE(n, ts, L);
  REQUIRE(edn_closed(n, ts, ts, L) == seed_value);
  const AnalyticResult r = run_schedule_analytic(edn_broadcast(square(n), 0), uint32_t(L), paper(ts, ts));
  REQUIRE(r.all_received(0));
  REQUIRE((long long)r.latency == seed_value - seed_hops(n) + 2 * (n - 1));
}

TEST_CASE("analytic: with t_c = 0 EDN's closed form is met exactly", "[sw]") {
  for (int n : {4, 8, 16, 32, 64}) {
    CAPTURE(n);
    AnalyticParams p = paper(200, 150);
    p.t_c = 0;
    const AnalyticResult r = run_schedule_analytic(edn_broadcast(square(n), 0), 32, p);
    auto [k, prime] = dcf_k(n);
    const long long steps = prime ? 2 * k + 1 : 2 * k;
    REQUIRE((long long)r.latency == 3 * steps * 200 + steps * 150);
  }
}

TEST_CASE("analytic: DCF 4x4 step-1 receivers at i*t_s + h + L + t_r", "[sw]") {
  const Topology t = square(4);
  const AnalyticResult r = run_schedule_analytic(dcf_broadcast(t, 0), 32, paper(200, 100));
  auto when = [&](int x, int y) { return r.first_visible[size_t(t.node(Coord{{x, y}}))]; };
  REQUIRE(when(2, 1) == 200 + 3 + 32 + 100);      // A
  REQUIRE(when(0, 2) == 400 + 2 + 32 + 100);      // B
  REQUIRE(when(3, 3) == 600 + 2 + 32 + 100);      // C
  REQUIRE(when(0, 3) == 800 + 1 + 32 + 100);      // D
  REQUIRE(when(1, 0) == 1000 + 1 + 32 + 100);     // S's step-2 send, after its 4 step-1 sends
  REQUIRE(r.first_visible[0] == -1);
  REQUIRE(r.messages.size() == 15);
}

TEST_CASE("analytic: model mode is the router contract's zero-load latency", "[sw]") {
  auto [R, Ld, h, L] = GENERATE(table<int, int, int, int>({{1, 0, 1, 1}, {1, 0, 6, 32}, {2, 1, 3, 5}, {4, 1, 7, 64}}));
  const Topology t = parse_net("torus:16x16");
  AnalyticParams p;
  p.model = TimingModel::Model;
  p.router_delay = uint64_t(R);
  p.link_delay = uint64_t(Ld);
  p.t_s = 30;
  p.t_r = 11;
  ScriptProgram src, dst;
  const int to = t.node(Coord{{h <= 8 ? h : 8, h <= 8 ? 0 : h - 8}});
  src.at_start.push_back({to, uint32_t(L), false});
  AnalyticBackend b(t, p);
  const AnalyticResult r = b.run(slots(t, {{0, &src}, {to, &dst}}));
  REQUIRE(r.messages.size() == 1);
  REQUIRE(r.messages[0].hops == h);
  // T = s + t_s + (h+1)R + h*Ld + L + t_r with s = 0.
  const uint64_t expect = 30 + uint64_t((h + 1) * R + h * Ld + L) + 11;
  REQUIRE(r.messages[0].visible == expect);
  REQUIRE(r.first_visible[size_t(to)] == int64_t(expect));
  REQUIRE(dst.seen.size() == 1);
  REQUIRE(dst.seen[0].first == expect);
  REQUIRE(dst.seen[0].second.arrival == expect - 11);
  REQUIRE(dst.seen[0].second.src == 0);
}

TEST_CASE("analytic: model mode equals paper mode with c = 1", "[sw]") {
  for (BroadcastAlgo a : {BroadcastAlgo::Dcf, BroadcastAlgo::Edn, BroadcastAlgo::Tseng}) {
    const Schedule s = generate_broadcast(a, square(16), 5);
    AnalyticParams model;
    model.t_s = 40;
    model.t_r = 25;
    AnalyticParams pap = paper(40, 25);
    pap.c = 1;
    const AnalyticResult rm = run_schedule_analytic(s, 48, model);
    const AnalyticResult rp = run_schedule_analytic(s, 48, pap);
    REQUIRE(rm.first_visible == rp.first_visible);
    REQUIRE(rm.latency == rp.latency);
  }
}

TEST_CASE("analytic: sends on one injection channel are serialised for L flits", "[sw]") {
  const Topology t = parse_net("torus:8x8");
  ScriptProgram src;
  // Both leave on x+; the third on y+ does not wait.
  src.at_start = {{t.node(Coord{{2, 0}}), 10, false}, {t.node(Coord{{1, 0}}), 10, false},
                  {t.node(Coord{{0, 1}}), 10, false}};
  AnalyticParams p;  // model mode, t_s = 0
  AnalyticBackend b(t, p);
  const AnalyticResult r = b.run(slots(t, {{0, &src}}));
  REQUIRE(r.messages[0].injected == 0);
  REQUIRE(r.messages[1].injected == 10);
  REQUIRE(r.messages[2].injected == 0);
  REQUIRE(r.overlapping_pairs == 0);  // the second follows the first on arc (0,0) x+

  p.ports = PortModel::OnePort;
  AnalyticBackend one(t, p);
  ScriptProgram again = src;
  const AnalyticResult r1 = one.run(slots(t, {{0, &again}}));
  REQUIRE(r1.messages[2].injected == 20);
}

TEST_CASE("analytic: t_s per send and t_r per receive along a chain", "[sw]") {
  const Topology t = parse_net("torus:8x8");
  const int a = t.node(Coord{{1, 0}}), b = t.node(Coord{{2, 0}}), c = t.node(Coord{{0, 1}});
  AnalyticParams p;
  p.t_s = 100;
  p.t_r = 5;
  ScriptProgram src, na, nb, nc;
  src.at_start = {{a, 4, false}};
  // a forwards to b and c (t_s each); b answers a at once, before a's second send is done.
  na.on_first = {{b, 4, false}, {c, 4, false}};
  nb.on_first = {{a, 4, false}};
  AnalyticBackend be(t, p);
  const AnalyticResult r = be.run(slots(t, {{0, &src}, {a, &na}, {b, &nb}, {c, &nc}}));
  const uint64_t a_sees = 100 + 2 + 4 + 5;        // 111
  const uint64_t b_sees = a_sees + 100 + 2 + 4 + 5;  // 222
  REQUIRE(na.seen[0].first == a_sees);
  REQUIRE(nb.seen[0].first == b_sees);
  // b's reply is visible at a at b_sees + 111 = 333, after a's two sends (busy until 311).
  REQUIRE(na.seen.size() == 2);
  REQUIRE(na.seen[1].first == b_sees + 111);
  REQUIRE(r.receive_count[size_t(a)] == 2);
  REQUIRE(r.last_visible == b_sees + 111);
  // c is 2 hops from a and gets a's second send: a_sees + 2 t_s + (2+1) + 4 + t_r = 323.
  REQUIRE(r.first_visible[size_t(c)] == int64_t(a_sees + 200 + 3 + 4 + 5));
  REQUIRE(r.latency == a_sees + 200 + 3 + 4 + 5);
}

TEST_CASE("analytic: a delivery arriving while the processor is busy runs when it is free", "[sw]") {
  const Topology t = parse_net("torus:8x8");
  const int a = t.node(Coord{{1, 0}}), far = t.node(Coord{{4, 4}});
  AnalyticParams p;
  p.t_s = 1000;
  ScriptProgram src, na, nf;
  src.at_start = {{a, 1, false}, {far, 1, false}};
  na.on_first = {{far, 1, false}, {far, 1, false}, {far, 1, false}};
  nf.on_first = {{a, 1, false}};
  AnalyticBackend be(t, p);
  be.run(slots(t, {{0, &src}, {a, &na}, {far, &nf}}));
  // a sees the source's message at 1000 + 2 + 1 = 1003 and sends to far at 2003, 3003, 4003
  // (7 hops: visible 2012, 3012, 4012). far first sees the source's own send (injected 2000,
  // 8 hops: 2010) and replies, which keeps its processor busy until 3010.
  REQUIRE(na.seen[0].first == 1003);
  REQUIRE(nf.seen.size() == 4);
  REQUIRE(nf.seen[0].first == 2010);
  REQUIRE(nf.seen[1].second.visible == 2012);
  REQUIRE(nf.seen[1].first == 3010);  // deferred until the processor is free
  REQUIRE(nf.seen[2].first == 3012);  // not deferred
}

TEST_CASE("analytic: link overlap is counted, not simulated", "[sw]") {
  const Topology t = parse_net("torus:8x8");
  // (0,0)->(3,0) and (1,0)->(2,0) both use arc (1,0) x+, at overlapping times.
  ScriptProgram p0, p1;
  p0.at_start = {{t.node(Coord{{3, 0}}), 20, false}};
  p1.at_start = {{t.node(Coord{{2, 0}}), 20, false}};
  AnalyticParams p;
  AnalyticBackend b(t, p);
  const AnalyticResult r = b.run(slots(t, {{0, &p0}, {1, &p1}}));
  REQUIRE(r.overlapping_pairs == 1);
  REQUIRE(r.messages[0].visible == 0 + 4 + 20);  // no contention modelled
  REQUIRE(r.messages[1].visible == 0 + 2 + 20);

  // Far enough apart in time (the second sender's t_s delays it past the first's tail).
  AnalyticParams later = p;
  ScriptProgram q0 = p0, q1 = p1;
  q1.at_start.insert(q1.at_start.begin(), {t.node(Coord{{1, 1}}), 1, false});  // y+, 1 flit
  later.t_s = 30;
  AnalyticBackend b2(t, later);
  const AnalyticResult r2 = b2.run(slots(t, {{0, &q0}, {1, &q1}}));
  REQUIRE(r2.overlapping_pairs == 0);
}

TEST_CASE("analytic: EDN shows link overlap where DCF shows none", "[sw]") {
  const AnalyticResult edn = run_schedule_analytic(edn_broadcast(square(16), 0), 64, paper(0, 0));
  const AnalyticResult dcf = run_schedule_analytic(dcf_broadcast(square(16), 0), 64, paper(0, 0));
  REQUIRE(edn.overlapping_pairs > 0);
  REQUIRE(dcf.overlapping_pairs == 0);
}
