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

/// Executes a NodeTable: at start, makes the sends whose trigger is 0 (the source's); after the
/// r-th receive, makes every not-yet-made send whose trigger is <= r, in table order. A broadcast
/// table has trigger 1 on every non-source send, so a node sends its unicasts, in order, as soon
/// as it holds the message; later (redundant) receives trigger nothing.
class ScheduleProgram final : public NodeProgram {
 public:
  constexpr ScheduleProgram() = default;
  /// `length` is the message length in flits (>= 1) used for every send.
  constexpr ScheduleProgram(NodeTable table, uint32_t length) : m_table(table), m_length(length) {}

  void on_start(NodeApi& api) override { run(api); }

  void on_receive(NodeApi& api, const Delivery& msg) override {
    (void)msg;
    if (m_received != UINT32_MAX) ++m_received;
    run(api);
  }

  constexpr uint32_t received() const { return m_received; }
  constexpr uint32_t sent() const { return m_next; }
  constexpr bool done() const { return m_next == m_table.count; }

 private:
  void run(NodeApi& api) {
    while (m_next < m_table.count && m_table.sends[m_next].trigger <= m_received) {
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
  uint32_t m_received = 0;
  uint32_t m_next = 0;
};

}  // namespace wormcast::sw
