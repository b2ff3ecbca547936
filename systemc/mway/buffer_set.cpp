// Buffer-set behaviour: every step is the numbered rule of docs/mway.md sections 4.1, 5 and 7.
#include "systemc/mway/buffer_set.h"

#include "systemc/mway/replica_engine.h"
#include "systemc/mway/routing_logic.h"

namespace wormcast {

MwayBufferSet::MwayBufferSet(sc_core::sc_module_name name, const MwayShared& sh, Role role, int number, int in_ch,
                             int out_ch, int buffers, int length)
    : sc_module(name),
      m_sh(sh),
      m_role(role),
      m_number(number),
      m_in(in_ch),
      m_out(out_ch),
      m_cap(length),
      m_table(size_t(buffers)),
      m_amu(m_table),
      m_arb(buffers) {
  if (role != Role::Ejection)
    for (auto& e : m_table) e.ring.resize(size_t(length));
}

bool MwayBufferSet::receiver_full(const MwayBufferEntry& e) const {
  for (auto& [set, i] : e.receivers)
    if (set->entry(i).f) return true;
  return false;
}

void MwayBufferSet::write_header(int i, int drv, int buf, const MwayPacket& p, uint64_t cycle) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (e.a && !(e.r && e.drv == drv && e.buf == buf)) mway_internal_error(name(), "header into a busy buffer");
  e.a = true;
  e.r = false;
  e.t = false;
  e.drv = drv;
  e.buf = buf;
  e.pkt = p;
  if (m_role == Role::Ejection) {
    m_sh.hooks->deliver(cycle, m_out, p, 0, true, false);
    return;
  }
  e.pending = MwayRoutingLogic::ways(*m_sh.geo, p, m_out, m_role == Role::Injection);
  e.reserved = 0;
  e.header_done = false;
  e.rf = false;
  e.receivers.clear();
  e.fptr = e.rptr = e.count = 0;
  push(i, MwayFlitSlot{MwayTag::H, 0});
}

void MwayBufferSet::reserve(int i, int drv, int buf) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (e.a) mway_internal_error(name(), "reservation of a busy buffer");
  e.a = true;
  e.r = true;
  e.t = false;
  e.drv = drv;
  e.buf = buf;
}

void MwayBufferSet::push(int i, MwayFlitSlot s) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (e.count == m_cap) mway_internal_error(name(), "buffer overflow in b" + std::to_string(i));
  e.ring[size_t(e.rptr)] = s;
  e.rptr = e.rptr + 1 == m_cap ? 0 : e.rptr + 1;
  if (++e.count == 1) {
    ++m_nonempty;
    m_sh.hooks->mark_active(m_out);
  }
  e.f = e.count == m_cap;
  if (s.tag == MwayTag::T) e.t = true;
}

void MwayBufferSet::write_body(int i, MwayFlitSlot s, uint64_t cycle) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (m_role == Role::Ejection) {
    const bool tail = s.tag == MwayTag::T;
    const MwayPacket p = e.pkt;
    if (tail) free_row(i);  // section 5.3: an ejection buffer is free once its tail is written
    m_sh.hooks->deliver(cycle, m_out, p, s.index, false, tail);
    return;
  }
  push(i, s);
}

void MwayBufferSet::pop(int i) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (e.count == 0) mway_internal_error(name(), "pop from an empty buffer");
  const bool tail = e.front().tag == MwayTag::T;
  e.fptr = e.fptr + 1 == m_cap ? 0 : e.fptr + 1;
  e.f = false;
  if (--e.count == 0) --m_nonempty;
  if (tail) free_row(i);
}

void MwayBufferSet::free_row(int i) {
  MwayBufferEntry& e = m_table[size_t(i)];
  if (e.count) mway_internal_error(name(), "freeing a buffer that holds flits");
  std::vector<MwayFlitSlot> ring = std::move(e.ring);
  e = MwayBufferEntry{};
  e.ring = std::move(ring);
}

void MwayBufferSet::make_replica(int i, int orig, uint32_t rest) {
  MwayBufferEntry& rep = m_table[size_t(i)];
  const MwayBufferEntry& o = m_table[size_t(orig)];
  if (rep.a) mway_internal_error(name(), "replica into a busy buffer");
  if (o.count + 1 > m_cap) mway_internal_error(name(), "replica does not fit (needs virtual cut-through)");
  MwayReplicaEngine::build(*m_sh.geo, o, rep, rest, m_out);
  ++m_nonempty;
  m_sh.hooks->mark_active(m_out);
}

}  // namespace wormcast
