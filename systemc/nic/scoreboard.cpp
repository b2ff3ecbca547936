// Exactly-once, in-order, right-node delivery checks for every flit, unicast or multi-destination.
#include "systemc/nic/scoreboard.h"

#include <algorithm>

#include <fmt/format.h>

namespace wormcast {

void Scoreboard::error(std::string msg) {
  if (m_errors.size() < 20) m_errors.push_back(std::move(msg));
  ++m_error_count;
}

void Scoreboard::on_inject(const PacketRecord& rec) {
  Entry e;
  e.rec = rec;
  if (rec.group) {
    e.copies.assign(rec.group->size(), 0);
    e.remaining = rec.group->size();
  }
  auto [it, fresh] = m_table.emplace(key_of(rec.id), std::move(e));
  if (!fresh) error(fmt::format("packet id {} collides with packet {} still in flight", rec.id, it->second.rec.id));
  ++m_injected;
}

const PacketRecord* Scoreboard::on_eject(int node, uint64_t cycle, const FlitView& f) {
  ++m_ejected_flits;
  auto it = m_table.find(f.key);
  if (it == m_table.end()) {
    error(fmt::format("cycle {}: node {} received a flit of unknown packet (key {:#x}, flit {}): duplicate or corrupt",
                      cycle, node, f.key, f.index));
    return nullptr;
  }
  Entry& e = it->second;
  const PacketRecord& r = e.rec;
  uint32_t* received = &e.received;
  if (r.group) {
    auto pos = std::lower_bound(r.group->begin(), r.group->end(), node);
    if (pos == r.group->end() || *pos != node) {
      error(fmt::format("cycle {}: packet {} (to {} nodes) delivered to node {}, which it does not address", cycle,
                        r.id, r.group->size(), node));
      return nullptr;
    }
    received = &e.copies[size_t(pos - r.group->begin())];
  } else if (r.dst != node) {
    error(fmt::format("cycle {}: packet {} for node {} delivered to node {}", cycle, r.id, r.dst, node));
    return nullptr;
  }
  if (*received >= r.length) {
    error(fmt::format("cycle {}: node {} received flit {} of packet {} after its tail: duplicate", cycle, node,
                      f.index, r.id));
    return nullptr;
  }
  bool ok = true;
  if (f.index != (*received & m_index_mask)) {
    error(fmt::format("cycle {}: packet {} flit {} arrived at node {}, expected flit {} (lost or reordered)", cycle,
                      r.id, f.index, node, *received));
    ok = false;
  }
  const bool want_head = *received == 0, want_tail = *received + 1 == r.length;
  if (f.head != want_head || f.tail != want_tail) {
    error(fmt::format("cycle {}: packet {} flit {} at node {} has head={} tail={}", cycle, r.id, *received, node,
                      f.head, f.tail));
    ok = false;
  }
  if (m_log) m_log->on_delivery(FlitDelivery{cycle, node, r.src, r.id, *received, f.vc});
  ++*received;
  if (!ok || !want_tail) return nullptr;
  m_done = r;
  m_done.dst = node;
  m_done.arrived = cycle + 1;
  m_done.last = --e.remaining == 0;
  ++m_delivered;
  if (m_done.last) m_table.erase(it);
  return &m_done;
}

std::vector<PacketRecord> Scoreboard::stranded(size_t max) const {
  std::vector<PacketRecord> v;
  for (auto& [k, e] : m_table) v.push_back(e.rec);
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.id < b.id; });
  if (v.size() > max) v.resize(max);
  return v;
}

}  // namespace wormcast
