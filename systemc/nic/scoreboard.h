// Network-wide record of packets in flight: every addressed node must receive every flit of a
// packet exactly once and in order, and no other node may receive any; anything else is collected
// as an error. Family-neutral: a packet may be addressed to one node or to a set (a region).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wormcast {

struct PacketRecord {
  uint64_t id = 0;          ///< network-unique (node-local sequence * N + src)
  int src = -1;
  /// A unicast's destination. For a multi-destination packet: -1 when injected; in a delivery
  /// record (PacketListener) the node that received this copy.
  int dst = -1;
  /// Multi-destination packets: the addressed nodes, sorted (nullptr: a unicast to dst).
  std::shared_ptr<const std::vector<int>> group;
  uint32_t length = 0;      ///< flits
  /// A two-phase route's intermediate node (router.routing = valiant), set when the head is
  /// injected; -1: the packet takes its family's direct route.
  int via = -1;
  uint64_t message = 0;     ///< network-unique message id
  uint32_t msg_length = 0;  ///< flits of the whole message
  uint32_t msg_packets = 1;
  uint32_t tag = 0;
  uint64_t created = 0;     ///< cycle software asked for the message
  uint64_t ready = 0;       ///< cycle the NIC could start it (created + the t_s queue)
  uint64_t injected = 0;    ///< cycle the head entered the injection channel
  uint64_t arrived = 0;     ///< end of the cycle the tail left the ejection channel
  bool last = true;         ///< in a delivery record: no addressed node is still missing it
  /// The message's data bytes (software's, through the NIC's kTxData), shared by its packets.
  std::shared_ptr<const std::vector<uint8_t>> data;
  size_t num_targets() const { return group ? group->size() : 1; }
};

/// One flit leaving the network, as the family's NIC adapter decodes it.
struct FlitView {
  uint64_t key = 0;    ///< packet id bits the flit carries (PacketRecord::id masked by key_mask)
  uint32_t index = 0;  ///< flit index bits within the packet (masked by index_mask)
  bool head = false;
  bool tail = false;
  uint8_t vc = 0;      ///< ejection channel's VC or buffer (delivery trace only)
};

/// One flit leaving the network: the per-flit delivery trace.
struct FlitDelivery {
  uint64_t cycle;
  int node;
  int src;
  uint64_t packet;  ///< PacketRecord::id
  uint32_t flit;    ///< index within the packet
  uint8_t vc;       ///< ejection VC
};

/// Told about every flit leaving the network, in nondecreasing cycle order.
class DeliveryObserver {
 public:
  virtual void on_delivery(const FlitDelivery& d) = 0;

 protected:
  ~DeliveryObserver() = default;
};

/// Told about every packet copy delivered whole, in nondecreasing cycle order: the record on_eject
/// returns (its dst the node that received the copy, arrived the end of the tail's cycle).
class PacketObserver {
 public:
  virtual void on_packet_done(const PacketRecord& r) = 0;

 protected:
  ~PacketObserver() = default;
};

class Scoreboard {
 public:
  /// key_mask / index_mask: the packet-id and flit-index bits a flit of the family carries.
  explicit Scoreboard(uint64_t key_mask = ~uint64_t(0), uint32_t index_mask = ~uint32_t(0))
      : m_key_mask(key_mask), m_index_mask(index_mask) {}
  void set_masks(uint64_t key_mask, uint32_t index_mask) {
    m_key_mask = key_mask;
    m_index_mask = index_mask;
  }
  uint64_t key_of(uint64_t id) const { return id & m_key_mask; }
  /// Report every ejected flit to `obs` from now on (nullptr: stop).
  void set_delivery_observer(DeliveryObserver* obs) { m_log = obs; }
  bool observed() const { return m_log != nullptr; }
  /// Report every packet copy delivered whole to `obs` from now on (nullptr: stop).
  void set_packet_observer(PacketObserver* obs) { m_packets = obs; }

  /// A packet's head enters the network.
  void on_inject(const PacketRecord& rec);
  /// A flit leaves the network at node `node`. Returns the delivery record (valid until the next
  /// call) when it completed that node's copy of the packet, else nullptr.
  const PacketRecord* on_eject(int node, uint64_t cycle, const FlitView& f);

