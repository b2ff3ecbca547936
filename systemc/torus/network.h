// Network builder: one router and one NIC per node, wired by flit and credit signals following
// the port numbering of docs/router.md; hierarchical names carry coordinates (top.net.r_2_3).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "systemc/common/config.h"
#include "systemc/common/flit.h"
#include "systemc/common/link_signal.h"
#include "systemc/nic/nic.h"
#include "systemc/nic/scoreboard.h"
#include "systemc/torus/router.h"
#include "systemc/torus/router_models.h"

namespace wormcast {

/// "r_2_3" for node (2, 3): the router's instance name in a network.
std::string router_name(const sw::Topology& topo, int node);

class TorusNetwork : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  TorusNetwork(sc_core::sc_module_name name, const Config& cfg, PacketListener* listener = nullptr);

  const sw::Topology& topology() const { return m_topo; }
  const Config& config() const { return m_cfg; }
  const RouterParams& params() const { return m_rp; }
  int num_nodes() const { return m_topo.num_nodes(); }
  RouterBase& router(int node) { return *m_routers[size_t(node)]; }
  Nic& nic(int node) { return *m_nics[size_t(node)]; }
  Scoreboard& scoreboard() { return m_sb; }
  NetActivity& activity() { return m_activity; }
  /// "r_2_3" for node (2, 3).
  std::string node_name(int node) const;
  void set_observer(HopObserver* obs);

  /// Trace every port wire under its router-port name (top.net.r_2_3.in_1 ...).
  void trace(sc_core::sc_trace_file* tf) const;
  /// The GTKWave save-file text grouping signals per router and port.
  std::string gtkw(const std::string& dump_file) const;
  /// Input buffers holding flits and what each waits for (the deadlock report).
  nlohmann::json wait_for() const;
  /// Flits per cycle on every network link over a window, from two counter snapshots.
  std::vector<uint64_t> link_counters() const;
  /// Packets queued in NICs or in flight.
  uint64_t outstanding() const;

 private:
  using FlitSig = LinkSignal<Flit>;
  using CreditSig = LinkSignal<Credit>;

  Config m_cfg;
  sw::Topology m_topo;
  RouterParams m_rp;
  Scoreboard m_sb;
  NetActivity m_activity;
  std::vector<std::unique_ptr<RouterBase>> m_routers;
  std::vector<std::unique_ptr<Nic>> m_nics;
  // out_flit[r*NP+p] is driven by router r output p; out_credit[r*NP+p] by router r credit_out p.
  std::vector<std::unique_ptr<FlitSig>> m_out_flit, m_nic_flit;
  std::vector<std::unique_ptr<CreditSig>> m_out_credit, m_nic_credit;
  std::unique_ptr<FlitSig> m_idle_flit;
  std::unique_ptr<CreditSig> m_idle_credit;
};

}  // namespace wormcast
