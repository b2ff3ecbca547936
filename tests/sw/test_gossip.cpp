// Gossip schedules: every generator's schedule gives all chunks to every node, only forwards
// held chunks and never uses a directed link twice in a step; Lemma 4 exact; the diagonals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>

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

namespace {

bool has_error(const Verdict& v, const std::string& line) {
  return std::find(v.errors.begin(), v.errors.end(), line) != v.errors.end();
}

bool has_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("gossip verifier: corrupted schedules on a ring of 200 and a 13x13 torus fail, the fault named", "[sw]") {
  // Chunk ids past 64 and sets of the whole line (Approach 2 disseminates everything), coordinates
  // of two dimensions and two colours (HIGH-DIM-GOS' with CIRCGOS), one-port (Approach 1).
  LineSpec circ;
  circ.algo = LineAlgo::Circgos;
  circ.circ = CircParams::from_ab(3, 1);
  GossipSpec one_port = ring_spec(GossipAlgo::Approach1);
  one_port.ports = PortModel::OnePort;
  const std::pair<Topology, GossipSpec> cases[] = {
      {ring(200), ring_spec(GossipAlgo::Approach2)}, {torus(13, 2), high_dim(2, circ)}, {ring(200), one_port}};
  for (const auto& [t, spec] : cases) {
    CAPTURE(describe(t), gossip_algo_name(spec.algo));
    VerifyOptions o;
    o.one_port = spec.ports == PortModel::OnePort;
    const Schedule good = generate_gossip(t, spec).schedule;
    const Verdict ok = verify(good, o);
    REQUIRE(ok.ok());
    const int nodes = t.num_nodes(), per = good.chunks_per_node, total = nodes * per;
    const size_t last = good.unicasts.size() - 1;

    // A send of a chunk its sender does not hold yet: the first unicast also carries the chunk of
    // the node half the network away.
    {
      Schedule s = good;
      Unicast& u = s.unicasts[0];
      const int chunk = ((u.src + nodes / 2) % nodes) * per;
      REQUIRE_FALSE(u.chunks.contains(chunk));
      u.chunks.add(chunk);
      const Verdict v = verify(s, o);
      INFO(format_verdict(s, v));
      REQUIRE_FALSE(v.ok());
      REQUIRE_FALSE(v.chunk_causal);
      REQUIRE(v.chunk_causality_violations == 1);
      REQUIRE(v.complete);
      REQUIRE(v.stepwise_contention_free);
      REQUIRE(has_error(v, "step " + std::to_string(u.step) + ": " + format_node(t, u.src) + " sends chunk " +
                               std::to_string(chunk) + " (of node " + format_node(t, chunk / per) + ") to " +
                               format_node(t, u.dst) + " before it holds it"));
      const std::string text = format_verdict(s, v);
      REQUIRE(has_text(text, "a node only sends chunks it holds: NO (1 unicasts)\n"));
      REQUIRE(has_text(text, "verdict: FAIL"));
    }

    // A lost delivery: without the last unicast its receiver ends short of what it would get.
    {
      Schedule s = good;
      const Unicast lost = s.unicasts[last];
      REQUIRE(lost.step == s.num_steps);
      s.unicasts.pop_back();
      ChunkSet left;
      for (int c = 0; c < per; ++c) left.add(lost.dst * per + c);
      for (const Unicast& u : s.unicasts)
        if (u.dst == lost.dst) left.add(u.chunks);
      REQUIRE(left.count() < total);
      const Verdict v = verify(s, o);
      INFO(format_verdict(s, v));
      REQUIRE_FALSE(v.ok());
      REQUIRE_FALSE(v.complete);
      REQUIRE(v.incomplete_nodes == 1);
      REQUIRE(v.chunk_causal);
      REQUIRE(has_error(v, "node " + format_node(t, lost.dst) + " ends with " + std::to_string(left.count()) + " of " +
                               std::to_string(total) + " chunks"));
      REQUIRE(has_text(format_verdict(s, v), "every node holds all " + std::to_string(total) + " chunks: NO (1 nodes short)\n"));
    }

    // A unicast sent twice: the copy meets the original on every link of its path in the same
    // step; its chunks count as repeated deliveries; one-port, its sender sends and its receiver
    // receives two messages in the step.
    {
      Schedule s = good;
      const size_t i = good.unicasts.size() / 2;
      const Unicast u = s.unicasts[i];
      s.unicasts.push_back(u);
      const Verdict v = verify(s, o);
      INFO(format_verdict(s, v));
      REQUIRE_FALSE(v.ok());
      REQUIRE_FALSE(v.stepwise_contention_free);
      const std::vector<Arc> path = unicast_path(t, u);
      REQUIRE(v.stepwise_conflicts == int(path.size()));
      const UnicastPair first{int(i), int(last + 1), path.front()};
      REQUIRE(describe_pair(s, v.first_stepwise_conflict) == describe_pair(s, first));
      REQUIRE(has_error(v, "stepwise conflict: step " + std::to_string(u.step) + " " + format_node(t, u.src) + "->" +
                               format_node(t, u.dst) + " and step " + std::to_string(u.step) + " " + format_node(t, u.src) +
                               "->" + format_node(t, u.dst) + " share arc " + format_node(t, path.front().node) + " " +
                               format_port(path.front().port)));
      REQUIRE(v.repeated_chunks == ok.repeated_chunks + u.chunks.count());
      REQUIRE(v.complete);
      REQUIRE(v.chunk_causal);
      if (o.one_port) {
        REQUIRE_FALSE(v.one_port);
        REQUIRE(v.one_port_violations == 2);
        REQUIRE(has_error(v, "one-port: node " + format_node(t, u.src) + " sends more than one message in step " +
                                 std::to_string(u.step)));
        REQUIRE(has_error(v, "one-port: node " + format_node(t, u.dst) + " receives more than one message in step " +
                                 std::to_string(u.step)));
      }
    }

    // A unicast outside the steps: nothing else is evaluated.
    {
      Schedule s = good;
      s.unicasts[last].step = s.num_steps + 1;
      const Verdict v = verify(s, o);
      REQUIRE_FALSE(v.ok());
      REQUIRE_FALSE(v.steps_valid);
      REQUIRE(has_error(v, "unicast " + std::to_string(last) + " has an invalid node or step"));
    }
  }
}
