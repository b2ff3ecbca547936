// Host side of the node runtime: Schedule -> per-node program tables.
#include "sw/schedule/program_image.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormcast::sw {

ProgramImage::ProgramImage(const Schedule& s) : m_source(s.source), m_chunks_per_node(s.chunks_per_node) {
  const int n = s.topology.num_nodes();
  const bool gossip = s.collective == Collective::Gossip;
  // Gossip: per node, receipts by step, to count those before each send's step.
  std::vector<std::vector<int>> receipt_steps(gossip ? size_t(n) : 0);
  std::vector<const Unicast*> sorted;
  sorted.reserve(s.unicasts.size());
  for (const Unicast& u : s.unicasts) {
    if (u.src < 0 || u.src >= n || u.dst < 0 || u.dst >= n)
      throw std::invalid_argument("program image: unicast node id out of range");
    if (u.step < 1 || u.step > kMaxProgramStep)  // the step travels as a message's 16-bit tag
      throw std::invalid_argument("a send in step " + std::to_string(u.step) +
                                  ", which node programs cannot tag; allowed: steps 1..65535");
    sorted.push_back(&u);
    if (gossip) receipt_steps[size_t(u.dst)].push_back(u.step);
  }
  for (std::vector<int>& r : receipt_steps) std::sort(r.begin(), r.end());
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
      if (gossip) {
        e.trigger = 0;  // receipts decide (NodeTable::receipts)
        m_chunks.push_back(uint32_t(u.chunks.count()));
      } else {
        e.trigger = node == s.source ? 0 : 1;
      }
      e.flags = u.tie_negative ? SendEntry::kTieNegative : 0;
      m_entries.push_back(e);
    }
  }
  m_first[size_t(n)] = uint32_t(m_entries.size());
  if (gossip) {
    m_rfirst.assign(size_t(n) + 1, 0);
    for (int node = 0; node < n; ++node) {
      m_rfirst[size_t(node)] = uint32_t(m_receipts.size());
      const std::vector<int>& r = receipt_steps[size_t(node)];
      for (size_t k = 0; k < r.size(); ++k) {
        if (k > 0 && r[k] == r[k - 1]) {
          if (m_receipts.back().count == 0xffff)
            throw std::invalid_argument("program image: node " + std::to_string(node) + " receives more than 65535 messages in step " + std::to_string(r[k]));
          ++m_receipts.back().count;
        } else {
          m_receipts.push_back(ReceiptStep{uint16_t(r[k]), 1});
        }
      }
    }
    m_rfirst[size_t(n)] = uint32_t(m_receipts.size());
  }
}

NodeTable ProgramImage::table(int node) const {
  NodeTable t;
  const uint32_t a = m_first.at(size_t(node)), b = m_first.at(size_t(node) + 1);
  t.sends = m_entries.data() + a;
  t.count = b - a;
  if (!m_lengths.empty()) t.lengths = m_lengths.data() + a;
  if (!m_rfirst.empty()) {
    t.receipts = m_receipts.data() + m_rfirst[size_t(node)];
    t.receipt_steps = m_rfirst[size_t(node) + 1] - m_rfirst[size_t(node)];
  }
  return t;
}

std::vector<ScheduleProgram> ProgramImage::make_programs(uint32_t length) const {
  if (length < 1) throw std::invalid_argument("message length must be >= 1 flit");
  m_lengths.clear();
  for (uint32_t c : m_chunks)
    m_lengths.push_back(std::max<uint32_t>(1, uint32_t((uint64_t(length) * c + uint64_t(m_chunks_per_node) - 1) / uint64_t(m_chunks_per_node))));
  m_counts.assign(m_receipts.size(), 0);
  std::vector<ScheduleProgram> out;
  out.reserve(size_t(num_nodes()));
  for (int node = 0; node < num_nodes(); ++node)
    out.emplace_back(table(node), length, m_rfirst.empty() ? nullptr : m_counts.data() + m_rfirst[size_t(node)]);
  return out;
}

}  // namespace wormcast::sw
