// Channel behaviour: every step is the numbered rule of docs/mway.md sections 4.2 and 5.
#include "systemc/mway/channel.h"

#include "systemc/mway/replica_engine.h"
#include "systemc/mway/routing_logic.h"

namespace wormcast {

MwayChannel::MwayChannel(sc_core::sc_module_name name, const MwayShared& sh, int id)
    : sc_module(name), m_sh(sh), m_id(id), m_m(sh.geo->ways()), m_receivers(size_t(m_m)), m_drivers(size_t(m_m)) {}

bool MwayChannel::has_flits() const {
  for (auto* s : m_drivers)
    if (s && s->nonempty()) return true;
  return false;
}

void MwayChannel::idle() {
  m_d.valid = false;
  line_drv = -1;
  line_tag = 0;
  line_buf = -1;
  line_ways = 0;
  line_ack = false;
  line_pri = 0;
  line_packet = 0;
  line_flit = 0;
  if (m_trace_lines) {
    line_stat = line_full = 0;
    for (int p = 0; p < m_m; ++p) {
      const MwayBufferSet* rs = m_receivers[size_t(p)];
      if (!rs) continue;
      if (rs->amu().free_buffer() >= 0) line_stat |= 1u << p;
      for (int i = 0; i < rs->size(); ++i)
        if (rs->entry(i).f) line_full |= 1u << p;
    }
  }
}

bool MwayChannel::header_may_bid(const MwayBufferEntry& e) const {
  if (m_sh.params->header_bid == MwayHeaderBid::Blind) return true;
  // The ways not yet allocated to this header; a reserved way is a prefix of the order, so the
  // lowest open way is the one an ordered reservation takes next.
  const uint32_t open = e.pending & ~e.reserved;
  if (open == 0) return true;
  const bool unordered = m_sh.params->algorithm == MwayAlgorithm::Mst && e.pkt.kind == MwayKind::Tree;
  if (!unordered) return m_receivers[size_t(__builtin_ctz(open))]->amu().free_buffer() >= 0;
  for (uint32_t w = open; w; w &= w - 1)
    if (m_receivers[size_t(__builtin_ctz(w))]->amu().free_buffer() >= 0) return true;
  return false;
}

bool MwayChannel::evaluate(uint64_t /*t*/, std::vector<MwayBufferSet*>& picked) {
  // 4.1 buffer arbiters offer candidates; 4.2 the first requester from the pointer wins.
  int win = -1, row = -1;
  uint32_t pri = 0;
  const auto may_bid = [this](const MwayBufferEntry& e) { return header_may_bid(e); };
  for (int k = 0; k < m_m && (win < 0 || m_trace_lines); ++k) {
    int p = m_ptr + k;
    if (p >= m_m) p -= m_m;
    MwayBufferSet* s = m_drivers[size_t(p)];
    if (!s || !s->nonempty()) continue;
    const int c = s->candidate(may_bid);
    if (c < 0) continue;
    pri |= 1u << p;
    if (win < 0) {
      win = p;
      row = c;
    }
  }
  if (win < 0) {
    idle();
    return false;
  }
  if (m_trace_lines) {
    idle();  // Stat of this cycle (before the allocation units pick)
    line_pri = pri;
  }
  m_ptr = win + 1 == m_m ? 0 : win + 1;
  MwayBufferSet* ds = m_drivers[size_t(win)];
  ds->arbiter().granted(row);
  MwayBufferEntry& e = ds->entry(row);
  const MwayFlitSlot& f = e.front();
  Decision& d = m_d;
  d = Decision{};
  d.valid = true;
  d.drv = win;
  d.buf = row;
  d.tag = f.tag;
  d.index = f.index;

  if (f.tag == MwayTag::H) {
    // 5.1: receivers of the pending ways, in the reservation order.
    const MwayAlgorithm alg = m_sh.params->algorithm;
    const bool unordered = alg == MwayAlgorithm::Mst && e.pkt.kind == MwayKind::Tree;
    d.ways = e.pending;
    bool prefix_ok = true;
    for (uint32_t w = d.ways; w; w &= w - 1) {
      const int p = __builtin_ctz(w);
      MwayBufferSet* rs = m_receivers[size_t(p)];
      if (!rs) mway_internal_error(name(), "header names way " + std::to_string(p) + " which is not wired");
      const int res = rs->amu().reserved_for(win, row);
      if (res >= 0) {
        d.ok |= 1u << p;
        d.row[size_t(p)] = res;
        continue;
      }
      if (unordered || prefix_ok) {
        const int fr = rs->amu().free_buffer();
        if (fr >= 0) {
          d.ok |= 1u << p;
          d.newly |= 1u << p;
          d.row[size_t(p)] = fr;
          rs->pick = fr;
          picked.push_back(rs);
        }
      }
      if (!(d.ok >> p & 1)) prefix_ok = false;
    }
    const bool ack = d.ok == d.ways;
    if (ack) {
      d.action = Action::Transfer;
    } else if (unordered) {
      d.action = d.ok ? Action::Partial : Action::Reserve;  // plain MST reserves nothing: newly == ok
    } else if (alg == MwayAlgorithm::MstReplica && e.pkt.kind == MwayKind::Tree && d.ok) {
      d.action = Action::SplitCandidate;
    } else {
      d.action = Action::Reserve;
    }
    line_ack = ack;
  } else {
    // 5.2: content search of every allocation/mapping unit on the channel.
    for (int p = 0; p < m_m; ++p) {
      MwayBufferSet* rs = m_receivers[size_t(p)];
      if (!rs) continue;
      rs->amu().match(win, row, [&](int i) {
        if (rs->entry(i).f) mway_internal_error(name(), "body flit bid with a full receiver");
        d.matches.emplace_back(p, i);
      });
    }
    if (d.matches.size() != e.receivers.size())
      mway_internal_error(name(), "content search found " + std::to_string(d.matches.size()) + " receivers, expected " +
                                 std::to_string(e.receivers.size()));
    d.action = Action::Body;
    line_ack = true;
  }
  line_drv = win;
  line_tag = int(f.tag);
  line_buf = row;
  line_ways = f.tag == MwayTag::H ? d.ways : 0;
  line_packet = e.pkt.id;
  line_flit = f.index;
  return true;
}

void MwayChannel::resolve_replica(int row) {
  if (row >= 0) {
    m_d.action = Action::Split;
    m_d.replica = row;
  } else {
    m_d.action = Action::Reserve;
  }
}

void MwayChannel::write_header_to(uint32_t ways, MwayBufferSet* ds, MwayBufferEntry& e, uint64_t t,
                                  MwayChannelEvent* ev) {
  for (uint32_t w = ways; w; w &= w - 1) {
    const int p = __builtin_ctz(w);
    MwayBufferSet* rs = m_receivers[size_t(p)];
    const int i = m_d.row[size_t(p)];
    rs->write_header(i, m_d.drv, m_d.buf, MwayRoutingLogic::receive(*m_sh.geo, e.pkt, m_id, p), t);
    e.receivers.emplace_back(rs, i);
    if (ev) ev->receivers.emplace_back(p, i);
  }
  e.pending &= ~ways;
  e.reserved &= ~ways;
  if (e.report_inject && ds->role() == MwayBufferSet::Role::Injection) {
    m_sh.hooks->injected(t, e.pkt.id);
    e.report_inject = false;
  }
}

bool MwayChannel::commit(uint64_t t, MwayChannelObserver* obs) {
  if (!m_d.valid) return false;
  Decision& d = m_d;
  MwayBufferSet* ds = m_drivers[size_t(d.drv)];
  MwayBufferEntry& e = ds->entry(d.buf);
  MwayChannelEvent ev;
  MwayChannelEvent* evp = obs ? &ev : nullptr;
  if (obs) {
    ev.cycle = t;
    ev.channel = m_id;
    ev.drv = d.drv;
    ev.buf = d.buf;
    ev.tag = d.tag;
    ev.packet = e.pkt.id;
    ev.index = d.index;
    ev.ways = d.ways;
  }
  bool moved = false;
  switch (d.action) {
    case Action::Transfer:
    case Action::Partial:
    case Action::Split: {
      const uint32_t taken = d.ok;
      write_header_to(taken, ds, e, t, evp);
      if (d.action == Action::Split) {
        m_rep_row = d.replica;
        m_rep_orig = d.buf;
        m_rep_rest = e.pending;
        e.pending = 0;  // the original keeps Ways = taken (section 7)
      }
      if (e.pending == 0) {
        e.header_done = true;
        ds->pop(d.buf);
      }
      moved = taken != 0;
      if (obs) {
        ev.accepted = taken;
        ev.ack = d.action == Action::Transfer;
        if (d.action == Action::Split) {
          ev.replica = d.replica;
          ev.replica_ways = m_rep_rest;
          ev.replica_region = m_sh.geo->suffix_region(e.pkt.region, ds->out_channel(), __builtin_ctz(m_rep_rest));
        }
      }
      break;
    }
    case Action::Reserve:
      for (uint32_t w = d.newly; w; w &= w - 1) {
        const int p = __builtin_ctz(w);
        m_receivers[size_t(p)]->reserve(d.row[size_t(p)], d.drv, d.buf);
      }
      e.reserved |= d.newly;
      if (obs) ev.reserved = e.reserved;
      break;
    case Action::Body: {
      const MwayFlitSlot s = e.front();
      for (auto& [p, i] : d.matches) {
        m_receivers[size_t(p)]->write_body(i, s, t);
        if (obs) {
          ev.accepted |= 1u << p;
          ev.receivers.emplace_back(p, i);
        }
      }
      ds->pop(d.buf);
      moved = true;
      if (obs) ev.ack = true;
      break;
    }
    case Action::None:
    case Action::SplitCandidate:
      mway_internal_error(name(), "unresolved channel decision");
  }
  if (d.action == Action::Body)
    ++m_use[size_t(LineUse::BodyTail)];
  else if (d.action == Action::Transfer)
    ++m_use[size_t(LineUse::HeaderAck)];
  else
    ++m_use[size_t(d.action != Action::Reserve || d.newly ? LineUse::HeaderPartial : LineUse::HeaderRefused)];
  if (moved) {
    ++m_flits;
    if (d.drv == m_m - 1) ++m_node_flits;  // the node interface drove it: an injection (section 4)
  }
  if (obs) obs->on_channel(ev);
  return moved;
}

std::pair<int, int> MwayChannel::commit_replica() {
  if (m_rep_row < 0) return {-1, -1};
  const int row = m_rep_row;
  m_drivers[size_t(m_d.drv)]->make_replica(row, m_rep_orig, m_rep_rest);
  m_rep_row = -1;
  return {row, m_rep_orig};
}

}  // namespace wormcast
