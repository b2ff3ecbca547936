// Per-node program table of the node runtime: which sends a node makes after which receipts.
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
  uint8_t trigger;   ///< broadcast: make the send once the node has this many receives (0: at
                     ///< start); unused (0) in a table with receipts (gossip)
  uint8_t flags;     ///< SendEntry::kTieNegative, ...

  static constexpr uint8_t kTieNegative = 1;
};

/// Gossip: how many messages a node receives in one step. A node's entries are sorted by step;
/// a message's step travels as its tag, so receipts are counted per step, exactly.
struct ReceiptStep {
  uint16_t step;
  uint16_t count;
};

/// A node's slice of the table: its sends in the order it makes them. Entries are sorted by
/// trigger, or with receipts by step (a node never makes a later send before an earlier one).
struct NodeTable {
  const SendEntry* sends = nullptr;
  uint32_t count = 0;
  /// Optional per-send length in flits, parallel to `sends` (gossip: a message's size follows
  /// the chunks it carries). Null: every send has the program's fixed length.
  const uint32_t* lengths = nullptr;
  /// Gossip: the node's receipts per step. Non-null: a send of step s waits until every receipt
  /// of every step < s has arrived (the step-synchronous rule, kept in an asynchronous run).
  const ReceiptStep* receipts = nullptr;
  uint32_t receipt_steps = 0;
};

}  // namespace wormcast::sw
