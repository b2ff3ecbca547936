// The k-ary m-way family behind the family-neutral Network: the fabric of docs/mway.md, one NIC
// core per node interface, and the port adapter that hands packets to the fabric at the falling
// edge and its deliveries back to the NIC core.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/mway/fabric.h"
#include "systemc/net/network.h"

namespace wormcast {

/// The fabric parameters of a configuration (mway.* keys, net.radix, nic.max_packet); throws
/// ConfigError naming the key and the allowed range.
MwayParams mway_params(const Config& cfg);

/// The fabric mway.model asks for: the SystemC MwayFabric, or the Verilated RTL of the same
/// parameters (built on first use); throws ConfigError naming the key and the limit the RTL lacks.
std::unique_ptr<MwayFabricIf> make_mway_fabric(sc_core::sc_module_name name, const Config& cfg);

/// One node's adapter: the NIC core's packets enter the fabric's node interface at the falling
/// edge of the cycle they are ready in (the fabric loads them from the next rising edge on).
class MwayNicPort : public sc_core::sc_module, public NicPort {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  MwayNicPort(sc_core::sc_module_name name, Nic& core, MwayFabricIf& fabric);

  int channels() const override { return 1; }
  int channel_for(const Destination&, bool) const override { return 0; }
  std::shared_ptr<const std::vector<int>> group_of(const Destination& d) const override;
  void wake() override {
    if (m_sleeping) m_wake.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  void falling_edge();
  MwayMessage message(const OutPacket& p) const;

  Nic& m_core;
  MwayFabricIf& m_fabric;
  bool m_sleeping = false;
  sc_core::sc_event m_wake;
};

class MwayNetwork : public Network, private MwayObserver, private MwayChannelObserver {
 public:
  MwayNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt);

  /// The SystemC fabric (mway.model = sc); throws std::logic_error for an RTL one.
  MwayFabric& fabric();
  /// The fabric behind the fabric interface, whichever it is.
  MwayFabricIf& fabric_if() { return *m_fabric; }
  std::string node_name(int node) const override { return m_fabric->node_name(node); }
  std::vector<uint64_t> link_counters() const override { return m_fabric->channel_flits(); }
  std::string link_order() const override;
  std::vector<uint64_t> injection_counters() const override { return m_fabric->node_flits(); }
  std::vector<std::pair<std::string, uint64_t>> link_cycles() const override { return m_fabric->line_uses(); }
  uint64_t link_cycles_total() const override { return uint64_t(m_fabric->num_nodes()); }
  /// Edge t + 1 commits (and counts) the channel transfer of cycle t, in either fabric.
  uint64_t link_counter_lag() const override { return 1; }
  void trace(sc_core::sc_trace_file* tf) const override { m_fabric->trace(tf); }
  std::string set_hop_observer(HopObserver* obs) override;
  uint64_t zero_load(int src, int dst, uint32_t length) const override { return zero_load_of(m_topo, src, dst, length); }
  static uint64_t zero_load_of(const sw::Topology& topo, int src, int dst, uint32_t length);
  std::vector<WaitEdge> wait_edges() const override { return m_fabric->wait_edges(); }
  bool names_every_waiting_packet() const override { return m_fabric->names_every_waiting_packet(); }

 private:
  void on_deliver(uint64_t cycle, int node, uint64_t packet, uint32_t index, bool head, bool tail) override;
  void on_inject(uint64_t cycle, uint64_t packet) override;
  /// A channel crossing as hop records, one per receiver that wrote the flit (section 12).
  void on_channel(const MwayChannelEvent& e) override;

  std::unique_ptr<MwayFabricIf> m_fabric;
  std::vector<std::unique_ptr<MwayNicPort>> m_ports;
  HopObserver* m_hops = nullptr;
};

/// The m-way family's registry entry (systemc/families.cpp).
Family mway_family();

}  // namespace wormcast
