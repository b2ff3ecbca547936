// The traffic run: elaboration, the run's phases, the stability verdict and the result.
#include "tb/run/traffic.h"

#include <cmath>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "systemc/torus/config.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/run/driver.h"
#include "tb/run/dry_run.h"

namespace wormcast {

nlohmann::json Stability::to_json() const {
  nlohmann::json j = steady.figures;
  j["verdict"] = outcome_name(outcome);
  j["reasons"] = reasons;
  return j;
}

Stability stability_verdict(const Config& cfg, const TrafficStats& stats, const nlohmann::json& report, bool drained,
                            uint64_t crossing) {
  Stability v;
  SteadyParams p;
  p.warmup = cfg.sim.warmup;
  p.crossing = crossing;
  // Packets per independent arrival: the message count's dispersion (on/off sources) times a
  // message's packets (nic.max_packet flits at most), which arrive together.
  p.burst_packets = message_dispersion(cfg.traffic) * std::ceil(mean_message_flits(cfg.traffic) / double(cfg.nic.max_packet));
  v.steady = judge_steady_state(stats.series(), p);
  v.outcome = v.steady.outcome;
  v.reasons = v.steady.reasons;
  auto unstable = [&](std::string why) {
    v.outcome = SteadyOutcome::Unstable;
    v.reasons.push_back(std::move(why));
  };
  // The drain waits for every packet, warm-up ones included (a lost one of any age is a fault
  // the watchdog names), so a run can end here with all its measured packets delivered.
  if (!drained)
    unstable(fmt::format("did not drain: packets undelivered at the drain limit (in flight or waiting at their source), "
                         "{} of them measured", stats.measured_outstanding()));
  if (stats.dropped() > 0)
    unstable(fmt::format("{} messages dropped at full source queues (traffic.source_queue = {})", stats.dropped(),
                         cfg.traffic.source_queue));
  const double mean = report["latency"].value("mean", 0.0);
  if (cfg.sim.latency_threshold > 0 && mean > double(cfg.sim.latency_threshold))
    unstable(fmt::format("mean latency {} > sim.latency_threshold = {}", mean, cfg.sim.latency_threshold));
  return v;
}

namespace {

std::string verdict_word(SteadyOutcome o) { return o == SteadyOutcome::Unstable ? "UNSTABLE" : outcome_name(o); }

}  // namespace

TrafficTop::TrafficTop(sc_core::sc_module_name n, const Config& cfg, TrafficStats& stats, const NetworkOptions& opt,
                       const sc_core::sc_signal_in_if<bool>* clock)
    : sc_module(n),
      own_clk(clock ? nullptr : std::make_unique<CycleClock>("clk", cycle_time())),
      clk(clock ? *clock : own_clk->signal()),
      net(make_network("net", cfg, opt)) {
  traffic = std::make_unique<TrafficGen>("traffic", cfg, *net, stats);
  net->clk(clk);
  traffic->clk(clk);
}

namespace {

RunOutcome run_traffic_on(const Config& cfg, sc_core::sc_clock* clock, const RunOptions& given) {
  // SystemC elaborates once per process: a second network, or one after the simulation started,
  // is refused here, before SystemC's own error would name neither.
  static bool built = false;
  if (built || sc_core::sc_get_status() != sc_core::SC_ELABORATION)
    throw ConfigError("run_traffic: a network is built once per process, before the simulation starts (SystemC "
                      "elaborates once); allowed: one call per process, before sc_start");
  check_record_options(given);
  check_synthetic_keys(cfg);
  const uint64_t begin = cfg.sim.warmup, end = cfg.sim.warmup + cfg.sim.measure;
  const int nodes = cfg.net.topology().num_nodes();
  {
    double hops = 0;
    for (int r : cfg.net.radix) hops += r / 4.0;
    if (cfg.part<RouterConfig>().routing == RouterRouting::Valiant) hops *= 2;  // to a random node, then on
    check_recording_estimate(given, nodes, end, cfg.traffic.rate, hops);
  }
  OutputPlan own;
  RunOptions opt = given;
  if (!opt.plan) {
    own.add_input(cfg.traffic.trace);  // a trace the sources read: no output may replace it
    plan_recordings(own, opt);
    if (!opt.json_path.empty()) own.add("--json", opt.json_path);
    opt.plan = &own;
  }
  dry_run_point();  // the configuration checked, the outputs planned: the network is built next
  built = true;
  TrafficStats stats(begin, end, nodes);
  NetworkOptions nopt;
  nopt.listener = &stats;
  nopt.trace_internals = !opt.rtl_vcd.empty();
  nopt.internal_routers = opt.rtl_vcd;
  if (!opt.vcd_routers.empty()) nopt.waveform_routers = split_list(opt.vcd_routers, ',');
  nopt.plain_links = opt.vcd_path.empty() && opt.fst_path.empty();  // no waveform shows the links
  nopt.node_software = false;  // traffic sources submit to the NICs directly
  RunTopPtr<TrafficTop> top(new TrafficTop("top", cfg, stats, nopt, clock));
  // The driver steps in cycles of cycle_time() from its first sc_start on, before the network
  // reads its clock's period at the end of elaboration.
  if (clock) set_cycle_time(clock->period());
  top->traffic->stop_at(end);
  Network& net = *top->net;
  stats.set_hops([&net](const PacketRecord& p) { return net.packet_hops(p); });
  Recorders rec(opt, top->clk, net);

  RunPhases ph;
  ph.warmup = begin;
  ph.measure = cfg.sim.measure;
  ph.limit = end + cfg.sim.drain;
  ph.router_activity = opt.want_result || !opt.json_path.empty();  // read only by the result
  ph.on_limit = RunStatus::DrainTimeout;
  ph.max_step = 1000;
  ph.finished = [&](uint64_t cycle) { return cycle >= end && net.outstanding() == 0; };
  ph.stops = rec.stops();
  ph.at = [&rec](uint64_t cycle) { rec.at(cycle); };
  RunResult r = drive(net, cfg.sim, ph, opt);
  rec.finish();

  const nlohmann::json st = stats.report(r.window);
  // The stability verdict; a drained, clean but unstable run ends with its own status (exit 5).
  const bool judged = r.status == RunStatus::Ok || r.status == RunStatus::DrainTimeout;
  const Stability verdict = stability_verdict(cfg, stats, st, r.status != RunStatus::DrainTimeout, net.zero_load_crossing());
  // The result's status (not a copy: the run's per-router counts are large on a large network).
  RunResult& rr = r;
  if (rr.status == RunStatus::Ok && verdict.outcome == SteadyOutcome::Unstable) rr.status = RunStatus::Unstable;
  // The JSON result: built when asked for (RunOptions::want_result) or written to a file.
  const auto result = [&]() {
    nlohmann::json j = common_result(opt.command, cfg, rr, net);
    j["latency"] = st["latency"];
    // The sources' random streams traffic.rng resolved to (auto: by the network's size).
    j["traffic_rng"] = cfg.traffic.twister(net.num_nodes()) ? "mt19937_64" : "counter";
    j["network_latency"] = st["network_latency"];
    j["message_latency"] = st["message_latency"];
    j["latency_histogram"] = st["latency_histogram"];
    j["network_latency_histogram"] = st["network_latency_histogram"];
    j["latency_by_hops"] = st["latency_by_hops"];
    j["accepted_per_node"] = st["accepted_per_node"];
    j["throughput"] = {{"offered", st["offered"]}, {"accepted", st["accepted"]},
                       {"unit", "flits/node/cycle"}, {"offered_copies", st["offered_copies"]},
                       {"destinations", st["destinations"]}, {"measured_packets", st["measured_packets"]},
                       {"measured_delivered", st["measured_delivered"]},
                       {"window", r.window},
                       {"source_overflow", st["source_overflow"]},
                       {"measured_undelivered", st["measured_packets"].get<uint64_t>() - st["measured_delivered"].get<uint64_t>()},
                       {"stable", judged && verdict.outcome == SteadyOutcome::Stable}};
    nlohmann::json stab = verdict.to_json();
    if (!judged) stab["verdict"] = "none";  // a deadlock, livelock or scoreboard error ends the run first
    j["stability"] = stab;
    return j;
  };

  RunOutcome out;
  if (opt.want_result || !opt.json_path.empty()) out.result = result();
  out.exit_code = exit_code(rr.status);
  const double rcps = r.wall_seconds > 0 ? double(nodes) * double(r.cycles) / r.wall_seconds : 0;
  const nlohmann::json echo = cfg.echo();
  // With multi-destination messages accepted counts flit-copies, offered flits: both are named.
  const double destinations = st["destinations"].get<double>();
  const std::string load =
      destinations > 1.0
          ? fmt::format("accepted {} flit-copies/node/cycle (offered {} flits/node/cycle x {} destinations per "
                        "message = {} flit-copies/node/cycle)",
                        st["accepted"].get<double>(), st["offered"].get<double>(), destinations,
                        st["offered_copies"].get<double>())
          : fmt::format("accepted {} flits/node/cycle (offered {})", st["accepted"].get<double>(),
                        st["offered"].get<double>());
  // (No measured packet delivered: no latency to show, not a latency of 0.)
  const std::string latency =
      st["latency"].value("count", 0) > 0
          ? fmt::format("latency mean {} p99 {} max {} cycles", st["latency"].value("mean", 0.0),
                        st["latency"].value("p99", 0), st["latency"].value("max", 0))
          : std::string("latency: no measured packet delivered");
  out.summary = fmt::format(
      "{} {} {} {} | {} | {} | {} packets | {} cycles, {:.3f} M "
      "router-cycles/s{}",
      status_name(rr.status), echo["net"].value("topology", cfg.net.family), echo["net"]["radix"].get<std::string>(),
      // A trace replaces the sources: traffic.rate is not used, the trace is named instead.
      cfg.traffic.trace.empty() ? fmt::format("rate {}", cfg.traffic.rate)
                                : fmt::format("trace {}", std::filesystem::path(cfg.traffic.trace).filename().string()), latency,
      load, net.scoreboard().delivered_packets(), r.cycles, rcps / 1e6,
      judged ? " | " + verdict_word(verdict.outcome) : std::string());
  if (r.status == RunStatus::Deadlock) {
    out.summary += fmt::format("\ndeadlock: no flit moved since cycle {}; {} buffers wait, {} wait-for edges", r.last_move,
                               r.wait_for.nodes.size(), r.wait_for.edges.size());
    if (!r.wait_for.cycle.empty()) {
      out.summary += "\nwait-for cycle:";
      for (int i : r.wait_for.cycle) out.summary += " " + r.wait_for.nodes[size_t(i)] + " ->";
      out.summary += " " + r.wait_for.nodes[size_t(r.wait_for.cycle.front())];
    }
  }
  if (r.status == RunStatus::Livelock)
    out.summary += r.last_delivery == ~uint64_t(0)
                       ? std::string("\nlivelock: flits kept moving but none was ever delivered")
                       : fmt::format("\nlivelock: flits kept moving but none was delivered since cycle {}", r.last_delivery);
  if (judged) {
    // The steady-state test's reasons under its own outcome, then the run's (did not drain, drops,
    // the latency threshold), which make it unstable whatever the test said: the verdict line
    // names the first reason of the outcome that stands.
    const size_t steady_n = verdict.steady.reasons.size();
    const bool overridden = verdict.outcome != verdict.steady.outcome && verdict.reasons.size() > steady_n;
    out.summary += "\nverdict: " + (overridden ? std::string(outcome_name(verdict.outcome)) + ": " + verdict.reasons[steady_n]
                                              : verdict.steady.brief);
    for (size_t i = 0; i < verdict.reasons.size(); ++i)
      out.summary += fmt::format("\n{}: {}", outcome_name(i < steady_n ? verdict.steady.outcome : verdict.outcome),
                                 verdict.reasons[i]);
  }
  for (auto& e : net.scoreboard().errors()) out.summary += "\nscoreboard: " + e;
  if (!opt.json_path.empty()) opt.plan->write(opt.json_path, out.result.dump(2) + "\n");
  if (!given.plan) own.commit();
  return out;
}

}  // namespace

RunOutcome run_traffic(const Config& cfg, const RunOptions& opt) { return run_traffic_on(cfg, nullptr, opt); }

RunOutcome run_traffic(const Config& cfg, sc_core::sc_clock& clk, const RunOptions& opt) {
  return run_traffic_on(cfg, &clk, opt);
}

}  // namespace wormcast
