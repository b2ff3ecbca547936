// The bit layout of the m-way RTL (rtl/mway/): widths derived from the parameters exactly as the
// Verilog derives them, the header word, and the rows of the observation outputs. One place for
// both directions: packing a header for the RTL and reading its tables back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/mway/params.h"
#include "systemc/mway/types.h"

namespace wormcast {

/// Index width for n things, at least 1 (wc_mw_pkg::idx_width).
int mw_idx_width(int n);
/// Bits to count 0..n ($clog2(n + 1)).
int mw_count_width(int n);

/// Bit fields of a little-endian word array (bit i of the array is bit i % 32 of word i / 32).
inline uint64_t mw_get(const uint32_t* w, int lsb, int width) {
  uint64_t v = 0;
  for (int got = 0; got < width;) {
    const int bit = lsb + got, word = bit >> 5, off = bit & 31;
    const int take = std::min(32 - off, width - got);
    const uint64_t part = (uint64_t(w[word]) >> off) & ((uint64_t(1) << take) - 1);
    v |= part << got;
    got += take;
  }
  return v;
}
inline void mw_set(uint32_t* w, int lsb, int width, uint64_t v) {
  for (int put = 0; put < width;) {
    const int bit = lsb + put, word = bit >> 5, off = bit & 31;
    const int take = std::min(32 - off, width - put);
    const uint32_t mask = uint32_t(((uint64_t(1) << take) - 1) << off);
    w[word] = (w[word] & ~mask) | (uint32_t((v >> put) << off) & mask);
    put += take;
  }
}

/// Reads consecutive fields of a word array, LSB first.
struct MwReader {
  const uint32_t* w;
  int bit;
  uint64_t take(int width) {
    const uint64_t v = mw_get(w, bit, width);
    bit += width;
    return v;
  }
};

/// Widths and offsets of one Verilated configuration (wc_mw_fabric's derived parameters).
struct MwLayout {
  MwLayout(const MwayParams& p, int id_w);

  int n, m, coord_w, id_w, len_w, idx_w;
  int rows, inj, ej, buf_n, buf_len;
  int drv_w, buf_w, hdr_w, slot_w, ptr_w, cnt_w, lbl_w;
  int set_obs_w, ej_obs_w, ld_obs_w, ch_obs_w;
  // Header fields (wc_mw_pkg): id | len | kind | dst | lo | hi, coordinate d at d*coord_w.
  int len_off, kind_off, dst_off, lo_off, hi_off;

  /// The header word of packet p (a tree's dst is not carried: zero).
  void pack(const sw::MwayGeometry& g, const MwayPacket& p, uint32_t* w) const;
  /// The packet of a header word; `src` is not carried (left 0).
  MwayPacket unpack(const sw::MwayGeometry& g, const uint32_t* w, int lsb = 0) const;
  /// Words of a vector of `bits` bits.
  static int words(int bits) { return (bits + 31) / 32; }
};

/// One row of a driving set's table (router or injection) as the RTL shows it. The header and
/// the flits stay in the observation words until asked for (mw_row_packet, mw_row_slot).
struct MwSetRow {
  bool a = false, f = false, r = false, t = false, rf = false, hdone = false, report = false;
  int drv = 0, buf = 0, fptr = 0, rptr = 0, cnt = 0;
  uint32_t pending = 0, reserved = 0;
  const uint32_t* obs = nullptr;  ///< the observation words it was read from
  int pkt_lsb = 0, ring_lsb = 0;  ///< where its header word and flit k = 0 start in them
};
/// One row of an ejection set's table.
struct MwEjRow {
  bool a = false, r = false, t = false;
  int drv = 0, buf = 0;
  MwayPacket pkt;
};
/// One channel's lines of a cycle and the outcome per way.
struct MwLines {
  int drv = 0, tag = 0, buf = 0;
  uint32_t ways = 0, pri = 0, stat_free = 0, stat_full = 0, ok = 0, newly = 0, take = 0, resv = 0;
  bool ack = false, split = false;
};

/// Row `row` of a driving set's observation words.
MwSetRow mw_set_row(const MwLayout& l, const uint32_t* obs, int row);
/// The header a row holds, and its flit slot k (0..buffer_length-1).
MwayPacket mw_row_packet(const MwLayout& l, const sw::MwayGeometry& g, const MwSetRow& r);
MwayFlitSlot mw_row_slot(const MwLayout& l, const MwSetRow& r, int k);
/// Whether the header word at bit lsb of w carries packet p (the fields the RTL carries).
bool mw_packet_is(const MwLayout& l, const sw::MwayGeometry& g, const uint32_t* w, int lsb, const MwayPacket& p);
MwEjRow mw_ej_row(const MwLayout& l, const sw::MwayGeometry& g, const uint32_t* obs, int row);
MwLines mw_lines(const MwLayout& l, const uint32_t* obs);

}  // namespace wormcast
