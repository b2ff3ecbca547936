// The family-neutral network: what run drivers, traffic generators, recorders and test benches
// see of any router family — nodes and their NICs, the scoreboard, activity, outstanding work,
// named links with flit counts, waveform tracing and the GTKWave save file, and the wait-for
// edges of the deadlock report. A family derives from it and does only its own wiring.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/kernel/cycle_clock.h"
#include "systemc/common/family.h"
#include "systemc/net/activity.h"
#include "systemc/net/wait_for.h"
#include "systemc/nic/nic.h"
#include "systemc/nic/scoreboard.h"

namespace wormcast {

/// What a network is built with besides its configuration.
struct NetworkOptions {
  PacketListener* listener = nullptr;  ///< told about every delivered packet copy
  bool trace_internals = false;        ///< let routers dump their internal signals (trace_internals)
  /// No waveform will show the port wires (will_trace is not called): a family may then build its
  /// links as plain mailboxes, without port and signal objects (docs/kernel.md).
  bool plain_links = false;
  /// Node software may use the NICs (their socket, interrupt and receive queue); false (a traffic
  /// run): the NICs are built without them.
  bool node_software = true;
  /// The ROUTER=FILE arguments of --rtl-vcd: where the family names its nodes before building
  /// (Family::node_name), a ROUTER the network lacks is refused before anything is built.
  std::vector<std::string> internal_routers;
  /// The routers --vcd-routers names: where the family names its nodes before building
  /// (Family::node_name), a name the network lacks is refused before anything is built.
  std::vector<std::string> waveform_routers;
};

class Network : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  Network(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt);
  ~Network() override;

  const Config& config() const { return m_cfg; }
  /// The node grid: coordinates of every node (node ids mixed-radix, dimension 0 fastest).
  const sw::Topology& topology() const { return m_topo; }
  int num_nodes() const { return int(m_nics.size()); }
  /// The instance name of a node's router or attachment, with coordinates ("r_2_3").
  virtual std::string node_name(int node) const;
  /// The node whose node_name() is `name`, -1 when none.
  int find_node(const std::string& name) const;
  Nic& nic(int node) { return *m_nics[size_t(node)]; }
  const Nic& nic(int node) const { return *m_nics[size_t(node)]; }
  Scoreboard& scoreboard() { return m_sb; }
  const Scoreboard& scoreboard() const { return m_sb; }
  NetActivity& activity() { return m_activity; }
  /// Clock edges whose routers ran in several threads so far (sim.threads; 0 for a family that runs
  /// in one).
  virtual uint64_t parallel_edges() const { return 0; }
  /// Clock edges that could have run in several threads but ran in one, measured faster there
  /// (sim.lanes = adaptive).
  virtual uint64_t one_lane_edges() const { return 0; }
  /// Edges that could have run in lanes but ran in one thread because the machine had no free core
  /// for the other threads (sim.lanes = adaptive).
  virtual uint64_t crowded_edges() const { return 0; }
  /// Threads that run the routers of one clock edge (sim.threads, auto resolved) and how that
  /// number was chosen (empty: the family runs in one thread whatever sim.threads says).
  virtual int threads() const { return 1; }
  /// The partitions of a parallel edge (docs/kernel.md; 1: none).
  virtual int lanes() const { return 1; }
  virtual std::string threads_rule() const { return ""; }
  /// How the port wires carried their values in this run: "mailbox" or "queued" (docs/kernel.md);
  /// "fabric" for a family whose channels live inside one clocked process.
  virtual const char* link_mode() const { return "fabric"; }
  /// How the clock ran the network's edges: "fused" or "signal" (a CycleClock,
  /// systemc/kernel/cycle_clock.h; decided when the simulation starts), "clock" (another clock).
  const char* clock_mode() const { return m_cycle_clock ? m_cycle_clock->mode() : "clock"; }
  /// The CycleClock that runs the network, or null (another clock).
  const CycleClock* cycle_clock() const { return m_cycle_clock; }
  /// Packets in NICs or in flight, each once: the scoreboard's in flight (from the head's injection)
  /// and the NICs' packets whose head has not left (Nic::unstarted).
  uint64_t outstanding() const;

  /// Flits sent over every network link since start, in a fixed order (~0: no link there, e.g.
  /// a mesh edge), and what that order is.
  virtual std::vector<uint64_t> link_counters() const = 0;
  virtual std::string link_order() const = 0;
  /// How router_activity's per-VC arrays (vc_utilization, vc_blocking) are indexed; empty when
  /// the family reports none.
  virtual std::string vc_order() const { return ""; }
  /// Link cycles since start by what the link's lines carried, as (name, count) in a fixed order,
  /// summed over the links (empty: the family does not count); link_cycles_total() link cycles
  /// per cycle (the share of the rest is idle). The m-way channel-line breakdown.
  virtual std::vector<std::pair<std::string, uint64_t>> link_cycles() const { return {}; }
  virtual uint64_t link_cycles_total() const { return 0; }
  /// Flits each node injected into the network since start (empty: the family does not count).
  virtual std::vector<uint64_t> injection_counters() const { return {}; }
  /// Edges after its cycle at which a link transfer enters the counters above (link_counters,
  /// link_cycles, injection_counters): 0 when a flit sent in cycle t is counted at edge t, 1 when
  /// the transfer of cycle t is counted as edge t + 1 commits it (the m-way fabric). Read at the
  /// start of cycle c + lag, the counters hold the transfers of the cycles before c.
  virtual uint64_t link_counter_lag() const { return 0; }
  /// Every router's event counts at cycle `now` (RouterActivity), in node order; `counted[i]`
  /// false where the model sees only its ports (empty: the family does not count).
  virtual std::vector<RouterActivity> router_activity(uint64_t /*now*/, std::vector<bool>* /*counted*/ = nullptr) const {
    return {};
  }
  /// The routers' hardware for the energy model (every router of a network alike); all zero when
  /// the family reports no router events.
  virtual RouterShape router_shape() const { return {}; }