  uint64_t in_flight() const { return m_size; }
  uint64_t injected_packets() const { return m_injected; }
  /// Copies delivered complete (a packet to a region of R nodes counts R).
  uint64_t delivered_packets() const { return m_delivered; }
  /// Flits that left the network (every ejection, the livelock watchdog's measure of progress).
  uint64_t ejected_flits() const { return m_ejected_flits; }
  /// The cycle of the latest flit that left the network (~0 when none has).
  uint64_t last_eject_cycle() const { return m_ejected_flits ? m_last_eject : ~uint64_t(0); }
  const std::vector<std::string>& errors() const { return m_errors; }
  uint64_t error_count() const { return m_error_count; }
  void error(std::string msg);
  /// The injection cycle of the packet longest in the network (~0 when none is): the network
  /// has held flits at least since then (the livelock watchdog's window starts no earlier).
  uint64_t oldest_injection() const;
  /// Packets still in the network (for the end-of-run check), smallest ids first.
  std::vector<PacketRecord> stranded(size_t max) const;
  /// Which addressed nodes of a packet in flight lack which flits, for an error message:
  /// "node 5 lacks flit 4; node 9 lacks flits 0-4" (at most max_nodes named, then how many more);
  /// empty when the packet is not in flight.
  std::string missing(uint64_t id, size_t max_nodes = 4) const;

 private:
  struct Entry {
    PacketRecord rec;
    uint32_t received = 0;          ///< unicast: flits received so far
    std::vector<uint32_t> copies;   ///< multi-destination: flits received per group member
    size_t remaining = 1;           ///< addressed nodes whose copy is incomplete
  };
  /// The packets in flight by key (key_of(id)): an open-addressing index (linear probing, a power
  /// of two of slots, at most half full) into a pool of entries whose freed places are reused, so
  /// that a flit's lookup is a multiply and a probe or two and a packet allocates nothing once
  /// the pool has grown to the largest number in flight.
  struct Slot {
    uint64_t key = 0;
    uint32_t entry = kNoEntry;  ///< index into m_pool, or kNoEntry for an empty slot
  };
  static constexpr uint32_t kNoEntry = ~uint32_t(0);
  size_t home(uint64_t key) const { return size_t((key * 0x9e3779b97f4a7c15ULL) >> m_shift); }
  /// The slot holding key, or the empty slot where it would go.
  size_t probe(uint64_t key) const {
    const size_t mask = m_slots.size() - 1;
    size_t i = home(key);
    while (m_slots[i].entry != kNoEntry && m_slots[i].key != key) i = (i + 1) & mask;
    return i;
  }
  void grow();
  /// What on_eject found wrong with a flit; eject_fault reports it (out of line: the check of a
  /// good flit builds no messages). received: the flits of that copy received before it.
  enum class EjectFault { Unknown, NotAddressed, WrongNode, AfterTail, Order };
  [[gnu::cold, gnu::noinline]] void eject_fault(EjectFault kind, int node, uint64_t cycle, const FlitView& f,
                                                const PacketRecord* r, uint32_t received);
  /// Removes the key in slot i, moving later keys of its probe run back (no tombstones).
  void erase_slot(size_t i);

  uint64_t m_key_mask;
  uint32_t m_index_mask;
  std::vector<Slot> m_slots = std::vector<Slot>(64);
  int m_shift = 64 - 6;  ///< 64 - log2(slots)
  std::vector<Entry> m_pool;
  std::vector<uint32_t> m_free;  ///< places of m_pool not in use
  uint64_t m_size = 0;           ///< packets in flight
  uint64_t m_injected = 0, m_delivered = 0, m_error_count = 0, m_ejected_flits = 0;
  uint64_t m_last_eject = 0;  ///< bands run nodes' cycles out of order: the largest
  std::vector<std::string> m_errors;  ///< the first few
  DeliveryObserver* m_log = nullptr;
  PacketObserver* m_packets = nullptr;
  PacketRecord m_done;
};

}  // namespace wormcast
