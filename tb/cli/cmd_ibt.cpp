// `wormcast ibt`: the interlaced bypass torus commands (topology metrics, pipelined broadcasts on
// the step simulator; options and work in sw/ibt/tool/), and `bcast --simulate`, which runs the
// step simulator's broadcast as node programs on the cycle-accurate ibt family.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "sw/ibt/ibt_broadcast.h"
#include "sw/ibt/tool/ibt_command.h"
#include "sw/runtime/schedule_program.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/program_image.h"
#include "tb/cli/commands.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/run/dry_run.h"
#include "tb/run/programs.h"

namespace wormcast {

namespace {

struct IbtCliArgs {
  sw::IbtArgs ibt;
  bool simulate = false;
  int len = 4;
  std::string config_file;
  std::vector<std::string> sets;
};

/// "ibt:16x16" -> "16x16".
std::string shape_of(const std::string& net) {
  const size_t colon = net.find(':');
  return colon == std::string::npos ? net : net.substr(colon + 1);
}

int simulate(const IbtCliArgs& a) {
  // Every output planned before any work (the step simulator, the cycle-accurate run).
  OutputPlan plan;
  plan.add_input(a.config_file);
  if (!a.ibt.json_file.empty()) plan.add("--json", a.ibt.json_file);

  sw::IbtTopology t = sw::IbtTopology::torus(3, 1);
  sw::IbtBroadcast b;
  nlohmann::json j;
  try {
    t = sw::make_ibt_topology(a.ibt);
    for (int b : t.bypass()) {
      if (2 * b == t.n())
        throw ConfigError(fmt::format("--bypass: b_j = {} = n/2 is invalid with --simulate: it gives a node two parallel "
                                      "bypass links, which the cycle-accurate network does not build; allowed: below n/2, "
                                      "or --allow-half without --simulate", b));
      // The step simulator counts a bypass link of length 1 and the torus link beside it as two
      // links; the cycle network's bypass routing sends to that neighbour on one port.
      if (b == 1)
        throw ConfigError("--bypass: b_j = 1 is invalid with --simulate: its bypass link runs parallel to the torus "
                          "link, which the step simulator counts as a second link and the cycle-accurate routing "
                          "does not use; allowed: 2 up to below n/2, or 1 without --simulate");
    }
    if (t.num_nodes() > 65536) throw sw::IbtConfigError("--net: --simulate runs networks of at most 65536 nodes");
    dry_run_limit(t.num_nodes());
    b = sw::plan_ibt_broadcast(a.ibt, t, j);
  } catch (const sw::IbtConfigError& e) {
    throw ConfigError(e.what());
  }

  // The configuration checked before the step simulator's work.
  // The network the step simulator ran (--net, and --bypass or its default): a --set may not change it.
  Overrides ov{{"net.family", t.is_torus() ? "torus" : "ibt"}, {"net.radix", shape_of(a.ibt.net)}};
  if (!t.is_torus()) {
    ov.emplace_back("ibt.bypass", fmt::format("{}", fmt::join(t.bypass(), ",")));
    // A send to a bypass neighbour takes the bypass link: the step simulator's sends are one hop each.
    ov.emplace_back("ibt.routing", "bypass");
  }
  check_set_conflicts(ov, a.sets);
  const std::ptrdiff_t fixed = std::ptrdiff_t(ov.size());  // the command's own keys, before the --set list
  refuse_traffic_keys("ibt", a.sets);
  ov.emplace_back("nic.max_packet", std::to_string(std::max(64, a.len)));
  for (auto& s : a.sets) ov.push_back(parse_override(s));
  const Config cfg = load_config_for_net(a.config_file, ov, a.ibt.net);
  // This command fixes ibt.routing itself, and load_config lets a key through whose switches are
  // among the overrides (as a user's sweep sets them): a --set that takes no effect under the
  // command's own keys is refused here.
  const auto user_sets = [&a](const std::string& key) {
    return std::any_of(a.sets.begin(), a.sets.end(), [&key](const std::string& s) { return parse_override(s).first == key; });
  };
  const auto command_sets = [&ov, fixed](const std::string& key) {
    return std::any_of(ov.begin(), ov.begin() + fixed, [&key](const auto& o) { return o.first == key; });
  };
  for (auto& s : a.sets) {
    const auto [key, value] = parse_override(s);
    refuse_without_effect(cfg, key, value, user_sets, command_sets);
  }
  if (a.len > cfg.nic.max_packet)
    throw ConfigError(fmt::format("--len = {} is invalid; allowed: at most nic.max_packet = {} flits", a.len, cfg.nic.max_packet));

  sw::IbtSimOptions so;
  so.record = true;
  const sw::IbtSimResult r = sw::simulate_broadcast(t, b, so);
  const std::vector<std::string> step_errors = sw::check_trace(t, b, r);

  // Every send is to a neighbour (a torus or a bypass link). The program image's receipt rule (as
  // for gossip): a node's send of step s waits for every packet the step simulator delivered to it
  // in steps before s, so the cycle-accurate run keeps the steps' data dependencies and no more.
  sw::Schedule sched = sw::to_schedule(t, b, r);
  sched.collective = sw::Collective::Gossip;
  sched.chunks_per_node = 1;
  const sw::ProgramImage image(sched);
  // The run's cycle limit from the asynchronous event model of the same programs (as gossip
  // --simulate sizes its own): a broadcast with a large t_s takes far more than the default limit.
  // (Before the run's programs are made: the image's receipt counts serve one set of programs.)
  uint64_t predicted = 0;
  if (!dry_run()) {
    const RouterParams rp = derive_router_params(cfg.net, cfg.part<RouterConfig>());
    const sw::AnalyticParams ap = router_analytic_params(cfg, rp, rp.local == 1, uint64_t(cfg.nic.ts), uint64_t(cfg.nic.tr));
    std::vector<sw::ScheduleProgram> model = image.make_programs(uint32_t(a.len));
    std::vector<sw::NodeProgram*> model_ptrs;
    for (auto& p : model) model_ptrs.push_back(&p);
    predicted = sw::AnalyticBackend(cfg.net.topology(), ap).run(model_ptrs).last_visible;
  }
  std::vector<sw::ScheduleProgram> programs = image.make_programs(uint32_t(a.len));
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  FirmwareTables fw;  // node.cpu = rv32: the same tables as the cores' firmware
  for (int v = 0; v < t.num_nodes(); ++v) fw.tables.push_back(image.table(v));
  fw.length = uint32_t(a.len);
  ProgramRunOptions po;
  po.plan = &plan;
  po.firmware = &fw;
  po.max_cycles = program_cycle_limit(predicted, rv32_room(cfg, fw.tables));
  po.predicted = predicted;
  const ProgramRun run = run_programs(cfg, ptrs, po);
  const bool rv32 = cfg.node.cpu == CpuKind::Rv32;

  // Every node other than the source receives k messages; the trace check above shows they are
  // the k packets, each once, and the scoreboard that each message arrived once and whole.
  uint64_t last = 0;
  for (const MessageTiming& m : run.messages) last = std::max(last, m.arrived);
  // The broadcast group (the whole network, a plane or a line): every member other than the source
  // receives the k packets, every other node nothing.
  std::vector<int> expected(size_t(t.num_nodes()), 0);
  for (const sw::IbtSend& x : r.trace) ++expected[size_t(x.dst)];
  int64_t complete_nodes = 0;
  bool everyone = true;
  for (int64_t v = 0; v < t.num_nodes(); ++v) {
    const int want = v == b.source ? 0 : expected[size_t(v)] ? b.packets : 0;
    // The host programs count the native receives; the cores' firmware keeps its own, so there the
    // messages delivered to the node count.
    const int got = rv32 ? int(run.deliveries[size_t(v)]) : int(programs[size_t(v)].received());
    if (got != want) everyone = false;
    if (want && got == want) ++complete_nodes;
  }
  everyone = everyone && complete_nodes == r.group_size - 1;
  const bool ok = run.status == RunStatus::Ok && run.errors.empty() && everyone && r.complete && step_errors.empty();
  const double per_step = r.steps ? double(last) / r.steps : 0.0;

  nlohmann::json s;
  s["status"] = status_name(run.status);
  s["length"] = a.len;
  s["steps"] = r.steps;
  s["measured_cycles"] = last;
  s["cycles_per_step"] = per_step;
  s["messages"] = run.messages.size();
  s["blocked_cycles"] = run.blocked_cycles;
  s["blocked_messages"] = run.blocked_messages;
  s["group_size"] = r.group_size;
  s["every_node_has_every_packet_once"] = everyone;
  s["step_trace_errors"] = step_errors;
  s["errors"] = run.errors;
  if (run.status == RunStatus::Deadlock) s["deadlock"] = run.deadlock;
  if (!run.cpu.is_null()) s["cpu"] = run.cpu;
  j["wormcast"] = result_identity("ibt");
  j["config"] = cfg.echo();
  j["complete"] = r.complete;
  j["sends"] = r.sends;
  j["simulation"] = s;
  if (!a.ibt.json_file.empty()) plan.write(a.ibt.json_file, j.dump(2) + "\n");
  plan.commit();
  std::cout << fmt::format(
      "{} {} k={} source {}: T = {} steps on the step simulator; on the cycle-accurate model with {}-flit packets "
      "{} cycles ({:.2f} cycles per step), {} messages, blocked {} cycles in {} messages, every group node has every packet "
      "once: {}{}\n",
      t.name(), a.ibt.algo, b.packets, b.source, r.steps, a.len, last, per_step, run.messages.size(), run.blocked_cycles,
      run.blocked_messages, everyone ? "yes" : "no",
      run.status == RunStatus::Ok ? "" : std::string(" | status ") + status_name(run.status));
  for (auto& e : run.errors) std::cout << "  error: " << e << "\n";
  for (auto& e : step_errors) std::cout << "  step trace: " << e << "\n";
  if (run.exit_code) return run.exit_code;
  return ok ? 0 : 1;
}

}  // namespace

void register_ibt_command(CLI::App& app) {
  auto a = std::make_shared<IbtCliArgs>();
  CLI::App* cmd = app.add_subcommand("ibt", "interlaced bypass torus: topology metrics and pipelined broadcasts on the "
                                            "step simulator (topo, bcast); bcast --simulate also runs the broadcast "
                                            "as node programs on the cycle-accurate ibt family");
  sw::register_ibt_options(*cmd, a->ibt);
  CLI::App* bc = cmd->get_subcommand("bcast");
  bc->add_flag("--simulate", a->simulate,
               "run the broadcast as node programs on the cycle-accurate model (net.family ibt, ibt.routing bypass; "
               "a node's step-s sends wait for its packets of earlier steps)");
  bc->add_option("--len", a->len, "--simulate: packet length in flits (default 4)")->check(decimal_int(1, 4096));
  bc->add_option("--config", a->config_file, "--simulate: start from this YAML configuration (router, nic keys)");
  bc->add_option("--set", a->sets, "--simulate: override a configuration key (repeatable)");
  for (CLI::App* sub : cmd->get_subcommands([](CLI::App*) { return true; }))
    if (CLI::Option* json = sub->get_option_no_throw("--json")) json->check(file_path(true));
  // The numbers checked as text, so that one too large for its type names the range too.
  bc->get_option("--packets")->check(decimal_int(1, 64));
  bc->get_option("--dim")->check(decimal_int(0, 7));
  bc->get_option("--dim2")->check(decimal_int(0, 7));
  bc->get_option("--split-range")->check(decimal_int(0, 64));
  bc->get_option("--global-split")->check(decimal_int(1, 64));
  set_command_action(cmd, [a, bc] {
    require_with(bc, "--simulate", a->simulate, {"--len", "--config", "--set"});
    if (a->simulate) {
      if (a->ibt.command != "bcast") throw ConfigError("--simulate: only with bcast");
      return simulate(*a);
    }
    // Every output path is checked before the work starts and written only when it succeeded.
    OutputPlan plan;
    if (!a->ibt.json_file.empty()) plan.add("--json", a->ibt.json_file);
    nlohmann::json j;
    try {
      if (dry_run()) dry_run_limit(sw::make_ibt_topology(a->ibt).num_nodes());
      j = sw::ibt_command_json(a->ibt, std::cout);
    } catch (const sw::IbtConfigError& e) {
      throw ConfigError(e.what());
    }
    dry_run_point();
    if (!a->ibt.json_file.empty()) plan.write(a->ibt.json_file, j.dump(2) + "\n");
    plan.commit();
    return 0;
  });
}

}  // namespace wormcast
