// A self-contained k-ary m-way network: channels, routers and node interfaces of docs/mway.md,
// driven by one clocked process, with the hooks a run driver, a scoreboard and a wait-for graph
// need.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sw/topology/mway.h"
#include "systemc/net/activity.h"
#include "systemc/net/wait_for.h"
#include "systemc/mway/channel.h"
#include "systemc/mway/fabric_if.h"
#include "systemc/mway/node_interface.h"
#include "systemc/mway/params.h"
#include "systemc/mway/router.h"
#include "systemc/mway/types.h"

namespace wormcast {

/// Bits a waveform gives a value of `values` possible values (at least 1).
int mway_trace_bits(int values);
/// Traces one channel's lines under `base` (".drv", ".tag", ".buf", ".ways", ".ack", ".pri",
/// ".stat_free", ".stat_full"), each at its real width (section 11); every fabric names them so.
/// `packet` and `flit` (".packet", ".flit": the driven flit's packet id and index) when the fabric
/// knows them. Words are traced unsigned, as their bits: an idle Drv and Buf all ones (a SystemC
/// trace of an int shows x for a value at or above 2^(width-1), e.g. Tag B and T).
void mway_trace_channel(sc_core::sc_trace_file* tf, const std::string& base, const MwayParams& p, int ways,
                        const uint32_t& drv, const uint32_t& tag, const uint32_t& buf, const uint32_t& way_mask,
                        const bool& ack, const uint32_t& pri, const uint32_t& stat_free, const uint32_t& stat_full,
                        const uint64_t* packet = nullptr, const uint32_t* flit = nullptr);

class MwayFabric : public sc_core::sc_module, public MwayFabricIf, private MwayHooks {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  /// Validates `params` (std::invalid_argument).
  MwayFabric(sc_core::sc_module_name name, const MwayParams& params);

  std::string channel_name(int ch) const { return "ch_" + m_geo.suffix(ch); }
  std::string router_name(int r) const;

  // ---- the fabric interface (MwayFabricIf)
  sc_core::sc_in<bool>& clock_in() override { return clk; }
  const sw::MwayGeometry& geometry() const override { return m_geo; }
  const MwayParams& params() const override { return m_p; }
  void submit(int node, const MwayMessage& m) override;
  size_t queued(int node) const override { return m_nis[size_t(node)].queued(); }
  void set_observer(MwayObserver* obs) override { m_obs = obs; }
  void set_activity(NetActivity* activity) override { m_activity = activity; }
  uint64_t last_move() const override { return m_last_move; }
  uint64_t flits_moved() const override { return m_moved; }
  /// Indexed by channel id (names: channel_name).
  std::vector<uint64_t> channel_flits() const override;
  std::vector<uint64_t> node_flits() const override;
  /// By MwayChannel::LineUse.
  std::vector<std::pair<std::string, uint64_t>> line_uses() const override;
  size_t buffered_flits() const override;
  size_t queued_messages() const override;
  bool idle() const override;
  std::vector<WaitEdge> wait_edges() const override;
  /// Every buffer row, loader and source-queue entry names its own packet.
  bool names_every_waiting_packet() const override { return true; }
  void trace(sc_core::sc_trace_file* tf) const override;

  void set_channel_observer(MwayChannelObserver* obs) override { m_chobs = obs; }
  MwayChannel& channel(int ch) { return m_channels[size_t(ch)]; }
  MwayRouter& router(int r) { return m_routers[size_t(r)]; }
  MwayNodeInterface& node_interface(int n) { return m_nis[size_t(n)]; }

 private:
  void tick();
  void mark_active(int channel) override;
  void deliver(uint64_t cycle, int node, const MwayPacket& p, uint32_t index, bool head, bool tail) override;
  void injected(uint64_t cycle, uint64_t packet) override;
  void activate_ni(int node);
  /// A traced copy of `src` as its `width` low bits (mway_trace_channel), refreshed every cycle
  /// while tracing.
  const uint32_t& traced_word(const int& src, int width) const;
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
  struct TracedWord {
    const int* src;
    uint32_t mask, value;
  };
  mutable std::deque<TracedWord> m_words;    ///< traced_word's copies (a deque: their addresses stay)
  sc_core::sc_event m_wake;
};

}  // namespace wormcast
