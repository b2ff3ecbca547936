// Node runtime: program tables built from schedules and the ScheduleProgram that executes them.
#include <catch2/catch.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/program_image.h"

using namespace wormcast::sw;

namespace {

/// A NodeApi that only records what the program asked for.
class RecordingApi final : public NodeApi {
 public:
  RecordingApi(const Topology& t, int self) : m_t(t), m_self(self) {}
  int self() const override { return m_self; }
  const Topology& topology() const override { return m_t; }
  uint64_t now() const override { return 0; }
  void send(int dst, uint32_t length, const SendOptions& o) override {
    sent.push_back({dst, length, o.tag, o.tie_negative});
  }
  struct Sent {
    int dst;
    uint32_t length;
    uint32_t tag;
    bool tie;
  };
  std::vector<Sent> sent;

 private:
  Topology m_t;
  int m_self;
};

}  // namespace

TEST_CASE("program image: each node's sends in (step, order), source triggered at start", "[sw]") {
  const Topology t = parse_net("torus:4x4");
  const Schedule s = dcf_broadcast(t, 5);
  const ProgramImage img(s);
  REQUIRE(img.num_nodes() == 16);
  REQUIRE(img.entries().size() == 15);
  REQUIRE(sizeof(SendEntry) == 8);
  for (int node = 0; node < 16; ++node) {
    const NodeTable tab = img.table(node);
    std::vector<const Unicast*> mine;
    for (const Unicast& u : s.unicasts)
      if (u.src == node) mine.push_back(&u);
    std::sort(mine.begin(), mine.end(), [](const Unicast* a, const Unicast* b) {
      return std::make_pair(a->step, a->order) < std::make_pair(b->step, b->order);
    });
    REQUIRE(tab.count == mine.size());
    for (uint32_t i = 0; i < tab.count; ++i) {
      REQUIRE(int(tab.sends[i].dst) == mine[i]->dst);
      REQUIRE(tab.sends[i].step == mine[i]->step);
      REQUIRE(tab.sends[i].trigger == (node == 5 ? 0 : 1));
    }
  }
}

TEST_CASE("schedule program: the source sends at start, others once on their first receive", "[sw]") {
  const Topology t = parse_net("torus:4x4");
  const Schedule s = edn_broadcast(t, 0);
  const ProgramImage img(s);
  std::vector<ScheduleProgram> progs = img.make_programs(17);

  RecordingApi src_api(t, 0);
  progs[0].on_start(src_api);
  REQUIRE(src_api.sent.size() == 6);  // 3 in step 1, 3 in step 2
  REQUIRE(src_api.sent[0].dst == t.node(Coord{{2, 0}}));
  REQUIRE(src_api.sent[2].tie);  // the top step's third target
  REQUIRE(src_api.sent[2].tag == 1);
  REQUIRE(src_api.sent[3].tag == 2);
  REQUIRE(src_api.sent[5].length == 17);
  REQUIRE(progs[0].done());

  const int b = t.node(Coord{{2, 0}});
  RecordingApi b_api(t, b);
  progs[size_t(b)].on_start(b_api);
  REQUIRE(b_api.sent.empty());
  REQUIRE_FALSE(progs[size_t(b)].done());
  Delivery d;
  d.src = 0;
  progs[size_t(b)].on_receive(b_api, d);
  REQUIRE(b_api.sent.size() == 3);
  REQUIRE(progs[size_t(b)].done());
  progs[size_t(b)].on_receive(b_api, d);  // a second copy triggers nothing
  REQUIRE(b_api.sent.size() == 3);
  REQUIRE(progs[size_t(b)].received() == 2);
}

TEST_CASE("schedule program: a send with trigger r waits for the r-th receive", "[sw]") {
  const Topology t = parse_net("torus:4x4");
  const SendEntry table[] = {{1, 1, 1, 0}, {2, 2, 2, SendEntry::kTieNegative}, {3, 2, 2, 0}};
  ScheduleProgram prog(NodeTable{table, 3}, 4);
  RecordingApi api(t, 0);
  prog.on_start(api);
  REQUIRE(api.sent.empty());
  prog.on_receive(api, Delivery{});
  REQUIRE(api.sent.size() == 1);
  prog.on_receive(api, Delivery{});
  REQUIRE(api.sent.size() == 3);
  REQUIRE(api.sent[1].tie);
  REQUIRE(api.sent[2].dst == 3);
  REQUIRE(prog.done());
}

TEST_CASE("schedule program: every generator delivers exactly once on the analytic backend", "[sw]") {
  auto [algo, text] = GENERATE(table<BroadcastAlgo, const char*>({
      {BroadcastAlgo::Dcf, "torus:8x8"},
      {BroadcastAlgo::Edn, "torus:8x8"},
      {BroadcastAlgo::Tseng, "torus:7x7"},
      {BroadcastAlgo::WangTseng, "torus:5x5x5"},
      {BroadcastAlgo::WangTseng, "torus:4x4x4x4"},
      {BroadcastAlgo::RecursiveDoubling, "torus:6x5x3"},
      {BroadcastAlgo::Sequential, "torus:4x4"},
  }));
  CAPTURE(text);
  const Topology t = parse_net(text);
  const int src = t.num_nodes() / 3;
  const Schedule s = generate_broadcast(algo, t, src);
  AnalyticParams p;
  p.t_s = 20;
  p.t_r = 10;
  const AnalyticResult r = run_schedule_analytic(s, 8, p);
  REQUIRE(r.all_received(src));
  REQUIRE(r.messages.size() == size_t(t.num_nodes() - 1));
  for (int x = 0; x < t.num_nodes(); ++x) REQUIRE(r.receive_count[size_t(x)] == (x == src ? 0u : 1u));
  REQUIRE(r.latency == r.last_visible);
}
