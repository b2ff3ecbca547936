// The interface node programs are written against: send, receive callbacks, time and identity.
// Backed by the NIC's TLM socket on the SystemC model, by the analytic timing model elsewhere.
//
// Freestanding C++17 (no standard library, no exceptions, no RTTI): part of the node runtime.
#pragma once

#include <stdint.h>

#include "sw/topology/topology.h"

namespace wormcast::sw {

struct SendOptions {
  /// Take the negative direction in a dimension where the destination is exactly k/2 away
  /// (the head flit's tie bit).
  bool tie_negative = false;
  /// Opaque to the hardware; handed to the receiver (schedules use it for step / chunk ids).
  uint32_t tag = 0;
};

/// A message as the receiving software sees it.
struct Delivery {
  int src = -1;
  uint32_t tag = 0;
  uint32_t length = 0;      ///< flits
  uint64_t arrival = 0;     ///< cycle at whose end the tail reached the NIC (+1)
  uint64_t visible = 0;     ///< arrival + t_r: when software sees it (= now() in on_receive)
};

/// What a node program may do. Times are in cycles.
///
/// Software-latency semantics (Hou, Wang and Hsu Sec. 2 and 6.1): the node processor handles one message
/// at a time. Each send() costs t_s of processor time, during which now() advances; the NIC
/// starts injecting the message when that time has passed. So the i-th send (from 0) of a node
/// that starts sending at time s is injected at s + (i+1)*t_s. A message is delivered to
/// on_receive() t_r cycles after its tail arrived.
class NodeApi {
 public:
  virtual int self() const = 0;
  virtual const Topology& topology() const = 0;
  virtual uint64_t now() const = 0;
  /// length in flits, >= 1.
  virtual void send(int dst, uint32_t length, const SendOptions& options) = 0;

 protected:
  ~NodeApi() = default;
};

/// A node program reacts to start and to deliveries; it may send from either callback.
class NodeProgram {
 public:
  virtual void on_start(NodeApi& api) = 0;
  virtual void on_receive(NodeApi& api, const Delivery& msg) = 0;

 protected:
  ~NodeProgram() = default;
};

}  // namespace wormcast::sw
