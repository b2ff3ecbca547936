// An m-way channel (docs/mway.md sections 3-5): the channel arbiter on Pri, the wired-AND Ack,
// Stat as seen by the drivers, and the transfer of one flit per cycle to every addressed
// receiver. It has no process: the fabric's clocked process runs evaluate and commit.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <systemc>

#include "systemc/mway/buffer_set.h"
#include "systemc/mway/types.h"

namespace wormcast {

class MwayChannel : public sc_core::sc_module {
 public:
  MwayChannel(sc_core::sc_module_name name, const MwayShared& sh, int id);

  int id() const { return m_id; }
  /// Attach the set that is way p / driver p on this channel.
  void attach_receiver(int p, MwayBufferSet* s) { m_receivers[size_t(p)] = s; }
  void attach_driver(int p, MwayBufferSet* s) { m_drivers[size_t(p)] = s; }
  MwayBufferSet* receiver(int p) const { return m_receivers[size_t(p)]; }
  MwayBufferSet* driver(int p) const { return m_drivers[size_t(p)]; }
  /// Some driver set holds a flit.
  bool has_flits() const;

  /// Cycle t, from the state after edge t: arbitration, allocation, Ack. True when a driver won.
  bool evaluate(uint64_t t, std::vector<MwayBufferSet*>& picked);
  /// A header whose ok ways are a proper non-empty prefix and that may split (MST-replica).
  bool wants_replica() const { return m_d.valid && m_d.action == Action::SplitCandidate; }
  /// Resolve wants_replica(): replica row of the driver set, or -1 (then the header reserves).
  void resolve_replica(int row);
  /// Edge t+1: commit the transfer of cycle t. Returns true when a flit moved.
  bool commit(uint64_t t, MwayChannelObserver* obs);
  /// Replica creation after every transfer of the edge (section 4 step 2): the replica's row in
  /// the driver set of the last decision, or -1 when there was none.
  std::pair<int, int> commit_replica();  ///< (replica row, original row), or (-1, -1)
  /// Driver set of the last decision.
  MwayBufferSet* decided_driver() const { return m_d.valid ? m_drivers[size_t(m_d.drv)] : nullptr; }
  /// Lines idle (no driver this cycle).
  void idle();

  uint64_t flits() const { return m_flits; }
  /// Channel cycles by what the lines carried (section 4.3): a header with Ack = 1; a header with
  /// Ack = 0 that still reserved, split or delivered to some way; a header with Ack = 0 that
  /// gained nothing; a body or tail flit.
  enum class LineUse { HeaderAck, HeaderPartial, HeaderRefused, BodyTail };
  static constexpr int kLineUses = 4;
  uint64_t line_use(LineUse u) const { return m_use[size_t(u)]; }
  /// Trace the Pri and Stat lines (computed only when traced: they decide nothing the model does
  /// not already decide from the tables).
  void trace_lines(bool on) const { m_trace_lines = on; }
  /// Of those, cycles in which this channel's node interface was the driver (injection rate).
  uint64_t node_flits() const { return m_node_flits; }

  // Channel lines of the current cycle (traced).
  int line_drv = -1;
  int line_tag = 0;
  int line_buf = -1;
  uint32_t line_ways = 0;
  bool line_ack = false;
  uint32_t line_pri = 0;    ///< Pri: the drivers that request the channel this cycle (bit p)
  uint32_t line_stat = 0;   ///< Stat: the receiver sets with a free buffer (bit p = way p)
  uint32_t line_full = 0;   ///< Stat: the receiver sets with a full buffer (bit p = way p)
  uint64_t line_packet = 0; ///< the driven flit's packet id (0 when idle)
  uint32_t line_flit = 0;   ///< the driven flit's index in its packet, 0 = header (0 when idle)

 private:
  enum class Action { None, Transfer, Partial, Reserve, SplitCandidate, Split, Body };
  struct Decision {
    bool valid = false;
    int drv = -1, buf = -1;
    MwayTag tag = MwayTag::I;
    uint32_t index = 0;
    Action action = Action::None;
    uint32_t ways = 0, ok = 0, newly = 0;
    std::array<int, kMwayMaxWays> row{};
    int replica = -1;
    std::vector<std::pair<int, int>> matches;  ///< body: (way, row)
  };
  /// Section 4.1: whether a header may bid, from the Stat lines after edge t.
  bool header_may_bid(const MwayBufferEntry& e) const;
  void write_header_to(uint32_t ways, MwayBufferSet* drv_set, MwayBufferEntry& e, uint64_t t,
                       MwayChannelEvent* ev);

  const MwayShared& m_sh;
  int m_id;
  int m_m;
  std::vector<MwayBufferSet*> m_receivers, m_drivers;
  int m_ptr = 0;  ///< channel arbiter's rotating priority pointer
  Decision m_d;
  uint64_t m_flits = 0, m_node_flits = 0;
  std::array<uint64_t, kLineUses> m_use{};
  mutable bool m_trace_lines = false;  ///< set by the fabric's trace(), before the simulation runs
  // replica pending commit
  int m_rep_row = -1, m_rep_orig = -1;
  uint32_t m_rep_rest = 0;
};

}  // namespace wormcast
