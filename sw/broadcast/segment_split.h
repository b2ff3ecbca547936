// Internal helper of the Tseng and Wang–Tseng generators: the "evenly slice into 2k+1 strips" rule
// (INTERPRETATION of the papers' split for sizes that are not powers of 2k+1; our reconstruction
// section 3.2 and wang-tseng notes section 3.1).
#pragma once

#include <vector>

namespace wormcast::sw::detail {

/// Position of the holder inside a run of `len` consecutive indices.
inline int segment_centre(int len) { return (len - 1) / 2; }

/// A part of a split segment: indices [start, start + size), holder at start + centre(size).
struct SegmentPart {
  int start = 0;
  int size = 0;
  int rank = 0;  ///< 0 middle, -r the r-th part left of it, +r the r-th part right of it
  int holder() const { return start + segment_centre(size); }
};

/// Splits the segment [start, start + len) whose holder is at start + centre(len) into a middle
/// part that keeps the holder and k parts on each side, rank 1 next to the middle. Side totals are
/// cut as evenly as possible with the larger parts inside; the middle size minimises the largest
/// part (larger middle on a tie). Returns the non-empty parts in index order (so ascending offset
/// from the holder), the middle included.
inline std::vector<SegmentPart> split_segment(int start, int len, int k) {
  const int c = segment_centre(len);
  int best_q = -1, best_max = 0;
  for (int q = 1; q <= len; ++q) {
    const int left = c - segment_centre(q);
    const int right = (len - 1 - c) - (q - 1 - segment_centre(q));
    int mx = q;
    for (int r = 1; r <= k; ++r) {
      const int sl = (left + k - r) / k, sr = (right + k - r) / k;
      if (sl > mx) mx = sl;
      if (sr > mx) mx = sr;
    }
    if (best_q < 0 || mx <= best_max) {
      best_q = q;
      best_max = mx;
    }
  }
  const int q = best_q;
  const int left = c - segment_centre(q);
  const int right = (len - 1 - c) - (q - 1 - segment_centre(q));
  const int mid_start = start + c - segment_centre(q);
  std::vector<SegmentPart> parts;
  // Left side, outermost first so that the result is in index order.
  int pos = mid_start - left;
  for (int r = k; r >= 1; --r) {
    const int size = (left + k - r) / k;
    if (size > 0) parts.push_back(SegmentPart{pos, size, -r});
    pos += size;
  }
  parts.push_back(SegmentPart{mid_start, q, 0});
  pos = mid_start + q;
  for (int r = 1; r <= k; ++r) {
    const int size = (right + k - r) / k;
    if (size > 0) parts.push_back(SegmentPart{pos, size, r});
    pos += size;
  }
  return parts;
}

}  // namespace wormcast::sw::detail
