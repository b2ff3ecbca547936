// The torus family's network: one router, one NIC core and one NIC port adapter per node, wired
// by flit and credit signals following the port numbering of docs/router.md; hierarchical names
// carry coordinates (top.net.r_2_3).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/kernel/link_signal.h"
#include "systemc/net/network.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/nic_port.h"
#include "systemc/torus/params.h"
#include "systemc/torus/router_base.h"
#include "systemc/torus/routing.h"

namespace wormcast {

/// Plain links: the routers of a network of more nodes than this write their network outputs
/// through compact records (TorusRouter::plain_network_output), those of a smaller one through
/// their link writers.
constexpr int kCompactWritersAbove = 4096;

/// "r_2_3" for node (2, 3): the router's instance name in a network.
std::string router_name(const sw::Topology& topo, int node);

class TorusNetwork : public Network, private ClockRider {
 public:
  TorusNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt = {});

  const RouterParams& params() const { return m_rp; }
  RouterBase& router(int node) { return *m_routers[size_t(node)]; }
  std::string node_name(int node) const override;

  std::vector<uint64_t> link_counters() const override;
  std::vector<RouterActivity> router_activity(uint64_t now, std::vector<bool>* counted = nullptr) const override;
  RouterShape router_shape() const override { return {m_rp.num_ports(), m_rp.num_vcs, m_rp.buffer_depth}; }
  std::string link_order() const override;
  std::string vc_order() const override;
  void trace(sc_core::sc_trace_file* tf) const override;
  std::string set_traced_nodes(const std::vector<int>& nodes) override {
    m_traced.assign(m_routers.size(), false);
    for (int n : nodes) m_traced[size_t(n)] = true;
    return "";
  }
  std::string set_hop_observer(HopObserver* obs) override;
  void will_trace() override;
  const char* link_mode() const override { return m_boxed ? "mailbox" : "queued"; }
  uint64_t parallel_edges() const override { return m_rising->parallel_edges(); }
  uint64_t one_lane_edges() const override { return m_rising->one_lane_edges(); }
  uint64_t crowded_edges() const override { return m_rising->crowded_edges(); }
  int threads() const override { return m_rising->threads(); }
  int lanes() const override { return m_rising->lanes(); }
  std::string threads_rule() const override { return m_threads_rule; }
  std::string trace_internals(int node, const std::string& vcd_path) override;
  std::string internals_refusal() const override { return ""; }
  void close_internals() override {
    for (auto& r : m_routers) r->close_internals();
  }
  std::vector<WaitEdge> wait_edges() const override;
  uint64_t zero_load(int src, int dst, uint32_t length) const override {
    return zero_load_hops(uint64_t(hops(src, dst)), length);
  }
  uint64_t packet_zero_load(const PacketRecord& rec) const override {
    return rec.dst < 0 ? zero_load(rec.src, rec.dst, rec.length) : zero_load_hops(uint64_t(packet_hops(rec)), rec.length);
  }
  int hops(int src, int dst) const override {
    return m_routing ? m_routing->hops(src, dst, false) : m_topo.hops(src, dst, false);
  }
  /// The longest one-flit crossing (under valiant: two routes' worth, through an intermediate
  /// node) or the longest credit round trip (RouterParams::streaming_depth), whichever is longer.
  uint64_t longest_quiet() const override;
  /// longest_quiet() of a network of these routers on `topo`, routed by `routing` (null: the
  /// topology's dimension order), before it is built (Family::longest_quiet).
  static uint64_t longest_quiet_of(const RouterParams& rp, const sw::Topology& topo, const PortRouting* routing);

