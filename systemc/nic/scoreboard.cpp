// Exactly-once, in-order, right-node delivery checks for every flit, unicast or multi-destination.
#include "systemc/nic/scoreboard.h"

#include <algorithm>

#include <fmt/format.h>

namespace wormcast {

void Scoreboard::error(std::string msg) {
  if (m_errors.size() < 20) m_errors.push_back(std::move(msg));
  ++m_error_count;
}

void Scoreboard::grow() {
  std::vector<Slot> old(m_slots.size() * 2);
  old.swap(m_slots);
  --m_shift;
  for (const Slot& o : old)
    if (o.entry != kNoEntry) m_slots[probe(o.key)] = o;
}

void Scoreboard::erase_slot(size_t i) {
  const size_t mask = m_slots.size() - 1;
  m_slots[i].entry = kNoEntry;
  // Every later key of the run whose home is not cyclically in (i, j] moves back into the hole.
  for (size_t j = (i + 1) & mask; m_slots[j].entry != kNoEntry; j = (j + 1) & mask) {
    const size_t h = home(m_slots[j].key);
    const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (stays) continue;
    m_slots[i] = m_slots[j];
    m_slots[j].entry = kNoEntry;
    i = j;
  }
  --m_size;
}

void Scoreboard::on_inject(const PacketRecord& rec) {
  ++m_injected;
  const uint64_t key = key_of(rec.id);
  size_t i = probe(key);
  if (m_slots[i].entry != kNoEntry) {
    error(fmt::format("packet id {} collides with packet {} still in flight", rec.id,
                      m_pool[m_slots[i].entry].rec.id));
    return;
  }
  uint32_t place;
  if (!m_free.empty()) {
    place = m_free.back();
    m_free.pop_back();
  } else {
    place = uint32_t(m_pool.size());
    m_pool.emplace_back();
  }
  Entry& e = m_pool[place];  // as new: a freed entry was reset
  e.rec = rec;
  if (rec.group) {
    e.copies.assign(rec.group->size(), 0);
    e.remaining = rec.group->size();
  }
  if (2 * (m_size + 1) > m_slots.size()) {
    grow();
    i = probe(key);
  }
  m_slots[i] = Slot{key, place};
  ++m_size;
}

void Scoreboard::eject_fault(EjectFault kind, int node, uint64_t cycle, const FlitView& f, const PacketRecord* r,
                             uint32_t received) {
  switch (kind) {
    case EjectFault::Unknown:
      error(fmt::format("cycle {}: node {} received a flit of unknown packet (key {:#x}, flit {}): duplicate or corrupt",
                        cycle, node, f.key, f.index));
      return;
    case EjectFault::NotAddressed:
      error(fmt::format("cycle {}: packet {} (to {} nodes) delivered to node {}, which it does not address", cycle,
                        r->id, r->group->size(), node));
      return;
    case EjectFault::WrongNode:
      error(fmt::format("cycle {}: packet {} for node {} delivered to node {}", cycle, r->id, r->dst, node));
      return;
    case EjectFault::AfterTail:
      error(fmt::format("cycle {}: node {} received flit {} of packet {} after its tail: duplicate", cycle, node,
                        f.index, r->id));
      return;
    case EjectFault::Order:
      if (f.index != (received & m_index_mask))
        error(fmt::format("cycle {}: packet {} flit {} arrived at node {}, expected flit {} (lost or reordered)", cycle,
                          r->id, f.index, node, received));
      if (f.head != (received == 0) || f.tail != (received + 1 == r->length))
        error(fmt::format("cycle {}: packet {} flit {} at node {} has head={} tail={}", cycle, r->id, received, node,
                          f.head, f.tail));
      return;
  }
}

const PacketRecord* Scoreboard::on_eject(int node, uint64_t cycle, const FlitView& f) {
  ++m_ejected_flits;
  if (cycle > m_last_eject) m_last_eject = cycle;
  const size_t slot = probe(f.key);
  if (m_slots[slot].entry == kNoEntry) {
    eject_fault(EjectFault::Unknown, node, cycle, f, nullptr, 0);
    return nullptr;
  }
  const uint32_t place = m_slots[slot].entry;
  Entry& e = m_pool[place];
  const PacketRecord& r = e.rec;
  uint32_t* received = &e.received;
  if (r.group) {
    auto pos = std::lower_bound(r.group->begin(), r.group->end(), node);
    if (pos == r.group->end() || *pos != node) {
      eject_fault(EjectFault::NotAddressed, node, cycle, f, &r, 0);
      return nullptr;
    }
    received = &e.copies[size_t(pos - r.group->begin())];
  } else if (r.dst != node) {
    eject_fault(EjectFault::WrongNode, node, cycle, f, &r, 0);
    return nullptr;
  }
  if (*received >= r.length) {
    eject_fault(EjectFault::AfterTail, node, cycle, f, &r, *received);
    return nullptr;
  }
  const bool want_head = *received == 0, want_tail = *received + 1 == r.length;
  const bool ok = f.index == (*received & m_index_mask) && f.head == want_head && f.tail == want_tail;
  if (!ok) eject_fault(EjectFault::Order, node, cycle, f, &r, *received);
  if (m_log) m_log->on_delivery(FlitDelivery{cycle, node, r.src, r.id, *received, f.vc});
  ++*received;
  if (!ok || !want_tail) return nullptr;
  m_done = r;
  m_done.dst = node;
  m_done.arrived = cycle + 1;
  m_done.last = --e.remaining == 0;
  ++m_delivered;
  if (m_packets) m_packets->on_packet_done(m_done);
  if (m_done.last) {
    e = Entry{};  // reset for its next packet; its shared group and data go now
    m_free.push_back(place);
    erase_slot(slot);
  }
  return &m_done;
}

std::string Scoreboard::missing(uint64_t id, size_t max_nodes) const {
  const size_t slot = probe(key_of(id));
  if (m_slots[slot].entry == kNoEntry) return "";
  const Entry& e = m_pool[m_slots[slot].entry];
  const uint32_t len = e.rec.length;
  std::string s;
  size_t named = 0, more = 0;
  auto add = [&](int node, uint32_t received) {
    if (received >= len) return;
    if (named == max_nodes) {
      ++more;
      return;
    }
    if (named++) s += "; ";
    s += received + 1 == len ? fmt::format("node {} lacks flit {}", node, received)
                             : fmt::format("node {} lacks flits {}-{}", node, received, len - 1);
  };
  if (e.rec.group) {
    for (size_t i = 0; i < e.rec.group->size(); ++i) add((*e.rec.group)[i], e.copies[i]);
  } else {
    add(e.rec.dst, e.received);
  }
  if (more) s += fmt::format("; and {} more nodes", more);
  return s;
}

uint64_t Scoreboard::oldest_injection() const {
  uint64_t oldest = ~uint64_t(0);
  for (const Slot& s : m_slots)
    if (s.entry != kNoEntry) oldest = std::min(oldest, m_pool[s.entry].rec.injected);
  return oldest;
}

std::vector<PacketRecord> Scoreboard::stranded(size_t max) const {
  std::vector<PacketRecord> v;
  for (const Slot& s : m_slots)
    if (s.entry != kNoEntry) v.push_back(m_pool[s.entry].rec);
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.id < b.id; });
  if (v.size() > max) v.resize(max);
  return v;
}

}  // namespace wormcast
