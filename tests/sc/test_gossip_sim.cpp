// Gossip schedules as node programs on the cycle-accurate model: where every node's steps are
// alike the measured end equals the step model to the cycle once the model includes what a node
// program pays (serial start-ups, the destination router, t_r); the paper's step model with the
// hop term alone is short by exactly that; every schedule ends with every node holding every chunk.
#include <catch2/catch.hpp>

#include "sw/gossip/gossip.h"
#include "sw/gossip/gossip_run.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/program_image.h"
#include "sw/schedule/verify.h"
#include "tb/run/programs.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Outcome {
  ProgramRun run;
  sw::GossipRunReport watch;
  sw::Schedule schedule;
  uint64_t paper_model = 0, program_model = 0, analytic = 0;
};

sw::LineSpec line(sw::LineAlgo a, int ca = 0, int cb = 0) {
  sw::LineSpec l;
  l.algo = a;
  if (a == sw::LineAlgo::Circgos) l.circ = sw::CircParams::from_ab(ca, cb);
  return l;
}

/// One node's data is `len` flits, t_s = r * len cycles, t_r = 0, R = 1, Ld = 0 (the defaults).
Outcome gossip(const std::string& radix, const sw::GossipSpec& spec, uint32_t len, uint64_t t_s,
               const std::string& ports = "all") {
  const Config cfg = test::config_for(radix, "torus",
                                      {{"router.vcs_per_class", "2"}, {"nic.max_packet", "4096"},
                                       {"nic.ts", std::to_string(t_s)}, {"nic.tr", "0"},
                                       {"router.local_ports", ports}});
  const sw::Topology t = cfg.net.topology();
  Outcome o;
  o.schedule = sw::generate_gossip(t, spec).schedule;
  REQUIRE(sw::verify(o.schedule).ok());
  sw::CycleCostParams cp;
  cp.length = len;
  cp.t_s = t_s;
  o.paper_model = sw::schedule_cycles(o.schedule, cp).total;
  cp.serial_startups = cp.ejection = true;
  o.program_model = sw::schedule_cycles(o.schedule, cp).total;
  sw::AnalyticParams ap;
  ap.t_s = t_s;
  ap.ports = ports == "one" ? sw::PortModel::OnePort : sw::PortModel::AllPort;
  o.analytic = sw::run_schedule_analytic(o.schedule, len, ap).last_visible;

  const sw::ProgramImage image(o.schedule);
  auto programs = image.make_programs(len);
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  sw::GossipRunWatch watch(o.schedule, ptrs);
  o.run = run_programs(cfg, watch.programs(), ProgramRunOptions{});
  o.watch = watch.report();
  INFO("errors: " << (o.watch.errors.empty() ? std::string() : o.watch.errors.front()));
  REQUIRE(o.run.status == RunStatus::Ok);
  REQUIRE(o.run.errors.empty());  // scoreboard clean, single-packet messages
  REQUIRE(o.watch.complete);
  REQUIRE(o.watch.missing_receipts == 0);
  REQUIRE(o.watch.unexpected_receipts == 0);
  REQUIRE(o.watch.early_sends == 0);
  return o;
}

/// Every node's steps are alike (same sizes, hops and send order), so the asynchronous programs
/// run in lockstep: measured = step model of the node program = analytic backend, and the
/// paper's step model with the hop term is short by the serial start-ups and one R per step.
void exact(const std::string& radix, const sw::GossipSpec& spec, uint32_t len, uint64_t t_s) {
  const Outcome o = gossip(radix, spec, len, t_s);
  INFO("measured " << o.watch.last_receive << " program model " << o.program_model << " paper model "
                   << o.paper_model << " analytic " << o.analytic);
  REQUIRE(o.run.blocked_cycles == 0);
  REQUIRE(o.watch.last_receive == o.program_model);
  REQUIRE(o.watch.last_receive == o.analytic);
  // What the paper's model leaves out, step by step: the node's further sends' start-ups (k-1
  // more t_s for k sends) and the destination router (R = 1).
  uint64_t missing = 0;
  std::vector<int> sends_per_node_step;
  for (int step = 1; step <= o.schedule.num_steps; ++step) {
    std::vector<int> k(size_t(o.schedule.topology.num_nodes()), 0);
    int most = 0;
    for (const sw::Unicast& u : o.schedule.unicasts)
      if (u.step == step) most = std::max(most, ++k[size_t(u.src)]);
    if (most) missing += uint64_t(most - 1) * t_s + 1;
  }
  REQUIRE(o.watch.last_receive == o.paper_model + missing);
}

}  // namespace

TEST_CASE("gossip: Approach 1 on a 9-node ring measures the step model of the node program to the cycle", "[sc]") {
  exact("9", sw::GossipSpec{sw::GossipAlgo::Approach1, true, {}, {}}, 16, 32);
}

TEST_CASE("gossip: Approach 1-1 on a 5x5 torus measures the step model of the node program to the cycle", "[sc]") {
  sw::GossipSpec s{sw::GossipAlgo::HighDimGos, true, {line(sw::LineAlgo::Approach1), line(sw::LineAlgo::Approach1)}, {}};
  exact("5x5", s, 16, 32);
}

TEST_CASE("gossip: Approach 1-1 on 9x9 completes with every node holding every chunk", "[sc]") {
  sw::GossipSpec s{sw::GossipAlgo::HighDimGos, true, {line(sw::LineAlgo::Approach1), line(sw::LineAlgo::Approach1)}, {}};
  const Outcome o = gossip("9x9", s, 8, 40);
  REQUIRE(o.watch.last_receive >= o.paper_model);
}

TEST_CASE("gossip: CIRCGOS a=3 b=1 per phase on 9x9 completes with every node holding every chunk", "[sc]") {
  sw::GossipSpec s{sw::GossipAlgo::HighDimGos, true,
                   {line(sw::LineAlgo::Circgos, 3, 1), line(sw::LineAlgo::Circgos, 3, 1)}, {}};
  const Outcome o = gossip("9x9", s, 8, 40);
  REQUIRE(o.watch.last_receive >= o.paper_model);
}

TEST_CASE("gossip: coloured TORGOS a=3 b=1 on 9x9 completes with every node holding every chunk", "[sc]") {
  sw::GossipSpec s{sw::GossipAlgo::Torgos, true, {}, sw::CircParams::from_ab(3, 1)};
  const Outcome o = gossip("9x9", s, 8, 40);
  REQUIRE(o.watch.last_receive >= o.paper_model);
}

TEST_CASE("gossip: Approach 1 on a 9-node ring completes on a one-port NIC", "[sc]") {
  const Outcome o = gossip("9", sw::GossipSpec{sw::GossipAlgo::Approach1, true, {}, {}}, 16, 32, "one");
  REQUIRE(o.watch.last_receive >= o.paper_model);
}
