// MwRtlUnits for one Verilated configuration: the units of rtl/mway/ (VR = wc_mw_router,
// VN = wc_mw_node_if, VC = wc_mw_channel, each Verilated without --sc) wired as wc_mw_fabric wires
// them. Included only where the Verilated classes are (the generated model table).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "tb/rtl/mway/mw_rtl_fabric.h"

namespace wormcast {

// Bit fields of Verilated ports: integers up to 64 bits and VlWide<N> beyond.
inline uint64_t mw_mask(int w) { return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1; }
template <class T>
inline uint64_t mw_pget(const T& p, int lsb, int w) {
  return (uint64_t(p) >> lsb) & mw_mask(w);
}
template <std::size_t N>
inline uint64_t mw_pget(const VlWide<N>& p, int lsb, int w) {
  return mw_get(p.data(), lsb, w);
}
template <class T>
inline void mw_pset(T& p, int lsb, int w, uint64_t v) {
  p = T((uint64_t(p) & ~(mw_mask(w) << lsb)) | ((v & mw_mask(w)) << lsb));
}
template <std::size_t N>
inline void mw_pset(VlWide<N>& p, int lsb, int w, uint64_t v) {
  mw_set(p.data(), lsb, w, v);
}
/// Copies `w` bits from src (at slsb) to dst (at dlsb).
template <class D, class S>
inline void mw_pcopy(D& dst, int dlsb, const S& src, int slsb, int w) {
  for (int k = 0; k < w; k += 64) {
    const int n = w - k < 64 ? w - k : 64;
    mw_pset(dst, dlsb + k, n, mw_pget(src, slsb + k, n));
  }
}
/// The words of a port (a VlWide in place, an integer through `scratch`).
template <class T>
inline const uint32_t* mw_words(const T& p, uint32_t* scratch) {
  scratch[0] = uint32_t(uint64_t(p));
  scratch[1] = uint32_t(uint64_t(p) >> 32);
  return scratch;
}
template <std::size_t N>
inline const uint32_t* mw_words(const VlWide<N>& p, uint32_t*) {
  return p.data();
}

template <class VR, class VN, class VC>
class MwRtlUnitsImpl final : public MwRtlUnits {
 public:
  MwRtlUnitsImpl(const MwLayout& l, const MwNetlist& net, const sw::MwayGeometry& g)
      : m_l(l), m_net(net), m_nch(g.num_channels()), m_node(2 * l.n) {
    // An RTL assertion reports and sets the context's error flag instead of aborting: the
    // fabric's process checks it after every edge (take_error()).
    Verilated::threadContextp()->fatalOnError(false);
    for (size_t r = 0; r < net.routers.size(); ++r) {
      auto u = std::make_unique<VR>();
      const MwNetlist::Router& x = net.routers[r];
      u->dim_i = x.dim;
      for (int d = 0; d < l.n; ++d) {
        mw_pset(u->low_coord_i, d * l.coord_w, l.coord_w, uint64_t(g.coord_of(x.low, d)));
        mw_pset(u->high_coord_i, d * l.coord_w, l.coord_w, uint64_t(g.coord_of(x.high, d)));
      }
      m_rt.push_back(std::move(u));
    }
    for (int c = 0; c < m_nch; ++c) {
      auto u = std::make_unique<VN>();
      for (int d = 0; d < l.n; ++d) mw_pset(u->coord_i, d * l.coord_w, l.coord_w, uint64_t(g.coord_of(c, d)));
      m_ni.push_back(std::move(u));
      m_ch.push_back(std::make_unique<VC>());
    }
    m_dirty.assign(size_t(m_nch), 1);
    m_busy.assign(m_rt.size(), 1);
    m_ni_busy.assign(size_t(m_nch), 1);
  }

  bool take_error() override {
    if (!Verilated::threadContextp()->gotError()) return false;
    Verilated::threadContextp()->gotError(false);
    return true;
  }

  void reset() override {
    for_all([](auto& u) {
      u.rst_ni = 0;
      u.clk_i = 0;
      u.eval();
      u.clk_i = 1;
      u.eval();
      u.clk_i = 0;
      u.rst_ni = 1;
      u.eval();
    });
    evaluate();
  }

