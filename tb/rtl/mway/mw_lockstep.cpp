// Lockstep bench of the m-way fabrics: one message stream into the SystemC MwayFabric and the
// RTL MwayRtlFabric; at every falling edge the state after the last rising edge and the lines of
// the cycle are compared, every field of both.
#include "tb/rtl/mway/mw_lockstep.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <tuple>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/mway/fabric.h"

namespace wormcast {

std::ostream& operator<<(std::ostream& os, const MwLockstepResult& r) {
  if (r.ok) {
    os << "m-way lockstep ok: " << r.cycles << " cycles, " << r.unicasts << " unicasts and " << r.broadcasts
       << " region broadcasts, " << r.deliveries << " flits delivered; channel cycles: " << r.header_ack
       << " header Ack=1, " << r.header_progress << " header Ack=0 with progress (" << r.reservations
       << " reserving, " << r.splits << " splitting), " << r.header_refused << " header refused, " << r.body_tail
       << " body/tail; longest source queue " << r.max_queued;
  } else {
    os << "m-way lockstep MISMATCH at cycle " << r.mismatch_cycle << ": " << r.mismatch_fields
       << " fields differ, the first:";
    for (const std::string& m : r.mismatches) os << "\n  " << m;
  }
  return os;
}

namespace {

using Delivery = std::tuple<uint64_t, int, uint64_t, uint32_t, bool, bool>;

/// Records every delivery and injection of one fabric.
struct Recorder : MwayObserver {
  std::vector<Delivery> deliveries;
  std::vector<std::pair<uint64_t, uint64_t>> injections;
  void on_deliver(uint64_t cycle, int node, uint64_t packet, uint32_t index, bool head, bool tail) override {
    deliveries.emplace_back(cycle, node, packet, index, head, tail);
  }
  void on_inject(uint64_t cycle, uint64_t packet) override { injections.emplace_back(cycle, packet); }
};

class MwLockstepBench : public sc_core::sc_module {
 public:
  MwLockstepBench(sc_core::sc_module_name name, const MwRtlModelInfo& model, const MwLockstepOptions& opt,
                  MwLockstepResult& res)
      : sc_module(name),
        m_opt(opt),
        m_res(res),
        m_p(model.mway_params()),
        m_clk("clk", cycle_time()),
        m_sc("systemc", m_p),
        m_rtl(model.make("rtl", m_p)),
        m_geo(m_p.radix),
        m_rng(opt.seed) {
    m_sc.clk(m_clk);
    m_rtl->clk(m_clk);
    m_sc.set_observer(&m_sc_rec);
    m_rtl->set_observer(&m_rtl_rec);
    // Pri is computed only when traced: it decides nothing the model does not decide otherwise.
    for (int c = 0; c < m_geo.num_channels(); ++c) m_sc.channel(c).trace_lines(true);
    m_prefix = std::string(m_sc.name()).size() + 1;
    SC_HAS_PROCESS(MwLockstepBench);
    SC_METHOD(step);
    sensitive << m_clk.negedge_event();
    dont_initialize();
  }

 private:
  /// Records a difference; `name` builds the field's name (only when the values differ).
  template <class A, class B, class Name>
  void expect(const A& sc, const B& rtl, Name&& name) {
    if (uint64_t(sc) == uint64_t(rtl)) return;
    ++m_res.mismatch_fields;
    if (m_res.mismatches.size() < m_opt.shown)
      m_res.mismatches.push_back(name() + ": systemc " + std::to_string(int64_t(sc)) + ", rtl " +
                                 std::to_string(int64_t(rtl)));
  }
  /// A driver number or Buf the model keeps as -1 is all ones in the RTL.
  static int64_t ones_for_minus(int v, int width) { return v < 0 ? (int64_t(1) << width) - 1 : v; }

