// Exactly-once, in-order, right-node delivery checks for every flit.
#include "systemc/nic/scoreboard.h"

#include <algorithm>

#include <fmt/format.h>

namespace wormcast {

void Scoreboard::error(std::string msg) {
  if (m_errors.size() < 20) m_errors.push_back(std::move(msg));
  ++m_error_count;
}

void Scoreboard::on_inject(const PacketRecord& rec) {
  const uint32_t key = payload_packet(make_payload(rec.id, 0));
  auto [it, fresh] = m_table.emplace(key, rec);
  if (!fresh) error(fmt::format("packet id {} collides with packet {} still in flight", rec.id, it->second.id));
  ++m_injected;
}

const PacketRecord* Scoreboard::on_eject(int node, uint64_t cycle, const Flit& f, PacketRecord& done) {
  const uint32_t key = payload_packet(f.payload);
  auto it = m_table.find(key);
  if (it == m_table.end()) {
    error(fmt::format("cycle {}: node {} received a flit of unknown packet (payload {:#x}): duplicate or corrupt", cycle, node, f.payload));
    return nullptr;
  }
  PacketRecord& r = it->second;
  const uint32_t idx = payload_index(f.payload);
  bool ok = true;
  if (r.dst != node) {
    error(fmt::format("cycle {}: packet {} for node {} delivered to node {}", cycle, r.id, r.dst, node));
    ok = false;
  }
  if (idx != (r.received & 0xff)) {
    error(fmt::format("cycle {}: packet {} flit {} arrived, expected flit {} (lost or reordered)", cycle, r.id, idx, r.received));
    ok = false;
  }
  const bool want_head = r.received == 0, want_tail = r.received + 1 == r.length;
  if (f.head != want_head || f.tail != want_tail) {
    error(fmt::format("cycle {}: packet {} flit {} has head={} tail={}", cycle, r.id, r.received, f.head, f.tail));
    ok = false;
  }
  if (m_log) m_log->on_delivery(FlitDelivery{cycle, node, r.src, r.id, r.received, f.vc});
  ++r.received;
  if (!ok || !want_tail) return nullptr;
  r.arrived = cycle + 1;
  done = r;
  m_table.erase(it);
  ++m_delivered;
  return &done;
}

std::vector<PacketRecord> Scoreboard::stranded(size_t max) const {
  std::vector<PacketRecord> v;
  for (auto& [k, r] : m_table) v.push_back(r);
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.id < b.id; });
  if (v.size() > max) v.resize(max);
  return v;
}

}  // namespace wormcast
