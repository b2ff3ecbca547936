// Recording set-up and completion: waveforms with their GTKWave save file, hop and delivery CSVs,
// router internals.
#include "tb/out/recorders.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "systemc/net/network.h"
#include "tb/out/delivery_csv.h"
#include "tb/out/packet_csv.h"
#include "tb/out/files.h"
#include "tb/out/hop_csv.h"
#include "tb/out/output_plan.h"
#include "tb/out/wave.h"

namespace wormcast {

namespace {

/// A VCD of every port of `net` into the planned temporary `tmp`. Call after elaboration, before
/// simulating.
sc_core::sc_trace_file* open_vcd(const std::string& tmp, const sc_core::sc_signal_in_if<bool>& clk, const Network& net) {
  // SystemC appends ".vcd" to the name it is given; the temporary ends in it.
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(strip_suffix(tmp, ".vcd").c_str());
  // Setting the unit is reported as an info message on stderr; nothing the user needs.
  const sc_core::sc_actions was = sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  tf->set_time_unit(100, sc_core::SC_PS);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, was);
  sc_core::sc_trace(tf, clk, "top.clk");
  net.trace(tf);
  return tf;
}

/// "r_2_3=FILE" of --rtl-vcd: the node and the file; throws ConfigError.
std::pair<int, std::string> parse_rtl_vcd(const Network& net, const std::string& arg) {
  if (const std::string why = net.internals_refusal(); !why.empty())
    throw ConfigError(Network::router_vcd_refusal(arg, why));
  const auto eq = arg.find('=');
  const int node = eq == std::string::npos || eq + 1 >= arg.size() ? -1 : net.find_node(arg.substr(0, eq));
  if (node < 0)
    throw ConfigError(Network::router_vcd_name_error(arg, net.node_name(0), net.node_name(net.num_nodes() - 1)));
  return {node, arg.substr(eq + 1)};
}

/// The file --vcd writes: SystemC names it BASE.vcd whatever the path ends in.
std::string vcd_file(const std::string& path) { return strip_suffix(path, ".vcd") + ".vcd"; }

// --vcd-window START:END (END above START), given with a waveform; throws ConfigError.
std::pair<uint64_t, uint64_t> vcd_window(const RecordOptions& opt) {
  if (opt.vcd_path.empty() && opt.fst_path.empty())
    throw ConfigError("--vcd-window: given without a waveform; allowed: only with --vcd or --fst");
  const auto parts = split_list(opt.vcd_window, ':');
  if (parts.size() != 2) throw ConfigError(fmt::format("--vcd-window '{}': allowed: START:END, cycles", opt.vcd_window));
  const auto from = uint64_t(parse_int("--vcd-window START", parts[0], 0, 4000000000000000000LL));
  const auto to = uint64_t(parse_int("--vcd-window END", parts[1], 1, 4000000000000000000LL));
  if (to <= from)
    throw ConfigError(fmt::format("--vcd-window '{}': END is not above START; allowed: START:END with END > START", opt.vcd_window));
  return {from, to};
}
}  // namespace

