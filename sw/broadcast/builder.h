// Internal helper of the generators: collects unicasts written relative to source 0 with signed
// offsets, numbers send orders, and translates the result to the requested source.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "sw/broadcast/broadcast.h"

namespace wormcast::sw::detail {

/// Signed coordinate vector; reduced mod radix when turned into a node.
struct Vec {
  int c[kMaxDims] = {0, 0, 0, 0};
  int& operator[](int d) { return c[d]; }
  int operator[](int d) const { return c[d]; }
};

inline Vec operator+(const Vec& a, const Vec& b) {
  Vec r;
  for (int d = 0; d < kMaxDims; ++d) r[d] = a[d] + b[d];
  return r;
}
inline Vec operator*(int s, const Vec& a) {
  Vec r;
  for (int d = 0; d < kMaxDims; ++d) r[d] = s * a[d];
  return r;
}
inline Vec vec2(int x, int y) {
  Vec v;
  v[0] = x;
  v[1] = y;
  return v;
}

class ScheduleBuilder {
 public:
  ScheduleBuilder(const Topology& t, std::string algo) : m_t(t) {
    m_s.topology = t;
    m_s.source = 0;
    m_s.algo = std::move(algo);
  }

  int node(const Vec& v) const {
    Coord c;
    for (int d = 0; d < m_t.dims(); ++d) {
      const int k = m_t.radix(d);
      c[d] = ((v[d] % k) + k) % k;
    }
    return m_t.node(c);
  }

  /// Adds src -> dst in `step`; the send order is the number of earlier adds by src in that step.
  void add(const Vec& src, const Vec& dst, int step, bool tie_negative = false) {
    add_nodes(node(src), node(dst), step, tie_negative);
  }
  void add_nodes(int src, int dst, int step, bool tie_negative = false) {
    Unicast u;
    u.src = src;
    u.dst = dst;
    u.step = step;
    u.order = m_orders[{src, step}]++;
    u.tie_negative = tie_negative;
    m_s.unicasts.push_back(u);
  }

  /// The schedule for `source`, with `num_steps` steps.
  Schedule finish(int source, int num_steps, bool keep_redundant = true) {
    m_s.num_steps = num_steps;
    if (!keep_redundant) drop_redundant(m_s);
    Schedule out = source == 0 ? m_s : translate(m_s, source);
    sort_canonical(out);
    return out;
  }

 private:
  Topology m_t;
  Schedule m_s;
  std::map<std::pair<int, int>, int> m_orders;
};

/// Throws UnsupportedNetwork unless every dimension is a torus and `source` is a node.
void require_torus(const Topology& t, int source, const char* algo, const std::string& allowed);

}  // namespace wormcast::sw::detail
