// Network-wide record of packets in flight: every flit must reach the right node exactly once and
// in order within its packet; anything else is collected as an error.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "systemc/common/flit.h"

namespace wormcast {

struct PacketRecord {
  uint64_t id = 0;          ///< network-unique (node-local sequence * N + src)
  int src = -1;
  int dst = -1;
  uint32_t length = 0;      ///< flits
  uint64_t message = 0;     ///< network-unique message id
  uint32_t msg_length = 0;  ///< flits of the whole message
  uint32_t msg_packets = 1;
  uint32_t tag = 0;
  uint64_t created = 0;     ///< cycle software asked for the message
  uint64_t ready = 0;       ///< cycle the NIC could start it (created + the t_s queue)
  uint64_t injected = 0;    ///< cycle the head entered the injection channel
  uint64_t arrived = 0;     ///< end of the cycle the tail left the ejection channel
  uint32_t received = 0;    ///< flits received so far
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

class Scoreboard {
 public:
  /// Report every ejected flit to `obs` from now on (nullptr: stop).
  void set_delivery_observer(DeliveryObserver* obs) { m_log = obs; }

  /// A packet's head enters the network.
  void on_inject(const PacketRecord& rec);
  /// A flit leaves the network at node `node`; returns the record when it was the tail.
  const PacketRecord* on_eject(int node, uint64_t cycle, const Flit& f, PacketRecord& done);

  uint64_t in_flight() const { return m_table.size(); }
  uint64_t injected_packets() const { return m_injected; }
  uint64_t delivered_packets() const { return m_delivered; }
  const std::vector<std::string>& errors() const { return m_errors; }
  uint64_t error_count() const { return m_error_count; }
  void error(std::string msg);
  /// Packets still in the network (for the end-of-run check), smallest ids first.
  std::vector<PacketRecord> stranded(size_t max) const;

 private:
  std::unordered_map<uint32_t, PacketRecord> m_table;  ///< key: payload packet bits
  uint64_t m_injected = 0, m_delivered = 0, m_error_count = 0;
  std::vector<std::string> m_errors;  ///< the first few
  DeliveryObserver* m_log = nullptr;
};

}  // namespace wormcast
