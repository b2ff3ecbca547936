// Allocation/mapping unit of a buffer set: the CAM over the buffer-state table (docs/mway.md
// section 5): free-buffer choice, reservation lookup and the (Drv, Buf) content search.
#pragma once

#include <vector>

#include "systemc/mway/types.h"

namespace wormcast {

class MwayAllocMap {
 public:
  explicit MwayAllocMap(std::vector<MwayBufferEntry>& table) : m_table(table) {}

  /// Lowest-numbered buffer with A = 0, or -1.
  int free_buffer() const {
    for (size_t i = 0; i < m_table.size(); ++i)
      if (!m_table[i].a) return int(i);
    return -1;
  }
  /// Highest-numbered free buffer other than `except` (the replica engine's choice), or -1.
  int free_buffer_from_top(int except) const {
    for (int i = int(m_table.size()) - 1; i >= 0; --i)
      if (!m_table[size_t(i)].a && i != except) return i;
    return -1;
  }
  /// The row reserved for the header of (drv, buf), or -1.
  int reserved_for(int drv, int buf) const {
    for (size_t i = 0; i < m_table.size(); ++i) {
      const auto& e = m_table[i];
      if (e.a && e.r && e.drv == drv && e.buf == buf) return int(i);
    }
    return -1;
  }
  /// Content search for a body or tail flit: every row with A = 1, R = 0, T = 0, (Drv, Buf).
  template <class F>
  void match(int drv, int buf, F&& on_match) const {
    for (size_t i = 0; i < m_table.size(); ++i) {
      const auto& e = m_table[i];
      if (e.a && !e.r && !e.t && e.drv == drv && e.buf == buf) on_match(int(i));
    }
  }
  int free_count() const {
    int n = 0;
    for (auto& e : m_table) n += !e.a;
    return n;
  }

 private:
  std::vector<MwayBufferEntry>& m_table;
};

}  // namespace wormcast
