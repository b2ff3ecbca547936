// The network interface: a TLM-2.0 register target for the node CPU (send descriptors, receive
// queue) and a cycle-level initiator/acceptor of flits on the router's local ports, acting at the
// falling clock edge (docs/router.md section 8).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sw/hal/node_api.h"
#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/common/flit.h"
#include "systemc/nic/scoreboard.h"

namespace wormcast {

/// Register map of the NIC's TLM target (byte addresses, little-endian 32-bit words).
namespace nic_reg {
inline constexpr uint64_t kTx = 0x00;      ///< write 16 bytes: dst, length, tag, flags (bit 0 tie)
inline constexpr uint64_t kRxPop = 0x20;   ///< read 32 bytes: src, tag, length, 0, arrival(8), visible(8)
inline constexpr uint64_t kRxCount = 0x40; ///< read 4 bytes: deliveries visible to software now
inline constexpr uint32_t kFlagTie = 1;
}  // namespace nic_reg

/// Told about every delivered packet (statistics).
class PacketListener {
 public:
  virtual void on_packet(const PacketRecord& rec) = 0;

 protected:
  ~PacketListener() = default;
};

class Nic : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_vector<sc_core::sc_out<Flit>> inj_out;       ///< to the router's local inputs
  sc_core::sc_vector<sc_core::sc_in<Credit>> inj_credit;   ///< from the router's local credit outputs
  sc_core::sc_vector<sc_core::sc_in<Flit>> ej_in;          ///< from the router's local outputs
  sc_core::sc_vector<sc_core::sc_out<Credit>> ej_credit;   ///< to the router's local credit inputs
  tlm_utils::simple_target_socket_optional<Nic> socket{"socket"};  // unbound without a node CPU

  Nic(sc_core::sc_module_name name, const NicConfig& cfg, const RouterParams& rp,
      const sw::Topology& topo, int node, Scoreboard* sb, PacketListener* listener = nullptr);

  /// Queue a message that software asked for at cycle `now` (the t_s model of docs/router.md
  /// section 7 is applied here). Returns the cycle at which the processor is free again.
  uint64_t submit(int dst, uint32_t length, bool tie, uint32_t tag, uint64_t now);

  /// Messages completed and their t_r elapsed are queued for software; this event fires when one
  /// becomes visible.
  const sc_core::sc_event& rx_event() const { return m_rx_event; }
  bool has_rx(uint64_t now) const { return !m_rx.empty() && m_rx.front().visible <= now; }
  sw::Delivery pop_rx();
  /// Cycle at which the oldest queued delivery becomes visible (or ~0 when none is queued).
  uint64_t next_rx_visible() const { return m_rx.empty() ? ~uint64_t(0) : m_rx.front().visible; }
  /// Keep completed messages for software (a node CPU is attached); otherwise only count them.
  void enable_rx_queue(bool on) { m_rx_enabled = on; }

  int node() const { return m_node; }
  /// Packets waiting at the source (not yet fully injected).
  uint64_t backlog() const { return m_backlog; }
  uint64_t messages_received() const { return m_messages_received; }

 private:
  struct OutPacket {
    PacketRecord rec;
    uint64_t ready;  ///< first cycle its head may be injected
    bool tie;
  };
  struct Channel {
    std::deque<OutPacket> queue;
    bool busy = false;   ///< a packet is being injected
    int vc = 0;
    uint32_t sent = 0;
    int next_vc = 0;
    std::vector<int> credits;
    bool drove = false;  ///< drove a valid flit last cycle
  };
  struct Partial {
    uint32_t packets = 0;
  };

  void falling_edge();
  void end_of_elaboration() override;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  NicConfig m_cfg;
  RouterParams m_rp;
  sw::Topology m_topo;
  int m_node;
  int m_num_nodes;
  Scoreboard* m_sb;
  PacketListener* m_listener;
  // An idle NIC (nothing queued, nothing driven) sleeps until software submits or an input
  // wire changes, then resumes at the next falling edge.
  bool m_sleeping = false;
  sc_core::sc_event m_submitted;
  sc_core::sc_event_or_list m_wake;
  std::vector<const Flit*> m_ej_val;
  std::vector<const Credit*> m_inj_credit_val;
  uint64_t m_cpu_free = 0;
  uint64_t m_next_packet = 0, m_next_message = 0;
  uint64_t m_backlog = 0;
  uint64_t m_messages_received = 0;
  std::vector<Channel> m_ch;
  std::vector<std::pair<uint64_t, int>> m_pending_credits;  ///< (usable from, channel*nv+vc)
  std::vector<uint8_t> m_ej_credit_valid;
  std::unordered_map<uint64_t, Partial> m_partial;  ///< multi-packet messages being received
  std::deque<sw::Delivery> m_rx;
  bool m_rx_enabled = false;
  sc_core::sc_event m_rx_event;
};

}  // namespace wormcast
