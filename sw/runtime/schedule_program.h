// The generic node program: runs one node's part of a schedule from its program table.
//
// Embedded C++ (freestanding, no exceptions, no RTTI, no allocation, no I/O): the same object runs
// on a node CPU, on the SystemC model's node thread and on the analytic backend, through NodeApi.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "sw/hal/node_api.h"
#include "sw/runtime/program_table.h"

namespace wormcast::sw {

/// Executes a NodeTable. Broadcast (no receipts): at start, makes the sends whose trigger is 0
/// (the source's); after the r-th receive, makes every not-yet-made send whose trigger is <= r,
/// in table order. A broadcast table has trigger 1 on every non-source send, so a node sends its
/// unicasts, in order, as soon as it holds the message; later (redundant) receives trigger nothing.
///
/// Gossip (receipts): each receive is counted under its step (the message tag) in a counter the
/// caller provides (RAM, one per ReceiptStep, zeroed); a send of step s is made once every step
/// < s has all its receipts, so a later step's message never stands in for an earlier one.
/// Receipts the table does not expect are counted in unexpected() and trigger nothing.
class ScheduleProgram final : public NodeProgram {
 public:
  constexpr ScheduleProgram() = default;
  /// `length` is the message length in flits (>= 1) used for every send. A table with receipts
  /// needs `receipt_counts`: table.receipt_steps zeroed counters that outlive the program.
  constexpr ScheduleProgram(NodeTable table, uint32_t length, uint16_t* receipt_counts = nullptr)
      : m_table(table), m_length(length), m_counts(receipt_counts) {}

  void on_start(NodeApi& api) override { run(api); }

  void on_receive(NodeApi& api, const Delivery& msg) override {
    if (m_received != UINT32_MAX) ++m_received;
    if (m_table.receipts) count(msg.tag);
    run(api);
  }

  constexpr uint32_t received() const { return m_received; }
  constexpr uint32_t unexpected() const { return m_unexpected; }
  /// Gossip: leading ReceiptSteps whose receipts are all in.
  constexpr uint32_t complete_steps() const { return m_complete; }
  constexpr uint32_t sent() const { return m_next; }
  constexpr bool done() const { return m_next == m_table.count; }

 private:
  /// Binary search of the node's receipt steps (a few per step, sorted): no allocation.
  void count(uint32_t tag) {
    uint32_t lo = 0, hi = m_table.receipt_steps;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (m_table.receipts[mid].step < tag) lo = mid + 1;
      else hi = mid;
    }
    if (!m_counts || lo == m_table.receipt_steps || m_table.receipts[lo].step != tag ||
        m_counts[lo] >= m_table.receipts[lo].count) {
      ++m_unexpected;
      return;
    }
    ++m_counts[lo];
    while (m_complete < m_table.receipt_steps && m_counts[m_complete] == m_table.receipts[m_complete].count) ++m_complete;
  }

  bool ready(const SendEntry& e) const {
    if (!m_table.receipts) return e.trigger <= m_received;
    // Every receipt step before e.step complete: the first incomplete one is not earlier.
    return m_complete == m_table.receipt_steps || m_table.receipts[m_complete].step >= e.step;
  }

  void run(NodeApi& api) {
    while (m_next < m_table.count && ready(m_table.sends[m_next])) {
      const SendEntry& e = m_table.sends[m_next];
      ++m_next;  // first, so a re-entrant backend never repeats a send
      SendOptions opt;
      opt.tie_negative = (e.flags & SendEntry::kTieNegative) != 0;
      opt.tag = e.step;
      api.send(int(e.dst), m_table.lengths ? m_table.lengths[m_next - 1] : m_length, opt);
    }
  }

  NodeTable m_table{};
  uint32_t m_length = 1;
  uint16_t* m_counts = nullptr;
  uint32_t m_received = 0;
  uint32_t m_next = 0;
  uint32_t m_complete = 0;
  uint32_t m_unexpected = 0;
};

}  // namespace wormcast::sw
