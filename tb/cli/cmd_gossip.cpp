// `wormcast gossip`: the gossip command of sw/gossip/tool (generate, verify, cost, search), plus
// --simulate: the schedule as node programs on the cycle-accurate model next to the step model,
// and --svg: the schedule drawn step by step.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <CLI/CLI.hpp>

#include "sw/gossip/gossip_run.h"
#include "sw/gossip/tool/gossip_command.h"
#include "sw/gossip/tool/gossip_parts.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/program_image.h"
#include "systemc/common/config.h"
#include "systemc/torus/params.h"
#include "tb/cli/commands.h"
#include "tb/cli/schedule_svg.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/run/dry_run.h"
#include "systemc/cpu/rv32_core.h"
#include "tb/run/programs.h"

namespace wormcast {

namespace {

constexpr long long kMaxLen = 4096;  // one node's data fits one worm (nic.max_packet)

struct GossipCliArgs {
  sw::GossipArgs g;
  bool simulate = false;
  long long len = 64;
  std::string config_file;
  std::vector<std::string> sets;
  std::string svg_file;
  RecordOptions rec;
};

/// In a dry run (tb/run/dry_run.h): ends it when the work (the nodes times the --r values) is
/// larger than a dry run goes on with; a --net or --r that does not parse is left to the work.
void gossip_dry_run_limit(const sw::GossipArgs& g) {
  if (!dry_run()) return;
  std::string net = g.net;
  if (net.rfind("ring:", 0) == 0) net = "torus:" + net.substr(5);
  int64_t work = 0;
  try {
    work = int64_t(sw::parse_net(net).num_nodes()) * int64_t(std::max<size_t>(1, sw::gossip_r_values(g).size()));
  } catch (const std::exception&) {
  }
  dry_run_limit(work);
}

/// Everything --simulate measures and predicts, in cycles.
struct SimResult {
  ProgramRun run;
  sw::GossipRunReport watch;
  uint64_t t_s = 0, t_r = 0;
  const char* ts_from = "r l";  ///< what t_s is: r l, a --set of nic.ts, or the RV32 cores' send path and nic.ts
  uint64_t paper_model = 0;    ///< eq. 1 per step, hop term on, one start-up per step
  uint64_t program_model = 0;  ///< + serial start-ups per node, + R and t_r per message
  uint64_t analytic = 0;       ///< asynchronous event model of the same node programs
  bool one_port = false;
  uint32_t max_flits = 0;
  RouterParams rp;  ///< the routers' parameters (the analytic model's conditions, for max_flits)
  std::unique_ptr<DeferredRun> native_twin;  ///< rv32: the native run with the effective t_s, t_r
};

SimResult simulate(const GossipCliArgs& a, const sw::Schedule& s, double r, Config& cfg_out, OutputPlan& plan) {
  const sw::Topology& t = s.topology;
  const uint32_t len = uint32_t(a.len);
  uint32_t max_flits = 1;
  int max_chunks = 1;
  for (const sw::Unicast& u : s.unicasts) {
    max_flits = std::max(max_flits, sw::unicast_flits(s, u, len));
    max_chunks = std::max(max_chunks, u.chunks.count());
  }
  if (max_flits > kMaxLen)
    throw ConfigError(fmt::format("--len = {} is invalid: the largest message would be {} flits; allowed: 1..{} "
                                  "(one worm of at most nic.max_packet = {} flits)",
                                  a.len, max_flits, std::max<long long>(1, kMaxLen * s.chunks_per_node / max_chunks), kMaxLen));
  // The paper's units on the cycle model: t_f = 1 cycle, a unit packet (one node's data) is l
  // flits, so r = t_s / (l t_f) gives t_s = r l cycles.
  const double ts_exact = r * double(len);
  if (ts_exact > 1000000)
    throw ConfigError(fmt::format("--r = {} is invalid with --len {}: t_s = r * len must be at most 1000000 cycles", r, len));
  const uint64_t t_s = uint64_t(std::llround(ts_exact));

  Overrides ov = net_spec_overrides("--net", sw::describe(t));  // torus:..., mesh:...
  ov.emplace_back("nic.ts", std::to_string(t_s));  // t_r: the configuration's nic.tr (default 0)
  // As for broadcasts: two VCs per dateline class so consecutive messages on one channel do not
  // wait for the previous tail's last credit, and every message travels as one worm. A one-port
  // schedule runs on the one-port NIC. These are the command's defaults: a --config file's values
  // and --set stand above them.
  Overrides defaults{{"router.vcs_per_class", "2"}, {"nic.max_packet", std::to_string(max_flits)}};
  if (sw::gossip_port_model(a.g) == sw::PortModel::OnePort) defaults.emplace_back("router.local_ports", "one");
  for (auto& d : unless_in_file(a.config_file, defaults)) ov.push_back(d);
  refuse_traffic_keys("gossip", a.sets);
  bool ts_given = false;
  for (auto& x : a.sets) {
    ov.push_back(parse_override(x));
    ts_given = ts_given || ov.back().first == "nic.ts";
  }
  Config cfg = load_config_for_net(a.config_file, ov, a.g.net);
  // On the RV32 cores the send cost is the firmware's own: the NIC adds no t_s unless --set asks.
  // (--r then sets no t_s: the line printed says so, and --help.)
  if (cfg.node.cpu == CpuKind::Rv32 && !ts_given) cfg.nic.ts = 0;
  cfg_out = cfg;
  if (cfg.net.topology().num_nodes() != t.num_nodes() || sw::describe(cfg.net.topology()) != sw::describe(t))
    throw ConfigError("--set: the network must stay the --net one (" + sw::describe(t) + ")");
  if (uint64_t(cfg.nic.max_packet) < max_flits)
    throw ConfigError(fmt::format("nic.max_packet (--config or --set) = {} is invalid; allowed: at least {} (the largest message)", cfg.nic.max_packet, max_flits));

  const RouterParams rp = derive_router_params(cfg.net, cfg.part<RouterConfig>());
  SimResult out;
  out.t_s = uint64_t(cfg.nic.ts);
  out.t_r = uint64_t(cfg.nic.tr);
  out.ts_from = cfg.node.cpu == CpuKind::Rv32 ? "the cores' send path + nic.ts" : out.t_s == t_s ? "r l" : "nic.ts";
  out.one_port = rp.local == 1;
  out.max_flits = max_flits;
  out.rp = rp;
  sw::CycleCostParams cp;
  cp.length = len;
  cp.t_s = out.t_s;
  cp.t_r = out.t_r;
  cp.router_delay = uint64_t(rp.router_delay);
  cp.link_delay = uint64_t(rp.link_delay);
  cp.injection_delay = uint64_t(rp.injection_delay);  // the program model's (with `ejection`)
  cp.ejection_delay = uint64_t(rp.ejection_delay);
  out.paper_model = sw::schedule_cycles(s, cp).total;
  cp.serial_startups = cp.ejection = true;
  out.program_model = sw::schedule_cycles(s, cp).total;

  std::unique_ptr<sw::ProgramImage> image;
  try {
    image = std::make_unique<sw::ProgramImage>(s);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--simulate: this schedule cannot run as node programs: ") + e.what() +
                      " (fewer steps: a smaller --k or --b, or fewer nodes)");
  }
  {
    const sw::AnalyticParams ap = router_analytic_params(cfg, rp, out.one_port, out.t_s, out.t_r);
    std::vector<sw::ScheduleProgram> programs = image->make_programs(len);
    std::vector<sw::NodeProgram*> ptrs;
    for (auto& p : programs) ptrs.push_back(&p);
    out.analytic = sw::AnalyticBackend(t, ap).run(ptrs).last_visible;
  }
  std::vector<sw::ScheduleProgram> programs = image->make_programs(len);
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  sw::GossipRunWatch watch(s, ptrs);
  // On the RV32 cores the firmware runs the tables; the watch hears of its sends and receipts.
  struct WatchObserver final : CoreObserver {
    explicit WatchObserver(sw::GossipRunWatch& w) : watch(w) {}
    void on_core_send(int node, int dst, uint32_t tag) override { watch.on_send(node, dst, tag); }
    void on_core_receive(int node, const sw::Delivery& d, uint64_t now) override { watch.on_receive(node, d, now); }
    sw::GossipRunWatch& watch;
  } observer(watch);
  // On the RV32 cores: the native processor with the effective t_s and t_r the cores measure, in a
  // child forked before this process elaborates.
  if (cfg.node.cpu == CpuKind::Rv32 && !dry_run())
    out.native_twin = std::make_unique<DeferredRun>([&s, &cfg, &image, len, predicted = out.analytic](int64_t ts, int64_t tr) {
      const Config c = native_with(cfg, ts, tr);
      std::vector<sw::ScheduleProgram> twin = image->make_programs(len);
      std::vector<sw::NodeProgram*> twin_ptrs;
      for (auto& p : twin) twin_ptrs.push_back(&p);
      sw::GossipRunWatch twin_watch(s, twin_ptrs);
      ProgramRunOptions tpo;  // the cores' effective costs replace nic.ts and nic.tr: room for both
      tpo.max_cycles = program_cycle_limit(predicted + uint64_t(ts + tr) * s.unicasts.size());
      const ProgramRun r = run_programs(c, twin_watch.programs(), tpo);
      if (r.status != RunStatus::Ok || !twin_watch.report().ok()) throw std::runtime_error("the native gossip did not complete");
      return twin_watch.report().last_receive;
    });
  FirmwareTables fw;
  for (int i = 0; i < t.num_nodes(); ++i) fw.tables.push_back(image->table(i));
  fw.length = len;
  fw.observer = &observer;
  ProgramRunOptions po;
  static_cast<RecordOptions&>(po) = a.rec;
  po.plan = &plan;
  po.firmware = &fw;
  po.max_cycles = program_cycle_limit(out.analytic, rv32_room(cfg, fw.tables));
  po.predicted = out.analytic;
  out.run = run_programs(cfg, watch.programs(), po);
  out.watch = watch.report();
  return out;
}

/// The --svg drawing of the one schedule the arguments name; throws ConfigError naming --svg.
std::string gossip_svg(const GossipCliArgs& a) {
  try {
    if (a.g.table) throw sw::GossipParamError("--svg: not with --table (give one --algo)");
    const std::vector<double> rs = sw::gossip_r_values(a.g);
    if (a.g.search && rs.size() != 1) throw sw::GossipParamError("--svg: with --search give one --r (got " + a.g.r + ")");
    const sw::GossipSchedule g = sw::gossip_schedule(a.g, rs[0]);
    std::string why;
    if (!schedule_svg_drawable(g.schedule, why)) throw sw::GossipParamError("--svg: " + why);
    return schedule_svg(g.schedule);
  } catch (const sw::GossipParamError& e) {
    throw ConfigError(e.what());
  }
}

int run_gossip(const GossipCliArgs& a, const CLI::App* cmd) {
  std::vector<std::string> sim_only{"--len", "--set", "--config"};
  for (const std::string& o : record_option_names()) sim_only.push_back(o);
  require_with(cmd, "--simulate", a.simulate, sim_only);
  try {
    sw::gossip_check_parameters(a.g);
  } catch (const sw::GossipParamError& e) {
    throw ConfigError(e.what());
  }
  // Every output planned before any work (the schedule, a search, the simulation): checked,
  // written to temporaries, renamed into place at the end; the text printed once they are written.
  OutputPlan plan;
  plan.add_input(a.config_file);
  if (!a.g.json_file.empty()) plan.add("--json", a.g.json_file);
  if (!a.svg_file.empty()) plan.add("--svg", a.svg_file);
  gossip_dry_run_limit(a.g);
  if (!a.simulate) {
    std::string svg;
    if (!a.svg_file.empty()) {
      try {
        sw::gossip_port_model(a.g);
        svg = gossip_svg(a);
      } catch (const sw::GossipParamError& e) {
        throw ConfigError(e.what());
      }
    }
    std::ostringstream text;
    int code = 0;
    try {
      const nlohmann::json j = sw::gossip_command_json(a.g, text, code);
      dry_run_point();
      if (!a.g.json_file.empty()) plan.write(a.g.json_file, j.dump(2) + "\n");
    } catch (const sw::GossipParamError& e) {
      throw ConfigError(e.what());
    }
    if (!a.svg_file.empty()) plan.write(a.svg_file, svg);
    plan.commit();
    std::cout << text.str();
    return code;
  }
  if (a.len < 1 || a.len > kMaxLen)
    throw ConfigError(fmt::format("--len = {} is invalid; allowed: 1..{} flits (one node's data)", a.len, kMaxLen));
  check_record_options(a.rec);
  plan_recordings(plan, a.rec);
  // The network and the --set keys as the cycle model takes them, before the schedule is built
  // (that of a large ring takes long and much memory): simulate() loads them again with the
  // schedule's own defaults.
  {
    Overrides ov;
    try {
      ov = net_spec_overrides("--net", sw::describe(sw::gossip_tool::parse_gossip_net(a.g.net)));
    } catch (const sw::GossipParamError& e) {
      throw ConfigError(e.what());
    }
    refuse_traffic_keys("gossip", a.sets);
    check_set_conflicts(ov, a.sets);  // the schedule is --net's: a --set of its network is refused
    for (auto& x : a.sets) ov.push_back(parse_override(x));
    load_config_for_net(a.config_file, ov, a.g.net);
  }
  double r = 0;
  sw::GossipSchedule g;
  nlohmann::json j;
  int code = 0;
  std::ostringstream text;  // printed once the simulation is set up, so bad input prints one line only
  try {
    if (a.g.table) throw sw::GossipParamError("--table: not with --simulate (give one --algo)");
    const std::vector<double> rs = sw::gossip_r_values(a.g);
    if (rs.size() != 1) throw sw::GossipParamError("--r: --simulate takes one value (got " + a.g.r + ")");
    r = rs[0];
    g = sw::gossip_schedule(a.g, r);
    if (g.schedule.num_steps > sw::kMaxProgramStep)  // before the drawing's limit: the run's is the first
      throw sw::GossipParamError(fmt::format("--simulate: the schedule takes {} steps; allowed: steps 1..{} (a node "
                                             "program tags each message with its step)",
                                             g.schedule.num_steps, sw::kMaxProgramStep));
    std::string why;
    if (!a.svg_file.empty() && !schedule_svg_drawable(g.schedule, why)) throw sw::GossipParamError("--svg: " + why);
    j = sw::gossip_command_json(a.g, text, code);
  } catch (const sw::GossipParamError& e) {
    throw ConfigError(e.what());
  }
  Config cfg;
  SimResult sim = simulate(a, g.schedule, r, cfg, plan);
  std::cout << text.str();
  const ProgramRun& run = sim.run;
  const uint64_t measured = sim.watch.last_receive;
  const bool ok = run.status == RunStatus::Ok && run.errors.empty() && sim.watch.ok();

  nlohmann::json s;
  s["status"] = status_name(run.status);
  s["algo"] = g.schedule.algo;
  s["steps"] = g.schedule.num_steps;
  s["unicasts"] = g.schedule.unicasts.size();
  s["length"] = a.len;
  s["t_s"] = sim.t_s;
  s["t_r"] = sim.t_r;
  s["ports"] = sim.one_port ? "one" : "all";
  s["largest_message_flits"] = sim.max_flits;
  s["measured_cycles"] = measured;
  s["model_cycles"] = sim.paper_model;
  s["model"] = "eq. 1 per step with the hop term on (t_d = R + Ld cycles per hop), one t_s per step, t_f = 1 cycle";
  s["program_model_cycles"] = sim.program_model;
  s["program_model"] = "the step model plus what a node program pays: (i+1) t_s for a node's i-th send of a step, "
                       "one more R (destination router), the channel delays Di + De and t_r per message";
  s["analytic_cycles"] = sim.analytic;
  s["streaming_depth"] = sim.rp.streaming_depth();
  s["analytic_credit_limited"] = credit_limited(sim.rp, sim.max_flits);
  s["analytic_vc_limited"] = vc_reuse_limited(sim.rp, sim.max_flits);
  s["run_cycles"] = run.cycles;
  s["blocked_cycles"] = run.blocked_cycles;
  s["blocked_messages"] = run.blocked_messages;
  s["injection_wait_cycles"] = run.injection_wait_cycles;
  s["messages"] = run.messages.size();
  s["every_node_holds_every_chunk"] = sim.watch.complete;
  s["missing_receipts"] = sim.watch.missing_receipts;
  s["unexpected_receipts"] = sim.watch.unexpected_receipts;
  s["early_sends"] = sim.watch.early_sends;
  nlohmann::json errs = run.errors;
  for (auto& e : sim.watch.errors) errs.push_back(e);
  s["errors"] = errs;
  if (run.status == RunStatus::Deadlock) s["deadlock"] = run.deadlock;
  uint64_t native_effective = 0;
  const bool have_native = sim.native_twin && run.status == RunStatus::Ok &&
                           sim.native_twin->result(std::llround(run.effective_ts), std::llround(run.effective_tr), native_effective);
  if (!run.cpu.is_null()) {
    s["cpu"] = run.cpu;
    // The same schedule natively with t_s and t_r the measured effective ones (rounded).
    s["native_cycles_effective"] = have_native ? nlohmann::json(native_effective) : nlohmann::json(nullptr);
  }
  j["wormcast"] = result_identity("gossip");
  j["config"] = cfg.echo();
  j["simulation"] = s;
  if (!a.g.json_file.empty()) plan.write(a.g.json_file, j.dump(2) + "\n");
  if (!a.svg_file.empty()) plan.write(a.svg_file, schedule_svg(g.schedule));
  plan.commit();

  std::cout << fmt::format(
      "simulated {} on {}: l = {} flits, t_s = {} = {} cycles, t_r = {}, {}-port NIC\n"
      "  measured {} cycles | step model (eq. 1, hop term on) {} | step model of the node program {} | "
      "analytic (asynchronous) {} | blocked {} cycles in {} messages | every node holds every chunk: {}{}\n",
      g.schedule.algo, sw::describe(g.schedule.topology), a.len, sim.ts_from, sim.t_s, sim.t_r, sim.one_port ? "one" : "all", measured,
      sim.paper_model, sim.program_model, sim.analytic, run.blocked_cycles, run.blocked_messages,
      sim.watch.complete ? "yes" : "NO", run.status == RunStatus::Ok ? "" : std::string(" | status ") + status_name(run.status));
  if (!run.cpu.is_null())
    std::cout << fmt::format("  rv32 cores: {} instructions | effective t_s = {:.1f}, t_r = {:.1f} network cycles "
                             "({}) | native with them {}\n",
                             run.cpu["instructions"].get<uint64_t>(), run.effective_ts, run.effective_tr, run.effective_paths(),
                             have_native ? std::to_string(native_effective) : std::string("-"));
  std::cout << credit_limit_note(sim.rp, sim.max_flits);
  for (auto& e : errs) std::cout << "  error: " << e.get<std::string>() << "\n";
  if (run.exit_code) return run.exit_code;
  if (!ok) return 1;
  return code;
}

}  // namespace

