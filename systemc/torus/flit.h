// Flit and credit words carried on the router's port wires: the same fields and the same 64-bit
// layout as rtl/wc_pkg.sv (docs/router.md section 3), plus the SystemC-only intermediate node of
// Valiant routing (section 13), which is not part of the word.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include <systemc>

namespace wormcast {

// 16 bytes: a router's input buffers hold B flits per input VC, so the flit's size is most of a
// router's memory on a large network.
struct Flit {
  bool valid = false;
  bool head = false;
  bool tail = false;
  bool tie = false;     ///< negative direction on a distance-k/2 dimension
  uint8_t vc = 0;       ///< 0..15
  /// router.routing = valiant: the head's intermediate node (0 otherwise and on body flits; valiant
  /// routing takes networks of at most 65,536 nodes). Not in pack() (the RTL router has no Valiant
  /// routing) and not in the default waveform.
  uint16_t mid = 0;
  /// Destination node id. The word (pack, the RTL router) carries 16 bits of it: the SystemC
  /// router takes networks of up to limits::kMaxNodes nodes, the RTL router limits::kMaxRtlNodes.
  uint32_t dst = 0;
  uint32_t payload = 0; ///< opaque to the router; the NIC stores packet id and flit index

  bool operator==(const Flit& o) const {
    return valid == o.valid && head == o.head && tail == o.tail && tie == o.tie && vc == o.vc &&
           dst == o.dst && payload == o.payload && mid == o.mid;
  }
  bool operator!=(const Flit& o) const { return !(*this == o); }

  uint64_t pack() const {
    return uint64_t(valid) | uint64_t(head) << 1 | uint64_t(tail) << 2 | uint64_t(tie) << 3 |
           uint64_t(vc & 0xf) << 4 | uint64_t(dst & 0xffff) << 8 | uint64_t(payload) << 24;
  }
  static Flit unpack(uint64_t w) {
    Flit f;
    f.valid = w & 1;
    f.head = (w >> 1) & 1;
    f.tail = (w >> 2) & 1;
    f.tie = (w >> 3) & 1;
    f.vc = (w >> 4) & 0xf;
    f.dst = (w >> 8) & 0xffff;
    f.payload = uint32_t(w >> 24);
    return f;
  }
};

/// Payload convention of the NIC: packet id (mod 2^24) and flit index (mod 2^8).
inline uint32_t make_payload(uint64_t packet, uint32_t index) {
  return uint32_t((packet & 0xffffff) << 8) | (index & 0xff);
}
inline uint32_t payload_packet(uint32_t payload) { return payload >> 8; }
inline uint32_t payload_index(uint32_t payload) { return payload & 0xff; }

struct Credit {
  bool valid = false;
  uint8_t vc = 0;
  bool operator==(const Credit& o) const { return valid == o.valid && vc == o.vc; }
  uint32_t pack() const { return uint32_t(valid) | uint32_t(vc & 0xf) << 1; }
  static Credit unpack(uint32_t w) { return Credit{bool(w & 1), uint8_t((w >> 1) & 0xf)}; }
};

static_assert(sizeof(Flit) == 16, "a flit fills 16 bytes of a router's buffers");

std::ostream& operator<<(std::ostream& os, const Flit& f);
std::ostream& operator<<(std::ostream& os, const Credit& c);
void sc_trace(sc_core::sc_trace_file* tf, const Flit& f, const std::string& name);
void sc_trace(sc_core::sc_trace_file* tf, const Credit& c, const std::string& name);

}  // namespace wormcast
