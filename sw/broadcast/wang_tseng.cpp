// Wang–Tseng span-based broadcast on an n^k torus, k = 2, 3, 4 (our reconstruction): k
// stages; stage i spreads the span U_{i-1} over n parallel slices ("super-nodes") in
// ceil(log_{2k+1} n) steps and, for i < k, aligns each slice's copy onto U_{i-1} + d*g_i in one
// more step. The routing-matrix rows and their order are RECONSTRUCTED (the paper's formulas are
// illegible); the split for n not a power of 2k+1, the send order (ascending offset) and the
// redundancy removal are INTERPRETATION.
#include "sw/broadcast/broadcast.h"
#include "sw/broadcast/builder.h"
#include "sw/broadcast/segment_split.h"

namespace wormcast::sw {

using detail::SegmentPart;
using detail::Vec;

namespace {

/// Unit vector of 1-based dimension j.
Vec unit(int j) {
  Vec v;
  v[j - 1] = 1;
  return v;
}

Vec neg(const Vec& a) { return -1 * a; }

/// Row `rank` (1-based) of the routing matrix R^i: the direction to the rank-r super-node.
/// Every row r has f_i(r) = 1, and the first non-zero entries of the k rows lie in different
/// dimensions, so a holder's 2k sends leave on 2k different channels.
Vec routing_row(int k, int stage, int rank) {
  if (stage == 1) return rank < k ? unit(rank) + unit(k) : unit(k);
  // Rows 1 and k swapped relative to the literal reading: with e_1 last, the outermost part at
  // exactly n/2 never ties onto a pure negative move (the checker's finding, notes section 2.3).
  if (rank == 1) return neg(unit(k));
  if (rank == k) return unit(1);
  if (rank <= k - stage + 1) return unit(rank) + neg(unit(k));
  return neg(unit(rank));
}

struct SuperSegment {
  int start;
  int len;
  Vec v;  ///< holder offset: the informed nodes of the holder super-node are U_{i-1} + v
};

}  // namespace

Schedule wang_tseng_broadcast(const Topology& t, int source, bool keep_redundant) {
  const std::string allowed = "an n x n, n x n x n or n x n x n x n torus, n >= 2";
  detail::require_torus(t, source, "wang-tseng", allowed);
  const int k = t.dims();
  bool ok = k >= 2 && k <= 4;
  for (int d = 1; ok && d < k; ++d) ok = t.radix(d) == t.radix(0);
  if (!ok) throw UnsupportedNetwork("wang-tseng: needs " + allowed + "; got " + describe(t));
  const int n = t.radix(0);
  const int levels = ceil_log(n, 2 * k + 1);
  detail::ScheduleBuilder b(t, "wang-tseng");

  std::vector<Vec> span{Vec{}};  // U_{i-1}
  int step = 0;
  for (int stage = 1; stage <= k; ++stage) {
    std::vector<SuperSegment> segs{SuperSegment{-detail::segment_centre(n), n, Vec{}}};
    for (int level = 1; level <= levels; ++level) {
      ++step;
      std::vector<SuperSegment> next;
      for (const SuperSegment& seg : segs) {
        if (seg.len == 1) {
          next.push_back(seg);
          continue;
        }
        const int h = seg.start + detail::segment_centre(seg.len);
        for (const SegmentPart& p : detail::split_segment(seg.start, seg.len, k)) {
          Vec v = seg.v;
          if (p.rank != 0) {
            const int delta = p.holder() - h;
            const Vec move = delta * routing_row(k, stage, p.rank < 0 ? -p.rank : p.rank);
            for (const Vec& u : span) b.add(u + seg.v, u + seg.v + move, step);
            v = seg.v + move;
          }
          next.push_back(SuperSegment{p.start, p.size, v});
        }
      }
      segs.swap(next);
    }
    for (const SuperSegment& seg : segs)
      if (seg.len != 1) throw std::logic_error("wang-tseng: split deeper than ceil(log_{2k+1} n)");
    if (stage == k) break;

    // Alignment: move slice d's copy onto U_{i-1} + d*g_i along the alignment dimensions only.
    ++step;
    for (const SuperSegment& seg : segs) {
      const int d = seg.start;
      Vec w;
      if (stage == 1) {
        w[0] = d - seg.v[0];
        for (int j = 2; j <= k - 1; ++j) w[j - 1] = -seg.v[j - 1];
      } else {
        for (int j = 2; j <= k - stage; ++j) w[j - 1] = -seg.v[j - 1];
        w[k - stage] = d - seg.v[k - stage];  // dimension k-i+1
      }
      bool zero = true;
      for (int j = 0; j < k; ++j) zero = zero && (w[j] % n == 0);
      if (zero) continue;
      for (const Vec& u : span) b.add(u + seg.v, u + seg.v + w, step);
    }
    // U_i = U_{i-1} + {a * g_i}, g_i = e_1 + e_{k-i+1}.
    const Vec g = unit(1) + unit(k - stage + 1);
    std::vector<Vec> grown;
    grown.reserve(span.size() * size_t(n));
    for (int a = 0; a < n; ++a)
      for (const Vec& u : span) grown.push_back(u + a * g);
    span.swap(grown);
  }
  return b.finish(source, k * levels + k - 1, keep_redundant);
}

}  // namespace wormcast::sw