  void evaluate() override {
    const int m = m_l.m;
    // Stat: every receiver's free, full and labels onto its channel; the channel ORs the labels.
    for_channels(false, [&](VC& ch, int p, const MwTap& rx, const MwTap&) {
      if (rx.unit < 0) return;
      const RxBits b = rx_bits(p, rx);
      mw_pset(ch.free_i, p, 1, b.free);
      mw_pset(ch.full_i, p, 1, b.full);
      if (p == m_node)
        mw_pcopy(ch.lbl_i, p * m_l.lbl_w, m_ni[size_t(rx.unit)]->ej_lbl_o, 0, m_l.lbl_w);
      else
        mw_pcopy(ch.lbl_i, p * m_l.lbl_w, m_rt[size_t(rx.unit)]->stat_lbl_o, rx.set * m_l.lbl_w, m_l.lbl_w);
    });
    // Bids: each driving set reads Stat of its output channel (free sets, RF by its labels).
    for_sets(true, [&](VR& u, int s, const VC&, const VC& out, int p) {
      mw_pcopy(u.out_free_i, s * m, out.free_i, 0, m);
      mw_pcopy(u.out_rf_i, s * m_l.rows, out.lbl_o, p * m_l.buf_n, m_l.rows);
    });
    for_nodes(true, [&](VN& u, const VC& ch) {
      mw_pcopy(u.inj_free_i, 0, ch.free_i, 0, m);
      mw_pcopy(u.inj_rf_i, 0, ch.lbl_o, m_node * m_l.buf_n, m_l.inj);
    });
    // Arbitration and the lines.
    for_channels(false, [&](VC& ch, int p, const MwTap&, const MwTap& tx) {
      if (tx.unit < 0) return;
      if (p == m_node) {
        const VN& u = *m_ni[size_t(tx.unit)];
        put_cand(ch, p, u.inj_req_o, u.inj_tag_o, u.inj_buf_o, u.inj_ways_o, u.inj_hdr_o, u.inj_idx_o, 0);
      } else {
        const VR& u = *m_rt[size_t(tx.unit)];
        put_cand(ch, p, u.req_o, u.cand_tag_o, u.cand_buf_o, u.cand_ways_o, u.cand_hdr_o, u.cand_idx_o, tx.set);
      }
    });
    // Content search on the lines, and the grants.
    for_sets(true, [&](VR& u, int s, const VC& in, const VC& out, int p) {
      put_lines(u.in_drv_i, u.in_tag_i, u.in_buf_i, u.in_hdr_i, u.in_idx_i, in, s);
      mw_pset(u.out_grant_i, s, 1, mw_pget(out.grant_o, p, 1));
    });
    for_nodes(true, [&](VN& u, const VC& ch) {
      put_lines(u.line_drv_i, u.line_tag_i, u.line_buf_i, u.line_hdr_i, u.line_idx_i, ch, 0);
      u.inj_grant_i = uint8_t(mw_pget(ch.grant_o, m_node, 1));
    });
    // Ordered reservation and Ack (a channel without a winner has its outcome already: none).
    for_channels(true, [&](VC& ch, int p, const MwTap& rx, const MwTap&) {
      if (rx.unit < 0) return;
      const RxBits b = rx_bits(p, rx);
      mw_pset(ch.res_hit_i, p, 1, b.res);
      mw_pset(ch.blk_i, p, 1, b.blk);
      mw_pset(ch.hit_i, p, 1, b.hit);
    });
    // Spl: the replica engine of the winner, which needs its own set's allocation this cycle.
    for_sets(true, [&](VR& u, int s, const VC& in, const VC& out, int p) {
      mw_pset(u.in_newly_i, s, 1, mw_pget(in.newly_o, p, 1));
      mw_pset(u.out_split_cand_i, s, 1, out.split_cand_o);
    });
    for_nodes(true, [&](VN& u, const VC& ch) {
      u.ej_newly_i = uint8_t(mw_pget(ch.newly_o, m_node, 1));
      u.inj_split_cand_i = ch.split_cand_o;
    });
    // Take and resv.
    for_channels(true, [&](VC& ch, int p, const MwTap&, const MwTap& tx) {
      if (tx.unit < 0) return;
      mw_pset(ch.split_i, p, 1,
              p == m_node ? uint64_t(m_ni[size_t(tx.unit)]->inj_split_o) : mw_pget(m_rt[size_t(tx.unit)]->split_o, tx.set, 1));
    });
    // What the edge commits; the routers settle it at clock_edge(), the node interfaces at
    // settle_nodes() (their deliveries).
    for_sets(false, [&](VR& u, int s, const VC& in, const VC& out, int p) {
      mw_pset(u.in_take_i, s, 1, mw_pget(in.take_o, p, 1));
      mw_pset(u.in_resv_i, s, 1, mw_pget(in.resv_o, p, 1));
      mw_pcopy(u.out_take_i, s * m, out.take_o, 0, m);
      mw_pcopy(u.out_resv_i, s * m, out.resv_o, 0, m);
    });
    for (int c = 0; c < m_nch; ++c) {
      VN& u = *m_ni[size_t(c)];
      const VC& ch = *m_ch[size_t(c)];
      const auto take = uint8_t(mw_pget(ch.take_o, m_node, 1)), resv = uint8_t(mw_pget(ch.resv_o, m_node, 1));
      // Its deliveries change with what the ejection set takes.
      if (m_ni_busy[size_t(c)] || take != u.ej_take_i || resv != u.ej_resv_i) m_dirty[size_t(c)] = 1;
      u.ej_take_i = take;
      u.ej_resv_i = resv;
      mw_pcopy(u.inj_take_i, 0, ch.take_o, 0, m);
      mw_pcopy(u.inj_resv_i, 0, ch.resv_o, 0, m);
    }
  }