  /// Limit trace() to these nodes' routers; returns "" or why the family cannot.
  virtual std::string set_traced_nodes(const std::vector<int>& /*nodes*/) {
    return "this router family always records its whole network";
  }

  /// Trace every port/channel wire under hierarchical names (scopes named as tb/out/wave.h groups
  /// them: routers r_..., channels ch_..., node interfaces ni_...).
  virtual void trace(sc_core::sc_trace_file* tf) const = 0;
  /// trace() will be called (now or later in the run): keep the wires' values as signals hold them.
  /// Call before the simulation starts.
  virtual void will_trace() {}
  /// Report every hop from now on; returns "" or why this network cannot (then nothing changes).
  virtual std::string set_hop_observer(HopObserver* obs) = 0;
  /// Dump every signal inside router `node` to a VCD from now on; returns "" or why not.
  virtual std::string trace_internals(int node, const std::string& vcd_path);
  /// Why trace_internals cannot dump any router of this network, "" when it can (asked before a
  /// recording's router names are read, so that one line says the whole option is unavailable).
  virtual std::string internals_refusal() const;
  /// The one-line error of --router-vcd ARG on a network whose routers have no internals to dump.
  static std::string router_vcd_refusal(const std::string& arg, const std::string& why);
  /// The line for a --router-vcd argument `arg` naming a router already given.
  static std::string router_vcd_twice(const std::string& arg, const std::string& router);
  /// The one-line error of --router-vcd ARG that names no router of the network (first .. last).
  static std::string router_vcd_name_error(const std::string& arg, const std::string& first, const std::string& last);
  /// The one-line error of a --vcd-routers name that is no router of the network (first: a name
  /// that is one).
  static std::string waveform_router_error(const std::string& name, const std::string& first);
  /// internals_refusal() of a network whose routers keep their state in the port waveform.
  static std::string no_internal_signals();
  /// Closes every waveform trace_internals opened (written completely).
  virtual void close_internals() {}

  /// Cycles from a packet's head entering the injection channel to the end of the cycle its tail
  /// leaves the ejection channel, with no other traffic (the family's documented formula).
  virtual uint64_t zero_load(int src, int dst, uint32_t length) const = 0;
  /// Network hops of a unicast's route from src to dst (-1: the family does not say).
  virtual int hops(int /*src*/, int /*dst*/) const { return -1; }
  /// Network hops of one packet's route: through its intermediate node (PacketRecord::via) when it
  /// has one, else hops(src, dst); -1 for a multi-destination packet or when the family does not say.
  int packet_hops(const PacketRecord& rec) const;
  /// zero_load() of one packet's own route (through its intermediate node when it has one).
  virtual uint64_t packet_zero_load(const PacketRecord& rec) const { return zero_load(rec.src, rec.dst, rec.length); }
  /// The most cycles a healthy network may pass with packets in flight and no flit moving or
  /// delivered, with no other traffic: the longest one-flit crossing of any route it takes, or a
  /// family's longer wait between two flits of one packet (a credit round trip with buffers
  /// shorter than it). sim.watchdog and sim.livelock windows below it are refused (tb/run/driver).
  /// The default: zero_load_crossing().
  virtual uint64_t longest_quiet() const { return zero_load_crossing(); }
  /// The longest zero_load() of one flit from node 0 (cycles): the shortest time in which the
  /// network can show the effect of anything injected (the steady-state verdict's shortest batch).
  uint64_t zero_load_crossing() const;

  /// Buffers holding flits that cannot advance and what each waits for.
  virtual std::vector<WaitEdge> wait_edges() const = 0;
  /// The wait-for graph of wait_edges(), with a cycle when there is one.
  WaitForGraph wait_for() const { return build_wait_for(wait_edges()); }
  /// True when wait_edges() names every packet that has a flit in a stalled buffer or queue, or a
  /// buffer allocated to it that waits for its flits: a packet in flight that no wait edge names
  /// is then lost (the run driver's completion check). False: a buffer reports only its front
  /// packet, so an unnamed packet may be queued behind it.
  virtual bool names_every_waiting_packet() const { return false; }

 protected:
  /// Families add one NIC core per node, in node order, during construction.
  Nic& add_nic(std::unique_ptr<Nic> nic);
  /// Takes the cycle period from the clock bound to clk (a platform's own clock, of any period).
  void end_of_elaboration() override;
  /// What a CycleClock bound to clk may run directly (null: nothing; the clock then stays in signal
  /// mode if the network's processes are sensitive to it).
  virtual ClockRider* clock_rider() { return nullptr; }
  PacketListener* listener() const { return m_opt.listener; }
  const NetworkOptions& options() const { return m_opt; }

  Config m_cfg;
  NetworkOptions m_opt;
  sw::Topology m_topo;
  Scoreboard m_sb;
  NetActivity m_activity;

 private:
  std::vector<std::unique_ptr<Nic>> m_nics;
  const CycleClock* m_cycle_clock = nullptr;
};

/// Builds the network of cfg.net.family.
std::unique_ptr<Network> make_network(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt);

/// "n_2_3" style names: prefix and the node's coordinates.
std::string coord_name(const sw::Topology& topo, const std::string& prefix, int node);

}  // namespace wormcast
