// The family-neutral network interface core: a TLM-2.0 register target for the node CPU (send
// descriptors, receive queue), the t_s / t_r software-latency model, the packetizer and
// reassembly, and the scoreboard hooks. A family's port adapter (NicPort) moves the flits between
// the core's queues and its router's local ports at the clock edge (docs/router.md section 8).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sw/hal/node_api.h"
#include "systemc/common/config.h"
#include "systemc/common/ring.h"
#include "systemc/nic/scoreboard.h"

namespace wormcast {

/// Register map of the NIC's TLM target (byte addresses, little-endian 32-bit words).
namespace nic_reg {
inline constexpr uint64_t kTx = 0x00;      ///< write a TxDescriptor (16 bytes)
inline constexpr uint64_t kRxPop = 0x20;   ///< read an RxDescriptor (32 bytes)
inline constexpr uint64_t kRxCount = 0x40; ///< read 4 bytes: deliveries visible to software now
/// Write up to kBytesPerFlit * length bytes: the data of the next message written to kTx.
inline constexpr uint64_t kTxData = 0x1000;
/// Read the data of the message last popped from kRxPop (as many bytes as were sent with it).
inline constexpr uint64_t kRxData = 0x2000;
/// A flit carries 8 bytes of message data (the model keeps the bytes with the message; the flit
/// wires carry the packet id and index for the scoreboard, docs/router.md section 3).
inline constexpr uint32_t kBytesPerFlit = 8;
inline constexpr uint32_t kFlagTie = 1;
}  // namespace nic_reg

/// A send request as the node CPU writes it: dst, length, tag, flags (bit 0: tie).
struct TxDescriptor {
  static constexpr unsigned kBytes = 16;
  uint32_t dst = 0, length = 0, tag = 0, flags = 0;
  void pack(unsigned char* out) const;
  static TxDescriptor unpack(const unsigned char* in);
};

/// A completed message as software reads it: src, tag, length, 0, arrival (8), visible (8).
struct RxDescriptor {
  static constexpr unsigned kBytes = 32;
  sw::Delivery d;
  void pack(unsigned char* out) const;
  static RxDescriptor unpack(const unsigned char* in);
};

/// Where a message goes: one node, or (families that have it) a rectangular region of nodes,
/// lo[d]..hi[d] per dimension.
struct Destination {
  int node = -1;
  std::vector<int> lo, hi;
  bool is_region() const { return !lo.empty(); }
  static Destination to(int n) {
    Destination d;
    d.node = n;
    return d;
  }
};

/// Told about every delivered copy of a packet (statistics).
class PacketListener {
 public:
  virtual void on_packet(const PacketRecord& rec) = 0;

 protected:
  ~PacketListener() = default;
};

/// A packet waiting at the source, as the port adapter sees it.
struct OutPacket {
  PacketRecord rec;
  Destination dest;
  uint64_t ready = 0;  ///< first cycle its head may be injected
  bool tie = false;
  uint32_t sent = 0;   ///< flits injected so far
};

/// What the core needs of a family's port adapter.
class NicPort {
 public:
  /// Injection channels (queues) of the core.
  virtual int channels() const = 0;
  /// The injection channel of a message (e.g. the torus first hop).
  virtual int channel_for(const Destination& d, bool tie) const = 0;
  /// The addressed nodes of a multi-destination message, sorted (nullptr: a unicast to d.node).
  /// Throws ConfigError when the family cannot address d.
  virtual std::shared_ptr<const std::vector<int>> group_of(const Destination& d) const = 0;
  /// Work was queued: a sleeping adapter resumes at its next clock edge.
  virtual void wake() = 0;

 protected:
  ~NicPort() = default;
};

class Nic : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_target_socket_optional<Nic>;
  using IrqPort = sc_core::sc_port<sc_core::sc_signal_inout_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
  /// The memory-mapped registers for a node processor (unbound without one).
  Socket& socket() { return software().socket; }
  /// Receive interrupt (optional): high while a delivery is visible to software, so a processor
  /// model need not poll kRxCount.
  IrqPort& irq() { return software().irq; }

  /// software false: no node software will use this NIC (a traffic run), which is then built
  /// without its socket, interrupt port, receive events and interrupt process (kernel objects that
  /// would be a large share of a node's memory on a network of a million nodes).
  Nic(sc_core::sc_module_name name, const NicConfig& cfg, int node, int num_nodes, Scoreboard* sb,
      PacketListener* listener = nullptr, bool software = true);
  /// The family's adapter (set once, before simulation).
  void attach(NicPort* port);
  NicPort* port() const { return m_port; }

  /// Queue a message that software asked for at cycle `now` (the t_s model of docs/router.md
  /// section 7 is applied here). Returns the cycle at which the processor is free again.
  /// `data`: the message's bytes (at most kBytesPerFlit * length), delivered with it.
  uint64_t submit(const Destination& dst, uint32_t length, bool tie, uint32_t tag, uint64_t now,
                  std::shared_ptr<const std::vector<uint8_t>> data = nullptr);
  uint64_t submit(int dst, uint32_t length, bool tie, uint32_t tag, uint64_t now) {
    return submit(Destination::to(dst), length, tie, tag, now);
  }

