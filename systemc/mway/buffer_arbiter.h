// Buffer arbiter of a buffer set (docs/mway.md section 4.1): round robin over the eligible
// buffers, pointer past the candidate in every cycle the set wins the channel.
#pragma once

namespace wormcast {

class MwayBufferArbiter {
 public:
  explicit MwayBufferArbiter(int n) : m_n(n) {}
  /// First index among ptr, ptr+1, ..., ptr-1 for which eligible(i) holds, or -1.
  template <class F>
  int pick(F&& eligible) const {
    for (int k = 0; k < m_n; ++k) {
      int i = m_ptr + k;
      if (i >= m_n) i -= m_n;
      if (eligible(i)) return i;
    }
    return -1;
  }
  void granted(int i) { m_ptr = i + 1 == m_n ? 0 : i + 1; }
  int pointer() const { return m_ptr; }

 private:
  int m_n;
  int m_ptr = 0;
};

}  // namespace wormcast