  void offer(int node, bool valid, const uint32_t* hdr, bool report) override {
    VN& u = *m_ni[size_t(node)];
    bool changed = u.src_valid_i != uint8_t(valid) || u.src_report_i != uint8_t(report);
    if (valid) {
      for (int k = 0; k < m_l.hdr_w; k += 32) {
        const int w = m_l.hdr_w - k < 32 ? m_l.hdr_w - k : 32;
        const uint64_t v = hdr[k / 32] & mw_mask(w);
        changed = changed || mw_pget(u.src_hdr_i, k, w) != v;
        mw_pset(u.src_hdr_i, k, w, v);
      }
    }
    u.src_valid_i = uint8_t(valid);
    u.src_report_i = uint8_t(report);
    if (changed) m_dirty[size_t(node)] = 1;
  }

  void settle_nodes() override {
    for (int c = 0; c < m_nch; ++c) {
      if (!m_dirty[size_t(c)]) continue;
      m_ni[size_t(c)]->eval();
      m_dirty[size_t(c)] = 0;
    }
  }

  bool taken(int node) const override { return m_ni[size_t(node)]->src_take_o != 0; }

  bool delivery(int node, uint32_t* hdr, bool& head, bool& tail, uint32_t& index) const override {
    const VN& u = *m_ni[size_t(node)];
    if (!u.dlv_valid_o) return false;
    head = u.dlv_head_o;
    tail = u.dlv_tail_o;
    index = uint32_t(mw_pget(u.dlv_idx_o, 0, m_l.idx_w));
    for (int k = 0; k < m_l.hdr_w; k += 32) {
      const int w = m_l.hdr_w - k < 32 ? m_l.hdr_w - k : 32;
      hdr[k / 32] = uint32_t(mw_pget(u.dlv_hdr_o, k, w));
    }
    return true;
  }