  template <class Name>
  void compare_packet(const MwayPacket& sc, const MwayPacket& rtl, Name&& base) {
    expect(sc.id, rtl.id, [&] { return base() + ".pkt.id"; });
    expect(int(sc.kind), int(rtl.kind), [&] { return base() + ".pkt.kind"; });
    expect(sc.len, rtl.len, [&] { return base() + ".pkt.len"; });
    if (sc.region != rtl.region) {
      ++m_res.mismatch_fields;
      if (m_res.mismatches.size() < m_opt.shown)
        m_res.mismatches.push_back(base() + ".pkt.region: systemc " + m_geo.to_string(sc.region) + ", rtl " +
                                   m_geo.to_string(rtl.region));
    }
    if (sc.kind != MwayKind::Tree) expect(sc.dst, rtl.dst, [&] { return base() + ".pkt.dst"; });
  }

  template <class RtlRow>
  void compare_set(const MwayBufferSet& s, int rows, RtlRow&& rtl_row) {
    const MwLayout& l = m_rtl->layout();
    for (int i = 0; i < rows; ++i) {
      const MwayBufferEntry& e = s.entry(i);
      const MwSetRow r = rtl_row(i);
      const auto n = [&] { return std::string(s.name()).substr(m_prefix) + ".b" + std::to_string(i); };
      expect(e.a, r.a, [&] { return n() + ".A"; });
      expect(e.f, r.f, [&] { return n() + ".F"; });
      expect(e.r, r.r, [&] { return n() + ".R"; });
      expect(e.t, r.t, [&] { return n() + ".T"; });
      expect(s.receiver_full(e), r.rf, [&] { return n() + ".RF"; });
      expect(ones_for_minus(e.drv, l.drv_w), r.drv, [&] { return n() + ".Drv"; });
      expect(ones_for_minus(e.buf, l.buf_w), r.buf, [&] { return n() + ".Buf"; });
      expect(e.fptr, r.fptr, [&] { return n() + ".Fptr"; });
      expect(e.rptr, r.rptr, [&] { return n() + ".Rptr"; });
      expect(e.count, r.cnt, [&] { return n() + ".count"; });
      expect(e.pending, r.pending, [&] { return n() + ".pending"; });
      expect(e.reserved, r.reserved, [&] { return n() + ".reserved"; });
      expect(e.header_done, r.hdone, [&] { return n() + ".header_done"; });
      if (s.role() == MwayBufferSet::Role::Injection)
        expect(e.report_inject, r.report, [&] { return n() + ".report_inject"; });
      if (e.a && !e.r && !mw_packet_is(l, m_geo, r.obs, r.pkt_lsb, e.pkt))
        compare_packet(e.pkt, mw_row_packet(l, m_geo, r), n);
      for (int k = 0; k < e.count && k < s.capacity(); ++k) {
        const int slot = (e.fptr + k) % s.capacity();
        const MwayFlitSlot f = mw_row_slot(l, r, slot);
        expect(int(e.ring[size_t(slot)].tag), int(f.tag), [&] { return n() + ".flit" + std::to_string(k) + ".tag"; });
        expect(e.ring[size_t(slot)].index, f.index, [&] { return n() + ".flit" + std::to_string(k) + ".index"; });
      }
    }
  }

