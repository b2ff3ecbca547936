// The traffic experiment driver behind `wormcast run` and `wormcast traffic`.
#include "tb/sim.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/torus/network.h"
#include "tb/delivery_csv.h"
#include "tb/hop_csv.h"
#include "tb/traffic.h"

namespace wormcast {

namespace {

double wall_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

struct Top : sc_core::sc_module {
  sc_core::sc_clock clk;
  TorusNetwork net;
  TrafficGen traffic;
  Top(sc_core::sc_module_name n, const Config& cfg, TrafficStats& stats)
      : sc_module(n), clk("clk", cycle_time()), net("net", cfg, &stats), traffic("traffic", cfg, net, stats) {
    net.clk(clk);
    traffic.clk(clk);
  }
};

/// Runs a program found on PATH with its output discarded; its exit status (-1: not started).
int run_quietly(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string strip_suffix(std::string s, const std::string& suffix) {
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}

/// A VCD of every router port of `net` (path may end in .vcd) and the GTKWave save file
/// `gtkw_path` for the dump `shown` (default: next to the VCD, for it); nullptr when path is empty.
/// Call after elaboration, before simulating.
sc_core::sc_trace_file* open_vcd(const std::string& path, const sc_core::sc_clock& clk, const TorusNetwork& net,
                                 std::string gtkw_path, std::string shown) {
  if (path.empty()) return nullptr;
  const std::string base = strip_suffix(path, ".vcd");
  if (gtkw_path.empty()) gtkw_path = base + ".gtkw";
  if (shown.empty()) shown = base + ".vcd";
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  // Setting the unit is reported as an info message on stderr; nothing the user needs.
  const sc_core::sc_actions was = sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  tf->set_time_unit(100, sc_core::SC_PS);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, was);
  sc_core::sc_trace(tf, clk, "top.clk");
  net.trace(tf);
  write_file_atomic(gtkw_path, net.gtkw(shown));
  return tf;
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());  // leave nothing behind
    throw ConfigError(fmt::format("cannot write '{}'", path));
  }
}

Progress::Progress(const std::string& mode, uint64_t total)
    : m_on(mode == "on" || (mode == "auto" && isatty(2))), m_total(total), m_start(wall_seconds()) {}

void Progress::update(uint64_t cycle) {
  if (!m_on) return;
  const double now = wall_seconds();
  if (now - m_last < 0.25) return;
  m_last = now;
  const double rate = double(cycle) / std::max(1e-9, now - m_start);
  const double eta = cycle < m_total ? double(m_total - cycle) / std::max(rate, 1e-9) : 0.0;
  std::fprintf(stderr, "\r  cycle %llu / %llu  %.0f cycles/s  ETA %.0f s   ", (unsigned long long)cycle,
               (unsigned long long)m_total, rate, eta);
}

void Progress::done() {
  if (m_on) std::fprintf(stderr, "\r%*s\r", 70, "");
}

namespace {
/// "r_2_3=FILE" of --rtl-vcd: the node and the file; throws ConfigError.
std::pair<int, std::string> parse_rtl_vcd(const Config& cfg, const std::string& arg) {
  const auto eq = arg.find('=');
  const sw::Topology topo = cfg.net.topology();
  int node = -1;
  if (eq != std::string::npos && eq + 1 < arg.size())
    for (int i = 0; i < topo.num_nodes() && node < 0; ++i)
      if (router_name(topo, i) == arg.substr(0, eq)) node = i;
  if (node < 0)
    throw ConfigError(fmt::format("--rtl-vcd '{}' is invalid; allowed: ROUTER=FILE.vcd with ROUTER a router of the "
                                  "network, {} .. {}",
                                  arg, router_name(topo, 0), router_name(topo, topo.num_nodes() - 1)));
  if (!node_is_rtl(cfg, topo, node))
    throw ConfigError(fmt::format("--rtl-vcd '{}': that router is a SystemC router; allowed: router.model = rtl, or "
                                  "mixed and a router whose coordinate sum is even",
                                  arg));
  return {node, arg.substr(eq + 1)};
}
}  // namespace

