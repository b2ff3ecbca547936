// A buffer set of the m-way router (DIM+ or DIM-) or of a node interface (injection, ejection):
// the buffer-state table with its allocation/mapping unit, buffer arbiter, routing logic and
// replica engine (the paper's Fig. 2). It has no process: the fabric's clocked process runs its
// evaluate and commit steps (docs/mway.md section 4).
#pragma once

#include <string>
#include <vector>

#include <systemc>

#include "systemc/mway/alloc_map.h"
#include "systemc/mway/buffer_arbiter.h"
#include "systemc/mway/types.h"

namespace wormcast {

class MwayBufferSet : public sc_core::sc_module {
 public:
  enum class Role { Router, Injection, Ejection };

  /// number: the set's way number on in_ch and driver number on out_ch (2d+dir, node 2n).
  MwayBufferSet(sc_core::sc_module_name name, const MwayShared& sh, Role role, int number, int in_ch, int out_ch,
                int buffers, int length);

  Role role() const { return m_role; }
  int number() const { return m_number; }
  int in_channel() const { return m_in; }
  int out_channel() const { return m_out; }
  int capacity() const { return m_cap; }
  int size() const { return int(m_table.size()); }
  /// Buffers holding at least one flit.
  int nonempty() const { return m_nonempty; }
  MwayBufferEntry& entry(int i) { return m_table[size_t(i)]; }
  const MwayBufferEntry& entry(int i) const { return m_table[size_t(i)]; }
  const MwayAllocMap& amu() const { return m_amu; }
  MwayBufferArbiter& arbiter() { return m_arb; }
  std::string entry_name(int i) const { return std::string(name()) + ".b" + std::to_string(i); }

  // ---- driver side (evaluate)
  /// The buffer the buffer arbiter offers to the channel arbiter this cycle, or -1 (updates RF).
  /// header_may_bid(entry): the channel's reading of Stat for a header (section 4.1).
  template <class HeaderMayBid>
  int candidate(HeaderMayBid&& header_may_bid) {
    return m_arb.pick([&](int i) {
      MwayBufferEntry& e = m_table[size_t(i)];
      if (e.count == 0) return false;
      if (e.front().tag == MwayTag::H) return e.pending != 0 && header_may_bid(e);
      e.rf = receiver_full(e);
      return e.header_done && !e.rf;
    });
  }
  /// RF of row i: OR of F over its receivers.
  bool receiver_full(const MwayBufferEntry& e) const;

  // ---- receiver side (evaluate): the allocation unit's pick this cycle
  int pick = -1;

  // ---- commit
  void write_header(int i, int drv, int buf, const MwayPacket& p, uint64_t cycle);
  void reserve(int i, int drv, int buf);
  void write_body(int i, MwayFlitSlot s, uint64_t cycle);
  /// Driver side: the front flit left; frees the row after its tail.
  void pop(int i);
  /// Node interface loader: the next flit of the row's packet (header written by write_header).
  void push(int i, MwayFlitSlot s);
  void free_row(int i);
  /// Row i becomes the replica of row orig carrying `rest` (MST-replica).
  void make_replica(int i, int orig, uint32_t rest);

 private:
  const MwayShared& m_sh;
  Role m_role;
  int m_number;
  int m_in, m_out;
  int m_cap;
  int m_nonempty = 0;
  std::vector<MwayBufferEntry> m_table;
  MwayAllocMap m_amu;
  MwayBufferArbiter m_arb;
};

}  // namespace wormcast
