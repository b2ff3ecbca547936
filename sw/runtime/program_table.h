// Per-node program table of the node runtime: which sends a node makes after how many receives.
//
// Freestanding C++17 (only <stdint.h>/<stddef.h>): this is what a node's firmware holds in ROM.
// Host tools build it from a Schedule (sw/schedule/program_image.h).
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace wormcast::sw {

/// One send of a node's program. 8 bytes, so a 64x64 broadcast fits in 32 KiB for all nodes.
struct SendEntry {
  uint32_t dst;      ///< destination node id
  uint16_t step;     ///< schedule step; travels as the message tag so traces can name it
  uint8_t trigger;   ///< make the send once the node has this many receives (0: at start)
  uint8_t flags;     ///< SendEntry::kTieNegative, ...

  static constexpr uint8_t kTieNegative = 1;
};

/// A node's slice of the table: its sends in the order it makes them. Entries are sorted by
/// trigger (a node never makes a later send before an earlier one).
struct NodeTable {
  const SendEntry* sends = nullptr;
  uint32_t count = 0;
  /// Optional per-send length in flits, parallel to `sends` (gossip: a message's size follows
  /// the chunks it carries). Null: every send has the program's fixed length.
  const uint32_t* lengths = nullptr;
};

}  // namespace wormcast::sw