  void clock_edge() override {
    const auto edge = [](auto& u) {
      u.clk_i = 1;
      u.eval();
      u.clk_i = 0;
    };
    // An idle router (every buffer free) changes state at an edge only when a header or a
    // reservation is written into it (its arbiters move only when it wins, which it cannot).
    for (size_t r = 0; r < m_rt.size(); ++r) {
      VR& u = *m_rt[r];
      if (m_busy[r] || mw_pget(u.in_take_i, 0, 2) || mw_pget(u.in_resv_i, 0, 2)) {
        // A router not evaluated since its last edge has not seen its clock fall yet.
        if (!m_busy[r]) u.eval();
        edge(u);
        m_busy[r] = busy(u);
      }
    }
    // An idle node interface (no buffer allocated, not loading) changes state only when its
    // ejection set takes or reserves for a header, or its loader takes a message.
    for (int c = 0; c < m_nch; ++c) {
      VN& u = *m_ni[size_t(c)];
      if (m_ni_busy[size_t(c)] || u.ej_take_i || u.ej_resv_i || u.src_take_o) {
        if (m_dirty[size_t(c)]) u.eval();  // see its inputs (and its clock fall) first
        edge(u);
        m_ni_busy[size_t(c)] = busy_node(u);
        m_dirty[size_t(c)] = 1;
      }
    }
    for (auto& u : m_ch) edge(*u);
  }

  const uint32_t* obs_channel(int c) override { return mw_words(m_ch[size_t(c)]->obs_o, m_scratch); }
  const uint32_t* obs_router(int r) override { return mw_words(m_rt[size_t(r)]->obs_o, m_scratch); }
  const uint32_t* obs_inj(int n) override { return mw_words(m_ni[size_t(n)]->obs_inj_o, m_scratch); }
  const uint32_t* obs_ej(int n) override { return mw_words(m_ni[size_t(n)]->obs_ej_o, m_scratch); }
  const uint32_t* obs_ld(int n) override { return mw_words(m_ni[size_t(n)]->obs_ld_o, m_scratch); }

