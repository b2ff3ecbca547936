// Bypass-first routing on the interlaced bypass torus; the deadlock-freedom argument is in
// docs/router.md section 10.
#include "systemc/ibt/routing.h"

#include <cstdlib>

namespace wormcast {

namespace {
int ring_distance(int delta, int n) {
  const int f = ((delta % n) + n) % n;
  return f < n - f ? f : n - f;
}
}  // namespace

int BypassRouting::planned_bypass_hops(int node, int dst) const {
  const int dim = m_ibt.bypass_dim(node);
  const int len = m_ibt.bypass_length(node);
  const int n = m_ibt.n();
  const int delta = m_torus.coord_of(dst, dim) - m_torus.coord_of(node, dim);
  int best_j = 0, best = ring_distance(delta, n);
  for (int a = 1; a * len < n; ++a) {
    for (int j : {a, -a}) {  // fewer hops first, plus before minus: the first strict minimum wins
      const int cost = a + ring_distance(delta - j * len, n);
      if (cost < best) {
        best = cost;
        best_j = j;
      }
    }
  }
  return best_j;
}

PortRoute BypassRouting::route(int node, int in_port, int dst, bool tie) const {
  PortRoute r;
  const int bypass = m_ibt.bypass_port();
  if (m_mode == IbtRouting::Bypass && (in_port < 0 || in_port >= bypass) && node != dst) {
    const int j = planned_bypass_hops(node, dst);
    if (j != 0) {
      // Dateline of the bypass ring: its links whose coordinate wraps (x + b >= n going plus,
      // x - b < 0 going minus). The p class while such a link is still ahead on this packet's
      // bypass hops, l/h once it is behind or when there is none (docs/router.md section 10).
      const int x = m_torus.coord_of(node, m_ibt.bypass_dim(node));
      const int disp = j * m_ibt.bypass_length(node);
      const bool wraps = x + disp >= m_ibt.n() || x + disp < 0;
      r.port = j > 0 ? bypass : bypass + 1;
      r.classed = true;
      r.vclass = wraps ? sw::VcClass::P : sw::VcClass::LH;
      return r;
    }
  }
  const sw::RouteStep s = m_torus.route(node, dst, tie);
  r.port = s.port;
  r.classed = s.port >= 0;
  r.vclass = s.vclass;
  return r;
}

}  // namespace wormcast