  // --- the adapter's side, at its clock edge ---
  /// The packet at the front of channel c (nullptr: none queued).
  OutPacket* front(int c) { return m_queues[size_t(c)].empty() ? nullptr : &m_queues[size_t(c)].front(); }
  bool queue_empty(int c) const { return m_queues[size_t(c)].empty(); }
  /// Bit c: channel c's queue holds a packet (channels <= 32).
  uint32_t queued_mask() const { return m_queued; }
  /// Asks the memory for the state the adapter's edge reads first.
  void prefetch() const {
    __builtin_prefetch(&m_queued);
    __builtin_prefetch(m_queues.data());
  }
  /// One flit of channel c's front packet entered the network in cycle t (the head: the packet
  /// is injected; the tail: it leaves the queue).
  void sent_flit(int c, uint64_t t);
  /// A flit reached this node in cycle t: scoreboard, statistics, reassembly, receive queue.
  void received_flit(uint64_t t, const FlitView& f);

  // --- software's side ---
  /// Messages completed and their t_r elapsed are queued for software; this event fires when one
  /// becomes visible.
  const sc_core::sc_event& rx_event() { return software().rx_event; }
  bool has_rx(uint64_t now) const { return !m_rx.empty() && m_rx.front().visible <= now; }
  sw::Delivery pop_rx();
  /// The data of the message pop_rx() returned last (empty when it carried none).
  const std::vector<uint8_t>& popped_data() const;
  /// Cycle at which the oldest queued delivery becomes visible (or ~0 when none is queued).
  uint64_t next_rx_visible() const { return m_rx.empty() ? ~uint64_t(0) : m_rx.front().visible; }
  /// Keep completed messages for software, or only count them. Unless set here, the queue is on
  /// from the start of simulation exactly when `socket` is bound (a processor that can read the
  /// receive registers is there before the first delivery can arrive). With the queue off, a read
  /// of kRxCount or kRxPop is a TLM error response, and the first one says so on stderr.
  void enable_rx_queue(bool on) {
    if (on) software();
    m_rx_enabled = on;
    m_rx_set = true;
  }
  bool rx_queue_enabled() const { return m_rx_enabled; }

  int node() const { return m_node; }
  /// Packets waiting at the source (not yet fully injected).
  uint64_t backlog() const { return m_backlog; }
  /// Packets whose head has not left the source yet (the backlog less those being injected, which
  /// the scoreboard holds in flight).
  uint64_t unstarted() const {
    uint64_t started = 0;
    for (const auto& q : m_queues) started += !q.empty() && q.front().sent > 0;
    return m_backlog - started;
  }
  /// Those packets, in the order of their channels' queues (for a result's list of unfinished ones).
  std::vector<PacketRecord> unstarted_packets() const {
    std::vector<PacketRecord> out;
    for (const auto& q : m_queues)
      for (size_t i = 0; i < q.size(); ++i)
        if (q[i].sent == 0) out.push_back(q[i].rec);
    return out;
  }
  /// Addressed nodes of the message submitted last (1 for a unicast): the copies it owes.
  size_t last_targets() const { return m_last_targets; }
  /// Addressed nodes of a message to d (1 for a unicast).
  size_t targets_of(const Destination& d) const;
  uint64_t messages_received() const { return m_messages_received; }
  /// The first cycle at which a queued packet may be injected (the t_s model delays each
  /// message's packets until the processor has sent it); ~0 when nothing is queued.
  uint64_t next_ready() const;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  /// Debug access without side effects or time: reads of kRxCount and of kRxPop (a peek).
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  void update_irq();
  void start_of_simulation() override;
  /// A read of kRxCount or kRxPop with the receive queue off: false, and the first time a line on
  /// stderr naming enable_rx_queue(true).
  bool rx_readable(const char* reg);
  uint32_t visible_count(uint64_t now) const;

  NicConfig m_cfg;
  int m_node;
  int m_num_nodes;
  Scoreboard* m_sb;
  PacketListener* m_listener;
  NicPort* m_port = nullptr;
  uint64_t m_cpu_free = 0;
  uint64_t m_next_packet = 0, m_next_message = 0;
  uint64_t m_backlog = 0;
  size_t m_last_targets = 0;
  uint64_t m_messages_received = 0;
  // Queues allocate on their first value (most NICs of a large network hold few packets).
  std::vector<Ring<OutPacket>> m_queues;
  uint32_t m_queued = 0;  ///< bit c: m_queues[c] not empty
  std::unordered_map<uint64_t, uint32_t> m_partial;  ///< multi-packet messages: packets received
  Ring<sw::Delivery> m_rx{0};
  Ring<std::shared_ptr<const std::vector<uint8_t>>> m_rx_data{0};  ///< with m_rx
  std::shared_ptr<const std::vector<uint8_t>> m_popped_data;
  std::vector<uint8_t> m_tx_data;  ///< written to kTxData, sent with the next kTx
  bool m_rx_enabled = false;
  bool m_rx_set = false;     ///< enable_rx_queue was called
  bool m_rx_refused = false; ///< a read of the queue off was reported
  /// Software's side (built with software = true): the socket, the interrupt port and the events
  /// that wake a processor waiting for a delivery and the interrupt process.
  struct Software {
    Socket socket{"socket"};
    IrqPort irq{"irq"};
    sc_core::sc_event rx_event{"rx_event"};  // named: an unnamed event gets a generated name (a string stream)
    sc_core::sc_event rx_popped{"rx_popped_event"};
  };
  /// The software side; a fatal error when the NIC was built without one.
  Software& software();
  std::unique_ptr<Software> m_sw;
};

}  // namespace wormcast
