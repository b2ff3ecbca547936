// Tseng's dilated-diagonal broadcast on a square n x n torus (our reconstruction section 3): rows get
// one holder each (stage 1.1), the holders move onto the main diagonal (stage 1.2), then the
// diagonal spreads to the other diagonals (stage 2). Two of the four targets per stage are printed
// in Wang and Tseng, the other two are their mirror images; the split for n that is not a power of 5 is
// an INTERPRETATION (segment_split.h).
#include "sw/broadcast/broadcast.h"
#include "sw/broadcast/builder.h"
#include "sw/broadcast/segment_split.h"

namespace wormcast::sw {

using detail::SegmentPart;
using detail::vec2;

namespace {

struct RowSegment {
  int start;
  int len;
  int hx;  ///< x of the informed node of the holder row
};

}  // namespace

Schedule tseng_broadcast(const Topology& t, int source, bool keep_redundant) {
  const std::string allowed = "a square 2-D n x n torus, n >= 2";
  detail::require_torus(t, source, "tseng", allowed);
  if (t.dims() != 2)
    throw UnsupportedNetwork("tseng: needs " + allowed + "; got " + describe(t));
  if (t.radix(0) != t.radix(1))
    throw UnsupportedNetwork("tseng: needs " + allowed +
                             " (non-square tori need the dilated diagonal, which is not "
                             "specified); got " + describe(t));
  const int n = t.radix(0);
  const int levels = ceil_log(n, 5);
  detail::ScheduleBuilder b(t, "tseng");

  // Stage 1.1: distribution over rows, holder row at index start + centre(len).
  std::vector<RowSegment> rows{RowSegment{-detail::segment_centre(n), n, 0}};
  for (int level = 1; level <= levels; ++level) {
    std::vector<RowSegment> next;
    for (const RowSegment& seg : rows) {
      if (seg.len == 1) {
        next.push_back(seg);
        continue;
      }
      const int hrow = seg.start + detail::segment_centre(seg.len);
      for (const SegmentPart& p : detail::split_segment(seg.start, seg.len, 2)) {
        const int r = p.holder();
        const int delta = r - hrow;
        int hx = seg.hx;
        if (p.rank == -1 || p.rank == 1) {
          hx = seg.hx + delta;  // inner strip: x-move delta then y-move delta
          b.add(vec2(seg.hx, hrow), vec2(hx, r), level);
        } else if (p.rank != 0) {
          b.add(vec2(seg.hx, hrow), vec2(hx, r), level);  // outer strip: pure y-move
        }
        next.push_back(RowSegment{p.start, p.size, hx});
      }
    }
    rows.swap(next);
  }
  for (const RowSegment& seg : rows)
    if (seg.len != 1) throw std::logic_error("tseng: row split deeper than ceil(log5 n)");

  // Stage 1.2: the holder of row y moves along x onto the main diagonal (y, y).
  const int align = levels + 1;
  for (const RowSegment& seg : rows)
    if (((seg.hx - seg.start) % n + n) % n != 0) b.add(vec2(seg.hx, seg.start), vec2(seg.start, seg.start), align);

  // Stage 2: diagonals L_j = {(y + j, y)}; every node of the holder diagonal sends.
  struct DiagSegment {
    int start;
    int len;
  };
  std::vector<DiagSegment> diags{DiagSegment{-detail::segment_centre(n), n}};
  for (int level = 1; level <= levels; ++level) {
    std::vector<DiagSegment> next;
    for (const DiagSegment& seg : diags) {
      if (seg.len == 1) {
        next.push_back(seg);
        continue;
      }
      const int h = seg.start + detail::segment_centre(seg.len);
      for (const SegmentPart& p : detail::split_segment(seg.start, seg.len, 2)) {
        const int delta = p.holder() - h;
        if (p.rank != 0) {
          const bool inner = p.rank == -1 || p.rank == 1;
          for (int y = 0; y < n; ++y) {
            // inner: pure y-move to (y+h, y-delta); outer: pure x-move to (y+h+delta, y).
            const auto to = inner ? vec2(y + h, y - delta) : vec2(y + h + delta, y);
            b.add(vec2(y + h, y), to, align + level);
          }
        }
        next.push_back(DiagSegment{p.start, p.size});
      }
    }
    diags.swap(next);
  }
  return b.finish(source, 2 * levels + 1, keep_redundant);
}

}  // namespace wormcast::sw