void check_record_options(const Config& cfg, const RecordOptions& opt) {
  for (const auto& a : opt.rtl_vcd) parse_rtl_vcd(cfg, a);
  if (!opt.rtl_vcd.empty()) enable_rtl_internal_tracing();
  if (!opt.fst_path.empty() && run_quietly({"vcd2fst", "--help"}) < 0)
    throw ConfigError("--fst: needs the vcd2fst converter (Debian package gtkwave, installed by scripts/setup); "
                      "allowed without it: --vcd");
  if (!opt.fst_path.empty() && !opt.vcd_path.empty())
    throw ConfigError("--fst: give either --vcd or --fst, not both");
  if (!opt.trace_path.empty() && cfg.router.model != RouterModel::SystemC)
    throw ConfigError("--trace: the per-hop trace needs router.model = sc (an RTL router's switch is not visible at "
                      "its ports); allowed with rtl/mixed: --deliveries, --vcd");
}

Recorders::Recorders(const RecordOptions& opt, const sc_core::sc_clock& clk, TorusNetwork& net)
    : m_opt(opt), m_net(net) {
  if (!opt.trace_path.empty()) {
    m_hops = std::make_unique<HopCsv>(opt.trace_path);
    net.set_observer(m_hops.get());
  }
  if (!opt.deliveries_path.empty()) {
    m_deliveries = std::make_unique<DeliveryCsv>(opt.deliveries_path);
    net.scoreboard().set_delivery_observer(m_deliveries.get());
  }
  // --fst records a temporary VCD that finish() converts; the save file shows the FST.
  std::string vcd = opt.vcd_path, gtkw, shown;
  if (!opt.fst_path.empty()) {
    const std::string base = strip_suffix(opt.fst_path, ".fst");
    m_fst_vcd = vcd = base + ".fst-tmp.vcd";
    gtkw = base + ".gtkw";
    shown = opt.fst_path;
  }
  // Tracing starts after elaboration has completed.
  if (!vcd.empty() || !opt.rtl_vcd.empty()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  m_vcd = open_vcd(vcd, clk, net, gtkw, shown);
  for (const auto& a : opt.rtl_vcd) {
    const auto [node, file] = parse_rtl_vcd(net.config(), a);
    net.router(node).trace_internals(file);
  }
}

Recorders::~Recorders() = default;

void Recorders::finish() {
  if (m_vcd) sc_core::sc_close_vcd_trace_file(m_vcd);
  m_vcd = nullptr;
  if (!m_fst_vcd.empty()) {
    const std::string tmp = m_opt.fst_path + ".tmp";
    const int rc = run_quietly({"vcd2fst", m_fst_vcd, tmp});
    std::remove(m_fst_vcd.c_str());
    if (rc != 0 || std::rename(tmp.c_str(), m_opt.fst_path.c_str()) != 0) {
      std::remove(tmp.c_str());
      throw ConfigError(fmt::format("--fst: converting the waveform to '{}' failed", m_opt.fst_path));
    }
    m_fst_vcd.clear();
  }
  if (m_hops && !m_hops->finish()) throw ConfigError(fmt::format("cannot write '{}'", m_opt.trace_path));
  if (m_deliveries) {
    m_net.scoreboard().set_delivery_observer(nullptr);
    if (!m_deliveries->finish()) throw ConfigError(fmt::format("cannot write '{}'", m_opt.deliveries_path));
  }
}

RunOutcome run_traffic(const Config& cfg, const RunOptions& opt) {
  check_record_options(cfg, opt);
  const uint64_t begin = cfg.sim.warmup, end = cfg.sim.warmup + cfg.sim.measure;
  const int nodes = cfg.net.topology().num_nodes();
  TrafficStats stats(begin, end, nodes);
  auto top = std::make_unique<Top>("top", cfg, stats);
  top->traffic.stop_at(end);
  TorusNetwork& net = top->net;

  Recorders rec(opt, top->clk, net);

  const double t0 = wall_seconds();
  const uint64_t limit = end + cfg.sim.drain;
  const uint64_t step = std::min<uint64_t>(1000, cfg.sim.watchdog / 2 + 1);
  Progress progress(cfg.sim.progress, end);
  std::vector<uint64_t> links_begin;
  std::string status = "ok";
  uint64_t cycle = 0;
  uint64_t seen = 0, last_progress = 0;  // watchdog: any switch, injection or delivery is progress
  for (;;) {
    uint64_t target = cycle + step;
    if (cycle < begin && target > begin) target = begin;
    if (cycle < end && target > end) target = end;
    sc_core::sc_start(cycle_time() * double(target - cycle));
    cycle = target;
    progress.update(cycle);
    if (cycle == begin) links_begin = net.link_counters();
    const uint64_t moved = net.activity().switched + net.scoreboard().injected_packets();
    if (moved != seen) {
      seen = moved;
      last_progress = cycle;
    }
    if (net.scoreboard().in_flight() > 0 && cycle - last_progress >= cfg.sim.watchdog) {
      status = "deadlock";
      break;
    }
    if (cycle >= end && net.outstanding() == 0) break;
    if (cycle >= limit) {
      status = "drain_timeout";
      break;
    }
  }
  progress.done();
  const double wall = wall_seconds() - t0;
  if (links_begin.empty()) links_begin = net.link_counters();
  rec.finish();

  const Scoreboard& sb = net.scoreboard();
  if (sb.error_count() > 0) status = "scoreboard_error";

  nlohmann::json j;
  j["wormcast"] = {{"command", opt.command}, {"format", 1}};
  j["config"] = cfg.echo();
  j["status"] = status;
  j["cycles"] = cycle;
  j["packets"] = {{"injected", sb.injected_packets()}, {"delivered", sb.delivered_packets()},
                  {"in_flight_at_end", sb.in_flight()}, {"outstanding_at_end", net.outstanding()}};
  const nlohmann::json st = stats.report();
  j["latency"] = st["latency"];
  j["network_latency"] = st["network_latency"];
  j["throughput"] = {{"offered", st["offered"]}, {"accepted", st["accepted"]},
                     {"unit", "flits/node/cycle"}, {"measured_packets", st["measured_packets"]},
                     {"measured_delivered", st["measured_delivered"]}};
  // Link utilization over the measurement window (flits per cycle per network link).
  const auto links_end = net.link_counters();
  std::vector<double> util;
  double sum = 0, mx = 0;
  const uint64_t window = std::min(cycle, end) - std::min(cycle, begin);
  for (size_t i = 0; i < links_end.size(); ++i) {
    if (links_end[i] == ~uint64_t(0)) {
      util.push_back(-1);  // mesh edge: no link
      continue;
    }
    const double u = window ? std::round(double(links_end[i] - links_begin[i]) / double(window) * 1e4) / 1e4 : 0.0;
    util.push_back(u);
    sum += u;
    mx = std::max(mx, u);
  }
  const size_t real_links = size_t(std::count_if(util.begin(), util.end(), [](double u) { return u >= 0; }));
  j["links"] = {{"mean_utilization", real_links ? std::round(sum / double(real_links) * 1e4) / 1e4 : 0.0},
                {"max_utilization", mx},
                {"order", "router id major, network port 2*dim+dir minor; -1 = no link (mesh edge)"},
                {"utilization", util}};
  j["scoreboard"] = {{"errors", sb.error_count()}, {"first_errors", sb.errors()}};
  if (status == "deadlock") {
    j["deadlock"] = {{"detected", true}, {"cycle", cycle}, {"last_move", net.activity().last_move},
                     {"wait_for", net.wait_for()}};
  } else {
    j["deadlock"] = {{"detected", false}};
  }

  RunOutcome out;
  out.result = j;
  out.exit_code = status == "ok" ? 0 : status == "deadlock" ? 3 : 1;
  const double rcps = wall > 0 ? double(nodes) * double(cycle) / wall : 0;
  out.summary = fmt::format(
      "{} {} {} rate {} | latency mean {} p99 {} max {} cycles | accepted {} flits/node/cycle (offered {}) | "
      "{} packets | {} cycles, {:.3f} M router-cycles/s",
      status, cfg.echo()["net"]["topology"].get<std::string>(), cfg.echo()["net"]["radix"].get<std::string>(),
      cfg.traffic.rate, st["latency"].value("mean", 0.0), st["latency"].value("p99", 0),
      st["latency"].value("max", 0), st["accepted"].get<double>(), st["offered"].get<double>(),
      sb.delivered_packets(), cycle, rcps / 1e6);
  if (status == "deadlock")
    out.summary += fmt::format("\ndeadlock: no flit moved since cycle {}; {} buffers wait (see wait_for in the JSON)",
                               net.activity().last_move, j["deadlock"]["wait_for"].size());
  for (auto& e : sb.errors()) out.summary += "\nscoreboard: " + e;
  if (!opt.json_path.empty()) write_file_atomic(opt.json_path, j.dump(2) + "\n");
  return out;
}

}  // namespace wormcast
