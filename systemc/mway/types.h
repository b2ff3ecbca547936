// Values shared by the m-way modules: messages, flit slots, the buffer-state row, observer hooks.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "sw/topology/mway.h"
#include "systemc/common/model_error.h"
#include "systemc/mway/params.h"

namespace wormcast {

/// An internal invariant of the m-way model broke: abort with where and what.
[[noreturn]] inline void mway_internal_error(const std::string& where, const std::string& what) {
  model_error("wormcast/mway", where, what);
}

inline constexpr int kMwayMaxWays = 2 * sw::kMwayMaxDims + 1;

/// Flit tag on an m-way channel (the paper's Fig. 3).
enum class MwayTag : uint8_t { I = 0, H = 1, B = 2, T = 3 };
/// Kind of a packet: a unicast, a tree broadcast (MST family), or a forwarded copy of a
/// unicast-based broadcast (delivered, then the receiving node interface sends the follow-ups).
enum class MwayKind : uint8_t { Unicast, Tree, Forward };

/// A message handed to a node interface.
struct MwayMessage {
  uint64_t id = 0;          ///< network-unique packet id
  int src = 0;
  int dst = -1;             ///< a single destination node, or -1: the Region below
  sw::MwayRegion region;    ///< rectangular destination Region (when dst < 0)
  uint32_t length = 5;      ///< flits, header included (>= 2)
  uint64_t created = 0;     ///< cycle in which the message is generated
};

/// The header content of one packet (the fields every copy's header carries).
struct MwayPacket {
  uint64_t id = 0;
  int src = 0;                ///< node interface that injected this copy
  MwayKind kind = MwayKind::Unicast;
  int dst = -1;               ///< unicast / forwarded copy destination
  sw::MwayRegion region;      ///< Region (a tree's sub-Region, or a forwarded copy's responsibility)
  uint32_t len = 0;           ///< Len, in flits
};

struct MwayFlitSlot {
  MwayTag tag = MwayTag::I;
  uint32_t index = 0;  ///< flit index in the packet (0 = header)
};

class MwayBufferSet;

/// One row of the buffer-state table (Fig. 4) plus the buffer's contents.
struct MwayBufferEntry {
  // Fig. 4
  bool a = false;   ///< allocated
  bool f = false;   ///< full
  int drv = -1;     ///< driver the message comes from
  int buf = -1;     ///< that driver's buffer
  int fptr = 0;
  int rptr = 0;
  bool rf = false;  ///< some receiver buffer of this message is full
  // INTERPRETATION (docs/mway.md section 5)
  bool r = false;   ///< reserved, header not yet received
  bool t = false;   ///< tail received: (Drv, Buf) no longer matches
  // contents and driver-side state
  int count = 0;
  std::vector<MwayFlitSlot> ring;
  MwayPacket pkt;
  uint32_t pending = 0;    ///< ways the header still has to reach
  uint32_t reserved = 0;   ///< ways holding a reservation for this header
  bool header_done = false;
  bool report_inject = false;  ///< the first header of a submitted message (on_inject)
  std::vector<std::pair<MwayBufferSet*, int>> receivers;  ///< buffers that took the header

  const MwayFlitSlot& front() const { return ring[size_t(fptr)]; }
};

/// Called for every flit delivered to a node, and when a submitted message's header first
/// leaves its node interface.
class MwayObserver {
 public:
  virtual void on_deliver(uint64_t cycle, int node, uint64_t packet, uint32_t index, bool head, bool tail) = 0;
  virtual void on_inject(uint64_t /*cycle*/, uint64_t /*packet*/) {}

 protected:
  ~MwayObserver() = default;
};

/// One channel cycle with a driver: the canonical per-transfer record of the m-way fabric.
struct MwayChannelEvent {
  uint64_t cycle = 0;
  int channel = -1;
  int drv = -1;
  int buf = -1;
  MwayTag tag = MwayTag::I;
  uint64_t packet = 0;
  uint32_t index = 0;
  uint32_t ways = 0;       ///< header: the pending ways put on the channel
  bool ack = false;        ///< wired-AND Ack
  uint32_t accepted = 0;   ///< ways that wrote the flit this cycle
  uint32_t reserved = 0;   ///< header: ways holding a reservation after this cycle
  int replica = -1;        ///< MST-replica: the driver set's buffer that became the replica
  uint32_t replica_ways = 0;
  sw::MwayRegion replica_region;
  std::vector<std::pair<int, int>> receivers;  ///< (way, buffer) that wrote the flit
};

class MwayChannelObserver {
 public:
  virtual void on_channel(const MwayChannelEvent& e) = 0;

 protected:
  ~MwayChannelObserver() = default;
};

/// What the modules ask of the fabric around them.
class MwayHooks {
 public:
  virtual void mark_active(int channel) = 0;
  virtual void deliver(uint64_t cycle, int node, const MwayPacket& p, uint32_t index, bool head, bool tail) = 0;
  virtual void injected(uint64_t cycle, uint64_t packet) = 0;

 protected:
  ~MwayHooks() = default;
};

/// Read-only context every module shares.
struct MwayShared {
  const sw::MwayGeometry* geo = nullptr;
  const MwayParams* params = nullptr;
  MwayHooks* hooks = nullptr;
};

}  // namespace wormcast
