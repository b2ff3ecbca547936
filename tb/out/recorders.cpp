// Recording set-up and completion: waveforms with their GTKWave save file, hop and delivery CSVs,
// router internals.
#include "tb/out/recorders.h"

#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "systemc/net/network.h"
#include "tb/out/delivery_csv.h"
#include "tb/out/files.h"
#include "tb/out/hop_csv.h"

namespace wormcast {

namespace {

/// A VCD of every port of `net` (path may end in .vcd) and the GTKWave save file `gtkw_path` for
/// the dump `shown` (default: next to the VCD, for it); nullptr when path is empty. Call after
/// elaboration, before simulating.
sc_core::sc_trace_file* open_vcd(const std::string& path, const sc_core::sc_clock& clk, const Network& net,
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

/// "r_2_3=FILE" of --rtl-vcd: the node and the file; throws ConfigError.
std::pair<int, std::string> parse_rtl_vcd(const Network& net, const std::string& arg) {
  const auto eq = arg.find('=');
  const int node = eq == std::string::npos || eq + 1 >= arg.size() ? -1 : net.find_node(arg.substr(0, eq));
  if (node < 0)
    throw ConfigError(fmt::format("--rtl-vcd '{}' is invalid; allowed: ROUTER=FILE.vcd with ROUTER a router of the "
                                  "network, {} .. {}",
                                  arg, net.node_name(0), net.node_name(net.num_nodes() - 1)));
  return {node, arg.substr(eq + 1)};
}

}  // namespace

void check_record_options(const RecordOptions& opt) {
  if (!opt.fst_path.empty() && run_quietly({"vcd2fst", "--help"}) < 0)
    throw ConfigError("--fst: needs the vcd2fst converter (Debian package gtkwave, installed by scripts/setup); "
                      "allowed without it: --vcd");
  if (!opt.fst_path.empty() && !opt.vcd_path.empty())
    throw ConfigError("--fst: give either --vcd or --fst, not both");
}

Recorders::Recorders(const RecordOptions& opt, const sc_core::sc_clock& clk, Network& net) : m_opt(opt), m_net(net) {
  // Every refusal first, so that a refused run leaves no file behind.
  std::vector<std::pair<int, std::string>> internals;
  for (const auto& a : opt.rtl_vcd) internals.push_back(parse_rtl_vcd(net, a));
  if (!opt.trace_path.empty()) {
    m_hops = std::make_unique<HopCsv>(opt.trace_path);
    const std::string why = net.set_hop_observer(m_hops.get());
    if (!why.empty()) {
      m_hops.reset();
      throw ConfigError("--trace: " + why);
    }
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
  if (!vcd.empty() || !internals.empty()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (const auto& [node, file] : internals) {
    const std::string why = net.trace_internals(node, file);
    if (!why.empty()) throw ConfigError(fmt::format("--rtl-vcd '{}={}': {}", net.node_name(node), file, why));
  }
  m_vcd = open_vcd(vcd, clk, net, gtkw, shown);
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

}  // namespace wormcast
