// Gossip schedules: every generator's schedule gives all chunks to every node, only forwards
// held chunks and never uses a directed link twice in a step; Lemma 4 exact; the diagonals.
#include <catch2/catch.hpp>

#include <string>

#include "sw/gossip/gossip.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/verify.h"
#include "tests/sw/gossip_helpers.h"

using namespace wormcast::sw;

namespace {

using test::require_valid;

Topology ring(int n) { return test::cube("torus", n, 1); }

GossipSpec ring_spec(GossipAlgo a, int a1 = 3, int b = 1) { return test::gossip_spec(a, a1, b); }

}  // namespace

TEST_CASE("gossip verifier: Approach 1 and 2 on rings 2..40 are complete, causal, overlap-free", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    require_valid(generate_gossip(ring(n), ring_spec(GossipAlgo::Approach1)).schedule);
    require_valid(generate_gossip(ring(n), ring_spec(GossipAlgo::Approach2)).schedule);
  }
}

TEST_CASE("gossip verifier: CIRCGOS on rings and linear arrays 2..40 for every a and several b", "[sw]") {
  for (const char* kind : {"torus", "mesh"})
    for (int n = 2; n <= 40; ++n)
      for (int a = 2; a <= n; ++a)
        for (int b : {a / 2, a / 2 + 1, a - 1, a + 2}) {
          if (2 * b - a + 2 < 1) continue;
          CAPTURE(kind, n, a, b);
          require_valid(generate_gossip(test::cube(kind, n, 1), ring_spec(GossipAlgo::Circgos, a, b)).schedule);
        }
}

namespace {
Topology torus(int n, int d) { return test::cube("torus", n, d); }
GossipSpec high_dim(int d, LineSpec phase, bool coloured = true) {
  GossipSpec s;
  s.algo = GossipAlgo::HighDimGos;
  s.coloured = coloured;
  s.phases.assign(size_t(d), phase);
  return s;
}
GossipSpec diagonal(GossipAlgo a, int a1, int b, bool coloured) { return test::gossip_spec(a, a1, b, coloured); }
}  // namespace

TEST_CASE("gossip diagonal: projecting eq. 4's diagonal along any axis is a bijection, d = 2..5", "[sw]") {
  for (int d = 2; d <= 5; ++d)
    for (int n : {2, 3, 4, 5, 6, 9}) {
      if (d == 5 && n > 6) continue;
      CAPTURE(d, n);
      long long total = 1;
      for (int i = 0; i < d; ++i) total *= n;
      for (int axis = 0; axis < d; ++axis) {
        // Every point of the (d-1)-dimensional face is hit exactly once.
        std::vector<int> hits(static_cast<size_t>(total / n), 0);
        std::vector<int> x(static_cast<size_t>(d));
        for (long long id = 0; id < total; ++id) {
          long long v = id, face = 0, mul = 1;
          for (int i = 0; i < d; ++i) {
            x[size_t(i)] = int(v % n);
            v /= n;
            if (i != axis) {
              face += x[size_t(i)] * mul;
              mul *= n;
            }
          }
          if (on_generalized_diagonal(x, n)) ++hits[size_t(face)];
        }
        for (int h : hits) REQUIRE(h == 1);
      }
    }
}

TEST_CASE("gossip verifier: Approach i-j and HIGH-DIM-GOS with CIRCGOS on tori 3x3..12x12", "[sw]") {
  LineSpec a1, a2, c;
  a1.algo = LineAlgo::Approach1;
  a2.algo = LineAlgo::Approach2;
  c.algo = LineAlgo::Circgos;
  for (int n = 3; n <= 12; ++n) {
    CAPTURE(n);
    for (bool coloured : {true, false}) {
      require_valid(generate_gossip(torus(n, 2), high_dim(2, a1, coloured)).schedule);
      GossipSpec s21 = high_dim(2, a1, coloured);
      s21.phases[0] = a2;
      require_valid(generate_gossip(torus(n, 2), s21).schedule);
      require_valid(generate_gossip(torus(n, 2), high_dim(2, a2, coloured)).schedule);
    }
    c.circ = CircParams::from_ab(std::min(n, 3), 1);
    require_valid(generate_gossip(torus(n, 2), high_dim(2, c)).schedule);
  }
  for (int n = 3; n <= 5; ++n) {
    CAPTURE(n);
    require_valid(generate_gossip(torus(n, 3), high_dim(3, a1)).schedule);
    require_valid(generate_gossip(torus(n, 3), high_dim(3, a2)).schedule);
  }
}

