// Host side of the node runtime: Schedule -> per-node program tables.
#include "sw/schedule/program_image.h"

#include <algorithm>
#include <stdexcept>

namespace wormcast::sw {

ProgramImage::ProgramImage(const Schedule& s) : m_source(s.source) {
  const int n = s.topology.num_nodes();
  std::vector<const Unicast*> sorted;
  sorted.reserve(s.unicasts.size());
  for (const Unicast& u : s.unicasts) {
    if (u.src < 0 || u.src >= n || u.dst < 0 || u.dst >= n)
      throw std::invalid_argument("program image: unicast node id out of range");
    if (u.step < 1 || u.step > 0xffff)
      throw std::invalid_argument("program image: step outside 1..65535");
    sorted.push_back(&u);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const Unicast* a, const Unicast* b) {
    if (a->src != b->src) return a->src < b->src;
    if (a->step != b->step) return a->step < b->step;
    return a->order < b->order;
  });
  m_first.assign(size_t(n) + 1, 0);
  m_entries.reserve(sorted.size());
  size_t i = 0;
  for (int node = 0; node < n; ++node) {
    m_first[size_t(node)] = uint32_t(m_entries.size());
    for (; i < sorted.size() && sorted[i]->src == node; ++i) {
      const Unicast& u = *sorted[i];
      SendEntry e{};
      e.dst = uint32_t(u.dst);
      e.step = uint16_t(u.step);
      e.trigger = node == s.source ? 0 : 1;
      e.flags = u.tie_negative ? SendEntry::kTieNegative : 0;
      m_entries.push_back(e);
    }
  }
  m_first[size_t(n)] = uint32_t(m_entries.size());
}

NodeTable ProgramImage::table(int node) const {
  NodeTable t;
  const uint32_t a = m_first.at(size_t(node)), b = m_first.at(size_t(node) + 1);
  t.sends = m_entries.data() + a;
  t.count = b - a;
  return t;
}

std::vector<ScheduleProgram> ProgramImage::make_programs(uint32_t length) const {
  if (length < 1) throw std::invalid_argument("message length must be >= 1 flit");
  std::vector<ScheduleProgram> out;
  out.reserve(size_t(num_nodes()));
  for (int node = 0; node < num_nodes(); ++node) out.emplace_back(table(node), length);
  return out;
}

}  // namespace wormcast::sw