  void compare(uint64_t c) {
    const MwLayout& l = m_rtl->layout();
    if (m_rtl->rtl_error()) {
      ++m_res.mismatch_fields;
      m_res.mismatches.push_back("an RTL assertion failed at the last edge (its message is on standard output)");
    }
    for (int ch = 0; ch < m_geo.num_channels(); ++ch) {
      const MwayChannel& s = m_sc.channel(ch);
      const MwLines x = m_rtl->lines(ch);
      const auto b = [&] { return m_sc.channel_name(ch); };
      expect(ones_for_minus(s.line_drv, l.drv_w), x.tag ? x.drv : (1 << l.drv_w) - 1, [&] { return b() + ".drv"; });
      expect(s.line_tag, x.tag, [&] { return b() + ".tag"; });
      if (s.line_tag) expect(s.line_buf, x.buf, [&] { return b() + ".buf"; });
      expect(s.line_ways, x.ways, [&] { return b() + ".ways"; });
      expect(s.line_ack, x.ack, [&] { return b() + ".ack"; });
      expect(s.line_pri, x.pri, [&] { return b() + ".pri"; });
      uint32_t free = 0, full = 0;
      for (int p = 0; p < m_geo.ways(); ++p) {
        const MwayBufferSet* rs = s.receiver(p);
        if (!rs) continue;
        if (rs->amu().free_buffer() >= 0) free |= 1u << p;
        for (int i = 0; i < rs->size(); ++i)
          if (rs->entry(i).f) full |= 1u << p;
      }
      expect(free, x.stat_free, [&] { return b() + ".stat_free"; });
      expect(full, x.stat_full, [&] { return b() + ".stat_full"; });
      // What the run exercises, counted on the lines.
      if (s.line_tag == int(MwayTag::H)) {
        if (s.line_ack)
          ++m_res.header_ack;
        else if (x.take || x.resv)
          ++m_res.header_progress;
        else
          ++m_res.header_refused;
        m_res.splits += x.split;
        m_res.reservations += x.resv != 0;
      } else if (s.line_tag) {
        ++m_res.body_tail;
      }
    }
    for (int r = 0; r < m_geo.num_routers(); ++r) {
      MwayRouter& rt = m_sc.router(r);
      compare_set(rt.plus, l.rows, [&](int i) { return m_rtl->router_row(r, 0, i); });
      compare_set(rt.minus, l.rows, [&](int i) { return m_rtl->router_row(r, 1, i); });
    }
    for (int n = 0; n < m_geo.num_channels(); ++n) {
      MwayNodeInterface& ni = m_sc.node_interface(n);
      const auto b = [&] { return m_sc.node_name(n); };
      compare_set(ni.inj, l.inj, [&](int i) { return m_rtl->inj_row(n, i); });
      for (int i = 0; i < l.ej; ++i) {
        const MwayBufferEntry& e = ni.ej.entry(i);
        const MwEjRow r = m_rtl->ej_row(n, i);
        const auto en = [&] { return b() + ".ej.b" + std::to_string(i); };
        expect(e.a, r.a, [&] { return en() + ".A"; });
        expect(e.r, r.r, [&] { return en() + ".R"; });
        expect(e.t, r.t, [&] { return en() + ".T"; });
        expect(ones_for_minus(e.drv, l.drv_w), r.drv, [&] { return en() + ".Drv"; });
        expect(ones_for_minus(e.buf, l.buf_w), r.buf, [&] { return en() + ".Buf"; });
        if (e.a && !e.r) compare_packet(e.pkt, r.pkt, en);
      }
      const auto [targets, next] = m_rtl->loader(n);
      expect(ni.load_targets(), targets, [&] { return b() + ".loader.targets"; });
      expect(ni.next_flit(), next, [&] { return b() + ".loader.next"; });
      expect(m_sc.queued(n), m_rtl->queued(n), [&] { return b() + ".queue"; });
      m_res.max_queued = std::max<uint64_t>(m_res.max_queued, m_sc.queued(n));
    }
    // What the last edge delivered and injected, as sets (the fabrics report in their own order).
    for (Recorder* rec : {&m_sc_rec, &m_rtl_rec}) {
      std::sort(rec->deliveries.begin(), rec->deliveries.end());
      std::sort(rec->injections.begin(), rec->injections.end());
    }
    expect(m_sc_rec.deliveries.size(), m_rtl_rec.deliveries.size(), [] { return std::string("deliveries"); });
    if (m_sc_rec.deliveries != m_rtl_rec.deliveries) {
      for (size_t i = 0; i < m_sc_rec.deliveries.size() && i < m_rtl_rec.deliveries.size(); ++i) {
        const auto& [ct, n, pk, ix, h, t] = m_sc_rec.deliveries[i];
        const auto& [rct, rn, rpk, rix, rh, rt] = m_rtl_rec.deliveries[i];
        const auto d = [i = i] { return "delivery " + std::to_string(i); };
        expect(n, rn, [&] { return d() + ".node"; });
        expect(pk, rpk, [&] { return d() + ".packet"; });
        expect(ix, rix, [&] { return d() + ".flit"; });
        expect(h, rh, [&] { return d() + ".head"; });
        expect(t, rt, [&] { return d() + ".tail"; });
        expect(ct, rct, [&] { return d() + ".cycle"; });
      }
    }
    expect(m_sc_rec.injections.size(), m_rtl_rec.injections.size(), [] { return std::string("injections"); });
    expect(m_sc_rec.injections == m_rtl_rec.injections, true, [] { return std::string("injections.same"); });
    m_res.deliveries += m_sc_rec.deliveries.size();
    m_sc_rec.deliveries.clear();
    m_rtl_rec.deliveries.clear();
    m_sc_rec.injections.clear();
    m_rtl_rec.injections.clear();
    expect(m_sc.flits_moved(), m_rtl->flits_moved(), [] { return std::string("flits_moved"); });
    const auto us = m_sc.line_uses(), ur = m_rtl->line_uses();
    for (size_t i = 0; i < us.size(); ++i)
      expect(us[i].second, ur[i].second, [&] { return "line_uses." + us[i].first; });
    if (m_res.mismatch_fields) {
      m_res.ok = false;
      m_res.mismatch_cycle = c;
    }
  }

