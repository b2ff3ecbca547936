// The RTL m-way fabric: one clocked process runs the edge as the SystemC fabric does (docs/mway.md
// section 4): the commits of the last cycle (deliveries and their follow-ups, line counters),
// the loaders, the rising edge of every unit, then the next cycle's combinational stages.
#include "tb/rtl/mway/mw_rtl_fabric.h"

#include <algorithm>
#include <tuple>

#include "systemc/common/clock.h"
#include "systemc/mway/copies.h"
#include "systemc/mway/fabric.h"

namespace wormcast {

MwNetlist::MwNetlist(const sw::MwayGeometry& g) : m(g.ways()) {
  const int nch = g.num_channels(), node = g.node_way();
  rx.assign(size_t(nch * m), MwTap{});
  tx.assign(size_t(nch * m), MwTap{});
  for (int r = 0; r < g.num_routers(); ++r) {
    const int d = g.router_dim(r), lo = g.router_low(r), hi = g.router_high(r);
    routers.push_back(Router{d, lo, hi});
    // DIM+ (set 0): way 2d on lo, driver 2d on hi; DIM- (set 1): way 2d+1 on hi, driver 2d+1 on lo.
    rx[size_t(lo * m + 2 * d)] = MwTap{r, 0};
    tx[size_t(hi * m + 2 * d)] = MwTap{r, 0};
    rx[size_t(hi * m + 2 * d + 1)] = MwTap{r, 1};
    tx[size_t(lo * m + 2 * d + 1)] = MwTap{r, 1};
  }
  for (int c = 0; c < nch; ++c) {
    rx[size_t(c * m + node)] = MwTap{c, 0};
    tx[size_t(c * m + node)] = MwTap{c, 0};
  }
}

MwayRtlFabric::MwayRtlFabric(sc_core::sc_module_name name, const MwayParams& params, int id_w,
                             const UnitsFactory& make_units)
    : sc_module(name),
      m_p(params),
      m_geo(params.radix),
      m_l(params, id_w),
      m_net(m_geo),
      m_queue(size_t(m_geo.num_channels())),
      m_ch_flits(size_t(m_geo.num_channels()), 0),
      m_node_flits(size_t(m_geo.num_channels()), 0),
      m_hdr(size_t(MwLayout::words(m_l.hdr_w) + 1), 0u),
      m_loader_was(size_t(m_geo.num_channels())) {
  m_p.validate();
  m_units = make_units(m_l, m_net, m_geo);
  m_units->reset();
  SC_HAS_PROCESS(MwayRtlFabric);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void MwayRtlFabric::submit(int node, const MwayMessage& m) {
  for (const MwayCopy& c : mway_submit_copies(m_geo, m_p, node, m))
    m_queue[size_t(node)].push_back(Item{c.pkt, m.created, c.report_inject});
}

MwLines MwayRtlFabric::lines(int c) const { return mw_lines(m_l, m_units->obs_channel(c)); }

MwSetRow MwayRtlFabric::router_row(int r, int set, int row) const {
  return mw_set_row(m_l, m_units->obs_router(r), set * m_l.rows + row);
}

MwSetRow MwayRtlFabric::inj_row(int node, int row) const { return mw_set_row(m_l, m_units->obs_inj(node), row); }

MwEjRow MwayRtlFabric::ej_row(int node, int row) const { return mw_ej_row(m_l, m_geo, m_units->obs_ej(node), row); }

std::pair<uint32_t, uint32_t> MwayRtlFabric::loader(int node) const {
  const uint32_t* w = m_units->obs_ld(node);
  return {uint32_t(mw_get(w, 0, m_l.inj)), uint32_t(mw_get(w, m_l.inj, m_l.len_w))};
}

void MwayRtlFabric::commit_reports(uint64_t t) {
  const int node_way = m_geo.node_way();
  for (int c = 0; c < m_geo.num_channels(); ++c) {
    const MwLines x = lines(c);
    if (x.tag == int(MwayTag::I)) continue;
    if (m_chobs) note_crossing(t, c, x);
    const bool body = x.tag == int(MwayTag::B) || x.tag == int(MwayTag::T);
    // Section 4.3, as MwayChannel::commit counts it.
    if (body)
      ++m_use[3];
    else if (x.ack)
      ++m_use[0];
    else
      ++m_use[x.take || x.resv ? 1 : 2];
    if (body || x.take) {
      ++m_ch_flits[size_t(c)];
      if (x.drv == node_way) ++m_node_flits[size_t(c)];
      ++m_moved;
      m_last_move = t;
      if (m_activity) m_activity->moved(t);
    }
    if (!body && x.take && x.drv == node_way && m_obs) {
      const MwSetRow r = inj_row(c, x.buf);
      if (r.report) m_obs->on_inject(t, mw_row_packet(m_l, m_geo, r).id);
    }
  }
  for (int n = 0; n < m_geo.num_channels(); ++n) {
    bool head = false, tail = false;
    uint32_t index = 0;
    if (!m_units->delivery(n, m_hdr.data(), head, tail, index)) continue;
    const MwayPacket p = m_l.unpack(m_geo, m_hdr.data());
    if (m_obs) m_obs->on_deliver(t, n, p.id, index, head, tail);
    if (tail && p.kind == MwayKind::Forward)
      for (const MwayPacket& f : mway_follow_ups(m_geo, m_p.algorithm, p, n))
        m_queue[size_t(n)].push_back(Item{f, t, false});
  }
}

template <class F>
void MwayRtlFabric::matching_rows(int c, int p, int drv, int buf, F&& on_row) const {
  const MwTap& tap = m_net.rx[size_t(c * m_net.m + p)];
  if (tap.unit < 0) return;
  if (p == m_geo.node_way()) {
    for (int i = 0; i < m_l.ej; ++i) {
      const MwEjRow r = ej_row(tap.unit, i);
      if (r.a && !r.r && !r.t && r.drv == drv && r.buf == buf) on_row(i);
    }
    return;
  }
  for (int i = 0; i < m_l.rows; ++i) {
    const MwSetRow r = router_row(tap.unit, tap.set, i);
    if (r.a && !r.r && !r.t && r.drv == drv && r.buf == buf) on_row(i);
  }
}

std::pair<uint64_t, uint32_t> MwayRtlFabric::driven_flit(int c, const MwLines& x) const {
  const MwSetRow row =
      x.drv == m_geo.node_way() ? inj_row(c, x.buf) : router_row(m_geo.driver_router(c, x.drv), x.drv & 1, x.buf);
  return {mw_row_packet(m_l, m_geo, row).id, mw_row_slot(m_l, row, row.fptr).index};
}

// The SystemC fabric reports a crossing with the rows that wrote its flit (MwayChannel::commit):
// a header's, chosen among reserved and free rows, hold it after the edge, mapped to (Drv, Buf) as
// no other live row of their set is (an upstream row starts a packet only after its tail left); a
// body or tail flit's are the content search's rows before the edge. A crossing that wrote no row
// (a header refused or only reserving) is no hop.
void MwayRtlFabric::note_crossing(uint64_t t, int c, const MwLines& x) {
  const bool header = x.tag == int(MwayTag::H);
  if (header && !x.take) return;
  MwayChannelEvent ev;
  ev.cycle = t;
  ev.channel = c;
  ev.drv = x.drv;
  ev.buf = x.buf;
  ev.tag = MwayTag(x.tag);
  std::tie(ev.packet, ev.index) = driven_flit(c, x);
  ev.ways = header ? x.ways : 0;
  ev.ack = x.ack;
  if (header) {
    ev.accepted = x.take;  // their rows are known after the edge (report_crossings)
  } else {
    for (int p = 0; p < m_net.m; ++p)
      matching_rows(c, p, x.drv, x.buf, [&](int i) {
        ev.receivers.emplace_back(p, i);
        ev.accepted |= 1u << p;
      });
  }
  m_crossings.push_back(std::move(ev));
}

void MwayRtlFabric::report_crossings() {
  for (MwayChannelEvent& ev : m_crossings) {
    if (ev.tag == MwayTag::H)
      for (uint32_t w = ev.accepted; w; w &= w - 1) {
        const int p = __builtin_ctz(w);
        matching_rows(ev.channel, p, ev.drv, ev.buf, [&](int i) { ev.receivers.emplace_back(p, i); });
      }
    m_chobs->on_channel(ev);
  }
  m_crossings.clear();
}

void MwayRtlFabric::tick() {
  const uint64_t e = current_cycle();
  // Step 1: what edge e commits of cycle e-1 (the units' registers change at clock_edge()).
  m_units->settle_nodes();
  if (e > 0) commit_reports(e - 1);
  // Step 3: each loader sees its queue's front from the edge after the cycle it was created in.
  for (int n = 0; n < m_geo.num_channels(); ++n) {
    const auto& q = m_queue[size_t(n)];
    const bool due = !q.empty() && q.front().created + 1 <= e;
    if (due) m_l.pack(m_geo, q.front().pkt, m_hdr.data());
    m_units->offer(n, due, m_hdr.data(), due && q.front().report_inject);
  }
  m_units->settle_nodes();
  for (int n = 0; n < m_geo.num_channels(); ++n)
    if (m_units->taken(n)) m_queue[size_t(n)].pop_front();
  m_units->clock_edge();
  if (m_units->take_error()) m_rtl_error = true;
  if (m_chobs && !m_crossings.empty()) report_crossings();
  if (m_activity && e > 0) {  // a loader that wrote a flit at this edge: progress (MwayFabric's step 3)
    bool loaded = false;
    for (int n = 0; n < m_geo.num_channels(); ++n) {
      const std::pair<uint32_t, uint32_t> now = loader(n);
      loaded |= now != m_loader_was[size_t(n)];
      m_loader_was[size_t(n)] = now;
    }
    if (loaded) m_activity->progressed(e - 1);
  }
  // Step 4: cycle e.
  m_units->evaluate();
  if (m_tracing) {
    for (int c = 0; c < m_geo.num_channels(); ++c) {
      const MwLines x = lines(c);
      TracedLines& l = m_traced[size_t(c)];
      l.tag = uint32_t(x.tag);
      l.drv = (x.tag ? uint32_t(x.drv) : ~0u) & m_drv_mask;
      l.buf = (x.tag ? uint32_t(x.buf) : ~0u) & m_buf_mask;
      l.ways = x.ways;
      l.packet = 0;
      l.flit = 0;
      if (x.tag) std::tie(l.packet, l.flit) = driven_flit(c, x);
      l.ack = x.ack;
      l.pri = x.pri;
      l.stat_free = x.stat_free;
      l.stat_full = x.stat_full;
    }
  }
}

std::vector<std::pair<std::string, uint64_t>> MwayRtlFabric::line_uses() const {
  return {{"header_ack", m_use[0]}, {"header_ack0_progress", m_use[1]}, {"header_ack0_none", m_use[2]},
          {"body_tail", m_use[3]}};
}

size_t MwayRtlFabric::buffered_flits() const {
  size_t n = 0;
  for (int r = 0; r < m_geo.num_routers(); ++r)
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < m_l.rows; ++i) n += size_t(router_row(r, s, i).cnt);
  for (int c = 0; c < m_geo.num_channels(); ++c)
    for (int i = 0; i < m_l.inj; ++i) n += size_t(inj_row(c, i).cnt);
  return n;
}

size_t MwayRtlFabric::queued_messages() const {
  size_t n = 0;
  for (auto& q : m_queue) n += q.size();
  return n;
}

bool MwayRtlFabric::idle() const {
  if (queued_messages() != 0 || buffered_flits() != 0) return false;
  for (int c = 0; c < m_geo.num_channels(); ++c)
    if (loader(c).first != 0) return false;
  return true;
}

std::vector<WaitEdge> MwayRtlFabric::wait_edges() const {
  std::vector<WaitEdge> out;
  for (int r = 0; r < m_geo.num_routers(); ++r) {
    int flits = 0;
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < m_l.rows; ++i) flits += router_row(r, s, i).cnt;
    if (flits)
      out.push_back(WaitEdge{std::string(name()) + ".r_d" + std::to_string(m_geo.router_dim(r)) + "_" +
                                 m_geo.suffix(m_geo.router_low(r)) + " (rtl)",
                             "", std::nullopt, "", flits});
  }
  for (int c = 0; c < m_geo.num_channels(); ++c) {
    int flits = 0;
    for (int i = 0; i < m_l.inj; ++i) flits += inj_row(c, i).cnt;
    if (flits || !m_queue[size_t(c)].empty())
      out.push_back(WaitEdge{std::string(name()) + "." + node_name(c) + " (rtl)", "", std::nullopt, "", flits});
  }
  return out;
}

void MwayRtlFabric::trace(sc_core::sc_trace_file* tf) const {
  m_tracing = true;
  m_drv_mask = (1u << mway_trace_bits(m_geo.ways())) - 1;
  m_buf_mask = (1u << mway_trace_bits(std::max({m_p.buffers, m_p.injection_buffers, m_p.ejection_buffers}))) - 1;
  m_traced.assign(size_t(m_geo.num_channels()), TracedLines{m_drv_mask, 0, m_buf_mask});
  for (int c = 0; c < m_geo.num_channels(); ++c) {
    const TracedLines& l = m_traced[size_t(c)];
    mway_trace_channel(tf, std::string(name()) + ".ch_" + m_geo.suffix(c), m_p, m_geo.ways(), l.drv, l.tag, l.buf,
                       l.ways, l.ack, l.pri, l.stat_free, l.stat_full, &l.packet, &l.flit);
  }
}

}  // namespace wormcast