TEST_CASE("gossip verifier: TORGOS and TORGOS' on tori 3x3..12x12 for every a dividing n", "[sw]") {
  for (int n = 3; n <= 12; ++n)
    for (int a = 2; a <= n; ++a) {
      if (n % a) continue;
      for (int b : {a / 2, a / 2 + 1, a})
        for (bool coloured : {false, true}) {
          if (2 * b - a + 2 < 1) continue;
          CAPTURE(n, a, b, coloured);
          require_valid(generate_gossip(torus(n, 2), diagonal(GossipAlgo::Torgos, a, b, coloured)).schedule);
          if (b == a / 2) require_valid(generate_gossip(torus(n, 2), diagonal(GossipAlgo::Cubgos, a, b, coloured)).schedule);
        }
    }
}

TEST_CASE("gossip verifier: CUBGOS and CUBGOS' on tori 3x3x3..5x5x5 and 4x4x4x4", "[sw]") {
  for (int n = 3; n <= 5; ++n)
    for (int a = 2; a <= n; ++a) {
      if (n % a) continue;
      for (int b : {a / 2, a / 2 + 1})
        for (bool coloured : {false, true}) {
          CAPTURE(n, a, b, coloured);
          require_valid(generate_gossip(torus(n, 3), diagonal(GossipAlgo::Cubgos, a, b, coloured)).schedule);
        }
    }
  require_valid(generate_gossip(torus(4, 4), diagonal(GossipAlgo::Cubgos, 2, 1, true)).schedule);
  require_valid(generate_gossip(torus(6, 3), diagonal(GossipAlgo::Cubgos, 3, 2, true)).schedule);
}

#include "sw/schedule/analytic.h"
#include "sw/schedule/program_image.h"

TEST_CASE("gossip program image: generic node programs run a gossip schedule on the analytic backend", "[sw]") {
  for (GossipAlgo algo : {GossipAlgo::Approach1, GossipAlgo::Approach2, GossipAlgo::Circgos}) {
    const GossipSchedule g = generate_gossip(ring(9), ring_spec(algo, 3, 1));
    const ProgramImage image(g.schedule);
    // Each send waits for the receipts of earlier steps; lengths follow the chunk counts.
    AnalyticParams p;
    const AnalyticResult r = run_schedule_analytic(g.schedule, 8, p);
    CAPTURE(gossip_algo_name(algo));
    REQUIRE(r.messages.size() == g.schedule.unicasts.size());
    size_t flits = 0, expect = 0;
    for (const MessageRecord& m : r.messages) flits += m.length;
    for (const Unicast& u : g.schedule.unicasts) expect += size_t(8 * u.chunks.count());
    REQUIRE(flits == expect);
    for (int x = 0; x < 9; ++x) REQUIRE(r.receive_count[size_t(x)] > 0);
  }
}

#include "sw/gossip/gossip_run.h"

namespace {

/// Records sends only (the runtime test's pattern).
class StepApi final : public NodeApi {
 public:
  explicit StepApi(const Topology& t) : m_t(t) {}
  int self() const override { return 0; }
  const Topology& topology() const override { return m_t; }
  uint64_t now() const override { return 0; }
  void send(int dst, uint32_t, const SendOptions& o) override { sent.push_back({dst, o.tag}); }
  std::vector<std::pair<int, uint32_t>> sent;

 private:
  Topology m_t;
};

}  // namespace

