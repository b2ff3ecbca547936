// The edge set's one process: wake the members woken before this edge, run the awake ones.
#include "systemc/common/edge_set.h"

#include "systemc/common/clock.h"

namespace wormcast {

EdgeSet::EdgeSet(sc_core::sc_module_name name, bool rising) : sc_module(name) {
  SC_HAS_PROCESS(EdgeSet);
  SC_METHOD(run);
  if (rising)
    sensitive << clk.pos();
  else
    sensitive << clk.neg();
  dont_initialize();
}

void EdgeSet::add(EdgeMember* member, Waker* waker) {
  const uint32_t i = uint32_t(m_members.size());
  m_members.push_back(member);
  m_wakers.push_back(waker);
  waker->set = this;
  waker->member = i;
  waker->sleeping = false;
  if (m_awake.size() * 64 <= i) m_awake.push_back(0);
  m_awake[i / 64] |= uint64_t(1) << (i % 64);
}

void EdgeSet::run() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (m_now_stamp < now) {  // woken in an earlier time step: they act at this edge
    m_woken.insert(m_woken.end(), m_woken_now.begin(), m_woken_now.end());
    m_woken_now.clear();
  }
  for (uint32_t i : m_woken) m_awake[i / 64] |= uint64_t(1) << (i % 64);
  m_woken.clear();
  const uint64_t t = current_cycle();
  for (size_t w = 0; w < m_awake.size(); ++w) {
    for (uint64_t m = m_awake[w]; m; m &= m - 1) {
      const uint32_t i = uint32_t(w * 64 + size_t(__builtin_ctzll(m)));
      if (!m_members[i]->on_edge(t)) {
        m_awake[w] &= ~(uint64_t(1) << (i % 64));
        m_wakers[i]->sleeping = true;
      }
    }
  }
}

}  // namespace wormcast