  /// New messages at the falling edge of cycle c (created = c): unicasts to random other nodes
  /// and broadcasts to random rectangles (never only the source), random lengths.
  void generate(uint64_t c) {
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    const int nodes = m_geo.num_channels();
    for (int n = 0; n < nodes; ++n) {
      if (u01(m_rng) >= m_opt.rate || m_sc.queued(n) >= m_opt.queue_limit) continue;
      MwayMessage msg;
      msg.id = m_next_id++;
      msg.src = n;
      msg.created = c;
      msg.length = uint32_t(std::uniform_int_distribution<int>(2, m_p.max_message_length)(m_rng));
      const bool bcast = m_p.algorithm != MwayAlgorithm::UnicastOnly && u01(m_rng) < m_opt.broadcast_fraction;
      if (bcast) {
        do {
          for (int d = 0; d < m_geo.dims(); ++d) {
            int a = std::uniform_int_distribution<int>(0, m_geo.radix(d) - 1)(m_rng);
            int b = std::uniform_int_distribution<int>(0, m_geo.radix(d) - 1)(m_rng);
            msg.region.lo[d] = std::min(a, b);
            msg.region.hi[d] = std::max(a, b);
          }
        } while (m_geo.size(msg.region) == 1 && m_geo.contains(msg.region, n));
        ++m_res.broadcasts;
      } else {
        msg.dst = std::uniform_int_distribution<int>(0, nodes - 2)(m_rng);
        if (msg.dst >= n) ++msg.dst;
        ++m_res.unicasts;
      }
      m_sc.submit(n, msg);
      m_rtl->submit(n, msg);
    }
  }

  void step() {
    const uint64_t c = current_cycle();
    compare(c);
    if (!m_res.ok || c + 1 >= m_opt.cycles) {
      m_res.cycles = c + 1;
      sc_core::sc_stop();
      return;
    }
    generate(c);
  }

  MwLockstepOptions m_opt;
  MwLockstepResult& m_res;
  MwayParams m_p;
  sc_core::sc_clock m_clk;
  MwayFabric m_sc;
  std::unique_ptr<MwayRtlFabric> m_rtl;
  sw::MwayGeometry m_geo;
  Recorder m_sc_rec, m_rtl_rec;
  size_t m_prefix = 0;       ///< length of "<bench>.systemc." in the model's names
  std::mt19937_64 m_rng;
  uint64_t m_next_id = 1;
};

}  // namespace

MwLockstepResult run_mway_lockstep(const MwRtlModelInfo& model, const MwLockstepOptions& opt) {
  MwLockstepResult res;
  MwLockstepBench bench("lockstep", model, opt, res);
  sc_core::sc_start();
  return res;
}

}  // namespace wormcast