void plan_recordings(OutputPlan& plan, const RecordOptions& opt) {
  plan.set_limit(parse_size("--max-output-size", opt.max_output_size));
  // The waveform's options that need no network, checked before it (and any Verilated model it
  // needs) is built; the routers --vcd-routers names are checked by make_network where the family
  // names its nodes before building.
  if (!opt.vcd_window.empty()) vcd_window(opt);
  if (!opt.vcd_routers.empty() && opt.vcd_path.empty() && opt.fst_path.empty())
    throw ConfigError("--vcd-routers: given without a waveform; allowed: only with --vcd or --fst");
  // A recording is a file (or a file and its save file): "-" would name files "-.vcd", "-.gtkw".
  std::vector<std::pair<const char*, std::string>> paths{{"--vcd", opt.vcd_path}, {"--fst", opt.fst_path},
                                                         {"--trace", opt.trace_path},
                                                         {"--deliveries", opt.deliveries_path},
                                                         {"--packets", opt.packets_path},
                                                         {"--deadlock-dot", opt.deadlock_dot_path}};
  for (const auto& a : opt.rtl_vcd)
    if (const auto eq = a.find('='); eq != std::string::npos) paths.emplace_back("--router-vcd", a.substr(eq + 1));
  for (const auto& [option, path] : paths)
    if (const std::string why = stdout_path_error(option, path); !why.empty())
      throw ConfigError(fmt::format("{}: {}", option, why));
  if (!opt.vcd_path.empty()) {
    // The name is derived (BASE.vcd, BASE.gtkw): a directory or a special file (a device such as
    // /dev/null, which would put /dev/null.vcd beside it) given as the path is refused as such.
    struct stat st {};
    if (opt.vcd_path.back() == '/' || (::stat(opt.vcd_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
      throw ConfigError(fmt::format("--vcd '{}': is a directory; allowed: a file name", opt.vcd_path));
    if (::stat(opt.vcd_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw ConfigError(fmt::format("--vcd '{}': is a special file; allowed: a regular file's name", opt.vcd_path));
    plan.add("--vcd", vcd_file(opt.vcd_path), true, ".vcd");
    plan.add("--vcd", strip_suffix(opt.vcd_path, ".vcd") + ".gtkw");
  }
  if (!opt.fst_path.empty()) {
    plan.add("--fst", opt.fst_path, true);
    plan.add("--fst", strip_suffix(opt.fst_path, ".fst") + ".gtkw");
  }
  if (!opt.trace_path.empty()) plan.add("--trace", opt.trace_path, true);
  if (!opt.deliveries_path.empty()) plan.add("--deliveries", opt.deliveries_path, true);
  if (!opt.packets_path.empty()) plan.add("--packets", opt.packets_path, true);
  if (!opt.deadlock_dot_path.empty()) plan.add("--deadlock-dot", opt.deadlock_dot_path);
  for (const auto& a : opt.rtl_vcd) {
    const auto eq = a.find('=');
    // The temporary ends in ".vcd": a SystemC router's own trace file gets that suffix appended.
    if (eq != std::string::npos && eq + 1 < a.size()) plan.add("--router-vcd", a.substr(eq + 1), true, ".vcd");
  }
}

void check_recording_estimate(const RecordOptions& opt, int nodes, uint64_t cycles, double flits, double hops) {
  const uint64_t limit = parse_size("--max-output-size", opt.max_output_size);
  // Bytes as written, measured on tori from 4x4 to 16x16 and 4x4x4 at 0 to 0.4 flits/node/cycle
  // (within about 12 %): a VCD carries about 4 bytes per router per cycle idle (the clock and
  // time stamps) and 112 per flit crossing a router (the flit and credit fields that change); a
  // record of the CSVs is its fields' digits and separators, the numbers up to their largest.
  const auto digits = [](double x) { return x < 10 ? 1.0 : std::floor(std::log10(x)) + 1; };
  const double c = double(cycles), n = double(nodes);
  const double traced = opt.vcd_routers.empty() ? n : double(split_list(opt.vcd_routers, ',').size());
  double wave_cycles = c;
  if (!opt.vcd_window.empty()) {  // a window bounds the waveform (checked in full elsewhere)
    const auto parts = split_list(opt.vcd_window, ':');
    if (parts.size() == 2) try {
        const double lo = double(parse_int("--vcd-window", parts[0], 0, INT64_MAX));
        const double hi = double(parse_int("--vcd-window", parts[1], 0, INT64_MAX));
        if (hi > lo) wave_cycles = std::min(c, hi - lo);
      } catch (const ConfigError&) {
      }
  }
  const double crossings = flits * (hops + 1.0);  // flits through a router per cycle
  const double wave = wave_cycles * traced * (4.0 + 112.0 * crossings);
  const double packets = c * n * flits;  // packet ids reach about this (one flit a packet at most)
  const double hop_line = digits(c) + digits(n) + 3 + digits(packets) + 3 + 9;       // 9 separators
  const double delivery_line = digits(c) + 2 * digits(n) + digits(packets) + 2 + 6;  // 6 separators
  // A packet's line: its id, three nodes, its flits, four cycles, its hops and two latencies.
  const double packet_line = digits(packets) + 3 * digits(n) + 2 + 4 * digits(c) + 2 + 2 * 3 + 11;  // 11 separators
  double bytes = 0;
  std::string what;
  auto add = [&](const std::string& path, const char* option, double b) {
    if (path.empty()) return;
    bytes += b;
    what += (what.empty() ? "" : ", ") + std::string(option);
  };
  add(opt.vcd_path, "--vcd", wave);
  add(opt.fst_path, "--fst", wave);  // the VCD it is converted from
  add(opt.trace_path, "--trace", c * n * crossings * hop_line);
  add(opt.deliveries_path, "--deliveries", c * n * flits * delivery_line);
  add(opt.packets_path, "--packets", c * n * flits * packet_line);
  if (bytes > double(limit))
    throw ConfigError(fmt::format("--max-output-size: the recordings ({}) of {} cycles on {} nodes would take about {:.3g} "
                                  "bytes, more than the limit of {} bytes; allowed: at most --max-output-size (raise it "
                                  "or record fewer cycles)",
                                  what, cycles, nodes, bytes, limit));
}

void check_record_options(const RecordOptions& opt) {
  if (!opt.fst_path.empty() && run_quietly({"vcd2fst", "--help"}) < 0)
    throw ConfigError("--fst: needs the vcd2fst converter (Debian package gtkwave, installed by scripts/setup); "
                      "allowed without it: --vcd");
  // One waveform per run: each would write its save file BASE.gtkw next to it, and --vcd w.vcd
  // --fst w.fst the same w.gtkw.
  if (!opt.fst_path.empty() && !opt.vcd_path.empty())
    throw ConfigError(fmt::format("--fst: given with --vcd; allowed: either --vcd or --fst, not both (a run records "
                                  "one waveform and its save file, here {} and {})",
                                  strip_suffix(opt.vcd_path, ".vcd") + ".gtkw",
                                  strip_suffix(opt.fst_path, ".fst") + ".gtkw"));
}

Recorders::Recorders(const RecordOptions& opt, const sc_core::sc_signal_in_if<bool>& clk, Network& net,
                     MoreTraces more)
    : m_opt(opt), m_plan(opt.plan), m_net(net), m_more(std::move(more)) {
  if (!m_plan) throw std::logic_error("Recorders: the recordings were not planned (RecordOptions::plan)");
  // Every refusal first, so that a refused run leaves no file behind.
  std::vector<std::pair<int, std::string>> internals;
  for (const auto& a : opt.rtl_vcd) {
    internals.push_back(parse_rtl_vcd(net, a));
    for (size_t i = 0; i + 1 < internals.size(); ++i)
      if (internals[i].first == internals.back().first)
        throw ConfigError(Network::router_vcd_twice(a, net.node_name(internals.back().first)));
  }
  if (!opt.trace_path.empty()) {
    m_hops = std::make_unique<HopCsv>(m_plan->temp(opt.trace_path));
    const std::string why = net.set_hop_observer(m_hops.get());
    if (!why.empty()) {
      m_hops.reset();
      throw ConfigError("--trace: " + why);
    }
  }
  if (!opt.deliveries_path.empty()) {
    m_deliveries = std::make_unique<DeliveryCsv>(m_plan->temp(opt.deliveries_path));
    net.scoreboard().set_delivery_observer(m_deliveries.get());
  }
  if (!opt.packets_path.empty()) {
    m_packets = std::make_unique<PacketCsv>(m_plan->temp(opt.packets_path),
                                            [&net](const PacketRecord& r) { return net.packet_hops(r); });
    net.scoreboard().set_packet_observer(m_packets.get());
  }
  // --fst records a scratch VCD that finish() converts; the save file shows the FST.
  std::string vcd_tmp, gtkw, shown;
  if (!opt.vcd_path.empty()) {
    vcd_tmp = m_plan->temp(vcd_file(opt.vcd_path));
    gtkw = strip_suffix(opt.vcd_path, ".vcd") + ".gtkw";
    shown = vcd_file(opt.vcd_path);
  }
  if (!opt.fst_path.empty()) {
    m_fst_vcd = vcd_tmp = m_plan->scratch("--fst", opt.fst_path, ".vcd");
    gtkw = strip_suffix(opt.fst_path, ".fst") + ".gtkw";
    shown = opt.fst_path;
  }
  // Tracing starts after elaboration has completed.
  if (!vcd_tmp.empty()) net.will_trace();
  if (!vcd_tmp.empty() || !internals.empty()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (const auto& [node, file] : internals) {
    const std::string why = net.trace_internals(node, m_plan->temp(file));
    if (!why.empty()) throw ConfigError(fmt::format("--router-vcd '{}={}': {}", net.node_name(node), file, why));
  }
  if (!opt.vcd_routers.empty()) {
    if (vcd_tmp.empty()) throw ConfigError("--vcd-routers: given without a waveform; allowed: only with --vcd or --fst");
    // A family that records its whole network says so before any name is looked up.
    if (const std::string why = net.set_traced_nodes({}); !why.empty())
      throw ConfigError("--vcd-routers: " + why + "; allowed: --vcd or --fst without --vcd-routers");
    std::vector<int> nodes;
    for (const auto& name : split_list(opt.vcd_routers, ',')) {
      const int node = net.find_node(name);
      if (node < 0) throw ConfigError(Network::waveform_router_error(name, net.node_name(0)));
      nodes.push_back(node);
    }
    const std::string why = net.set_traced_nodes(nodes);
    if (!why.empty()) throw ConfigError("--vcd-routers: " + why);
    m_traced.assign(size_t(net.num_nodes()), false);
    for (int node : nodes) m_traced[size_t(node)] = true;
  }
  m_vcd_tmp = vcd_tmp;
  m_gtkw = gtkw;
  m_shown = shown;
  m_clk = &clk;
  if (!opt.vcd_window.empty()) {
    std::tie(m_from, m_to) = vcd_window(opt);
    m_windowed = true;
  }
  if (!vcd_tmp.empty() && (!m_windowed || m_from == 0)) {
    m_vcd = open_vcd(vcd_tmp, clk, net);
    if (m_more) m_more(m_vcd, m_traced);
    m_opened = true;
  }
}

std::vector<uint64_t> Recorders::stops() const {
  if (!m_windowed) return {};
  return {m_from, m_to};
}

void Recorders::at(uint64_t cycle) {
  if (!m_windowed) return;
  if (cycle == m_from && !m_opened) {
    m_vcd = open_vcd(m_vcd_tmp, *m_clk, m_net);
    if (m_more) m_more(m_vcd, m_traced);
    m_opened = true;
  }
  if (cycle == m_to && m_vcd) {
    sc_core::sc_close_vcd_trace_file(m_vcd);
    m_vcd = nullptr;
  }
}

Recorders::~Recorders() = default;

void Recorders::finish() {
  m_net.close_internals();  // router-internal waveforms complete before they are put in place
  if (m_windowed && !m_opened) {  // the run ended before the window: no waveform, and said so
    std::fprintf(stderr, "wormcast: --vcd-window: the run ended at cycle %llu, not after the window's start %llu; "
                         "no waveform written\n", (unsigned long long)current_cycle(), (unsigned long long)m_from);
    if (!m_opt.vcd_path.empty()) m_plan->drop(vcd_file(m_opt.vcd_path));
    if (!m_opt.fst_path.empty()) m_plan->drop(m_opt.fst_path);
    m_plan->drop(m_gtkw);
    m_fst_vcd.clear();
    m_windowed = false;
  }
  if (m_vcd) sc_core::sc_close_vcd_trace_file(m_vcd);
  m_vcd = nullptr;
  if (m_opened) {
    // The save file, from the complete dump's declarations (tb/out/wave.h): the view opens on its
    // first 200 cycles.
    const bool fst = m_opt.vcd_path.empty();
    VcdInfo info;
    try {
      info = read_vcd_info(fst ? "--fst" : "--vcd", m_vcd_tmp);
    } catch (const ConfigError&) {
      // The recorder's writes are not checked as they go: a dump cut short is one the file system
      // had no room for (or lost), named by the user's path, not the temporary's.
      struct statvfs fs {};
      const bool full = statvfs(m_vcd_tmp.c_str(), &fs) == 0 && fs.f_bavail == 0;
      throw ConfigError(fmt::format("{} '{}': cannot write the waveform{}; allowed: a file system with room for it",
                                    fst ? "--fst" : "--vcd", fst ? m_opt.fst_path : m_opt.vcd_path,
                                    full ? ": No space left on device" : " completely"));
    }
    m_plan->write(m_gtkw, overview_save_file(m_shown, info, {}, 200, nullptr));
  }
  if (!m_fst_vcd.empty()) {
    m_plan->companion(m_plan->temp(m_opt.fst_path) + ".hier");  // vcd2fst's own scratch
    const int rc = run_quietly({"vcd2fst", m_fst_vcd, m_plan->temp(m_opt.fst_path)});
    std::remove(m_fst_vcd.c_str());
    m_fst_vcd.clear();
    if (rc != 0) throw ConfigError(fmt::format("--fst '{}': converting the waveform failed; allowed: --vcd (no conversion)", m_opt.fst_path));
  }
  if (m_hops && !m_hops->finish()) throw ConfigError(fmt::format("--trace '{}': cannot write; allowed: a file system with room for it", m_opt.trace_path));
  if (m_deliveries) {
    m_net.scoreboard().set_delivery_observer(nullptr);
    if (!m_deliveries->finish()) throw ConfigError(fmt::format("--deliveries '{}': cannot write; allowed: a file system with room for it", m_opt.deliveries_path));
  }
  if (m_packets) {
    m_net.scoreboard().set_packet_observer(nullptr);
    if (!m_packets->finish()) throw ConfigError(fmt::format("--packets '{}': cannot write; allowed: a file system with room for it", m_opt.packets_path));
  }
  // The files complete and closed: the size limit once more, on what they hold now (the run's
  // checks saw them before the last step and with their writers' buffers unflushed).
  m_plan->check_size();
}

}  // namespace wormcast
