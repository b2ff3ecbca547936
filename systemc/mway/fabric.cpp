// The m-way fabric: construction, the per-edge steps of docs/mway.md section 4, submission of
// messages (section 8) and the observation hooks.
#include "systemc/mway/fabric.h"


#include <algorithm>
#include <stdexcept>

#include "systemc/common/clock.h"
#include "systemc/mway/copies.h"
#include "systemc/mway/replica_engine.h"

namespace wormcast {

namespace {
const MwayParams& validated(const MwayParams& p) {
  p.validate();
  return p;
}
}  // namespace

std::string MwayFabric::router_name(int r) const {
  return "r_d" + std::to_string(m_geo.router_dim(r)) + "_" + m_geo.suffix(m_geo.router_low(r));
}

MwayFabric::MwayFabric(sc_core::sc_module_name name, const MwayParams& params)
    : sc_module(name),
      m_p(validated(params)),
      m_geo(m_p.radix),
      m_channels("ch"),
      m_routers("r"),
      m_nis("ni") {
  m_sh = MwayShared{&m_geo, &m_p, this};
  m_channels.init(size_t(m_geo.num_channels()), [&](const char*, size_t i) {
    return new MwayChannel(channel_name(int(i)).c_str(), m_sh, int(i));
  });
  m_routers.init(size_t(m_geo.num_routers()), [&](const char*, size_t i) {
    return new MwayRouter(router_name(int(i)).c_str(), m_sh, int(i));
  });
  m_nis.init(size_t(m_geo.num_channels()), [&](const char*, size_t i) {
    return new MwayNodeInterface(node_name(int(i)).c_str(), m_sh, int(i));
  });
  // Wiring (section 2.1): a set is way p on its input channel and driver p on its output channel.
  for (auto& r : m_routers) {
    for (MwayBufferSet* s : {&r.plus, &r.minus}) {
      m_channels[size_t(s->in_channel())].attach_receiver(s->number(), s);
      m_channels[size_t(s->out_channel())].attach_driver(s->number(), s);
    }
  }
  for (auto& ni : m_nis) {
    m_channels[size_t(ni.node())].attach_driver(m_geo.node_way(), &ni.inj);
    m_channels[size_t(ni.node())].attach_receiver(m_geo.node_way(), &ni.ej);
  }
  m_is_active_ch.assign(size_t(m_geo.num_channels()), 0);
  m_is_active_ni.assign(size_t(m_geo.num_channels()), 0);

  SC_HAS_PROCESS(MwayFabric);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void MwayFabric::mark_active(int ch) {
  if (!m_is_active_ch[size_t(ch)]) {
    m_is_active_ch[size_t(ch)] = 1;
    m_active_ch.push_back(ch);
  }
}

void MwayFabric::activate_ni(int node) {
  if (!m_is_active_ni[size_t(node)]) {
    m_is_active_ni[size_t(node)] = 1;
    m_active_ni.push_back(node);
  }
  if (m_sleeping) m_wake.notify(sc_core::SC_ZERO_TIME);
}

void MwayFabric::deliver(uint64_t cycle, int node, const MwayPacket& p, uint32_t index, bool head, bool tail) {
  if (m_obs) m_obs->on_deliver(cycle, node, p.id, index, head, tail);
  if (tail && p.kind == MwayKind::Forward) {
    m_nis[size_t(node)].forward(p, cycle);
    activate_ni(node);
  }
}

void MwayFabric::injected(uint64_t cycle, uint64_t packet) {
  if (m_obs) m_obs->on_inject(cycle, packet);
}

void MwayFabric::submit(int node, const MwayMessage& m) {
  for (const MwayCopy& c : mway_submit_copies(m_geo, m_p, node, m))
    m_nis[size_t(node)].enqueue(c.pkt, m.created, c.report_inject);
  activate_ni(node);
}

void MwayFabric::tick() {
  if (m_sleeping) {  // woken by submit(); the new work is taken at the next edge
    m_sleeping = false;
    return;
  }
  const uint64_t e = current_cycle();
  // Step 1: commit the transfers of cycle e-1.
  for (int ch : m_commit) {
    if (m_channels[size_t(ch)].commit(e - 1, m_chobs)) {
      ++m_moved;
      m_last_move = e - 1;
      if (m_activity) m_activity->moved(e - 1);
    }
  }
  // Step 2: replicas, after every transfer of the edge.
  for (int ch : m_commit) {
    MwayChannel& c = m_channels[size_t(ch)];
    const auto [row, orig] = c.commit_replica();
    if (row < 0) continue;
    MwayBufferSet* ds = c.decided_driver();
    const MwayBufferEntry& rep = ds->entry(row);
    if (ds->role() == MwayBufferSet::Role::Injection) {
      m_nis[size_t(ds->out_channel())].add_replica_target(orig, row);
    } else if (!rep.t) {
      // The upstream driver now feeds the replica too; its RF must see the replica's F.
      MwayBufferSet* up = m_channels[size_t(ds->in_channel())].driver(rep.drv);
      up->entry(rep.buf).receivers.emplace_back(ds, row);
    }
  }
  m_commit.clear();
  // Step 3: node interfaces load their injection sets. A flit loaded is progress for the watchdog
  // (a long message loads while no channel moves: not a deadlock yet), not a flit switched.
  size_t keep = 0;
  for (size_t k = 0; k < m_active_ni.size(); ++k) {
    const int n = m_active_ni[k];
    MwayNodeInterface& ni = m_nis[size_t(n)];
    const uint64_t loaded = ni.loaded();
    const bool more = ni.load(e);
    if (ni.loaded() != loaded && m_activity && e > 0) m_activity->progressed(e - 1);
    if (more) {
      m_active_ni[keep++] = n;
    } else {
      m_is_active_ni[size_t(n)] = 0;
    }
  }
  m_active_ni.resize(keep);
  // Step 4: evaluate cycle e on every channel with a flit to drive.
  for (MwayBufferSet* s : m_picked) s->pick = -1;
  m_picked.clear();
  keep = 0;
  for (size_t k = 0; k < m_active_ch.size(); ++k) {
    const int ch = m_active_ch[k];
    MwayChannel& c = m_channels[size_t(ch)];
    if (!c.has_flits()) {
      c.idle();
      m_is_active_ch[size_t(ch)] = 0;
      continue;
    }
    m_active_ch[keep++] = ch;
    if (c.evaluate(e, m_picked)) m_commit.push_back(ch);
  }
  m_active_ch.resize(keep);
  if (m_tracing)  // the waveform's Stat lines of the channels nobody drives (no decision reads them)
    for (auto& c : m_channels)
      if (!m_is_active_ch[size_t(c.id())]) c.idle();
  for (int ch : m_commit) {
    MwayChannel& c = m_channels[size_t(ch)];
    if (!c.wants_replica()) continue;
    MwayBufferSet* ds = c.decided_driver();
    c.resolve_replica(MwayReplicaEngine::choose(ds->amu(), ds->pick));
  }
  for (TracedWord& w : m_words) w.value = uint32_t(*w.src) & w.mask;  // empty unless traced
  if (m_commit.empty() && m_active_ch.empty() && m_active_ni.empty()) {
    m_sleeping = true;
    next_trigger(m_wake);
  }
}

const uint32_t& MwayFabric::traced_word(const int& src, int width) const {
  const uint32_t mask = width >= 32 ? ~0u : (1u << width) - 1;
  m_words.push_back(TracedWord{&src, mask, uint32_t(src) & mask});
  return m_words.back().value;
}

std::vector<uint64_t> MwayFabric::node_flits() const {
  std::vector<uint64_t> v;
  for (auto& c : m_channels) v.push_back(c.node_flits());
  return v;
}

std::vector<uint64_t> MwayFabric::channel_flits() const {
  std::vector<uint64_t> out;
  for (auto& c : m_channels) out.push_back(c.flits());
  return out;
}

std::vector<std::pair<std::string, uint64_t>> MwayFabric::line_uses() const {
  using U = MwayChannel::LineUse;
  std::vector<std::pair<std::string, uint64_t>> v{
      {"header_ack", 0}, {"header_ack0_progress", 0}, {"header_ack0_none", 0}, {"body_tail", 0}};
  for (auto& c : m_channels) {
    v[0].second += c.line_use(U::HeaderAck);
    v[1].second += c.line_use(U::HeaderPartial);
    v[2].second += c.line_use(U::HeaderRefused);
    v[3].second += c.line_use(U::BodyTail);
  }
  return v;
}

size_t MwayFabric::buffered_flits() const {
  size_t n = 0;
  for (int ch : m_active_ch) {
    const MwayChannel& c = m_channels[size_t(ch)];
    for (int p = 0; p < m_geo.ways(); ++p) {
      const MwayBufferSet* s = c.driver(p);
      if (!s || !s->nonempty()) continue;
      for (int i = 0; i < s->size(); ++i) n += size_t(s->entry(i).count);
    }
  }
  return n;
}

size_t MwayFabric::queued_messages() const {
  size_t n = 0;
  for (int i : m_active_ni) n += m_nis[size_t(i)].queued();
  return n;
}

bool MwayFabric::idle() const { return m_commit.empty() && m_active_ch.empty() && m_active_ni.empty(); }

std::string MwayFabric::set_dst(const MwayPacket& p) const {
  return p.kind == MwayKind::Tree ? m_geo.to_string(p.region) : node_name(p.dst);
}

std::vector<WaitEdge> MwayFabric::wait_edges() const {
  std::vector<WaitEdge> out;
  auto visit = [&](const MwayBufferSet& s) {
    for (int i = 0; i < s.size(); ++i) {
      const MwayBufferEntry& e = s.entry(i);
      if (!e.a || e.r) continue;
      const std::string me = s.entry_name(i);
      if (s.role() != MwayBufferSet::Role::Injection && e.count == 0 && !e.t) {
        // Allocated, empty, tail not yet in: waits for the driver buffer upstream.
        const MwayBufferSet* up = m_channels[size_t(s.in_channel())].driver(e.drv);
        out.push_back(WaitEdge{me, up->entry_name(e.buf), e.pkt.id, set_dst(e.pkt), 0});
        continue;
      }
      if (s.role() == MwayBufferSet::Role::Injection && e.count == 0 && !e.t) {
        // Empty, tail not yet written: waits for its node interface's loader, if the loader
        // writes this row; otherwise nothing will ever write it (no edge: the chain of the
        // buffers waiting for it ends here, and the run driver reports the packet as lost).
        const MwayNodeInterface& ni = m_nis[size_t(s.out_channel())];
        if (ni.load_targets() >> i & 1)
          out.push_back(WaitEdge{me, std::string(ni.name()) + ".loader", e.pkt.id, set_dst(e.pkt), 0});
        continue;
      }
      if (e.count == 0 || s.role() == MwayBufferSet::Role::Ejection) continue;
      const MwayChannel& oc = m_channels[size_t(s.out_channel())];
      if (!e.header_done) {
        for (uint32_t w = e.pending & ~e.reserved; w; w &= w - 1) {
          const MwayBufferSet* rs = oc.receiver(__builtin_ctz(w));
          if (rs->amu().free_buffer() >= 0) continue;
          for (int j = 0; j < rs->size(); ++j)
            out.push_back(WaitEdge{me, rs->entry_name(j), e.pkt.id, set_dst(e.pkt), e.count});
        }
      } else if (s.receiver_full(e)) {
        for (auto& [rs, j] : e.receivers)
          if (rs->entry(j).f) out.push_back(WaitEdge{me, rs->entry_name(j), e.pkt.id, set_dst(e.pkt), e.count});
      }
    }
  };
  for (auto& r : m_routers) {
    visit(r.plus);
    visit(r.minus);
  }
  for (auto& ni : m_nis) {
    visit(ni.inj);
    visit(ni.ej);
    // The loader waits for room in a full row it writes (it writes all its rows at once); the
    // source queue waits for the loader, or for any injection buffer when none is free.
    const std::string loader = std::string(ni.name()) + ".loader", queue = std::string(ni.name()) + ".queue";
    const uint32_t targets = ni.load_targets();
    for (int i = 0; i < ni.inj.size(); ++i)
      if ((targets >> i & 1) && ni.inj.entry(i).count == ni.inj.capacity())
        out.push_back(WaitEdge{loader, ni.inj.entry_name(i), ni.loading_packet(), set_dst(ni.inj.entry(i).pkt),
                               ni.inj.capacity()});
    for (size_t k = 0; k < ni.queued(); ++k) {
      if (targets) {
        out.push_back(WaitEdge{queue, loader, ni.queued_packet(k), "", 0});
      } else if (ni.inj.amu().free_buffer() < 0) {
        for (int i = 0; i < ni.inj.size(); ++i)
          out.push_back(WaitEdge{queue, ni.inj.entry_name(i), ni.queued_packet(k), "", 0});
      }
    }
  }
  return out;
}

int mway_trace_bits(int values) {
  int b = 1;
  while ((1 << b) < values) ++b;
  return b;
}

void mway_trace_channel(sc_core::sc_trace_file* tf, const std::string& b, const MwayParams& p, int m,
                        const uint32_t& drv, const uint32_t& tag, const uint32_t& buf, const uint32_t& way_mask,
                        const bool& ack, const uint32_t& pri, const uint32_t& stat_free, const uint32_t& stat_full,
                        const uint64_t* packet, const uint32_t* flit) {
  sc_core::sc_trace(tf, drv, b + ".drv", mway_trace_bits(m));
  sc_core::sc_trace(tf, tag, b + ".tag", 2);
  sc_core::sc_trace(tf, buf, b + ".buf",
                    mway_trace_bits(std::max({p.buffers, p.injection_buffers, p.ejection_buffers})));
  sc_core::sc_trace(tf, way_mask, b + ".ways", m);
  sc_core::sc_trace(tf, ack, b + ".ack");
  sc_core::sc_trace(tf, pri, b + ".pri", m);
  sc_core::sc_trace(tf, stat_free, b + ".stat_free", m);
  sc_core::sc_trace(tf, stat_full, b + ".stat_full", m);
  // Packet ids in 32 bits (a traced run is short), the flit index in log2 max_message_length.
  if (packet) sc_core::sc_trace(tf, *packet, b + ".packet", 32);
  if (flit) sc_core::sc_trace(tf, *flit, b + ".flit", mway_trace_bits(p.max_message_length));
}

void MwayFabric::trace(sc_core::sc_trace_file* tf) const {
  // Each line at its real width: Drv and a row's Drv log2 m bits, Buf log2 buffers, Ways, Pri and
  // Stat m bits, Fptr and Rptr log2 buffer_length. An idle channel (Tag I) drives Drv all ones.
  const auto bits = mway_trace_bits;
  const int m = m_geo.ways();
  const int wd = bits(m);
  const int wb = bits(std::max({m_p.buffers, m_p.injection_buffers, m_p.ejection_buffers}));
  const int wp = bits(m_p.buffer_length);
  m_tracing = true;
  for (auto& c : m_channels) {
    c.trace_lines(true);
    mway_trace_channel(tf, c.name(), m_p, m, traced_word(c.line_drv, wd), traced_word(c.line_tag, 2),
                       traced_word(c.line_buf, wb), c.line_ways, c.line_ack, c.line_pri, c.line_stat, c.line_full,
                       &c.line_packet, &c.line_flit);
  }
  auto table = [&](const MwayBufferSet& s) {
    for (int i = 0; i < s.size(); ++i) {
      const MwayBufferEntry& e = s.entry(i);
      const std::string b = s.entry_name(i);
      sc_core::sc_trace(tf, e.a, b + ".A");
      sc_core::sc_trace(tf, e.f, b + ".F");
      sc_core::sc_trace(tf, e.r, b + ".R");
      sc_core::sc_trace(tf, e.t, b + ".T");
      sc_core::sc_trace(tf, traced_word(e.drv, wd), b + ".Drv", wd);
      sc_core::sc_trace(tf, traced_word(e.buf, wb), b + ".Buf", wb);
      sc_core::sc_trace(tf, traced_word(e.fptr, wp), b + ".Fptr", wp);
      sc_core::sc_trace(tf, traced_word(e.rptr, wp), b + ".Rptr", wp);
      sc_core::sc_trace(tf, e.rf, b + ".RF");
    }
  };
  for (auto& r : m_routers) {
    table(r.plus);
    table(r.minus);
  }
  // Node interfaces: the injection and ejection tables, and the loader (the rows it writes, as a
  // mask over the injection set, and the index of the next flit it writes).
  for (auto& ni : m_nis) {
    table(ni.inj);
    table(ni.ej);
    const std::string b = std::string(ni.name()) + ".loader";
    sc_core::sc_trace(tf, ni.target_mask(), b + ".targets", m_p.injection_buffers);
    sc_core::sc_trace(tf, ni.next_flit_ref(), b + ".next", bits(m_p.max_message_length + 1));
  }
}

}  // namespace wormcast