void register_gossip_command(CLI::App& app) {
  auto a = std::make_shared<GossipCliArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gossip", "Gossip (all-to-all) schedules on rings, tori and meshes: generate, verify, cost, search; --simulate runs "
                "one on the cycle-accurate model next to the step model");
  sw::register_gossip_options(*cmd, a->g);
  cmd->add_flag("--simulate", a->simulate,
                "run the schedule as node programs on the cycle-accurate model (one --r value): one node's data is "
                "--len l flits, t_f = 1 cycle, t_s = round(r l) cycles per send (with node.cpu = rv32 the cores' "
                "firmware instead; a --set of nic.ts replaces it, --r still choosing the schedule), t_r = nic.tr (default 0); all-port NIC, one-port with --port one (or --set "
                "router.local_ports=one)");
  cmd->add_option("--len", a->len, "with --simulate: l, flits of one node's data (default 64; a multiple of the "
                                   "colours keeps message lengths exact)")
      ->check(decimal_int(1, kMaxLen));
  cmd->add_option("--config", a->config_file, "with --simulate: start from this YAML configuration");
  cmd->add_option("--set", a->sets, "with --simulate: override a configuration key (repeatable), e.g. "
                                    "router.local_ports=one");
  cmd->add_option("--svg", a->svg_file,
                  "draw the schedule (1-D and 2-D networks, at most 400,000 marks: nodes x steps + unicasts), one "
                  "panel per step: grey level = share of all "
                  "data a node holds after the step, the step's receivers ringed, both directions of a link "
                  "side by side");
  add_record_options(cmd, a->rec);
  // The shared checks on the tool's options: numbers in their ranges, outputs as files.
  cmd->get_option("--hop")->check(decimal_real(0, sw::kMaxRatio));
  cmd->get_option("--a")->check(decimal_int(2, 1000000));
  cmd->get_option("--a2")->check(decimal_int(2, 1000000));
  cmd->get_option("--b")->check(decimal_int(0, 1000000));
  cmd->get_option("--k")->check(decimal_int(1, 1000000));
  cmd->get_option("--max-nodes")->check(decimal_int(1, 1 << 24));
  cmd->get_option("--port")->check(non_empty("all, one"));
  cmd->get_option("--json")->check(file_path(true));
  cmd->get_option("--svg")->check(file_path());
  set_command_action(cmd, [a, cmd] { return run_gossip(*a, cmd); });
}

}  // namespace wormcast
