// A self-contained k-ary m-way network: channels, routers and node interfaces of docs/mway.md,
// driven by one clocked process, with the hooks a run driver, a scoreboard and a wait-for graph
// need.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sw/topology/mway.h"
#include "systemc/net/activity.h"
#include "systemc/net/wait_for.h"
#include "systemc/mway/channel.h"
#include "systemc/mway/node_interface.h"
#include "systemc/mway/params.h"
#include "systemc/mway/router.h"
#include "systemc/mway/types.h"

namespace wormcast {

class MwayFabric : public sc_core::sc_module, private MwayHooks {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  /// Validates `params` (std::invalid_argument).
  MwayFabric(sc_core::sc_module_name name, const MwayParams& params);

  int num_nodes() const { return m_geo.num_channels(); }
  /// "ni_2_3": the node interface of channel (2, 3).
  std::string node_name(int node) const { return "ni_" + m_geo.suffix(node); }
  std::string channel_name(int ch) const { return "ch_" + m_geo.suffix(ch); }
  std::string router_name(int r) const;

  /// Queue message m at node `node` (== m.src). Throws std::invalid_argument for a message the
  /// fabric cannot carry (length, Region, algorithm UnicastOnly with a Region, a Region of only
  /// the source).
  void submit(int node, const MwayMessage& m);
  /// The nodes that must receive m exactly once (its Region or dst, without the source).
  std::vector<int> addressed(const MwayMessage& m) const;

  void set_observer(MwayObserver* obs) { m_obs = obs; }
  void set_channel_observer(MwayChannelObserver* obs) { m_chobs = obs; }
  /// Network-wide counters to update for every flit transfer (the run driver's watchdog).
  void set_activity(NetActivity* activity) { m_activity = activity; }

  /// Last cycle in which any flit moved on any channel (0 before the first).
  uint64_t last_move() const { return m_last_move; }
  /// Flit transfers over all channels (a header taken by several ways counts once).
  uint64_t flits_moved() const { return m_moved; }
  /// Flit transfers per channel, indexed by channel id (names: channel_name).
  std::vector<uint64_t> channel_flits() const;
  /// Flit transfers per channel driven by that channel's node interface (injections).
  std::vector<uint64_t> node_flits() const;
  /// Channel cycles over all channels by line use (MwayChannel::LineUse): header_ack,
  /// header_ack0_progress, header_ack0_none, body_tail.
  std::vector<std::pair<std::string, uint64_t>> line_uses() const;
  /// Flits held in router and injection buffers.
  size_t buffered_flits() const;
  /// Messages and copies waiting in node-interface queues.
  size_t queued_messages() const;
  /// Nothing buffered, queued or being transferred.
  bool idle() const;

  std::vector<WaitEdge> wait_edges() const;
  void trace(sc_core::sc_trace_file* tf) const;

  const sw::MwayGeometry& geometry() const { return m_geo; }
  const MwayParams& params() const { return m_p; }
  MwayChannel& channel(int ch) { return m_channels[size_t(ch)]; }
  MwayRouter& router(int r) { return m_routers[size_t(r)]; }
  MwayNodeInterface& node_interface(int n) { return m_nis[size_t(n)]; }

 private:
  void tick();
  void mark_active(int channel) override;
  void deliver(uint64_t cycle, int node, const MwayPacket& p, uint32_t index, bool head, bool tail) override;
  void injected(uint64_t cycle, uint64_t packet) override;
  void activate_ni(int node);
  std::string set_dst(const MwayPacket& p) const;

  MwayParams m_p;
  sw::MwayGeometry m_geo;
  MwayShared m_sh;
  sc_core::sc_vector<MwayChannel> m_channels;
  sc_core::sc_vector<MwayRouter> m_routers;
  sc_core::sc_vector<MwayNodeInterface> m_nis;

  MwayObserver* m_obs = nullptr;
  MwayChannelObserver* m_chobs = nullptr;
  NetActivity* m_activity = nullptr;
  uint64_t m_last_move = 0, m_moved = 0;

  // Activity-proportional evaluation: only channels with a flit in a driver set and node
  // interfaces with work are visited; with none the process sleeps until submit().
  std::vector<int> m_active_ch;
  std::vector<uint8_t> m_is_active_ch;
  std::vector<int> m_active_ni;
  std::vector<uint8_t> m_is_active_ni;
  std::vector<int> m_commit;                 ///< channels with a decision for the current cycle
  std::vector<MwayBufferSet*> m_picked;      ///< sets whose allocation unit picked this cycle
  bool m_sleeping = false;
  mutable bool m_tracing = false;            ///< trace() was called: keep every channel's Stat lines current
  sc_core::sc_event m_wake;
};

}  // namespace wormcast
