// A simulated iBT broadcast as a schedule (every packet's steps, or one packet's), and the plans
// chosen by simulation: the best packet order of a line broadcast and the global broadcast's.
#include "sw/ibt/ibt_broadcast.h"

#include <algorithm>
#include <map>
#include <set>

namespace wormcast::sw {

namespace {
/// The torus under the network; `bypass_ok`: also for an iBT (the bypass links are then the
/// network family's business, not the IR's).
Topology plain_topology(const IbtTopology& t, bool bypass_ok = false) {
  if ((!t.is_torus() && !bypass_ok) || t.dims() > kMaxTorusDims)
    throw IbtConfigError("schedule IR: torus networks of at most 4 dimensions only (no bypass links)");
  int radix[kMaxDims];
  bool torus[kMaxDims];
  for (int i = 0; i < t.dims(); ++i) {
    radix[i] = t.n();
    torus[i] = true;
  }
  return Topology(t.dims(), radix, torus);
}
}  // namespace

Schedule to_schedule(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r) {
  Schedule s;
  s.topology = plain_topology(t, true);
  s.collective = Collective::Broadcast;
  s.source = static_cast<int>(b.source);
  s.algo = b.algo == IbtAlgo::TorusTrees ? "ibt-torus-trees" : "ibt-colour";
  s.num_steps = r.sends_per_step.empty() ? 0 : static_cast<int>(r.sends_per_step.size());
  std::map<std::pair<int, int64_t>, int> rank;
  for (const IbtSend& x : r.trace) {
    Unicast u;
    u.src = static_cast<int>(x.src);
    u.dst = static_cast<int>(x.dst);
    u.step = x.step;
    u.order = rank[{x.step, x.src}]++;
    u.chunks = ChunkSet::single(x.packet);
    s.unicasts.push_back(u);
  }
  return s;
}

Schedule packet_schedule(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r, int packet) {
  Schedule s;
  s.topology = plain_topology(t);
  s.source = static_cast<int>(b.source);
  s.algo = "ibt-packet";
  int start = -1;
  for (const IbtSend& x : r.trace)
    if (x.packet == packet && x.src == b.source && (start < 0 || x.step < start)) start = x.step;
  std::map<std::pair<int, int64_t>, int> rank;
  for (const IbtSend& x : r.trace) {
    if (x.packet != packet) continue;
    Unicast u;
    u.src = static_cast<int>(x.src);
    u.dst = static_cast<int>(x.dst);
    u.step = x.step - start + 1;
    u.order = rank[{u.step, x.src}]++;
    s.num_steps = std::max(s.num_steps, u.step);
    s.unicasts.push_back(u);
  }
  return s;
}

LineBest best_line(const IbtTopology& t, int64_t source, int dim, int k, const std::vector<int>& pns) {
  LineBest best{-1, -1};
  for (int pn : pns) {
    const IbtSimResult r = simulate_broadcast(t, ibt_line(source, dim, k, pn));
    if (r.complete && (best.steps < 0 || r.steps < best.steps)) best = LineBest{r.steps, pn};
  }
  return best;
}

RectBest best_rectangular(const IbtTopology& t, int64_t source, int i1, int i2, int k, int split_range,
                          const std::vector<int>& pns, bool staged) {
  RectBest best;
  best.steps = -1;
  std::vector<int> pn1s = pns, pn2s = pns;
  if (staged) {
    // A dimension given no packets (k = 1: k / 2 = 0) has no line to choose a pn by: 0, as a global plan's.
    pn1s = {k / 2 ? best_line(t, source, i1, k / 2, pns).pn : 0};
    pn2s = {best_line(t, source, i2, k - k / 2, pns).pn};
  }
  for (int k1 = 0; k1 <= k; ++k1) {
    const int k2 = k - k1;
    if (std::abs(k1 - k2) > split_range) continue;
    for (int pn1 : pn1s)
      for (int pn2 : pn2s) {
        const IbtSimResult r = simulate_broadcast(t, ibt_rectangular(source, i1, i2, k1, k2, pn1, pn2));
        if (r.complete && (best.steps < 0 || r.steps < best.steps)) best = RectBest{r.steps, k1, k2, pn1, pn2};
      }
  }
  return best;
}

IbtBroadcast global_plan(const IbtTopology& t, int64_t source, int k, const std::vector<int>& pns, int split) {
  const int d = t.dims();
  // The even split first (counts k/d rounded, the first k mod d colours one more), so that a tie
  // keeps it; then every other split whose counts differ by at most `split`.
  std::vector<std::vector<int>> splits(1, std::vector<int>(d));
  for (int i = 0; i < d; ++i) splits[0][i] = k / d + (i < k % d ? 1 : 0);
  if (split > 1) {
    std::vector<int> c(d);
    const auto walk = [&](const auto& self, int i, int left) -> void {
      if (i == d - 1) {
        c[i] = left;
        const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
        if (*hi - *lo <= split && c != splits[0]) splits.push_back(c);
        return;
      }
      for (int x = 0; x <= left; ++x) {
        c[i] = x;
        self(self, i + 1, left - x);
      }
    };
    walk(walk, 0, k);
  }
  std::map<std::pair<int, int>, int> line_pn;  // (dimension, count) -> best pn of that line
  const auto pn_of = [&](int dim, int count) {
    if (count == 0) return 0;
    auto it = line_pn.find({dim, count});
    if (it == line_pn.end()) it = line_pn.emplace(std::make_pair(dim, count), best_line(t, source, dim, count, pns).pn).first;
    return it->second;
  };
  const auto plan = [&](const std::vector<int>& counts) {
    std::vector<int> chosen(d);
    for (int i = 0; i < d; ++i) chosen[i] = pn_of(i, counts[i]);
    return ibt_global(source, counts, chosen);
  };
  IbtBroadcast best = plan(splits[0]);  // also the answer when no split completes
  if (splits.size() == 1) return best;
  int best_steps = -1;
  for (const auto& counts : splits) {
    IbtBroadcast b = plan(counts);
    const IbtSimResult r = simulate_broadcast(t, b);
    if (r.complete && (best_steps < 0 || r.steps < best_steps)) {
      best_steps = r.steps;
      best = std::move(b);
    }
  }
  return best;
}

int torus_line_steps(int n, int k) { return n / 2 + (k + 1) / 2 - 1; }
int torus_all_steps(int n, int d, int k) { return d * (n - 1) + (k + 2 * d - 1) / (2 * d) - 1; }
int torus_rect_steps(int n, int k) { return 2 * n + (k + 3) / 4 - 3; }

}  // namespace wormcast::sw
