// One-dimensional gossip building blocks (concentration, circulation, pipelined fill).
#include "sw/gossip/line_ops.h"

#include <algorithm>

#include "sw/gossip/gossip.h"
#include "sw/schedule/schedule.h"

namespace wormcast::sw {

int concentration_steps(int m) { return m <= 1 ? 0 : ceil_log(m, 3); }

namespace {
/// Split of m PUs into left | middle | right thirds; the middle one is never smaller, so its
/// recursion depth decides: depth(m) = 1 + depth(ceil(m/3)) = ceil(log3 m).
struct Thirds {
  int left, mid, right;
};
Thirds thirds(int m) {
  const int mid = (m + 2) / 3;
  const int left = (m - mid) / 2;
  return Thirds{left, mid, m - mid - left};
}
}  // namespace

int concentration_centre(int m) {
  if (m <= 1) return 0;
  const Thirds t = thirds(m);
  return t.left + concentration_centre(t.mid);
}

int concentration_steps_one_port(int m) { return m <= 1 ? 0 : ceil_log(m, 2); }

namespace {
/// Binary concentration of m PUs towards the right (the right half, ceil(m/2), receives) or the
/// left (the left half, ceil(m/2), receives). The receiving half always concentrates the other
/// way, so the centre stays near the middle and messages stay short; the larger half receives,
/// so the depth is ceil(log2 m).
int binary_centre(int m, bool toward_right) {
  if (m <= 1) return 0;
  if (toward_right) return m / 2 + binary_centre(m - m / 2, false);
  return binary_centre((m + 1) / 2, true);
}
}  // namespace

int concentration_centre_one_port(int m) { return binary_centre(m, true); }

namespace gossip_detail {
namespace {

int wrap(int p, int n) { return ((p % n) + n) % n; }

/// Merges of segment [lo, lo+m) happen in step `top`, its thirds' merges in earlier steps, so
/// in one step only merges of one recursion level run, on disjoint intervals.
void concentrate_rec(int n, int lo, int m, int top, LineOut& out) {
  if (m <= 1) return;
  const Thirds t = thirds(m);
  const int cm = lo + t.left + concentration_centre(t.mid);
  if (t.left > 0) {
    concentrate_rec(n, lo, t.left, top - 1, out);
    out.push_back(LineMsg{top, wrap(lo + concentration_centre(t.left), n), wrap(cm, n), +1, wrap(lo, n), t.left, 0, 1});
  }
  concentrate_rec(n, lo + t.left, t.mid, top - 1, out);
  if (t.right > 0) {
    const int lo_r = lo + t.left + t.mid;
    concentrate_rec(n, lo_r, t.right, top - 1, out);
    out.push_back(LineMsg{top, wrap(lo_r + concentration_centre(t.right), n), wrap(cm, n), -1, wrap(lo_r, n), t.right, 0, 1});
  }
}

}  // namespace

int concentrate(int n, const std::vector<Segment>& segments, LineOut& out) {
  int depth = 0;
  for (const Segment& s : segments) depth = std::max(depth, concentration_steps(s.len));
  for (const Segment& s : segments) concentrate_rec(n, s.lo, s.len, depth, out);
  return depth;
}

int disseminate_all(int n, LineOut& out) {
  LineList conc;
  const int depth = concentrate(n, {Segment{0, n}}, conc);
  for (const LineMsg& m : conc.msgs)
    out.push_back(LineMsg{depth + 1 - m.step, m.to, m.from, -m.dir, 0, n, 0, 1});
  return depth;
}

int circulate(int n, const std::vector<int>& bh, int steps, int period, LineOut& out) {
  const int b = int(bh.size());
  if (b < 2 || steps < 1) return 0;
  for (int s = 1; s <= steps; ++s) {
    const bool right_only = s == steps && 2 * steps == period;
    for (int i = 0; i < b; ++i) {
      const int right_origin = bh[size_t(wrap(i - (s - 1), b))];
      out.push_back(LineMsg{s, bh[size_t(i)], bh[size_t(wrap(i + 1, b))], +1, right_origin, 1, 0, 1});
      if (right_only) continue;
      const int left_origin = bh[size_t(wrap(i + (s - 1), b))];
      out.push_back(LineMsg{s, bh[size_t(i)], bh[size_t(wrap(i - 1, b))], -1, left_origin, 1, 0, 1});
    }
  }
  (void)n;
  return steps;
}

namespace {

/// For every old bridgehead i (in order): the chain y_0 = old[i], then the new nodes of `all`
/// strictly between it and the next old bridgehead, going right; and that next bridgehead.
struct GapChain {
  std::vector<int> chain;
  int right;
};
std::vector<GapChain> gap_chains(int n, const std::vector<int>& old, const std::vector<int>& all) {
  const int b = int(old.size());
  std::vector<char> is_new(size_t(n), 1);
  for (int p : old) is_new[size_t(p)] = 0;
  std::vector<char> in_all(size_t(n), 0);
  for (int p : all) in_all[size_t(p)] = 1;
  std::vector<GapChain> v;
  for (int i = 0; i < b; ++i) {
    const int left = old[size_t(i)];
    const int gap = b == 1 ? n : wrap(old[size_t(wrap(i + 1, b))] - left, n);
    GapChain g{{left}, wrap(left + gap, n)};
    for (int d = 1; d < gap; ++d)
      if (in_all[size_t(wrap(left + d, n))] && is_new[size_t(wrap(left + d, n))]) g.chain.push_back(wrap(left + d, n));
    v.push_back(std::move(g));
  }
  return v;
}

}  // namespace

namespace {

/// Two streams into one gap (Fig. 1): chain = L, y_1..y_q, R; the left old bridgehead sends its
/// k packets rightwards in order, the right one leftwards in reverse order, and every new one takes
/// each packet from whichever stream brings it first. Returns the steps (0 without new ones).
int two_streams(const std::vector<int>& chain, int k, LineOut& out) {
  const int left = chain.front(), right = chain.back();
  const int q = int(chain.size()) - 2;
  int steps = 0;
  for (int j = 1; j <= k; ++j)
    for (int x = 1; x <= q; ++x) {
      // Packet j reaches y_x from the left in step x + j - 1 (sent in order) and from the right
      // in step (q + 1 - x) + (k - j + 1) - 1 (sent in reverse order); the earlier one serves.
      const int from_left = x + j - 1;
      const int from_right = q + 1 - x + k - j;
      if (from_left <= from_right)
        out.push_back(LineMsg{from_left, chain[size_t(x - 1)], chain[size_t(x)], +1, left, 1, j - 1, k});
      else
        out.push_back(LineMsg{from_right, chain[size_t(x + 1)], chain[size_t(x)], -1, right, 1, j - 1, k});
      steps = std::max(steps, std::min(from_left, from_right));
    }
  return steps;
}

/// One stream: chain = origin, y_1..y_q in the direction `dir`; the origin sends its k packets in
/// order and every y_x forwards each packet one step after receiving it (packet j reaches y_x in
/// step x + j - 1), so q + k - 1 steps (0 without new ones).
int one_stream(const std::vector<int>& chain, int dir, int k, LineOut& out) {
  const int q = int(chain.size()) - 1;
  for (int j = 1; j <= k; ++j)
    for (int x = 1; x <= q; ++x)
      out.push_back(LineMsg{x + j - 1, chain[size_t(x - 1)], chain[size_t(x)], dir, chain.front(), 1, j - 1, k});
  return q > 0 ? q + k - 1 : 0;
}

}  // namespace

int fill(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out) {
  if (old.empty() || k < 1) return 0;
  int steps = 0;
  for (GapChain& g : gap_chains(n, old, all)) {
    g.chain.push_back(g.right);
    steps = std::max(steps, two_streams(g.chain, k, out));
  }
  return steps;
}

int fill_line(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out) {
  if (old.empty() || k < 1) return 0;
  std::vector<char> is_old(size_t(n), 0);
  for (int p : old) is_old[size_t(p)] = 1;
  std::vector<int> left_end{old.front()}, right_end{old.back()};
  for (int p : all) {
    if (p < old.front()) left_end.push_back(p);
    if (p > old.back()) right_end.push_back(p);
  }
  std::reverse(left_end.begin() + 1, left_end.end());  // from the first old bridgehead leftwards
  int steps = 0;
  std::vector<int> chain;
  for (size_t i = 0; i + 1 < old.size(); ++i) {
    chain.assign(1, old[i]);
    for (int p : all)
      if (p > old[i] && p < old[i + 1] && !is_old[size_t(p)]) chain.push_back(p);
    chain.push_back(old[i + 1]);
    steps = std::max(steps, two_streams(chain, k, out));
  }
  if (old.size() == 1) steps = 0;  // no gap between old bridgeheads: the ends use k as given
  // INTERPRETATION (docs/schedules.md): an end piece has one old bridgehead only; it gets one
  // stream of k_end = max(1, S - q + 1) packets, S the gaps' steps, so it takes max(q, S) steps.
  for (const std::vector<int>* end : {&left_end, &right_end}) {
    const int q = int(end->size()) - 1;
    if (q < 1) continue;
    const int k_end = old.size() == 1 ? k : std::max(1, steps - q + 1);
    const int used = one_stream(*end, end == &left_end ? -1 : +1, k_end, out);
    steps = std::max(steps, used);
  }
  return steps;
}

int circulate_blocks(const std::vector<int>& bh, int period, LineOut& out) {
  const int b = int(bh.size());
  int steps = 0;
  for (int lo = 0; lo < b; lo += period) {
    const int hi = std::min(b, lo + period);  // block [lo, hi) of bridgehead indices
    for (int s = 1; s < hi - lo; ++s)
      for (int i = lo; i < hi; ++i) {
        if (i + 1 < hi && i - (s - 1) >= lo) out.push_back(LineMsg{s, bh[size_t(i)], bh[size_t(i + 1)], +1, bh[size_t(i - (s - 1))], 1, 0, 1});
        if (i - 1 >= lo && i + (s - 1) < hi) out.push_back(LineMsg{s, bh[size_t(i)], bh[size_t(i - 1)], -1, bh[size_t(i + (s - 1))], 1, 0, 1});
      }
    steps = std::max(steps, hi - lo - 1);
  }
  return steps;
}

namespace {

void concentrate_rec_one_port(int n, int lo, int m, bool toward_right, int top, LineOut& out) {
  if (m <= 1) return;
  if (toward_right) {
    const int left = m / 2;  // sends rightwards
    concentrate_rec_one_port(n, lo, left, true, top - 1, out);
    concentrate_rec_one_port(n, lo + left, m - left, false, top - 1, out);
    out.push_back(LineMsg{top, wrap(lo + binary_centre(left, true), n), wrap(lo + left + binary_centre(m - left, false), n),
                          +1, wrap(lo, n), left, 0, 1});
  } else {
    const int left = (m + 1) / 2;  // receives from the right
    concentrate_rec_one_port(n, lo, left, true, top - 1, out);
    concentrate_rec_one_port(n, lo + left, m - left, false, top - 1, out);
    out.push_back(LineMsg{top, wrap(lo + left + binary_centre(m - left, false), n), wrap(lo + binary_centre(left, true), n),
                          -1, wrap(lo + left, n), m - left, 0, 1});
  }
}

}  // namespace

int concentrate_one_port(int n, const std::vector<Segment>& segments, LineOut& out) {
  int depth = 0;
  for (const Segment& s : segments) depth = std::max(depth, concentration_steps_one_port(s.len));
  for (const Segment& s : segments) concentrate_rec_one_port(n, s.lo, s.len, true, depth, out);
  return depth;
}

int disseminate_all_one_port(int n, LineOut& out) {
  LineList conc;
  const int depth = concentrate_one_port(n, {Segment{0, n}}, conc);
  for (const LineMsg& m : conc.msgs) out.push_back(LineMsg{depth + 1 - m.step, m.to, m.from, -m.dir, 0, n, 0, 1});
  return depth;
}

int circulate_one_port(int n, const std::vector<int>& bh, int period, LineOut& out) {
  const int b = int(bh.size());
  if (b < 2 || period < 2) return 0;
  for (int s = 1; s < period; ++s)
    for (int i = 0; i < b; ++i)
      out.push_back(LineMsg{s, bh[size_t(i)], bh[size_t(wrap(i + 1, b))], +1, bh[size_t(wrap(i - (s - 1), b))], 1, 0, 1});
  (void)n;
  return period - 1;
}

int fill_one_port(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out) {
  if (old.empty() || k < 1) return 0;
  int steps = 0;
  for (const GapChain& g : gap_chains(n, old, all)) steps = std::max(steps, one_stream(g.chain, +1, k, out));
  return steps;
}

}  // namespace gossip_detail
}  // namespace wormcast::sw
