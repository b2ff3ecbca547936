// The m-way RTL's bit layout: widths, header word, observation rows (see rtl/mway/*.sv).
#include "tb/rtl/mway/mw_layout.h"

#include <algorithm>

namespace wormcast {

int mw_count_width(int n) {
  int b = 0;
  while ((1 << b) < n + 1) ++b;
  return b;
}

int mw_idx_width(int n) { return n > 1 ? mw_count_width(n - 1) : 1; }

MwLayout::MwLayout(const MwayParams& p, int id_w_) : id_w(id_w_) {
  n = p.dims();
  m = 2 * n + 1;
  coord_w = mw_idx_width(*std::max_element(p.radix.begin(), p.radix.end()));
  len_w = mw_count_width(p.max_message_length);
  idx_w = mw_idx_width(p.max_message_length);
  rows = p.buffers;
  inj = p.injection_buffers;
  ej = p.ejection_buffers;
  buf_n = std::max(p.buffers, p.injection_buffers);
  buf_len = p.buffer_length;
  drv_w = mw_idx_width(m);
  buf_w = mw_idx_width(buf_n);
  hdr_w = id_w + len_w + 2 + 3 * n * coord_w;
  slot_w = 2 + idx_w;
  ptr_w = mw_idx_width(buf_len);
  cnt_w = mw_count_width(buf_len);
  lbl_w = m * buf_n;
  set_obs_w = 7 + drv_w + buf_w + 2 * ptr_w + cnt_w + 2 * m + hdr_w + buf_len * slot_w;
  ej_obs_w = 3 + drv_w + buf_w + hdr_w;
  ld_obs_w = inj + len_w;
  ch_obs_w = drv_w + 2 + buf_w + 8 * m + 2;
  len_off = id_w;
  kind_off = len_off + len_w;
  dst_off = kind_off + 2;
  lo_off = dst_off + n * coord_w;
  hi_off = lo_off + n * coord_w;
}

void MwLayout::pack(const sw::MwayGeometry& g, const MwayPacket& p, uint32_t* w) const {
  std::fill(w, w + words(hdr_w), 0u);
  mw_set(w, 0, id_w, p.id);
  mw_set(w, len_off, len_w, p.len);
  mw_set(w, kind_off, 2, uint64_t(p.kind));
  for (int d = 0; d < n; ++d) {
    if (p.kind != MwayKind::Tree && p.dst >= 0) mw_set(w, dst_off + d * coord_w, coord_w, uint64_t(g.coord_of(p.dst, d)));
    mw_set(w, lo_off + d * coord_w, coord_w, uint64_t(p.region.lo[d]));
    mw_set(w, hi_off + d * coord_w, coord_w, uint64_t(p.region.hi[d]));
  }
}

MwayPacket MwLayout::unpack(const sw::MwayGeometry& g, const uint32_t* w, int lsb) const {
  MwayPacket p;
  p.id = mw_get(w, lsb, id_w);
  p.len = uint32_t(mw_get(w, lsb + len_off, len_w));
  p.kind = MwayKind(mw_get(w, lsb + kind_off, 2));
  int dst = 0, stride = 1;
  for (int d = 0; d < n; ++d) {
    dst += int(mw_get(w, lsb + dst_off + d * coord_w, coord_w)) * stride;
    stride *= g.radix(d);
    p.region.lo[d] = int(mw_get(w, lsb + lo_off + d * coord_w, coord_w));
    p.region.hi[d] = int(mw_get(w, lsb + hi_off + d * coord_w, coord_w));
  }
  p.dst = p.kind == MwayKind::Tree ? -1 : dst;
  return p;
}

MwSetRow mw_set_row(const MwLayout& l, const uint32_t* obs, int row) {
  // {ring, pkt, resv, pend, cnt, rptr, fptr, buf, drv, rep, hdone, rf, t, r, f, a}, LSB first.
  MwReader in{obs, row * l.set_obs_w};
  const auto take = [&](int w) { return in.take(w); };
  MwSetRow r;
  r.a = take(1);
  r.f = take(1);
  r.r = take(1);
  r.t = take(1);
  r.rf = take(1);
  r.hdone = take(1);
  r.report = take(1);
  r.drv = int(take(l.drv_w));
  r.buf = int(take(l.buf_w));
  r.fptr = int(take(l.ptr_w));
  r.rptr = int(take(l.ptr_w));
  r.cnt = int(take(l.cnt_w));
  r.pending = uint32_t(take(l.m));
  r.reserved = uint32_t(take(l.m));
  r.obs = obs;
  r.pkt_lsb = in.bit;
  r.ring_lsb = in.bit + l.hdr_w;
  return r;
}

MwayPacket mw_row_packet(const MwLayout& l, const sw::MwayGeometry& g, const MwSetRow& r) {
  return l.unpack(g, r.obs, r.pkt_lsb);
}

MwayFlitSlot mw_row_slot(const MwLayout& l, const MwSetRow& r, int k) {
  const int b = r.ring_lsb + k * l.slot_w;
  return MwayFlitSlot{MwayTag(mw_get(r.obs, b + l.idx_w, 2)), uint32_t(mw_get(r.obs, b, l.idx_w))};
}

bool mw_packet_is(const MwLayout& l, const sw::MwayGeometry& g, const uint32_t* w, int lsb, const MwayPacket& p) {
  if (mw_get(w, lsb, l.id_w) != p.id || mw_get(w, lsb + l.len_off, l.len_w) != p.len ||
      mw_get(w, lsb + l.kind_off, 2) != uint64_t(p.kind))
    return false;
  for (int d = 0; d < l.n; ++d) {
    if (p.kind != MwayKind::Tree && mw_get(w, lsb + l.dst_off + d * l.coord_w, l.coord_w) != uint64_t(g.coord_of(p.dst, d)))
      return false;
    if (mw_get(w, lsb + l.lo_off + d * l.coord_w, l.coord_w) != uint64_t(p.region.lo[d]) ||
        mw_get(w, lsb + l.hi_off + d * l.coord_w, l.coord_w) != uint64_t(p.region.hi[d]))
      return false;
  }
  return true;
}

MwEjRow mw_ej_row(const MwLayout& l, const sw::MwayGeometry& g, const uint32_t* obs, int row) {
  // {pkt, buf, drv, t, r, a}
  const int b = row * l.ej_obs_w;
  MwEjRow r;
  r.a = mw_get(obs, b, 1);
  r.r = mw_get(obs, b + 1, 1);
  r.t = mw_get(obs, b + 2, 1);
  r.drv = int(mw_get(obs, b + 3, l.drv_w));
  r.buf = int(mw_get(obs, b + 3 + l.drv_w, l.buf_w));
  r.pkt = l.unpack(g, obs, b + 3 + l.drv_w + l.buf_w);
  return r;
}

MwLines mw_lines(const MwLayout& l, const uint32_t* obs) {
  // {split, resv, take, newly, ok, full, free, pri, ways, ack, buf, tag, drv}
  MwReader in{obs, 0};
  const auto take = [&](int w) { return in.take(w); };
  MwLines x;
  x.drv = int(take(l.drv_w));
  x.tag = int(take(2));
  x.buf = int(take(l.buf_w));
  x.ack = take(1);
  x.ways = uint32_t(take(l.m));
  x.pri = uint32_t(take(l.m));
  x.stat_free = uint32_t(take(l.m));
  x.stat_full = uint32_t(take(l.m));
  x.ok = uint32_t(take(l.m));
  x.newly = uint32_t(take(l.m));
  x.take = uint32_t(take(l.m));
  x.resv = uint32_t(take(l.m));
  x.split = take(1);
  return x;
}

}  // namespace wormcast
