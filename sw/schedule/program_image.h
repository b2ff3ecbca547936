// Host side of the node runtime: turns a Schedule into every node's program table.
#pragma once

#include <stdint.h>

#include <vector>

#include "sw/runtime/program_table.h"
#include "sw/runtime/schedule_program.h"
#include "sw/schedule/schedule.h"

namespace wormcast::sw {

/// All nodes' tables of one schedule, in one flat array (what would be linked into firmware).
/// Each node's sends are its unicasts sorted by (step, order); the source's trigger is 0 (start),
/// every other node's is 1 (once it holds the message). Gossip: every node's receipts per step
/// (ReceiptStep) go into the image, and a send of step s waits for all of the node's receipts of
/// steps < s, counted per step (all nodes start holding data); each send's length is its share
/// of chunks: ceil(length * chunks / chunks_per_node) flits.
/// The last step a node program can run: each message carries its step in a 16-bit tag.
constexpr int kMaxProgramStep = 0xffff;

class ProgramImage {
 public:
  explicit ProgramImage(const Schedule& s);

  int num_nodes() const { return int(m_first.size()) - 1; }
  int source() const { return m_source; }
  /// A view into this image: valid while the image lives.
  NodeTable table(int node) const;
  const std::vector<SendEntry>& entries() const { return m_entries; }
  const std::vector<ReceiptStep>& receipts() const { return m_receipts; }

  /// One ScheduleProgram per node (index = node id), each running its table with messages of
  /// `length` flits. The programs point into this image; a gossip image's per-send lengths and
  /// receipt counters are rebuilt by every call, so programs of an earlier call must not outlive
  /// the next one.
  std::vector<ScheduleProgram> make_programs(uint32_t length) const;

 private:
  int m_source = 0;
  std::vector<SendEntry> m_entries;
  std::vector<uint32_t> m_chunks;  ///< gossip: chunks per entry (empty for broadcast)
  int m_chunks_per_node = 1;
  mutable std::vector<uint32_t> m_lengths;  ///< per-entry flits of the last make_programs()
  std::vector<uint32_t> m_first;  ///< node n's entries are [m_first[n], m_first[n+1])
  std::vector<ReceiptStep> m_receipts;    ///< gossip: per node, sorted by step
  std::vector<uint32_t> m_rfirst;         ///< node n's receipts are [m_rfirst[n], m_rfirst[n+1])
  mutable std::vector<uint16_t> m_counts; ///< receipt counters of the last make_programs()
};

}  // namespace wormcast::sw