 protected:
  /// A family built of the torus router with ports and routing of its own (the interlaced bypass
  /// torus): rp.extra_ports network ports beyond the torus ones, wired and routed by `routing`.
  TorusNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt, const RouterParams& rp,
               std::shared_ptr<const PortRouting> routing);
  /// Node through network port p of node r (-1: none, a mesh edge).
  int neighbor(int r, int p) const { return m_routing ? m_routing->neighbor(r, p) : m_topo.neighbor(r, p); }
  /// The length of the link leaving network port p of node r, in network links: what one flit on
  /// it costs in link energy (docs/energy.md). The torus's links: 1.
  virtual int link_span(int /*r*/, int /*p*/) const { return 1; }

 private:
  using FlitSig = LinkSignal<Flit>;
  using CreditSig = LinkSignal<Credit>;

  /// (h+1) R + h Ld + Di + De + L (docs/router.md section 7).
  uint64_t zero_load_hops(uint64_t h, uint32_t length) const { return zero_load_hops(m_rp, h, length); }
  static uint64_t zero_load_hops(const RouterParams& rp, uint64_t h, uint32_t length);
  /// Every link becomes a mailbox when the routers are all SystemC and no waveform shows the
  /// links (docs/kernel.md).
  void start_of_simulation() override;
  // A fused clock (docs/kernel.md section 4) runs the two edge sets directly when the links are
  // mailboxes: every router and NIC port is then a member of one of them, and their processes are
  // the only ones of the network that wait for the clock. A router's internals waveform keeps the
  // clock a signal, so that the waveform shows it toggle and its values at both edges.
  ClockRider* clock_rider() override { return this; }
  bool fusable() const override { return m_boxed && !options().trace_internals; }
  int edge_requests() const override { return 2; }
  void rising(uint64_t t) override { m_rising->run_edge(t); }
  void falling(uint64_t t) override { m_falling->run_edge(t); }
  /// Plain links (no signal, so no update phase) and no node software (whose processes act at
  /// times of their own): between two cycles nothing but the edges acts.
  bool stretchable() const override { return m_plain && m_boxed && !options().node_software; }
  // Bands (sim.schedule = bands; docs/kernel.md section 5): node n's router and NIC port are
  // member n of the two edge sets; the grid's rows are the coordinates of the last dimension and
  // its columns those of the one before (cells of the nodes that share both), each folded on a
  // torus (0, k-1, 1, k-2, ...) so that its wraparound link stays near.
  bool bandable() const override {
    // A network of one block gains nothing from tiles: it runs cycle by cycle. A band runs many
    // cycles at once, so the network must be stretchable (no node software acting between them).
    return m_bands && m_topo.num_nodes() > m_band_nodes && stretchable() && m_rising->lanes() == 1 &&
           !m_hop_observed && !m_sb.observed();
  }
  bool band_plan(BandPlan& plan) const override;
  void band_begin(uint64_t, uint64_t) override {
    if (m_rising->banded()) return;
    m_rising->set_banded(true);  // a router's state is most of a node's (measured: docs/kernel.md section 5)
    m_falling->set_banded(false);
  }
  /// sim.schedule = auto: bands where the clock's probe measures them faster (cycle_clock.h).
  bool band_probe() const override { return m_cfg.sim.schedule == Schedule::Auto; }
  void band_leave(uint64_t) override {
    m_rising->leave_banded();
    m_falling->leave_banded();
  }
  void rising_nodes(const int* nodes, size_t count, uint64_t t) override { m_rising->run_banded(nodes, count, t); }
  void falling_nodes(const int* nodes, size_t count, uint64_t t) override { m_falling->run_banded(nodes, count, t); }
  void prefetch_nodes(const int* nodes, size_t count, int stage) override {
    m_rising->prefetch_banded(nodes, count, stage);
    m_falling->prefetch_banded(nodes, count, stage);
  }

  RouterParams m_rp;
  std::shared_ptr<const PortRouting> m_routing;  ///< null: the torus family's dimension order
  std::vector<bool> m_traced;  ///< routers in trace() (empty: all)
  bool m_links_traced = false;  ///< a waveform will show the links (will_trace)
  bool m_boxed = false;         ///< the links are mailboxes
  std::string m_threads_rule;   ///< how sim.threads was resolved
  bool m_bands = false;         ///< sim.schedule = bands, or auto taking bands
  int m_band_nodes = 1024;      ///< sim.band_nodes
  bool m_hop_observed = false;  ///< a hop observer sees the routers (no bands)
  bool traced(int node) const { return m_traced.empty() || m_traced[size_t(node)]; }
  // The SystemC routers act from one rising-edge set, the NIC ports from one falling-edge set, and
  // every link updates through one bank (docs/kernel.md).
  std::unique_ptr<EdgeSet> m_rising, m_falling;
  std::unique_ptr<LinkBank> m_bank;
  std::unique_ptr<LinkQueue<Flit>> m_flit_queue;
  std::unique_ptr<LinkQueue<Credit>> m_credit_queue;
  std::vector<std::unique_ptr<RouterBase>> m_routers;
  std::vector<std::unique_ptr<TorusNicPort>> m_ports;
  // out_flit[r*NP+p] is driven by router r output p; out_credit[r*NP+p] by router r credit_out p.
  std::vector<std::unique_ptr<FlitSig>> m_out_flit, m_nic_flit;
  std::vector<std::unique_ptr<CreditSig>> m_out_credit, m_nic_credit;
  std::unique_ptr<FlitSig> m_idle_flit;
  std::unique_ptr<CreditSig> m_idle_credit;
  // Plain links (NetworkOptions::plain_links with SystemC routers, in one or more lanes; docs/kernel.md):
  // every link is its two boxes, in two arrays indexed by the link's reader: [r * NP + p]
  // for router r's input p (flits) and credit input p (the credits for its output p), [N * NP + r * P
  // + j] for node r's ejection channel j (flits) and injection credit input j.
  template <class T>
  struct Boxes {
    T v[2];
  };
  bool m_plain = false;
  std::vector<InputWatch> m_watch;  ///< [r]: router r's input masks and sleep state
  std::vector<Boxes<Flit>> m_flit_boxes;
  std::vector<Boxes<Credit>> m_credit_boxes;
  Boxes<Flit> m_idle_flit_boxes;  ///< a mesh edge's input: never written
  Boxes<Credit> m_idle_credit_boxes;
  Waker m_nobody;                 ///< a mesh edge's output has no reader (routing never selects it)
  uint32_t m_nobody_mask[2] = {0, 0};
  void wire_plain_links();
};

/// The torus family's registry entry (systemc/families.cpp).
Family torus_family();

}  // namespace wormcast