TEST_CASE("gossip program: a later step's receipt never stands in for an earlier one", "[sw]") {
  const SendEntry sends[] = {{1, 1, 0, 0}, {1, 3, 0, 0}};
  const ReceiptStep receipts[] = {{1, 1}, {2, 2}};
  uint16_t counts[2] = {0, 0};
  NodeTable t;
  t.sends = sends;
  t.count = 2;
  t.receipts = receipts;
  t.receipt_steps = 2;
  ScheduleProgram p(t, 4, counts);
  const Topology ring5 = ring(5);
  StepApi api(ring5);
  Delivery d;
  p.on_start(api);
  REQUIRE(api.sent.size() == 1);  // step 1 needs nothing
  d.tag = 2;
  p.on_receive(api, d);
  p.on_receive(api, d);  // both step-2 receipts in, step 1 still missing
  REQUIRE(api.sent.size() == 1);
  p.on_receive(api, d);  // a third step-2 message is not expected
  REQUIRE(p.unexpected() == 1);
  REQUIRE(api.sent.size() == 1);
  d.tag = 1;
  p.on_receive(api, d);
  REQUIRE(api.sent.size() == 2);
  REQUIRE(api.sent[1].second == 3);
  REQUIRE(p.complete_steps() == 2);
  REQUIRE(p.done());
}

TEST_CASE("gossip program image: more than 255 receipts before a send run exactly on the analytic backend", "[sw]") {
  // Approach 1 on a 301-node ring: 150 steps, 2 receipts per step, so the last send waits for 298.
  const GossipSchedule g = generate_gossip(ring(301), ring_spec(GossipAlgo::Approach1, 3, 1));
  const ProgramImage image(g.schedule);
  std::vector<ScheduleProgram> programs = image.make_programs(4);
  std::vector<NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  GossipRunWatch watch(g.schedule, ptrs);
  AnalyticBackend(g.schedule.topology, AnalyticParams{}).run(watch.programs());
  const GossipRunReport r = watch.report();
  REQUIRE(r.ok());
  for (const ScheduleProgram& p : programs) REQUIRE(p.done());
}

TEST_CASE("gossip program image: asynchronous runs of TORGOS', CUBGOS' and HIGH-DIM-GOS' never send early", "[sw]") {
  const std::vector<std::pair<Topology, GossipSpec>> cases = {
      {torus(9, 2), diagonal(GossipAlgo::Torgos, 3, 1, true)},
      {torus(6, 3), diagonal(GossipAlgo::Cubgos, 3, 2, true)},
      {torus(9, 2), GossipSpec{GossipAlgo::HighDimGos, true,
                               {LineSpec{LineAlgo::Approach2, {}}, LineSpec{LineAlgo::Circgos, CircParams::from_ab(3, 1)}}, {}}}};
  for (const auto& [t, spec] : cases) {
    const GossipSchedule g = generate_gossip(t, spec);
    const ProgramImage image(g.schedule);
    for (uint64_t ts : {0, 7, 100}) {
      std::vector<ScheduleProgram> programs = image.make_programs(6);
      std::vector<NodeProgram*> ptrs;
      for (auto& p : programs) ptrs.push_back(&p);
      GossipRunWatch watch(g.schedule, ptrs);
      AnalyticParams ap;
      ap.t_s = ts;
      AnalyticBackend(t, ap).run(watch.programs());
      const GossipRunReport r = watch.report();
      CAPTURE(describe(t), ts, r.errors.empty() ? std::string() : r.errors.front());
      REQUIRE(r.ok());
    }
  }
}

TEST_CASE("gossip verifier: the one-port rule rejects two sends or receipts of a node in a step", "[sw]") {
  // Approach 1 sends left and right in every step: fine all-port, not one-port.
  const Schedule a1 = generate_gossip(ring(5), ring_spec(GossipAlgo::Approach1)).schedule;
  REQUIRE(verify(a1).ok());
  VerifyOptions one;
  one.one_port = true;
  const Verdict v = verify(a1, one);
  REQUIRE(v.one_port_checked);
  REQUIRE_FALSE(v.one_port);
  REQUIRE(v.one_port_violations == 2 * 5 * 2);  // 5 nodes x 2 steps, a send and a receipt clash each
  REQUIRE_FALSE(v.ok());
  // A two-node exchange: each node sends one and receives one.
  Schedule x;
  x.topology = ring(2);
  x.collective = Collective::Gossip;
  x.num_steps = 1;
  Unicast u;
  u.step = 1;
  u.src = 0, u.dst = 1, u.chunks = ChunkSet::single(0);
  x.unicasts.push_back(u);
  u.src = 1, u.dst = 0, u.chunks = ChunkSet::single(1);
  x.unicasts.push_back(u);
  const Verdict w = verify(x, one);
  REQUIRE(w.one_port);
  REQUIRE(w.ok());
}
