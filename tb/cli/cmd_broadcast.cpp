// `wormcast broadcast`: generate a broadcast schedule, run it as node programs on the
// cycle-accurate model and on the analytic backend, and report both latencies and the blocking.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <CLI/CLI.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/program_image.h"
#include "systemc/common/config.h"
#include "systemc/common/config_keys.h"
#include "systemc/torus/params.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/cli/commands.h"
#include "tb/run/programs.h"
#include "tb/run/driver.h"
#include "tb/run/dry_run.h"

namespace wormcast {

namespace {

struct BroadcastArgs {
  std::string net = "torus:16x16";
  ScheduleChoice choice;  // algo defaults to dcf (register_broadcast_command)
  std::string config_file;
  std::vector<std::string> sets;
  RecordOptions rec;
  std::string json_file, router_model;
  long long len = 64, ts = 0, tr = 0;
  bool net_given = false, ts_given = false, tr_given = false;  ///< on the command line (else defaults --set may change)
};

nlohmann::json times_json(const std::vector<int64_t>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (auto x : v) a.push_back(x < 0 ? nlohmann::json(nullptr) : nlohmann::json(x));
  return a;
}

/// The router-model analytic latency with t_s and t_r set to a core's measured effective values.
uint64_t effective_analytic(const sw::Schedule& s, uint32_t len, sw::AnalyticParams ap, double ts, double tr) {
  ap.t_s = uint64_t(std::llround(ts));
  ap.t_r = uint64_t(std::llround(tr));
  return sw::run_schedule_analytic(s, len, ap).latency;
}

int run_broadcast(const BroadcastArgs& a) {
  if (a.len < 1 || a.len > 4096) throw ConfigError(fmt::format("--len = {} is invalid; allowed: 1..4096 flits", a.len));
  // Every output planned before any work (the schedule, the analytic models, cycle 0).
  OutputPlan plan;
  plan.add_input(a.config_file);
  if (!a.json_file.empty()) plan.add("--json", a.json_file);
  check_record_options(a.rec);
  plan_recordings(plan, a.rec);
  // The options given on the command line (a --set of their keys must agree: the analytic models
  // and the cycle model read the same t_s, t_r and network). Without them: a --config file's
  // network, t_s and t_r, else torus:16x16 and the defaults 0.
  Overrides given;
  if (a.net_given) given = net_spec_overrides("--net", a.net);
  if (a.ts_given) given.emplace_back("nic.ts", std::to_string(a.ts));
  if (a.tr_given) given.emplace_back("nic.tr", std::to_string(a.tr));
  if (!a.router_model.empty()) given.emplace_back("router.model", a.router_model);
  check_set_conflicts(given, a.sets);
  refuse_traffic_keys("broadcast", a.sets);
  Overrides ov = !a.net_given && a.config_file.empty() ? net_spec_overrides("--net", a.net) : Overrides{};
  ov.insert(ov.end(), given.begin(), given.end());
  // The node programs run on the routers whose keys the command's defaults below set: a network of
  // another family is refused under what named it (--net, --set net.family or the file).
  {
    std::string family, where;
    for (const auto& [k, v] : ov)
      if (k == "net.family") family = v, where = fmt::format("--net '{}'", a.net);
    for (const std::string& x : a.sets)
      if (const auto kv = parse_override(x); kv.first == "net.family")
        family = kv.second, where = fmt::format("--set net.family = '{}'", kv.second);
    if (family.empty())
      if (const auto f = config_file_value(a.config_file, "net.family"))
        family = *f, where = fmt::format("config: net.family = '{}' (in '{}')", *f, a.config_file);
    const std::vector<std::string> runs_on = config_key_families("router.vcs_per_class");
    if (!family.empty() && !runs_on.empty() && std::find(runs_on.begin(), runs_on.end(), family) == runs_on.end())
      throw ConfigError(fmt::format("{} is invalid under `wormcast broadcast`: its node programs do not run on the {} "
                                    "family; allowed: a network of the {} famil{}, e.g. torus:32x32, mesh:8x8 or "
                                    "ibt:12x12",
                                    where, family, join(runs_on, " or "), runs_on.size() == 1 ? "y" : "ies"));
  }
  // Two VCs per dateline class: a sender's consecutive messages on one channel then do not wait
  // for the previous tail's last credit (section 5.3 of docs/router.md), which the papers' model
  // has no notion of. --set router.vcs_per_class=1 shows those one-cycle waits.
  // A broadcast message travels as one worm (the papers' model), so packets are as long as it.
  // Both are this command's defaults: a --config file's values stand above them.
  for (auto& d : unless_in_file(a.config_file, {{"router.vcs_per_class", "2"},
                                                {"nic.max_packet", std::to_string(std::min<long long>(4096, std::max<long long>(64, a.len)))}}))
    ov.push_back(d);
  for (auto& s : a.sets) ov.push_back(parse_override(s));
  const Config cfg = load_config_for_net(a.config_file, ov, a.net_given ? a.net : "");
  if (a.len > cfg.nic.max_packet)
    throw ConfigError(fmt::format("--len = {} is invalid; allowed: at most nic.max_packet = {} flits", a.len, cfg.nic.max_packet));
  const sw::Topology t = cfg.net.topology();
  dry_run_limit(t.num_nodes());
  int source = 0;
  const sw::Schedule sched = make_schedule(a.choice, t, source);
  if (sched.num_steps > sw::kMaxProgramStep)
    throw ConfigError(fmt::format("--algo {} on --net {} takes {} steps; allowed: at most {} steps (a node program "
                                  "tags each message with its step): a smaller network or another --algo",
                                  a.choice.algo, sw::describe(t), sched.num_steps, sw::kMaxProgramStep));

  const RouterParams rp = derive_router_params(cfg.net, cfg.part<RouterConfig>());
  const uint32_t len = uint32_t(a.len);
  // t_s: --ts, or a --set of nic.ts.
  const sw::AnalyticParams ap = router_analytic_params(cfg, rp, rp.local == 1, uint64_t(cfg.nic.ts), uint64_t(cfg.nic.tr));
  const std::string credit_note = credit_limit_note(rp, len);
  const sw::AnalyticResult analytic = sw::run_schedule_analytic(sched, len, ap);
  sw::AnalyticParams paper = ap;
  paper.model = sw::TimingModel::Paper;
  const sw::AnalyticResult paper_r = sw::run_schedule_analytic(sched, len, paper);


  const sw::ProgramImage image(sched);
  std::vector<sw::ScheduleProgram> programs = image.make_programs(len);
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  // On the RV32 cores: the native processor with the effective t_s and t_r the cores measure, in a
  // child forked before this process elaborates (its latency goes next to the cores').
  std::unique_ptr<DeferredRun> native_twin;
  if (cfg.node.cpu == CpuKind::Rv32 && !dry_run())
    native_twin = std::make_unique<DeferredRun>([&](int64_t ts, int64_t tr) {
      const Config c = native_with(cfg, ts, tr);
      std::vector<sw::ScheduleProgram> twin = image.make_programs(len);
      std::vector<sw::NodeProgram*> twin_ptrs;
      for (auto& p : twin) twin_ptrs.push_back(&p);
      ProgramRunOptions tpo;
      tpo.max_cycles = program_cycle_limit(effective_analytic(sched, len, ap, double(ts), double(tr)));
      const ProgramRun r = run_programs(c, twin_ptrs, tpo);
      uint64_t latency = 0;
      for (uint64_t v : r.first_visible)
        if (v != ~uint64_t(0)) latency = std::max(latency, v);
      return latency;
    });
  FirmwareTables fw;
  for (int i = 0; i < t.num_nodes(); ++i) fw.tables.push_back(image.table(i));
  fw.length = len;
  ProgramRunOptions po;
  static_cast<RecordOptions&>(po) = a.rec;
  po.plan = &plan;
  po.firmware = &fw;
  po.max_cycles = program_cycle_limit(analytic.latency, rv32_room(cfg, fw.tables));
  po.predicted = analytic.latency;
  const ProgramRun run = run_programs(cfg, ptrs, po);

  std::vector<int64_t> measured(size_t(t.num_nodes()), -1);
  uint64_t measured_latency = 0;
  int reached = 0, duplicates = 0;
  for (int i = 0; i < t.num_nodes(); ++i) {
    if (run.first_visible[size_t(i)] != ~uint64_t(0)) {
      measured[size_t(i)] = int64_t(run.first_visible[size_t(i)]);
      measured_latency = std::max(measured_latency, run.first_visible[size_t(i)]);
      ++reached;
    }
    if (run.deliveries[size_t(i)] > 1) duplicates += int(run.deliveries[size_t(i)] - 1);
  }
  const bool everyone = reached == t.num_nodes() - 1 && measured[size_t(source)] < 0;

  nlohmann::json j;
  j["wormcast"] = result_identity("broadcast");
  j["config"] = cfg.echo();
  j["algo"] = a.choice.algo;
  j["source"] = sw::node_coords(t, source);
  j["length"] = len;
  j["steps"] = sched.num_steps;
  j["unicasts"] = sched.unicasts.size();
  j["status"] = status_name(run.status);
  j["cycles"] = run.cycles;
  j["measured_latency"] = measured_latency;
  j["analytic_latency"] = analytic.latency;
  j["paper_latency"] = paper_r.latency;
  j["blocked_cycles"] = run.blocked_cycles;
  j["blocked_messages"] = run.blocked_messages;
  j["injection_wait_cycles"] = run.injection_wait_cycles;
  j["analytic_overlapping_pairs"] = analytic.overlapping_pairs < 0 ? nlohmann::json(nullptr) : nlohmann::json(analytic.overlapping_pairs);
  j["streaming_depth"] = rp.streaming_depth();
  j["analytic_credit_limited"] = credit_limited(rp, len);
  j["analytic_vc_limited"] = vc_reuse_limited(rp, len);
  j["all_nodes_reached"] = everyone;
  j["duplicate_deliveries"] = duplicates;
  j["receive_times"] = times_json(measured);
  j["analytic_receive_times"] = times_json(analytic.first_visible);
  j["node_order"] = "node id, dimension 0 fastest; null = never received (the source)";
  j["errors"] = run.errors;
  if (run.status == RunStatus::Deadlock) j["deadlock"] = run.deadlock;
  const uint64_t analytic_effective =
      run.cpu.is_null() ? 0 : effective_analytic(sched, len, ap, run.effective_ts, run.effective_tr);
  uint64_t native_effective = 0;
  const bool have_native = native_twin && run.status == RunStatus::Ok &&
                           native_twin->result(std::llround(run.effective_ts), std::llround(run.effective_tr), native_effective);
  if (!run.cpu.is_null()) {
    j["cpu"] = run.cpu;
    // The same schedule natively with t_s and t_r the measured effective ones (rounded): cycle model and analytic.
    j["native_latency_effective"] = have_native ? nlohmann::json(native_effective) : nlohmann::json(nullptr);
    j["analytic_latency_effective"] = analytic_effective;
  }
  if (!a.json_file.empty()) plan.write(a.json_file, j.dump(2) + "\n");
  // The schedule's topology, named by the network's family when that is not the torus's (an ibt:
  // the bypass links added; the family's keys are in the JSON's config).
  std::string net_label = sw::describe(t);
  if (cfg.net.family != "torus") net_label = cfg.net.family + net_label.substr(net_label.find(':'));
  std::string summary = fmt::format(
      "{} broadcast on {} from {}: {} steps, {} unicasts, L = {} flits, t_s = {}, t_r = {}\n"
      "  measured latency {} cycles | analytic {} (router model), {} (Hou, Wang and Hsu model) | blocked {} cycles in {} "
      "messages | {} nodes reached{}{}\n",
      a.choice.algo, net_label, sw::format_node(t, source), sched.num_steps, sched.unicasts.size(), len, cfg.nic.ts, cfg.nic.tr,
      measured_latency, analytic.latency, paper_r.latency, run.blocked_cycles, run.blocked_messages, reached,
      duplicates ? fmt::format(", {} duplicate deliveries", duplicates) : "",
      run.status == RunStatus::Ok ? "" : std::string(" | status ") + status_name(run.status));
  if (!run.cpu.is_null())
    summary += fmt::format("  rv32 cores: {} instructions | effective t_s = {:.1f}, t_r = {:.1f} network cycles ({}) | "
                           "with them: native {}, analytic {}\n",
                           run.cpu["instructions"].get<uint64_t>(), run.effective_ts, run.effective_tr, run.effective_paths(),
                           have_native ? std::to_string(native_effective) : std::string("-"), analytic_effective);
  summary += credit_note;
  for (auto& e : run.errors) summary += "  error: " + e + "\n";
  plan.commit(summary);  // the summary first: one that cannot be printed leaves no new file
  if (run.exit_code) return run.exit_code;
  return everyone ? 0 : 1;
}

}  // namespace

void register_broadcast_command(CLI::App& app) {
  auto a = std::make_shared<BroadcastArgs>();
  a->choice.algo = "dcf";
  CLI::App* cmd = app.add_subcommand(
      "broadcast", "Run a broadcast schedule as node programs on the cycle-accurate model and compare with the analytic model");
  cmd->add_option("--net", a->net, "the network, e.g. torus:32x32, mesh:8x8, or ibt:12x12 (the torus's schedule on the bypass "
                                   "torus's routing) (default: the --config file's network, else torus:16x16)");
  add_schedule_options(cmd, a->choice, " (default dcf)");
  cmd->add_option("--len", a->len, "message length in flits, 1..4096 and at most nic.max_packet (default 64): one worm")
      ->check(decimal_int(1, 4096));
  cmd->add_option("--ts", a->ts, "software send latency t_s, cycles (default: nic.ts of --config, else 0)")->check(decimal_int(0, 1000000));
  cmd->add_option("--tr", a->tr, "software receive latency t_r, cycles (default: nic.tr of --config, else 0)")->check(decimal_int(0, 1000000));
  cmd->add_option("--config", a->config_file, "start from this YAML configuration (router, nic keys)");
  cmd->add_option("--set", a->sets, "override a configuration key (repeatable); broadcast runs default to "
                  "router.vcs_per_class=2 and nic.max_packet >= --len (one worm per message)");
  cmd->add_option("--json", a->json_file, "write measured_latency, analytic_latency, blocked_cycles, per-node times")
      ->check(file_path(true));
  add_record_options(cmd, a->rec);
  cmd->add_option("--router", a->router_model, "router model: sc, rtl (Verilated Verilog twin) or mixed");
  set_command_action(cmd, [a, cmd] {
    a->net_given = cmd->count("--net") > 0;
    a->ts_given = cmd->count("--ts") > 0;
    a->tr_given = cmd->count("--tr") > 0;
    return run_broadcast(*a);
  });
}

}  // namespace wormcast