 private:
  /// The one-bit receiver outputs of tap p (wired at t): Stat and the look-up on the lines.
  struct RxBits {
    uint64_t free, full, res, blk, hit;
  };
  RxBits rx_bits(int p, const MwTap& t) const {
    if (p == m_node) {
      const VN& u = *m_ni[size_t(t.unit)];
      return {u.ej_free_o, u.ej_full_o, u.ej_res_hit_o, u.ej_blk_o, u.ej_hit_o};
    }
    const VR& u = *m_rt[size_t(t.unit)];
    return {mw_pget(u.stat_free_o, t.set, 1), mw_pget(u.stat_full_o, t.set, 1), mw_pget(u.res_hit_o, t.set, 1),
            mw_pget(u.blk_o, t.set, 1), mw_pget(u.hit_o, t.set, 1)};
  }
  template <class F>
  void for_all(F&& f) {
    for (auto& u : m_rt) f(*u);
    for (auto& u : m_ni) f(*u);
    for (auto& u : m_ch) f(*u);
  }
  /// f(channel, p, receiver tap p, driver tap p) for every tap, then the channel is evaluated
  /// (only_driven: only when it has a winner this cycle; without one its lines are idle and every
  /// way's outcome is none, whatever the receivers' look-up says).
  template <class F>
  void for_channels(bool only_driven, F&& f) {
    for (int c = 0; c < m_nch; ++c) {
      VC& ch = *m_ch[size_t(c)];
      if (only_driven && mw_pget(ch.tag_o, 0, 2) == 0) continue;
      for (int p = 0; p < m_l.m; ++p) f(ch, p, m_net.rx[size_t(c * m_l.m + p)], m_net.tx[size_t(c * m_l.m + p)]);
      ch.eval();
    }
  }
  /// f(router, set, its input channel, its output channel, its number p) for both sets of every
  /// router, then (eval) the router is evaluated unless it is idle. Set 0 (DIM+) hears the low
  /// channel and drives the high one; set 1 the other way. An idle router (every buffer free)
  /// needs no evaluation: it bids for nothing, finds nothing on the lines, offers a free buffer
  /// and labels nothing full, whatever its inputs; only its inputs are kept current.
  template <class F>
  void for_sets(bool eval, F&& f) {
    for (size_t r = 0; r < m_rt.size(); ++r) {
      const MwNetlist::Router& x = m_net.routers[r];
      for (int s = 0; s < 2; ++s)
        f(*m_rt[r], s, *m_ch[size_t(s == 0 ? x.low : x.high)], *m_ch[size_t(s == 0 ? x.high : x.low)], 2 * x.dim + s);
      if (eval && m_busy[r]) m_rt[r]->eval();
    }
  }
  /// Some buffer of the router is allocated (the A bits of its tables).
  bool busy(const VR& u) const {
    for (int i = 0; i < 2 * m_l.rows; ++i)
      if (mw_pget(u.obs_o, i * m_l.set_obs_w, 1)) return true;
    return false;
  }
  /// f(node interface, its channel) for every node, then (eval) it is evaluated unless it is idle
  /// (nothing to bid for, nothing to find on the lines; its deliveries are settled apart).
  template <class F>
  void for_nodes(bool eval, F&& f) {
    for (int c = 0; c < m_nch; ++c) {
      f(*m_ni[size_t(c)], *m_ch[size_t(c)]);
      if (eval && m_ni_busy[size_t(c)]) m_ni[size_t(c)]->eval();
    }
  }
  /// Some buffer of the node interface is allocated, or its loader is writing a message.
  bool busy_node(const VN& u) const {
    for (int i = 0; i < m_l.inj; ++i)
      if (mw_pget(u.obs_inj_o, i * m_l.set_obs_w, 1)) return true;
    for (int i = 0; i < m_l.ej; ++i)
      if (mw_pget(u.obs_ej_o, i * m_l.ej_obs_w, 1)) return true;
    return mw_pget(u.obs_ld_o, 0, m_l.inj) != 0;
  }
  /// The candidate of driver p (set s of its unit) onto the channel's tap p.
  template <class Req, class Tag, class Buf, class Ways, class Hdr, class Idx>
  void put_cand(VC& ch, int p, const Req& req, const Tag& tag, const Buf& buf, const Ways& ways, const Hdr& hdr,
                const Idx& idx, int s) {
    mw_pset(ch.req_i, p, 1, mw_pget(req, s, 1));
    mw_pcopy(ch.cand_tag_i, p * 2, tag, s * 2, 2);
    mw_pcopy(ch.cand_buf_i, p * m_l.buf_w, buf, s * m_l.buf_w, m_l.buf_w);
    mw_pcopy(ch.cand_ways_i, p * m_l.m, ways, s * m_l.m, m_l.m);
    mw_pcopy(ch.cand_hdr_i, p * m_l.hdr_w, hdr, s * m_l.hdr_w, m_l.hdr_w);
    mw_pcopy(ch.cand_idx_i, p * m_l.idx_w, idx, s * m_l.idx_w, m_l.idx_w);
  }
  /// The channel's lines into a receiver's inputs for its set s.
  template <class Drv, class Tag, class Buf, class Hdr, class Idx>
  void put_lines(Drv& drv, Tag& tag, Buf& buf, Hdr& hdr, Idx& idx, const VC& ch, int s) {
    mw_pcopy(drv, s * m_l.drv_w, ch.drv_o, 0, m_l.drv_w);
    mw_pcopy(tag, s * 2, ch.tag_o, 0, 2);
    mw_pcopy(buf, s * m_l.buf_w, ch.buf_o, 0, m_l.buf_w);
    mw_pcopy(hdr, s * m_l.hdr_w, ch.hdr_o, 0, m_l.hdr_w);
    mw_pcopy(idx, s * m_l.idx_w, ch.idx_o, 0, m_l.idx_w);
  }

  const MwLayout& m_l;
  const MwNetlist& m_net;
  int m_nch, m_node;
  std::vector<std::unique_ptr<VR>> m_rt;
  std::vector<std::unique_ptr<VN>> m_ni;
  std::vector<std::unique_ptr<VC>> m_ch;
  std::vector<uint8_t> m_dirty;  ///< node interface inputs changed since its last evaluation
  std::vector<uint8_t> m_busy;   ///< router holds an allocated buffer (after the last edge)
  std::vector<uint8_t> m_ni_busy;  ///< node interface holds a buffer or is loading
  uint32_t m_scratch[2] = {0, 0};
};

}  // namespace wormcast
